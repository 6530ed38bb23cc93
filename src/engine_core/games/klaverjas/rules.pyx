# cython: language_level=3
"""Klaverjas's rule hooks (typed, nogil) over card masks; the engine around them is the shared
`_engine.pxi`, included at the end. The rules: ../shared/rules/klaverjas.md.

4 players in fixed pairs {0,2} v {1,3}, 32 cards, 8 each (packets of option `deal_packets`).
Trump choice from eldest (dealer+1): `trump` with a suit or `pass`; the first naming ends it;
after four passes eldest must name a suit (forced). `trump_choice: compulsory` (and the
Utrecht ruleset) makes eldest name trumps at once.
Card order: trumps J 9 A T K Q 8 7 (20 14 11 10 4 3 0 0), plain A T K Q J 9 8 7
(11 10 4 3 2 0 0 0); 152 + 10 for the last trick = 162.
Play: follow suit; when void, Amsterdam or Rotterdam trumping (rules 4.2, implemented
literally in `g_legal_cards`); to a trump lead always beat the top trump if you can.
Scoring: roem per trick for its winner (runs of 3/4 in A K Q J T 9 8 7, four of a kind,
stuk), pit bonus, and nat when the playing team does not score strictly more.
"""
from libc.string cimport memset
from engine_core._bits cimport append_bits, u64, i64, int8_t, int16_t, popcount, lowest, bit, nth_bit
from engine_core._rng cimport Rng, rng_below
from engine_core._order cimport (Order, TRUMP, trick_winner_pos, order_init,
                                 order_add_trumps, order_add_plain)
from engine_core._game cimport (CALL_BASE, A_BID, A_PLAY, Score, Result, DealPlan, add_item,
                                contract_field, extra_field, IF_TEAM, IF_TRICK, IF_VALUE, V_INT,
                                V_BOOL, V_WORD, V_SUIT, V_LIST)
from engine_core._result cimport Names, render_contract
from engine_core._names import names, calls
from engine_core.cards import PIQUET, SUITS, SUIT_NAMES


# ---- names, declared once (Python names are derived from these enums) ----
cpdef enum Contract:
    K_TRUMP

cpdef enum Phase:
    P_BIDDING           # the trump choice (eldest may be bound to name a suit: `forced`)
    P_PLAY
    P_OVER
    P_POINT_AUCTION     # bidding: "drents": bids of points for the right to name trumps (rules 12)
    P_CLAIM             # roem_claim: the winner of a trick holding roem claims it or not (rules 14)

cpdef enum Call:
    BID_PASS
    BID_TRUMP_C
    BID_TRUMP_S
    BID_TRUMP_H
    BID_TRUMP_D
    # the Drents auction (option bidding "drents"): the points the bidder's team undertakes to
    # make, 80..160 in tens (BID_POINTS_80 + k is 80 + 10 k), and the pit (every trick)
    BID_POINTS_80
    BID_POINTS_90
    BID_POINTS_100
    BID_POINTS_110
    BID_POINTS_120
    BID_POINTS_130
    BID_POINTS_140
    BID_POINTS_150
    BID_POINTS_160
    BID_PIT
    # option stuk "declared": said with the second of the trump King and Queen (rules 13)
    ANNOUNCE_STUK
    # option roem_claim: the winner of a trick holding roem claims it ("roem") or lets it go
    ANNOUNCE_ROEM
    ANNOUNCE_PASS

# breakdown items; the five roem items follow the R_* flags' bit order
cpdef enum Item:
    I_CARDS
    I_LAST_TRICK
    I_ROEM_RUN3
    I_ROEM_RUN4
    I_ROEM_FOUR_OF_A_KIND
    I_ROEM_FOUR_JACKS
    I_ROEM_STUK
    I_PIT
    I_TOTAL
    I_NAT
    I_HALF_NAT
    I_SCORE

# the keys of the game's own contract and result fields, and the words used as their values
cpdef enum Word:
    W_TRUMP
    W_MAKER
    W_FORCED
    W_RULESET
    W_OUTCOME
    W_TEAM_TOTALS
    W_AMSTERDAM
    W_ROTTERDAM
    W_UTRECHT
    W_MADE
    W_NAT
    W_HALF_NAT
    W_BID
    W_POINTS_80         # the winning Drents bid as the contract shows it: its call's name
    W_POINTS_90
    W_POINTS_100
    W_POINTS_110
    W_POINTS_120
    W_POINTS_130
    W_POINTS_140
    W_POINTS_150
    W_POINTS_160
    W_PIT

DECK = PIQUET
CONTRACTS = names(Contract, "K_")
PHASE_NAMES = names(Phase, "P_")
CALL_TABLE = calls(Call)
EXCHANGES = ()                  # Klaverjas has no exchanges
WORDS = names(Word, "W_")
RULESETS = WORDS[W_AMSTERDAM:W_UTRECHT + 1]            # ("amsterdam", "rotterdam", "utrecht")
cdef Names _NAMES = Names(CONTRACTS, names(Item, "I_"), WORDS, PIQUET.faces, 4)
NAMES = _NAMES

# ---- the C state ----
cdef enum:
    G_SEATS = 4
    G_HAND = 8
    G_BLIND = 0
    G_DECK = 32
    G_FACES = 32
    G_COPIES = 1
    G_MAX_ACTIONS = 56          # at most 10 bids + the trump + 32 cards + a stuk + 8 claims
    G_BIDS = 1                  # uniform only

# roem items of one trick, as bit flags (rules 5.2); bit k is breakdown item I_ROEM_RUN3 + k
cdef enum:
    R_RUN3 = 1
    R_RUN4 = 2
    R_FOUR = 4                  # four Kings, Queens, Aces or Tens
    R_FOUR_JACKS = 8
    R_STUK = 16
    N_ROEM_ITEMS = 5

cdef int ROEM_VALUE[5]
ROEM_VALUE[:] = [20, 50, 100, 200, 20]

cdef struct KjOpts:
    DealPlan deal
    bint rotterdam              # Rotterdam trumping (else Amsterdam, also for Utrecht)
    bint compulsory             # eldest must name trumps at once
    bint roem
    bint half_nat               # tie_rule half_nat
    bint nat_roem_own           # nat: the playing team's roem is dropped, not handed over
    int ruleset                 # W_AMSTERDAM, W_ROTTERDAM or W_UTRECHT (the contract shows it)
    i64 pit_bonus
    bint drents                 # bidding "drents": the point auction decides the maker (rules 12)
    bint stuk_declared          # stuk "declared": only a stuk said with the second card counts (13)
    bint roem_claim             # roem_claim: a trick's roem counts only when its winner claims it (14)

