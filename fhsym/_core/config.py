"""Config dataclasses next to keyword arguments: one rule for both (issue 14).

A function with a long parameter list also accepts its settings as one frozen dataclass
(``config=``).  Its keywords default to :data:`UNSET`, so the function can tell which were passed:
:func:`resolve_config` makes the config from the passed keywords, or returns ``config`` itself
and refuses any keyword passed with it (``ValueError`` naming it), so that no argument is ever
silently ignored.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class C:
...     a: int = 1
>>> resolve_config(C, None, {"a": 2}, "f"), resolve_config(C, C(3), {"a": UNSET}, "f")
(C(a=2), C(a=3))
>>> resolve_config(C, C(3), {"a": 2}, "f")
Traceback (most recent call last):
...
ValueError: f: a= was passed together with config=; set it in the config instead (dataclasses.replace(config, a=...)) so that no argument is ignored
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, Callable, Dict, Mapping, Optional, Type, TypeVar

__all__ = ["UNSET", "config_signature", "resolve_config"]

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class _Unset:
    """The default of a keyword that was not passed."""

    def __repr__(self) -> str:
        return "<unset>"


#: the default of a keyword that may also come from ``config=``
UNSET: Any = _Unset()


class _Required:
    def __repr__(self) -> str:
        return "<required>"


_REQUIRED = _Required()  # shown for a keyword whose config field has no default


def resolve_config(cls: Type[T], config: Optional[T], given: Mapping[str, Any], func: str) -> T:
    """The config of a call of ``func``: ``config``, or ``cls(**passed keywords)``; never both."""
    passed = {k: v for k, v in given.items() if v is not UNSET}
    if config is None:
        return cls(**passed)
    if not isinstance(config, cls):
        raise ValueError(f"config must be a {cls.__name__} or None; got {type(config).__name__}")
    if passed:
        name = sorted(passed)[0]
        raise ValueError(f"{func}: {name}= was passed together with config=; set it in the config instead "
                         f"(dataclasses.replace(config, {name}=...)) so that no argument is ignored")
    return config


def config_signature(cls: Type[Any]) -> Callable[[F], F]:
    """Show the config's defaults in the function's signature (``inspect.signature``, help(), the API page)
    in place of :data:`UNSET` (``<required>`` for a field without a default); every :data:`UNSET` keyword must be a
    field of ``cls``.

    >>> @dataclasses.dataclass(frozen=True)
    ... class C:
    ...     a: int = 1
    >>> @config_signature(C)
    ... def f(a: int = UNSET, *, config: Optional[C] = None) -> C:
    ...     return resolve_config(C, config, {"a": a}, "f")
    >>> inspect.signature(f), f()
    (<Signature (a: 'int' = 1, *, config: 'Optional[C]' = None) -> 'C'>, C(a=1))
    """
    defaults: Dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            defaults[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            defaults[f.name] = f.default_factory()

    def wrap(func: F) -> F:
        sig = inspect.signature(func)
        params = []
        for p in sig.parameters.values():
            if p.default is UNSET:
                if p.name not in {f.name for f in dataclasses.fields(cls)}:
                    raise TypeError(f"{func.__name__}: keyword {p.name} defaults to UNSET but is not a field of "
                                    f"{cls.__name__}")
                p = p.replace(default=defaults.get(p.name, _REQUIRED))
            params.append(p)
        func.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]  # read by inspect.signature; not declared on callables
        return func

    return wrap
