# cython: language_level=3
"""The deal function, version 1: the same seed gives the same deck order on every machine and
in every release. Deal k of a match or batch started with seed s uses `deal_seed(s, k)`."""

DEAL_VERSION = 1


def shuffle(unsigned long long seed, int n):
    """The deck order (card indices 0..n-1) for a seed: SplitMix64 seeded with `seed`, then
    Fisher-Yates from the top of the deck with unbiased bounded integers."""
    if not 0 < n <= 64:
        raise ValueError(f"deck size must be 1..64, got {n}")
    cdef Rng r
    cdef int8_t deck[64]
    r.s = seed
    shuffle_deck(&r, deck, n)
    return [deck[i] for i in range(n)]


def deal_seed(seed, k):
    """The seed of deal k (0-based) of a match or batch started with `seed`: (seed + k) mod 2^64,
    so deal 0 is the seeded (or daily) deal itself."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an integer 0..2^64-1, got {seed!r}")
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k must be an integer >= 0, got {k!r}")
    return (seed + k) % 2 ** 64
