# Bit helpers over uint64 card masks (declarations only, every function inline and nogil).
from libc.stdint cimport uint64_t, int64_t, int8_t, int16_t, int32_t, uint8_t, uint32_t

ctypedef uint64_t u64
ctypedef int64_t i64

cdef extern from *:
    """
    /* Portable builds (no -mpopcnt) would call libgcc's slow __popcountdi2: use a byte-table
       count there, the instruction where the target has one (STICH_NATIVE=1, aarch64). */
    #if !(defined(__POPCNT__) || defined(__aarch64__) || defined(_MSC_VER))
    #define STICH_B2(n) n, n + 1, n + 1, n + 2
    #define STICH_B4(n) STICH_B2(n), STICH_B2(n + 1), STICH_B2(n + 1), STICH_B2(n + 2)
    #define STICH_B6(n) STICH_B4(n), STICH_B4(n + 1), STICH_B4(n + 1), STICH_B4(n + 2)
    static const unsigned char stich_bits8[256] = {
        STICH_B6(0), STICH_B6(1), STICH_B6(1), STICH_B6(2)
    };
    #endif
    static inline int stich_popcount64(unsigned long long x) {
    #if defined(__POPCNT__) || defined(__aarch64__) || defined(_MSC_VER)
        return __builtin_popcountll(x);
    #else
        /* byte table: a short dependency chain (a SWAR count is ~12 dependent operations) */
        if (!(x >> 32))
            return stich_bits8[x & 0xFF] + stich_bits8[(x >> 8) & 0xFF]
                 + stich_bits8[(x >> 16) & 0xFF] + stich_bits8[(x >> 24) & 0xFF];
        return stich_bits8[x & 0xFF] + stich_bits8[(x >> 8) & 0xFF]
             + stich_bits8[(x >> 16) & 0xFF] + stich_bits8[(x >> 24) & 0xFF]
             + stich_bits8[(x >> 32) & 0xFF] + stich_bits8[(x >> 40) & 0xFF]
             + stich_bits8[(x >> 48) & 0xFF] + stich_bits8[x >> 56];
    #endif
    }
    """
    int stich_popcount64(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


cdef inline int popcount(u64 m) noexcept nogil:
    return stich_popcount64(m)


cdef inline int lowest(u64 m) noexcept nogil:
    """Index of the lowest set bit (m must be non-zero)."""
    return __builtin_ctzll(m)


cdef inline int highest(u64 m) noexcept nogil:
    """Index of the highest set bit (m must be non-zero)."""
    return 63 - __builtin_clzll(m)


cdef inline u64 bit(int i) noexcept nogil:
    return (<u64>1) << i


cdef inline u64 byte_counts(u64 x) noexcept nogil:
    """The number of set bits of x in each byte."""
    x = x - ((x >> 1) & <u64>0x5555555555555555ULL)
    x = (x & <u64>0x3333333333333333ULL) + ((x >> 2) & <u64>0x3333333333333333ULL)
    return (x + (x >> 4)) & <u64>0x0F0F0F0F0F0F0F0FULL


cdef inline int nth_bit(u64 m, int k) noexcept nogil:
    """Index of the k-th (0-based) set bit of m (k < popcount(m))."""
    while k:
        m &= m - 1
        k -= 1
    return lowest(m)


cdef inline int append_bits(u64 m, i64* out, int n) noexcept nogil:
    """Append the indices of m's set bits to out[n:], lowest first; the new count."""
    while m:
        out[n] = lowest(m)
        n += 1
        m &= m - 1
    return n
