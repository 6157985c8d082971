"""Random-number plumbing shared by the samplers (scipy-style ``random_state``)."""

from __future__ import annotations

from typing import Iterable, SupportsInt, Tuple, Union, cast

import numpy as np
from numpy.typing import NDArray

__all__ = ["RandomState", "Rng", "as_generator", "random_words", "size_to_shape"]

RandomState = Union[None, int, np.integer, np.random.Generator, np.random.RandomState, np.random.SeedSequence]
#: what :func:`as_generator` returns and the samplers draw from
Rng = Union[np.random.Generator, np.random.RandomState]


def as_generator(random_state: RandomState) -> Rng:
    """None -> fresh default_rng(); int/SeedSequence -> default_rng(seed); Generator/RandomState as given."""
    if random_state is None or isinstance(random_state, (int, np.integer, np.random.SeedSequence)):
        if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool) and random_state < 0:
            raise ValueError(f"random_state must be a non-negative integer seed, a Generator or None; got {random_state!r}")
        return np.random.default_rng(random_state)
    if isinstance(random_state, (np.random.Generator, np.random.RandomState)):
        return random_state
    raise ValueError(f"random_state must be None, an int seed, a numpy Generator or RandomState; got {random_state!r}")


def size_to_shape(size: object) -> Tuple[int, ...]:
    """A sample ``size`` (None, a non-negative integer or an iterable of them) as a shape tuple."""
    if size is None:
        return ()
    if isinstance(size, (str, bytes, bool, float)):
        raise ValueError(f"size must be None, a non-negative integer or a tuple of them; got {size!r}")
    if isinstance(size, (int, np.integer)):
        if size < 0:
            raise ValueError(f"size must be a non-negative integer or a tuple of them; got {size!r}")
        return (int(size),)
    try:
        shape = tuple(int(n) for n in cast(Iterable[SupportsInt], size))  # anything else raises TypeError here
    except TypeError:
        raise ValueError(f"size must be None, a non-negative integer or a tuple of them; got {size!r}") from None
    if any(n < 0 for n in shape):
        raise ValueError(f"size must be a non-negative integer or a tuple of them; got {size!r}")
    return shape


def random_words(rng: Rng, n: int) -> NDArray[np.uint64]:
    """n raw 64-bit words from ``rng`` (a Generator's bit generator, or ``RandomState.randint``), in order:
    consecutive calls give the words of one larger call."""
    if isinstance(rng, np.random.Generator):
        return np.asarray(rng.bit_generator.random_raw(n), dtype=np.uint64)
    return rng.randint(0, 2**64, size=n, dtype=np.uint64)
