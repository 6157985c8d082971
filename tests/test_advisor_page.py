"""The interactive advisor page (docs/advisor.md) in headless Chromium: set the inputs, read the ranking back, and
compare it with ``fhsym.advise(..., data=True)``.

The page is built with the rest of the site (``mkdocs build --strict``), served on 127.0.0.1 and opened in
Debian's ``chromium`` + ``chromium-driver`` through Selenium, as ``scripts/docs_screenshots.py`` does (its
``build_site``, ``serve`` and ``browser``).  Set-up: the browser is found at ``/usr/bin/chromium`` and
``/usr/bin/chromedriver`` (``FHSYM_CHROMIUM`` / ``FHSYM_CHROMEDRIVER`` override); where they are missing the test
is skipped with the reason, except with ``FHSYM_REQUIRE_BROWSER=1`` (``.ci/run`` installs Chromium and sets it),
where a missing browser fails.  Marked slow (~40 s: one site build).  A screenshot of the page goes to the
temporary folder (``scripts/docs_screenshots.py --all`` writes ``advisor.png`` with the others).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from fhsym.applications.advise import advise

ROOT = Path(__file__).resolve().parent.parent

# a box in one coordinate (optimum shown), a box in 5, a ball with Gaussian members, compositions, a release where
# two calibrations are recorded as failed; every call of each is in the data file, so advise computes nothing
RELEASES = [(1.0, 1e-6, 1, "linf", 1), (0.3, 1e-10, 5, "linf", 1), (2.0, 1e-6, 20, "l2", 1),
            (0.1, 1e-6, 2, "l2", 10), (1.0, 1e-8, 1000, "linf", 100)]

READ = """
const rows = Array.from(document.querySelectorAll('#fhsym-advisor-ranking tbody tr'));
return {
  head: document.getElementById('fhsym-advisor-release').textContent,
  rows: rows.map(r => [r.dataset.candidate].concat(Array.from(r.cells).map(c => c.textContent))),
  missing: Array.from(document.querySelectorAll('.fhsym-advisor-missing')).map(p => p.textContent),
  optimum: (document.getElementById('fhsym-advisor-optimum') || {}).textContent || null,
  external: performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin)),
};
"""


def _screenshots():
    spec = importlib.util.spec_from_file_location("docs_screenshots", ROOT / "scripts" / "docs_screenshots.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_advisor_page_ranks_as_advise(tmp_path):
    shots = _screenshots()
    for exe, pkg in ((shots.CHROMIUM, "chromium"), (shots.CHROMEDRIVER, "chromium-driver")):
        if not shutil.which(exe):
            if os.environ.get("FHSYM_REQUIRE_BROWSER") == "1":
                pytest.fail(f"{exe} is not installed (apt-get install {pkg}) and FHSYM_REQUIRE_BROWSER=1")
            pytest.skip(f"{exe} is not installed (apt-get install {pkg})")
    pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[docs]')")
    pytest.importorskip("mkdocs", reason="the docs tools are not installed (pip install -e '.[docs]')")
    from selenium.webdriver.support.ui import Select

    site = tmp_path / "site"
    shots.build_site(site)
    assert (site / "advisor" / "advisor-data.js").is_file()
    with shots.serve(site) as base, shots.browser(tmp_path / "profile") as driver:
        driver.get(base + "advisor/index.html")
        for eps, delta, K, norm, T in RELEASES:
            for axis, value in (("norm", norm), ("compositions", T), ("dim", K), ("delta", delta), ("epsilon", eps)):
                sel = Select(driver.find_element("id", f"fhsym-advisor-{axis}"))
                idx = driver.execute_script(f"return window.FHSYM_ADVISOR.grid[{axis!r}].indexOf(arguments[0]);", value)
                assert idx >= 0, (axis, value)
                sel.select_by_value(str(idx))
            page = driver.execute_script(READ)
            assert page["external"] == [], page["external"]
            assert f"({eps:g}, {delta:g})-DP, K = {K} " in page["head"], page["head"]
            adv = advise(eps, delta, dim=K, norm=norm, compositions=T, data=True)
            want = [o.candidate for o in adv.options]
            assert [r[0] for r in page["rows"]] == want, (eps, delta, K, norm, T)
            for o, r in zip(adv.options, page["rows"]):
                assert r[3] == f"{o.variance:.7g}", (o.candidate, r)  # as `fhsym advise` prints it
                if adv.optimum is not None:
                    shown = float(r[6].removeprefix("<= +").removesuffix(" %"))
                    assert shown == pytest.approx(100 * (o.variance / adv.optimum.lower - 1), rel=6e-3, abs=1e-6)
                else:
                    assert r[6] == "n/a"
            assert len(page["missing"]) == len(adv.failed), page["missing"]
            assert (page["optimum"] is not None) == (adv.optimum is not None)
            if K == 1:
                driver.save_screenshot(str(tmp_path / "advisor.png"))
    assert (tmp_path / "advisor.png").stat().st_size > 20_000