cdef struct KjState:
    u64 hand[4]
    u64 won[4]
    int8_t n_won[4]
    int8_t dealer, to_act, phase, n_passes
    int8_t trump, maker
    int8_t forced               # eldest must name a suit (compulsory, or four passes); kept for the contract
    int8_t trick_no, n_in_trick, leader
    int8_t trick[8][4]
    int8_t trick_leader[8]
    int8_t trick_winner[8]
    int8_t trick_roem_items[8]  # R_* flags of each completed trick (0 with roem off)
    int16_t trick_roem[8]       # roem value of each completed trick
    int8_t bid                  # the Drents auction: the highest bid (0 none, else BID_POINTS_80.. / BID_PIT)
    int8_t high                 # its bidder (-1 none)
    int8_t passed               # seat mask of those who passed in the auction
    int8_t last_call[4]         # each seat's last call in the auction (0 none, else CALL + 1)
    int8_t all_passed           # the auction found no bidder: eldest plays 80, forced
    int8_t stuk_holder          # stuk "declared": the seat that played one of trump K, Q holding both (-1)
    int8_t stuk_pending         # it has said "stuk" and now plays the other
    int8_t stuk_seat, stuk_trick    # the declared stuk: its seat (-1 none) and the trick of its second card
    int8_t unclaimed            # roem_claim: bit t = trick t's roem was let go
    int8_t perfect              # the solver's playing: every claim and stuk made at once (g_settle)
    int8_t announces            # stuk "declared" or roem_claim: the play knows announcements

ctypedef KjState GState
ctypedef KjOpts GOpts

# ---- cards: index rank + 8 * suit, ranks A T K Q J 9 8 7, suits C S H D ----
cdef enum:
    ACE = 0
    TEN = 1
    KING = 2
    QUEEN = 3
    JACK = 4
    NINE = 5
    NO_TRUMP = 4                # ORDERS[4]: no trumps yet (sorting during the trump choice)

# ORDERS[t]: trumps t (0..3); ORDERS[4]: every suit in its plain order
cdef Order ORDERS[5]
cdef int8_t POINTS[5][32]       # card points per trump suit; POINTS[4]: no trump yet (plain values)
cdef u64 ABOVE[4][9]            # ABOVE[t][p]: trumps of suit t with power > p (p = 0: every trump)
cdef int16_t PLAIN_BYTE[256]    # card points of a plain suit's byte of a mask (rank bits A T K Q J 9 8 7)
cdef int16_t TRUMP_BYTE[256]    # ... of the trump suit's byte
cdef int QUAD_RANKS[5]          # the ranks whose four of a kind scores roem, the jacks (200) first


cdef inline int card(int rank, int suit) noexcept nogil:
    return rank + 8 * suit


cdef void _build_tables():
    cdef int8_t trumps[8]
    cdef int8_t plain[8]
    cdef int t, s, i, p, c
    trump_ranks = (JACK, NINE, ACE, TEN, KING, QUEEN, 6, 7)
    trump_points = {JACK: 20, NINE: 14, ACE: 11, TEN: 10, KING: 4, QUEEN: 3}
    plain_points = (11, 10, 4, 3, 2, 0, 0, 0)
    for t in range(5):
        order_init(&ORDERS[t])
        for s in range(4):
            if s == t:
                for i in range(8):
                    trumps[i] = card(trump_ranks[i], s)
                order_add_trumps(&ORDERS[t], trumps, 8)
            else:
                for i in range(8):
                    plain[i] = card(i, s)
                order_add_plain(&ORDERS[t], s, plain, 8)
    for i in range(256):
        PLAIN_BYTE[i] = sum(plain_points[r] for r in range(8) if i >> r & 1)
        TRUMP_BYTE[i] = sum(trump_points.get(r, 0) for r in range(8) if i >> r & 1)
    for c in range(32):
        POINTS[NO_TRUMP][c] = plain_points[c % 8]
    for t in range(4):
        for c in range(32):
            POINTS[t][c] = trump_points.get(c % 8, 0) if c // 8 == t else plain_points[c % 8]
        for p in range(9):
            ABOVE[t][p] = 0
            for c in range(32):
                if ORDERS[t].eff_suit[c] == TRUMP and ORDERS[t].power[c] > p:
                    ABOVE[t][p] |= bit(c)

_build_tables()
QUAD_RANKS[:] = [JACK, ACE, TEN, KING, QUEEN]


cdef inline int points_of(const KjState* s, u64 m) noexcept nogil:
    """Card points of a mask of cards with the trumps in force (no last-trick 10)."""
    cdef int suit, total = 0
    for suit in range(4):
        if suit == s.trump:
            total += TRUMP_BYTE[(m >> (8 * suit)) & 0xFF]
        else:
            total += PLAIN_BYTE[(m >> (8 * suit)) & 0xFF]
    return total


cdef int g_opts(options, KjOpts* out) except -1:
    """The C options of resolved Options (ranges are checked by the option table, the
    cross-option rules by the declaration's `validate`)."""
    out.rotterdam = options.ruleset == "rotterdam"
    out.compulsory = options.ruleset == "utrecht" or options.trump_choice == "compulsory"
    out.roem = options.roem
    out.half_nat = options.tie_rule == "half_nat"
    out.nat_roem_own = options.nat_roem == "own"
    out.ruleset = W_AMSTERDAM + RULESETS.index(options.ruleset)
    out.pit_bonus = options.pit_bonus
    out.drents = options.bidding == "drents"
    out.stuk_declared = options.stuk == "declared"
    out.roem_claim = options.roem_claim
    return 0


cdef inline int bid_value(int bid) noexcept nogil:
    """The points a Drents bid undertakes (BID_PIT: every trick, shown as 162)."""
    return 162 if bid == BID_PIT else 80 + 10 * (bid - BID_POINTS_80)


# ---- roem (rules 5.2) ----
cdef inline u64 seq_bits(u64 m) noexcept nogil:
    """A mask of cards (ranks A T K Q J 9 8 7 from bit 0 of each suit's byte) as sequence bits:
    each suit's byte in A K Q J T 9 8 7 order (the ten moves behind the jack)."""
    return (m & <u64>0xE1E1E1E1) | ((m & <u64>0x02020202) << 3) | ((m & <u64>0x1C1C1C1C) >> 1)


cdef inline u64 card_bits(u64 q) noexcept nogil:
    """The inverse of seq_bits."""
    return (q & <u64>0xE1E1E1E1) | ((q & <u64>0x10101010) >> 3) | ((q & <u64>0x0E0E0E0E) << 1)


cdef int kj_trick_roem(const int8_t* cards, int trump, int* items, bint stuk=True) noexcept nogil:
    """Roem of a complete trick: runs per suit in A K Q J T 9 8 7 (only the longest counts),
    four of a kind, and the stuk (K and Q of trumps) on top. Returns the value and sets the
    R_* flags in `items`. Over masks: the four cards as sequence bits, a run of three where
    three consecutive bits of one suit's byte are set (of four: four), four of a kind where
    the cards share one rank bit (the cards are distinct, so one of each suit)."""
    cdef u64 m = bit(cards[0]) | bit(cards[1]) | bit(cards[2]) | bit(cards[3]), q, r3, kq
    cdef u64 ranks = (m | m >> 8 | m >> 16 | m >> 24) & 0xFF
    cdef int value = 0
    items[0] = 0
    if not (ranks & (ranks - 1)):
        if ranks == bit(JACK):
            items[0] = R_FOUR_JACKS
            return 200
        if ranks <= bit(QUEEN):              # A T K Q
            items[0] = R_FOUR
            return 100
        return 0
    q = seq_bits(m)
    r3 = q & (q >> 1) & (q >> 2) & <u64>0x3F3F3F3F
    if r3 & (r3 >> 1) & <u64>0x1F1F1F1F:
        items[0] = R_RUN4
        value = 50
    elif r3:
        items[0] = R_RUN3
        value = 20
    kq = bit(card(KING, trump)) | bit(card(QUEEN, trump))
    if stuk and (m & kq) == kq:
        items[0] |= R_STUK
        value += 20
    return value


