from libc.string cimport memset
from engine_core._bits cimport append_bits, u64, i64, int8_t, popcount, lowest, bit, nth_bit
from engine_core._rng cimport Rng, rng_below
from engine_core._order cimport (Order, TRUMP, card_strength, mask_points, order_init,
                                 order_add_trumps, order_add_plain)
from engine_core._game cimport (idle_seat, trick_size, next_seat, seat_in_trick, CALL_BASE, EXCHANGE_BASE, A_BID, A_EXCHANGE, A_ANNOUNCE, A_PLAY,
                                Score, Result, DealPlan, add_item, contract_field, exchange_code, exchange_call, exchange_mask,
                                IF_TEAM, IF_COUNT, IF_VALUE, V_INT, V_OPT_INT, V_BOOL, V_OPT_BOOL, V_CARD, V_LIST)
from engine_core._result cimport Names, render_contract
from engine_core._names import names, calls
from engine_core.cards import HIDDEN, SUITS, SUIT_NAMES


# ---- names, declared once (Python names are derived from these enums) ----
cpdef enum Contract:
    K_NONE
    K_ACE
    K_TEN
    K_UNKNOWN_ACE
    K_JACK_OF_DIAMONDS
    K_ALONE
    K_LEASTER
    K_DOUBLER
    K_SCHWANZER     # no_pick: schwanzer, the most Schwanzer points loses (appended: codes unchanged)

cpdef enum Phase:
    P_PICK
    P_BURY
    P_CALL
    P_UNKNOWN
    P_CRACK
    P_RECRACK
    P_PLAY
    P_OVER
    P_BLITZ         # after the call, before the crack round (appended: earlier codes unchanged)

# a call's code is CALL_BASE + value; the suit calls run C S H (fail suits)
cpdef enum Call:
    BID_PICK
    BID_PASS
    BID_ACE_C
    BID_ACE_S
    BID_ACE_H
    BID_TEN_C
    BID_TEN_S
    BID_TEN_H
    BID_UNKNOWN_ACE_C
    BID_UNKNOWN_ACE_S
    BID_UNKNOWN_ACE_H
    BID_JACK_OF_DIAMONDS
    BID_ALONE
    ANNOUNCE_CRACK
    ANNOUNCE_PASS
    ANNOUNCE_RECRACK
    ANNOUNCE_BLITZ
    BID_CALL_UP         # call_up: the next highest jack the picker lacks (appended: codes unchanged)
    ANNOUNCE_RED_BLITZ  # red_blitz: both red queens shown (appended: codes unchanged)

cpdef enum Exchange:
    X_BURY
    X_UNKNOWN

cpdef enum Item:
    I_PICKER_TEAM_POINTS
    I_DEFENDER_POINTS
    I_PICKER_TEAM_WINS
    I_PICKER_TEAM_LOSES
    I_GAME
    I_SCHNEIDER
    I_NO_TRICK
    I_DOUBLE_ON_THE_BUMP
    I_CRACK
    I_RECRACK
    I_MULTIPLIER
    I_PER_DEFENDER
    I_PARTNER_EXEMPT
    I_PICKER_SHARE
    I_PARTNER_SHARE
    I_BLIND_SET_ASIDE
    I_BLIND_TO_LAST_TRICK
    I_LEASTER_WINNER
    I_LEASTER_TIE
    I_DOUBLER
    I_DOUBLER_CAP
    I_BLITZ
    I_SCHWANZER_POINTS  # schwanzer: one per seat (team = the seat), value its Schwanzer points
    I_SCHWANZER_TIE     # schwanzer: the most points were tied (value), count the seats tied
    I_SCHWANZER         # schwanzer: value the losing seat
    I_RED_BLITZ         # red_blitz: both red queens shown, value 2

# the keys of the game's own contract fields
cpdef enum Word:
    W_PICKER
    W_PARTNER
    W_CALLED_CARD
    W_UNKNOWN_CARD
    W_BURIED
    W_FORCED_ALONE
    W_MULTIPLIER
    W_CRACKED_BY
    W_RECRACKED
    W_NEXT_MULTIPLIER

CONTRACTS = names(Contract, "K_")
PHASE_NAMES = names(Phase, "P_")
CALL_TABLE = calls(Call)
EXCHANGES = names(Exchange, "X_")
cdef Names _NAMES = Names(CONTRACTS, names(Item, "I_"), names(Word, "W_"), DECK.faces, G_SEATS)
NAMES = _NAMES

# ---- the C state (the sizes G_*, SS_LEGAL and MULTIPLIER_CAP are the including module's) ----
MAX_MULTIPLIER = MULTIPLIER_CAP

cdef struct SsOpts:
    DealPlan deal
    int8_t partner_mode        # PM_*
    int8_t no_pick             # NP_*
    bint blind_last_trick, bump, exempt, unknown_broad, dealer_leads, cracking, blitz, own_ace, call_up, spitz
    bint red_blitz
    i64 multiplier

cdef struct SsState:
    u64 hand[G_SEATS]               # the picker's hand includes the unknown card while he holds it
    u64 won[G_SEATS]                # cards of the tricks each seat won
    u64 blind, buried
    int8_t n_won[G_SEATS]
    int8_t dealer, to_act, phase, n_spoken
    int8_t idle                     # the seat sitting out (option dealer_sits_out: the dealer), -1 none
    int8_t picker, partner, contract, called, called_suit, called_led, unknown
    int8_t forced_alone, cracked_by, recracked, blitzed_by, own_ace, spitz
    int8_t red_blitzed_by           # red_blitz: the seat that showed QH QD, -1 if none
    int8_t trick_no, n_in_trick, leader
    int8_t trick[G_HAND][G_SEATS]
    int8_t trick_leader[G_HAND]
    int8_t trick_winner[G_HAND]

ctypedef SsState GState
ctypedef SsOpts GOpts

cdef enum:
    PM_CALLED_ACE = 0
    PM_JD = 1
    PM_NONE = 2
    NP_LEASTER = 0
    NP_DOUBLER = 1
    NP_FORCED = 2
    NP_SCHWANZER = 3

# ---- cards: the deck's faces (DECK, the including module's) are rank + suit, ranks A T K Q J 9 8 7,
# suits C S H D; `card(rank, suit)` is a face's index in DECK (the 32-card deck: rank + 8 * suit;
# the 30-card deck without the black sevens: its own order), -1 for a card the deck lacks ----
cdef enum:
    ACE = 0
    TEN = 1
    KING = 2
    QUEEN = 3
    JACK = 4
    NINE = 5
    EIGHT = 6
    SEVEN = 7
    DIAMONDS = 3

cdef int8_t CARD_AT[32]    # rank + 8 * suit -> the card's index in DECK, -1 if the deck lacks it
cdef int JD_CARD, QC_CARD, QS_CARD    # JD; the black queens, shown in a blitz
cdef int QH_CARD, QD_CARD             # the red queens, shown in a red blitz (option red_blitz)
cdef int ALL_SEATS = (1 << G_SEATS) - 1
cdef int8_t POINTS[G_DECK]
cdef int8_t SCHWANZER_POINTS[G_DECK]   # schwanzer: each queen 3, each jack 2, each other diamond 1
cdef Order ORDER
cdef Order ORDER_SPITZ     # option spitz: 7D second-highest trump, below QC (rules doc 1)
cdef u64 FAIL = 0          # every fail card (A T K 9 8 7 of C, S, H)
cdef u64 FAIL_ACES = 0     # AC AS AH
cdef int8_t SORTED[G_DECK]     # the cards trumps first (QC .. 7D), then C S H, each highest first
cdef int8_t SORTED_SPITZ[G_DECK]   # the same with spitz: QC 7D QS .. 8D, then C S H


cdef inline int card(int rank, int suit) noexcept nogil:
    return CARD_AT[rank + 8 * suit]


