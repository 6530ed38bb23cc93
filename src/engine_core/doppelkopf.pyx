# cython: language_level=3
"""Doppelkopf, 4 players, 48 cards (every card twice): rules of ../shared/rules/doppelkopf.md.

Reservations: one bid each from the dealer's left (healthy, hochzeit, armut, seven solos);
the earliest solo wins, else the earliest armut, else the hochzeit, else a normal game (a
silent solo when one seat holds both club queens). Armut: the poor player gives 3 cards
holding all his trumps, the others accept or decline in turn, the acceptor returns any 3;
nobody accepting voids the deal. Hochzeit: the first other player to win one of the first
three tricks is the partner, else the bride plays alone (scored as a solo).
Play: follow the led class (trump or plain suit), nothing else; of two identical cards the
first wins (option: the second heart ten beats the first, except in the last trick).
Announcements (re/kontra, no_90 .. schwarz) on the announcer's turn, one level at a time,
while he holds enough cards. Scoring: winner by targets and promises, game value items,
extra points netted between the teams outside solos, x3 for a lone player, zero-sum.

Both copies of a face share one code: card index = rank + 6 * suit, +24 for the second copy.
Legal play codes and exchange masks name each face once, with the lowest copy held, which is
the copy `Deck.index_in` / `Deck.mask_of(within=hand)` pick when a record is encoded.

Everything per card, trick and deal runs in the `dk_*` functions below (typed, nogil); the
`Core` class is the Python edge used by `engine_core.state.State`.
"""
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint32_t
from ._core cimport (u64, i64, int8_t, Order, Rng, TRUMP, CALL_BASE, EXCHANGE_BASE, MAX_LEGAL,
                     popcount, lowest, bit, follow_mask, mask_points, order_init, exchange_code,
                     shuffle_deck, rng_below, rng_next)
from .playout cimport PlayoutStats, BIDS_CHEAPEST, book_deal, book_side, TRACE_HANDS, TRACE_COUNT, TRACE_CODES, TRACE_SIZE

from .cards import DOPPELKOPF, HIDDEN, SUITS, SUIT_NAMES
from .options import OptionSpec

NAME = "doppelkopf"
SEATS = 4
HAND_SIZE = 12
BLIND_SIZE = 0
DECK = DOPPELKOPF

OPTIONS = (
    OptionSpec("second_heart_ten_beats_first", "bool", False,
               "of two heart tens in a trick the second wins, except in the last trick"),
    OptionSpec("solo_player_leads", "bool", False, "in a declared solo the soloist leads trick 1"),
    OptionSpec("charlie_only_when_winning", "bool", False,
               "only winning the last trick with JC scores (no karlchen_caught)"),
    OptionSpec("deals_per_match", "int", 8, "match length in completed deals", minimum=1,
               status="informational"),
)

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

cdef u64 LOW24 = (<u64>1 << 24) - 1
cdef int8_t POINTS[48]
cdef u64 QC_BOTH = 0
cdef u64 FOX_BOTH = 0             # both aces of diamonds
# card points in bit slices (A 11 = 8+2+1, T 10 = 8+2, K 4, Q 3 = 2+1, J 2): 8s, 4s, 2s, 1s
cdef u64 PTS8 = 0, PTS4 = 0, PTS2 = 0, PTS1 = 0
cdef int8_t FACE_TH = 1 + 6 * 2
cdef int8_t FACE_QC = 3
cdef int8_t FACE_JC = 4
cdef int8_t FACE_AD = 6 * 3

# ---- calls: (type, call, suit); an action code is CALL_BASE + index ----
SOLO_NAMES = ("diamonds", "hearts", "spades", "clubs", "queens", "jacks", "aces")
CALLS = (
    ("bid", "healthy", None), ("bid", "hochzeit", None), ("bid", "armut", None),
    ("bid", "solo_diamonds", None), ("bid", "solo_hearts", None), ("bid", "solo_spades", None),
    ("bid", "solo_clubs", None), ("bid", "solo_queens", None), ("bid", "solo_jacks", None),
    ("bid", "solo_aces", None),
    ("bid", "accept", None), ("bid", "decline", None),
    ("announce", "re", None), ("announce", "kontra", None), ("announce", "no_90", None),
    ("announce", "no_60", None), ("announce", "no_30", None), ("announce", "schwarz", None),
)
EXCHANGES = ("armut_give", "armut_return")

cdef enum:
    C_HEALTHY = 0
    C_HOCHZEIT = 1
    C_ARMUT = 2
    C_SOLO = 3          # + solo type 0..6 (diamonds .. aces)
    C_ACCEPT = 10
    C_DECLINE = 11
    C_RE = 12
    C_KONTRA = 13
    C_NO90 = 14         # no_90, no_60, no_30, schwarz: levels 2..5
    X_GIVE = 0
    X_RETURN = 1

cdef enum:
    K_NONE = 0
    K_NORMAL = 1
    K_SILENT = 2
    K_HOCHZEIT = 3
    K_ARMUT = 4
    K_SOLO = 5

CONTRACT_NAMES = ("none", "normal", "silent_solo", "hochzeit", "armut", "solo")

cdef enum:
    P_RESERVE = 0
    P_GIVE = 1
    P_OFFER = 2
    P_RETURN = 3
    P_PLAY = 4
    P_OVER = 5

PHASE_NAMES = ("reservation", "armut_give", "armut_offer", "armut_return", "play", "over")
LEVEL_NAMES = ("", "re/kontra", "no_90", "no_60", "no_30", "schwarz")
TEAM_NAMES = ("re", "kontra")

# orders: index = solo type; 0 (diamonds) is also the normal game's order
cdef Order ORDERS[7]
cdef int8_t DISPLAY[7][48]     # per order: every card, trumps first then C S H D, highest first
# per order and led class (C S H D, TRUMP): how strongly each card bids for the trick, 0 when
# it cannot win it (a trump: 64 + power; a card of the led suit: its power; else 0)
cdef uint8_t KEY[7][5][48]
cdef enum:
    O_NORMAL = 0
    O_QUEENS = 4
    O_JACKS = 5
    O_ACES = 6

# breakdown items
cdef enum:
    I_WON = 0
    I_AGAINST_THE_OLD = 1
    I_RE_ANNOUNCED = 2
    I_KONTRA_ANNOUNCED = 3
    I_BELOW = 4         # 4 + 3 * (level - 2): below_90/60/30, schwarz
    I_ANNOUNCED = 5     # 5 + 3 * (level - 2): no_90_announced ...
    I_FAILED = 6        # 6 + 3 * (level - 2): no_90_failed_by_losers ...
    I_DOPPELKOPF = 16     # items from here on are extra points
    I_FOX_CAUGHT = 17
    I_KARLCHEN = 18
    I_KARLCHEN_CAUGHT = 19