# ---- hooks ----
cdef void g_init(KjState* s, const KjOpts* o, const u64* hands, u64 blind, int dealer) noexcept nogil:
    cdef int i
    memset(s, 0, sizeof(KjState))
    for i in range(4):
        s.hand[i] = hands[i]
    s.dealer = dealer
    s.to_act = (dealer + 1) % 4
    s.leader = s.to_act
    s.phase = P_BIDDING
    s.forced = o.compulsory
    s.trump = -1
    s.maker = -1
    s.high = -1
    s.stuk_holder = -1
    s.stuk_seat = -1
    s.announces = o.stuk_declared or o.roem_claim
    if o.drents:
        s.phase = P_POINT_AUCTION
        s.forced = 0


cdef inline int g_kinds(const KjState* s) noexcept nogil:
    """The stuk and the roem claim belong to the play whenever their options are on, so that a
    refused one gets its reason; a claim is a phase of its own (a card there is refused as out
    of phase)."""
    if s.phase == P_BIDDING or s.phase == P_POINT_AUCTION:
        return A_BID
    if s.phase == P_PLAY:
        return A_PLAY | A_ANNOUNCE if s.announces else A_PLAY
    if s.phase == P_CLAIM:
        return A_ANNOUNCE
    return 0


cdef inline int stuk_card(const KjState* s) noexcept nogil:
    """The trump King or Queen the stuk holder still holds (-1: none, or no trumps yet)."""
    cdef u64 kq
    if s.trump < 0 or s.stuk_holder < 0:
        return -1
    kq = s.hand[s.stuk_holder] & (bit(card(KING, s.trump)) | bit(card(QUEEN, s.trump)))
    return lowest(kq) if kq else -1


cdef inline const Order* g_order(const KjState* s) noexcept nogil:
    return &ORDERS[s.trump if s.trump >= 0 else NO_TRUMP]


cdef inline int top_trump_power(const KjState* s) noexcept nogil:
    """Power of the highest trump in the current trick (0: none)."""
    cdef const Order* od = &ORDERS[s.trump]
    cdef int i, c, top = 0
    for i in range(s.n_in_trick):
        c = s.trick[s.trick_no][i]
        if od.eff_suit[c] == TRUMP and od.power[c] > top:
            top = od.power[c]
    return top


cdef inline int current_winner(const KjState* s) noexcept nogil:
    """The seat whose card wins the partial trick so far."""
    return (s.leader + trick_winner_pos(&ORDERS[s.trump], s.trick[s.trick_no], s.n_in_trick)) % 4


cdef inline u64 g_legal_cards(const KjState* s, const KjOpts* o) noexcept nogil:
    """Legal cards of the seat to act: the algorithm of rules 4.2, step by step; 0 outside
    the play phase."""
    cdef int me, led, top
    cdef u64 hand, trumps, higher, follow, m
    cdef const Order* od
    if s.phase != P_PLAY:
        return 0
    if s.stuk_pending:
        return bit(stuk_card(s))                             # "stuk": the card said with it
    me = s.to_act
    hand = s.hand[me]
    if s.n_in_trick == 0:
        return hand                                          # lead anything
    od = &ORDERS[s.trump]
    led = od.eff_suit[s.trick[s.trick_no][0]]
    trumps = hand & od.suit_mask[TRUMP]
    top = top_trump_power(s)
    higher = trumps & ABOVE[s.trump][top]
    if led == TRUMP:                                         # trump led (both rulesets)
        if not trumps:
            return hand
        return higher if higher else trumps                  # beat the top trump, even partner's
    follow = hand & od.suit_mask[led]
    if follow:
        return follow                                        # follow; need not win
    if not trumps:
        return hand
    if o.rotterdam:
        return higher if higher else trumps                  # must trump, overtrump if able
    if current_winner(s) == (me + 2) % 4:                    # Amsterdam, partner winning
        if top == 0:
            return hand
        m = (hand & ~trumps) | higher                        # no undertrumping partner ...
        return m if m else hand                              # ... unless only lower trumps
    if top == 0:                                             # an opponent wins with a plain card
        return trumps
    if higher:
        return higher                                        # must overtrump
    m = hand & ~trumps
    return m if m else hand                                  # discard rather than undertrump


cdef inline bint stuk_open(const KjState* s, const KjOpts* o) noexcept nogil:
    """Whether the seat to act may say "stuk" now: it played one of the trump King and Queen
    holding both, has not said it, and the other is a legal card now (rules 13)."""
    cdef int c
    if s.phase != P_PLAY or s.stuk_pending or s.to_act != s.stuk_holder:
        return False
    c = stuk_card(s)
    return c >= 0 and (g_legal_cards(s, o) >> c) & 1


cdef int g_legal(const KjState* s, const KjOpts* o, i64* out) noexcept nogil:
    cdef int n = 0, call
    cdef u64 m
    if s.phase == P_PLAY:
        n = append_bits(g_legal_cards(s, o), out, n)
        if stuk_open(s, o):
            out[n] = CALL_BASE + ANNOUNCE_STUK
            n += 1
    elif s.phase == P_CLAIM:
        out[0] = CALL_BASE + ANNOUNCE_ROEM
        out[1] = CALL_BASE + ANNOUNCE_PASS
        n = 2
    elif s.phase == P_POINT_AUCTION:
        out[n] = CALL_BASE + BID_PASS
        n += 1
        for call in range(BID_POINTS_80 if s.bid == 0 else s.bid + 1, BID_PIT + 1):
            out[n] = CALL_BASE + call
            n += 1
    elif s.phase == P_BIDDING:
        if not s.forced:
            out[n] = CALL_BASE + BID_PASS
            n += 1
        for call in range(BID_TRUMP_C, BID_TRUMP_D + 1):
            out[n] = CALL_BASE + call
            n += 1
    return n


cdef inline void play_card(KjState* s, const KjOpts* o, int c) noexcept nogil:
    cdef int seat = s.to_act, pos, winner, items, i
    cdef int8_t* cards = s.trick[s.trick_no]
    cdef u64 kq = bit(card(KING, s.trump)) | bit(card(QUEEN, s.trump))
    if o.stuk_declared and bit(c) & kq:
        if s.stuk_pending:                   # the second card, said with "stuk"
            s.stuk_seat = seat
            s.stuk_trick = s.trick_no
            s.stuk_pending = 0
            s.stuk_holder = -1
        elif (s.hand[seat] & kq) == kq:      # the first of the two: the stuk is open to him
            s.stuk_holder = seat
        elif s.perfect and s.stuk_holder == seat:  # the solver's play: said with it
            s.stuk_seat = seat
            s.stuk_trick = s.trick_no
            s.stuk_holder = -1
        else:                                # the second, played without "stuk": lost
            s.stuk_holder = -1
    s.hand[seat] &= ~bit(c)
    cards[s.n_in_trick] = <int8_t>c
    s.n_in_trick += 1
    if s.n_in_trick < 4:
        s.to_act = (seat + 1) % 4
        return
    pos = trick_winner_pos(&ORDERS[s.trump], cards, 4)
    winner = (s.leader + pos) % 4
    s.trick_leader[s.trick_no] = s.leader
    s.trick_winner[s.trick_no] = winner
    for i in range(4):
        s.won[winner] |= bit(cards[i])
    s.n_won[winner] += 1
    if o.roem:
        s.trick_roem[s.trick_no] = kj_trick_roem(cards, s.trump, &items, not o.stuk_declared)
        s.trick_roem_items[s.trick_no] = items
    s.trick_no += 1
    s.n_in_trick = 0
    s.leader = winner
    s.to_act = winner
    if o.roem_claim and s.trick_roem[s.trick_no - 1] and not s.perfect:
        s.phase = P_CLAIM                    # the winner claims the roem or not (rules 14)
    elif s.trick_no == 8:
        s.phase = P_OVER
        s.to_act = -1


