# cython: language_level=3
"""Doppelkopf's rule hooks (typed, nogil) over card masks; the engine around them is the shared
`_engine.pxi`, included at the end. The rules as implemented: docs/rules/doppelkopf.md.

Reservations: one bid each from the dealer's left (healthy, hochzeit, armut, seven solos, and
under options throw_in and the picture solos: Buben-Damen-Solo, Koenigssolo);
the earliest solo wins (option pflichtsolo: a Pflichtsolo before a Lustsolo, and a Vorfuehrung
above all), else the earliest armut, else the hochzeit, else a normal game (a silent solo
when one seat holds both club queens). Armut: the poor player gives 3 cards
holding all his trumps, the others accept or decline in turn, the acceptor returns any 3;
nobody accepting voids the deal. Hochzeit: the first other player to win one of the first
three tricks is the partner, else the bride plays alone (scored as a solo).
Play: follow the led class (trump or plain suit), nothing else; of two identical cards the
first wins (option: the second heart ten beats the first, except in the last trick).
Announcements (re/kontra, no_90 .. schwarz) on the announcer's turn (option announcements
"any_time": also out of turn, g_interjection), one level at a time, while he holds enough cards. Scoring: winner by targets and promises, game value items,
extra points netted between the teams outside solos, x3 for a lone player, zero-sum.

Both copies of a face share one code: card index = rank + 6 * suit, +24 for the second copy.
Legal play codes and exchange masks name each face once, with the lowest copy held, which is
the copy `Deck.index_in` / `Deck.mask_of(within=hand)` pick when a record is encoded.
"""
from libc.string cimport memset
from libc.stdint cimport uint8_t
from engine_core._bits cimport u64, i64, int8_t, popcount, lowest, bit, byte_counts
from engine_core._rng cimport Rng, rng_below, pick_bit
from engine_core._order cimport Order, TRUMP, order_init
from engine_core._game cimport (CALL_BASE, EXCHANGE_BASE, MAX_LEGAL, A_BID, A_EXCHANGE,
                                A_ANNOUNCE, A_PLAY, BIDS_CHEAPEST, Score, Result, DealPlan,
                                exchange_code, exchange_call, exchange_mask, add_item, contract_field, extra_field, IF_TEAM,
                                IF_COUNT, IF_FACTOR,
                                IF_VALUE, V_INT, V_OPT_INT, V_BOOL, V_OPT_BOOL, V_WORD, V_CARD,
                                V_NULL, V_OBJECT, V_LIST)
from engine_core._result cimport Names, render_contract
from engine_core._names import names, calls
from engine_core.cards import DOPPELKOPF, HIDDEN, SUITS, SUIT_NAMES


# ---- names, declared once (Python names are derived from these enums) ----
cpdef enum Contract:
    K_NONE
    K_NORMAL
    K_SILENT_SOLO
    K_HOCHZEIT
    K_ARMUT
    K_SOLO
    K_THROWN_IN             # option throw_in: the deal ends unscored and is dealt again

cpdef enum Phase:
    P_RESERVATION
    P_ARMUT_GIVE
    P_ARMUT_OFFER
    P_ARMUT_RETURN
    P_PLAY
    P_OVER

# a call's code is CALL_BASE + value; the solos in the order of SOLO (diamonds .. aces)
cpdef enum Call:
    BID_HEALTHY
    BID_HOCHZEIT
    BID_ARMUT
    BID_SOLO_DIAMONDS
    BID_SOLO_HEARTS
    BID_SOLO_SPADES
    BID_SOLO_CLUBS
    BID_SOLO_QUEENS
    BID_SOLO_JACKS
    BID_SOLO_ACES
    BID_ACCEPT
    BID_DECLINE
    ANNOUNCE_RE
    ANNOUNCE_KONTRA
    ANNOUNCE_NO_90          # no_90, no_60, no_30, schwarz: levels 2..5
    ANNOUNCE_NO_60
    ANNOUNCE_NO_30
    ANNOUNCE_SCHWARZ
    BID_THROW_IN            # option throw_in (after the others, so their codes stay put)
    BID_SOLO_QUEENS_JACKS   # option picture_solos: Buben-Damen-Solo (SOLO 7), Koenigssolo (SOLO 8)
    BID_SOLO_KINGS

cpdef enum Exchange:
    X_ARMUT_GIVE
    X_ARMUT_RETURN

# breakdown items; below_*, *_announced and *_failed_by_losers of level L (2..5) are
# I_BELOW_90 + 3 * (L - 2), +1, +2; the items from I_DOPPELKOPF to I_KARLCHEN_CAUGHT are extra points
cpdef enum Item:
    I_WON
    I_AGAINST_THE_OLD
    I_RE_ANNOUNCED
    I_KONTRA_ANNOUNCED
    I_BELOW_90
    I_NO_90_ANNOUNCED
    I_NO_90_FAILED_BY_LOSERS
    I_BELOW_60
    I_NO_60_ANNOUNCED
    I_NO_60_FAILED_BY_LOSERS
    I_BELOW_30
    I_NO_30_ANNOUNCED
    I_NO_30_FAILED_BY_LOSERS
    I_SCHWARZ
    I_SCHWARZ_ANNOUNCED
    I_SCHWARZ_FAILED_BY_LOSERS
    I_DOPPELKOPF
    I_FOX_CAUGHT
    I_KARLCHEN
    I_KARLCHEN_CAUGHT
    I_BOCK                  # option bockrunden: the deal's bock rounds (count) and factor 2^count;
                            # booked by g_result after the others, never through credit()

# the keys of the game's own contract and result fields, and the words used as values
cpdef enum Word:
    W_TRUMPS
    W_SOLO
    W_PARTNER
    W_CLARIFIED_IN_TRICK
    W_ACCEPTOR
    W_GIVEN
    W_RETURNED
    W_REDEAL
    W_SCORED_AS_SOLO
    W_WINNER
    W_TEAM_CARD_POINTS
    W_ANNOUNCEMENTS
    W_GAME_VALUE
    W_EXTRA_POINTS
    W_NEXT_DEALER
    W_COUNTS_TOWARD_MATCH
    W_SEAT
    W_TEAM
    W_CALL
    W_HAND_SIZE
    W_TRICK
    W_RE                    # the teams (0 Re, 1 Kontra) and the level-1 announcements
    W_KONTRA
    W_NO_90                 # the announcements of levels 2..5
    W_NO_60
    W_NO_30
    W_SCHWARZ
    W_NORMAL                # the trumps: normal, then the solo types in SOLO order
    W_DIAMONDS
    W_HEARTS
    W_SPADES
    W_CLUBS
    W_QUEENS
    W_JACKS
    W_ACES
    W_QUEENS_JACKS          # option picture_solos (SOLO 7, 8)
    W_KINGS
    W_SCHWEINCHEN           # options schweinchen, superschweinchen: the holder's seat
    W_SUPERSCHWEINCHEN
    W_BOCK_TRIGGERS         # option bockrunden: the events of this deal that start a bock round
    W_TIE                   # 120 : 120
    W_LOST_KONTRA           # Kontra announced kontra and did not win
    W_SOLO_KIND             # option pflichtsolo: a declared solo is the soloist's Pflichtsolo or a
    W_PFLICHT               # Lustsolo (rules 9.2)
    W_LUST
    W_VORFUEHRUNG           # option pflichtsolo: this deal is a Vorfuehrung, the seat must play a solo

DECK = DOPPELKOPF
CONTRACTS = names(Contract, "K_")
PHASE_NAMES = names(Phase, "P_")
CALL_TABLE = calls(Call)
EXCHANGES = names(Exchange, "X_")
cdef Names _NAMES = Names(CONTRACTS, names(Item, "I_"), names(Word, "W_"), DOPPELKOPF.faces * 2, 4)
NAMES = _NAMES
TEAM_NAMES = ("re", "kontra")
LEVEL_NAMES = ("", "re/kontra", "no_90", "no_60", "no_30", "schwarz")
HOCHZEIT_PARTNER = ("first_trick", "first_trump_trick", "first_colour_trick")
SCHWEINCHEN = ("off", "schweinchen", "superschweinchen")
BOCKRUNDEN = ("off", "tie", "tie_or_lost_kontra")
ANNOUNCEMENTS = ("own_turn", "any_time")
MAX_BOCK = 4                # a round lasts four deals and a deal starts at most one (rules 9.1)

# ---- the C state ----
cdef enum:
    G_SEATS = 4
    G_HAND = 12
    G_BLIND = 0
    G_DECK = 48
    G_FACES = 24
    G_COPIES = 2
    G_MAX_ACTIONS = 72          # 4 bids + give + 3 answers + return + 10 announcements + 48 cards
    G_BIDS = 3                  # uniform and cheapest
    MAX_ANN = 10                # 5 levels per team
    VIEW_ALL = -2               # fill_contract's viewer for the Result: everything

cdef struct DkOpts:
    DealPlan deal
    bint second_heart_ten, solo_player_leads, charlie_only_when_winning
    bint schweinchen, superschweinchen, throw_in     # option schweinchen: at least / superschweinchen
    bint picture_solos          # the Buben-Damen-Solo and the Koenigssolo may be bid
    int8_t hochzeit_partner     # HP_ANY, HP_TRUMP, HP_COLOUR: the tricks that find the partner
    int8_t bockrunden           # index in BOCKRUNDEN: 0 off, 1 tie, 2 also a lost kontra
    int8_t bock                 # bock rounds on this deal: scores x 2^bock (0..MAX_BOCK)
    bint pflichtsolo            # option pflichtsolo on (rules 9.2)
    int8_t owes                 # bit per seat: it still owes its Pflichtsolo this round
    bint vorfuehrung            # the round's regular deals are used up: an owing seat must play
    bint any_time               # option announcements "any_time": out of turn too (rules 4.5.1)
    # option nines (rules 1.1): deal.hand is 12, or 10 without the nines (deal.left_out: the
    # eight nines, never dealt, never in play)

