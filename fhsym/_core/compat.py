"""Old module paths of fhsym 0.1, kept importable (deprecated) after the layered layout of 0.2.

fhsym 0.1 had flat modules (``fhsym.distribution``, ``fhsym.privacy_profile``,
``fhsym.certify``, ``fhsym.kdim.*``, ``fhsym.mechanisms.*``, ...).  Each old path still imports
and gives the module that now holds its code (the same object, not a copy), but it emits a
``DeprecationWarning`` naming the new path, pointed at the line of the caller:

* ``import fhsym.distribution`` / ``from fhsym.distribution import FlippedHuber``: a finder on
  ``sys.meta_path`` (:func:`install`) aliases the old name lazily, at its first import;
* ``fhsym.distribution`` as an attribute: the parent package's ``__getattr__``
  (:func:`module_getattr`) calls :func:`attribute`;
* the old packages ``fhsym.kdim`` and ``fhsym.mechanisms`` warn when they are imported
  (:func:`warn_package`).

As for any module, the import warning is given once per process (the module then sits in
``sys.modules``).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Callable, Optional, Sequence

__all__ = ["MOVED_MODULES", "MOVED_PACKAGES", "attribute", "install", "keep_public_names", "module_getattr",
           "warn_package"]

#: old dotted path -> new dotted path
MOVED_MODULES = {
    "fhsym._validation": "fhsym._core.domains",
    "fhsym._numerics": "fhsym._core.numerics",
    "fhsym._random": "fhsym._core.random",
    "fhsym.distribution": "fhsym.noise.flipped_huber",
    "fhsym.privacy.discrete_calibration": "fhsym.calibration.discrete",
    "fhsym.privacy_profile": "fhsym.privacy.profile",
    "fhsym.certify": "fhsym.privacy.certify",
    "fhsym.kdim.pld": "fhsym.accounting.pld",
    "fhsym.kdim.profile": "fhsym.accounting.kdim",
    "fhsym.kdim.sufficient": "fhsym.accounting.sufficient",
    "fhsym.kdim.zcdp": "fhsym.accounting.zcdp",
    "fhsym.kdim.iterative": "fhsym.accounting.iterative",
    "fhsym.kdim.calibration": "fhsym.calibration.kdim",
    "fhsym.mechanisms.gaussian": "fhsym.noise.gaussian",
    "fhsym.mechanisms.laplace": "fhsym.noise.laplace",
    "fhsym.mechanisms.osgt": "fhsym.noise.osgt",
    "fhsym.mechanisms.staircase": "fhsym.noise.staircase",
    "fhsym.mechanisms.truncated_laplace": "fhsym.noise.truncated_laplace",
}

#: old package -> where its names live now (the packages themselves remain, deprecated)
MOVED_PACKAGES = {
    "fhsym.kdim": "fhsym.accounting (calibrate_kdim: fhsym.calibration.kdim)",
    "fhsym.mechanisms": "fhsym.noise (calibrate_*: fhsym.calibration.mechanisms)",
}


def _message(old: str, new: str) -> str:
    return f"{old} is deprecated (fhsym 0.1 path); use {new}"


def warn_package(old: str) -> None:
    """Warn, from the body of the old package ``old``, that importing it is deprecated.

    ``stacklevel=3`` skips this function and the package body; the import machinery's own frames
    are skipped by :mod:`warnings`, so the warning points at the importing line.
    """
    warnings.warn(_message(old, MOVED_PACKAGES[old]), DeprecationWarning, stacklevel=3)


class _AliasLoader(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of :data:`MOVED_MODULES` and loads it as the new module (warning once)."""

    def __init__(self) -> None:
        self._real_specs: dict[str, Optional[importlib.machinery.ModuleSpec]] = {}

    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        if fullname not in MOVED_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED_MODULES[spec.name]
        # frames: this one, then the import machinery's (skipped by warnings), then the importer
        warnings.warn(_message(spec.name, new), DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        self._real_specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # importlib has just set module.__spec__ to the alias's spec: give the module back its own
        old = module.__spec__.name if module.__spec__ is not None else ""
        if old in self._real_specs:
            module.__spec__ = self._real_specs.pop(old)


_FINDER = _AliasLoader()


class _KeepsPublicNames(ModuleType):
    """A package whose public names are not replaced by an old submodule of the same name.

    ``import fhsym.privacy_profile`` makes the import machinery set ``fhsym.privacy_profile`` to the
    module; ``fhsym.privacy_profile`` is the function, as it was in fhsym 0.1, and stays so.
    """

    def __setattr__(self, name: str, value: object) -> None:
        if (isinstance(value, ModuleType) and f"{self.__name__}.{name}" in MOVED_MODULES
                and name in self.__dict__ and not isinstance(self.__dict__[name], ModuleType)):
            return
        super().__setattr__(name, value)

    def __reduce__(self):
        # pickled by name, as cloudpickle pickles an importable module (Dask's client.run returns values
        # this way): without this, the ModuleType subclass made ``fhsym`` unpicklable
        return importlib.import_module, (self.__name__,)


def keep_public_names(package: ModuleType) -> None:
    """Protect the public names of ``package`` from old submodules of the same name."""
    package.__class__ = _KeepsPublicNames


def install() -> None:
    """Put the alias finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _AliasLoader) for f in sys.meta_path):
        sys.meta_path.insert(0, _FINDER)


def attribute(parent: str, name: str) -> ModuleType:
    """``parent.name`` for an old path (the parent package's ``__getattr__``), with the warning.

    Raises ``AttributeError`` for names that are not old paths, as a missing attribute does.
    """
    old = f"{parent}.{name}"
    if old in MOVED_MODULES:
        new = MOVED_MODULES[old]
        warnings.warn(_message(old, new), DeprecationWarning, stacklevel=3)
        return importlib.import_module(new)
    if old in MOVED_PACKAGES:
        warnings.warn(_message(old, MOVED_PACKAGES[old]), DeprecationWarning, stacklevel=3)
        with warnings.catch_warnings():  # the package's own import warning would point here
            warnings.simplefilter("ignore", DeprecationWarning)
            return importlib.import_module(old)
    raise AttributeError(f"module {parent!r} has no attribute {name!r}")


def module_getattr(parent: str) -> Callable[[str], ModuleType]:
    """The module ``__getattr__`` of package ``parent``: its old paths as attributes, deprecated (:func:`attribute`)."""

    def __getattr__(name: str) -> ModuleType:
        return attribute(parent, name)

    return __getattr__
