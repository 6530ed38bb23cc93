# cython: language_level=3
"""Schafkopf (Bavarian), 4 players, 32 cards: rules of ../shared/rules/schafkopf.md.

Auction: one round from forehand, each seat passes or names a strictly higher complete
contract (rufspiel < wenz < farbsolo < wenz_tout < solo_tout < sie); a Sie ends the deal at
once. All pass: thrown in, or Ramsch with option `ramsch`. Option `kontra` adds a Kontra round
(defenders) and, after a kontra, a Re round (playing side), each doubling.
Play: follow the led effective suit, no duty to trump; a Rufspiel partner is bound by the
called ace until its suit is first led (must play it then; may lead the suit without it only
with 4+ cards; may not discard it before the 8th trick). A Tout ends at the first trick the
declarer loses.
Scoring: 61 wins (60:60 loses); Laufende from 3 (2 in Wenz) mit or ohne; schneider (<= 30,
or the official 91/90) and schwarz; Tout doubles base and Laufende; Sie = 4 x solo tariff;
Ramsch: most points pays, Jungfrau doubles, Durchmarsch takes the solo tariff.

Everything per card, trick and deal runs in the `sk_*` functions below (typed, nogil); the
`Core` class is the Python edge used by `engine_core.state.State`. `sk_result` decides a
finished deal's Result (teams, winners, breakdown items) once, for `Core.result()` here and for
the fast text writer of `schafkopf_records` (records in, results out, fast).
"""
from libc.string cimport memcpy, memset
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from ._core cimport (u64, i64, int8_t, Order, Rng, TRUMP, CALL_BASE, MAX_LEGAL, popcount,
                     lowest, bit, pick_bit, rng_below, follow_mask, trick_winner_pos, mask_points, order_init,
                     order_add_trumps, order_add_plain, shuffle_deck)

from .playout cimport PlayoutStats, BIDS_CHEAPEST, book_deal, book_side, TRACE_HANDS, TRACE_COUNT, TRACE_CODES

from .cards import PIQUET, SUITS, SUIT_NAMES
from .errors import OptionError
from .options import OptionSpec

NAME = "schafkopf"
SEATS = 4
HAND_SIZE = 8
BLIND_SIZE = 0
DECK = PIQUET
cdef tuple CODES = PIQUET.faces    # card index -> code, for the hot result() path
cdef tuple CARD_INTS = tuple(range(64))

OPTIONS = (
    OptionSpec("tariff_rufspiel", "int", 10, "base of a Rufspiel; also the Ramsch base", minimum=1),
    OptionSpec("tariff_solo", "int", 50, "base of Wenz, Farbsolo and Tout; Sie = 4x; Durchmarsch", minimum=1),
    OptionSpec("tariff_increment", "int", 10, "per Laufender, schneider and schwarz", minimum=1),
    OptionSpec("ramsch", "bool", False, "all pass: Ramsch instead of a thrown-in deal"),
    OptionSpec("kontra", "bool", False, "Kontra/Re announcement rounds, x2 each"),
    OptionSpec("schneider_rule", "choice", "seed",
               "'seed': losers with 30 or fewer; 'official': 91 / 90 asymmetric", allowed=("seed", "official")),
    OptionSpec("deals_per_match", "int", 32, "match length in deals", minimum=1, status="informational"),
    OptionSpec("klopfen", "bool", False, "doubling by knocking (not part of this ruleset)", status="listed_only"),
    OptionSpec("geier", "bool", False, "Ober-only solo (not part of this ruleset)", status="listed_only"),
    OptionSpec("farbwenz", "bool", False, "Wenz with a trump suit (not part of this ruleset)", status="listed_only"),
    OptionSpec("bettel", "bool", False, "misere contract (not part of this ruleset)", status="listed_only"),
    OptionSpec("leaster", "bool", False, "Ramsch variant (not part of this ruleset)", status="listed_only"),
    OptionSpec("caller_keeps_called_suit", "bool", False,
               "caller must keep a called-suit card (not part of this ruleset)", status="listed_only"),
)

# ---- card indices: rank + 8 * suit, ranks A T K Q J 9 8 7, suits C S H D ----
cdef enum:
    ACE = 0
    TEN = 1
    KING = 2
    OBER = 3
    UNTER = 4
    NINE = 5
    EIGHT = 6
    SEVEN = 7
    HEARTS = 2

cdef int8_t POINTS[32]
cdef u64 OBERS_UNTERS = 0

# ---- calls: (type, call, suit); an action code is CALL_BASE + index ----
CALLS = (
    ("bid", "pass", None),
    ("bid", "rufspiel", "C"), ("bid", "rufspiel", "S"), ("bid", "rufspiel", "H"), ("bid", "rufspiel", "D"),
    ("bid", "wenz", None),
    ("bid", "farbsolo", "C"), ("bid", "farbsolo", "S"), ("bid", "farbsolo", "H"), ("bid", "farbsolo", "D"),
    ("bid", "wenz_tout", None),
    ("bid", "solo_tout", "C"), ("bid", "solo_tout", "S"), ("bid", "solo_tout", "H"), ("bid", "solo_tout", "D"),
    ("bid", "sie", None),
    ("announce", "pass", None), ("announce", "kontra", None), ("announce", "re", None),
)
EXCHANGES = ()

