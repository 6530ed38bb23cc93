from ._core cimport u64, i64, int8_t, Order, Rng
from .playout cimport PlayoutStats

cdef enum:
    SK_MAX_ACTIONS = 48

# contract types; for the bid contracts the value is also the rank in the auction
cdef enum:
    K_NONE = 0
    K_RUFSPIEL = 1
    K_WENZ = 2
    K_FARBSOLO = 3
    K_WENZ_TOUT = 4
    K_SOLO_TOUT = 5
    K_SIE = 6
    K_RAMSCH = 7
    K_THROWN_IN = 8

cdef enum:
    P_AUCTION = 0
    P_KONTRA = 1
    P_RE = 2
    P_PLAY = 3
    P_OVER = 4

cdef struct SkOpts:
    int tariff_rufspiel, tariff_solo, tariff_increment
    bint ramsch, kontra, schneider_official

cdef struct SkState:
    u64 hand[4]
    u64 dealt[4]
    u64 won[4]
    int8_t n_won[4]
    int8_t dealer, to_act, phase, n_spoken
    int8_t best_call, best_seat
    int8_t contract, suit, declarer, partner, order
    int8_t kontra, re, called_led
    int8_t trick_no, n_in_trick, leader
    int8_t trick[8][4]
    int8_t trick_leader[8]
    int8_t trick_winner[8]

cdef struct SkScore:
    int card_points[4]
    int scores[4]
    int side_points, base, laufende, schneider, schwarz, tout, value
    bint declarer_won
    int losers                  # Ramsch: bit mask of losing seats
    int jungfrauen, durchmarsch  # durchmarsch: the seat, or -1

cdef void sk_init(SkState* s, const u64* hands, int dealer) noexcept nogil
cdef int sk_legal(const SkState* s, const SkOpts* o, i64* out) noexcept nogil
cdef u64 sk_legal_play(const SkState* s) noexcept nogil
cdef void sk_apply(SkState* s, const SkOpts* o, i64 code) noexcept nogil
cdef void sk_score(const SkState* s, const SkOpts* o, SkScore* out) noexcept nogil
cdef void sk_deal(Rng* r, int dealer, u64* hands) noexcept nogil
cdef int sk_opts(object options, SkOpts* out) except -1
cdef void sk_playout(Rng* r, int dealer, int bids, const SkOpts* o, PlayoutStats* st,
                     i64* trace) noexcept nogil
