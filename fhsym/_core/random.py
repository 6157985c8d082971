"""Random-number plumbing shared by the samplers (scipy-style ``random_state``)."""

from __future__ import annotations

from typing import Tuple, Union

import numpy as np

__all__ = ["RandomState", "as_generator", "open_half_uniform", "apply_random_sign", "size_to_shape"]

RandomState = Union[None, int, np.integer, np.random.Generator, np.random.RandomState, np.random.SeedSequence]

_TWO_M64 = 2.0**-64


def as_generator(random_state: RandomState) -> Union[np.random.Generator, np.random.RandomState]:
    """None -> fresh default_rng(); int/SeedSequence -> default_rng(seed); Generator/RandomState as given."""
    if random_state is None or isinstance(random_state, (int, np.integer, np.random.SeedSequence)):
        if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool) and random_state < 0:
            raise ValueError(f"random_state must be a non-negative integer seed, a Generator or None; got {random_state!r}")
        return np.random.default_rng(random_state)
    if isinstance(random_state, (np.random.Generator, np.random.RandomState)):
        return random_state
    raise ValueError(f"random_state must be None, an int seed, a numpy Generator or RandomState; got {random_state!r}")


def size_to_shape(size) -> Tuple[int, ...]:
    if size is None:
        return ()
    if isinstance(size, (str, bytes, bool, float)):
        raise ValueError(f"size must be None, a non-negative integer or a tuple of them; got {size!r}")
    if isinstance(size, (int, np.integer)):
        if size < 0:
            raise ValueError(f"size must be a non-negative integer or a tuple of them; got {size!r}")
        return (int(size),)
    try:
        shape = tuple(int(n) for n in size)
    except TypeError:
        raise ValueError(f"size must be None, a non-negative integer or a tuple of them; got {size!r}") from None
    if any(n < 0 for n in shape):
        raise ValueError(f"size must be a non-negative integer or a tuple of them; got {size!r}")
    return shape


def open_half_uniform(rng, n: int) -> Tuple[np.ndarray, np.ndarray]:
    """n uniform draws p in the open interval (0, 1/2) and their n raw 64-bit words.

    From 64 random bits per draw: the top 63 bits k give p = (k + 1/2) 2^-64,
    k in [0, 2^63) (so p is never 0 and the grid is symmetric about 1/4), and the
    lowest bit, independent of k, is the sign used by :func:`apply_random_sign`.
    The resolution near 0 is 2^-64 ~ 5e-20, finer than the 2^-53 of
    ``Generator.random``, so the sampled tails reach further.
    """
    if isinstance(rng, np.random.Generator):
        raw = np.asarray(rng.bit_generator.random_raw(n), dtype=np.uint64)
    else:
        raw = rng.randint(0, 2**64, size=n, dtype=np.uint64)
    k = (raw >> np.uint64(1)).view(np.int64)  # < 2^63: the signed view is exact and converts faster
    p = k.astype(np.float64)
    p *= _TWO_M64
    p += 0.5 * _TWO_M64
    return p, raw


def apply_random_sign(x: np.ndarray, raw: np.ndarray) -> np.ndarray:
    """Flip the IEEE sign bit of x[i] where bit 0 of raw[i] is set (in place); returns x."""
    xb = x.view(np.uint64)
    xb ^= raw << np.uint64(63)
    return x