cdef void _build_tables():
    global FAIL, FAIL_ACES, JD_CARD, QC_CARD, QS_CARD, QH_CARD, QD_CARD
    cdef int8_t trumps[14]
    cdef int8_t plain[6]
    cdef int s, i, k, n = 0
    assert len(DECK.faces) == G_DECK and DECK.copies == 1
    for i in range(32):
        CARD_AT[i] = -1
    for i, face in enumerate(DECK.faces):
        k = "ATKQJ987".index(face[0]) + 8 * SUITS.index(face[1])
        CARD_AT[k] = i
        POINTS[i] = (11, 10, 4, 3, 2, 0, 0, 0)[k % 8]
        SCHWANZER_POINTS[i] = 3 if k % 8 == QUEEN else 2 if k % 8 == JACK else 1 if k // 8 == DIAMONDS else 0
    JD_CARD = card(JACK, DIAMONDS)
    QC_CARD = card(QUEEN, 0)
    QS_CARD = card(QUEEN, 1)
    QH_CARD = card(QUEEN, 2)
    QD_CARD = card(QUEEN, DIAMONDS)
    order_init(&ORDER)
    for s in range(4):
        trumps[n] = card(QUEEN, s); n += 1
    for s in range(4):
        trumps[n] = card(JACK, s); n += 1
    for r in (ACE, TEN, KING, NINE, EIGHT, SEVEN):
        trumps[n] = card(r, DIAMONDS); n += 1
    order_add_trumps(&ORDER, trumps, n)
    for i in range(n):
        SORTED[i] = trumps[i]
    # spitz: the same trumps with 7D (the last) moved up below QC
    SORTED_SPITZ[0] = trumps[0]
    SORTED_SPITZ[1] = trumps[n - 1]
    for i in range(1, n - 1):
        SORTED_SPITZ[i + 1] = trumps[i]
    order_init(&ORDER_SPITZ)
    order_add_trumps(&ORDER_SPITZ, SORTED_SPITZ, n)
    for s in range(3):
        k = 0
        for r in (ACE, TEN, KING, NINE, EIGHT, SEVEN):
            if card(r, s) >= 0:            # the 30-card deck lacks 7C and 7S
                plain[k] = card(r, s)
                SORTED[n] = plain[k]; SORTED_SPITZ[n] = plain[k]; n += 1; k += 1
        order_add_plain(&ORDER, s, plain, k)
        order_add_plain(&ORDER_SPITZ, s, plain, k)
        FAIL |= ORDER.suit_mask[s]
        FAIL_ACES |= bit(card(ACE, s))
    assert n == G_DECK

_build_tables()


cdef int g_opts(options, SsOpts* o) except -1:
    """The C options of resolved Options (ranges are checked by the option table). A seat
    variant that does not declare an option plays its fixed value (the three-handed game: no
    partner, so `partner` "none" and the partner options off)."""
    o.partner_mode = ("called_ace", "jack_of_diamonds", "none").index(getattr(options, "partner", "none"))
    o.no_pick = ("leaster", "doubler", "forced_pick", "schwanzer").index(options.no_pick)
    o.blind_last_trick = options.leaster_blind == "last_trick"
    o.bump = options.double_on_the_bump
    o.exempt = getattr(options, "no_trick_partner_exempt", False)
    o.unknown_broad = getattr(options, "unknown_broad", False)
    o.dealer_leads = options.first_leader == "dealer"
    o.cracking = options.cracking
    o.blitz = options.blitz
    o.red_blitz = options.blitz and getattr(options, "red_blitz", False)
    o.own_ace = getattr(options, "call_own_ace", False)
    o.call_up = getattr(options, "call_up", False)
    o.spitz = options.spitz
    o.multiplier = options.multiplier
    # dealer_sits_out (six seats, docs/rules/sheepshead.md 13, the dealer sitting out): the dealer is dealt nothing and
    # the five others play the five-handed game; the 30 cards go round the seats that play
    sits_out = getattr(options, "dealer_sits_out", False)
    o.deal.idle = G_SEATS - 1 if sits_out else -1
    o.deal.hand = (G_DECK - G_BLIND) // (G_SEATS - (1 if sits_out else 0))
    return 0


# ---- the rules' helpers ----
cdef inline int players(const SsOpts* o) noexcept nogil:
    """The seats that play this deal (all, or all but the dealer who sits out)."""
    return trick_size(&o.deal, G_SEATS)


cdef inline int left_of(const SsState* s, const SsOpts* o, int seat) noexcept nogil:
    """The next seat to the left that plays this deal (a dealer who sits out is passed over)."""
    return next_seat(&o.deal, s.dealer, G_SEATS, seat)


cdef inline int last_to_speak(const SsState* s) noexcept nogil:
    """Who closes a round of calls (the pick, the blitz and the crack rounds): the dealer, or
    the seat on his right when he sits out."""
    if s.idle < 0:
        return s.dealer
    return s.dealer - 1 if s.dealer > 0 else G_SEATS - 1


cdef inline int playing_seats(const SsState* s) noexcept nogil:
    """The seat mask of the seats that play this deal."""
    return ALL_SEATS & ~(1 << s.idle) if s.idle >= 0 else ALL_SEATS


cdef inline const int8_t* sorted_cards(const SsState* s) noexcept nogil:
    """The display order of the cards (trumps first) in force."""
    return &SORTED_SPITZ[0] if s.spitz else &SORTED[0]


cdef inline int eff(const SsState* s, int c) noexcept nogil:
    """Effective suit: the unknown card belongs to the called suit (rules 4.2)."""
    if c == s.unknown:
        return s.called_suit
    return ORDER.eff_suit[c]


cdef inline u64 suit_cards(const SsState* s, u64 hand, int suit) noexcept nogil:
    """The cards of `hand` whose effective suit is `suit`."""
    cdef u64 m = hand & ORDER.suit_mask[suit]
    cdef u64 u
    if s.unknown >= 0:
        u = bit(s.unknown)
        if hand & u:
            m &= ~u
            if suit == s.called_suit:
                m |= u
    return m


cdef inline bint holds_unknown(const SsState* s, int seat) noexcept nogil:
    return s.unknown >= 0 and seat == s.picker and (s.hand[seat] & bit(s.unknown)) != 0


cdef inline int up_jack(u64 p8) noexcept nogil:
    """call_up: the next highest jack above JD not among the picker's 8 cards `p8` (hand and
    bury): JH, then JS, then JC; -1 when he holds all four (docs/rules/sheepshead.md 3.10)."""
    cdef int x
    for x in range(2, -1, -1):             # suits C S H: JH (x=2) is the lowest above JD
        if not (p8 & bit(card(JACK, x))):
            return card(JACK, x)
    return -1


cdef int call_mask(const SsState* s, const SsOpts* o) noexcept nogil:
    """The calls open to the picker after the bury, as bits of Call values (rules 2.3, 2.5)."""
    cdef u64 h = s.hand[s.picker]
    cdef u64 p8 = h | s.buried
    cdef int m = 0, x
    if o.partner_mode == PM_JD:
        if not (p8 & bit(JD_CARD)):
            m |= 1 << BID_JACK_OF_DIAMONDS
        elif o.call_up and up_jack(p8) >= 0:
            m |= 1 << BID_CALL_UP
        return m | (1 << BID_ALONE)
    if (p8 & FAIL_ACES) != FAIL_ACES:
        for x in range(3):
            if not (p8 & bit(card(ACE, x))) and (h & ORDER.suit_mask[x]):
                m |= 1 << (BID_ACE_C + x)
        if m == 0 and (o.unknown_broad or (h & FAIL & ~FAIL_ACES) == 0):
            for x in range(3):
                if not (p8 & bit(card(ACE, x))) and not (h & ORDER.suit_mask[x]):
                    m |= 1 << (BID_UNKNOWN_ACE_C + x)
    else:
        for x in range(3):
            if not (p8 & bit(card(TEN, x))) and (h & ORDER.suit_mask[x]):
                m |= 1 << (BID_TEN_C + x)
    if o.own_ace:                      # call_own_ace: his own ace, secretly alone (rules doc 3.9)
        for x in range(3):
            if h & bit(card(ACE, x)):
                m |= 1 << (BID_ACE_C + x)
    return m | (1 << BID_ALONE)


cdef inline bint must_pick(const SsState* s, const SsOpts* o) noexcept nogil:
    """forced_pick: the last to speak (the dealer, or the seat on his right when he sits out)
    may not pass when all the others have passed (rules 2.1)."""
    return o.no_pick == NP_FORCED and s.n_spoken == players(o) - 1


cdef inline int holder(const SsState* s, int c) noexcept nogil:
    cdef int i
    for i in range(G_SEATS):
        if s.hand[i] & bit(c):
            return i
    return -1


cdef inline u64 black_queens() noexcept nogil:
    return bit(QC_CARD) | bit(QS_CARD)


cdef inline u64 red_queens() noexcept nogil:
    return bit(QH_CARD) | bit(QD_CARD)


cdef inline bint may_show(const SsState* s, int seat, u64 pair) noexcept nogil:
    """A seat may show a pair of queens (`pair`: black_queens() for a blitz, red_queens() for
    a red blitz) when both are in its hand; the picker's unknown card is face down and cannot be
    shown (docs/rules/sheepshead.md 3.8)."""
    cdef u64 h = s.hand[seat]
    if s.unknown >= 0 and seat == s.picker:
        h &= ~bit(s.unknown)
    return (h & pair) == pair