cdef enum:
    C_PASS = 0
    C_RUF = 1         # + suit
    C_WENZ = 5
    C_FARBSOLO = 6    # + suit
    C_WENZ_TOUT = 10
    C_SOLO_TOUT = 11  # + suit
    C_SIE = 15
    C_ANN_PASS = 16
    C_KONTRA = 17
    C_RE = 18

# contract types (K_*) and phases (P_*) are enums of schafkopf.pxd (batch code needs them)
CONTRACT_NAMES = ("none", "rufspiel", "wenz", "farbsolo", "wenz_tout", "solo_tout", "sie", "ramsch", "thrown_in")

PHASE_NAMES = ("auction", "kontra", "re", "play", "over")

# orders: 0..3 = Farbsolo/Solo-Tout with that trump suit (hearts = Rufspiel and Ramsch), 4 = Wenz
cdef Order ORDERS[5]
cdef enum:
    O_WENZ = 4


cdef inline int card(int rank, int suit) noexcept nogil:
    return rank + 8 * suit


cdef void _build_tables():
    global OBERS_UNTERS
    cdef int8_t trumps[14]
    cdef int8_t plain[7]
    cdef int8_t ranks_plain[6]
    cdef int8_t ranks_wenz[7]
    cdef int s, t, i, n
    for i, r in enumerate((ACE, TEN, KING, NINE, EIGHT, SEVEN)):
        ranks_plain[i] = r
    for i, r in enumerate((ACE, TEN, KING, OBER, NINE, EIGHT, SEVEN)):
        ranks_wenz[i] = r
    for i in range(32):
        POINTS[i] = (11, 10, 4, 3, 2, 0, 0, 0)[i % 8]
    for s in range(4):
        OBERS_UNTERS |= bit(card(OBER, s)) | bit(card(UNTER, s))
    for t in range(4):           # suit solos (hearts: Rufspiel, Ramsch)
        order_init(&ORDERS[t])
        n = 0
        for s in range(4):
            trumps[n] = card(OBER, s); n += 1
        for s in range(4):
            trumps[n] = card(UNTER, s); n += 1
        for i in range(6):
            trumps[n] = card(ranks_plain[i], t); n += 1
        order_add_trumps(&ORDERS[t], trumps, n)
        for s in range(4):
            if s != t:
                for i in range(6):
                    plain[i] = card(ranks_plain[i], s)
                order_add_plain(&ORDERS[t], s, plain, 6)
    order_init(&ORDERS[O_WENZ])
    for s in range(4):
        trumps[s] = card(UNTER, s)
    order_add_trumps(&ORDERS[O_WENZ], trumps, 4)
    for s in range(4):
        for i in range(7):
            plain[i] = card(ranks_wenz[i], s)
        order_add_plain(&ORDERS[O_WENZ], s, plain, 7)

_build_tables()


# ---- the deal ------------------------------------------------------------------------------
def deal_hands(order, int dealer):
    """Packet k of 4 (deck cards 4k..4k+3) goes to seat (dealer + 1 + k) % 4 (rules 1.2)."""
    hands = [[] for _ in range(4)]
    for k in range(8):
        hands[(dealer + 1 + k) % 4].extend(order[4 * k:4 * k + 4])
    return hands, []


cdef void sk_deal(Rng* r, int dealer, u64* hands) noexcept nogil:
    cdef int8_t deck[32]
    cdef int k, i
    shuffle_deck(r, deck, 32)
    for i in range(4):
        hands[i] = 0
    for k in range(8):
        for i in range(4):
            hands[(dealer + 1 + k) % 4] |= bit(deck[4 * k + i])


def validate_options(options):
    """No cross-option constraints in Schafkopf."""


# ---- state machine -------------------------------------------------------------------------
cdef inline int call_rank(int call) noexcept nogil:
    if call >= C_RUF and call < C_WENZ:
        return K_RUFSPIEL
    if call == C_WENZ:
        return K_WENZ
    if call >= C_FARBSOLO and call < C_WENZ_TOUT:
        return K_FARBSOLO
    if call == C_WENZ_TOUT:
        return K_WENZ_TOUT
    if call >= C_SOLO_TOUT and call < C_SIE:
        return K_SOLO_TOUT
    if call == C_SIE:
        return K_SIE
    return K_NONE


cdef inline bint is_tout(int contract) noexcept nogil:
    return contract == K_WENZ_TOUT or contract == K_SOLO_TOUT


cdef inline bint on_playing_side(const SkState* s, int seat) noexcept nogil:
    return seat == s.declarer or seat == s.partner


cdef inline bint can_call_ace(u64 hand, int suit) noexcept nogil:
    """Rufspiel on `suit` (not hearts): a non-trump card of the suit, but not its ace (2.3)."""
    return (suit != HEARTS and (hand & ORDERS[HEARTS].suit_mask[suit]) != 0
            and not (hand & bit(card(ACE, suit))))


