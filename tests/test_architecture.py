"""The layers the folders show are the layers the imports follow (issue 14).

fhsym's packages, lowest first::

    _core  ->  symbolic  ->  codegen, _generated  ->  noise  ->  privacy, optimum  ->  accounting
           ->  calibration  ->  applications, integrations, plotting (frontier_figures)  ->  cli

Every import inside fhsym (module level or inside a function) goes to the same layer or a
lower one; the package root ``fhsym/__init__.py`` sits on top.  Also checked: no import cycle among fhsym's
modules, no private name (``_x``) imported from another module, and no module of fhsym/ or
proofs/ over 700 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "fhsym"

LAYERS = [
    ("fhsym._core",),
    ("fhsym.symbolic",),
    ("fhsym.codegen", "fhsym._generated"),
    ("fhsym.noise",),
    ("fhsym.privacy", "fhsym.optimum"),
    ("fhsym.accounting",),
    ("fhsym.calibration",),
    ("fhsym.applications", "fhsym.integrations", "fhsym.plotting", "fhsym.frontier_figures", "fhsym.jax"),
    ("fhsym.cli", "fhsym.__main__"),
]
TOP = ("fhsym",)  # the root imports anything
MAX_LINES = 700


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules():
    return {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _layer(mod: str) -> int:
    if mod in TOP:
        return len(LAYERS)
    for i, prefixes in enumerate(LAYERS):
        if any(mod == p or mod.startswith(p + ".") for p in prefixes):
            return i
    raise AssertionError(f"module {mod} belongs to no layer: add its package to LAYERS in {__file__}")


def _resolve(mod: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(mods):
    """(importer, imported module, names) for every intra-fhsym import statement."""
    out = []
    for mod, path in mods.items():
        tree = ast.parse(path.read_text())
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(mod, is_pkg, node)
                if not target.startswith("fhsym"):
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in mods:  # "from package import module"
                        out.append((mod, sub, None))
                    else:
                        out.append((mod, target, alias.name))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("fhsym"):
                        out.append((mod, alias.name, None))
    return out


def test_every_module_is_in_a_layer():
    for mod in _modules():
        _layer(mod)


def test_no_upward_imports():
    mods = _modules()
    bad = []
    for src, dst, _ in _imports(mods):
        if _layer(dst) > _layer(src):
            bad.append(f"{src} (layer {_layer(src)}) imports {dst} (layer {_layer(dst)})")
    assert not bad, "upward imports:\n" + "\n".join(sorted(set(bad)))


def test_no_private_names_across_modules():
    mods = _modules()
    bad = []
    for src, dst, name in _imports(mods):
        if name and name.startswith("_") and not name.startswith("__") and dst != src:
            bad.append(f"{src} imports {name} from {dst}")
    assert not bad, "private names imported across modules:\n" + "\n".join(sorted(set(bad)))


def test_no_import_cycles():
    mods = _modules()
    graph = {m: set() for m in mods}
    for src, dst, _ in _imports(mods):
        if dst in mods and dst != src and src not in TOP:
            graph[src].add(dst)
    # Tarjan's strongly connected components
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in graph:
        if v not in index:
            strong(v)
    # a package importing its own submodules is not a cycle worth reporting
    comps = [c for c in comps if not all(x == c[0] or x.startswith(c[0] + ".") for x in c)]
    assert not comps, f"import cycles: {comps}"


@pytest.mark.parametrize("folder", ["fhsym", "proofs"])
def test_no_module_over_700_lines(folder):
    long = {str(p.relative_to(ROOT)): n for p in sorted((ROOT / folder).rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


# ---------------------------------------------------------------- the structural figures of issue 21
MAX_CALIBRATION_LINES = 1400
MAX_NAME_MODULES = 3  # the registry, the CLI choices, the certificate parser


def test_calibration_package_is_small():
    """One generic calibrator: fhsym/calibration/ holds at most 1,400 lines (printed)."""
    sizes = {p.name: len(p.read_text().splitlines()) for p in sorted((PKG / "calibration").glob("*.py"))}
    total = sum(sizes.values())
    print(f"\nfhsym/calibration/: {total} lines (limit {MAX_CALIBRATION_LINES}): {sizes}")
    assert total <= MAX_CALIBRATION_LINES


def _string_constants(tree: ast.AST) -> list:
    """Every str constant of a module that is not a docstring."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_mechanism_names_are_not_looked_up_by_string():
    """A mechanism's key appears as a string literal in at most 3 modules besides its own (printed per name)."""
    from fhsym.noise import NOISE_CLASSES

    constants = {_module_name(p): set(_string_constants(ast.parse(p.read_text())))
                 for p in sorted(PKG.rglob("*.py")) if "_generated" not in p.parts}
    report, over = [], {}
    for name, cls in NOISE_CLASSES.items():
        where = sorted(m for m, consts in constants.items() if name in consts and m != cls.__module__)
        report.append(f"{name}: {len(where)} {where}")
        if len(where) > MAX_NAME_MODULES:
            over[name] = where
    print("\nmechanism names as string literals outside their own module:\n  " + "\n  ".join(report))
    assert not over, over


def test_noise_laws_live_on_the_template():
    """A noise law supplies the kernels of NoiseDistribution and overrides few of its public methods (issue 21.3).

    The public methods of NoiseDistribution (and of its base DistributionMethods) other than the mechanism-fact hooks
    (``PUBLIC_HOOKS``) are the template's scipy-style and privacy API; the count of those each law (with its mixins) overrides is printed, and the flipped
    Huber law may override at most 5.
    """
    from fhsym.noise import NOISE_CLASSES
    from fhsym.noise.base import PUBLIC_HOOKS, NoiseDistribution
    from fhsym.noise.scipy_methods import DistributionMethods

    api = sorted({n for k in (NoiseDistribution, DistributionMethods) for n, a in vars(k).items()
                  if not n.startswith("_") and n not in PUBLIC_HOOKS and (callable(a) or isinstance(a, property))})
    counts, report = {}, []
    for name, cls in NOISE_CLASSES.items():
        if not issubclass(cls, NoiseDistribution):
            report.append(f"{name}: not a NoiseDistribution (lattice law)")
            continue
        own = cls.__mro__[: cls.__mro__.index(NoiseDistribution)]
        over = sorted(n for n in api if any(n in vars(k) for k in own))
        counts[name] = len(over)
        report.append(f"{name}: {len(over)} of {len(api)} {over}")
    print("\npublic methods of NoiseDistribution overridden per law:\n  " + "\n  ".join(report))
    assert counts["flipped_huber"] <= 5
