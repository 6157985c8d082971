"""A missing optional extra is named in the error, with the command that installs it (issue 24)."""

import subprocess
import sys

SIMULATE_MISSING = """
import sys
sys.modules[{module!r}] = None  # 'import {module}' now fails as if it were not installed
try:
    import fhsym.jax
except ImportError as exc:
    print(type(exc).__name__, isinstance(exc, ModuleNotFoundError), exc.name, exc, sep="|")
else:
    print("imported")
"""


def test_fhsym_jax_without_jax_says_which_extra_to_install():
    for module in ("jax", "jaxlib"):
        out = subprocess.run([sys.executable, "-c", SIMULATE_MISSING.format(module=module)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        kind, is_mnf, name, message = out.stdout.strip().split("|", 3)
        assert (kind, is_mnf) == ("ModuleNotFoundError", "True"), out.stdout
        assert name.split(".")[0] in ("jax", "jaxlib")
        assert "pip install 'fhsym[jax]'" in message and "fhsym.jax" in message and module in message, message