cdef void sk_init(SkState* s, const u64* hands, int dealer) noexcept nogil:
    memset(s, 0, sizeof(SkState))
    cdef int i
    for i in range(4):
        s.hand[i] = hands[i]
        s.dealt[i] = hands[i]
    s.dealer = dealer
    s.to_act = (dealer + 1) % 4
    s.phase = P_AUCTION
    s.best_call = -1
    s.best_seat = -1
    s.contract = K_NONE
    s.suit = -1
    s.declarer = -1
    s.partner = -1
    s.order = HEARTS
    s.kontra = -1
    s.re = -1
    s.leader = s.to_act


cdef inline bint bound(const SkState* s, int seat) noexcept nogil:
    """The Rufspiel partner's duties last until the called suit has first been led."""
    return s.contract == K_RUFSPIEL and seat == s.partner and not s.called_led


cdef u64 sk_legal_play(const SkState* s) noexcept nogil:
    """Legal cards of the seat to act (rules 4.3); 0 outside the play phase."""
    if s.phase != P_PLAY:
        return 0
    return legal_play(s)


cdef inline u64 legal_play(const SkState* s) noexcept nogil:
    """sk_legal_play in the play phase (inlined into the playout loop)."""
    cdef int seat = s.to_act
    cdef u64 hand = s.hand[seat]
    cdef const Order* o = &ORDERS[s.order]
    cdef u64 ace, called, m
    cdef int led
    cdef bint b = bound(s, seat)
    if b:
        ace = bit(card(ACE, s.suit))
        called = o.suit_mask[s.suit]
    if s.n_in_trick == 0:
        if b and popcount(hand & called) < 4:
            return hand & ~(called & ~ace)
        return hand
    led = o.eff_suit[s.trick[s.trick_no][0]]
    m = hand & o.suit_mask[led]
    if m:
        if b and led == s.suit:
            return ace
        return m
    if b and s.trick_no < 7:
        return hand & ~ace
    return hand


# the first call number of each auction rank above K_*: FIRST_CALL_ABOVE[best rank so far]
cdef int FIRST_CALL_ABOVE[7]
FIRST_CALL_ABOVE[:] = [C_RUF, C_WENZ, C_FARBSOLO, C_WENZ_TOUT, C_SOLO_TOUT, C_SIE, C_SIE + 1]


cdef int sk_legal(const SkState* s, const SkOpts* o, i64* out) noexcept nogil:
    cdef int n = 0, call, seat = s.to_act
    cdef u64 m, hand
    if s.phase == P_PLAY:
        m = sk_legal_play(s)
        while m:
            out[n] = lowest(m)
            n += 1
            m &= m - 1
    elif s.phase == P_AUCTION:
        out[0] = CALL_BASE + C_PASS
        n = 1
        hand = s.hand[seat]
        # calls are numbered by rank: start at the first one that outbids the best so far
        call = FIRST_CALL_ABOVE[call_rank(s.best_call) if s.best_call >= 0 else K_NONE]
        while call <= C_SIE:
            if call < C_WENZ:
                if not can_call_ace(hand, call - C_RUF):
                    call += 1
                    continue
            elif call == C_SIE and (hand & OBERS_UNTERS) != OBERS_UNTERS:
                break
            out[n] = CALL_BASE + call
            n += 1
            call += 1
    elif s.phase == P_KONTRA:
        out[0] = CALL_BASE + C_ANN_PASS
        n = 1
        if s.kontra < 0 and not on_playing_side(s, seat):
            out[1] = CALL_BASE + C_KONTRA
            n = 2
    elif s.phase == P_RE:
        out[0] = CALL_BASE + C_ANN_PASS
        n = 1
        if s.re < 0 and on_playing_side(s, seat):
            out[1] = CALL_BASE + C_RE
            n = 2
    return n


cdef void start_play(SkState* s) noexcept nogil:
    s.phase = P_PLAY
    s.to_act = (s.dealer + 1) % 4
    s.leader = s.to_act
    s.n_spoken = 0


cdef void settle_auction(SkState* s, const SkOpts* o) noexcept nogil:
    cdef int call = s.best_call, i
    if call < 0:
        if o.ramsch:
            s.contract = K_RAMSCH
            s.order = HEARTS
            start_play(s)
        else:
            s.contract = K_THROWN_IN
            s.phase = P_OVER
            s.to_act = -1
        return
    s.contract = call_rank(call)
    s.declarer = s.best_seat
    if s.contract == K_RUFSPIEL:
        s.suit = call - C_RUF
        s.order = HEARTS
        for i in range(4):
            if s.dealt[i] & bit(card(ACE, s.suit)):
                s.partner = i
    elif s.contract == K_FARBSOLO or s.contract == K_SOLO_TOUT:
        s.suit = (call - C_FARBSOLO) if s.contract == K_FARBSOLO else (call - C_SOLO_TOUT)
        s.order = s.suit
    else:
        s.order = O_WENZ
    if o.kontra:
        s.phase = P_KONTRA
        s.to_act = (s.dealer + 1) % 4
        s.n_spoken = 0
    else:
        start_play(s)


