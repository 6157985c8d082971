"""The one version string of fhsym (pyproject.toml reads it: ``[tool.setuptools.dynamic]``)."""

__version__ = "0.2.0.dev0"
