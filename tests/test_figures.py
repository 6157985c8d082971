"""The pictures and the advisor table of the docs are the data files' (``python scripts/figures.py``).

* each committed PNG carries, in its metadata, the digest of the numbers it plots; re-rendering from the data file
  into a temporary folder gives the same digest (not the same pixels: fonts differ between machines);
* the committed ``docs/advisor/advisor-data.js`` is, byte for byte, what the script exports now;
* the table ranks each release as ``fhsym.advise`` ranks it from the data file (``release_ranking``, a few releases
  where the data file holds every call, so that ``advise`` computes nothing);
* ``fhsym advise --plot FILE`` writes the ranking's picture.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("matplotlib", reason="the figures need matplotlib (extra plot)")
from PIL import Image  # noqa: E402  (matplotlib depends on pillow)

import fhsym  # noqa: E402
from fhsym import plotting as P  # noqa: E402
from fhsym.applications.advise import advise, default_data_path  # noqa: E402
from fhsym.applications.advisor_table import load_data, optimum_bounds, release_ranking  # noqa: E402
from fhsym.frontier_figures import TIE_DB  # noqa: E402


def _script():
    spec = importlib.util.spec_from_file_location("figures_script", ROOT / "scripts" / "figures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def data():
    return load_data(default_data_path())


def _digest(path: Path) -> str:
    with Image.open(path) as im:
        return im.info.get(P.DIGEST_KEY, "")


def test_committed_figures_are_fresh(data, tmp_path):
    script = _script()
    fresh = script.render(data, tmp_path)
    assert [p.name for p in fresh] == list(script.figures(data))
    for p in fresh:
        committed = ROOT / "docs" / "figures" / p.name
        assert committed.is_file(), f"{committed} missing: run python scripts/figures.py"
        assert _digest(p), p
        assert _digest(committed) == _digest(p), f"{committed} is stale: run python scripts/figures.py"


def test_the_digest_sees_a_changed_number(data):
    s = P.frontier_gain_series(data)
    before = P.data_digest(s)
    s["gain"]["1e-06"][0][0] = (s["gain"]["1e-06"][0][0] or 0.0) + 0.001
    assert P.data_digest(s) != before
    e = P.optimum_excess_series(data)
    before = P.data_digest(e)
    e["width"]["1e-05"][3] *= 1.01
    assert P.data_digest(e) != before


def test_gain_counts_are_the_data_files(data):
    s = P.frontier_gain_series(data)
    ent = [e for e in data["entries"] if e["norm"] == "linf" and e["compositions"] == 1 and e["complete"]]
    wins = sum(e["fh_gain_db"] > TIE_DB for e in ent if e["fh_gain_db"] is not None)
    assert sum(c["win"] for c in s["counts"].values()) == wins
    assert sum(sum(c.values()) for c in s["counts"].values()) == len(ent)


def test_committed_advisor_table_is_fresh(data):
    script = _script()
    committed = ROOT / "docs" / "advisor" / "advisor-data.js"
    assert committed.read_text() == script.advisor_js(data), "stale: run python scripts/figures.py"


# releases where the data file holds every call (truncated Laplace computed, or its error recorded), so that advise
# re-verifies certificates and computes nothing; one coordinate, a box, a ball and compositions
RELEASES = [(1.0, 1e-6, 1, "linf", 1), (0.05, 1e-5, 2, "linf", 1), (0.3, 1e-10, 5, "linf", 1),
            (2.0, 1e-6, 20, "l2", 1), (0.1, 1e-6, 2, "l2", 10),
            (1.0, 1e-8, 1000, "linf", 100)]  # the last: two calibrations recorded as failed


@pytest.mark.parametrize("release", RELEASES)
def test_table_ranks_as_advise(data, release):
    eps, delta, K, norm, T = release
    r = release_ranking(data, eps, delta, K, norm, T)
    if r["missing"] and any(not s.startswith("error") for s in r["missing"].values()):
        pytest.fail(f"pick another release: {r['missing']} would be computed by advise")
    adv = advise(eps, delta, dim=K, norm=norm, compositions=T)
    assert [o.candidate for o in adv.options] == [o["candidate"] for o in r["options"]]
    # advise re-evaluates each re-verified noise's variance; the staircase's is now its generated form (issue 28), within
    # 4.4e-16 of the formula that wrote the data file
    assert [o.variance for o in adv.options] == pytest.approx([o["variance"] for o in r["options"]], rel=1e-15)
    assert sorted(c for c, _ in adv.failed) == sorted(r["missing"])
    if adv.optimum is not None:
        assert r["optimum"] == (adv.optimum.lower, adv.optimum.upper)
    else:
        assert r["optimum"] is None


def test_cli_advise_plot_writes_the_ranking(tmp_path, capsys):
    from fhsym.cli import main

    out = tmp_path / "advice.png"
    assert main(["advise", "--epsilon", "1", "--delta", "1e-6", "--no-progress", "--plot", str(out), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["plot"] == str(out)
    with Image.open(out) as im:
        assert im.size[0] > 500
        digest = im.info.get(P.DIGEST_KEY)
    adv = advise(1.0, 1e-6)
    assert digest == P.data_digest(P.advice_series(adv))


def test_optimum_band_is_the_interval_advise_gives(data):
    """The optimum figure's band is the interval ``fhsym.advise`` reports (its upper end the best certified law), never
    wider than the frontier file's LP interval; at eps 1, delta 1e-6 it is the truncated staircase's upper end."""
    s = P.optimum_excess_series(data)
    stored = {(float(o["epsilon"]), float(o["delta"])): (float(o["lower"]), float(o["upper"]))
              for o in data["optimum"] if "error" not in o}
    bounds = optimum_bounds(data)
    for key, eps in s["epsilons"].items():
        for x, w in zip(eps, s["width"][key]):
            lo, up = stored[(x, float(key))]  # two LP solves: the lower end no lower than ~1e-8, the upper never above
            alo, aup = bounds[(x, float(key))]
            assert aup <= up * (1 + 1e-12) and alo >= lo * (1 - 1e-6), (x, key, alo, aup, lo, up)
            assert w == pytest.approx(100.0 * (aup / alo - 1.0), rel=1e-12)
    adv = advise(1.0, 1e-6)
    j = s["epsilons"]["1e-06"].index(1.0)
    ts = fhsym.calibrate(1.0, 1e-6, mechanism="truncated_staircase").mechanism.variance_upper()
    assert adv.optimum is not None and adv.optimum.upper == pytest.approx(ts, rel=1e-9)
    assert s["width"]["1e-06"][j] == pytest.approx(100.0 * (adv.optimum.upper / adv.optimum.lower - 1.0), rel=1e-12)
