# What every game provides and what the shared engine gives back: action codes, the one
# Result form of a finished deal, playout statistics and the table of a game's C entry points.
# Declarations only (and inline helpers); the contract of each hook is in docs/adding-a-game.md.
from ._bits cimport u64, i64, int8_t, int16_t
from ._rng cimport Rng
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

# ---- action codes: one int64 for every action of every game (the layout, declared once;
# engine_core._codes gives the same numbers and helpers to Python) ----
#   0..63                       play the card with this index (rank + 8 * suit; Doppelkopf: face + 24 * copy)
#   CALL_BASE..EXCHANGE_BASE-1  call number (code - CALL_BASE) of the game's Call enum (bids,
#                               announcements): up to MAX_CALLS calls, room for Skat's bid values
#                               18..264 and its game declarations
#   >= EXCHANGE_BASE            exchange: the low EXCHANGE_SHIFT bits = EXCHANGE_BASE + the Exchange enum
#                               value, bits EXCHANGE_SHIFT.. = the cards' mask (decks of up to 53 cards)
cdef enum:
    CALL_BASE = 64
    MAX_CALLS = 448
    EXCHANGE_BASE = 512     # CALL_BASE + MAX_CALLS
    EXCHANGE_SHIFT = 10
    MAX_EXCHANGES = 512     # (1 << EXCHANGE_SHIFT) - EXCHANGE_BASE
    MAX_LEGAL = 1024        # Doppelkopf's Armut return: up to 455 multisets of 3

cdef inline i64 exchange_code(int call, u64 mask) noexcept nogil:
    return <i64>((mask << EXCHANGE_SHIFT) | <u64>(EXCHANGE_BASE + call))

cdef inline int exchange_call(i64 code) noexcept nogil:
    """The Exchange enum value of an exchange code."""
    return <int>(code & ((1 << EXCHANGE_SHIFT) - 1)) - EXCHANGE_BASE

cdef inline u64 exchange_mask(i64 code) noexcept nogil:
    """The cards of an exchange code."""
    return (<u64>code) >> EXCHANGE_SHIFT

# action types (bits of a phase's kinds; index into engine_core.state.ACTION_TYPES)
cdef enum:
    A_BID = 1
    A_EXCHANGE = 2
    A_ANNOUNCE = 4
    A_PLAY = 8

cdef enum:
    MAX_SEATS = 6           # six-handed Sheepshead
    MAX_TRICKS = 12
    MAX_ITEMS = 48
    MAX_FIELDS = 96

# ---- the Result of a finished deal, as data ----
# Score: the part every playout and search reads (cheap); Result adds teams, tricks, the
# itemised breakdown and the game's own contract and result fields.
cdef struct Score:
    int contract            # the game's Contract enum value
    int declarer            # seat, or -1 (null)
    int side                # seat mask of the declaring side (0: no declaring side)
    int side_won            # 1 won, 0 lost, -1 no declaring side
    int side_points         # the declaring side's card points (statistics)
    bint played             # cards were played
    int card_points[MAX_SEATS]
    i64 scores[MAX_SEATS]   # 64-bit: no option value in its documented range can overflow

# an itemised breakdown entry: which keys it carries (IF_* bits), rendered in this order:
# item, team, trick, count, value, factor, losers
cdef enum:
    IF_TEAM = 1
    IF_TRICK = 2
    IF_COUNT = 4
    IF_VALUE = 8
    IF_FACTOR = 16
    IF_LOSERS = 32

cdef struct Item:
    int16_t name            # the game's Item enum value
    int16_t fields          # IF_* bits
    int16_t team, trick
    int count
    i64 value, factor
    int losers              # seat mask

# a typed JSON value of a contract or result field; nested objects and lists are a V_OBJECT /
# V_LIST field followed by its `value` members (keys of list members are ignored)
cdef enum:
    V_INT = 0               # value
    V_OPT_INT = 1           # value, null when < 0 (seats, tricks)
    V_BOOL = 2              # value != 0
    V_OPT_BOOL = 3          # 0 false, 1 true, < 0 null
    V_WORD = 4              # the game's Word enum name of value, null when < 0
    V_SUIT = 5              # "C" "S" "H" "D" by value 0..3, null when < 0
    V_CARD = 6              # the card code of index value, null when < 0
    V_CARDS = 7             # the codes of mask value, in card index order of faces
    V_SEATS = 8             # the seats of mask value, ascending
    V_NULL = 9
    V_OBJECT = 10
    V_LIST = 11

