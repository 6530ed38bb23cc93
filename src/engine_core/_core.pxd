# Shared mask machinery for every game: integer types, bit helpers, the deal PRNG and the
# per-contract card order ("a contract is data, not a class").
from libc.stdint cimport uint64_t, int64_t, int8_t, int16_t, int32_t, uint32_t

ctypedef uint64_t u64
ctypedef int64_t i64

# Action codes (one int64 for every action of every game):
#   0..63    play the card with this index
#   64..127  call number (code - 64) of the game's CALLS table (bids and announcements)
#   >= 128   exchange: low byte = 128 + exchange call number, bits 8.. = the cards' mask
cdef enum:
    CALL_BASE = 64
    EXCHANGE_BASE = 128
    MAX_LEGAL = 1024
    TRUMP = 4          # effective suit of a trump (plain suits are 0..3: C S H D)

cdef inline int popcount(u64 m) noexcept nogil:
    return stich_popcount64(m)

cdef inline int lowest(u64 m) noexcept nogil:
    """Index of the lowest set bit (m must be non-zero)."""
    return __builtin_ctzll(m)

cdef inline int highest(u64 m) noexcept nogil:
    return 63 - __builtin_clzll(m)

cdef inline u64 bit(int i) noexcept nogil:
    return (<u64>1) << i

cdef inline i64 exchange_code(int call, u64 mask) noexcept nogil:
    return <i64>((mask << 8) | <u64>(EXCHANGE_BASE + call))

cdef extern from *:
    """
    /* Portable builds (no -mpopcnt) would call libgcc's slow __popcountdi2: use the SWAR
       count there, the instruction where the target has one (STICH_NATIVE=1, aarch64). */
    static inline int stich_popcount64(unsigned long long x) {
    #if defined(__POPCNT__) || defined(__aarch64__) || defined(_MSC_VER)
        return __builtin_popcountll(x);
    #else
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    #endif
    }
    """
    int stich_popcount64(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil

# ---- deterministic PRNG (SplitMix64), the basis of seeded deals and batch playouts ----
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

cdef void shuffle_deck(Rng* r, int8_t* deck, int n) noexcept nogil

cdef inline int pick_bit(Rng* r, u64 m) noexcept nogil:
    """A uniformly random set bit of a non-zero mask."""
    cdef int k = rng_below(r, popcount(m))
    while k:
        m &= m - 1
        k -= 1
    return lowest(m)

# ---- the card order of a contract ----
cdef struct Order:
    int8_t eff_suit[64]     # TRUMP or the printed suit 0..3
    int8_t power[64]        # rank within the effective suit, higher wins
    u64 suit_mask[5]        # cards per effective suit; [TRUMP] = all trumps
    int8_t trump_seq[16]    # trumps from the highest down (for Laufende and sorting)
    int8_t n_trumps

cdef inline u64 follow_mask(const Order* o, u64 hand, int led) noexcept nogil:
    """Cards a hand may play to a trick led in effective suit `led`: follow if you can."""
    cdef u64 m = hand & o.suit_mask[led]
    return m if m else hand

cdef inline int card_strength(const Order* o, int c, int led) noexcept nogil:
    """How card c bids for a trick led in effective suit `led`: any trump above any card of
    the led suit, -1 for a card that cannot win (another plain suit)."""
    if o.eff_suit[c] == TRUMP:
        return 64 + o.power[c]
    if o.eff_suit[c] == led:
        return o.power[c]
    return -1

cdef inline int trick_winner_pos(const Order* o, const int8_t* cards, int n) noexcept nogil:
    """Position (0..n-1) of the winning card: highest trump, else highest of the led suit;
    the first played wins between equal powers (identical Doppelkopf cards)."""
    cdef int led = o.eff_suit[cards[0]]
    cdef int best = 0, best_v = card_strength(o, cards[0], led)
    cdef int i, v
    for i in range(1, n):
        v = card_strength(o, cards[i], led)
        if v > best_v:
            best_v = v
            best = i
    return best

cdef inline int mask_points(const int8_t* points, u64 m) noexcept nogil:
    cdef int total = 0
    while m:
        total += points[lowest(m)]
        m &= m - 1
    return total

cdef void order_init(Order* o) noexcept nogil
cdef void order_add_trumps(Order* o, const int8_t* cards, int n) noexcept nogil
cdef void order_add_plain(Order* o, int suit, const int8_t* cards, int n) noexcept nogil
