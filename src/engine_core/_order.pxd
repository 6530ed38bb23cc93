# The card order of a contract as data (effective suit, power, suit masks), the follow rule and
# the trick winner: declarations and inline definitions, nogil.
from libc.string cimport memset
from ._bits cimport u64, int8_t, bit, lowest

cdef enum:
    TRUMP = 4          # effective suit of a trump (plain suits are 0..3: C S H D)

cdef struct Order:
    int8_t eff_suit[64]     # TRUMP or the printed suit 0..3 (-1: not in this deck)
    int8_t power[64]        # rank within the effective suit, higher wins
    u64 suit_mask[5]        # cards per effective suit; [TRUMP] = all trumps
    int8_t trump_seq[24]    # trumps from the highest down (for Laufende and sorting)
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


cdef inline void order_init(Order* o) noexcept nogil:
    memset(o, 0, sizeof(Order))
    cdef int i
    for i in range(64):
        o.eff_suit[i] = -1


cdef inline void order_add_trumps(Order* o, const int8_t* cards, int n) noexcept nogil:
    """Trumps listed from the highest down."""
    cdef int i
    o.n_trumps = n
    for i in range(n):
        o.eff_suit[cards[i]] = TRUMP
        o.power[cards[i]] = <int8_t>(n - i)
        o.suit_mask[TRUMP] |= bit(cards[i])
        o.trump_seq[i] = cards[i]


cdef inline void order_add_plain(Order* o, int suit, const int8_t* cards, int n) noexcept nogil:
    """A plain suit listed from the highest card down."""
    cdef int i
    for i in range(n):
        o.eff_suit[cards[i]] = <int8_t>suit
        o.power[cards[i]] = <int8_t>(n - i)
        o.suit_mask[suit] |= bit(cards[i])