ITEM_NAMES = ("won", "against_the_old", "re_announced", "kontra_announced",
              "below_90", "no_90_announced", "no_90_failed_by_losers",
              "below_60", "no_60_announced", "no_60_failed_by_losers",
              "below_30", "no_30_announced", "no_30_failed_by_losers",
              "schwarz", "schwarz_announced", "schwarz_failed_by_losers",
              "doppelkopf", "fox_caught", "karlchen", "karlchen_caught")


cdef inline u64 byte_counts(u64 x) noexcept nogil:
    """The number of set bits of x in each byte."""
    x = x - ((x >> 1) & <u64>0x5555555555555555ULL)
    x = (x & <u64>0x3333333333333333ULL) + ((x >> 2) & <u64>0x3333333333333333ULL)
    return (x + (x >> 4)) & <u64>0x0F0F0F0F0F0F0F0FULL


cdef inline int points_of(u64 m) noexcept nogil:
    """Card points of a set of cards, branch-free: the weighted bit counts of the point
    slices per byte (at most 120 a byte), summed across the bytes (at most 240 in all)."""
    cdef u64 x = ((byte_counts(m & PTS8) << 3) + (byte_counts(m & PTS4) << 2)
                  + (byte_counts(m & PTS2) << 1) + byte_counts(m & PTS1))
    return <int>((x * <u64>0x0101010101010101ULL) >> 56)


cdef inline int card(int rank, int suit) noexcept nogil:
    return rank + 6 * suit


cdef inline int face(int c) noexcept nogil:
    return c - FACES if c >= FACES else c


cdef inline u64 both(int f) noexcept nogil:
    return bit(f) | bit(f + FACES)


cdef inline u64 canon(u64 m) noexcept nogil:
    """Each face of `m` once: the first copy where held, else the second."""
    cdef u64 lo = m & LOW24
    return lo | (m & ~(lo << FACES) & (LOW24 << FACES))


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
    cdef int t, s, n, i, r
    cdef int8_t suit_of_solo[4]
    suit_of_solo[0] = DIAMONDS
    suit_of_solo[1] = HEARTS
    suit_of_solo[2] = SPADES
    suit_of_solo[3] = CLUBS
    for i in range(48):
        POINTS[i] = (11, 10, 4, 3, 2, 0)[(i % FACES) % 6]
    QC_BOTH = both(card(QUEEN, CLUBS))
    global FOX_BOTH, PTS8, PTS4, PTS2, PTS1
    FOX_BOTH = both(card(ACE, DIAMONDS))
    for i in range(48):
        if POINTS[i] & 8:
            PTS8 |= bit(i)
        if POINTS[i] & 4:
            PTS4 |= bit(i)
        if POINTS[i] & 2:
            PTS2 |= bit(i)
        if POINTS[i] & 1:
            PTS1 |= bit(i)
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
    for t, r in ((O_QUEENS, QUEEN), (O_JACKS, JACK)):
        order_init(&ORDERS[t])
        for s in range(4):
            trumps[s] = card(r, s)
        add_trumps(&ORDERS[t], trumps, 4)
        add_plain(&ORDERS[t])
    order_init(&ORDERS[O_ACES])
    add_plain(&ORDERS[O_ACES])

_build_tables()


cdef void _build_keys():
    cdef int t, e, c
    for t in range(7):
        for e in range(5):
            for c in range(48):
                if ORDERS[t].eff_suit[c] == TRUMP:
                    KEY[t][e][c] = 64 + ORDERS[t].power[c]
                elif ORDERS[t].eff_suit[c] == e:
                    KEY[t][e][c] = ORDERS[t].power[c]
                else:
                    KEY[t][e][c] = 0

_build_keys()


cdef void _build_display():
    cdef int t, k
    cdef const Order* o
    for t in range(7):
        o = &ORDERS[t]
        keyed = sorted((0 if o.eff_suit[c] == TRUMP else 1 + o.eff_suit[c], -o.power[c], c % FACES, c)
                       for c in range(48))
        for k in range(48):
            DISPLAY[t][k] = keyed[k][3]

_build_display()


# ---- the deal ------------------------------------------------------------------------------
def deal_hands(order, int dealer):
    """Packets of 3, 4 rounds: packet k (deck cards 3k..3k+2) to seat (dealer + 1 + k) % 4."""
    hands = [[] for _ in range(4)]
    for k in range(16):
        hands[(dealer + 1 + k) % 4].extend(order[3 * k:3 * k + 3])
    return hands, []


cdef void dk_deal(Rng* r, int dealer, u64* hands) noexcept nogil:
    cdef int8_t deck[48]
    cdef int k, i
    shuffle_deck(r, deck, 48)
    for i in range(4):
        hands[i] = 0
    for k in range(16):
        for i in range(3):
            hands[(dealer + 1 + k) % 4] |= bit(deck[3 * k + i])


def validate_options(options):
    """No cross-option constraints in Doppelkopf."""


# ---- state machine -------------------------------------------------------------------------
cdef inline int team_of(const DkState* s, int seat) noexcept nogil:
    """0 = Re, 1 = Kontra (the final teams once known)."""
    return 0 if (s.re_mask >> seat) & 1 else 1


cdef inline int normal_trumps(u64 hand) noexcept nogil:
    return popcount(hand & ORDERS[O_NORMAL].suit_mask[TRUMP])


cdef inline int announce_call(int team, int level) noexcept nogil:
    if level == 1:
        return C_RE if team == 0 else C_KONTRA
    return C_NO90 + level - 2


cdef inline int call_level(int call) noexcept nogil:
    if call == C_RE or call == C_KONTRA:
        return 1
    return call - C_NO90 + 2


cdef inline int cards_needed(const DkState* s, int team, int level) noexcept nogil:
    """Cards an announcement of `level` needs (rules 4.5): 12 - level, one fewer for a
    re/kontra that answers the opponents' highest announcement, lowered in a Hochzeit."""
    cdef int opp = s.level[1 - team]
    if level == 1 and opp >= 1:
        return 12 - opp - s.reduction - 1
    return 12 - level - s.reduction


cdef int dk_next_announcement(const DkState* s, int seat) noexcept nogil:
    """The announcement call `seat` may make now, or -1 (rules 4.5)."""
    cdef int team, level
    if s.phase != P_PLAY or seat != s.to_act:
        return -1
    if s.contract == K_HOCHZEIT and s.clarified == 0:
        return -1
    team = team_of(s, seat)
    level = s.level[team] + 1
    if level > 5:
        return -1
    if popcount(s.hand[seat]) < cards_needed(s, team, level):
        return -1
    return announce_call(team, level)