cdef inline void auction_step(KjState* s, int seat, int call) noexcept nogil:
    """A pass or a bid of the Drents auction (rules 12): a pass is final; the auction ends when
    a bid is followed by three passes or is the pit, and when all four pass (eldest then plays
    80, forced); its winner names trumps next."""
    cdef int k, eldest = (s.dealer + 1) % 4
    s.last_call[seat] = call + 1
    if call == BID_PASS:
        s.passed |= 1 << seat
        s.n_passes += 1
    else:
        s.bid = call
        s.high = seat
    if s.passed == 15:
        s.bid = BID_POINTS_80
        s.high = eldest
        s.all_passed = 1
    elif not (call == BID_PIT or (s.high >= 0 and (s.passed | (1 << s.high)) == 15)):
        for k in range(1, 4):                # the next seat still in the auction
            if not (s.passed >> ((seat + k) % 4)) & 1:
                s.to_act = (seat + k) % 4
                return
    s.phase = P_BIDDING                      # the winner must name a suit
    s.forced = 1
    s.to_act = s.high


cdef inline void claim_step(KjState* s, bint claim) noexcept nogil:
    """The claim of the last trick's roem (rules 14): kept, or let go (its roem is lost); then
    the winner leads on, or the deal is over after the eighth trick."""
    cdef int t = s.trick_no - 1
    if not claim:
        s.unclaimed |= 1 << t
        s.trick_roem[t] = 0
        s.trick_roem_items[t] = 0
    s.phase = P_PLAY if s.trick_no < 8 else P_OVER
    s.to_act = s.leader if s.trick_no < 8 else -1


cdef inline void g_settle(KjState* s, const KjOpts* o) noexcept nogil:
    """The solver's search plays cards only: from here every roem is claimed and every stuk
    said at once (a claim or a stuk only ever adds to its side), as a perfect player does."""
    s.perfect = 1
    if s.phase == P_CLAIM:
        claim_step(s, True)


cdef inline i64 g_interjection(const KjState* s, const KjOpts* o, int seat) noexcept nogil:
    """No action out of turn in this game: every action is the seat to act's (-1)."""
    return -1


cdef inline void g_interject(KjState* s, const KjOpts* o, int seat, i64 code) noexcept nogil:
    pass


cdef inline void g_apply(KjState* s, const KjOpts* o, i64 code) noexcept nogil:
    """Apply a legal action code (legality is the caller's check)."""
    cdef int seat = s.to_act
    cdef int call = <int>(code - CALL_BASE)
    if code < CALL_BASE:
        play_card(s, o, <int>code)
        return
    if call == ANNOUNCE_STUK:
        s.stuk_pending = 1                   # the seat still acts: it plays the other card
        return
    if s.phase == P_CLAIM:
        claim_step(s, call == ANNOUNCE_ROEM)
        return
    if s.phase == P_POINT_AUCTION:
        auction_step(s, seat, call)
        return
    if code == CALL_BASE + BID_PASS:
        s.n_passes += 1
        s.to_act = (seat + 1) % 4
        if s.n_passes == 4:                  # all passed: eldest must choose (to_act is eldest)
            s.forced = 1
        return
    s.trump = <int8_t>(code - CALL_BASE - BID_TRUMP_C)
    s.maker = seat
    s.phase = P_PLAY
    s.to_act = (s.dealer + 1) % 4            # eldest leads, whoever chose trumps
    s.leader = s.to_act


cdef inline i64 g_random(const KjState* s, const KjOpts* o, Rng* r, int bids) noexcept nogil:
    """Every legal action equally likely (the only way Klaverjas's random players call): in
    the play a card drawn straight from the legal mask, with the same draw as uniform_action
    over g_legal's codes (which list the cards in index order); a roem claim (option
    roem_claim) is always made, so that a playout's value counts the roem its tricks hold."""
    cdef u64 m
    cdef int n
    if s.phase == P_PLAY and not stuk_open(s, o):
        m = g_legal_cards(s, o)
        n = popcount(m)
        return nth_bit(m, rng_below(r, n)) if n > 1 else lowest(m)
    if s.phase == P_CLAIM:
        return CALL_BASE + ANNOUNCE_ROEM        # random players claim their roem (a playout's value)
    return uniform_action(s, o, r)


# ---- scoring (rules 5) ----
cdef enum:
    PLAYING = 0                 # team index of the maker's team in the tally and the breakdown
    DEFENDERS = 1

cdef struct KjTally:            # the intermediate figures of scoring that the breakdown shows
    int cards[2]                # card points without the last-trick 10, per team
    int last[2]
    i64 roem[2]
    i64 pit[2]
    i64 total[2]
    i64 score[2]
    int outcome                 # W_MADE, W_NAT or W_HALF_NAT


cdef inline int side_mask(const KjState* s) noexcept nogil:
    """The playing team (the maker and partner) as a seat mask."""
    return 5 << (s.maker % 2)


cdef inline int team_of(const KjState* s, int seat) noexcept nogil:
    return PLAYING if seat % 2 == s.maker % 2 else DEFENDERS


cdef void tally(const KjState* s, const KjOpts* o, Score* sc, KjTally* t) noexcept nogil:
    """Card points, roem, pit, made or nat, and per-seat scores of a finished deal (64-bit)."""
    cdef int i, team
    cdef int tricks[2]
    memset(t, 0, sizeof(KjTally))
    tricks[0] = 0
    tricks[1] = 0
    start_score(sc, s, K_TRUMP, s.maker)
    sc.side = side_mask(s)
    for i in range(4):
        sc.card_points[i] = points_of(s, s.won[i])
        team = team_of(s, i)
        t.cards[team] += sc.card_points[i]          # card points only; the last-trick 10 apart
        tricks[team] += s.n_won[i]
    team = team_of(s, s.trick_winner[7])
    t.last[team] = 10
    sc.card_points[s.trick_winner[7]] += 10
    for i in range(8):
        t.roem[team_of(s, s.trick_winner[i])] += s.trick_roem[i]
    if s.stuk_seat >= 0:                            # a declared stuk: the holder's team
        t.roem[team_of(s, s.stuk_seat)] += ROEM_VALUE[4]
    for team in range(2):
        if tricks[team] == 8:
            t.pit[team] = o.pit_bonus
        t.total[team] = t.cards[team] + t.last[team] + t.roem[team] + t.pit[team]
    if o.drents and not (tricks[PLAYING] == 8 if s.bid == BID_PIT else t.total[PLAYING] >= bid_value(s.bid)):
        t.outcome = W_NAT                           # the bid not reached (rules 12.3)
        t.score[PLAYING] = 0
        t.score[DEFENDERS] = (162 + t.roem[DEFENDERS] + t.pit[DEFENDERS]
                              + (0 if o.nat_roem_own else t.roem[PLAYING]))
    elif t.total[PLAYING] > t.total[DEFENDERS]:
        t.outcome = W_MADE
        t.score[PLAYING] = t.total[PLAYING]
        t.score[DEFENDERS] = t.total[DEFENDERS]
    elif t.total[PLAYING] == t.total[DEFENDERS] and o.half_nat:
        t.outcome = W_HALF_NAT
        t.score[PLAYING] = 0
        t.score[DEFENDERS] = t.total[DEFENDERS]
    else:
        t.outcome = W_NAT
        t.score[PLAYING] = 0
        t.score[DEFENDERS] = (162 + t.roem[DEFENDERS] + t.pit[DEFENDERS]
                              + (0 if o.nat_roem_own else t.roem[PLAYING]))
    sc.side_won = t.outcome == W_MADE
    # batch statistics histogram the playing team's total (cards, last trick, roem, pit), as
    # the statistics always have for Klaverjas
    sc.side_points = <int>t.total[PLAYING]
    for i in range(4):
        sc.scores[i] = t.score[team_of(s, i)]


