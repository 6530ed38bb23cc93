# The deal function's randomness (declarations and inline definitions, nogil): SplitMix64,
# unbiased bounded integers, Fisher-Yates, and `deal_seed`, the one rule that numbers the deals
# of a match or a batch. Version 1 of stich's deal function: never change what these return.
from ._bits cimport u64, i64, int8_t, uint32_t, popcount, nth_bit

cdef struct Rng:
    u64 s


cdef inline u64 rng_next(Rng* r) noexcept nogil:
    cdef u64 z
    r.s += <u64>0x9E3779B97F4A7C15ULL
    z = r.s
    z = (z ^ (z >> 30)) * <u64>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <u64>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Unbiased integer in [0, n) (Lemire's multiply-shift with rejection)."""
    cdef u64 x = rng_next(r) >> 32
    cdef u64 m = x * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t t
    if low < n:
        t = (<uint32_t>(-n)) % n
        while low < t:
            x = rng_next(r) >> 32
            m = x * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void shuffle_deck(Rng* r, int8_t* deck, int n) noexcept nogil:
    """Fisher-Yates from the top: deck[i] swaps with deck[j], j uniform in [0, i]."""
    cdef int i, j
    cdef int8_t t
    for i in range(n):
        deck[i] = <int8_t>i
    for i in range(n - 1, 0, -1):
        j = rng_below(r, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


cdef inline int pick_bit(Rng* r, u64 m) noexcept nogil:
    """A uniformly random set bit of a non-zero mask."""
    return nth_bit(m, rng_below(r, popcount(m)))


cdef inline u64 deal_seed_u64(u64 seed, i64 k) noexcept nogil:
    """The seed of deal k (0-based) of a match or batch started with `seed`: seed + k mod 2^64."""
    return seed + <u64>k
