# cython: language_level=3
"""Shared core: the versioned seeded shuffle and card-order construction.

The deal function is part of stich's public contract: `shuffle(seed, n)` with DEAL_VERSION 1
must return the same permutation on every machine and in every release.
"""
from libc.string cimport memset

DEAL_VERSION = 1


cdef void shuffle_deck(Rng* r, int8_t* deck, int n) noexcept nogil:
    """Fisher–Yates from the top: deck[i] swaps with deck[j], j uniform in [0, i]."""
    cdef int i, j
    cdef int8_t t
    for i in range(n):
        deck[i] = <int8_t>i
    for i in range(n - 1, 0, -1):
        j = rng_below(r, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


def shuffle(unsigned long long seed, int n):
    """The deck order (card indices 0..n-1) for a seed: SplitMix64 seeded with `seed`,
    Fisher–Yates. Version 1 of stich's deal function (DEAL_VERSION)."""
    if not 0 < n <= 64:
        raise ValueError("deck size must be 1..64")
    cdef Rng r
    cdef int8_t deck[64]
    r.s = seed
    shuffle_deck(&r, deck, n)
    return [deck[i] for i in range(n)]


cdef void order_init(Order* o) noexcept nogil:
    memset(o, 0, sizeof(Order))
    cdef int i
    for i in range(64):
        o.eff_suit[i] = -1


cdef void order_add_trumps(Order* o, const int8_t* cards, int n) noexcept nogil:
    """Trumps listed from the highest down."""
    cdef int i
    o.n_trumps = n
    for i in range(n):
        o.eff_suit[cards[i]] = TRUMP
        o.power[cards[i]] = <int8_t>(n - i)
        o.suit_mask[TRUMP] |= bit(cards[i])
        o.trump_seq[i] = cards[i]


cdef void order_add_plain(Order* o, int suit, const int8_t* cards, int n) noexcept nogil:
    """A plain suit listed from the highest card down."""
    cdef int i
    for i in range(n):
        o.eff_suit[cards[i]] = <int8_t>suit
        o.power[cards[i]] = <int8_t>(n - i)
        o.suit_mask[suit] |= bit(cards[i])
