"""Look at the built documentation in a real browser: math rendered, roles rendered, no network.

Builds the site (``mkdocs build --strict``) into a temporary folder, serves it on 127.0.0.1,
opens pages in headless Chromium (Debian's ``chromium`` + ``chromium-driver``, driven by
Selenium), waits until MathJax has typeset the page, checks what a reader would see, and saves
a screenshot of each page::

    python scripts/docs_screenshots.py                  # screenshots into docs/screenshots/
    python scripts/docs_screenshots.py --out /tmp/shots --site site/   # reuse a built site
    python scripts/docs_screenshots.py --all --out /tmp/shots          # every page of the site (to look at)

Checks (exit 1 when one fails, each printed):

* every page: each ``.arithmatex`` element (the LaTeX the Markdown carries) holds an
  ``mjx-container`` (MathJax's output), no ``mjx-merror`` (a TeX error), no raw ``\\(``, ``\\[``
  or ``$$`` left in the visible text outside code, and every resource the page loaded came from
  the local server (the math renders offline); no Sphinx role (``:func:`` ...) and no raw
  Markdown (a table row ``|---|``, a link ``](``, ``**``) in the visible text, no escaped pipe
  ``\\|`` in code, and every image loaded;
* the API page: no Sphinx role (``:func:`` ...) in the visible text, cross-reference links
  present, and the FlippedHuber parameter table lists exactly ``alpha`` and ``gamma``.

Chromium runs with the flags this machine needs (root, no network): ``--headless --no-sandbox
--disable-gpu --disable-quic --no-first-run --disable-background-networking
--disable-component-update --disable-sync`` and a fresh ``--user-data-dir``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("FHSYM_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("FHSYM_CHROMEDRIVER", "/usr/bin/chromedriver")

# page path in the site, screenshot file, element to scroll to (None: top of the page)
PAGES: List[Tuple[str, str, Optional[str]]] = [
    ("index.html", "index.png", None),
    ("api/index.html", "api.png", "fhsym.noise.flipped_huber.FlippedHuber"),
    ("derivations/index.html", "derivations.png", None),
]
#: with --all: every other page of the site, top of the page
MORE_PAGES: List[Tuple[str, str, Optional[str]]] = [
    (f"{name}/index.html", f"{name.replace('/', '_')}.png", None)
    for name in ("getting-started", "scipy", "accuracy", "certificates", "proofs-report", "codegen", "errata", "mechanisms",
                 "kdim", "frontier", "optimum", "advisor", "security", "dpcd", "integrations", "reproduction/1d", "reproduction/kdim")
] + [
    ("index.html", "index_layout.png", "layout-of-the-project"),                 # the layout table
    ("getting-started/index.html", "getting-started_cli.png", "command-line"),   # the CLI table and output
    ("api/index.html", "api_doctest.png", "fhsym.noise.exact_sampling.Geometric"),  # a doctest outside Examples
]
WINDOW = (1280, 1000)

# Runs in the page: wait for MathJax's first typeset and for the one mkdocs-material triggers.
WAIT_MATHJAX = """
const done = arguments[arguments.length - 1];
const deadline = Date.now() + 30000;
(function poll() {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    MathJax.startup.promise
      .then(() => MathJax.typesetPromise ? MathJax.typesetPromise() : null)
      .then(() => done({ok: true, version: MathJax.version}))
      .catch(e => done({ok: false, error: String(e)}));
  } else if (Date.now() > deadline) {
    done({ok: false, error: "MathJax did not load"});
  } else {
    setTimeout(poll, 50);
  }
})();
"""

# Runs in the page: what a reader sees.
INSPECT = """
const visible = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const p = n.parentElement;
  if (!p || p.closest("pre, code, script, style, mjx-container, mjx-assistive-mml")) continue;
  visible.push(n.textContent);
}
const text = visible.join(" ");
const math = Array.from(document.querySelectorAll(".arithmatex"));
const origin = location.origin;
const resources = performance.getEntriesByType("resource").map(e => e.name);
return {
  arithmatex: math.length,
  typeset: math.filter(el => el.querySelector("mjx-container")).length,
  mjx_containers: document.querySelectorAll("mjx-container").length,
  merrors: document.querySelectorAll("mjx-merror, [data-mjx-error]").length,
  raw_math: ["\\\\(", "\\\\[", "$$"].filter(s => text.includes(s)),
  roles: [":func:`", ":class:`", ":meth:`", ":mod:`", ":data:`", ":attr:`", ":func:", ":meth:"]
           .filter(s => text.includes(s)),
  raw_markdown: ["|---|", "| --- |", "](", "**"].filter(s => text.includes(s)),
  escaped_pipes: Array.from(document.querySelectorAll("code")).filter(c => c.textContent.includes("\\\\|")).length,
  broken_images: Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
  external: resources.filter(r => !r.startsWith(origin) && !r.startsWith("data:")),
  autorefs: document.querySelectorAll("a.autorefs-internal").length,
};
"""

FH_TABLE = """
const h = document.getElementById(arguments[0]);
if (!h) return null;
const table = h.parentElement.querySelector("table");
return table ? Array.from(table.querySelectorAll("tbody tr td:first-child")).map(td => td.innerText.trim()) : null;
"""


def build_site(dest: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
                        "-d", str(dest)], cwd=ROOT, capture_output=True, text=True, env=env, timeout=900)
    if r.returncode != 0:
        raise SystemExit(f"mkdocs build --strict failed:\n{r.stdout}{r.stderr}")


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 (a free port) for the duration of the block."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextlib.contextmanager
def browser(profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
                 f"--window-size={WINDOW[0]},{WINDOW[1]}", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    try:
        driver.set_script_timeout(60)
        driver.set_page_load_timeout(60)
        yield driver
    finally:
        driver.quit()


def check_page(driver, base: str, page: str, shot: Path, anchor: Optional[str]) -> Tuple[Dict, List[str]]:
    driver.get(base + page)
    waited = driver.execute_async_script(WAIT_MATHJAX)
    info = driver.execute_script(INSPECT)
    info["mathjax"] = waited
    problems: List[str] = []
    if not waited.get("ok"):
        problems.append(f"MathJax: {waited.get('error')}")
    if info["typeset"] != info["arithmatex"]:
        problems.append(f"{info['arithmatex'] - info['typeset']} of {info['arithmatex']} math elements not typeset")
    if info["merrors"]:
        problems.append(f"{info['merrors']} TeX errors (mjx-merror)")
    if info["raw_math"]:
        problems.append(f"raw TeX delimiters in the visible text: {info['raw_math']}")
    if info["external"]:
        problems.append(f"resources from outside the site: {info['external']}")
    if info["roles"]:
        problems.append(f"Sphinx roles shown as text: {info['roles']}")
    if info["raw_markdown"]:
        problems.append(f"raw Markdown in the visible text: {info['raw_markdown']}")
    if info["escaped_pipes"]:
        problems.append(f"{info['escaped_pipes']} code spans show an escaped pipe \\|")
    if info["broken_images"]:
        problems.append(f"images that did not load: {info['broken_images']}")
    if page.startswith("api/"):
        if info["autorefs"] < 50:
            problems.append(f"only {info['autorefs']} cross-reference links")
        params = driver.execute_script(FH_TABLE, "fhsym.noise.flipped_huber.FlippedHuber")
        info["flipped_huber_parameters"] = params
        if params != ["alpha", "gamma"]:
            problems.append(f"FlippedHuber parameter table: {params}")
    # no CSS transitions in the picture (the header swaps its title with an animation on scroll)
    driver.execute_script("const s = document.createElement('style');"
                          "s.textContent = '*, *::before, *::after {transition: none !important; animation: none !important}';"
                          "document.head.appendChild(s);")
    if anchor:
        driver.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: 'start'});"
                              "window.scrollBy(0, -70);", anchor)
    time.sleep(0.5)  # let the scroll handlers (header title, table of contents) settle
    driver.save_screenshot(str(shot))
    return info, problems


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="folder for the PNG files")
    ap.add_argument("--site", type=Path, help="an already built site (default: build one now)")
    ap.add_argument("--all", action="store_true", help="every page of the site, not only the three of docs/screenshots/")
    args = ap.parse_args(argv)
    for exe in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(exe):
            print(f"{exe} not found: apt-get install chromium chromium-driver", file=sys.stderr)
            return 2
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="fhsym-site-") as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            build_site(site)
        with serve(site) as base, browser(Path(tmp) / "chromium-profile") as driver:
            for page, name, anchor in PAGES + (MORE_PAGES if args.all else []):
                info, problems = check_page(driver, base, page, args.out / name, anchor)
                status = "FAIL" if problems else "ok"
                print(f"{status}  {page} -> {args.out / name}  {json.dumps(info, sort_keys=True)}")
                for p in problems:
                    print(f"      {p}")
                failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