cdef inline bint may_blitz(const SsState* s, int seat) noexcept nogil:
    """The black blitz is open to `seat`: nobody has made it and he holds QC QS."""
    return s.blitzed_by < 0 and may_show(s, seat, black_queens())


cdef inline bint may_red_blitz(const SsState* s, const SsOpts* o, int seat) noexcept nogil:
    """The red blitz is open to `seat` (option red_blitz): nobody has made it and he holds
    QH QD."""
    return o.red_blitz and s.red_blitzed_by < 0 and may_show(s, seat, red_queens())


cdef inline i64 effective_multiplier(const SsState* s, const SsOpts* o) noexcept nogil:
    """M: the `multiplier` option, x2 for a blitz, x2 for a red blitz, x2 if cracked, x2 if
    re-cracked (rules 5.2, 3.8)."""
    cdef i64 m = o.multiplier
    if s.blitzed_by >= 0:
        m *= 2
    if s.red_blitzed_by >= 0:
        m *= 2
    if s.cracked_by >= 0:
        m *= 2
    if s.recracked:
        m *= 2
    return m


cdef inline i64 next_multiplier(const SsState* s, const SsOpts* o) noexcept nogil:
    """The next deal's multiplier: 2 x multiplier after a doubler, stopping at the option's
    maximum MULTIPLIER_CAP; 1 after a played deal (rules 2.6)."""
    if s.contract != K_DOUBLER:
        return 1
    return 2 * o.multiplier if 2 * o.multiplier <= MULTIPLIER_CAP else MULTIPLIER_CAP


# ---- hooks ----
cdef void g_init(SsState* s, const SsOpts* o, const u64* hands, u64 blind, int dealer) noexcept nogil:
    cdef int i
    memset(s, 0, sizeof(SsState))
    for i in range(G_SEATS):
        s.hand[i] = hands[i]
    s.blind = blind
    s.dealer = dealer
    s.idle = idle_seat(&o.deal, dealer, G_SEATS)
    s.to_act = left_of(s, o, dealer)
    s.leader = s.to_act
    s.phase = P_PICK
    s.picker = -1
    s.partner = -1
    s.contract = K_NONE
    s.called = -1
    s.called_suit = -1
    s.called_led = -1
    s.unknown = -1
    s.cracked_by = -1
    s.blitzed_by = -1
    s.red_blitzed_by = -1
    s.spitz = o.spitz


cdef inline int g_kinds(const SsState* s) noexcept nogil:
    if s.phase == P_PICK or s.phase == P_CALL:
        return A_BID
    if s.phase == P_BURY or s.phase == P_UNKNOWN:
        return A_EXCHANGE
    if s.phase == P_CRACK or s.phase == P_RECRACK or s.phase == P_BLITZ:
        return A_ANNOUNCE
    if s.phase == P_PLAY:
        return A_PLAY
    return 0


cdef inline const Order* g_order(const SsState* s) noexcept nogil:
    return &ORDER_SPITZ if s.spitz else &ORDER


cdef inline u64 g_legal_cards(const SsState* s, const SsOpts* o) noexcept nogil:
    """Legal cards of the seat to act (rules 4.3, literally); 0 outside the play phase."""
    cdef int x = s.to_act, led
    cdef u64 hand, legal, follow, hold
    cdef bint restricted
    if s.phase != P_PLAY:
        return 0
    hand = s.hand[x]
    restricted = s.called_suit >= 0 and s.called_led < 0
    if popcount(hand) == 1:
        return hand                                   # last trick: no restriction
    if s.n_in_trick == 0:
        legal = hand
        if restricted and x == s.partner:             # D10: lead the called suit only with it
            legal &= ~(suit_cards(s, hand, s.called_suit) & ~bit(s.called))
        return legal
    led = eff(s, s.trick[s.trick_no][0])
    follow = suit_cards(s, hand, led)
    if follow:
        if led == s.called_suit and s.called_led == s.trick_no:   # first called-suit trick
            if x == s.partner and hand & bit(s.called):
                return bit(s.called)
            if holds_unknown(s, x):
                return bit(s.unknown)
        return follow
    legal = hand                                      # void: any card, no duty to trump
    if restricted:
        if x == s.partner:
            legal &= ~bit(s.called)
        if x == s.picker:
            if holds_unknown(s, x):
                legal &= ~bit(s.unknown)
            else:
                hold = hand & ORDER.suit_mask[s.called_suit]
                if popcount(hold) == 1:
                    legal &= ~hold
    return legal


cdef int bury_sets(u64 h, i64* out, int n) noexcept nogil:
    """The bury codes: every set of G_BLIND of the picker's cards `h` (the five-handed game's 28
    pairs of 8 cards, the cutthroat game's 330 fours of 11), each set's cards by index, the
    sets in lexicographic order (pairs: the lowest card's, then the other's)."""
    cdef int8_t cards[G_HAND + G_BLIND]
    cdef int idx[G_BLIND]
    cdef int m = 0, k, j
    cdef u64 mask
    while h and m < G_HAND + G_BLIND:
        cards[m] = lowest(h)
        m += 1
        h &= h - 1
    if m < G_BLIND:
        return n
    for k in range(G_BLIND):
        idx[k] = k
    while True:
        mask = 0
        for k in range(G_BLIND):
            mask |= bit(cards[idx[k]])
        out[n] = exchange_code(X_BURY, mask)
        n += 1
        k = G_BLIND - 1
        while k >= 0 and idx[k] == m - G_BLIND + k:
            k -= 1
        if k < 0:
            return n
        idx[k] += 1
        for j in range(k + 1, G_BLIND):
            idx[j] = idx[j - 1] + 1


cdef int g_legal(const SsState* s, const SsOpts* o, i64* out) noexcept nogil:
    """Every legal action code of the seat to act (bury: every set of G_BLIND of his cards)."""
    cdef int n = 0, call, m
    cdef u64 h
    if s.phase == P_PLAY:
        n = append_bits(g_legal_cards(s, o), out, n)
    elif s.phase == P_PICK:
        out[0] = CALL_BASE + BID_PICK
        n = 1
        if not must_pick(s, o):
            out[1] = CALL_BASE + BID_PASS
            n = 2
    elif s.phase == P_BURY:
        n = bury_sets(s.hand[s.picker], out, n)
    elif s.phase == P_CALL:
        m = call_mask(s, o)
        for call in range(BID_ACE_C, BID_ALONE):
            if m & (1 << call):
                out[n] = CALL_BASE + call
                n += 1
        if m & (1 << BID_CALL_UP):             # call_up before alone, as the other calls
            out[n] = CALL_BASE + BID_CALL_UP
            n += 1
        out[n] = CALL_BASE + BID_ALONE         # always open (call_mask)
        n += 1
    elif s.phase == P_UNKNOWN:
        h = s.hand[s.picker]
        while h:
            out[n] = exchange_code(X_UNKNOWN, h & (~h + 1))
            n += 1
            h &= h - 1
    elif s.phase == P_CRACK:
        out[0] = CALL_BASE + ANNOUNCE_PASS
        n = 1
        if s.to_act != s.partner:
            out[1] = CALL_BASE + ANNOUNCE_CRACK
            n = 2
    elif s.phase == P_RECRACK:
        out[0] = CALL_BASE + ANNOUNCE_PASS
        out[1] = CALL_BASE + ANNOUNCE_RECRACK
        n = 2
    elif s.phase == P_BLITZ:
        out[0] = CALL_BASE + ANNOUNCE_PASS
        n = 1
        if may_blitz(s, s.to_act):
            out[n] = CALL_BASE + ANNOUNCE_BLITZ
            n += 1
        if may_red_blitz(s, o, s.to_act):
            out[n] = CALL_BASE + ANNOUNCE_RED_BLITZ
            n += 1
    return n


cdef inline void start_play(SsState* s, const SsOpts* o) noexcept nogil:
    s.phase = P_PLAY
    s.to_act = s.dealer if o.dealer_leads and s.idle < 0 else left_of(s, o, s.dealer)
    s.leader = s.to_act


cdef inline void crack_round(SsState* s, const SsOpts* o) noexcept nogil:
    """The crack round (seats picker+1 .. the last to speak), if any, then play (rules 2.7)."""
    if o.cracking and s.picker != last_to_speak(s):
        s.phase = P_CRACK
        s.to_act = left_of(s, o, s.picker)
    else:
        start_play(s, o)


cdef inline void after_call(SsState* s, const SsOpts* o) noexcept nogil:
    """The blitz round (every seat that plays from eldest to the last to speak), if any, then
    the crack round (docs/rules/sheepshead.md 3.8, 3.7)."""
    if o.blitz:
        s.phase = P_BLITZ
        s.to_act = left_of(s, o, s.dealer)
    else:
        crack_round(s, o)


