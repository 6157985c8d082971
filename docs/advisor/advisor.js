// The interactive advisor of docs/advisor.md: plain JavaScript, no network, no library.
// Reads window.FHSYM_ADVISOR (docs/advisor/advisor-data.js, written by `python scripts/figures.py` from the
// frontier data file) and shows one release's certified ranking, best first, as fhsym.advise ranks it from
// that file.  The ranking itself is precomputed in Python (fhsym.applications.advisor_table); this script
// only looks it up and prints it.
(function () {
  "use strict";
  var T = window.FHSYM_ADVISOR;
  var root = document.getElementById("fhsym-advisor");
  if (!root) return;
  if (!T) {
    root.textContent = "The advisor table (advisor-data.js) did not load.";
    return;
  }
  var AXES = ["norm", "compositions", "dim", "delta", "epsilon"];
  var NAMES = {norm: "sensitivity set", compositions: "T (releases)", dim: "K (coordinates)", delta: "delta",
               epsilon: "epsilon"};
  var SETS = {linf: "l_inf box", l2: "l2 ball", l1: "l1 ball"};
  var DEFAULT = {norm: "linf", compositions: 1, dim: 1, delta: 1e-6, epsilon: 1};

  // Python's "%.<digits>g": exponent form below 1e-4 or from 10^digits on, trailing zeros dropped, two-digit exponent
  function fmt(x, digits) {
    if (x === null || x === undefined) return "-";
    x = Number(x);
    if (x === 0 || !isFinite(x)) return String(x);
    var e = Number(x.toExponential(digits - 1).split("e")[1]);
    var s;
    if (e < -4 || e >= digits) {
      var parts = x.toExponential(digits - 1).split("e");
      var m = parts[0].indexOf(".") >= 0 ? parts[0].replace(/0+$/, "").replace(/\.$/, "") : parts[0];
      var ex = Number(parts[1]);
      s = m + "e" + (ex < 0 ? "-" : "+") + (Math.abs(ex) < 10 ? "0" : "") + Math.abs(ex);
    } else {
      s = x.toFixed(Math.max(0, digits - 1 - e));
      if (s.indexOf(".") >= 0) s = s.replace(/0+$/, "").replace(/\.$/, "");
    }
    return s;
  }
  // a grid value as Python's "%g" prints it (1e-06, 0.05, 1000): the same text as `fhsym advise`
  function g(x) { return fmt(x, 6); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  var form = el("form", {"class": "fhsym-advisor-form"});
  form.addEventListener("submit", function (ev) { ev.preventDefault(); });
  var selects = {};
  AXES.forEach(function (axis) {
    var label = el("label", {"for": "fhsym-advisor-" + axis}, NAMES[axis] + " ");
    var sel = el("select", {id: "fhsym-advisor-" + axis, name: axis});
    T.grid[axis].forEach(function (v, i) {
      var opt = el("option", {value: String(i)}, axis === "norm" ? SETS[v] : g(v));
      if (v === DEFAULT[axis]) opt.selected = true;
      sel.appendChild(opt);
    });
    sel.addEventListener("change", show);
    selects[axis] = sel;
    label.appendChild(sel);
    form.appendChild(label);
    form.appendChild(document.createTextNode(" "));
  });
  root.appendChild(form);
  var head = el("p", {id: "fhsym-advisor-release"});
  var table = el("table", {id: "fhsym-advisor-ranking"});
  var notes = el("div", {id: "fhsym-advisor-notes"});
  root.appendChild(head);
  root.appendChild(table);
  root.appendChild(notes);

  function index() {
    var i = 0;
    AXES.forEach(function (axis) { i = i * T.grid[axis].length + Number(selects[axis].value); });
    return i;
  }

  function show() {
    var rel = T.releases[index()];
    var order = rel[0], vars = rel[1], qs = rel[2], members = rel[3], missing = rel[4], over = rel[5];
    var v = {};
    AXES.forEach(function (axis) { v[axis] = T.grid[axis][Number(selects[axis].value)]; });
    head.textContent = "(" + g(v.epsilon) + ", " + g(v.delta) + ")-DP, K = " + v.dim + " coordinate(s), T = " +
      v.compositions + " release(s), unit " + SETS[v.norm] + ": per-coordinate variance, certified, best first.";
    table.textContent = "";
    var hrow = el("tr");
    ["#", "mechanism", "variance", "over the best", "99.9 % quantile of |noise|", "over the optimum"]
      .forEach(function (h) { hrow.appendChild(el("th", {}, h)); });
    var thead = el("thead");
    thead.appendChild(hrow);
    table.appendChild(thead);
    var tbody = el("tbody");
    for (var i = 0; i < order.length; i++) {
      var c = Number(order[i]);
      var tr = el("tr", {"data-candidate": T.candidates[c]});
      var r = vars[i] / vars[0];
      var overBest = i === 0 ? "best" : (r >= 10 ? fmt(r, 3) + "x" : "+" + fmt(100 * (r - 1), 3) + " %") +
        " (" + (10 * Math.log10(r) >= 0 ? "+" : "") + fmt(10 * Math.log10(r), 3) + " dB)";
      var name = T.labels[c] + (members.indexOf(order[i]) >= 0 ? " (its Gaussian member)" : "");
      [String(i + 1), name, fmt(vars[i], 7), overBest, fmt(qs[i], 5),
       over ? "<= +" + fmt(over[i], 3) + " %" : "n/a"].forEach(function (x) { tr.appendChild(el("td", {}, x)); });
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    notes.textContent = "";
    var key = Number(selects.delta.value) + "," + Number(selects.epsilon.value);
    if (over && T.optimum[key]) {
      notes.appendChild(el("p", {id: "fhsym-advisor-optimum"}, "Optimum of any additive noise (certified interval): [" +
        fmt(T.optimum[key][0], 7) + ", " + fmt(T.optimum[key][1], 7) + "]; 'over the optimum' bounds each " +
        "variance's distance to it from above."));
    } else {
      notes.appendChild(el("p", {}, "Over the optimum: certified in one coordinate and one release only (K = T = 1)."));
    }
    for (var j = 0; j + 1 < missing.length; j += 2) {
      var cand = T.labels[Number(missing[j])];
      notes.appendChild(el("p", {"class": "fhsym-advisor-missing"}, missing[j + 1] === "e" ?
        "Not calibrated: " + cand + " (the frontier data records that its calibration failed)." :
        "Not in the data: " + cand + " (skipped by the sweep, where it could not be best; `fhsym advise` " +
        "calibrates it now)."));
    }
  }
  show();
})();