cdef struct Field:
    int16_t key             # the game's Word enum value (the key's name)
    int16_t kind            # V_*
    i64 value

cdef struct Result:
    Score score
    int n_teams
    int teams[MAX_SEATS]    # seat masks, declaring side first
    int n_tricks, trick_size
    int8_t trick_leader[MAX_TRICKS]
    int8_t trick_cards[MAX_TRICKS][MAX_SEATS]
    int8_t trick_winner[MAX_TRICKS]
    int n_items
    Item items[MAX_ITEMS]
    int n_contract          # contract fields after type and declarer
    int n_extra             # result fields after breakdown
    Field contract[MAX_FIELDS]
    Field extra[MAX_FIELDS]


cdef inline void add_item(Result* r, int name, int fields, int team, int trick, int count,
                          i64 value, i64 factor, int losers) noexcept nogil:
    cdef Item* it
    if r.n_items >= MAX_ITEMS:
        return
    it = &r.items[r.n_items]
    it.name = name
    it.fields = fields
    it.team = team
    it.trick = trick
    it.count = count
    it.value = value
    it.factor = factor
    it.losers = losers
    r.n_items += 1


cdef inline void contract_field(Result* r, int key, int kind, i64 value) noexcept nogil:
    if r.n_contract < MAX_FIELDS:
        r.contract[r.n_contract].key = key
        r.contract[r.n_contract].kind = kind
        r.contract[r.n_contract].value = value
        r.n_contract += 1


cdef inline void extra_field(Result* r, int key, int kind, i64 value) noexcept nogil:
    if r.n_extra < MAX_FIELDS:
        r.extra[r.n_extra].key = key
        r.extra[r.n_extra].kind = kind
        r.extra[r.n_extra].value = value
        r.n_extra += 1

# ---- the deal: packets as data (the game's declaration), one deal function for every game ----
cdef enum:
    MAX_PACKETS = 40
    TO_BLIND = -1

cdef struct DealPlan:
    int n
    int8_t target[MAX_PACKETS]      # seat offset from the dealer's left (0 = dealer + 1), or TO_BLIND
    int8_t size[MAX_PACKETS]
    # the game's Phase value during which each seat has seen only the first packet dealt to it
    # (Schafkopf's knocking round, option klopfen); -1: every seat sees its whole hand from the
    # deal on. Set by the game's g_opts (the engine presets -1); the engine's views and tensors
    # leave the rest of the hand out while the phase lasts (Core.unseen)
    int8_t sight_phase
    # the cards each hand is dealt (the engine presets G_HAND) and the deck's cards the deal leaves
    # out (never dealt, never in play; preset 0): a game's g_opts sets both where an option takes
    # cards out of the deck (Doppelkopf without nines: 10 cards, the eight nines out)
    int8_t hand
    u64 left_out
    # the seat (offset from the dealer's left, as `target`: G_SEATS - 1 is the dealer) that is
    # dealt no cards and takes no turn in the deal: it sits out (six-handed Sheepshead's dealer,
    # option dealer_sits_out); -1 (the engine's preset): every seat plays. Tricks then hold one
    # card fewer than the seats (`trick_size`) and the turn passes over it (`next_seat`)
    int8_t idle


cdef inline int idle_seat(const DealPlan* d, int dealer, int seats) noexcept nogil:
    """The seat that sits out this deal (DealPlan.idle), -1 when every seat plays."""
    return (dealer + 1 + d.idle) % seats if d.idle >= 0 else -1


cdef inline int trick_size(const DealPlan* d, int seats) noexcept nogil:
    """The cards of a trick: one from each seat that plays."""
    return seats - 1 if d.idle >= 0 else seats


cdef inline int next_seat(const DealPlan* d, int dealer, int seats, int seat) noexcept nogil:
    """The seat to the left of `seat` that plays this deal (the idle seat passed over)."""
    cdef int idle = idle_seat(d, dealer, seats)
    seat = seat + 1 if seat + 1 < seats else 0
    if seat == idle:
        seat = seat + 1 if seat + 1 < seats else 0
    return seat


cdef inline int seat_in_trick(const DealPlan* d, int dealer, int seats, int leader, int k) noexcept nogil:
    """The seat that plays the k-th card (0: the lead) of a trick led by `leader`; where every
    seat plays (the solver's inner loops in all but one variant), k seats to the leader's left."""
    cdef int seat = leader
    if d.idle < 0:
        return (leader + k) % seats
    while k > 0:
        seat = next_seat(d, dealer, seats, seat)
        k -= 1
    return seat