cdef struct DkState:
    u64 hand[4]
    u64 dealt[4]
    u64 given, returned         # Armut: the poor player's 3 cards, the acceptor's 3 back
    u64 follow                  # the led class's cards in the trick in play (all before the lead)
    int8_t n_won[4]
    int8_t bids[4]              # reservation call by seat, -1 before speaking
    int8_t dealer, to_act, phase, n_spoken
    int8_t contract, solo, order
    int8_t declarer, partner, acceptor
    int8_t clarified            # Hochzeit: trick (1-based) that decided it; 0 undecided
    int8_t reduction            # announcement thresholds lowered by this (Hochzeit)
    int8_t re_mask              # seats of the Re team (bit per seat)
    int8_t redeal               # void Armut
    int8_t level[2]             # announcement level of Re [0] and Kontra [1]
    int8_t ann_seats            # bit per seat: its team may make its next announcement now
    int8_t n_ann
    int8_t ann_seat[MAX_ANN]
    int8_t ann_level[MAX_ANN]
    int8_t ann_hand[MAX_ANN]
    int8_t ann_trick[MAX_ANN]
    int8_t trick_no, n_in_trick, leader
    int8_t n_tricks             # tricks in the deal: the cards each hand was dealt (12, or 10)
    int8_t trick[12][4]
    int8_t trick_leader[12]
    int8_t trick_winner[12]
    int8_t schwein, superschwein    # the holders of both AD / both 9D when they rank on top, or -1
    int8_t pflicht              # option pflichtsolo: a declared solo is a Pflichtsolo 1 or a
    #                             Lustsolo 0; -1 without the option or before a solo (rules 9.2)
    int8_t forced               # the seat that must play a solo on this deal (Vorfuehrung), or -1

ctypedef DkState GState
ctypedef DkOpts GOpts

# ---- cards: index rank + 6 * suit (+24 for the second copy), ranks A T K Q J 9, suits C S H D ----
cdef enum:
    ACE = 0
    TEN = 1
    KING = 2
    QUEEN = 3
    JACK = 4
    NINE = 5
    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3
    FACES = 24
    FACE_TH = 1 + 6 * 2
    FACE_QC = 3
    FACE_JC = 4
    FACE_AD = 6 * 3
    O_NORMAL = 0        # ORDERS by solo type: 0 diamonds (also the normal order) .. 6 aces
    O_QUEENS = 4
    O_JACKS = 5
    O_ACES = 6
    O_QUEENS_JACKS = 7  # option picture_solos: queens then jacks (Buben-Damen-Solo)
    O_KINGS = 8         # and kings only (Koenigssolo)
    O_SCHWEIN = 9       # the normal order with both AD on top (option schweinchen)
    O_SUPER = 10        # and both 9D above them (option superschweinchen)
    N_ORDERS = 11
    N_SOLOS = 9         # the solo types: 0 diamonds .. 6 aces, 7 queens_jacks, 8 kings
    HP_ANY = 0          # option hochzeit_partner, in the order of HOCHZEIT_PARTNER
    HP_TRUMP = 1
    HP_COLOUR = 2

cdef int8_t POINTS[48]
cdef u64 QC_BOTH = 0
cdef Order ORDERS[N_ORDERS]
cdef int8_t DISPLAY[N_ORDERS][48]     # per order: every card, trumps first then C S H D, highest first
cdef int8_t DISPLAY_AT[N_ORDERS][48]  # per order: each card's place in DISPLAY
# per order and led class (C S H D, TRUMP): how strongly each card bids for the trick, 0 when
# it cannot win it (a trump: 64 + power; a card of the led suit: its power; else 0)
cdef uint8_t KEY[N_ORDERS][5][48]
cdef int8_t ALPHA[24]          # the faces in the order of their codes' text (as "sorted" lists)
cdef uint8_t SELECT[256][8]    # SELECT[byte][k]: position of the byte's k-th set bit


cdef inline int card(int rank, int suit) noexcept nogil:
    return rank + 6 * suit


cdef inline int face(int c) noexcept nogil:
    return c - FACES if c >= FACES else c


cdef inline u64 both(int f) noexcept nogil:
    return bit(f) | bit(f + FACES)


cdef inline u64 canon(u64 m) noexcept nogil:
    """Each face of `m` once: the first copy where held, else the second."""
    cdef u64 lo = m & <u64>0xFFFFFFULL
    return lo | (m & ~(lo << FACES) & <u64>0xFFFFFF000000ULL)


cdef void add_trumps(Order* o, const int8_t* faces, int n) noexcept nogil:
    """Trump faces from the highest down; both copies rank equally."""
    cdef int i
    o.n_trumps = n
    for i in range(n):
        o.trump_seq[i] = faces[i]
        o.eff_suit[faces[i]] = TRUMP
        o.eff_suit[faces[i] + FACES] = TRUMP
        o.power[faces[i]] = <int8_t>(n - i)
        o.power[faces[i] + FACES] = <int8_t>(n - i)
        o.suit_mask[TRUMP] |= both(faces[i])


cdef void add_plain(Order* o) noexcept nogil:
    """Every non-trump card in its printed suit, in the order A T K Q J 9."""
    cdef int s, r, f
    for s in range(4):
        for r in range(6):
            f = card(r, s)
            if o.eff_suit[f] == TRUMP:
                continue
            o.eff_suit[f] = <int8_t>s
            o.eff_suit[f + FACES] = <int8_t>s
            o.power[f] = <int8_t>(6 - r)
            o.power[f + FACES] = <int8_t>(6 - r)
            o.suit_mask[s] |= both(f)


cdef void _build_tables():
    global QC_BOTH
    cdef int8_t trumps[16]
    cdef int8_t suit_of_solo[4]
    cdef int t, s, n, i, r, e, c, b, k, f
    suit_of_solo[0] = DIAMONDS
    suit_of_solo[1] = HEARTS
    suit_of_solo[2] = SPADES
    suit_of_solo[3] = CLUBS
    for i in range(48):
        POINTS[i] = (11, 10, 4, 3, 2, 0)[(i % FACES) % 6]
    QC_BOTH = both(card(QUEEN, CLUBS))
    for t in range(4):            # normal/diamonds, hearts, spades, clubs: TH, queens, jacks, suit
        order_init(&ORDERS[t])
        n = 0
        trumps[n] = card(TEN, HEARTS); n += 1
        for s in range(4):
            trumps[n] = card(QUEEN, s); n += 1
        for s in range(4):
            trumps[n] = card(JACK, s); n += 1
        for r in (ACE, TEN, KING, NINE):
            if not (r == TEN and suit_of_solo[t] == HEARTS):
                trumps[n] = card(r, suit_of_solo[t]); n += 1
        add_trumps(&ORDERS[t], trumps, n)
        add_plain(&ORDERS[t])
    for t, r in ((O_QUEENS, QUEEN), (O_JACKS, JACK), (O_KINGS, KING)):
        order_init(&ORDERS[t])
        for s in range(4):
            trumps[s] = card(r, s)
        add_trumps(&ORDERS[t], trumps, 4)
        add_plain(&ORDERS[t])
    order_init(&ORDERS[O_QUEENS_JACKS])     # QC QS QH QD JC JS JH JD, the heart ten plain
    for s in range(4):
        trumps[s] = card(QUEEN, s)
        trumps[4 + s] = card(JACK, s)
    add_trumps(&ORDERS[O_QUEENS_JACKS], trumps, 8)
    add_plain(&ORDERS[O_QUEENS_JACKS])
    order_init(&ORDERS[O_ACES])
    add_plain(&ORDERS[O_ACES])
    for t, k in ((O_SCHWEIN, 0), (O_SUPER, 2)):   # the normal trumps below k + 2 pigs on top
        order_init(&ORDERS[t])
        n = 0
        if k:
            trumps[n] = card(NINE, DIAMONDS); n += 1
        trumps[n] = card(ACE, DIAMONDS); n += 1
        for i in range(ORDERS[O_NORMAL].n_trumps):
            f = ORDERS[O_NORMAL].trump_seq[i]
            if f != card(ACE, DIAMONDS) and not (k and f == card(NINE, DIAMONDS)):
                trumps[n] = f; n += 1
        add_trumps(&ORDERS[t], trumps, n)
        add_plain(&ORDERS[t])
    for t in range(N_ORDERS):
        for e in range(5):
            for c in range(48):
                if ORDERS[t].eff_suit[c] == TRUMP:
                    KEY[t][e][c] = 64 + ORDERS[t].power[c]
                elif ORDERS[t].eff_suit[c] == e:
                    KEY[t][e][c] = ORDERS[t].power[c]
                else:
                    KEY[t][e][c] = 0
        keyed = sorted((0 if ORDERS[t].eff_suit[c] == TRUMP else 1 + ORDERS[t].eff_suit[c],
                        -ORDERS[t].power[c], c % FACES, c) for c in range(48))
        for k in range(48):
            DISPLAY[t][k] = keyed[k][3]
            DISPLAY_AT[t][keyed[k][3]] = k
    for k, f in enumerate(sorted(range(FACES), key=lambda f: DOPPELKOPF.faces[f])):
        ALPHA[k] = f
    for b in range(256):
        k = 0
        for i in range(8):
            if b >> i & 1:
                SELECT[b][k] = i
                k += 1

_build_tables()


cdef int g_opts(options, DkOpts* out) except -1:
    """The C options of resolved Options."""
    cdef int su
    out.second_heart_ten = options.second_heart_ten_beats_first
    out.solo_player_leads = options.solo_player_leads
    out.charlie_only_when_winning = options.charlie_only_when_winning
    out.schweinchen = options.schweinchen != "off"
    out.superschweinchen = options.schweinchen == "superschweinchen"
    out.throw_in = options.throw_in
    out.picture_solos = options.picture_solos
    out.hochzeit_partner = HOCHZEIT_PARTNER.index(options.hochzeit_partner)
    out.bockrunden = BOCKRUNDEN.index(options.bockrunden)
    out.bock = options.bock
    out.pflichtsolo = options.pflichtsolo > 0
    out.any_time = options.announcements == "any_time"
    out.owes = 0
    out.vorfuehrung = False
    if out.pflichtsolo:
        for su in range(4):
            if not options.pflicht_played[su]:
                out.owes |= 1 << su
        out.vorfuehrung = out.owes != 0 and options.pflicht_round_deals >= options.pflichtsolo
    if not options.nines:       # rules 1.1: the 40-card deck, ten cards each
        out.deal.hand = 10
        out.deal.left_out = 0
        for su in range(4):
            out.deal.left_out |= both(card(NINE, su))
    return 0


