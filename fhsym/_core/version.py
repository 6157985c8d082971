"""The one version string of fhsym (pyproject.toml reads it: ``[tool.hatch.version]``)."""

__version__ = "0.2.0.dev0"