cdef inline void g_score(const KjState* s, const KjOpts* o, Score* sc) noexcept nogil:
    cdef KjTally t
    tally(s, o, sc, &t)


cdef inline int g_stat_contract(const KjState* s, const Score* sc) noexcept nogil:
    """Contracts are counted by trump suit (the declaration's stat_contracts trump_C..trump_D)."""
    return s.trump


cdef void add_roem_items(const KjState* s, Result* r) noexcept nogil:
    """One breakdown entry per roem item of the completed tricks, in trick order, each with
    the team that won it and its trick."""
    cdef int t, k, flags
    for t in range(s.trick_no):
        flags = s.trick_roem_items[t]
        for k in range(N_ROEM_ITEMS):
            if flags >> k & 1:
                add_item(r, I_ROEM_RUN3 + k, IF_TEAM | IF_TRICK | IF_VALUE, team_of(s, s.trick_winner[t]),
                         t, 0, ROEM_VALUE[k], 0, 0)
        if s.stuk_seat >= 0 and s.stuk_trick == t:     # a declared stuk: for the holder's team
            add_item(r, I_ROEM_STUK, IF_TEAM | IF_TRICK | IF_VALUE, team_of(s, s.stuk_seat),
                     t, 0, ROEM_VALUE[4], 0, 0)


cdef void fill_contract(const KjState* s, const KjOpts* o, Result* r, int outcome) noexcept nogil:
    """The contract object's fields: trump, maker, forced, ruleset, and the outcome (W_*, or -1
    while the deal is on)."""
    r.score.contract = K_TRUMP
    r.score.declarer = s.maker
    contract_field(r, W_TRUMP, V_SUIT, s.trump)
    contract_field(r, W_MAKER, V_INT, s.maker)
    contract_field(r, W_FORCED, V_BOOL, s.all_passed if o.drents else s.forced)
    contract_field(r, W_RULESET, V_WORD, o.ruleset)
    if o.drents:                                 # the winning bid's call: points_80 .. points_160, pit
        contract_field(r, W_BID, V_WORD, W_POINTS_80 + (s.bid - BID_POINTS_80))
    if outcome >= 0:
        contract_field(r, W_OUTCOME, V_WORD, outcome)


cdef void g_result(const KjState* s, const KjOpts* o, Result* r) noexcept nogil:
    """The Result: teams (playing team first), tricks, the breakdown (cards, last trick, roem
    by trick, pit, totals, nat or half nat, scores) and the team totals."""
    cdef KjTally t
    cdef int team
    start_result(r)
    tally(s, o, &r.score, &t)
    fill_tricks(s, r)
    fill_contract(s, o, r, t.outcome)
    r.n_teams = 2
    r.teams[0] = r.score.side
    r.teams[1] = 15 & ~r.score.side
    for team in range(2):
        add_item(r, I_CARDS, IF_TEAM | IF_VALUE, team, 0, 0, t.cards[team], 0, 0)
        if t.last[team]:
            add_item(r, I_LAST_TRICK, IF_TEAM | IF_VALUE, team, 0, 0, t.last[team], 0, 0)
    add_roem_items(s, r)
    for team in range(2):
        if t.pit[team]:
            add_item(r, I_PIT, IF_TEAM | IF_VALUE, team, 0, 0, t.pit[team], 0, 0)
    for team in range(2):
        add_item(r, I_TOTAL, IF_TEAM | IF_VALUE, team, 0, 0, t.total[team], 0, 0)
    if t.outcome != W_MADE:
        add_item(r, I_NAT if t.outcome == W_NAT else I_HALF_NAT, IF_TEAM | IF_VALUE, DEFENDERS, 0, 0,
                 t.score[DEFENDERS], 0, 0)
    for team in range(2):
        add_item(r, I_SCORE, IF_TEAM | IF_VALUE, team, 0, 0, t.score[team], 0, 0)
    extra_field(r, W_TEAM_TOTALS, V_LIST, 2)
    extra_field(r, W_TEAM_TOTALS, V_INT, t.total[PLAYING])
    extra_field(r, W_TEAM_TOTALS, V_INT, t.total[DEFENDERS])


# ---- solver hooks (_solver.pxi) ----
# A Klaverjas seat scores with its team, so a side's value is the raw total (cards, last trick,
# roem, pit: before the nat rule) of the teams its seats belong to.
cdef inline int team_closure(int side) noexcept nogil:
    return (side | (side << 2) | (side >> 2)) & 15


cdef inline int g_side(const KjState* s, const KjOpts* o) noexcept nogil:
    """The maker's team."""
    return side_mask(s)


cdef inline int g_points(const KjState* s, const KjOpts* o, int side) noexcept nogil:
    """The raw total the side's teams have taken so far, as the result's breakdown counts it
    (final at the end of the deal)."""
    cdef int m = team_closure(side), i, team, total = 0
    cdef u64 won = 0
    for i in range(4):
        if m >> i & 1:
            won |= s.won[i]
    total = points_of(s, won)
    for i in range(s.trick_no):
        if m >> s.trick_winner[i] & 1:
            total += s.trick_roem[i]
    if s.stuk_seat >= 0 and m >> s.stuk_seat & 1:
        total += ROEM_VALUE[4]
    if s.trick_no == 8:
        if m >> s.trick_winner[7] & 1:
            total += 10
        for team in range(2):
            if (m >> team & 5) == 5 and s.n_won[team] + s.n_won[team + 2] == 8:
                total += <int>o.pit_bonus
    return total


cdef inline bint any_holds_both(const u64* own, u64 kq) noexcept nogil:
    cdef int q
    for q in range(4):
        if (own[q] & kq) == kq:
            return True
    return False