# ---- teams and announcements ----
cdef inline int team_of(const DkState* s, int seat) noexcept nogil:
    """0 = Re, 1 = Kontra (the final teams once known)."""
    return 0 if (s.re_mask >> seat) & 1 else 1


cdef inline int normal_trumps(u64 hand) noexcept nogil:
    return popcount(hand & ORDERS[O_NORMAL].suit_mask[TRUMP])


cdef inline int announce_call(int team, int level) noexcept nogil:
    if level == 1:
        return ANNOUNCE_RE if team == 0 else ANNOUNCE_KONTRA
    return ANNOUNCE_NO_90 + level - 2


cdef inline int call_level(int call) noexcept nogil:
    if call == ANNOUNCE_RE or call == ANNOUNCE_KONTRA:
        return 1
    return call - ANNOUNCE_NO_90 + 2


cdef inline int cards_needed(const DkState* s, int team, int level) noexcept nogil:
    """Cards an announcement of `level` needs (rules 4.5): the hand dealt (12, or 10 without
    the nines, rules 1.1) less `level`, one fewer for a re/kontra that answers the opponents'
    highest announcement, lowered in a Hochzeit."""
    cdef int opp = s.level[1 - team]
    if level == 1 and opp >= 1:
        return s.n_tricks - opp - s.reduction - 1
    return s.n_tricks - level - s.reduction


cdef inline void update_announcers(DkState* s) noexcept nogil:
    """The seats whose team may make its next announcement in the trick now in play (rules
    4.5): none while a Hochzeit is undecided; every seat holds n_tricks - trick_no cards at its turn,
    so this changes only when a trick closes or a team announces."""
    cdef int t, level, out = 0
    if s.phase == P_PLAY and not (s.contract == K_HOCHZEIT and s.clarified == 0):
        for t in range(2):
            level = s.level[t] + 1
            if level <= 5 and s.n_tricks - s.trick_no >= cards_needed(s, t, level):
                out |= s.re_mask if t == 0 else 15 & ~s.re_mask
    s.ann_seats = out


cdef inline int announcement_of(const DkState* s, int seat) noexcept nogil:
    """The announcement call `seat` may make now, its deadline counted by the cards it holds
    (rules 4.5; at its own turn it holds n_tricks - trick_no, as update_announcers counts), or
    -1. None while a Hochzeit is undecided."""
    cdef int team, level
    if s.phase != P_PLAY or (s.contract == K_HOCHZEIT and s.clarified == 0):
        return -1
    team = team_of(s, seat)
    level = s.level[team] + 1
    if level > 5 or popcount(s.hand[seat]) < cards_needed(s, team, level):
        return -1
    return announce_call(team, level)


cdef inline int next_announcement(const DkState* s) noexcept nogil:
    """The announcement call the seat to act may make now, or -1."""
    cdef int team
    if (s.ann_seats >> s.to_act) & 1:
        team = team_of(s, s.to_act)
        return announce_call(team, s.level[team] + 1)
    return -1


cdef inline bint solo_scoring(const DkState* s) noexcept nogil:
    """Scored as a solo: declared solos, the silent solo, a Hochzeit without a partner."""
    return (s.contract == K_SOLO or s.contract == K_SILENT_SOLO
            or (s.contract == K_HOCHZEIT and s.clarified > 0 and s.partner < 0))


cdef inline int solo_of(int call) noexcept nogil:
    """The solo type (0..N_SOLOS-1, the order of SOLO) a reservation call declares, or -1."""
    if call >= BID_SOLO_DIAMONDS and call <= BID_SOLO_ACES:
        return call - BID_SOLO_DIAMONDS
    if call == BID_SOLO_QUEENS_JACKS or call == BID_SOLO_KINGS:
        return 7 + call - BID_SOLO_QUEENS_JACKS
    return -1


cdef inline bint bid_allowed(const DkState* s, int seat, int call) noexcept nogil:
    if call == BID_HOCHZEIT:
        return (s.hand[seat] & QC_BOTH) == QC_BOTH
    if call == BID_ARMUT:
        return normal_trumps(s.hand[seat]) <= 3
    return call == BID_HEALTHY or (call >= BID_SOLO_DIAMONDS and call <= BID_SOLO_ACES)


cdef inline int rank_count(u64 hand, int rank) noexcept nogil:
    cdef int su, n = 0
    for su in range(4):
        n += popcount(hand & both(card(rank, su)))
    return n


cdef inline bint may_throw_in(u64 hand) noexcept nogil:
    """Option throw_in (docs/rules/doppelkopf.md 3.8): five or more nines, five or more kings,
    or no trump above the jacks (neither TH nor a queen)."""
    cdef int su
    cdef u64 high = both(FACE_TH)
    for su in range(4):
        high |= both(card(QUEEN, su))
    return rank_count(hand, NINE) >= 5 or rank_count(hand, KING) >= 5 or (hand & high) == 0


cdef inline bint reservation_allowed(const DkState* s, const DkOpts* o, int seat, int call) noexcept nogil:
    """A reservation bid the seat may make: bid_allowed, a throw-in or a picture solo under
    the options; in a Vorfuehrung (option pflichtsolo, rules 9.2) the seat that must play
    declares a solo and nothing else."""
    if seat == s.forced and solo_of(call) < 0:
        return False
    if call == BID_THROW_IN:
        return o.throw_in and may_throw_in(s.hand[seat])
    if call == BID_SOLO_QUEENS_JACKS or call == BID_SOLO_KINGS:
        return o.picture_solos
    return bid_allowed(s, seat, call)


# ---- hooks ----
cdef void g_init(DkState* s, const DkOpts* o, const u64* hands, u64 blind, int dealer) noexcept nogil:
    cdef int i
    memset(s, 0, sizeof(DkState))
    for i in range(4):
        s.hand[i] = hands[i]
        s.dealt[i] = hands[i]
        s.bids[i] = -1
    s.dealer = dealer
    s.n_tricks = o.deal.hand
    s.to_act = (dealer + 1) % 4
    s.phase = P_RESERVATION
    s.contract = K_NONE
    s.solo = -1
    s.order = O_NORMAL
    s.declarer = -1
    s.partner = -1
    s.acceptor = -1
    s.leader = s.to_act
    s.schwein = -1
    s.superschwein = -1
    s.pflicht = -1
    s.forced = -1
    if o.vorfuehrung:               # the first owing seat from the dealer's left (rules 9.2)
        for i in range(1, 5):
            if o.owes >> ((dealer + i) % 4) & 1:
                s.forced = (dealer + i) % 4
                break


cdef inline int g_kinds(const DkState* s) noexcept nogil:
    """Announcements belong to the play even when none is legal now, so that a refused one
    gets its precise reason."""
    if s.phase == P_RESERVATION or s.phase == P_ARMUT_OFFER:
        return A_BID
    if s.phase == P_ARMUT_GIVE or s.phase == P_ARMUT_RETURN:
        return A_EXCHANGE
    if s.phase == P_PLAY:
        return A_ANNOUNCE | A_PLAY
    return 0


cdef inline const Order* g_order(const DkState* s) noexcept nogil:
    return &ORDERS[s.order]


cdef inline u64 playable(const DkState* s) noexcept nogil:
    """Legal cards of the seat to act in the play, each face once (rules 4.2): follow the led
    class if you can, else anything (the leader: anything)."""
    cdef u64 hand = s.hand[s.to_act]
    cdef u64 m = hand & s.follow
    m |= hand & (<u64>0 - <u64>(m == 0))          # follow if you can, else anything
    return canon(m)


cdef inline u64 g_legal_cards(const DkState* s, const DkOpts* o) noexcept nogil:
    """Legal cards of the seat to act (0 outside the play)."""
    return playable(s) if s.phase == P_PLAY else 0


cdef int enum_rec(const int* faces, const int* counts, int nf, int start, int k, u64 acc,
                  u64 pool, int call, i64* out, int n) noexcept nogil:
    cdef int i, f
    if k == 0:
        out[n] = exchange_code(call, acc)
        return n + 1
    for i in range(start, nf):
        f = faces[i]
        n = enum_rec(faces, counts, nf, i + 1, k - 1,
                     acc | (bit(f) if pool & bit(f) else bit(f + FACES)), pool, call, out, n)
        if counts[i] == 2 and k >= 2:
            n = enum_rec(faces, counts, nf, i + 1, k - 2, acc | both(f), pool, call, out, n)
    return n


cdef int enum_multisets(u64 pool, int k, u64 base, int call, i64* out, int n) noexcept nogil:
    """Every distinct multiset of `k` cards from `pool`, each joined to `base`, as exchange
    codes in the canonical copy choice (lowest copies held)."""
    cdef int faces[24]
    cdef int counts[24]
    cdef int nf = 0, f, c
    for f in range(FACES):
        c = <int>((pool >> f) & 1) + <int>((pool >> (f + FACES)) & 1)
        if c:
            faces[nf] = f
            counts[nf] = c
            nf += 1
    return enum_rec(faces, counts, nf, 0, k, base, pool, call, out, n)


cdef inline int armut_pool(const DkState* s, u64* pool, int* k, u64* base) noexcept nogil:
    """The Armut exchange of the seat to act (rules 2.5) as `base` plus any `k` cards of
    `pool`: the give holds every trump (normal order) and fills up with non-trumps, the
    return is any 3 cards; returns the exchange call."""
    cdef u64 hand = s.hand[s.to_act], trumps
    if s.phase == P_ARMUT_GIVE:
        trumps = hand & ORDERS[O_NORMAL].suit_mask[TRUMP]
        pool[0] = hand & ~trumps
        k[0] = 3 - popcount(trumps)
        base[0] = trumps
        return X_ARMUT_GIVE
    pool[0] = hand
    k[0] = 3
    base[0] = 0
    return X_ARMUT_RETURN