# ---- random playouts (engine_core.batch) ----
cdef enum:
    MAX_CONTRACTS = 16
    HIST_BINS = 256

# how the random players call (batch.BIDS names them)
cdef enum:
    BIDS_UNIFORM = 0        # every legal action equally likely
    BIDS_CHEAPEST = 1       # pass or (50:50) name the cheapest contract open to the speaker

# an optional trace of one playout (NULL in the hot loop): the dealt hands' masks (the blind
# after them), the number of actions, then every action code
cdef enum:
    TRACE_HANDS = 0         # [0, MAX_SEATS + 1): up to MAX_SEATS seats + the blind
    TRACE_COUNT = MAX_SEATS + 1
    TRACE_CODES = MAX_SEATS + 2
    TRACE_SIZE = MAX_SEATS + 2 + 512

# phases of a timed playout (PlayoutStats.phase_ns): the deal, the calls before the first card
# (auction, announcements, exchanges), the card play from the first card on (calls during it
# included), scoring and booking
cdef enum:
    PH_DEAL = 0
    PH_CALLS = 1
    PH_PLAY = 2
    PH_SCORE = 3
    N_PHASES = 4

    TIMED_MAX_NS = 200000   # a timed deal longer than this was preempted: left out of the split

cdef struct PlayoutStats:
    bint timed              # read a monotonic clock at the phase boundaries (bench rows only)
    i64 phase_ns[N_PHASES]  # summed nanoseconds per phase of the timed deals kept
    i64 timed_deals, timed_played, timed_cards     # the timed deals kept, with cards, their cards
    i64 deals               # deals finished
    i64 played              # deals with card play (not thrown in, not ended in the auction)
    i64 cards               # cards played
    i64 calls               # bids, announcements and exchanges
    i64 with_declarer       # deals with a declaring side
    i64 declarer_won
    i64 contracts[MAX_CONTRACTS]    # by the game's statistics contract index
    i64 score_sum[MAX_SEATS]
    i64 seat_points[HIST_BINS]      # each seat's card points, per played deal
    i64 side_points[HIST_BINS]      # the declaring side's card points, per played deal


cdef inline i64 clock_ns() noexcept nogil:
    """A monotonic clock in nanoseconds (the phase split of a timed playout)."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <i64>ts.tv_sec * 1000000000 + ts.tv_nsec


cdef inline void add_points(i64* hist, int points) noexcept nogil:
    if points < 0:
        points = 0
    elif points >= HIST_BINS:
        points = HIST_BINS - 1
    hist[points] += 1


cdef inline void book(PlayoutStats* st, const Score* sc, int contract, int seats) noexcept nogil:
    """Count one finished deal: its statistics contract, each seat's score, card points when
    cards were played, and the declaring side."""
    cdef int i
    st.deals += 1
    if 0 <= contract < MAX_CONTRACTS:
        st.contracts[contract] += 1
    for i in range(seats):
        st.score_sum[i] += sc.scores[i]
    if sc.played:
        st.played += 1
        for i in range(seats):
            add_points(st.seat_points, sc.card_points[i])
    if sc.side_won >= 0:
        st.with_declarer += 1
        st.declarer_won += sc.side_won
        if sc.played:
            add_points(st.side_points, sc.side_points)

# ---- a game's C entry points, for the code written once over every game (batch, codec) ----
ctypedef int (*init_fn)(void* s, const void* o, const u64* hands, u64 blind, int dealer) noexcept nogil
ctypedef int (*replay_fn)(void* s, const void* o, const int8_t* seats, const i64* codes,
                          const u64* extra, int n) noexcept nogil
ctypedef void (*result_fn)(const void* s, const void* o, Result* out) noexcept nogil
ctypedef int (*to_act_fn)(const void* s) noexcept nogil
ctypedef void (*playout_fn)(Rng* r, int dealer, int bids, const void* o, PlayoutStats* st,
                            i64* trace) noexcept nogil

cdef struct GameHooks:
    int seats, hand_size, blind_size, deck_size, faces
    int bids_supported      # bit per BIDS_*
    size_t state_size, opts_size
    init_fn init
    replay_fn replay
    result_fn result
    to_act_fn to_act
    playout_fn playout