cdef inline void roem_chances(const KjState* s, u64* live, int* bound, bint declared=False) noexcept nogil:
    """What roem the cards still in play (the hands and the trick in play) can make, each card
    with the seat that holds or played it: a trick's cards come from four seats, so a run needs
    three (four) cards consecutive in A K Q J T 9 8 7 of one suit held by different seats, a
    four of a kind (A T K Q J) four such cards, the stuk the trump King and Queen in different
    seats. `live`: the cards that can still be part of any of them (the others never change a
    roem again: they can be merged with an equal card). `bound`: an upper bound of the roem of
    the tricks still to complete: a trick scores at most one four of a kind or run (its cards
    are of one rank, or three of them of one suit), so the largest `tricks` of: each possible
    four of a kind (200 jacks, 100 the others), per suit as many runs as disjoint possible
    windows of three (50 each in a suit with a possible run of four, else 20); plus the stuk."""
    cdef u64 own[4]
    cdef u64 left = 0, conflict1 = 0, conflict2 = 0, conflict3 = 0, h, w3, w4, kq, quad
    cdef u64 lv = 0
    cdef int i, q, suit, rank, n50 = 0, n20 = 0, quads = 0, f = 0, runs, p, tricks = 8 - s.trick_no
    for q in range(4):
        own[q] = s.hand[q]
    for i in range(s.n_in_trick):
        own[(s.leader + i) % 4] |= bit(s.trick[s.trick_no][i])
    for q in range(4):
        left |= own[q]
    for i in range(5):                      # the four of a kinds still possible, jacks first
        rank = QUAD_RANKS[i]
        quad = <u64>0x01010101 << rank
        if (left & quad) != quad:
            continue
        for q in range(4):
            h = own[q] & quad
            if h & (h - 1):                 # two of them in one seat
                break
        else:
            lv |= quad
            if quads < tricks:
                f += 200 if rank == JACK else 100
                quads += 1
    for q in range(4):                      # two cards of one seat at sequence distance 1, 2, 3
        h = seq_bits(own[q])
        conflict1 |= h & (h >> 1)
        conflict2 |= h & (h >> 2)
        conflict3 |= h & (h >> 3)
    h = seq_bits(left)
    w3 = h & (h >> 1) & (h >> 2) & ~conflict1 & ~(conflict1 >> 1) & ~conflict2 & <u64>0x3F3F3F3F
    w4 = w3 & (w3 >> 1) & ~conflict2 & ~conflict3 & <u64>0x1F1F1F1F
    lv |= card_bits(w3 | (w3 << 1) | (w3 << 2))
    for suit in range(4):
        h = (w3 >> (8 * suit)) & 0xFF
        runs = 0
        while h:                            # greedy: the most disjoint windows of three
            p = lowest(h)
            runs += 1
            h &= ~((<u64>1 << (p + 3)) - 1)
        if (w4 >> (8 * suit)) & 0xFF:
            n50 += runs
        else:
            n20 += runs
    tricks -= quads
    if n50 > tricks:
        n50 = tricks
    tricks -= n50
    if n20 > tricks:
        n20 = tricks
    f += 50 * n50 + 20 * n20
    kq = bit(card(KING, s.trump)) | bit(card(QUEEN, s.trump))
    if declared:                            # stuk "declared": one seat's two cards, or the rest of them
        if s.stuk_holder >= 0 or any_holds_both(own, kq):
            lv |= kq & left
            f += 20
    elif (left & kq) == kq:
        for q in range(4):
            if (own[q] & kq) == kq:
                break
        else:
            lv |= kq
            f += 20
    live[0] = lv
    bound[0] = f


cdef inline int g_future_max(const KjState* s, const KjOpts* o) noexcept nogil:
    """What any side can still add: the card points not yet taken, the last trick, the roem
    the cards left can still make (roem_chances) and the pit while one team has every trick
    so far."""
    cdef u64 left = s.hand[0] | s.hand[1] | s.hand[2] | s.hand[3], live
    cdef int i, f, roem
    if s.trick_no == 8:
        return 0
    for i in range(s.n_in_trick):
        left |= bit(s.trick[s.trick_no][i])
    f = points_of(s, left) + 10
    if o.roem:
        roem_chances(s, &live, &roem, o.stuk_declared)
        f += roem
    if s.n_won[0] + s.n_won[2] == 0 or s.n_won[1] + s.n_won[3] == 0:
        f += <int>o.pit_bonus
    return f


cdef inline const int8_t* g_point_table(const KjState* s) noexcept nogil:
    return POINTS[s.trump if s.trump >= 0 else NO_TRUMP]     # before the trump is named: plain


cdef inline int g_rule_key(const KjState* s) noexcept nogil:
    """The pit still open to a team: bit 0 while {0,2} has won every trick, bit 1 for {1,3}."""
    return (s.n_won[1] + s.n_won[3] == 0) | ((s.n_won[0] + s.n_won[2] == 0) << 1)


cdef inline u64 g_unmergeable(const KjState* s, const KjOpts* o) noexcept nogil:
    """With roem, the cards that can still make one (runs, four of a kind, stuk: roem_chances)."""
    cdef u64 live
    cdef int roem
    if not o.roem or s.trump < 0:
        return <u64>0xFFFFFFFF if o.roem else 0
    roem_chances(s, &live, &roem, o.stuk_declared)
    return live

cdef inline u64 g_odd_cards(const KjState* s, const KjOpts* o) noexcept nogil:
    return 0


cdef inline int g_counted(const KjState* s, int side) noexcept nogil:
    """A seat scores with its team."""
    return team_closure(side)


cdef inline bint g_plays_out(const KjState* s) noexcept nogil:
    return True


# ---- explanations: why a well-formed action is not legal (reason id, text) ----
REASONS = {
    "COMPULSORY_TRUMP_CHOICE": "the trump choice is compulsory (Utrecht, or trump_choice compulsory): eldest must name a suit",
    "ALL_PASSED_MUST_NAME": "all four players passed: eldest must now name a trump suit",
    "TRUMP_ALREADY_NAMED": "trumps have already been named",
    "MUST_FOLLOW_SUIT": "a player must follow the suit led (a trump to a trump lead)",
    "MUST_OVERTRUMP": "a trump played must beat the highest trump in the trick when the hand can",
    "MUST_TRUMP": "void in the suit led, a player must trump (Amsterdam: when an opponent wins; Rotterdam: always)",
    "MUST_UNDERTRUMP": "Rotterdam: void in the suit led and unable to overtrump, a player must still trump",
    "NO_UNDERTRUMP_PARTNER": "Amsterdam: no trump lower than the partner's winning trump while the hand holds other cards",
    "NO_UNDERTRUMP": "Amsterdam: discard rather than undertrump an opponent's winning trump",
    "NOT_ALLOWED_NOW": "the card may not be played now",
    "NO_AUCTION": "bids of points belong to the Drents auction (option bidding \"drents\") only",
    "AUCTION_FIRST": "with the Drents auction, trumps are named by the auction's winner after the bidding",
    "BID_NOT_HIGHER": "a Drents bid must be higher than the highest bid so far",
    "AUCTION_OVER": "the Drents auction is over",
    "WINNER_MUST_NAME": "the winner of the Drents auction must name a trump suit",
    "NO_STUK": "stuk may be said only with the second of the trump King and Queen, by the player who held both (option stuk \"declared\")",
    "STUK_CARD": "after saying stuk the player must play the other of the trump King and Queen",
    "NO_ROEM_TO_CLAIM": "roem is claimed (option roem_claim) only by the winner of a trick holding roem, right after it",
}