cdef int g_legal(const DkState* s, const DkOpts* o, i64* out) noexcept nogil:
    """Every legal code: in play the announcement (if any) first, then the legal faces in
    display order (trumps first, highest first)."""
    cdef int n = 0, call, seat = s.to_act, k, c
    cdef u64 m, pool, base
    if s.phase == P_PLAY:
        call = next_announcement(s)
        if call >= 0:
            out[n] = CALL_BASE + call
            n += 1
        # the legal cards as places in the display order, then read back lowest place first
        m = g_legal_cards(s, o)
        pool = 0
        while m:
            c = lowest(m)
            m &= m - 1
            pool |= bit(DISPLAY_AT[s.order][c])
        while pool:
            out[n] = DISPLAY[s.order][lowest(pool)]
            n += 1
            pool &= pool - 1
    elif s.phase == P_RESERVATION:
        for call in range(BID_SOLO_ACES + 1):
            if reservation_allowed(s, o, seat, call):
                out[n] = CALL_BASE + call
                n += 1
        for call in range(BID_THROW_IN, BID_SOLO_KINGS + 1):     # throw_in, the picture solos
            if reservation_allowed(s, o, seat, call):
                out[n] = CALL_BASE + call
                n += 1
    elif s.phase == P_ARMUT_GIVE or s.phase == P_ARMUT_RETURN:
        call = armut_pool(s, &pool, &k, &base)
        n = enum_multisets(pool, k, base, call, out, 0)
    elif s.phase == P_ARMUT_OFFER:
        out[0] = CALL_BASE + BID_ACCEPT
        out[1] = CALL_BASE + BID_DECLINE
        n = 2
    return n


cdef inline int holder_of_both(const DkState* s, int f) noexcept nogil:
    cdef int p
    for p in range(4):
        if (s.hand[p] & both(f)) == both(f):
            return p
    return -1


cdef void start_play(DkState* s, const DkOpts* o) noexcept nogil:
    """The play begins (after the reservations or the Armut exchange): under the options, both
    AD in one hand rank on top (Schweinchen), and then both 9D in one hand above them
    (Superschweinchen), wherever diamonds are trumps; public from now on."""
    if o.schweinchen and s.order == O_NORMAL:
        s.schwein = holder_of_both(s, FACE_AD)
        if s.schwein >= 0:
            s.order = O_SCHWEIN
            if o.superschweinchen:
                s.superschwein = holder_of_both(s, card(NINE, DIAMONDS))
                if s.superschwein >= 0:
                    s.order = O_SUPER
    s.phase = P_PLAY
    s.n_spoken = 0
    s.leader = (s.dealer + 1) % 4
    if s.contract == K_SOLO and (o.solo_player_leads or s.pflicht == 1):
        s.leader = s.declarer       # and the Pflicht-soloist always (rules 9.2)
    s.to_act = s.leader
    s.follow = <u64>-1
    update_announcers(s)


cdef void resolve_reservations(DkState* s, const DkOpts* o) noexcept nogil:
    """Solo > throw-in > armut > hochzeit, ties to the earlier bidder; else normal or silent
    solo. A throw-in ends the deal unscored, to be dealt again. Option pflichtsolo (rules
    9.2): the seat that must play (Vorfuehrung) has its solo; else a Pflichtsolo (by a seat that
    still owes one) goes before a Lustsolo."""
    cdef int first = (s.dealer + 1) % 4, i, p, b
    cdef int solo_seat = -1, armut_seat = -1, bride = -1, thrower = -1
    if s.forced >= 0:
        solo_seat = s.forced
    for i in range(4):
        p = (first + i) % 4
        b = s.bids[p]
        if solo_of(b) >= 0 and (o.owes >> p & 1) and (solo_seat < 0 or not (o.owes >> solo_seat & 1)):
            solo_seat = p           # the first Pflichtsolo
        elif solo_of(b) >= 0 and solo_seat < 0:
            solo_seat = p
        elif b == BID_THROW_IN and thrower < 0:
            thrower = p
        elif b == BID_ARMUT and armut_seat < 0:
            armut_seat = p
        elif b == BID_HOCHZEIT and bride < 0:
            bride = p
    if solo_seat >= 0:
        s.contract = K_SOLO
        s.declarer = solo_seat
        s.solo = solo_of(s.bids[solo_seat])
        s.order = s.solo                # O_* of solo type t is t (O_QUEENS_JACKS 7, O_KINGS 8)
        s.re_mask = 1 << solo_seat
        if o.pflichtsolo:
            s.pflicht = (o.owes >> solo_seat) & 1
        start_play(s, o)
    elif thrower >= 0:
        s.contract = K_THROWN_IN
        s.declarer = thrower
        s.redeal = 1
        s.phase = P_OVER
        s.to_act = -1
    elif armut_seat >= 0:
        s.contract = K_ARMUT
        s.declarer = armut_seat
        s.phase = P_ARMUT_GIVE
        s.to_act = armut_seat
    elif bride >= 0:
        s.contract = K_HOCHZEIT
        s.declarer = bride
        s.re_mask = 1 << bride
        start_play(s, o)
    else:
        s.contract = K_NORMAL
        for p in range(4):
            if (s.hand[p] & QC_BOTH) == QC_BOTH:
                s.contract = K_SILENT_SOLO
                s.declarer = p
            if s.hand[p] & QC_BOTH:
                s.re_mask |= 1 << p
        start_play(s, o)


cdef inline int trick_winner(const DkState* s, const DkOpts* opts) noexcept nogil:
    """Position of the winning card: highest trump, else highest card of the led suit; of
    identical cards the first wins, except two trump heart tens under the option, outside the
    last trick (rules 4.3)."""
    cdef const int8_t* cards = s.trick[s.trick_no]
    cdef const uint8_t* key = KEY[s.order][ORDERS[s.order].eff_suit[cards[0]]]
    cdef int best = 0, best_v = key[cards[0]]
    cdef int i, v
    if opts.second_heart_ten and s.trick_no < s.n_tricks - 1 and ORDERS[s.order].eff_suit[FACE_TH] == TRUMP:
        for i in range(1, 4):
            v = key[cards[i]]
            if v > best_v or (face(cards[i]) == FACE_TH and face(cards[best]) == FACE_TH):
                best_v = v
                best = i
        return best
    for i in range(1, 4):          # branch-free: strictly higher wins, the first of equals stays
        v = key[cards[i]]
        best = i if v > best_v else best
        best_v = v if v > best_v else best_v
    return best


cdef inline void announce(DkState* s, int seat, int call) noexcept nogil:
    cdef int t = team_of(s, seat)
    s.level[t] = call_level(call)
    s.ann_seat[s.n_ann] = seat
    s.ann_level[s.n_ann] = s.level[t]
    s.ann_hand[s.n_ann] = popcount(s.hand[seat])
    s.ann_trick[s.n_ann] = s.trick_no + 1
    s.n_ann += 1
    update_announcers(s)


cdef inline bint finds_partner(const DkState* s, const DkOpts* o) noexcept nogil:
    """Option hochzeit_partner: whether the trick in play may find the bride's partner (any
    trick, a trick led with a trump, or one led with a plain suit)."""
    cdef bint trump_led
    if o.hochzeit_partner == HP_ANY:
        return True
    trump_led = ORDERS[s.order].eff_suit[s.trick[s.trick_no][0]] == TRUMP
    return trump_led if o.hochzeit_partner == HP_TRUMP else not trump_led


cdef inline void close_trick(DkState* s, const DkOpts* o) noexcept nogil:
    """The fourth card is down: the winner takes the trick and leads (Hochzeit: it may find
    the partner); after the last trick (12, or 10 without the nines) the deal is over."""
    cdef int winner = (s.leader + trick_winner(s, o)) & 3
    s.trick_leader[s.trick_no] = s.leader
    s.trick_winner[s.trick_no] = winner
    s.n_won[winner] += 1
    if s.contract == K_HOCHZEIT and s.clarified == 0:
        if winner != s.declarer and finds_partner(s, o):
            s.partner = winner
            s.re_mask |= 1 << winner
            s.clarified = s.trick_no + 1
            s.reduction = s.trick_no + 1
        elif s.trick_no == 2:          # no partner after three tricks: the bride plays alone
            s.clarified = 3
            s.reduction = 3
    s.trick_no += 1
    s.n_in_trick = 0
    s.follow = <u64>-1
    s.leader = winner
    s.to_act = winner
    if s.trick_no == s.n_tricks:
        s.phase = P_OVER
        s.to_act = -1
    # once nobody may announce, nobody can again (hands only shrink, levels only change by
    # announcing), except when a Hochzeit is decided
    if s.ann_seats or s.contract == K_HOCHZEIT or s.phase == P_OVER:
        update_announcers(s)


cdef inline void play_card(DkState* s, const DkOpts* o, int c) noexcept nogil:
    cdef int seat = s.to_act, n = s.n_in_trick
    cdef const Order* order
    s.hand[seat] &= ~bit(c)
    s.trick[s.trick_no][n] = <int8_t>c
    if n == 0:                     # the lead sets the class to follow
        order = &ORDERS[s.order]
        s.follow = order.suit_mask[order.eff_suit[c]]
    s.n_in_trick = n + 1
    if n < 3:
        s.to_act = (seat + 1) & 3
    else:
        close_trick(s, o)