cdef inline int trick_winner(const SsState* s, const SsOpts* o, const int8_t* cards) noexcept nogil:
    """Highest trump, else highest card of the led suit; the unknown card never wins (4.4): the
    winning card's place in the trick."""
    cdef int led = eff(s, cards[0])
    cdef int best = -1, best_v = -1, i, v
    for i in range(players(o)):
        if cards[i] == s.unknown:
            continue
        v = card_strength(g_order(s), cards[i], led)
        if v > best_v:
            best_v = v
            best = i
    return best if best >= 0 else 0


cdef inline void play_card(SsState* s, const SsOpts* o, int c) noexcept nogil:
    cdef int seat = s.to_act, winner, k
    s.hand[seat] &= ~bit(c)
    if s.n_in_trick == 0:
        s.trick_leader[s.trick_no] = seat
        if s.called_suit >= 0 and s.called_led < 0 and eff(s, c) == s.called_suit:
            s.called_led = s.trick_no
    s.trick[s.trick_no][s.n_in_trick] = c
    s.n_in_trick += 1
    if s.n_in_trick < players(o):
        s.to_act = left_of(s, o, seat)
        return
    winner = seat_in_trick(&o.deal, s.dealer, G_SEATS, s.trick_leader[s.trick_no],
                           trick_winner(s, o, s.trick[s.trick_no]))
    s.trick_winner[s.trick_no] = winner
    for k in range(players(o)):
        s.won[winner] |= bit(s.trick[s.trick_no][k])
    s.n_won[winner] += 1
    s.trick_no += 1
    s.n_in_trick = 0
    s.leader = winner
    s.to_act = winner
    if s.trick_no == o.deal.hand:
        s.phase = P_OVER
        s.to_act = -1


cdef inline i64 g_interjection(const SsState* s, const SsOpts* o, int seat) noexcept nogil:
    """No action out of turn in this game: every action is the seat to act's (-1)."""
    return -1


cdef inline void g_interject(SsState* s, const SsOpts* o, int seat, i64 code) noexcept nogil:
    pass


cdef void g_apply(SsState* s, const SsOpts* o, i64 code) noexcept nogil:
    """Apply a legal action code (legality is the caller's check)."""
    cdef int seat = s.to_act, call, m
    cdef u64 cards
    if code < CALL_BASE:
        play_card(s, o, <int>code)
        return
    if code >= EXCHANGE_BASE:
        cards = exchange_mask(code)
        if exchange_call(code) == X_BURY:
            s.hand[seat] &= ~cards
            s.buried = cards
            if o.partner_mode == PM_NONE:
                s.contract = K_ALONE
                after_call(s, o)
            else:
                s.phase = P_CALL
        else:
            s.unknown = lowest(cards)
            after_call(s, o)
        return
    call = <int>(code - CALL_BASE)
    if s.phase == P_PICK:
        if call == BID_PICK:
            s.picker = seat
            s.hand[seat] |= s.blind
            s.phase = P_BURY
            return
        s.n_spoken += 1
        s.to_act = left_of(s, o, seat)
        if s.n_spoken == players(o):
            if o.no_pick == NP_DOUBLER or o.no_pick == NP_SCHWANZER:
                s.contract = K_DOUBLER if o.no_pick == NP_DOUBLER else K_SCHWANZER
                s.phase = P_OVER            # no card is played (a schwanzer scores the hands)
                s.to_act = -1
            else:
                s.contract = K_LEASTER
                start_play(s, o)
        return
    if s.phase == P_CALL:
        m = call_mask(s, o)
        if call == BID_ALONE:
            s.contract = K_ALONE
            s.forced_alone = m == (1 << BID_ALONE)
        elif call == BID_JACK_OF_DIAMONDS:
            s.contract = K_JACK_OF_DIAMONDS
            s.called = JD_CARD
            s.partner = holder(s, JD_CARD)
        elif call == BID_CALL_UP:              # the jack-of-diamonds game with a higher jack (3.10)
            s.contract = K_JACK_OF_DIAMONDS
            s.called = up_jack(s.hand[seat] | s.buried)
            s.partner = holder(s, s.called)
        else:
            if call < BID_TEN_C:
                s.contract = K_ACE
                s.called_suit = call - BID_ACE_C
                s.called = card(ACE, s.called_suit)
            elif call < BID_UNKNOWN_ACE_C:
                s.contract = K_TEN
                s.called_suit = call - BID_TEN_C
                s.called = card(TEN, s.called_suit)
            else:
                s.contract = K_UNKNOWN_ACE
                s.called_suit = call - BID_UNKNOWN_ACE_C
                s.called = card(ACE, s.called_suit)
            s.partner = holder(s, s.called)
            if s.partner == s.picker:          # his own ace: secretly alone (rules doc 3.9)
                s.partner = -1
                s.own_ace = True
        if s.contract == K_UNKNOWN_ACE:
            s.phase = P_UNKNOWN
        else:
            after_call(s, o)
        return
    if s.phase == P_BLITZ:
        # a blitz keeps the turn while the other colour's blitz is still open at the table
        # (option red_blitz, nobody has made it): the seat is asked again, whatever it holds
        if call == ANNOUNCE_BLITZ:
            s.blitzed_by = seat
            if o.red_blitz and s.red_blitzed_by < 0:
                return
        elif call == ANNOUNCE_RED_BLITZ:
            s.red_blitzed_by = seat
            if s.blitzed_by < 0:
                return
        if seat == last_to_speak(s):
            crack_round(s, o)
        else:
            s.to_act = left_of(s, o, seat)
        return
    if s.phase == P_CRACK:
        if call == ANNOUNCE_CRACK:
            s.cracked_by = seat
            s.phase = P_RECRACK
            s.to_act = s.picker
        elif seat == last_to_speak(s):
            start_play(s, o)
        else:
            s.to_act = left_of(s, o, seat)
        return
    if s.phase == P_RECRACK:
        s.recracked = call == ANNOUNCE_RECRACK
        start_play(s, o)


cdef inline i64 g_random(const SsState* s, const SsOpts* o, Rng* r, int bids) noexcept nogil:
    """A uniformly random legal action, drawn as `uniform_action` draws it (one draw below the
    number of legal actions, none when there is only one); a card straight from the mask."""
    cdef i64 buf[SS_LEGAL]
    cdef u64 m
    cdef int n
    if s.phase == P_PLAY:
        m = g_legal_cards(s, o)
        if m & (m - 1):
            return nth_bit(m, rng_below(r, popcount(m)))
        return lowest(m)
    n = g_legal(s, o, buf)
    return buf[rng_below(r, n)] if n > 1 else buf[0]


# ---- scoring ----
cdef struct SsTally:          # the intermediate figures of scoring that the breakdown shows
    i64 mult, unit
    int team_points, defender_points, team_tricks
    int level, bump, picker_share, partner_share
    int blind_points, leaster_winner, leaster_low
    int schwanzer, schwanzer_high, schwanzer_tied
    int schwanzer_points[G_SEATS]
    bint team_won, exempt


cdef void score_leaster(const SsState* s, const SsOpts* o, Score* sc, SsTally* t) noexcept nogil:
    """Fewest points among the seats with a trick wins M from each other seat that plays; a
    tie scores nothing (rules 5.5)."""
    cdef int i, low = 1000, n_low = 0, who = -1
    for i in range(G_SEATS):
        if s.n_won[i] > 0 and sc.card_points[i] < low:
            low = sc.card_points[i]
    for i in range(G_SEATS):
        if s.n_won[i] > 0 and sc.card_points[i] == low:
            n_low += 1
            who = i
    t.leaster_low = low
    if n_low != 1:
        return
    t.leaster_winner = who
    for i in range(G_SEATS):
        if i != s.idle:
            sc.scores[i] = (players(o) - 1) * t.mult if i == who else -t.mult


cdef int schwanzer_points(u64 hand) noexcept nogil:
    """A hand's Schwanzer points: each queen 3, each jack 2, each other diamond 1."""
    cdef int k, total = 0
    for k in range(G_DECK):
        if hand & bit(k):
            total += SCHWANZER_POINTS[k]
    return total


