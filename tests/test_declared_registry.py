"""Declared laws as advise candidates and CLI mechanisms (issue 28): a law registered by fhsym.declare_law is an
advise candidate when named, and ``fhsym calibrate/advise --law FILE.py`` loads it.

The references: fhsym.calibrate of the same law (the row is that calibration), 30-digit quadrature of the declared
density for the row's quantile, the certified optimum interval for its distance to the optimum.
"""

from __future__ import annotations

import json

import mpmath
import pytest
import sympy as sp

import fhsym
from fhsym.applications import frontier as F
from fhsym.cli import main
from fhsym.cli.parser import BUILTIN_MECHANISMS
from fhsym.noise import NOISE_CLASSES
from fhsym.noise.declared import DeclaredNoise

from declared_examples import EXAMPLES, example

LAW = EXAMPLES / "logistic_law.py"


@pytest.fixture(scope="module")
def LOGISTIC():
    """docs/examples/logistic_law.py, its law declared and registered as "logistic" (on first use, once per process:
    tests/declared_examples.py; the tests below that name "logistic" ask for it)."""
    return example("logistic")


def test_builtin_mechanisms_are_the_registry_without_declared_laws(LOGISTIC):
    builtin = {n for n, c in NOISE_CLASSES.items() if not issubclass(c, DeclaredNoise)}
    assert set(BUILTIN_MECHANISMS) == builtin
    assert "logistic" in F.declared_candidates() and not set(F.declared_candidates()) & set(F.CANDIDATES)


def test_declared_law_is_a_candidate_only_when_named(LOGISTIC):
    call = F.calibration_call("logistic", 1.0, 1e-6)
    assert call == {"epsilon": 1.0, "delta": 1e-6, "mechanism": "logistic", "dim": 1, "compositions": 1,
                    "sensitivity": 1.0, "method": "auto"}
    # K T > 1: the exact K T-fold profile over the box (the same request for every norm), as K-fold Laplace
    call = F.calibration_call("logistic", 1.0, 1e-6, dim=3, norm="l2", compositions=2)
    assert (call["dim"], call["compositions"], call["method"], call["sensitivity"]) == (6, 1, "exact", 1.0)
    assert F.is_box_based("logistic") and F.candidate_label("logistic") == "logistic"
    assert F.candidate_rank("logistic") >= len(F.CANDIDATES)
    assert "logistic" not in F.CANDIDATES  # the default candidates are the fixed list
    with pytest.raises(ValueError, match=r"candidates must be .*declared laws .*'logistic'"):
        fhsym.advise(1.0, 1e-6, data=False, candidates=("gaussian", "not_a_law"))
    with pytest.raises(ValueError, match=r"candidate must be one of .*fhsym.declare_law"):
        F.calibration_call("not_a_law", 1.0, 1e-6)


def test_advise_row_of_a_declared_law(LOGISTIC):
    adv = fhsym.advise(1.0, 1e-6, data=False, candidates=("laplace_pure", "logistic"))
    row = next(o for o in adv.options if o.candidate == "logistic")
    ref = fhsym.calibrate(1.0, 1e-6, mechanism="logistic")
    assert row.variance == ref.variance and row.calibration.parameters == ref.parameters
    assert fhsym.verify_certificate(row.calibration.certificate.to_json())
    # the 0.999 quantile of |noise|: P(|X| > q) = 1e-3 by 30-digit quadrature of the declared density
    s = row.calibration.parameters["s"]
    g = sp.lambdify(LOGISTIC.t, LOGISTIC.DECLARATION.pieces[0][0], "mpmath")
    with mpmath.workdps(30):
        z = 2 * mpmath.quad(g, [0, 1, mpmath.inf])
        tail = 2 * mpmath.quad(g, [row.quantile / s, mpmath.inf]) / z
    assert abs(tail / mpmath.mpf("1e-3") - 1) < 1e-12
    assert row.to_dict()["abs_quantile"] == {"level": 0.999, "value": row.quantile}
    # distance to the optimum (1-D): the certified interval's lower end is below the variance
    assert adv.optimum is not None and row.variance > adv.optimum.lower
    print(f"\nadvise(1, 1e-6) logistic row: variance {row.variance!r}, 0.999-quantile {row.quantile!r}, "
          f"<= {100 * (row.variance / adv.optimum.lower - 1):.4g} % over the optimum [{adv.optimum.lower!r}, "
          f"{adv.optimum.upper!r}]")
    assert [o.candidate for o in adv.options] == ["laplace_pure", "logistic"]


def test_cli_calibrate_and_advise_load_a_law(tmp_path, capsys):
    assert main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--law", str(LAW), "--mechanism", "logistic",
                 "--json", "--certificate", str(tmp_path / "c.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mechanism"] == "logistic" and out["variance"] == fhsym.calibrate(1.0, 1e-6, mechanism="logistic").variance
    assert main(["check-certificate", str(tmp_path / "c.json"), "--json"]) == 0
    capsys.readouterr()
    assert main(["advise", "--epsilon", "1", "--delta", "1e-6", "--law", str(LAW), "--no-progress", "--json"]) == 0
    adv = json.loads(capsys.readouterr().out)
    assert {o["candidate"] for o in adv["options"]} == (set(F.CANDIDATES) - {F.STAIRCASE_PLD} | {"logistic"}
                                                        | set(F.ONE_D_CANDIDATES))


def test_cli_refuses_bad_laws_and_mechanisms(tmp_path, capsys):
    base = ["calibrate", "--epsilon", "1", "--delta", "1e-6"]
    assert main(base + ["--mechanism", "not_a_law"]) == 2
    assert "argument --mechanism: mechanism must be one of" in capsys.readouterr().err
    assert main(base + ["--law", str(tmp_path / "missing.py")]) == 2
    assert "argument --law: no file" in capsys.readouterr().err
    (tmp_path / "empty_law.py").write_text("x = 1\n")
    assert main(base + ["--law", str(tmp_path / "empty_law.py")]) == 2
    assert "declares no registered law" in capsys.readouterr().err
    (tmp_path / "broken_law.py").write_text("raise RuntimeError('boom')\n")
    assert main(base + ["--law", str(tmp_path / "broken_law.py")]) == 2
    assert "raised RuntimeError: boom" in capsys.readouterr().err
    (tmp_path / "heavy_law.py").write_text(
        "import sympy as sp, fhsym\nt = sp.Symbol('t', positive=True)\n"
        "H = fhsym.declare_law(fhsym.Declaration('heavy', 'heavy', t, ((sp.exp(-sp.sqrt(t)), (0, sp.oo)),)))\n")
    assert main(base + ["--law", str(tmp_path / "heavy_law.py")]) == 2
    assert "not log-concave" in capsys.readouterr().err
