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
    N_CONTRACT_NAMES = 9        # schafkopf.CONTRACT_NAMES, by K_*

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

# the items of a Result's breakdown (records.md); schafkopf.ITEM_NAMES names them in this order
cdef enum:
    IT_GAME = 0
    IT_LAUFENDE = 1
    IT_TOUT = 2
    IT_SCHNEIDER = 3
    IT_SCHWARZ = 4
    IT_SIE = 5
    IT_KONTRA = 6
    IT_RE = 7
    IT_RAMSCH = 8
    IT_JUNGFRAU = 9
    IT_DURCHMARSCH = 10
    IT_TOTAL = 11
    N_ITEM_NAMES = 12

# the fields an item carries (bits), rendered after "item" in this order
cdef enum:
    IF_COUNT = 1
    IF_VALUE = 2
    IF_FACTOR = 4
    IF_LOSERS = 8

cdef enum:
    SK_MAX_ITEMS = 12           # a Result has at most 9

cdef struct SkItem:
    int item, fields
    int count, value, factor
    int losers                  # seat mask

# a finished deal's Result as C data: what Core.result() and the fast text writer render
cdef struct SkResult:
    SkScore score
    int n_teams
    int teams[4]                # seat masks
    int winners                 # seat mask
    int n_items
    SkItem items[SK_MAX_ITEMS]

cdef void sk_init(SkState* s, const u64* hands, int dealer) noexcept nogil
cdef int sk_legal(const SkState* s, const SkOpts* o, i64* out) noexcept nogil
cdef u64 sk_legal_play(const SkState* s) noexcept nogil
cdef void sk_apply(SkState* s, const SkOpts* o, i64 code) noexcept nogil
cdef void sk_score(const SkState* s, const SkOpts* o, SkScore* out) noexcept nogil
cdef void sk_result(const SkState* s, const SkOpts* o, SkResult* out) noexcept nogil
cdef int sk_replay(SkState* s, const SkOpts* o, const int8_t* seats, const i64* codes,
                   int n) noexcept nogil
cdef void sk_deal(Rng* r, int dealer, u64* hands) noexcept nogil
cdef int sk_opts(object options, SkOpts* out) except -1
cdef object result_dict(const SkState* s, const SkOpts* o)
cdef void sk_playout(Rng* r, int dealer, int bids, const SkOpts* o, PlayoutStats* st,
                     i64* trace) noexcept nogil


# which fields a contract object (records.md) carries
cdef inline bint contract_has_suit(int k) noexcept nogil:
    return k == K_RUFSPIEL or k == K_FARBSOLO or k == K_SOLO_TOUT

cdef inline bint contract_has_doubling(int k) noexcept nogil:
    """kontra / re fields: every contract but Sie, Ramsch and a thrown-in deal."""
    return k != K_SIE and k != K_RAMSCH and k != K_THROWN_IN


cdef class Core:
    cdef SkState s
    cdef SkOpts o
    cdef SkState hist[SK_MAX_ACTIONS]
    cdef int n_hist

    cpdef Core copy(self)
    cpdef int to_act(self)
    cpdef bint is_over(self)
    cpdef u64 hand(self, int seat)
    cpdef u64 legal_mask(self)
    cpdef list legal_codes(self)
    cpdef list legal_list(self)
    cpdef bint is_legal(self, i64 code)
    cpdef apply(self, i64 code)
    cpdef int step(self, i64 code) except -2
    cpdef list advance(self, i64 code)
    cpdef int apply_unchecked(self, i64 code)
    cpdef undo(self)
    cpdef list scores(self)
    cpdef list random_playout(self, u64 seed)
    cdef object _contract(self, bint reveal_partner)
    cdef list _tricks(self)