cdef void apply_call(DkState* s, const DkOpts* o, i64 code) noexcept nogil:
    """A bid, an Armut answer, an announcement or an exchange (legality is the caller's check)."""
    cdef int seat = s.to_act, call
    cdef u64 mask
    if code >= EXCHANGE_BASE:
        mask = exchange_mask(code)
        s.hand[seat] &= ~mask
        if s.phase == P_ARMUT_GIVE:
            s.given = mask
            s.phase = P_ARMUT_OFFER
            s.n_spoken = 0
            s.to_act = (seat + 1) % 4
        else:
            s.returned = mask
            s.hand[s.declarer] |= mask
            start_play(s, o)
        return
    call = <int>(code - CALL_BASE)
    if s.phase == P_RESERVATION:
        s.bids[seat] = call
        s.n_spoken += 1
        s.to_act = (seat + 1) % 4
        if s.n_spoken == 4:
            resolve_reservations(s, o)
    elif s.phase == P_ARMUT_OFFER:
        if call == BID_ACCEPT:
            s.acceptor = seat
            s.hand[seat] |= s.given
            s.re_mask = (1 << s.declarer) | (1 << seat)
            s.phase = P_ARMUT_RETURN
        else:
            s.n_spoken += 1
            s.to_act = (seat + 1) % 4
            if s.n_spoken == 3:       # nobody takes the Armut: void deal, cards back
                s.hand[s.declarer] |= s.given
                s.redeal = 1
                s.phase = P_OVER
                s.to_act = -1
    else:
        announce(s, seat, call)


cdef inline i64 g_interjection(const DkState* s, const DkOpts* o, int seat) noexcept nogil:
    """The action `seat` may take while another seat is to act (option announcements
    "any_time", rules 4.5.1: its team's next announcement), as a code, or -1."""
    cdef int call
    if not o.any_time or seat == s.to_act or s.to_act < 0:
        return -1
    call = announcement_of(s, seat)
    return CALL_BASE + call if call >= 0 else -1


cdef inline void g_interject(DkState* s, const DkOpts* o, int seat, i64 code) noexcept nogil:
    """Apply g_interjection's code for `seat` (the caller checked it); the seat to act stays."""
    announce(s, seat, <int>(code - CALL_BASE))


cdef inline void g_apply(DkState* s, const DkOpts* o, i64 code) noexcept nogil:
    """Apply a legal action code (legality is the caller's check)."""
    if code < CALL_BASE:
        play_card(s, o, <int>code)
    else:
        apply_call(s, o, code)


# ---- random actions: the cards straight from the legal mask ----
cdef inline int select_bit(u64 m, u64 prefix, int k) noexcept nogil:
    """Index of the k-th (from 0) set bit of m, prefix = the running byte counts of m (byte i:
    the set bits of bytes 0..i); branch-free: the byte holding it is the first whose prefix
    count exceeds k (the counts are below 65, so the bytewise subtraction never borrows),
    then a table lookup within the byte."""
    cdef u64 over = ((prefix | <u64>0x8080808080808080ULL)
                     - <u64>(k + 1) * <u64>0x0101010101010101ULL) & <u64>0x8080808080808080ULL
    cdef int shift = lowest(over) - 7            # 8 * byte index
    cdef int before = <int>(((prefix << 8) >> shift) & 0xFF)
    return shift + SELECT[(m >> shift) & 0xFF][k - before]


cdef u64 random_multiset(Rng* r, u64 pool, int k) noexcept nogil:
    """A uniformly random distinct multiset of `k` cards of `pool`, in the canonical copy
    choice (as enum_multisets lists them): k distinct cards drawn at random, kept with
    probability 2^-d, d = the faces drawn once of which the pool holds both copies (each
    such multiset is drawn in 2^d ways)."""
    cdef u64 m, drawn, once, lo, twice, both_held = pool & (pool >> FACES) & <u64>0xFFFFFFULL
    cdef int i, c, d
    while True:
        m = pool
        drawn = 0
        for i in range(k):
            c = pick_bit(r, m)
            drawn |= bit(c)
            m &= ~bit(c)
        lo = drawn & <u64>0xFFFFFFULL
        twice = lo & (drawn >> FACES)
        once = (lo | (drawn >> FACES)) & ~twice
        d = popcount(once & both_held)
        if d == 0 or rng_below(r, 1 << d) == 0:
            return held_copies(pool, once | twice, twice)


cdef i64 random_call(const DkState* s, const DkOpts* o, Rng* r, int bids) noexcept nogil:
    """A random legal action outside the card play: uniform over g_legal's codes (a bid drawn
    by its number among the bids open to the seat, an Armut exchange from armut_pool's
    cards), or with BIDS_CHEAPEST a reservation of healthy or (50:50) the cheapest one open to
    the seat (hochzeit with both club queens, else armut with at most 3 trumps)."""
    cdef i64 buf[MAX_LEGAL]
    cdef int n, k, call, seat = s.to_act, hochzeit, armut
    cdef u64 pool, base
    if s.phase == P_RESERVATION:
        hochzeit = bid_allowed(s, seat, BID_HOCHZEIT)
        armut = bid_allowed(s, seat, BID_ARMUT)
        if bids == BIDS_CHEAPEST and seat != s.forced:     # a Vorfuehrung: any of its solos
            call = BID_HOCHZEIT if hochzeit else (BID_ARMUT if armut else BID_HEALTHY)
            if call != BID_HEALTHY and rng_below(r, 2) == 0:
                call = BID_HEALTHY
            return CALL_BASE + call
        # g_legal's bids, uniformly (healthy, hochzeit and armut where allowed, the seven
        # solos, throw_in and the picture solos under their options)
        n = g_legal(s, o, buf)
        return buf[rng_below(r, n)]
    if s.phase == P_ARMUT_GIVE or s.phase == P_ARMUT_RETURN:
        call = armut_pool(s, &pool, &k, &base)
        return exchange_code(call, base | random_multiset(r, pool, k))
    n = g_legal(s, o, buf)
    return buf[rng_below(r, n)] if n > 1 else buf[0]


cdef inline i64 g_random(const DkState* s, const DkOpts* o, Rng* r, int bids) noexcept nogil:
    """A random legal action. In play: uniform over g_legal's codes (the legal faces and the
    announcement the seat may make), drawn from the legal mask."""
    cdef u64 m, prefix
    cdef int n, k, call
    if s.phase != P_PLAY:
        return random_call(s, o, r, bids)
    m = playable(s)
    prefix = byte_counts(m) * <u64>0x0101010101010101ULL
    n = <int>(prefix >> 56)
    call = next_announcement(s)
    if call >= 0:
        k = rng_below(r, n + 1)          # the announcement is choice n
        if k == n:
            return CALL_BASE + call
    else:
        k = rng_below(r, n) if n > 1 else 0
    return select_bit(m, prefix, k)


# ---- scoring ----
cdef inline bint promise_kept(int level, int opp_points, int opp_tricks) noexcept nogil:
    """A team at `level` >= 2 keeps its promise: opponents below 90/60/30, or no trick."""
    if level == 2:
        return opp_points < 90
    if level == 3:
        return opp_points < 60
    if level == 4:
        return opp_points < 30
    return opp_tricks == 0


cdef int dk_winner(int level_re, int level_kontra, int re_points, int re_tricks,
                   int n_tricks) noexcept nogil:
    """0 (Re), 1 (Kontra) or -1 (nobody) from the final announcement levels (rules 5.2):
    base targets 121/120 (120/121 when only Kontra announced); a team with a promise must keep
    it, and wins with its target or when the opponents broke their own promise."""
    cdef int level[2]
    cdef int points[2]
    cdef int tricks[2]
    cdef int target[2]
    cdef bint promised[2]
    cdef bint kept[2]
    cdef bint wins[2]
    cdef int t
    level[0] = level_re
    level[1] = level_kontra
    points[0] = re_points
    points[1] = 240 - re_points
    tricks[0] = re_tricks
    tricks[1] = n_tricks - re_tricks
    target[0] = 121
    target[1] = 120
    if level_kontra >= 1 and level_re == 0:
        target[0] = 120
        target[1] = 121
    for t in range(2):
        promised[t] = level[t] >= 2
        kept[t] = promised[t] and promise_kept(level[t], points[1 - t], tricks[1 - t])
    for t in range(2):
        wins[t] = ((not promised[t] or kept[t])
                   and (points[t] >= target[t] or (promised[1 - t] and not kept[1 - t])))
    return 0 if wins[0] else (1 if wins[1] else -1)


def winner_of(int level_re, int level_kontra, int re_points, int re_tricks, int n_tricks=12):
    """The winning side ("re", "kontra" or None) for final levels (0 none, 1 re/kontra,
    2 no_90 .. 5 schwarz) and Re's card points and tricks of the deal's `n_tricks`: the rules'
    5.2 as a function."""
    cdef int w = dk_winner(level_re, level_kontra, re_points, re_tricks, n_tricks)
    return TEAM_NAMES[w] if w >= 0 else None


def win_points(Core core, int seat):
    """The fewest card points with which the seat's team wins the deal if no more
    announcements come (rules 5.2 with the levels so far: only Kontra announced moves Re's
    target to 120, a promise to 151/181/211/every trick, an opponent's broken promise lets a
    team win below its target). Read off dk_winner itself, so the rule is written once: the
    bots weigh a card, and an announcement, by the target it plays for. The points count, so a
    team's points of none are read as no trick (schwarz)."""
    cdef const DkState* s = &core.s
    cdef int team = team_of(s, seat)
    cdef int p, re_points, re_tricks
    for p in range(241):
        re_points = p if team == 0 else 240 - p
        re_tricks = 0 if re_points == 0 else (s.n_tricks if re_points == 240 else 6)
        if dk_winner(s.level[0], s.level[1], re_points, re_tricks, s.n_tricks) == team:
            return p
    return None


cdef struct DkTally:          # the intermediate figures of scoring that the result shows
    int team_points[2]        # Re, Kontra
    int team_tricks[2]
    int winner                # 0 Re, 1 Kontra, -1 nobody
    i64 value                 # game value V credited to the winner
    i64 extras[2]


cdef inline void credit(DkTally* t, Result* r, int item, int team, i64 value) noexcept nogil:
    """Book a breakdown item: game value or (from I_DOPPELKOPF on) an extra point; into the
    Result's breakdown when there is one."""
    if item >= I_DOPPELKOPF:
        t.extras[team] += value
    else:
        t.value += value
    if r != NULL:
        add_item(r, item, IF_TEAM | IF_VALUE, team, 0, 0, value, 0, 0)