cdef inline void play_card(SkState* s, int code) noexcept nogil:
    """The card branch of sk_apply (inlined into the playout loop)."""
    cdef int seat = s.to_act, pos, winner
    cdef const Order* order
    s.hand[seat] &= ~bit(code)
    s.trick[s.trick_no][s.n_in_trick] = <int8_t>code
    s.n_in_trick += 1
    if s.n_in_trick < 4:
        s.to_act = (seat + 1) % 4
        return
    order = &ORDERS[s.order]
    pos = trick_winner_pos(order, s.trick[s.trick_no], 4)
    winner = (s.leader + pos) % 4
    s.trick_leader[s.trick_no] = s.leader
    s.trick_winner[s.trick_no] = winner
    for pos in range(4):
        s.won[winner] |= bit(s.trick[s.trick_no][pos])
    s.n_won[winner] += 1
    if s.contract == K_RUFSPIEL and order.eff_suit[s.trick[s.trick_no][0]] == s.suit:
        s.called_led = 1
    s.trick_no += 1
    s.n_in_trick = 0
    s.leader = winner
    s.to_act = winner
    if s.trick_no == 8 or (is_tout(s.contract) and winner != s.declarer):
        s.phase = P_OVER
        s.to_act = -1


cdef void sk_apply(SkState* s, const SkOpts* o, i64 code) noexcept nogil:
    """Apply a legal action code (legality is the caller's check)."""
    cdef int seat = s.to_act, call
    if code < CALL_BASE:
        play_card(s, <int>code)
        return
    call = <int>(code - CALL_BASE)
    if s.phase == P_AUCTION:
        if call != C_PASS:
            s.best_call = call
            s.best_seat = seat
            if call == C_SIE:
                s.contract = K_SIE
                s.declarer = seat
                s.phase = P_OVER
                s.to_act = -1
                return
        s.n_spoken += 1
        s.to_act = (seat + 1) % 4
        if s.n_spoken == 4:
            settle_auction(s, o)
        return
    if call == C_KONTRA:
        s.kontra = seat
    elif call == C_RE:
        s.re = seat
    s.n_spoken += 1
    s.to_act = (seat + 1) % 4
    if s.n_spoken == 4:
        if s.phase == P_KONTRA and s.kontra >= 0:
            s.phase = P_RE
            s.n_spoken = 0
        else:
            start_play(s)


cdef inline bint code_legal(const SkState* s, const SkOpts* o, i64 code) noexcept nogil:
    """Whether an action code is legal for the seat to act now."""
    cdef i64 buf[64]
    cdef int n, i
    if 0 <= code < CALL_BASE:
        return s.phase == P_PLAY and (legal_play(s) >> code) & 1
    if s.phase == P_PLAY or s.phase == P_OVER:
        return False
    n = sk_legal(s, o, buf)
    for i in range(n):
        if buf[i] == code:
            return True
    return False


cdef int sk_replay(SkState* s, const SkOpts* o, const int8_t* seats, const i64* codes,
                   int n) noexcept nogil:
    """Apply actions (seat, code) in order while each is that seat's legal move; the number
    applied (n when all were). The replay of the fast record paths (schafkopf_records)."""
    cdef int i
    cdef i64 code
    for i in range(n):
        if s.phase == P_OVER or seats[i] != s.to_act:
            return i
        code = codes[i]
        if code < CALL_BASE:                    # code_legal and sk_apply for a card, inlined
            if s.phase != P_PLAY or not (legal_play(s) >> code) & 1:
                return i
            play_card(s, <int>code)
        elif code_legal(s, o, code):
            sk_apply(s, o, code)
        else:
            return i
    return n


# ---- scoring -------------------------------------------------------------------------------
cdef int laufende(const SkState* s, u64 side) noexcept nogil:
    """Consecutive top trumps (dealt hands) held by the side holding the top trump (5.3)."""
    cdef const Order* o = &ORDERS[s.order]
    cdef bint mit = (side & bit(o.trump_seq[0])) != 0
    cdef int n = 0
    while n < o.n_trumps and ((side & bit(o.trump_seq[n])) != 0) == mit:
        n += 1
    if n < (2 if s.order == O_WENZ else 3):
        return 0
    return n


cdef void score_ramsch(const SkState* s, const SkOpts* o, SkScore* r) noexcept nogil:
    cdef int i, j, most = -1, n_losers = 0, v
    for i in range(4):
        if s.n_won[i] == 8:
            r.durchmarsch = i
            r.value = o.tariff_solo
            for j in range(4):
                r.scores[j] = 3 * o.tariff_solo if j == i else -o.tariff_solo
            return
    for i in range(4):
        if r.card_points[i] > most:
            most = r.card_points[i]
        if s.n_won[i] == 0:
            r.jungfrauen += 1
    for i in range(4):
        if r.card_points[i] == most:
            r.losers |= 1 << i
            n_losers += 1
    r.base = o.tariff_rufspiel
    v = o.tariff_rufspiel << r.jungfrauen
    r.value = v
    for i in range(4):
        if r.losers & (1 << i):
            r.scores[i] = -v * (4 - n_losers)
        else:
            r.scores[i] = v * n_losers