cdef void dk_init(DkState* s, const u64* hands, int dealer) noexcept nogil:
    memset(s, 0, sizeof(DkState))
    cdef int i
    for i in range(4):
        s.hand[i] = hands[i]
        s.dealt[i] = hands[i]
        s.bids[i] = -1
    s.dealer = dealer
    s.to_act = (dealer + 1) % 4
    s.phase = P_RESERVE
    s.contract = K_NONE
    s.solo = -1
    s.order = O_NORMAL
    s.declarer = -1
    s.partner = -1
    s.acceptor = -1
    s.leader = s.to_act


cdef u64 dk_legal_play(const DkState* s) noexcept nogil:
    """Legal cards of the seat to act, each face once (rules 4.2); 0 outside the play."""
    if s.phase != P_PLAY:
        return 0
    cdef u64 hand = s.hand[s.to_act]
    if s.n_in_trick == 0:
        return canon(hand)
    cdef const Order* o = &ORDERS[s.order]
    return canon(follow_mask(o, hand, o.eff_suit[s.trick[s.trick_no][0]]))


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


cdef inline bint bid_allowed(const DkState* s, int seat, int call) noexcept nogil:
    if call == C_HOCHZEIT:
        return (s.hand[seat] & QC_BOTH) == QC_BOTH
    if call == C_ARMUT:
        return normal_trumps(s.hand[seat]) <= 3
    return call == C_HEALTHY or (call >= C_SOLO and call < C_SOLO + 7)


cdef int dk_legal(const DkState* s, const DkOpts* o, i64* out) noexcept nogil:
    cdef int n = 0, call, seat = s.to_act, k, c
    cdef u64 m, trumps
    if s.phase == P_PLAY:
        call = dk_next_announcement(s, seat)
        if call >= 0:
            out[n] = CALL_BASE + call
            n += 1
        m = dk_legal_play(s)
        k = 0
        while m:                       # in display order: trumps first, highest first
            c = DISPLAY[s.order][k]
            k += 1
            if (m >> c) & 1:
                out[n] = c
                n += 1
                m &= ~bit(c)
    elif s.phase == P_RESERVE:
        for call in range(C_SOLO + 7):
            if bid_allowed(s, seat, call):
                out[n] = CALL_BASE + call
                n += 1
    elif s.phase == P_GIVE:
        trumps = s.hand[seat] & ORDERS[O_NORMAL].suit_mask[TRUMP]
        n = enum_multisets(s.hand[seat] & ~trumps, 3 - popcount(trumps), trumps, X_GIVE, out, 0)
    elif s.phase == P_OFFER:
        out[0] = CALL_BASE + C_ACCEPT
        out[1] = CALL_BASE + C_DECLINE
        n = 2
    elif s.phase == P_RETURN:
        n = enum_multisets(s.hand[seat], 3, 0, X_RETURN, out, 0)
    return n


cdef void start_play(DkState* s, const DkOpts* o) noexcept nogil:
    s.phase = P_PLAY
    s.n_spoken = 0
    s.leader = (s.dealer + 1) % 4
    if s.contract == K_SOLO and o.solo_player_leads:
        s.leader = s.declarer
    s.to_act = s.leader


cdef void resolve_reservations(DkState* s, const DkOpts* o) noexcept nogil:
    """Solo > armut > hochzeit, ties to the earlier bidder; else normal or silent solo."""
    cdef int first = (s.dealer + 1) % 4, i, p, b
    cdef int solo_seat = -1, armut_seat = -1, bride = -1
    for i in range(4):
        p = (first + i) % 4
        b = s.bids[p]
        if b >= C_SOLO and b < C_SOLO + 7 and solo_seat < 0:
            solo_seat = p
        elif b == C_ARMUT and armut_seat < 0:
            armut_seat = p
        elif b == C_HOCHZEIT and bride < 0:
            bride = p
    if solo_seat >= 0:
        s.contract = K_SOLO
        s.declarer = solo_seat
        s.solo = s.bids[solo_seat] - C_SOLO
        s.order = s.solo
        s.re_mask = 1 << solo_seat
        start_play(s, o)
    elif armut_seat >= 0:
        s.contract = K_ARMUT
        s.declarer = armut_seat
        s.phase = P_GIVE
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
                s.contract = K_SILENT
                s.declarer = p
            if s.hand[p] & QC_BOTH:
                s.re_mask |= 1 << p
        start_play(s, o)


cdef inline int dk_trick_winner_pos(const DkState* s, const DkOpts* opts) noexcept nogil:
    """Highest trump, else highest card of the led suit; of identical cards the first wins,
    except two trump heart tens under the option, outside the last trick (rules 4.3)."""
    cdef const int8_t* cards = s.trick[s.trick_no]
    cdef const uint8_t* key = KEY[s.order][ORDERS[s.order].eff_suit[cards[0]]]
    cdef int best = 0, best_v = key[cards[0]]
    cdef int i, v
    if opts.second_heart_ten and s.trick_no < 11 and ORDERS[s.order].eff_suit[FACE_TH] == TRUMP:
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


cdef void dk_apply(DkState* s, const DkOpts* o, i64 code) noexcept nogil:
    """Apply a legal action code (legality is the caller's check)."""
    cdef int seat = s.to_act, call
    cdef u64 mask
    if code >= EXCHANGE_BASE:
        mask = (<u64>code) >> 8
        s.hand[seat] &= ~mask
        if s.phase == P_GIVE:
            s.given = mask
            s.phase = P_OFFER
            s.n_spoken = 0
            s.to_act = (seat + 1) % 4
        else:
            s.returned = mask
            s.hand[s.declarer] |= mask
            start_play(s, o)
        return
    if code >= CALL_BASE:
        call = <int>(code - CALL_BASE)
        if s.phase == P_RESERVE:
            s.bids[seat] = call
            s.n_spoken += 1
            s.to_act = (seat + 1) % 4
            if s.n_spoken == 4:
                resolve_reservations(s, o)
        elif s.phase == P_OFFER:
            if call == C_ACCEPT:
                s.acceptor = seat
                s.hand[seat] |= s.given
                s.re_mask = (1 << s.declarer) | (1 << seat)
                s.phase = P_RETURN
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
        return
    play_card(s, o, <int>code)


cdef inline void announce(DkState* s, int seat, int call) noexcept nogil:
    """Record an announcement (legality is the caller's check)."""
    cdef int t = team_of(s, seat)
    s.level[t] = call_level(call)
    s.ann_seat[s.n_ann] = seat
    s.ann_level[s.n_ann] = s.level[t]
    s.ann_hand[s.n_ann] = popcount(s.hand[seat])
    s.ann_trick[s.n_ann] = s.trick_no + 1
    s.n_ann += 1