cdef void score_schwanzer(const SsState* s, const SsOpts* o, Score* sc, SsTally* t) noexcept nogil:
    """Each seat's dealt hand (not the blind) in Schwanzer points; the most points loses, a tie
    going against the tied seat with the highest trump (spitz in force); the loser pays M to each
    other seat (docs/rules/sheepshead.md 3.12)."""
    cdef const int8_t* order = &SORTED_SPITZ[0] if o.spitz else &SORTED[0]
    cdef int i, k, high = -1, tied = 0, who = -1, tied_mask = 0
    for i in range(G_SEATS):
        t.schwanzer_points[i] = schwanzer_points(s.hand[i])
        if i != s.idle and t.schwanzer_points[i] > high:
            high = t.schwanzer_points[i]
    for i in range(G_SEATS):
        if i != s.idle and t.schwanzer_points[i] == high:
            tied += 1
            tied_mask |= 1 << i
            who = i
    if tied > 1:                        # the highest trump among the tied hands (each holds one)
        who = -1
        k = 0
        while who < 0 and k < G_DECK:
            for i in range(G_SEATS):
                if tied_mask >> i & 1 and s.hand[i] & bit(order[k]):
                    who = i
            k += 1
    t.schwanzer = who
    t.schwanzer_high = high
    t.schwanzer_tied = tied
    for i in range(G_SEATS):
        if i != s.idle:
            sc.scores[i] = -(players(o) - 1) * t.mult if i == who else t.mult


cdef void tally(const SsState* s, const SsOpts* o, Score* sc, SsTally* t) noexcept nogil:
    """Card points, per-seat scores and the figures behind them (rules 5)."""
    cdef int i
    cdef i64 sign
    memset(t, 0, sizeof(SsTally))
    t.leaster_winner = -1
    t.leaster_low = -1
    t.schwanzer = -1
    t.mult = effective_multiplier(s, o)
    start_score(sc, s, s.contract, s.picker)
    if s.contract == K_DOUBLER:
        return
    if s.contract == K_SCHWANZER:
        score_schwanzer(s, o, sc, t)
        return
    for i in range(G_SEATS):
        sc.card_points[i] = mask_points(POINTS, s.won[i])
    t.blind_points = mask_points(POINTS, s.blind)
    if s.contract == K_LEASTER:
        if o.blind_last_trick:
            sc.card_points[s.trick_winner[o.deal.hand - 1]] += t.blind_points
        score_leaster(s, o, sc, t)
        return
    sc.card_points[s.picker] += mask_points(POINTS, s.buried)
    for i in range(G_SEATS):
        if i == s.picker or i == s.partner:
            sc.side |= 1 << i
            t.team_points += sc.card_points[i]
            t.team_tricks += s.n_won[i]
    t.defender_points = 120 - t.team_points
    t.team_won = t.team_points >= 61
    t.bump = 1
    if t.team_won:
        if t.team_tricks == o.deal.hand:
            t.level = 3
        elif t.defender_points <= 29:
            t.level = 2
        else:
            t.level = 1
    else:
        if t.team_tricks == 0:
            t.level = 3
        elif t.team_points <= 30:
            t.level = 2
        else:
            t.level = 1
        if o.bump:
            t.bump = 2
    t.unit = t.level * t.bump * t.mult
    # each defender pays or gets one unit; the partner's share is one unit, the picker's the
    # rest (five-handed 2 and 1, alone 4; docs/rules/sheepshead.md 13 for the other seat counts;
    # a dealer who sits out is no defender and scores 0)
    if s.partner >= 0:
        t.exempt = (not t.team_won) and t.level == 3 and o.exempt
        t.picker_share = players(o) - 2 if t.exempt else players(o) - 3
        t.partner_share = 0 if t.exempt else 1
    else:
        t.picker_share = players(o) - 1
    sc.side_won = t.team_won
    sc.side_points = t.team_points
    sign = 1 if t.team_won else -1
    for i in range(G_SEATS):
        if i == s.picker:
            sc.scores[i] = sign * t.picker_share * t.unit
        elif i == s.partner:
            sc.scores[i] = sign * t.partner_share * t.unit
        elif i != s.idle:
            sc.scores[i] = -sign * t.unit


cdef inline void g_score(const SsState* s, const SsOpts* o, Score* sc) noexcept nogil:
    cdef SsTally t
    tally(s, o, sc, &t)


cdef inline int g_stat_contract(const SsState* s, const Score* sc) noexcept nogil:
    return s.contract


cdef void fill_contract(const SsState* s, const SsOpts* o, Result* r, bint show_partner,
                        bint show_forced) noexcept nogil:
    """The contract object's fields (rules 5.7) with every card code: picker, partner (only if
    `show_partner`), called_card, unknown_card, buried (trumps first, as hands are sorted),
    forced_alone (only if `show_forced`), multiplier (M), cracked_by, recracked,
    next_multiplier. The face-down cards are hidden from other seats by `_hide_contract`."""
    cdef int k
    r.score.contract = s.contract
    r.score.declarer = s.picker
    contract_field(r, W_PICKER, V_OPT_INT, s.picker)
    contract_field(r, W_PARTNER, V_OPT_INT, s.partner if show_partner else -1)
    contract_field(r, W_CALLED_CARD, V_CARD, s.called)
    contract_field(r, W_UNKNOWN_CARD, V_CARD, s.unknown)
    contract_field(r, W_BURIED, V_LIST, popcount(s.buried))
    for k in range(G_DECK):
        if s.buried & bit(sorted_cards(s)[k]):
            contract_field(r, W_BURIED, V_CARD, sorted_cards(s)[k])
    contract_field(r, W_FORCED_ALONE, V_OPT_BOOL, s.forced_alone if show_forced else -1)
    contract_field(r, W_MULTIPLIER, V_INT, effective_multiplier(s, o))
    contract_field(r, W_CRACKED_BY, V_OPT_INT, s.cracked_by)
    contract_field(r, W_RECRACKED, V_BOOL, s.recracked)
    contract_field(r, W_NEXT_MULTIPLIER, V_INT, next_multiplier(s, o))


cdef void g_result(const SsState* s, const SsOpts* o, Result* r) noexcept nogil:
    """The Result: teams and breakdown items in the order of rules 5.4-5.6."""
    cdef SsTally t
    cdef int i, side
    start_result(r)
    tally(s, o, &r.score, &t)
    fill_tricks(s, r)
    r.trick_size = players(o)
    fill_contract(s, o, r, True, True)
    if s.contract == K_DOUBLER:
        add_item(r, I_DOUBLER, IF_VALUE, 0, 0, 0, next_multiplier(s, o), 0, 0)
        if 2 * o.multiplier > MULTIPLIER_CAP:
            add_item(r, I_DOUBLER_CAP, IF_VALUE, 0, 0, 0, MULTIPLIER_CAP, 0, 0)
        return
    if s.contract == K_SCHWANZER:      # each seat that plays a team of its own, as in a leaster
        r.n_teams = 0
        for i in range(G_SEATS):
            if i == s.idle:
                continue
            r.teams[r.n_teams] = 1 << i     # `team` is an index into the teams: the seat's
            add_item(r, I_SCHWANZER_POINTS, IF_TEAM | IF_VALUE, r.n_teams, 0, 0, t.schwanzer_points[i], 0, 0)
            r.n_teams += 1
        if t.schwanzer_tied > 1:
            add_item(r, I_SCHWANZER_TIE, IF_COUNT | IF_VALUE, 0, 0, t.schwanzer_tied, t.schwanzer_high, 0, 0)
        add_item(r, I_SCHWANZER, IF_VALUE, 0, 0, 0, t.schwanzer, 0, 0)
        if o.multiplier != 1:
            add_item(r, I_MULTIPLIER, IF_VALUE, 0, 0, 0, o.multiplier, 0, 0)
        return
    if s.contract == K_LEASTER:
        r.n_teams = 0
        for i in range(G_SEATS):
            if i != s.idle:
                r.teams[r.n_teams] = 1 << i
                r.n_teams += 1
        add_item(r, I_BLIND_TO_LAST_TRICK if o.blind_last_trick else I_BLIND_SET_ASIDE, IF_VALUE,
                 0, 0, 0, t.blind_points, 0, 0)
        if t.leaster_winner >= 0:
            add_item(r, I_LEASTER_WINNER, IF_VALUE, 0, 0, 0, t.leaster_winner, 0, 0)
        else:
            add_item(r, I_LEASTER_TIE, IF_VALUE, 0, 0, 0, t.leaster_low, 0, 0)
        if o.multiplier != 1:
            add_item(r, I_MULTIPLIER, IF_VALUE, 0, 0, 0, o.multiplier, 0, 0)
        return
    side = r.score.side
    r.n_teams = 2
    r.teams[0] = side
    r.teams[1] = playing_seats(s) & ~side
    add_item(r, I_PICKER_TEAM_POINTS, IF_VALUE, 0, 0, 0, t.team_points, 0, 0)
    add_item(r, I_DEFENDER_POINTS, IF_VALUE, 0, 0, 0, t.defender_points, 0, 0)
    add_item(r, I_PICKER_TEAM_WINS if t.team_won else I_PICKER_TEAM_LOSES, IF_VALUE, 0, 0, 0, 1, 0, 0)
    add_item(r, I_GAME + t.level - 1, IF_VALUE, 0, 0, 0, t.level, 0, 0)
    if t.bump != 1:
        add_item(r, I_DOUBLE_ON_THE_BUMP, IF_VALUE, 0, 0, 0, t.bump, 0, 0)
    if s.blitzed_by >= 0:
        add_item(r, I_BLITZ, IF_VALUE, 0, 0, 0, 2, 0, 0)
    if s.red_blitzed_by >= 0:
        add_item(r, I_RED_BLITZ, IF_VALUE, 0, 0, 0, 2, 0, 0)
    if s.cracked_by >= 0:
        add_item(r, I_CRACK, IF_VALUE, 0, 0, 0, 2, 0, 0)
    if s.recracked:
        add_item(r, I_RECRACK, IF_VALUE, 0, 0, 0, 2, 0, 0)
    if o.multiplier != 1:
        add_item(r, I_MULTIPLIER, IF_VALUE, 0, 0, 0, o.multiplier, 0, 0)
    add_item(r, I_PER_DEFENDER, IF_VALUE, 0, 0, 0, t.unit, 0, 0)
    if t.exempt:
        add_item(r, I_PARTNER_EXEMPT, IF_VALUE, 0, 0, 0, 0, 0, 0)
    add_item(r, I_PICKER_SHARE, IF_VALUE, 0, 0, 0, t.picker_share, 0, 0)
    if s.partner >= 0:
        add_item(r, I_PARTNER_SHARE, IF_VALUE, 0, 0, 0, t.partner_share, 0, 0)