cdef void tally(const DkState* s, const DkOpts* o, Score* sc, DkTally* t, Result* r) noexcept nogil:
    """Card points, winner, game value, extra points and per-seat scores (rules 5); with a
    Result, the breakdown items in order."""
    cdef int i, p, lvl, w, l, n_re, team, last
    cdef const int8_t* c
    cdef i64 net_re
    cdef int thresholds[5]
    cdef int trick_points[12]
    memset(t, 0, sizeof(DkTally))
    t.winner = -1
    start_score(sc, s, s.contract, s.declarer)
    for i in range(s.trick_no):
        c = s.trick[i]
        trick_points[i] = POINTS[c[0]] + POINTS[c[1]] + POINTS[c[2]] + POINTS[c[3]]
        sc.card_points[s.trick_winner[i]] += trick_points[i]
    if s.redeal or s.phase != P_OVER:
        return
    for i in range(4):
        team = team_of(s, i)
        t.team_points[team] += sc.card_points[i]
        t.team_tricks[team] += s.n_won[i]
    t.winner = dk_winner(s.level[0], s.level[1], t.team_points[0], t.team_tricks[0], s.n_tricks)
    thresholds[2] = 90
    thresholds[3] = 60
    thresholds[4] = 30
    if t.winner >= 0:
        w = t.winner
        l = 1 - w
        credit(t, r, I_WON, w, 1)
        if w == 1 and not solo_scoring(s):
            credit(t, r, I_AGAINST_THE_OLD, w, 1)
        if s.level[0] >= 1:
            credit(t, r, I_RE_ANNOUNCED, w, 2)
        if s.level[1] >= 1:
            credit(t, r, I_KONTRA_ANNOUNCED, w, 2)
        for lvl in range(2, 6):
            if (t.team_tricks[l] == 0) if lvl == 5 else (t.team_points[l] < thresholds[lvl]):
                credit(t, r, I_BELOW_90 + 3 * (lvl - 2), w, 1)
            if s.level[w] >= lvl:
                credit(t, r, I_NO_90_ANNOUNCED + 3 * (lvl - 2), w, 1)
            if s.level[l] >= lvl and ((t.team_tricks[w] > 0) if lvl == 5
                                      else (t.team_points[w] >= thresholds[lvl])):
                credit(t, r, I_NO_90_FAILED_BY_LOSERS + 3 * (lvl - 2), w, 2)
    if not solo_scoring(s):
        for i in range(s.n_tricks):    # trick by trick: a Doppelkopf, then foxes caught
            team = team_of(s, s.trick_winner[i])
            if trick_points[i] >= 40:
                credit(t, r, I_DOPPELKOPF, team, 1)
            for p in range(4):
                if face(s.trick[i][p]) == FACE_AD and team_of(s, (s.trick_leader[i] + p) % 4) != team:
                    credit(t, r, I_FOX_CAUGHT, team, 1)
        last = s.n_tricks - 1          # Karlchen: the JC in the last trick
        team = team_of(s, s.trick_winner[last])
        p = (s.trick_winner[last] - s.trick_leader[last] + 4) % 4
        if face(s.trick[last][p]) == FACE_JC:
            credit(t, r, I_KARLCHEN, team, 1)
        if not o.charlie_only_when_winning:
            for p in range(4):
                if face(s.trick[last][p]) == FACE_JC and team_of(s, (s.trick_leader[last] + p) % 4) != team:
                    credit(t, r, I_KARLCHEN_CAUGHT, team, 1)
    net_re = t.extras[0] - t.extras[1]
    if t.winner == 0:
        net_re += t.value
    elif t.winner == 1:
        net_re -= t.value
    n_re = popcount(<u64>s.re_mask)
    sc.side = s.re_mask
    sc.side_won = t.winner == 0
    sc.side_points = t.team_points[0]
    if n_re == 0:
        return
    net_re *= <i64>1 << o.bock         # each bock round on the deal doubles it (rules 9.1)
    for i in range(4):
        sc.scores[i] = net_re * (4 - n_re) // n_re if team_of(s, i) == 0 else -net_re


cdef inline void g_score(const DkState* s, const DkOpts* o, Score* sc) noexcept nogil:
    cdef DkTally t
    tally(s, o, sc, &t, NULL)


cdef inline int g_stat_contract(const DkState* s, const Score* sc) noexcept nogil:
    return s.contract


# ---- the Result and the contract object ----
cdef void card_list(Result* r, int key, u64 mask) noexcept nogil:
    """A contract field listing the cards of `mask` sorted by their codes' text."""
    cdef int k, f
    contract_field(r, key, V_LIST, popcount(mask))
    for k in range(FACES):
        f = ALPHA[k]
        if mask >> f & 1:
            contract_field(r, key, V_CARD, f)
        if mask >> (f + FACES) & 1:
            contract_field(r, key, V_CARD, f + FACES)


cdef void fill_contract(const DkState* s, Result* r, int viewer) noexcept nogil:
    """The contract object (rules 5.6) as `viewer` knows it (VIEW_ALL: the Result; -1: a
    spectator): a silent solo looks like a normal game to the others until the deal is over.
    The Armut cards are filled in as they are; views and redact_result hide them."""
    cdef bint full = viewer == VIEW_ALL or s.phase == P_OVER
    cdef int kind = s.contract, sas
    if kind == K_SILENT_SOLO and not full and viewer != s.declarer:
        kind = K_NORMAL
    r.score.contract = kind
    r.score.declarer = s.declarer if kind != K_NORMAL else -1
    contract_field(r, W_TRUMPS, V_WORD, W_DIAMONDS + s.solo if s.contract == K_SOLO else W_NORMAL)
    if s.schwein >= 0:
        contract_field(r, W_SCHWEINCHEN, V_INT, s.schwein)
    if s.superschwein >= 0:
        contract_field(r, W_SUPERSCHWEINCHEN, V_INT, s.superschwein)
    if kind == K_SOLO:
        contract_field(r, W_SOLO, V_WORD, W_DIAMONDS + s.solo)
        if s.pflicht >= 0:
            contract_field(r, W_SOLO_KIND, V_WORD, W_PFLICHT if s.pflicht else W_LUST)
    if s.forced >= 0:
        contract_field(r, W_VORFUEHRUNG, V_INT, s.forced)
    elif kind == K_HOCHZEIT:
        contract_field(r, W_PARTNER, V_OPT_INT, s.partner)
        contract_field(r, W_CLARIFIED_IN_TRICK, V_OPT_INT, s.clarified if s.clarified else -1)
    elif kind == K_ARMUT:
        contract_field(r, W_ACCEPTOR, V_OPT_INT, s.acceptor)
        if s.phase != P_ARMUT_GIVE:
            card_list(r, W_GIVEN, s.given)
        else:
            contract_field(r, W_GIVEN, V_NULL, 0)
        if s.returned:
            card_list(r, W_RETURNED, s.returned)
        else:
            contract_field(r, W_RETURNED, V_NULL, 0)
        contract_field(r, W_REDEAL, V_BOOL, s.redeal)
    elif kind == K_THROWN_IN:
        contract_field(r, W_REDEAL, V_BOOL, 1)
    if kind == K_HOCHZEIT and s.clarified == 0:
        sas = -1                 # not decided yet
    elif kind == K_NORMAL:
        sas = 0 if full else -1  # a seat without both club queens cannot tell a silent solo
    else:
        sas = solo_scoring(s)
    contract_field(r, W_SCORED_AS_SOLO, V_OPT_BOOL, sas)


cdef inline void put(Result* r, bint extra, int key, int kind, i64 value) noexcept nogil:
    if extra:
        extra_field(r, key, kind, value)
    else:
        contract_field(r, key, kind, value)


cdef void announcement_fields(const DkState* s, Result* r, bint extra) noexcept nogil:
    """The announcements as a list field: [{seat, team, call, hand_size, trick}]."""
    cdef int k, team, level
    put(r, extra, W_ANNOUNCEMENTS, V_LIST, s.n_ann)
    for k in range(s.n_ann):
        team = team_of(s, s.ann_seat[k])
        level = s.ann_level[k]
        put(r, extra, W_ANNOUNCEMENTS, V_OBJECT, 5)
        put(r, extra, W_SEAT, V_INT, s.ann_seat[k])
        put(r, extra, W_TEAM, V_WORD, W_RE + team)
        put(r, extra, W_CALL, V_WORD, (W_RE + team) if level == 1 else (W_NO_90 + level - 2))
        put(r, extra, W_HAND_SIZE, V_INT, s.ann_hand[k])
        put(r, extra, W_TRICK, V_INT, s.ann_trick[k])


cdef inline void team_pair(Result* r, int key, i64 re, i64 kontra) noexcept nogil:
    extra_field(r, key, V_OBJECT, 2)
    extra_field(r, W_RE, V_INT, re)
    extra_field(r, W_KONTRA, V_INT, kontra)