cdef void sk_score(const SkState* s, const SkOpts* o, SkScore* r) noexcept nogil:
    """Card points and per-seat scores of a finished deal (rules 5)."""
    memset(r, 0, sizeof(SkScore))
    r.durchmarsch = -1
    cdef int i, side_tricks, loser_points, v
    cdef u64 side = 0
    for i in range(4):
        r.card_points[i] = mask_points(POINTS, s.won[i])
    if s.contract == K_THROWN_IN:
        return
    if s.contract == K_RAMSCH:
        score_ramsch(s, o, r)
        return
    if s.contract == K_SIE:
        r.base = o.tariff_solo
        r.declarer_won = True
        v = 4 * o.tariff_solo
    else:
        side_tricks = 0
        for i in range(4):
            if on_playing_side(s, i):
                side |= s.dealt[i]
                r.side_points += r.card_points[i]
                side_tricks += s.n_won[i]
        r.laufende = laufende(s, side)
        r.base = o.tariff_rufspiel if s.contract == K_RUFSPIEL else o.tariff_solo
        if is_tout(s.contract):
            r.tout = 1
            r.declarer_won = side_tricks == 8
            v = 2 * (r.base + o.tariff_increment * r.laufende)
        else:
            r.declarer_won = r.side_points >= 61
            loser_points = (120 - r.side_points) if r.declarer_won else r.side_points
            if o.schneider_official:
                r.schneider = (r.side_points >= 91) if r.declarer_won else (r.side_points <= 30)
            else:
                r.schneider = loser_points <= 30
            r.schwarz = (side_tricks == 0) if not r.declarer_won else (side_tricks == 8)
            if r.schwarz:
                r.schneider = 1
            v = r.base + o.tariff_increment * (r.laufende + r.schneider + r.schwarz)
    if s.kontra >= 0:
        v *= 2
    if s.re >= 0:
        v *= 2
    r.value = v
    if not r.declarer_won:
        v = -v
    for i in range(4):
        if s.contract == K_RUFSPIEL:
            r.scores[i] = v if on_playing_side(s, i) else -v
        else:
            r.scores[i] = 3 * v if i == s.declarer else -v


# ---- random playouts (engine_core.batch) ----------------------------------------------------
cdef void sk_playout(Rng* r, int dealer, int bids, const SkOpts* o, PlayoutStats* st,
                     i64* trace) noexcept nogil:
    """Deal, random legal calls (`bids`: BIDS_* of playout.pxd), random legal cards, score;
    add the deal to `st`. With a `trace` (TRACE_* layout of playout.pxd), record the hands and
    every action code."""
    cdef SkState s
    cdef SkScore sc
    cdef u64 hands[4]
    cdef i64 buf[64]
    cdef int n, i, side, rank
    cdef int c
    sk_deal(r, dealer, hands)
    sk_init(&s, hands, dealer)
    if trace != NULL:
        for i in range(4):
            trace[TRACE_HANDS + i] = <i64>hands[i]
        trace[TRACE_COUNT] = 0
    while s.phase != P_PLAY and s.phase != P_OVER:
        n = sk_legal(&s, o, buf)
        if bids == BIDS_CHEAPEST and s.phase == P_AUCTION and n > 1:
            # codes ascend with the contract rank and buf[0] is pass
            if rng_below(r, 2) == 0:
                n = 1
            else:
                rank = call_rank(<int>(buf[1] - CALL_BASE))
                i = 2
                while i < n and call_rank(<int>(buf[i] - CALL_BASE)) == rank:
                    i += 1
                buf[0] = buf[1 + rng_below(r, i - 1)] if i > 2 else buf[1]
                n = 1
        if n > 1:
            buf[0] = buf[rng_below(r, n)]
        if trace != NULL:
            trace[TRACE_CODES + trace[TRACE_COUNT]] = buf[0]
            trace[TRACE_COUNT] += 1
        sk_apply(&s, o, buf[0])
        st.calls += 1
    while s.phase == P_PLAY:
        c = pick_bit(r, legal_play(&s))
        if trace != NULL:
            trace[TRACE_CODES + trace[TRACE_COUNT]] = c
            trace[TRACE_COUNT] += 1
        play_card(&s, c)
    st.cards += 4 * s.trick_no
    sk_score(&s, o, &sc)
    book_deal(st, s.contract, sc.scores, sc.card_points, 4, s.trick_no != 0)
    if s.declarer >= 0:
        side = sc.card_points[s.declarer]
        if s.partner >= 0 and s.partner != s.declarer:
            side += sc.card_points[s.partner]
        book_side(st, sc.declarer_won, side, s.trick_no != 0)


# ---- Python edge ---------------------------------------------------------------------------
cdef int sk_opts(object options, SkOpts* out) except -1:
    """The C options of a resolved `Options` (batch playouts and Core share this)."""
    memset(out, 0, sizeof(SkOpts))
    out.tariff_rufspiel = options.tariff_rufspiel
    out.tariff_solo = options.tariff_solo
    out.tariff_increment = options.tariff_increment
    out.ramsch = options.ramsch
    out.kontra = options.kontra
    out.schneider_official = options.schneider_rule == "official"
    return 0