cdef inline void play_card(DkState* s, const DkOpts* o, int c) noexcept nogil:
    """Play card index `c` for the seat to act; the fourth card closes the trick."""
    cdef int seat = s.to_act
    s.hand[seat] &= ~bit(c)
    s.trick[s.trick_no][s.n_in_trick] = <int8_t>c
    s.n_in_trick += 1
    if s.n_in_trick < 4:
        s.to_act = (seat + 1) & 3
        return
    close_trick(s, o)


cdef inline void close_trick(DkState* s, const DkOpts* o) noexcept nogil:
    """The fourth card is down: the winner takes the trick and leads (Hochzeit: it may find
    the partner); after trick 12 the deal is over."""
    cdef int pos, winner
    cdef const int8_t* cards
    pos = dk_trick_winner_pos(s, o)
    winner = (s.leader + pos) & 3
    cards = s.trick[s.trick_no]
    s.trick_leader[s.trick_no] = s.leader
    s.trick_winner[s.trick_no] = winner
    s.won[winner] |= bit(cards[0]) | bit(cards[1]) | bit(cards[2]) | bit(cards[3])
    s.n_won[winner] += 1
    if s.contract == K_HOCHZEIT and s.clarified == 0:
        if winner != s.declarer:
            s.partner = winner
            s.re_mask |= 1 << winner
            s.clarified = s.trick_no + 1
            s.reduction = s.trick_no + 1
        elif s.trick_no == 2:          # no partner after three tricks: the bride plays alone
            s.clarified = 3
            s.reduction = 3
    s.trick_no += 1
    s.n_in_trick = 0
    s.leader = winner
    s.to_act = winner
    if s.trick_no == 12:
        s.phase = P_OVER
        s.to_act = -1


cdef void dk_random_playout(DkState* s, const DkOpts* o, Rng* r) noexcept nogil:
    """Play uniformly random legal actions to the end of the deal (benchmarks, search)."""
    cdef i64 buf[MAX_LEGAL]
    cdef int n, call, k
    cdef u64 m
    while s.phase != P_OVER:
        if s.phase == P_PLAY:          # the hot path: straight from the legal mask
            m = dk_legal_play(s)
            call = dk_next_announcement(s, s.to_act)
            n = popcount(m)
            k = rng_below(r, n + (call >= 0))
            if k == n:
                dk_apply(s, o, CALL_BASE + call)
            else:
                while k:
                    m &= m - 1
                    k -= 1
                dk_apply(s, o, lowest(m))
        else:
            n = dk_legal(s, o, buf)
            dk_apply(s, o, buf[rng_below(r, n)])


# ---- random playouts (engine_core.batch) ----------------------------------------------------
cdef inline void trace_code(i64* trace, i64 code) noexcept nogil:
    if trace != NULL and trace[TRACE_COUNT] < TRACE_SIZE - TRACE_CODES:
        trace[TRACE_CODES + trace[TRACE_COUNT]] = code
        trace[TRACE_COUNT] += 1


cdef uint8_t SELECT[256][8]       # SELECT[byte][k]: position of the byte's k-th set bit


cdef void _build_select():
    cdef int b, k, i
    for b in range(256):
        k = 0
        for i in range(8):
            if b >> i & 1:
                SELECT[b][k] = i
                k += 1

_build_select()

cdef enum:
    ONES8 = 0x0101010101010101
    HIGH8 = 0x8080808080808080


cdef inline u64 byte_prefix_counts(u64 x) noexcept nogil:
    """Byte i of the result: the number of set bits of x in bytes 0..i (byte 7: all of them)."""
    return byte_counts(x) * <u64>ONES8


cdef inline int select_bit(u64 m, u64 prefix, int k) noexcept nogil:
    """Index of the k-th (from 0) set bit of m, prefix = byte_prefix_counts(m); branch-free:
    the byte holding it is the first whose prefix count exceeds k (the counts are below 65,
    so the bytewise subtraction never borrows), then a table lookup within the byte."""
    cdef u64 over = ((prefix | <u64>HIGH8) - <u64>(k + 1) * <u64>ONES8) & <u64>HIGH8
    cdef int shift = lowest(over) - 7            # 8 * byte index
    cdef int before = <int>(((prefix << 8) >> shift) & 0xFF)
    return shift + SELECT[(m >> shift) & 0xFF][k - before]


cdef inline uint32_t below32(Rng* r, uint32_t x, uint32_t n) noexcept nogil:
    """Unbiased integer in [0, n) from the 32 random bits `x` (Lemire's multiply-shift, with
    rejection drawing fresh bits from `r`): one SplitMix64 output serves two draws."""
    cdef u64 m = <u64>x * n
    cdef uint32_t t
    if <uint32_t>m < n:
        t = (<uint32_t>(-n)) % n
        while <uint32_t>m < t:
            m = (rng_next(r) >> 32) * n
    return <uint32_t>(m >> 32)