cdef void g_result(const DkState* s, const DkOpts* o, Result* r) noexcept nogil:
    """The Result (rules 5.6): teams Re then Kontra, the breakdown, and the extra keys winner,
    team_card_points, announcements, game_value, extra_points, next_dealer and
    counts_toward_match (a void Armut: winner, redeal, team_card_points, next_dealer = the
    same dealer, counts_toward_match false)."""
    cdef DkTally t
    cdef bint tie, lost_kontra
    start_result(r)
    tally(s, o, &r.score, &t, r)
    fill_tricks(s, r)
    fill_contract(s, r, VIEW_ALL)
    if s.redeal:
        extra_field(r, W_WINNER, V_WORD, -1)
        extra_field(r, W_REDEAL, V_BOOL, 1)
        team_pair(r, W_TEAM_CARD_POINTS, 0, 0)
        extra_field(r, W_NEXT_DEALER, V_INT, s.dealer)
        extra_field(r, W_COUNTS_TOWARD_MATCH, V_BOOL, 0)
        if o.bockrunden:
            extra_field(r, W_BOCK_TRIGGERS, V_LIST, 0)
        return
    if o.bock and s.phase == P_OVER:
        add_item(r, I_BOCK, IF_COUNT | IF_FACTOR, 0, 0, o.bock, 0, <i64>1 << o.bock, 0)
    r.n_teams = 2
    r.teams[0] = s.re_mask
    r.teams[1] = 15 & ~s.re_mask
    extra_field(r, W_WINNER, V_WORD, (W_RE + t.winner) if t.winner >= 0 else -1)
    team_pair(r, W_TEAM_CARD_POINTS, t.team_points[0], t.team_points[1])
    announcement_fields(s, r, True)
    extra_field(r, W_GAME_VALUE, V_INT, t.value)
    team_pair(r, W_EXTRA_POINTS, t.extras[0], t.extras[1])
    extra_field(r, W_NEXT_DEALER, V_INT, (s.dealer + 1) % 4)
    extra_field(r, W_COUNTS_TOWARD_MATCH, V_BOOL, 1)
    if o.bockrunden:
        # the events that start a bock round after this deal (rules 9.1); the match reads them
        tie = s.phase == P_OVER and t.team_points[0] == 120
        lost_kontra = o.bockrunden == 2 and s.phase == P_OVER and s.level[1] >= 1 and t.winner != 1
        extra_field(r, W_BOCK_TRIGGERS, V_LIST, tie + lost_kontra)
        if tie:
            extra_field(r, W_BOCK_TRIGGERS, V_WORD, W_TIE)
        if lost_kontra:
            extra_field(r, W_BOCK_TRIGGERS, V_WORD, W_LOST_KONTRA)


# ---- solver hooks (_solver.pxi) ----
cdef inline int g_side(const DkState* s, const DkOpts* o) noexcept nogil:
    """The Re party as the position stands (with all hands open: the club queens' holders,
    the soloist, the bride and her partner once found, the poor player and the acceptor)."""
    return s.re_mask


cdef inline int g_points(const DkState* s, const DkOpts* o, int side) noexcept nogil:
    """The side's card points so far: the points of the tricks its seats won."""
    cdef int t, total = 0
    cdef const int8_t* c
    for t in range(s.trick_no):
        if side >> s.trick_winner[t] & 1:
            c = s.trick[t]
            total += POINTS[c[0]] + POINTS[c[1]] + POINTS[c[2]] + POINTS[c[3]]
    return total


cdef inline int g_future_max(const DkState* s, const DkOpts* o) noexcept nogil:
    """The points still to be taken: 240 less those of the completed tricks."""
    return 240 - g_points(s, o, 15)


cdef inline const int8_t* g_point_table(const DkState* s) noexcept nogil:
    return POINTS


cdef inline int g_rule_key(const DkState* s) noexcept nogil:
    """The card play depends on nothing but the cards, the leader and the trick number (the
    second heart ten's last trick), which the cards left determine."""
    return 0


cdef inline u64 g_unmergeable(const DkState* s, const DkOpts* o) noexcept nogil:
    return 0

cdef inline u64 g_odd_cards(const DkState* s, const DkOpts* o) noexcept nogil:
    return 0


cdef inline int g_counted(const DkState* s, int side) noexcept nogil:
    return side


cdef inline bint g_plays_out(const DkState* s) noexcept nogil:
    return True


# ---- explanations: why a well-formed action is not legal (reason id, text) ----
REASONS = {
    "ANSWERS_AN_ARMUT": "accept and decline answer an Armut offer, not the reservation round",
    "HOCHZEIT_NEEDS_BOTH_QUEENS": "a hochzeit needs both club queens in one hand",
    "ARMUT_NEEDS_FEW_TRUMPS": "an armut needs at most 3 trumps (normal order)",
    "THROW_IN_OFF": "throwing in is not part of this ruleset (option throw_in)",
    "THROW_IN_NEEDS_A_BAD_HAND": "a throw-in needs five nines, five kings or no trump above the jacks",
    "PICTURE_SOLOS_OFF": "the picture solos are not part of this ruleset (option picture_solos)",
    "MUST_PLAY_A_SOLO": "in a Vorfuehrung the seat that still owes its Pflichtsolo must declare a solo (option pflichtsolo)",
    "ANSWER_THE_ARMUT": "after the reservations an Armut offer is answered with accept or decline",
    "HOCHZEIT_UNDECIDED": "no announcements while a Hochzeit is undecided",
    "OTHER_TEAMS_CALL": "re is announced by the Re team, kontra by the Kontra team",
    "ALREADY_ANNOUNCED": "the team has already made this announcement",
    "ONE_LEVEL_AT_A_TIME": "announcements go one level at a time",
    "TOO_FEW_CARDS": "the announcement needs more cards in hand",
    "WRONG_EXCHANGE": "the exchange names the other Armut phase's call",
    "THREE_CARDS": "an Armut exchange takes exactly 3 cards",
    "MUST_GIVE_ALL_TRUMPS": "the 3 cards given must contain all the poor player's trumps",
    "MUST_FOLLOW_SUIT": "a player must follow the led class (trump or the plain suit)",
    "NOT_ALLOWED_NOW": "the action is not open to this seat now",
}


def _names_of(Core core, u64 mask):
    return ", ".join(DOPPELKOPF.code(i) for i in core.sort_cards(mask))


def explain(Core core, i64 code):
    if code >= EXCHANGE_BASE:
        return _explain_exchange(core, code)
    if code >= CALL_BASE:
        call = <int>(code - CALL_BASE)
        if CALL_TABLE[call][0] == "announce":
            return _explain_announcement(core, call)
        return _explain_bid(core, call)
    return _explain_play(core, <int>code)


cdef object _explain_bid(Core core, int call):
    cdef DkState* s = &core.s
    cdef int seat = s.to_act
    name = CALL_TABLE[call][1]
    if s.phase == P_RESERVATION:
        if seat == s.forced and solo_of(call) < 0 and call != BID_ACCEPT and call != BID_DECLINE:
            return "MUST_PLAY_A_SOLO", (f"the round's regular deals are over and you still owe your "
                                        f"Pflichtsolo: this deal is your Vorfuehrung, declare a solo "
                                        f"(not {name})")
        if call == BID_ACCEPT or call == BID_DECLINE:
            return "ANSWERS_AN_ARMUT", f"{name} answers an Armut offer; this is the reservation round"
        if call == BID_HOCHZEIT:
            n = popcount(s.hand[seat] & QC_BOTH)
            return "HOCHZEIT_NEEDS_BOTH_QUEENS", f"hochzeit needs both club queens (QC, QC); you hold {n}"
        if call == BID_ARMUT:
            trumps = s.hand[seat] & ORDERS[O_NORMAL].suit_mask[TRUMP]
            return "ARMUT_NEEDS_FEW_TRUMPS", (f"armut needs at most 3 trumps (TH, queens, jacks, diamonds); "
                                              f"you hold {popcount(trumps)}: {_names_of(core, trumps)}")
        if call == BID_SOLO_QUEENS_JACKS or call == BID_SOLO_KINGS:
            return "PICTURE_SOLOS_OFF", (f"{name} is not part of this ruleset (option picture_solos "
                                         f"is off)")
        if call == BID_THROW_IN:
            if not core.o.throw_in:
                return "THROW_IN_OFF", "throw_in is not part of this ruleset (option throw_in is off)"
            return "THROW_IN_NEEDS_A_BAD_HAND", (
                f"throw_in needs five or more nines, five or more kings, or no trump above the jacks "
                f"(no TH, no queen); you hold {rank_count(s.hand[seat], NINE)} nines, "
                f"{rank_count(s.hand[seat], KING)} kings")
    if s.phase == P_ARMUT_OFFER:
        return "ANSWER_THE_ARMUT", (f"the reservations are over: answer seat {s.declarer}'s Armut with "
                                    f"accept or decline")
    return "NOT_ALLOWED_NOW", f"{name} is not allowed now"


cdef object _explain_announcement(Core core, int call):
    cdef DkState* s = &core.s
    cdef int seat = s.to_act, team, level, nxt, need, have
    name = CALL_TABLE[call][1]
    if s.contract == K_HOCHZEIT and s.clarified == 0:
        return "HOCHZEIT_UNDECIDED", ("no announcements while the Hochzeit is undecided (until a player "
                                      "other than the bride wins one of the first three tricks)")
    team = team_of(s, seat)
    level = call_level(call)
    side = TEAM_NAMES[team].capitalize()
    if level == 1 and announce_call(team, 1) != call:
        own = CALL_TABLE[announce_call(team, 1)][1]
        return "OTHER_TEAMS_CALL", f"you play for {side}: your team announces {own}, not {name}"
    nxt = s.level[team] + 1
    if level < nxt:
        return "ALREADY_ANNOUNCED", f"{side} has already announced {name}"
    if level > nxt:
        return "ONE_LEVEL_AT_A_TIME", (f"announcements go one level at a time: {side}'s next is "
                                       f"{CALL_TABLE[announce_call(team, nxt)][1]}")
    need = cards_needed(s, team, level)
    have = popcount(s.hand[seat])
    why = ""
    if level == 1 and s.level[1 - team] >= 1:
        why = f" (a reply: one fewer than {LEVEL_NAMES[s.level[1 - team]]} needs)"
    if s.reduction:
        why += f" (lowered by {s.reduction} in this Hochzeit)"
    return "TOO_FEW_CARDS", f"{name} needs at least {need} cards in hand{why}; you hold {have}"