def explain(Core core, i64 code):
    cdef KjState* s = &core.s
    cdef int call = <int>(code - CALL_BASE), c
    if code < CALL_BASE:
        if s.phase != P_PLAY:
            return "NOT_ALLOWED_NOW", "no card may be played now"
        if s.stuk_pending:
            return "STUK_CARD", f"you said stuk: you must play {PIQUET.code(stuk_card(s))} with it"
        return _explain_play(core, <int>code)
    if call == ANNOUNCE_ROEM or call == ANNOUNCE_PASS:
        if not core.o.roem_claim:
            return "NO_ROEM_TO_CLAIM", "roem counts by itself here (option roem_claim is off): nothing to claim"
        return "NO_ROEM_TO_CLAIM", "there is no roem to claim now: only right after a trick holding roem, by its winner"
    if call == ANNOUNCE_STUK:
        c = stuk_card(s)
        if not core.o.stuk_declared:
            why = "stuk is counted by itself here (option stuk \"same_trick\"): nobody says it"
        elif s.phase != P_PLAY:
            why = "stuk is said in the card play"
        elif s.stuk_pending:
            why = "you have said stuk already: play the card"
        elif s.to_act != s.stuk_holder or c < 0:
            why = ("you did not play one of the trump King and Queen while holding both, so you "
                   "have no stuk to say")
        else:
            why = f"stuk goes with {PIQUET.code(c)}, which you may not play now"
        return "NO_STUK", why
    if BID_POINTS_80 <= call <= BID_PIT:
        if not core.o.drents:
            return "NO_AUCTION", "there is no auction of points: the option bidding is \"none\" (trumps are named)"
        if s.phase != P_POINT_AUCTION:
            return "AUCTION_OVER", "the auction is over"
        top = "pit" if s.bid == BID_PIT else str(bid_value(s.bid))
        return "BID_NOT_HIGHER", f"a bid must be higher than the highest bid so far ({top} by seat {s.high})"
    if s.phase == P_POINT_AUCTION:
        return "AUCTION_FIRST", "the auction of points comes first: bid or pass; its winner names trumps"
    if s.phase == P_BIDDING and core.o.drents and code == CALL_BASE + BID_PASS:
        if s.all_passed:
            return "ALL_PASSED_MUST_NAME", (f"all four players passed: seat {s.to_act} plays 80 and must "
                                            f"name a trump suit")
        return "WINNER_MUST_NAME", f"seat {s.to_act} won the auction and must name a trump suit"
    if s.phase == P_BIDDING and s.forced and code == CALL_BASE + BID_PASS:
        if core.o.compulsory:
            rule = "Utrecht rules" if core.o.ruleset == W_UTRECHT else "trump_choice compulsory"
            return "COMPULSORY_TRUMP_CHOICE", (f"the trump choice is compulsory ({rule}): seat {s.to_act} "
                                               f"must name a trump suit and may not pass")
        return "ALL_PASSED_MUST_NAME", f"all four players passed: seat {s.to_act} must now name a trump suit"
    return "TRUMP_ALREADY_NAMED", "trumps have already been named"


cdef str _names_of(Core core, u64 mask):
    return ", ".join(PIQUET.code(i) for i in core.sort_cards(mask))


cdef object _explain_play(Core core, int c):
    """The rule of 4.2 that the card breaks, with the cards that satisfy it."""
    cdef KjState* s = &core.s
    cdef const Order* od
    cdef int me = s.to_act, led, top, i, winner
    cdef u64 hand = s.hand[me], legal = g_legal_cards(s, &core.o), trumps, higher
    if s.n_in_trick == 0:
        return "NOT_ALLOWED_NOW", f"{PIQUET.code(c)} may not be led now"   # never: any card may be led
    od = &ORDERS[s.trump]
    led = od.eff_suit[s.trick[s.trick_no][0]]
    trumps = hand & od.suit_mask[TRUMP]
    top = top_trump_power(s)
    higher = trumps & ABOVE[s.trump][top]
    top_card = ""
    for i in range(s.n_in_trick):
        if od.eff_suit[s.trick[s.trick_no][i]] == TRUMP and od.power[s.trick[s.trick_no][i]] == top:
            top_card = PIQUET.code(s.trick[s.trick_no][i])
    winner = current_winner(s)
    who = "your partner's" if winner == (me + 2) % 4 else "the"
    if led == TRUMP:
        if higher:
            return "MUST_OVERTRUMP", (f"trumps were led: you must beat {who} {top_card} if you can "
                                      f"(must overtrump: you hold {_names_of(core, higher)})")
        return "MUST_FOLLOW_SUIT", f"trumps were led: you must play a trump (you hold {_names_of(core, trumps)})"
    if hand & od.suit_mask[led]:
        return "MUST_FOLLOW_SUIT", (f"you must follow {SUIT_NAMES[SUITS[led]]}: you hold "
                                    f"{_names_of(core, hand & od.suit_mask[led])}")
    void = f"you cannot follow {SUIT_NAMES[SUITS[led]]}"
    if core.o.rotterdam:
        partner_wins = " even though your partner is winning" if winner == (me + 2) % 4 else ""
        if top and higher:
            return "MUST_OVERTRUMP", (f"{void}: Rotterdam rules, you must trump and beat {top_card}{partner_wins}: "
                                      f"must overtrump: you hold {_names_of(core, higher)}")
        if top:
            return "MUST_UNDERTRUMP", (f"{void}: Rotterdam rules, you must trump, and undertrump when you cannot "
                                       f"beat {top_card}: you hold {_names_of(core, trumps)}")
        return "MUST_TRUMP", f"{void}: Rotterdam rules, you must trump{partner_wins}: you hold {_names_of(core, trumps)}"
    if winner == (me + 2) % 4:
        return "NO_UNDERTRUMP_PARTNER", (f"{void}: you may not undertrump your partner's {top_card} while you hold "
                                         f"other cards (legal: {_names_of(core, legal)})")
    if top == 0:
        return "MUST_TRUMP", (f"{void} and an opponent is winning the trick: you must trump "
                              f"(you hold {_names_of(core, trumps)})")
    if higher:
        return "MUST_OVERTRUMP", (f"{void} and an opponent is winning with {top_card}: "
                                  f"must overtrump: you hold {_names_of(core, higher)}")
    return "NO_UNDERTRUMP", (f"{void}: you may not undertrump {top_card} while you hold cards of another suit; "
                             f"discard one of {_names_of(core, legal)}")


# ---- what a seat may see ----
cdef list _roem_items(const KjState* s):
    """The roem breakdown entries of the completed tricks (the items g_result writes)."""
    cdef Result res
    cdef int i
    start_result(&res)
    add_roem_items(s, &res)
    items = _NAMES.items
    return [{"item": items[res.items[i].name], "team": res.items[i].team, "trick": res.items[i].trick,
             "value": res.items[i].value} for i in range(res.n_items)]


def win_at(Core core, int seat):
    """The margin (the seat's team's total less the other team's, as the solver counts it)
    from which the seat's team wins the deal as the position stands (GameSpec.win_at): the
    makers need more than the defenders (margin 1); under the Drents auction (rules 12.2) also
    their bid, total >= bid, which is a margin of 2 x bid - 162 - the roem so far (roem still
    to come is not known; counted 0, so the threshold is never too low), and with the pit every
    trick (162 + roem + the pit bonus). The defenders win wherever the makers do not:
    1 - the makers' threshold. None before the trumps are named (no makers yet)."""
    cdef const KjState* s = &core.s
    cdef int i, roem = 0, at = 1
    if s.maker < 0:
        return None
    if core.o.drents and s.bid:
        for i in range(s.trick_no):
            roem += s.trick_roem[i]
        if s.stuk_seat >= 0:
            roem += ROEM_VALUE[4]
        if s.bid == BID_PIT:
            at = 162 + roem + <int>core.o.pit_bonus
        else:
            at = max(1, 2 * bid_value(s.bid) - 162 - roem)
    return at if team_of(s, seat) == PLAYING else 1 - at