cdef inline void playout_deal(Rng* r, u64* hands) noexcept nogil:
    """A uniformly random deal: Fisher-Yates from the top over the 48 cards, each card going
    to its seat (12 consecutive deck positions per seat) as soon as its position is final."""
    cdef int8_t deck[48]
    cdef int8_t t
    cdef u64 x = 0
    cdef int i, j
    for i in range(48):
        deck[i] = <int8_t>i
    hands[0] = hands[1] = hands[2] = hands[3] = 0
    for i in range(47, 0, -1):
        if i & 1:
            x = rng_next(r)
            j = below32(r, <uint32_t>(x >> 32), i + 1)
        else:
            j = below32(r, <uint32_t>x, i + 1)
        t = deck[j]
        deck[j] = deck[i]
        deck[i] = t
        hands[i // 12] |= bit(t)
    hands[0] |= bit(deck[0])


cdef inline void place_card(DkState* s, int c) noexcept nogil:
    """play_card for the first three cards of a trick (the caller closes it)."""
    cdef int seat = s.to_act
    s.hand[seat] &= ~bit(c)
    s.trick[s.trick_no][s.n_in_trick] = <int8_t>c
    s.n_in_trick += 1
    s.to_act = (seat + 1) & 3


cdef inline int announcers(const DkState* s) noexcept nogil:
    """Bit t set: team t (0 Re, 1 Kontra) may make its next announcement in this trick
    (dk_next_announcement; every hand holds 12 - trick_no cards at its turn)."""
    cdef int t, level, out = 0
    if s.contract == K_HOCHZEIT and s.clarified == 0:
        return 0
    for t in range(2):
        level = s.level[t] + 1
        if level <= 5 and 12 - s.trick_no >= cards_needed(s, t, level):
            out |= 1 << t
    return out


cdef inline int choose_card(DkState* s, Rng* r, u64 m, int* ann, i64* trace,
                            int* n_calls) noexcept nogil:
    """The seat to act picks uniformly among its legal faces `m` and the announcement its
    team may make now (`ann`: announcers()), which it makes and then chooses again; returns
    the card."""
    cdef u64 prefix = byte_prefix_counts(m)
    cdef int n = <int>(prefix >> 56), k, seat = s.to_act, team, call
    team = ((s.re_mask >> seat) & 1) ^ 1
    while (ann[0] >> team) & 1:
        k = rng_below(r, n + 1)         # the announcement is choice n
        if k < n:
            return trace_card(trace, select_bit(m, prefix, k))
        call = announce_call(team, s.level[team] + 1)
        trace_code(trace, CALL_BASE + call)
        announce(s, seat, call)
        n_calls[0] += 1
        ann[0] = announcers(s)
    k = rng_below(r, n) if n > 1 else 0
    return trace_card(trace, select_bit(m, prefix, k))


cdef inline int trace_card(i64* trace, int c) noexcept nogil:
    trace_code(trace, c)
    return c


cdef void dk_playout(Rng* r, int dealer, int bids, const DkOpts* o, PlayoutStats* st,
                     i64* trace) noexcept nogil:
    """Deal, then random legal actions; score; add the deal to `st` (declaring side: Re).
    Reservations: BIDS_UNIFORM, uniform among the seat's legal bids (mostly solos);
    BIDS_CHEAPEST, healthy or (50:50) the cheapest reservation open to the seat (hochzeit with
    both club queens, else armut with at most 3 trumps; no declared solos: mostly normal games,
    the shape of the C yardstick's deals). Then Armut exchanges and answers uniform over the
    legal codes, and in play a uniform choice among the legal faces plus the one announcement
    the seat may make, if any: the same choices as `dk_legal` + a uniform pick, drawn directly
    from masks. With a `trace` (TRACE_* layout of playout.pxd), record the hands and every
    action code."""
    cdef DkState s
    cdef DkScore sc
    cdef u64 hands[4]
    cdef i64 buf[MAX_LEGAL]
    cdef int8_t calls[10]
    cdef const Order* order
    cdef u64 hand, m, follow            # follow: the led class's cards
    cdef i64 code
    cdef int i, n, k, c, ann, n_calls = 0
    playout_deal(r, hands)
    dk_init(&s, hands, dealer)
    if trace != NULL:
        for i in range(4):
            trace[TRACE_HANDS + i] = <i64>hands[i]
        trace[TRACE_COUNT] = 0
    # reservations: healthy, hochzeit (both club queens), armut (at most 3 trumps), 7 solos
    while s.phase == P_RESERVE:
        hand = s.hand[s.to_act]
        n = 0
        calls[n] = C_HEALTHY
        n += 1
        if (hand & QC_BOTH) == QC_BOTH:
            calls[n] = C_HOCHZEIT
            n += 1
        if normal_trumps(hand) <= 3:
            calls[n] = C_ARMUT
            n += 1
        if bids == BIDS_CHEAPEST:       # healthy, or 50:50 the cheapest reservation open
            c = C_HEALTHY if n == 1 or rng_below(r, 2) == 0 else calls[1]
        else:
            k = rng_below(r, n + 7)
            c = calls[k] if k < n else C_SOLO + k - n
        trace_code(trace, CALL_BASE + c)
        dk_apply(&s, o, CALL_BASE + c)
        n_calls += 1
    # Armut (rare): the exchanges and answers straight from the generic enumeration
    while s.phase == P_GIVE or s.phase == P_OFFER or s.phase == P_RETURN:
        n = dk_legal(&s, o, buf)
        code = buf[rng_below(r, n)] if n > 1 else buf[0]
        trace_code(trace, code)
        dk_apply(&s, o, code)
        n_calls += 1
    # the play, trick by trick: the legal faces from the led class's mask, and before each
    # card the one announcement the seat may make, if any
    order = &ORDERS[s.order]
    while s.phase == P_PLAY:
        ann = announcers(&s)
        c = choose_card(&s, r, canon(s.hand[s.to_act]), &ann, trace, &n_calls)
        follow = order.suit_mask[order.eff_suit[c]]
        place_card(&s, c)
        for i in range(3):
            hand = s.hand[s.to_act]
            m = hand & follow
            m |= hand & (<u64>0 - <u64>(m == 0))          # follow if you can, else anything
            c = choose_card(&s, r, canon(m), &ann, trace, &n_calls)
            place_card(&s, c)
        close_trick(&s, o)
    st.cards += 4 * s.trick_no
    st.calls += n_calls
    dk_score(&s, o, &sc)
    book_deal(st, s.contract, sc.scores, sc.card_points, 4, s.trick_no != 0)
    if s.trick_no:
        book_side(st, sc.winner == 0, sc.team_points[0], True)


# ---- scoring -------------------------------------------------------------------------------
cdef inline bint promise_kept(int level, int opp_points, int opp_tricks) noexcept nogil:
    """A team at `level` >= 2 keeps its promise: opponents below 90/60/30, or no trick."""
    if level == 2:
        return opp_points < 90
    if level == 3:
        return opp_points < 60
    if level == 4:
        return opp_points < 30
    return opp_tricks == 0


cdef int dk_winner(int level_re, int level_kontra, int re_points, int re_tricks) noexcept nogil:
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
    tricks[1] = 12 - re_tricks
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


def winner_of(int level_re, int level_kontra, int re_points, int re_tricks):
    """The winning side ("re", "kontra" or None) for final levels (0 none, 1 re/kontra,
    2 no_90 .. 5 schwarz) and Re's card points and tricks: the rules' 5.2 as a function."""
    cdef int w = dk_winner(level_re, level_kontra, re_points, re_tricks)
    return TEAM_NAMES[w] if w >= 0 else None


cdef inline void add_item(DkScore* r, int item, int team, int value) noexcept nogil:
    r.item[r.n_items] = item
    r.item_team[r.n_items] = team
    r.item_value[r.n_items] = value
    r.n_items += 1


cdef void dk_score(const DkState* s, const DkOpts* o, DkScore* r) noexcept nogil:
    """Card points, winner, game value, extra points and per-seat scores (rules 5)."""
    memset(r, 0, sizeof(DkScore))
    r.winner = -1
    cdef int i, t, p, lvl, w, l, n_re, team
    cdef u64 tm
    cdef int thresholds[5]
    for i in range(4):
        r.card_points[i] = points_of(s.won[i])
    if s.redeal or s.phase != P_OVER:
        return
    r.solo_scoring = (s.contract == K_SOLO or s.contract == K_SILENT
                      or (s.contract == K_HOCHZEIT and s.partner < 0))
    for i in range(4):
        t = team_of(s, i)
        r.team_points[t] += r.card_points[i]
        r.team_tricks[t] += s.n_won[i]
    r.winner = dk_winner(s.level[0], s.level[1], r.team_points[0], r.team_tricks[0])
    thresholds[2] = 90
    thresholds[3] = 60
    thresholds[4] = 30
    if r.winner >= 0:
        w = r.winner
        l = 1 - w
        add_item(r, I_WON, w, 1)
        if w == 1 and not r.solo_scoring:
            add_item(r, I_AGAINST_THE_OLD, w, 1)
        if s.level[0] >= 1:
            add_item(r, I_RE_ANNOUNCED, w, 2)
        if s.level[1] >= 1:
            add_item(r, I_KONTRA_ANNOUNCED, w, 2)
        for lvl in range(2, 6):
            if (r.team_tricks[l] == 0) if lvl == 5 else (r.team_points[l] < thresholds[lvl]):
                add_item(r, I_BELOW + 3 * (lvl - 2), w, 1)
            if s.level[w] >= lvl:
                add_item(r, I_ANNOUNCED + 3 * (lvl - 2), w, 1)
            if s.level[l] >= lvl and ((r.team_tricks[w] > 0) if lvl == 5
                                      else (r.team_points[w] >= thresholds[lvl])):
                add_item(r, I_FAILED + 3 * (lvl - 2), w, 2)
        for i in range(r.n_items):
            r.value += r.item_value[i]
    if not r.solo_scoring:
        for t in range(12):            # trick by trick: a Doppelkopf, then foxes caught
            team = team_of(s, s.trick_winner[t])
            tm = bit(s.trick[t][0]) | bit(s.trick[t][1]) | bit(s.trick[t][2]) | bit(s.trick[t][3])
            if points_of(tm) >= 40:
                add_item(r, I_DOPPELKOPF, team, 1)
            if tm & FOX_BOTH:
                for i in range(4):
                    p = (s.trick_leader[t] + i) % 4
                    if face(s.trick[t][i]) == FACE_AD and team_of(s, p) != team:
                        add_item(r, I_FOX_CAUGHT, team, 1)
        team = team_of(s, s.trick_winner[11])
        i = (s.trick_winner[11] - s.trick_leader[11] + 4) % 4
        if face(s.trick[11][i]) == FACE_JC:
            add_item(r, I_KARLCHEN, team, 1)
        if not o.charlie_only_when_winning:
            for i in range(4):
                p = (s.trick_leader[11] + i) % 4
                if face(s.trick[11][i]) == FACE_JC and team_of(s, p) != team:
                    add_item(r, I_KARLCHEN_CAUGHT, team, 1)
        for i in range(r.n_items):
            if r.item[i] >= I_DOPPELKOPF:
                r.extras[r.item_team[i]] += r.item_value[i]
    r.net_re = r.extras[0] - r.extras[1]
    if r.winner == 0:
        r.net_re += r.value
    elif r.winner == 1:
        r.net_re -= r.value
    n_re = popcount(<u64>s.re_mask)
    for i in range(4):
        r.scores[i] = r.net_re * (4 - n_re) // n_re if team_of(s, i) == 0 else -r.net_re


# ---- Python edge ---------------------------------------------------------------------------
cdef int dk_opts(object options, DkOpts* out) except -1:
    """The C options of a resolved `Options` (Core and batch playouts share this mapping)."""
    memset(out, 0, sizeof(DkOpts))
    out.second_heart_ten = options.second_heart_ten_beats_first
    out.solo_player_leads = options.solo_player_leads
    out.charlie_only_when_winning = options.charlie_only_when_winning
    return 0


def _codes(u64 mask):
    return sorted(DECK.code(i) for i in range(48) if mask >> i & 1)


def _seats(int m):
    return [i for i in range(4) if m >> i & 1]


cdef class Core:
    """One Doppelkopf deal as C state. The fast step API (legal codes or a card mask, apply,
    copy, undo) works on integer codes; `engine_core.state.State` wraps it for records."""

    cdef DkState s
    cdef DkOpts o
    cdef DkState hist[DK_MAX_ACTIONS]
    cdef int n_hist

    def __init__(self, options, hands, int dealer, blind=0):
        cdef u64 h[4]
        cdef int i
        dk_opts(options, &self.o)
        for i in range(4):
            h[i] = hands[i]
        dk_init(&self.s, h, dealer)
        self.n_hist = 0

    cpdef Core copy(self):
        cdef Core c = Core.__new__(Core)
        c.s = self.s
        c.o = self.o
        c.n_hist = self.n_hist
        memcpy(c.hist, self.hist, self.n_hist * sizeof(DkState))
        return c

    cpdef int to_act(self):
        return self.s.to_act

    cpdef bint is_over(self):
        return self.s.phase == P_OVER

    def phase(self):
        return PHASE_NAMES[self.s.phase]

    cpdef u64 hand(self, int seat):
        return self.s.hand[seat]

    cpdef u64 legal_mask(self):
        """Legal cards as a mask, each face once (0 outside the play phase)."""
        return dk_legal_play(&self.s)

    cpdef list legal_codes(self):
        cdef i64 buf[MAX_LEGAL]
        cdef int n = dk_legal(&self.s, &self.o, buf)
        return [buf[i] for i in range(n)]

    cpdef bint is_legal(self, i64 code):
        cdef i64 buf[MAX_LEGAL]
        cdef int n, i
        if self.s.phase == P_PLAY and 0 <= code < CALL_BASE:
            return (dk_legal_play(&self.s) >> code) & 1
        n = dk_legal(&self.s, &self.o, buf)
        for i in range(n):
            if buf[i] == code:
                return True
        return False

    cpdef apply(self, i64 code):
        """Apply a legal code; ValueError (state unchanged) if it is not legal."""
        if not self.is_legal(code):
            raise ValueError(f"action code {code} is not legal now")
        self.hist[self.n_hist] = self.s
        self.n_hist += 1
        dk_apply(&self.s, &self.o, code)

    cpdef undo(self):
        if self.n_hist == 0:
            raise ValueError("nothing to undo")
        self.n_hist -= 1
        self.s = self.hist[self.n_hist]

    def sort_cards(self, u64 mask):
        """Trumps first (highest first) in the order of the contract in force (the normal
        order until a solo is declared), then the plain suits C S H D, each highest first."""
        cdef int k
        return [DISPLAY[self.s.order][k] for k in range(48) if mask >> DISPLAY[self.s.order][k] & 1]

    def phase_kinds(self):
        """Action types this phase knows, legal now or not: announcements belong to the play
        phase even when none is allowed, so a refused one gets its precise reason."""
        return {P_RESERVE: ("bid",), P_GIVE: ("exchange",), P_OFFER: ("bid",),
                P_RETURN: ("exchange",), P_PLAY: ("announce", "play"), P_OVER: ()}[self.s.phase]

    # ---- explanations: why a well-formed action is not legal ----
    def _trump_names(self, u64 mask):
        return ", ".join(DECK.code(i) for i in self.sort_cards(mask))

    def explain(self, i64 code):
        cdef DkState* s = &self.s
        cdef int seat = s.to_act
        if code >= EXCHANGE_BASE:
            return self._explain_exchange(code)
        if code >= CALL_BASE:
            call = <int>(code - CALL_BASE)
            if CALLS[call][0] == "announce":
                return self._explain_announcement(call)
            return self._explain_bid(call)
        return self._explain_play(<int>code)

    def _explain_bid(self, int call):
        cdef DkState* s = &self.s
        cdef int seat = s.to_act
        name = CALLS[call][1]
        if s.phase == P_RESERVE:
            if call == C_ACCEPT or call == C_DECLINE:
                return f"{name} answers an Armut offer; this is the reservation round"
            if call == C_HOCHZEIT:
                n = popcount(s.hand[seat] & QC_BOTH)
                return f"hochzeit needs both club queens (QC, QC); you hold {n}"
            if call == C_ARMUT:
                trumps = s.hand[seat] & ORDERS[O_NORMAL].suit_mask[TRUMP]
                return (f"armut needs at most 3 trumps (TH, queens, jacks, diamonds); you hold "
                        f"{popcount(trumps)}: {self._trump_names(trumps)}")
        if s.phase == P_OFFER:
            return (f"the reservations are over: answer seat {s.declarer}'s Armut with accept "
                    f"or decline")
        return f"{name} is not allowed now"

    def _explain_announcement(self, int call):
        cdef DkState* s = &self.s
        cdef int seat = s.to_act, team, level, nxt, need, have
        name = CALLS[call][1]
        if s.contract == K_HOCHZEIT and s.clarified == 0:
            return ("no announcements while the Hochzeit is undecided (until a player other than "
                    "the bride wins one of the first three tricks)")
        team = team_of(s, seat)
        level = call_level(call)
        if level == 1 and announce_call(team, 1) != call:
            own = CALLS[announce_call(team, 1)][1]
            return f"you play for {TEAM_NAMES[team].capitalize()}: your team announces {own}, not {name}"
        nxt = s.level[team] + 1
        if level < nxt:
            return f"{TEAM_NAMES[team].capitalize()} has already announced {name}"
        if level > nxt:
            return (f"announcements go one level at a time: {TEAM_NAMES[team].capitalize()}'s "
                    f"next is {CALLS[announce_call(team, nxt)][1]}")
        need = cards_needed(s, team, level)
        have = popcount(s.hand[seat])
        why = ""
        if level == 1 and s.level[1 - team] >= 1:
            why = (f" (a reply: one fewer than {LEVEL_NAMES[s.level[1 - team]]} needs)")
        if s.reduction:
            why += f" (lowered by {s.reduction} in this Hochzeit)"
        return f"{name} needs at least {need} cards in hand{why}; you hold {have}"

    def _explain_exchange(self, i64 code):
        cdef DkState* s = &self.s
        cdef int seat = s.to_act
        cdef u64 mask = (<u64>code) >> 8
        cdef u64 trumps
        call = EXCHANGES[(code & 0xFF) - EXCHANGE_BASE]
        want = EXCHANGES[X_GIVE] if s.phase == P_GIVE else EXCHANGES[X_RETURN]
        if call != want:
            return f"this exchange is {want}, not {call}"
        if popcount(mask) != 3:
            return f"{call} takes exactly 3 cards, got {popcount(mask)}"
        if s.phase == P_GIVE:
            trumps = s.hand[seat] & ORDERS[O_NORMAL].suit_mask[TRUMP]
            missing = canon(trumps & ~mask)
            return (f"the 3 cards given must contain all your trumps ({self._trump_names(trumps)}); "
                    f"missing {self._trump_names(missing)}")
        return f"{call} is not allowed now"

    def _explain_play(self, int c):
        cdef DkState* s = &self.s
        cdef const Order* o = &ORDERS[s.order]
        cdef int seat = s.to_act, led
        cdef u64 hand = s.hand[seat]
        led = o.eff_suit[s.trick[s.trick_no][0]]
        if led == TRUMP:
            suit_name = "trump"
        else:
            suit_name = SUIT_NAMES[SUITS[led]]
            if o.eff_suit[FACE_TH] == TRUMP and led == HEARTS:
                suit_name += " (TH is a trump)"
        held = ", ".join(DECK.code(i) for i in self.sort_cards(canon(hand & o.suit_mask[led])))
        return f"you must follow {suit_name}: you hold {held}"

    # ---- what a seat may see ----
    def _solo_scoring(self):
        cdef DkState* s = &self.s
        return (s.contract == K_SOLO or s.contract == K_SILENT
                or (s.contract == K_HOCHZEIT and s.clarified > 0 and s.partner < 0))

    def _contract(self, int viewer):
        """The contract as `viewer` knows it (-1: everything, as in the result)."""
        cdef DkState* s = &self.s
        if s.contract == K_NONE:
            return None
        kind = s.contract
        if kind == K_SILENT and viewer >= 0 and viewer != s.declarer and s.phase != P_OVER:
            kind = K_NORMAL       # hidden in play: looks like a normal game
        out = {"type": CONTRACT_NAMES[kind],
               "declarer": s.declarer if kind != K_NORMAL and s.declarer >= 0 else None,
               "trumps": SOLO_NAMES[s.solo] if s.contract == K_SOLO else "normal"}
        if kind == K_SOLO:
            out["solo"] = SOLO_NAMES[s.solo]
        if kind == K_HOCHZEIT:
            out["partner"] = s.partner if s.partner >= 0 else None
            out["clarified_in_trick"] = s.clarified if s.clarified else None
        if kind == K_ARMUT:
            sees = viewer < 0 or s.phase == P_OVER or viewer == s.declarer or viewer == s.acceptor
            out["acceptor"] = s.acceptor if s.acceptor >= 0 else None
            out["given"] = _codes(s.given) if sees and s.phase != P_GIVE else None
            out["returned"] = _codes(s.returned) if sees and s.returned else None
            out["redeal"] = bool(s.redeal)
        if kind == K_HOCHZEIT and s.clarified == 0:
            out["scored_as_solo"] = None      # not decided yet
        elif kind == K_NORMAL:
            # a seat without both club queens cannot tell a normal game from a silent solo
            out["scored_as_solo"] = False if viewer < 0 or s.phase == P_OVER else None
        else:
            out["scored_as_solo"] = bool(self._solo_scoring())
        return out

    def _tricks(self):
        cdef DkState* s = &self.s
        return [[s.trick_leader[t], [DECK.code(s.trick[t][k]) for k in range(4)], s.trick_winner[t]]
                for t in range(s.trick_no)]

    def _announcements(self):
        cdef DkState* s = &self.s
        out = []
        for k in range(s.n_ann):
            seat = s.ann_seat[k]
            team = team_of(s, seat)
            out.append({"seat": seat, "team": TEAM_NAMES[team],
                        "call": CALLS[announce_call(team, s.ann_level[k])][1],
                        "hand_size": s.ann_hand[k], "trick": s.ann_trick[k]})
        return out

    def known_teams(self, int viewer):
        """{"re": seats, "kontra": seats, "complete": bool}: what `viewer` knows of the teams.
        Club-queen teams (normal game, silent solo) are known only from one's own hand, club
        queens played and re/kontra announcements; declared teams are public."""
        cdef DkState* s = &self.s
        cdef int t, k, p
        if s.contract == K_NONE or s.redeal:
            return {"re": [], "kontra": [], "complete": False}
        if s.phase == P_OVER or s.contract == K_SOLO or (s.contract == K_ARMUT and s.acceptor >= 0) or (
                s.contract == K_HOCHZEIT and s.clarified):
            return {"re": _seats(s.re_mask), "kontra": _seats(~s.re_mask & 15), "complete": True}
        if s.contract == K_HOCHZEIT or s.contract == K_ARMUT:    # partner not known yet
            return {"re": [s.declarer], "kontra": [], "complete": False}
        re, ko = set(), set()
        located = 0
        if 0 <= viewer < 4:
            held = popcount(s.dealt[viewer] & QC_BOTH)
            located += held
            (re if held else ko).add(viewer)
        for t in range(s.trick_no + 1):
            for k in range(4 if t < s.trick_no else s.n_in_trick):
                p = (s.trick_leader[t] if t < s.trick_no else s.leader) + k
                p %= 4
                if face(s.trick[t][k]) == FACE_QC:
                    re.add(p)
                    if p != viewer:
                        located += 1
        for a in self._announcements():
            (re if a["team"] == "re" else ko).add(a["seat"])
        if located == 2 or len(re) == 2 or len(ko) == 3:
            return {"re": _seats(s.re_mask), "kontra": _seats(~s.re_mask & 15), "complete": True}
        return {"re": sorted(re), "kontra": sorted(ko), "complete": False}

    def public(self, int seat):
        cdef DkState* s = &self.s
        cdef int k
        out = {
            "contract": self._contract(seat),
            "bids": [CALLS[s.bids[k]][1] if s.bids[k] >= 0 else None for k in range(4)],
            "teams": self.known_teams(seat),
            "announcements": self._announcements(),
            "levels": {"re": s.level[0], "kontra": s.level[1]},
            "trick": {"leader": s.leader,
                      "cards": [DECK.code(s.trick[s.trick_no][k]) for k in range(s.n_in_trick)]}
                     if s.phase == P_PLAY else None,
            "tricks": self._tricks(),
            "tricks_won": [s.n_won[k] for k in range(4)],
            "hand_sizes": [popcount(s.hand[k]) for k in range(4)],
        }
        if s.contract == K_ARMUT:
            out["armut"] = {"poor": s.declarer, "acceptor": s.acceptor if s.acceptor >= 0 else None}
        if s.phase == P_OVER:
            out["result"] = self.result()
        return out

    def redact(self, int index, action, int seat):
        """Armut's exchanged cards are seen only by the giver and the taker (until the deal
        is over, when the result shows them); every other action is public."""
        cdef DkState* s = &self.s
        if (not isinstance(action, dict) or action.get("type") != "exchange"
                or s.phase == P_OVER or seat == s.declarer or seat == s.acceptor):
            return action
        return {**action, "cards": [HIDDEN] * len(action.get("cards", ()))}

    def result(self):
        cdef DkState* s = &self.s
        cdef DkScore r
        cdef int i
        if s.phase != P_OVER:
            return None
        dk_score(s, &self.o, &r)
        points = [r.card_points[i] for i in range(4)]
        scores = [r.scores[i] for i in range(4)]
        out = {"contract": self._contract(-1)}
        if s.redeal:
            out.update(teams=[], tricks=[], card_points=points, scores=scores, breakdown=[],
                       winner=None, redeal=True, team_card_points={"re": 0, "kontra": 0},
                       next_dealer=s.dealer, counts_toward_match=False)
            return out
        breakdown = [{"item": ITEM_NAMES[r.item[i]], "team": r.item_team[i], "value": r.item_value[i]}
                     for i in range(r.n_items)]
        out.update(teams=[_seats(s.re_mask), _seats(~s.re_mask & 15)], tricks=self._tricks(),
                   card_points=points, scores=scores, breakdown=breakdown,
                   winner=TEAM_NAMES[r.winner] if r.winner >= 0 else None,
                   team_card_points={"re": r.team_points[0], "kontra": r.team_points[1]},
                   announcements=self._announcements(),
                   game_value=r.value, extra_points={"re": r.extras[0], "kontra": r.extras[1]},
                   next_dealer=(s.dealer + 1) % 4, counts_toward_match=True)
        return out


def random_deals(int n, unsigned long long seed, options=None):
    """Play `n` seeded deals with uniformly random legal actions entirely in C (nogil);
    returns the sum of |score| over all seats and deals (a checksum). For benchmarks."""
    cdef DkOpts o
    cdef DkState s
    cdef DkScore r
    cdef Rng rng
    cdef u64 hands[4]
    cdef long long total = 0
    cdef int k, i
    memset(&o, 0, sizeof(DkOpts))
    if options is not None:
        dk_opts(options, &o)
    rng.s = seed
    with nogil:
        for k in range(n):
            dk_deal(&rng, k % 4, hands)
            dk_init(&s, hands, k % 4)
            dk_random_playout(&s, &o, &rng)
            dk_score(&s, &o, &r)
            for i in range(4):
                total += r.scores[i] if r.scores[i] > 0 else -r.scores[i]
    return total


def deal_masks(unsigned long long seed, int dealer):
    """The four hand masks of a seeded deal as the nogil `dk_deal` makes them (same packets
    and shuffle as `Game.deal`; which copy of a doubled card a seat gets may differ)."""
    cdef Rng rng
    cdef u64 hands[4]
    rng.s = seed
    dk_deal(&rng, dealer, hands)
    return [hands[i] for i in range(4)]


def next_deal(result, int dealer):
    """The match loop's step after a deal (rules 1.4): a void Armut is redealt by the same
    dealer and does not count toward `deals_per_match`; otherwise the deal passes left."""
    return {"dealer": result["next_dealer"], "counts": result["counts_toward_match"]}