# ---- solver hooks (_solver.pxi) ----
cdef inline int g_side(const SsState* s, const SsOpts* o) noexcept nogil:
    """The picker's team (picker and partner); in a leaster the seat to act alone."""
    if s.picker < 0:
        return 1 << (s.to_act if s.to_act >= 0 else 0)
    return (1 << s.picker) | ((1 << s.partner) if s.partner >= 0 else 0)


cdef inline int g_points(const SsState* s, const SsOpts* o, int side) noexcept nogil:
    """The side's card points so far, as the result counts them: its tricks, the bury for the
    picker, and in a leaster with leaster_blind: last_trick the blind once trick 6 is won."""
    cdef int i, total = 0
    for i in range(G_SEATS):
        if side >> i & 1:
            total += mask_points(POINTS, s.won[i])
    if s.picker >= 0 and side >> s.picker & 1:
        total += mask_points(POINTS, s.buried)
    if (s.contract == K_LEASTER and o.blind_last_trick and s.trick_no == o.deal.hand
            and side >> s.trick_winner[o.deal.hand - 1] & 1):
        total += mask_points(POINTS, s.blind)
    return total


cdef inline int g_future_max(const SsState* s, const SsOpts* o) noexcept nogil:
    """The points still to be taken: the cards in hand and in the trick in play, and the blind
    of a leaster that goes to the last trick."""
    cdef u64 m = 0
    cdef int k, total
    for k in range(G_SEATS):
        m |= s.hand[k]
    for k in range(s.n_in_trick):
        m |= bit(s.trick[s.trick_no][k])
    total = mask_points(POINTS, m)
    if s.contract == K_LEASTER and o.blind_last_trick and s.trick_no < o.deal.hand:
        total += mask_points(POINTS, s.blind)
    return total


cdef inline const int8_t* g_point_table(const SsState* s) noexcept nogil:
    return POINTS


cdef inline int g_rule_key(const SsState* s) noexcept nogil:
    """The called-suit duties end once the called suit has been led."""
    return s.called_led >= 0


cdef inline u64 g_unmergeable(const SsState* s, const SsOpts* o) noexcept nogil:
    """The unknown card follows as the called suit and never wins: never merge it."""
    return bit(s.unknown) if s.unknown >= 0 else 0

cdef inline u64 g_odd_cards(const SsState* s, const SsOpts* o) noexcept nogil:
    """The unknown card follows as the called suit and never wins."""
    return bit(s.unknown) if s.unknown >= 0 else 0


cdef inline int g_counted(const SsState* s, int side) noexcept nogil:
    return side


cdef inline bint g_plays_out(const SsState* s) noexcept nogil:
    return True


# ---- explanations: why a well-formed action is not legal (reason id, text) ----
REASONS = {
    "MUST_PICK": "everybody else has passed: the dealer must pick (no_pick: forced_pick)",
    "NOT_A_PICK_CALL": "the pick phase knows only pick and pass",
    "BURY_FIRST": "the picker buries as many cards as the blind (2; 4 in the cutthroat game) before anything else",
    "UNKNOWN_FIRST": "after an unknown_ace call the unknown card is set aside first",
    "PARTNER_MAY_NOT_CRACK": "the partner may only pass in the crack round",
    "RECRACK_PICKER_ONLY": "only the picker may re-crack, after a crack",
    "RECRACK_OR_PASS": "the picker answers a crack with recrack or pass",
    "PICK_IS_OVER": "the pick is over: the picker calls a partner or goes alone",
    "JD_HELD": "the picker holds JD (in hand or buried): he must play alone",
    "JD_GAME_CALLS": "in the jack-of-diamonds game the picker calls jack_of_diamonds, call_up or alone",
    "NO_CALL_UP": "calling up a jack is played only with option call_up: true",
    "CALL_UP_NEEDS_JD": "only a picker holding JD (in hand or buried) may call up a jack",
    "ALL_JACKS_HELD": "a picker holding all four jacks has no jack to call up: he plays alone",
    "CALL_UP_JD_GAME": "calling up a jack is played only with option partner: jack_of_diamonds",
    "JD_NOT_PLAYED": "the jack-of-diamonds partner needs option partner: jack_of_diamonds",
    "CALL_A_TEN": "with all three fail aces the picker calls a ten",
    "ACE_HELD": "only a fail ace the picker does not hold (hand or bury) may be called",
    "NO_CARD_OF_SUIT": "the picker must keep a card of the called suit",
    "TEN_NEEDS_ALL_ACES": "a ten is called only when the picker holds all three fail aces",
    "TEN_HELD": "only a ten the picker does not hold may be called",
    "ACE_CALLABLE": "the unknown ace is called only when no ace can be",
    "UNKNOWN_NEEDS_VOID": "the unknown ace is called in a suit the picker is void in",
    "UNKNOWN_ONLY_ACES": "the unknown ace needs a hand whose fail cards are only aces (else alone)",
    "BURY_TWO": "the bury is exactly as many cards as the blind (2; 4 in the cutthroat game)",
    "BURY_DONE": "the bury is over",
    "UNKNOWN_ONE": "the unknown is exactly 1 card",
    "NO_UNKNOWN_CALLED": "the unknown card is set aside only after an unknown_ace call",
    "BURY_PICKER_ONLY": "the bury is done only by the picker, right after he picks",
    "CALLED_SUIT_LEAD": "the partner may lead the called suit only with the called card until it has been led",
    "MUST_PLAY_UNKNOWN": "the picker must play his unknown card when the called suit is first led",
    "MUST_PLAY_CALLED_CARD": "the partner must play the called card when its suit is first led",
    "MUST_FOLLOW_SUIT": "a player must follow the led suit (trumps are one suit)",
    "CALLED_CARD_NO_DISCARD": "the partner may not discard the called card before its suit has been led",
    "UNKNOWN_KEPT": "the unknown card is kept for the first called-suit trick (or the last trick)",
    "HOLD_CARD_KEPT": "the picker keeps his only called-suit card until the suit has been led",
    "NOT_ALLOWED_NOW": "the call is not open now",
    "NO_BLITZING": "blitzing is played only with option blitz: true",
    "BLITZ_ROUND_ONLY": "a blitz is shown only in the blitz round, after the call and before the first lead",
    "NO_BLACK_QUEENS": "only a player holding both black queens (QC, QS) in hand may blitz",
    "BLITZ_OR_PASS": "the blitz round knows only blitz, red_blitz and pass",
    "NO_RED_BLITZING": "red blitzing is played only with option red_blitz: true",
    "NO_RED_QUEENS": "only a player holding both red queens (QH, QD) in hand may red-blitz",
    "BLITZ_MADE": "each blitz (black, red) is made once in a deal",
}