cdef object contract_dict(const SkState* s, bint reveal_partner):
    """The records.md contract object (None before the auction has settled)."""
    cdef int k = s.contract
    if k == K_NONE:
        return None
    cdef dict out = {"type": CONTRACT_NAMES[k], "declarer": s.declarer if s.declarer >= 0 else None}
    if contract_has_suit(k):
        out["suit"] = SUITS[s.suit]
    if k == K_RUFSPIEL:
        out["partner"] = s.partner if reveal_partner else None
    if contract_has_doubling(k):
        out["kontra"] = s.kontra if s.kontra >= 0 else None
        out["re"] = s.re if s.re >= 0 else None
    return out


cdef list tricks_list(const SkState* s):
    """The completed tricks as records.md lists: [leader, [cards], winner]."""
    cdef tuple codes = CODES
    cdef int t
    return [[s.trick_leader[t], [codes[s.trick[t][0]], codes[s.trick[t][1]], codes[s.trick[t][2]],
                                 codes[s.trick[t][3]]], s.trick_winner[t]]
            for t in range(s.trick_no)]


cdef inline void add_item(SkResult* out, int item, int fields, int count, int value,
                          int factor, int losers) noexcept nogil:
    cdef SkItem* it = &out.items[out.n_items]
    it.item = item
    it.fields = fields
    it.count = count
    it.value = value
    it.factor = factor
    it.losers = losers
    out.n_items += 1


cdef void sk_result(const SkState* s, const SkOpts* o, SkResult* out) noexcept nogil:
    """The Result of a finished deal as C data: the score, the teams and winners as seat masks,
    and the breakdown items in records.md order. The one place that decides them: Core.result()
    and the fast text writer (schafkopf_records) both render this."""
    cdef SkScore* r = &out.score
    cdef int i, side = 0, inc = o.tariff_increment
    sk_score(s, o, r)
    out.n_teams = 0
    out.winners = 0
    out.n_items = 0
    if s.contract == K_THROWN_IN:
        return
    if s.contract == K_RAMSCH:
        out.n_teams = 4
        for i in range(4):
            out.teams[i] = 1 << i
        if r.durchmarsch >= 0:
            add_item(out, IT_DURCHMARSCH, IF_VALUE, 0, r.value, 0, 0)
            out.winners = 1 << r.durchmarsch
        else:
            add_item(out, IT_RAMSCH, IF_VALUE | IF_LOSERS, 0, r.base, 0, r.losers)
            if r.jungfrauen:
                add_item(out, IT_JUNGFRAU, IF_COUNT | IF_FACTOR, r.jungfrauen, 0, 1 << r.jungfrauen, 0)
            out.winners = 15 & ~r.losers
        add_item(out, IT_TOTAL, IF_VALUE, 0, r.value, 0, 0)
        return
    for i in range(4):
        if on_playing_side(s, i):
            side |= 1 << i
    out.n_teams = 2
    out.teams[0] = side
    out.teams[1] = 15 & ~side
    out.winners = side if r.declarer_won else 15 & ~side
    add_item(out, IT_GAME, IF_VALUE, 0, r.base, 0, 0)
    if r.laufende:
        add_item(out, IT_LAUFENDE, IF_COUNT | IF_VALUE, r.laufende, inc * r.laufende, 0, 0)
    if r.tout or s.contract == K_SIE:
        add_item(out, IT_TOUT, IF_FACTOR, 0, 0, 2, 0)
    if r.schneider:
        add_item(out, IT_SCHNEIDER, IF_VALUE, 0, inc, 0, 0)
    if r.schwarz:
        add_item(out, IT_SCHWARZ, IF_VALUE, 0, inc, 0, 0)
    if s.contract == K_SIE:
        add_item(out, IT_SIE, IF_FACTOR, 0, 0, 2, 0)
    if s.kontra >= 0:
        add_item(out, IT_KONTRA, IF_FACTOR, 0, 0, 2, 0)
    if s.re >= 0:
        add_item(out, IT_RE, IF_FACTOR, 0, 0, 2, 0)
    add_item(out, IT_TOTAL, IF_VALUE, 0, r.value, 0, 0)


ITEM_NAMES = ("game", "laufende", "tout", "schneider", "schwarz", "sie", "kontra", "re", "ramsch",
              "jungfrau", "durchmarsch", "total")     # by IT_* (schafkopf.pxd)
cdef tuple _ITEM_NAMES = ITEM_NAMES


cdef list seat_list(int mask):
    """The seats of a 4-bit mask, ascending."""
    return [i for i in range(4) if mask >> i & 1]


cdef dict item_dict(const SkItem* it):
    cdef dict out = {"item": _ITEM_NAMES[it.item]}
    if it.fields & IF_COUNT:
        out["count"] = it.count
    if it.fields & IF_VALUE:
        out["value"] = it.value
    if it.fields & IF_FACTOR:
        out["factor"] = it.factor
    if it.fields & IF_LOSERS:
        out["losers"] = seat_list(it.losers)
    return out