def public(Core core, seat):
    """Public to every seat and to spectators alike: the contract, the teams, the passes, the
    trick in progress, completed tricks and the roem they scored (every card played is seen
    face up by everyone; the hands are the only hidden cards)."""
    cdef KjState* s = &core.s
    cdef Result res
    cdef int k, p
    contract = None
    teams = None
    if s.maker >= 0:
        start_result(&res)
        fill_contract(s, &core.o, &res, -1)
        contract = render_contract(&res, _NAMES)
        p = s.maker % 2
        teams = [[p, p + 2], [1 - p, 3 - p]]
    out = {
        "contract": contract,
        "teams": teams,
        "passes": s.n_passes,
        "trick": {"leader": s.leader, "cards": [PIQUET.code(s.trick[s.trick_no][k]) for k in range(s.n_in_trick)]}
                 if s.phase == P_PLAY else None,
        "tricks": [[s.trick_leader[t], [PIQUET.code(s.trick[t][k]) for k in range(4)], s.trick_winner[t]]
                   for t in range(s.trick_no)],
        "tricks_won": [s.n_won[k] for k in range(4)],
        "roem": _roem_items(s) if s.maker >= 0 else [],
    }
    if core.o.drents:       # the Drents auction: each seat's last call (None: not spoken yet)
        out["bids"] = [CALL_TABLE[s.last_call[k] - 1][1] if s.last_call[k] else None for k in range(4)]
    return out


def hidden(Core core, seat):
    """The face-down piles `seat` cannot see: none (every card is dealt to a hand and played
    face up)."""
    return []


def redact(Core core, int index, action, seat):
    """Every Klaverjas action is public: bids are spoken and cards are played face up."""
    return action


def redact_result(Core core, result, seat):
    """A Klaverjas result holds only cards played face up (the tricks): nothing to hide."""
    return result


# ---- single-trick helpers (analysis, teaching, tests): the hooks' tables and rules ----
cdef int _suit_of(trump) except -1:
    if trump not in ("C", "S", "H", "D"):
        raise ValueError(f"bad trump suit {trump!r}: one of C, S, H, D")
    return SUITS.index(trump)


def trick_roem(cards, trump):
    """The roem items of one complete trick (4 card codes) with `trump` (a suit letter), as
    [(item, value), ...] in breakdown order: e.g. KH QH JH 7C with hearts ->
    [("roem_run3", 20), ("roem_stuk", 20)]."""
    cdef int8_t c[4]
    cdef int items, i, t
    if len(cards) != 4 or len(set(cards)) != 4:
        raise ValueError(f"a trick is 4 different cards, got {list(cards)!r}")
    t = _suit_of(trump)
    for i in range(4):
        c[i] = PIQUET.face_index(cards[i])
    kj_trick_roem(c, t, &items)
    return [(_NAMES.items[I_ROEM_RUN3 + i], ROEM_VALUE[i]) for i in range(N_ROEM_ITEMS) if items >> i & 1]


def card_value(card, trump):
    """Card points of one card with `trump`: e.g. JH is 20 with hearts trumps, 2 otherwise."""
    return POINTS[_suit_of(trump)][PIQUET.face_index(card)]


def trick_winner(cards, trump, int leader=0):
    """The seat winning a (partial) trick led by `leader`: highest trump, else highest card
    of the suit led (rules 4.1)."""
    cdef int8_t c[4]
    cdef int i, t, n = len(cards)
    if not 1 <= n <= 4 or len(set(cards)) != n:
        raise ValueError(f"a trick is 1 to 4 different cards, got {list(cards)!r}")
    t = _suit_of(trump)
    for i in range(n):
        c[i] = PIQUET.face_index(cards[i])
    return (leader + trick_winner_pos(&ORDERS[t], c, n)) % 4


def position(hand, trick, trump, ruleset="amsterdam", int leader=0):
    """A Core holding one seat's position inside a trick, for the questions of rules 4.2
    (legal_codes, legal_mask, explain): `hand` of the seat to act, the `trick` cards so far
    in play order (led by `leader`), `trump` a suit letter. Other seats' cards are unknown
    and not needed: legality depends on the hand and the trick only. An analysis object, not
    a deal: the other seats hold stand-ins (the lowest cards not in hand or trick, as many as
    they would hold) so that playing on stays within the rules, and the earlier tricks are
    blank."""
    cdef Core core = Core.__new__(Core)
    cdef KjState* s = &core.s
    cdef int i, k, t, seat
    cdef u64 spare
    if ruleset not in RULESETS:
        raise ValueError(f"bad ruleset {ruleset!r}: one of {', '.join(RULESETS)}")
    t = _suit_of(trump)
    if not 0 <= len(trick) <= 3 or not 0 <= leader < 4:
        raise ValueError("a trick in progress holds 0 to 3 cards; leader is a seat 0..3")
    hand_mask = PIQUET.mask_of(hand)
    trick_mask = PIQUET.mask_of(trick)
    if len(set(hand)) != len(hand) or len(set(trick)) != len(trick) or hand_mask & trick_mask:
        raise ValueError("a card may appear only once in hand and trick together")
    if not 1 <= len(hand) <= 8:
        raise ValueError(f"a hand holds 1 to 8 cards, got {len(hand)}")
    memset(s, 0, sizeof(KjState))
    memset(&core.o, 0, sizeof(KjOpts))
    core.o.rotterdam = ruleset == "rotterdam"
    core.o.compulsory = ruleset == "utrecht"
    core.o.roem = True
    core.o.pit_bonus = 100
    core.o.ruleset = W_AMSTERDAM + RULESETS.index(ruleset)
    core.n_hist = 0
    s.phase = P_PLAY
    s.trump = t
    s.leader = leader
    s.maker = leader
    s.forced = core.o.compulsory
    s.dealer = (leader + 3) % 4
    s.trick_no = 8 - len(hand)            # a hand of n cards plays to trick 8 - n
    s.n_in_trick = len(trick)
    for i in range(len(trick)):
        s.trick[s.trick_no][i] = PIQUET.face_index(trick[i])
    s.to_act = (leader + len(trick)) % 4
    s.hand[s.to_act] = hand_mask
    spare = PIQUET.full_mask & ~(hand_mask | trick_mask)
    for i in range(4):
        seat = (leader + i) % 4
        if seat != s.to_act:
            for k in range(len(hand) - (1 if i < len(trick) else 0)):
                s.hand[seat] |= bit(lowest(spare))
                spare &= spare - 1
    return core


def legal_cards(hand, trick, trump, ruleset="amsterdam", int leader=0):
    """The rules file's legal(hand, trick) (4.2) as card codes, trumps first."""
    core = position(hand, trick, trump, ruleset, leader)
    return [PIQUET.code(i) for i in core.sort_cards(core.legal_mask())]


cdef inline void g_sides(const KjState* s, int seat, int* partners, int* opponents) noexcept nogil:
    """(partners, opponents) seat masks: the fixed partnerships, opposite seats together."""
    partners[0] = (1 << seat) | (1 << ((seat + 2) % 4))
    opponents[0] = 15 & ~partners[0]

include "../../_engine.pxi"