cdef object _explain_exchange(Core core, i64 code):
    cdef DkState* s = &core.s
    cdef int seat = s.to_act
    cdef u64 mask = exchange_mask(code)
    cdef u64 trumps
    call = EXCHANGES[exchange_call(code)]
    want = EXCHANGES[X_ARMUT_GIVE] if s.phase == P_ARMUT_GIVE else EXCHANGES[X_ARMUT_RETURN]
    if call != want:
        return "WRONG_EXCHANGE", f"this exchange is {want}, not {call}"
    if popcount(mask) != 3:
        return "THREE_CARDS", f"{call} takes exactly 3 cards, got {popcount(mask)}"
    if s.phase == P_ARMUT_GIVE:
        trumps = s.hand[seat] & ORDERS[O_NORMAL].suit_mask[TRUMP]
        return "MUST_GIVE_ALL_TRUMPS", (f"the 3 cards given must contain all your trumps "
                                        f"({_names_of(core, trumps)}); missing "
                                        f"{_names_of(core, canon(trumps & ~mask))}")
    return "NOT_ALLOWED_NOW", f"{call} is not allowed now"


cdef object _explain_play(Core core, int c):
    cdef DkState* s = &core.s
    cdef const Order* o = &ORDERS[s.order]
    cdef int led
    if s.n_in_trick == 0:
        return "NOT_ALLOWED_NOW", f"{DOPPELKOPF.code(c)} is not allowed now"
    led = o.eff_suit[s.trick[s.trick_no][0]]
    if led == TRUMP:
        suit_name = "trump"
    else:
        suit_name = SUIT_NAMES[SUITS[led]]
        if o.eff_suit[FACE_TH] == TRUMP and led == HEARTS:
            suit_name += " (TH is a trump)"
    held = _names_of(core, canon(s.hand[s.to_act] & o.suit_mask[led]))
    return "MUST_FOLLOW_SUIT", f"you must follow {suit_name}: you hold {held}"


# ---- what a seat may see ----
cdef inline bint sees_exchange(const DkState* s, seat):
    """The Armut cards are seen by the poor player and (once he has accepted) the acceptor."""
    return seat is not None and (seat == s.declarer or (s.acceptor >= 0 and seat == s.acceptor))


cdef dict _hide_exchange(const DkState* s, dict contract, seat):
    """The contract with the Armut cards as `seat` sees them ("??" unless he handled them)."""
    if s.contract != K_ARMUT or sees_exchange(s, seat):
        return contract
    contract = dict(contract)
    for key in ("given", "returned"):
        if contract.get(key) is not None:
            contract[key] = [HIDDEN] * len(contract[key])
    return contract


cdef object _contract_view(Core core, seat):
    cdef Result res
    if core.s.contract == K_NONE:
        return None
    start_result(&res)
    fill_contract(&core.s, &res, -1 if seat is None else seat)
    return _hide_exchange(&core.s, render_contract(&res, _NAMES), seat)


cdef list _announcements(const DkState* s):
    cdef Result res
    start_result(&res)
    res.score.contract = K_NONE
    res.score.declarer = -1
    announcement_fields(s, &res, False)
    return render_contract(&res, _NAMES)["announcements"]


cdef list _seats(int m):
    return [i for i in range(4) if m >> i & 1]


cdef bint known_teams(const DkState* s, int seat, int* re, int* ko) noexcept nogil:
    """What `seat` (-1: a spectator) knows of the teams: the seats known to be Re and Kontra
    (masks) and whether the teams are complete. Club-queen teams (normal game, silent solo) are
    known only from one's own hand, club queens played and re/kontra announcements; declared
    teams are public."""
    cdef int k, p, held, located = 0
    cdef u64 played
    re[0] = ko[0] = 0
    if s.contract == K_NONE or s.redeal:
        return False
    if s.phase == P_OVER or s.contract == K_SOLO or (s.contract == K_ARMUT and s.acceptor >= 0) or (
            s.contract == K_HOCHZEIT and s.clarified):
        re[0], ko[0] = s.re_mask, ~s.re_mask & 15
        return True
    if s.contract == K_HOCHZEIT or s.contract == K_ARMUT:    # partner not known yet
        re[0] = 1 << s.declarer
        return False
    if seat >= 0:
        held = popcount(s.dealt[seat] & QC_BOTH)
        located += held
        if held:
            re[0] |= 1 << seat
        else:
            ko[0] |= 1 << seat
    for p in range(4):
        # the club queens p played: its dealt cards no longer in hand (no exchange in these
        # contracts), read from the masks rather than by walking every trick
        played = s.dealt[p] & ~s.hand[p] & QC_BOTH
        if played:
            re[0] |= 1 << p
            if p != seat:
                located += popcount(played)
    for k in range(s.n_ann):
        if team_of(s, s.ann_seat[k]) == 0:
            re[0] |= 1 << s.ann_seat[k]
        else:
            ko[0] |= 1 << s.ann_seat[k]
    if located == 2 or popcount(re[0]) == 2 or popcount(ko[0]) == 3:
        re[0], ko[0] = s.re_mask, ~s.re_mask & 15
        return True
    return False


cdef dict _known_teams(const DkState* s, seat):
    """{"re": seats, "kontra": seats, "complete": bool}: known_teams for `seat` (None: a
    spectator)."""
    cdef int re, ko
    cdef bint complete = known_teams(s, -1 if seat is None else seat, &re, &ko)
    return {"re": _seats(re), "kontra": _seats(ko), "complete": complete}


cdef object _shown_pigs(Core core):
    """The Schweinchen are public once in play (rules 4.1): the holder's AD still in his hand
    (and his 9D when he also has the Superschweinchen) lie open to every seat as `shown`, so that
    a seat's view, and the worlds the bots sample from it, know where they are; None otherwise.
    Superschweinchen in another hand are named by the contract only."""
    cdef DkState* s = &core.s
    cdef u64 m
    if s.schwein < 0 or s.phase != P_PLAY:
        return None
    m = s.hand[s.schwein] & both(FACE_AD)
    if s.superschwein == s.schwein:
        m |= s.hand[s.schwein] & both(card(NINE, DIAMONDS))
    if m == 0:
        return None
    return {"seat": s.schwein, "cards": [DOPPELKOPF.code(c) for c in core.sort_cards(m)]}


def public(Core core, seat):
    """The contract as `seat` knows it, the bids, the teams as far as `seat` can know them, the
    announcements and levels, the trick in play, the tricks, tricks won and hand sizes."""
    cdef DkState* s = &core.s
    cdef int k
    out = {
        "contract": _contract_view(core, seat),
        "bids": [CALL_TABLE[s.bids[k]][1] if s.bids[k] >= 0 else None for k in range(4)],
        "teams": _known_teams(s, seat),
        "announcements": _announcements(s),
        "levels": {"re": s.level[0], "kontra": s.level[1]},
        "trick": {"leader": s.leader,
                  "cards": [DOPPELKOPF.code(s.trick[s.trick_no][k]) for k in range(s.n_in_trick)]}
                 if s.phase == P_PLAY else None,
        "tricks": [[s.trick_leader[t], [DOPPELKOPF.code(s.trick[t][k]) for k in range(4)], s.trick_winner[t]]
                   for t in range(s.trick_no)],
        "tricks_won": [s.n_won[k] for k in range(4)],
        "hand_sizes": [popcount(s.hand[k]) for k in range(4)],
        "shown": _shown_pigs(core),
    }
    if s.contract == K_ARMUT:
        out["armut"] = {"poor": s.declarer, "acceptor": s.acceptor if s.acceptor >= 0 else None}
    return out


def hidden(Core core, seat):
    """The face-down piles `seat` (None: a spectator) cannot see (docs/view-spec: pile, from_seat,
    to_seat, count, action, among): the Armut gift and return for the two players not involved.
    The gift lies set aside until it is accepted, then the acceptor holds it (the poor player
    again when nobody accepts). It holds every trump the poor player had, filled up with his
    non-trumps when he had fewer than three (rules 2.5), so it may be any of his cards: no
    `among`; the replay of the armut bid and the gift keeps only the consistent ones."""
    cdef DkState* s = &core.s
    cdef int back
    if s.contract != K_ARMUT or s.given == 0 or sees_exchange(s, seat):
        return []
    back = s.declarer if s.redeal else -1
    holder = s.acceptor if s.acceptor >= 0 else back
    out = [{"pile": EXCHANGES[X_ARMUT_GIVE], "from_seat": s.declarer,
            "to_seat": holder if holder >= 0 else None, "count": popcount(s.given),
            "action": action_in_phase(core, P_ARMUT_GIVE), "among": None}]
    if s.returned:
        out.append({"pile": EXCHANGES[X_ARMUT_RETURN], "from_seat": s.acceptor, "to_seat": s.declarer,
                    "count": popcount(s.returned), "action": action_in_phase(core, P_ARMUT_RETURN),
                    "among": None})
    return out


def redact(Core core, int index, action, seat):
    """The Armut's exchanged cards are seen only by the poor player and the acceptor, during
    and after the deal; every other action is public."""
    if (not isinstance(action, dict) or action.get("type") != "exchange"
            or sees_exchange(&core.s, seat)):
        return action
    return {**action, "cards": [HIDDEN] * len(action.get("cards", ()))}


def redact_result(Core core, result, seat):
    """The finished deal's Result: the Armut cards stay "??" to all but the poor player and
    the acceptor."""
    contract = result.get("contract")
    hidden = _hide_exchange(&core.s, contract, seat) if contract is not None else None
    if hidden is contract:
        return result
    return {**result, "contract": hidden}


cdef inline void g_sides(const DkState* s, int seat, int* partners, int* opponents) noexcept nogil:
    """(partners, opponents) seat masks as `seat` knows them: the teams as far as the seat can
    know them (club queens held and played, announcements, declared contracts: known_teams)."""
    cdef int re, ko
    cdef bint complete = known_teams(s, seat, &re, &ko)
    partners[0], opponents[0] = 1 << seat, 0
    if re >> seat & 1:
        partners[0] |= re
        opponents[0] |= ko
        if complete:
            opponents[0] = 15 & ~partners[0]
    if ko >> seat & 1:
        partners[0] |= ko
        opponents[0] |= re
        if complete:
            opponents[0] = 15 & ~partners[0]

cdef inline void g_settle(GState* s, const GOpts* o) noexcept nogil:
    """Nothing to settle: the card play has no calls a perfect player always makes."""
    pass

include "../../_engine.pxi"