cdef object result_dict(const SkState* s, const SkOpts* o):
    """Core.result() of a state (the fast record path calls it on a stack state)."""
    cdef SkResult res
    cdef SkScore* r = &res.score
    cdef int i
    if s.phase != P_OVER:
        return None
    sk_result(s, o, &res)
    return {"contract": contract_dict(s, True),
            "teams": [seat_list(res.teams[i]) for i in range(res.n_teams)],
            "tricks": tricks_list(s),
            "card_points": [r.card_points[0], r.card_points[1], r.card_points[2], r.card_points[3]],
            "scores": [r.scores[0], r.scores[1], r.scores[2], r.scores[3]],
            "breakdown": [item_dict(&res.items[i]) for i in range(res.n_items)],
            "winners": seat_list(res.winners)}


cdef class Core:
    """One Schafkopf deal as C state. The fast step API (legal codes or a card mask, apply,
    copy, undo) works on integer codes; `engine_core.state.State` wraps it for records."""

    # attributes and cdef/cpdef methods are declared in schafkopf.pxd (schafkopf_records
    # renders a Core's result from its C state)

    def __init__(self, options, hands, int dealer, blind=0):
        cdef u64 h[4]
        cdef int i
        sk_opts(options, &self.o)
        for i in range(4):
            h[i] = hands[i]
        sk_init(&self.s, h, dealer)
        self.n_hist = 0

    cpdef Core copy(self):
        cdef Core c = Core.__new__(Core)
        c.s = self.s
        c.o = self.o
        c.n_hist = self.n_hist
        memcpy(c.hist, self.hist, self.n_hist * sizeof(SkState))
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
        """Legal cards as a mask (0 outside the play phase)."""
        return sk_legal_play(&self.s)

    cpdef list legal_codes(self):
        cdef i64 buf[64]
        cdef int n = sk_legal(&self.s, &self.o, buf)
        return [buf[i] for i in range(n)]

    cpdef list legal_list(self):
        """The legal codes as a small list (the step API; same as legal_codes)."""
        cdef i64 buf[64]
        cdef u64 m
        cdef int n, i
        cdef list out
        if self.s.phase == P_PLAY:
            m = legal_play(&self.s)
            out = PyList_New(popcount(m))
            i = 0
            while m:
                item = CARD_INTS[lowest(m)]
                Py_INCREF(item)
                PyList_SET_ITEM(out, i, item)
                i += 1
                m &= m - 1
            return out
        n = sk_legal(&self.s, &self.o, buf)
        return [buf[i] for i in range(n)]

    cpdef bint is_legal(self, i64 code):
        return code_legal(&self.s, &self.o, code)

    cpdef apply(self, i64 code):
        """Apply a legal code; ValueError (state unchanged) if it is not legal."""
        if not code_legal(&self.s, &self.o, code):
            raise ValueError(f"action code {code} is not legal now")
        self.hist[self.n_hist] = self.s
        self.n_hist += 1
        sk_apply(&self.s, &self.o, code)

    cpdef int step(self, i64 code) except -2:
        """apply(code) and return the seat to act next (-1 when the deal is over): one call
        per move for search and learning loops."""
        if not code_legal(&self.s, &self.o, code):
            raise ValueError(f"action code {code} is not legal now")
        self.hist[self.n_hist] = self.s
        self.n_hist += 1
        sk_apply(&self.s, &self.o, code)
        return self.s.to_act

    cpdef list advance(self, i64 code):
        """step(code), then the legal codes of the next decision ([] when the deal is over):
        one call per move for rollouts (`legal = core.advance(pick(legal))` until empty)."""
        if not code_legal(&self.s, &self.o, code):
            raise ValueError(f"action code {code} is not legal now")
        self.hist[self.n_hist] = self.s
        self.n_hist += 1
        sk_apply(&self.s, &self.o, code)
        if self.s.phase == P_OVER:
            return []
        return self.legal_list()

    cpdef int apply_unchecked(self, i64 code):
        """Apply a code known to be legal (taken from legal_list/legal_mask) without checking
        it; undo works. An illegal code here corrupts the deal: use `step` when unsure.
        Returns the seat to act next (-1 when over)."""
        self.hist[self.n_hist] = self.s
        self.n_hist += 1
        sk_apply(&self.s, &self.o, code)
        return self.s.to_act

    cpdef undo(self):
        if self.n_hist == 0:
            raise ValueError("nothing to undo")
        self.n_hist -= 1
        self.s = self.hist[self.n_hist]

    cpdef list scores(self):
        """Per-seat scores of the finished deal (None while in progress): the cheap part of
        result() for search code."""
        cdef SkScore r
        if self.s.phase != P_OVER:
            return None
        sk_score(&self.s, &self.o, &r)
        return [r.scores[0], r.scores[1], r.scores[2], r.scores[3]]

    cpdef list random_playout(self, u64 seed):
        """Finish the deal with uniformly random legal actions (SplitMix64 seeded with `seed`),
        entirely in C; returns the per-seat scores. The moves are undoable one by one."""
        cdef Rng r
        cdef i64 buf[64]
        cdef int n
        r.s = seed
        with nogil:
            while self.s.phase != P_OVER:
                if self.s.phase == P_PLAY:
                    buf[0] = pick_bit(&r, sk_legal_play(&self.s))
                else:
                    n = sk_legal(&self.s, &self.o, buf)
                    buf[0] = buf[rng_below(&r, n)]
                self.hist[self.n_hist] = self.s
                self.n_hist += 1
                sk_apply(&self.s, &self.o, buf[0])
        return self.scores()

    def sort_cards(self, u64 mask):
        """Trumps first (highest first) in the contract in force (the Rufspiel order before
        one is known), then the plain suits C S H D, each highest first."""
        cdef const Order* o = &ORDERS[self.s.order]
        cdef int c
        keyed = []
        for c in range(32):
            if mask >> c & 1:
                keyed.append((0 if o.eff_suit[c] == TRUMP else 1 + o.eff_suit[c], -o.power[c], c))
        return [k[2] for k in sorted(keyed)]

    # ---- explanations: why a well-formed action is not legal ----
    def explain(self, i64 code):
        cdef SkState* s = &self.s
        cdef int seat = s.to_act, call
        if code < CALL_BASE:
            return self._explain_play(<int>code)
        call = <int>(code - CALL_BASE)
        if call >= C_ANN_PASS:
            if s.phase == P_KONTRA and call == C_RE:
                return "re may be said only in the re round, after a kontra"
            if s.phase == P_RE and call == C_KONTRA:
                return "the kontra round is over"
            if call == C_KONTRA:
                if s.kontra >= 0:
                    return f"seat {s.kontra} has already said kontra"
                return "only a defender may say kontra; the playing side may only pass"
            if s.re >= 0:
                return f"seat {s.re} has already said re"
            return "only the playing side may say re; a defender may only pass"
        name = CALLS[call][1]
        if s.best_call >= 0 and call_rank(call) <= call_rank(s.best_call):
            best = CALLS[s.best_call]
            return (f"{name} does not outbid seat {s.best_seat}'s {best[1]}"
                    f"{' ' + best[2] if best[2] else ''}: only a strictly higher contract may be named")
        if call_rank(call) == K_RUFSPIEL:
            suit = call - C_RUF
            if suit == HEARTS:
                return "hearts are trumps in a Rufspiel: call the ace of C, S or D"
            if s.hand[seat] & bit(card(ACE, suit)):
                return f"you hold the {SUIT_NAMES[SUITS[suit]]} ace yourself: call an ace you lack"
            return (f"you hold no {SUIT_NAMES[SUITS[suit]]} card other than Obers and Unters, "
                    f"so you cannot call that ace")
        if call == C_SIE:
            return "a Sie needs all four Obers and all four Unters in one hand"
        return f"{name} is not allowed now"

    def _explain_play(self, int c):
        cdef SkState* s = &self.s
        cdef const Order* o = &ORDERS[s.order]
        cdef int seat = s.to_act, led
        cdef u64 hand = s.hand[seat], legal = sk_legal_play(s)
        code = DECK.code(c)
        ace = DECK.code(card(ACE, s.suit)) if s.suit >= 0 else ""
        if s.n_in_trick == 0:
            return (f"the called ace {ace} binds you: with fewer than four cards of its suit you "
                    f"may lead that suit only with {ace}")
        led = o.eff_suit[s.trick[s.trick_no][0]]
        suit_name = "trump" if led == TRUMP else SUIT_NAMES[SUITS[led]]
        if hand & o.suit_mask[led]:
            if legal == bit(card(ACE, s.suit)) and bound(s, seat):
                return f"the called suit is led for the first time: you must play the called ace {ace}"
            held = ", ".join(DECK.code(i) for i in self.sort_cards(hand & o.suit_mask[led]))
            return f"you must follow {suit_name}: you hold {held}"
        return f"the called ace {ace} may not be discarded before the last trick while its suit has not been led"

    # ---- what everybody may see ----
    cdef object _contract(self, bint reveal_partner):
        return contract_dict(&self.s, reveal_partner)

    cdef list _tricks(self):
        return tricks_list(&self.s)

    def _partner_revealed(self):
        """The partner is known once the called ace has been played (or the deal is over)."""
        cdef SkState* s = &self.s
        if s.contract != K_RUFSPIEL:
            return True
        if s.phase == P_OVER:
            return True
        return s.partner >= 0 and not (s.hand[s.partner] & bit(card(ACE, s.suit)))

    def public(self, int seat):
        cdef SkState* s = &self.s
        cdef int k
        contract = self._contract(self._partner_revealed() or seat == s.partner)
        out = {
            "contract": contract,
            "trick": {"leader": s.leader,
                      "cards": [DECK.code(s.trick[s.trick_no][k]) for k in range(s.n_in_trick)]}
                     if s.phase == P_PLAY else None,
            "tricks": self._tricks(),
            "tricks_won": [s.n_won[k] for k in range(4)],
        }
        if s.phase == P_OVER:
            out["result"] = self.result()
        return out

    def redact(self, int index, action, int seat):
        """Every Schafkopf action is public."""
        return action

    def result(self):
        """The records.md Result of the finished deal (None while in progress)."""
        return result_dict(&self.s, &self.o)