def explain(Core core, i64 code):
    cdef SsState* s = &core.s
    cdef int call
    if code < CALL_BASE:
        return _explain_play(core, <int>code)
    if code >= EXCHANGE_BASE:
        return _explain_exchange(core, code)
    call = <int>(code - CALL_BASE)
    name = CALL_TABLE[call][1]
    if call == ANNOUNCE_RED_BLITZ and not core.o.red_blitz:
        if not core.o.blitz:
            return "NO_BLITZING", "blitzing is not played at this table (option blitz: false)"
        return "NO_RED_BLITZING", "red blitzing is not played at this table (option red_blitz: false)"
    if (call == ANNOUNCE_BLITZ or call == ANNOUNCE_RED_BLITZ) and s.phase != P_BLITZ:
        if not core.o.blitz:
            return "NO_BLITZING", "blitzing is not played at this table (option blitz: false)"
        return "BLITZ_ROUND_ONLY", ("a blitz is shown only in the blitz round, which comes after the call "
                                    "and before the crack round and the first lead")
    if s.phase == P_BLITZ:
        if call == ANNOUNCE_BLITZ or call == ANNOUNCE_RED_BLITZ:
            red = call == ANNOUNCE_RED_BLITZ
            made = s.red_blitzed_by if red else s.blitzed_by
            if made >= 0 and may_show(s, s.to_act, red_queens() if red else black_queens()):
                return "BLITZ_MADE", f"you have already made the {name}: each blitz is made once"
            pair = (QH_CARD, QD_CARD) if red else (QC_CARD, QS_CARD)
            codes = ", ".join(DECK.code(c) for c in pair)
            why = ("your unknown card is face down and cannot be shown"
                   if holds_unknown(s, s.to_act) and s.unknown in pair
                   else f"you do not hold both {codes}")
            if red:
                return "NO_RED_QUEENS", f"only a player with both red queens ({codes}) in hand may red-blitz: {why}"
            return "NO_BLACK_QUEENS", f"only a player with both black queens ({codes}) in hand may blitz: {why}"
        return "BLITZ_OR_PASS", (f"{name} is not a blitz-round call: blitz (with both black queens), "
                                 f"red_blitz (with both red queens, option red_blitz) or pass")
    if s.phase == P_PICK:
        if call == BID_PASS:
            who = "the dealer" if s.idle < 0 else "the last to speak (the dealer sits out)"
            return "MUST_PICK", f"everybody else has passed: {who} must pick (forced pick)"
        return "NOT_A_PICK_CALL", (f"{name} is not a pick-phase call: pick or pass first; the partner "
                                   f"is called after the bury")
    if s.phase == P_BURY:
        return "BURY_FIRST", f"the picker must bury {G_BLIND} cards before calling"
    if s.phase == P_UNKNOWN:
        return "UNKNOWN_FIRST", "set the unknown card aside first (exchange 'unknown' with one card)"
    if s.phase == P_CRACK:
        if call == ANNOUNCE_CRACK:
            return "PARTNER_MAY_NOT_CRACK", "the partner may not crack; he may only pass"
        return "RECRACK_PICKER_ONLY", "only the picker may re-crack, after a crack"
    if s.phase == P_RECRACK:
        return "RECRACK_OR_PASS", "the picker answers the crack with recrack or pass"
    if s.phase != P_CALL:
        return "NOT_ALLOWED_NOW", f"{name} is not allowed now"
    return _explain_call(core, call)


cdef object _explain_call(Core core, int call):
    cdef SsState* s = &core.s
    cdef u64 h = s.hand[s.picker], p8 = h | s.buried
    cdef int m = call_mask(s, &core.o), x
    if call == BID_PICK or call == BID_PASS:
        return "PICK_IS_OVER", "the pick is over: the picker must call a partner or go alone"
    if core.o.partner_mode == PM_JD:
        if call == BID_JACK_OF_DIAMONDS:
            if core.o.call_up and m & (1 << BID_CALL_UP):
                return "JD_HELD", ("you hold JD yourself (in hand or buried): call up the next jack "
                                   "(call_up) or play alone")
            return "JD_HELD", "you hold JD yourself (in hand or buried): you must play alone"
        if call == BID_CALL_UP:
            if not core.o.call_up:
                return "NO_CALL_UP", "calling up a jack is not played at this table (option call_up: false)"
            if not (p8 & bit(JD_CARD)):
                return "CALL_UP_NEEDS_JD", "only a picker holding JD may call up: call jack_of_diamonds"
            return "ALL_JACKS_HELD", "you hold all four jacks: there is no jack to call up, play alone"
        return "JD_GAME_CALLS", ("in the jack-of-diamonds game the picker calls jack_of_diamonds, "
                                 "call_up (with JD, option call_up) or alone")
    if call == BID_CALL_UP:
        return "CALL_UP_JD_GAME", "calling up a jack is played only with option partner: jack_of_diamonds"
    if call == BID_JACK_OF_DIAMONDS:
        return "JD_NOT_PLAYED", "the jack-of-diamonds partner is not played (option partner: called_ace)"
    x = (call - BID_ACE_C) % 3
    suit = SUIT_NAMES[SUITS[x]]
    all_aces = (p8 & FAIL_ACES) == FAIL_ACES
    if call < BID_TEN_C:
        if core.o.own_ace and s.buried & bit(card(ACE, x)):
            return "ACE_HELD", ("you buried it: you may call a fail ace you do not hold, or one in your "
                                "hand (call_own_ace), not a buried one")
        if all_aces:
            return "CALL_A_TEN", "you hold all three fail aces: call a ten instead"
        if p8 & bit(card(ACE, x)):
            where = "buried it" if s.buried & bit(card(ACE, x)) else "hold it"
            return "ACE_HELD", f"you {where}: you may call only a fail ace you do not hold"
        return "NO_CARD_OF_SUIT", f"you kept no {suit} card, so you cannot call the {suit} ace"
    if call < BID_UNKNOWN_ACE_C:
        if not all_aces:
            return "TEN_NEEDS_ALL_ACES", "a ten may be called only when you hold all three fail aces"
        if p8 & bit(card(TEN, x)):
            return "TEN_HELD", f"you hold the {suit} ten yourself"
        return "NO_CARD_OF_SUIT", f"you kept no {suit} card, so you cannot call the {suit} ten"
    if all_aces:
        return "CALL_A_TEN", "you hold all three fail aces: call a ten instead"
    if m & ((1 << BID_ACE_C) | (1 << BID_ACE_S) | (1 << BID_ACE_H)):
        return "ACE_CALLABLE", "an ace can be called: the unknown ace is only for when none can"
    if p8 & bit(card(ACE, x)):
        return "ACE_HELD", f"you hold the {suit} ace yourself"
    if h & ORDER.suit_mask[x]:
        return "UNKNOWN_NEEDS_VOID", f"you hold a {suit} card: the unknown ace is called in a suit you are void in"
    return "UNKNOWN_ONLY_ACES", ("you hold fail cards other than aces: with no callable ace you must play "
                                 "alone (the unknown ace needs a hand whose fail cards are only aces)")


cdef object _explain_exchange(Core core, i64 code):
    cdef SsState* s = &core.s
    kind = EXCHANGES[exchange_call(code)]
    n = popcount(exchange_mask(code))
    if s.phase == P_BURY:
        if kind == "unknown":
            return "BURY_FIRST", f"no unknown card now: first bury {G_BLIND} cards (exchange 'bury')"
        return "BURY_TWO", f"bury exactly {G_BLIND} cards, not {n}"
    if s.phase == P_UNKNOWN:
        if kind == "bury":
            return "BURY_DONE", "the bury is done: set one card aside as the unknown (exchange 'unknown')"
        return "UNKNOWN_ONE", f"set aside exactly 1 card as the unknown, not {n}"
    if kind == "unknown":
        return "NO_UNKNOWN_CALLED", "no unknown card was called: it is set aside only after an unknown_ace call"
    return "BURY_PICKER_ONLY", "the bury is done only by the picker, right after he picks"


cdef object _explain_play(Core core, int c):
    cdef SsState* s = &core.s
    cdef int x = s.to_act, led
    cdef u64 hand = s.hand[x], legal = g_legal_cards(s, &core.o)
    code = DECK.code(c)
    called = DECK.code(s.called) if s.called >= 0 else ""
    suit = SUIT_NAMES[SUITS[s.called_suit]] if s.called_suit >= 0 else ""
    if s.n_in_trick == 0:
        return "CALLED_SUIT_LEAD", f"until {suit} has been led you may lead {suit} only with the called card {called}"
    led = eff(s, s.trick[s.trick_no][0])
    led_name = "trump" if led == TRUMP else SUIT_NAMES[SUITS[led]]
    if suit_cards(s, hand, led):
        if holds_unknown(s, x) and legal == bit(s.unknown):
            return "MUST_PLAY_UNKNOWN", f"{suit} is led for the first time: you must play your unknown card"
        if x == s.partner and legal == bit(s.called):
            return "MUST_PLAY_CALLED_CARD", f"{suit} is led for the first time: you must play the called card {called}"
        held = ", ".join(DECK.code(i) for i in core.sort_cards(suit_cards(s, hand, led)))
        return "MUST_FOLLOW_SUIT", f"you must follow {led_name}: you hold {held}"
    if x == s.partner and c == s.called:
        return "CALLED_CARD_NO_DISCARD", f"the called card {called} may not be discarded before {suit} has been led"
    if holds_unknown(s, x) and c == s.unknown:
        return "UNKNOWN_KEPT", f"the unknown card is kept for the first {suit} trick (or the last trick)"
    return "HOLD_CARD_KEPT", f"you must keep {code}, your only {suit} card, until {suit} has been led (or the last trick)"


# ---- what a seat may see ----
cdef bint _sees_face_down(const SsState* s, seat):
    """Whether `seat` (None: a spectator) sees the face-down cards (the blind once picked, the
    bury, the unknown card): the picker alone, during the deal and after it."""
    return seat is not None and s.picker >= 0 and seat == s.picker


cdef inline bint partner_known(const SsState* s, int seat) noexcept nogil:
    """The partner is known to himself, and to all once the called card has been played or the
    deal is over (seat -1: a spectator)."""
    if s.partner < 0 or s.phase == P_OVER or seat == s.partner:
        return True
    return not (s.hand[s.partner] & bit(s.called))


cdef list _codes(const SsState* s, u64 mask):
    """The codes of a mask, trumps first (as hands are sorted)."""
    cdef const int8_t* order = sorted_cards(s)
    return [DECK.code(order[k]) for k in range(G_DECK) if mask & bit(order[k])]


cdef dict _hide_contract(dict contract):
    """A contract object with the face-down cards as "??" (for every seat but the picker)."""
    if contract["unknown_card"] is not None:
        contract["unknown_card"] = HIDDEN
    contract["buried"] = [HIDDEN] * len(contract["buried"])
    return contract


cdef list _shown(const SsState* s, const int8_t* cards, int n, bint face_down):
    """A trick's cards as codes; the unknown card as "??" unless `face_down` cards are seen."""
    return [HIDDEN if cards[k] == s.unknown and not face_down else DECK.code(cards[k])
            for k in range(n)]


cdef list _tricks(const SsState* s, bint face_down):
    cdef int size = G_SEATS - 1 if s.idle >= 0 else G_SEATS
    return [[s.trick_leader[t], _shown(s, s.trick[t], size, face_down), s.trick_winner[t]]
            for t in range(s.trick_no)]


cdef list _shown_queens(const SsState* s):
    """A blitz: the shown queens (black, and red with option red_blitz) lie face up for every
    seat, spectators included, from the blitz until they are played (docs/rules/sheepshead.md
    3.8): one {"seat", "cards"} per blitzing seat with those still in its hand (a seat that made
    both blitzes has one entry), in the blitz round's order (from eldest); [] without a blitz or
    once all shown queens are played."""
    cdef int k, seat
    cdef u64 m
    out = []
    for k in range(G_SEATS):
        seat = (s.dealer + 1 + k) % G_SEATS
        m = 0
        if s.blitzed_by == seat:
            m |= black_queens()
        if s.red_blitzed_by == seat:
            m |= red_queens()
        m &= s.hand[seat]
        if m:
            out.append({"seat": seat, "cards": _codes(s, m)})
    return out


def public(Core core, seat):
    """What `seat` (None: a spectator) may see beyond its hand (module docstring: hidden
    information). The picker also sees the blind, his bury and his unknown card."""
    cdef SsState* s = &core.s
    cdef Result res
    cdef int k
    cdef bint face_down = _sees_face_down(s, seat)
    contract = None
    if s.contract != K_NONE:
        start_result(&res)
        fill_contract(s, &core.o, &res, partner_known(s, -1 if seat is None else seat),
                      s.phase == P_OVER or face_down)
        contract = render_contract(&res, _NAMES)
        if not face_down:
            _hide_contract(contract)
    out = {
        "picker": s.picker if s.picker >= 0 else None,
        "contract": contract,
        "trick": {"leader": s.leader, "cards": _shown(s, s.trick[s.trick_no], s.n_in_trick, face_down)}
                 if s.phase == P_PLAY else None,
        "tricks": _tricks(s, face_down),
        "tricks_won": [s.n_won[k] for k in range(G_SEATS)],
    }
    hands = _shown_queens(s)
    out["shown"] = hands[0] if hands else None      # the one face-up hand (the first blitzer's)
    out["shown_hands"] = hands or None              # every seat's shown queens (two with red_blitz)

    if face_down:
        out["blind"] = _codes(s, s.blind)
        out["buried"] = _codes(s, s.buried)
        out["unknown_card"] = DECK.code(s.unknown) if s.unknown >= 0 else None
    return out


def hidden(Core core, seat):
    """The face-down piles `seat` (None: a spectator) cannot see (docs/view-spec: pile, from_seat,
    to_seat, count, action, among), for every seat but the picker: the blind (set aside before
    the pick and in a leaster or doubler, then the picker's), his bury and his unknown card,
    which stays his until he plays it face down."""
    cdef SsState* s = &core.s
    if _sees_face_down(s, seat):
        return []
    out = [{"pile": "blind", "from_seat": None, "to_seat": s.picker if s.picker >= 0 else None,
            "count": G_BLIND, "action": None, "among": None}]
    if s.buried:
        out.append({"pile": EXCHANGES[X_BURY], "from_seat": s.picker, "to_seat": None,
                    "count": popcount(s.buried), "action": action_in_phase(core, P_BURY), "among": None})
    if s.unknown >= 0:
        out.append({"pile": EXCHANGES[X_UNKNOWN], "from_seat": s.picker, "to_seat": s.picker,
                    "count": 1, "action": action_in_phase(core, P_UNKNOWN), "among": None})
    return out


def redact(Core core, int index, action, seat):
    """Every seat but the picker, and a spectator, sees the bury and the unknown exchange as
    face-down cards and the play of the unknown card as "??", during the deal and after it."""
    cdef SsState* s = &core.s
    if not isinstance(action, dict) or _sees_face_down(s, seat):
        return action
    kind = action.get("type")
    if kind == "exchange":
        out = dict(action)
        out["cards"] = [HIDDEN] * len(action.get("cards", ()))
        return out
    if (kind == "play" and s.unknown >= 0 and action.get("seat") == s.picker
            and action.get("card") == DECK.code(s.unknown)):
        out = dict(action)
        out["card"] = HIDDEN
        return out
    return action


def redact_result(Core core, result, seat):
    """The finished deal's result as `seat` (None: a spectator) sees it: for every seat but the
    picker the buried cards and the unknown card (in the contract and in its trick) are "??"."""
    cdef SsState* s = &core.s
    if result is None or _sees_face_down(s, seat):
        return result
    out = dict(result)
    out["contract"] = _hide_contract(dict(result["contract"]))
    out["tricks"] = _tricks(s, False)
    return out


cdef inline void g_sides(const SsState* s, int seat, int* partners, int* opponents) noexcept nogil:
    """(partners, opponents) seat masks as `seat` knows them: nothing before the call, everyone
    for himself in a leaster or a doubler; the picker's partner is known to himself, and to all once
    the called card has been played; a picker who goes alone says so."""
    cdef int me = 1 << seat, others = playing_seats(s) & ~(1 << seat), pside
    cdef bint known, settled
    if seat == s.idle:                 # sitting out: on nobody's side
        partners[0], opponents[0] = me, 0
        return
    if s.contract == K_LEASTER or s.contract == K_DOUBLER or s.contract == K_SCHWANZER:
        partners[0], opponents[0] = me, others
        return
    if s.picker < 0 or s.contract == K_NONE:
        partners[0], opponents[0] = me, 0
        return
    known = s.partner >= 0 and partner_known(s, seat)
    pside = (1 << s.picker) | ((1 << s.partner) if known else 0)
    settled = known or s.contract == K_ALONE
    if s.own_ace and (seat == s.picker or not (s.hand[s.picker] & bit(s.called))):
        settled = True                 # his own ace: he knows, and all do once it is played
    if pside & me:
        partners[0], opponents[0] = pside, (others & ~pside) if settled else 0
    else:
        partners[0], opponents[0] = (playing_seats(s) & ~pside) if settled else me, pside

cdef inline void g_settle(GState* s, const GOpts* o) noexcept nogil:
    """Nothing to settle: the card play has no calls a perfect player always makes."""
    pass

include "../../_engine.pxi"
