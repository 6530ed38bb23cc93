# cython: language_level=3
"""Sheepshead, five-handed Milwaukee called-ace game, 32 cards: rules of
../shared/rules/sheepshead.md (seed 003 the default; seed 004's differences are options).

Deal: 6 cards each in packets 3-2-3 (the 2 go to the blind). Pick: from the dealer's left each
seat once picks or passes; the first pick takes the blind and buries 2 (their points are the
picker's). Call (bury first, then call): a fail ace the picker lacks (hand or bury) with a kept
card of its suit; a ten when his 8 cards hold all three fail aces; the "unknown" ace when no
ace is callable and his fail cards are only aces (or he has none; `unknown_broad` drops that
condition), with one card of his hand set aside face down; alone (forced when nothing else is
allowed). `partner: jack_of_diamonds` calls the JD holder instead; `partner: none` is always
alone. Cracking (option): the seats after the picker may crack (not the partner, who gets a
forced pass turn so that nothing gives him away), the picker may then re-crack.
Everybody passes: leaster (fewest points among seats with a trick wins), a doubler (thrown in,
next deal x2) or, with `forced_pick`, the dealer must pick.
Play: 14 trumps (Q, J, diamonds) form one suit; follow suit, no duty to trump. Until the called
suit is first led the partner may lead that suit only with the called card and may not discard
it; when it is first led he must play it; the picker keeps a card of the called suit (his only
one, or the unknown card, which counts as a card of the called suit and never wins a trick).
Scoring: 61 wins, 60-60 loses; schneider (defenders <= 29, or team <= 30), no trick; losses
doubled on the bump; the picker's share is 2x the partner's, or 4x a defender's alone.

Hidden information in views (`public`, `redact`):
* The blind and the buried cards are the picker's alone: another seat sees the bury action
  with its cards as "??" (two of them), never the codes, also after the deal.
* The unknown card is played face down: until the deal is over every seat but the picker sees
  that play action, and the card in the trick, as the code "??" (the record and the result
  keep its real code; after the deal the result shows it).
* The partner is shown (`contract.partner`) only to himself until the called card has been
  played, and to everybody when the deal is over. Legal actions are the acting seat's only, so
  his forced choices (the crack-round pass, the called ace) are never broadcast.

Everything per card, trick and deal runs in the `ss_*` functions below (typed, nogil); the
`Core` class is the Python edge used by `engine_core.state.State`.
"""
from libc.string cimport memcpy, memset
from ._core cimport (u64, i64, int8_t, Order, Rng, TRUMP, CALL_BASE, EXCHANGE_BASE, popcount,
                     lowest, bit, exchange_code, mask_points, order_init, order_add_trumps,
                     order_add_plain, shuffle_deck, rng_below, pick_bit, card_strength)

from .cards import HIDDEN, PIQUET, SUITS, SUIT_NAMES
from .errors import OptionError
from .options import OptionSpec

NAME = "sheepshead"
SEATS = 5
HAND_SIZE = 6
BLIND_SIZE = 2
DECK = PIQUET

OPTIONS = (
    OptionSpec("partner", "choice", "called_ace",
               "how the picker finds a partner: called fail ace (ten, unknown), the holder of JD, or none",
               allowed=("called_ace", "jack_of_diamonds", "none")),
    OptionSpec("no_pick", "choice", "leaster", "when all five pass: leaster, doubler, or the dealer must pick",
               allowed=("leaster", "doubler", "forced_pick")),
    OptionSpec("leaster_blind", "choice", "set_aside", "leaster: the blind belongs to nobody or to the last trick",
               allowed=("set_aside", "last_trick")),
    OptionSpec("double_on_the_bump", "bool", True, "the picker's team pays double when it loses"),
    OptionSpec("no_trick_partner_exempt", "bool", False,
               "a trickless loss with a partner: the picker pays the partner's share too"),
    OptionSpec("unknown_broad", "bool", False, "the unknown ace may be called whenever no ace is callable"),
    OptionSpec("first_leader", "choice", "eldest", "who leads trick 1: left of the dealer, or the dealer",
               allowed=("eldest", "dealer")),
    OptionSpec("cracking", "bool", False, "crack / re-crack round after the call, x2 each"),
    OptionSpec("multiplier", "int", 1, "stake multiplier carried in from doublers (deal state set by the match)",
               minimum=1),
    OptionSpec("deals_per_match", "int", 10, "match length in played deals (doublers do not count)",
               minimum=1, status="informational"),
    OptionSpec("blitzing", "bool", False, "x2 for showing both black queens (not part of this ruleset)",
               status="listed_only"),
    OptionSpec("call_up", "bool", False, "JD partner: call up to the next jack (not part of this ruleset)",
               status="listed_only"),
    OptionSpec("spitz", "bool", False, "7D as second-highest trump (not part of this ruleset)",
               status="listed_only"),
)

# The second source's scoring (rules 5.3, 6); `seed004_literal` adds its dealer lead.
PRESETS = {
    "seed004": {"double_on_the_bump": False, "no_trick_partner_exempt": True},
    "seed004_literal": {"double_on_the_bump": False, "no_trick_partner_exempt": True,
                        "first_leader": "dealer"},
}


def preset(name, **overrides):
    """The options of a named preset (rules 6), with overrides: pass to `games.get`."""
    if name not in PRESETS:
        raise OptionError("preset", f"unknown preset {name!r}; presets are {', '.join(PRESETS)}")
    out = dict(PRESETS[name])
    out.update(overrides)
    return out


# ---- card indices: rank + 8 * suit, ranks A T K Q J 9 8 7, suits C S H D ----
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

cdef int8_t POINTS[32]
cdef Order ORDER
cdef u64 FAIL = 0          # every fail card (A T K 9 8 7 of C, S, H)
cdef u64 FAIL_ACES = 0     # AC AS AH
cdef int JD_CARD = JACK + 8 * DIAMONDS

# ---- calls: (type, call, suit); an action code is CALL_BASE + index ----
CALLS = (
    ("bid", "pick", None), ("bid", "pass", None),
    ("bid", "ace", "C"), ("bid", "ace", "S"), ("bid", "ace", "H"),
    ("bid", "ten", "C"), ("bid", "ten", "S"), ("bid", "ten", "H"),
    ("bid", "unknown_ace", "C"), ("bid", "unknown_ace", "S"), ("bid", "unknown_ace", "H"),
    ("bid", "jack_of_diamonds", None), ("bid", "alone", None),
    ("announce", "crack", None), ("announce", "pass", None), ("announce", "recrack", None),
)
EXCHANGES = ("bury", "unknown")

cdef enum:
    C_PICK = 0
    C_PASS = 1
    C_ACE = 2        # + suit
    C_TEN = 5        # + suit
    C_UNKNOWN = 8    # + suit
    C_JD = 11
    C_ALONE = 12
    C_CRACK = 13
    C_ANN_PASS = 14
    C_RECRACK = 15

cdef enum:
    X_BURY = 0
    X_UNKNOWN = 1

cdef enum:
    K_NONE = 0
    K_ACE = 1
    K_TEN = 2
    K_UNKNOWN = 3
    K_JD = 4
    K_ALONE = 5
    K_LEASTER = 6
    K_DOUBLER = 7

CONTRACT_NAMES = ("none", "ace", "ten", "unknown_ace", "jack_of_diamonds", "alone", "leaster", "doubler")

cdef enum:
    P_PICK = 0
    P_BURY = 1
    P_CALL = 2
    P_UNKNOWN = 3
    P_CRACK = 4
    P_RECRACK = 5
    P_PLAY = 6
    P_OVER = 7

PHASE_NAMES = ("pick", "bury", "call", "unknown", "crack", "recrack", "play", "over")

cdef enum:
    PM_CALLED_ACE = 0
    PM_JD = 1
    PM_NONE = 2
    NP_LEASTER = 0
    NP_DOUBLER = 1
    NP_FORCED = 2


cdef inline int card(int rank, int suit) noexcept nogil:
    return rank + 8 * suit


cdef void _build_tables():
    global FAIL, FAIL_ACES
    cdef int8_t trumps[14]
    cdef int8_t plain[6]
    cdef int s, i, n = 0
    for i in range(32):
        POINTS[i] = (11, 10, 4, 3, 2, 0, 0, 0)[i % 8]
    order_init(&ORDER)
    for s in range(4):
        trumps[n] = card(QUEEN, s); n += 1
    for s in range(4):
        trumps[n] = card(JACK, s); n += 1
    for r in (ACE, TEN, KING, NINE, EIGHT, SEVEN):
        trumps[n] = card(r, DIAMONDS); n += 1
    order_add_trumps(&ORDER, trumps, n)
    for s in range(3):
        for i, r in enumerate((ACE, TEN, KING, NINE, EIGHT, SEVEN)):
            plain[i] = card(r, s)
        order_add_plain(&ORDER, s, plain, 6)
        FAIL |= ORDER.suit_mask[s]
        FAIL_ACES |= bit(card(ACE, s))

_build_tables()


# ---- the deal ------------------------------------------------------------------------------
def deal_hands(order, int dealer):
    """Packets 3-2-3 (rules 1.2): seat dealer+1+k gets deck[3k:3k+3] + deck[17+3k:20+3k];
    the blind is deck[15:17]."""
    hands = [[] for _ in range(5)]
    for k in range(5):
        seat = (dealer + 1 + k) % 5
        hands[seat].extend(order[3 * k:3 * k + 3])
        hands[seat].extend(order[17 + 3 * k:20 + 3 * k])
    return hands, list(order[15:17])


cdef void ss_deal(Rng* r, int dealer, u64* hands, u64* blind) noexcept nogil:
    cdef int8_t deck[32]
    cdef int k, i, seat
    shuffle_deck(r, deck, 32)
    for k in range(5):
        seat = (dealer + 1 + k) % 5
        hands[seat] = 0
        for i in range(3):
            hands[seat] |= bit(deck[3 * k + i]) | bit(deck[17 + 3 * k + i])
    blind[0] = bit(deck[15]) | bit(deck[16])


def validate_options(options):
    """No cross-option constraints in Sheepshead."""


# ---- state machine -------------------------------------------------------------------------
cdef void ss_init(SsState* s, const u64* hands, u64 blind, int dealer) noexcept nogil:
    memset(s, 0, sizeof(SsState))
    cdef int i
    for i in range(5):
        s.hand[i] = hands[i]
    s.blind = blind
    s.dealer = dealer
    s.to_act = (dealer + 1) % 5
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


cdef u64 ss_legal_play(const SsState* s) noexcept nogil:
    """Legal cards of the seat to act (rules 4.3, literally); 0 outside the play phase."""
    if s.phase != P_PLAY:
        return 0
    cdef int x = s.to_act, led
    cdef u64 hand = s.hand[x], legal, follow, hold
    cdef bint restricted = s.called_suit >= 0 and s.called_led < 0
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


cdef int call_mask(const SsState* s, const SsOpts* o) noexcept nogil:
    """The calls open to the picker after the bury, as bits of call numbers (rules 2.3, 2.5)."""
    cdef u64 h = s.hand[s.picker]
    cdef u64 p8 = h | s.buried
    cdef int m = 0, x
    if o.partner_mode == PM_JD:
        if not (p8 & bit(JD_CARD)):
            m |= 1 << C_JD
        return m | (1 << C_ALONE)
    if (p8 & FAIL_ACES) != FAIL_ACES:
        for x in range(3):
            if not (p8 & bit(card(ACE, x))) and (h & ORDER.suit_mask[x]):
                m |= 1 << (C_ACE + x)
        if m == 0 and (o.unknown_broad or (h & FAIL & ~FAIL_ACES) == 0):
            for x in range(3):
                if not (p8 & bit(card(ACE, x))) and not (h & ORDER.suit_mask[x]):
                    m |= 1 << (C_UNKNOWN + x)
    else:
        for x in range(3):
            if not (p8 & bit(card(TEN, x))) and (h & ORDER.suit_mask[x]):
                m |= 1 << (C_TEN + x)
    return m | (1 << C_ALONE)


cdef inline bint must_pick(const SsState* s, const SsOpts* o) noexcept nogil:
    """forced_pick: the dealer may not pass when the four others have passed (rules 2.1)."""
    return o.no_pick == NP_FORCED and s.n_spoken == 4


cdef int ss_legal(const SsState* s, const SsOpts* o, i64* out) noexcept nogil:
    """Every legal action code of the seat to act (bury: the 28 pairs of the 8 cards)."""
    cdef int n = 0, call, m
    cdef u64 rest, a, b, h
    if s.phase == P_PLAY:
        h = ss_legal_play(s)
        while h:
            out[n] = lowest(h)
            n += 1
            h &= h - 1
    elif s.phase == P_PICK:
        out[0] = CALL_BASE + C_PICK
        n = 1
        if not must_pick(s, o):
            out[1] = CALL_BASE + C_PASS
            n = 2
    elif s.phase == P_BURY:
        h = s.hand[s.picker]
        while h:
            a = h & (~h + 1)
            h &= h - 1
            rest = h
            while rest:
                b = rest & (~rest + 1)
                rest &= rest - 1
                out[n] = exchange_code(X_BURY, a | b)
                n += 1
    elif s.phase == P_CALL:
        m = call_mask(s, o)
        for call in range(C_ACE, C_ALONE + 1):
            if m & (1 << call):
                out[n] = CALL_BASE + call
                n += 1
    elif s.phase == P_UNKNOWN:
        h = s.hand[s.picker]
        while h:
            out[n] = exchange_code(X_UNKNOWN, h & (~h + 1))
            n += 1
            h &= h - 1
    elif s.phase == P_CRACK:
        out[0] = CALL_BASE + C_ANN_PASS
        n = 1
        if s.to_act != s.partner:
            out[1] = CALL_BASE + C_CRACK
            n = 2
    elif s.phase == P_RECRACK:
        out[0] = CALL_BASE + C_ANN_PASS
        out[1] = CALL_BASE + C_RECRACK
        n = 2
    return n


cdef void start_play(SsState* s, const SsOpts* o) noexcept nogil:
    s.phase = P_PLAY
    s.to_act = s.dealer if o.dealer_leads else (s.dealer + 1) % 5
    s.leader = s.to_act


cdef void after_call(SsState* s, const SsOpts* o) noexcept nogil:
    """The crack round (seats picker+1 .. dealer), if any, then play (rules 2.7)."""
    if o.cracking and s.picker != s.dealer:
        s.phase = P_CRACK
        s.to_act = (s.picker + 1) % 5
    else:
        start_play(s, o)


cdef inline int holder(const SsState* s, int c) noexcept nogil:
    cdef int i
    for i in range(5):
        if s.hand[i] & bit(c):
            return i
    return -1


cdef int trick_winner(const SsState* s, const int8_t* cards) noexcept nogil:
    """Highest trump, else highest card of the led suit; the unknown card never wins (4.4)."""
    cdef int led = eff(s, cards[0])
    cdef int best = -1, best_v = -1, i, v
    for i in range(5):
        if cards[i] == s.unknown:
            continue
        v = card_strength(&ORDER, cards[i], led)
        if v > best_v:
            best_v = v
            best = i
    return best if best >= 0 else 0


cdef void ss_apply(SsState* s, const SsOpts* o, i64 code) noexcept nogil:
    """Apply a legal code (the caller checks legality)."""
    cdef int seat = s.to_act, c, call, winner, k, m
    cdef u64 cards
    if code < CALL_BASE:
        c = <int>code
        s.hand[seat] &= ~bit(c)
        if s.n_in_trick == 0:
            s.trick_leader[s.trick_no] = seat
            if s.called_suit >= 0 and s.called_led < 0 and eff(s, c) == s.called_suit:
                s.called_led = s.trick_no
        s.trick[s.trick_no][s.n_in_trick] = c
        s.n_in_trick += 1
        if s.n_in_trick < 5:
            s.to_act = (seat + 1) % 5
            return
        winner = (s.trick_leader[s.trick_no] + trick_winner(s, s.trick[s.trick_no])) % 5
        s.trick_winner[s.trick_no] = winner
        for k in range(5):
            s.won[winner] |= bit(s.trick[s.trick_no][k])
        s.n_won[winner] += 1
        s.trick_no += 1
        s.n_in_trick = 0
        s.leader = winner
        s.to_act = winner
        if s.trick_no == 6:
            s.phase = P_OVER
            s.to_act = -1
        return
    if code >= EXCHANGE_BASE:
        cards = (<u64>code) >> 8
        if (code & 0xFF) - EXCHANGE_BASE == X_BURY:
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
        if call == C_PICK:
            s.picker = seat
            s.hand[seat] |= s.blind
            s.phase = P_BURY
            return
        s.n_spoken += 1
        s.to_act = (seat + 1) % 5
        if s.n_spoken == 5:
            if o.no_pick == NP_DOUBLER:
                s.contract = K_DOUBLER
                s.phase = P_OVER
                s.to_act = -1
            else:
                s.contract = K_LEASTER
                start_play(s, o)
        return
    if s.phase == P_CALL:
        m = call_mask(s, o)
        if call == C_ALONE:
            s.contract = K_ALONE
            s.forced_alone = m == (1 << C_ALONE)
        elif call == C_JD:
            s.contract = K_JD
            s.called = JD_CARD
            s.partner = holder(s, JD_CARD)
        else:
            if call < C_TEN:
                s.contract = K_ACE
                s.called_suit = call - C_ACE
                s.called = card(ACE, s.called_suit)
            elif call < C_UNKNOWN:
                s.contract = K_TEN
                s.called_suit = call - C_TEN
                s.called = card(TEN, s.called_suit)
            else:
                s.contract = K_UNKNOWN
                s.called_suit = call - C_UNKNOWN
                s.called = card(ACE, s.called_suit)
            s.partner = holder(s, s.called)
        if s.contract == K_UNKNOWN:
            s.phase = P_UNKNOWN
        else:
            after_call(s, o)
        return
    if s.phase == P_CRACK:
        if call == C_CRACK:
            s.cracked_by = seat
            s.phase = P_RECRACK
            s.to_act = s.picker
        elif seat == s.dealer:
            start_play(s, o)
        else:
            s.to_act = (seat + 1) % 5
        return
    if s.phase == P_RECRACK:
        s.recracked = call == C_RECRACK
        start_play(s, o)


# ---- scoring -------------------------------------------------------------------------------
cdef void score_leaster(const SsState* s, const SsOpts* o, SsScore* r) noexcept nogil:
    """Fewest points among the seats with a trick wins M from each other seat; a tie scores
    nothing (rules 5.5)."""
    cdef int i, low = 1000, n_low = 0, who = -1
    for i in range(5):
        if s.n_won[i] > 0 and r.card_points[i] < low:
            low = r.card_points[i]
    for i in range(5):
        if s.n_won[i] > 0 and r.card_points[i] == low:
            n_low += 1
            who = i
    r.leaster_low = low
    if n_low != 1:
        return
    r.leaster_winner = who
    for i in range(5):
        r.scores[i] = 4 * r.mult if i == who else -r.mult


cdef void ss_score(const SsState* s, const SsOpts* o, SsScore* r) noexcept nogil:
    """Card points and per-seat scores of a finished deal (rules 5)."""
    memset(r, 0, sizeof(SsScore))
    r.leaster_winner = -1
    r.leaster_low = -1
    r.mult = o.multiplier
    cdef int i, s_sign, defenders
    if s.contract == K_DOUBLER:
        return
    for i in range(5):
        r.card_points[i] = mask_points(POINTS, s.won[i])
    r.blind_points = mask_points(POINTS, s.blind)
    if s.contract == K_LEASTER:
        if o.blind_last_trick:
            r.card_points[s.trick_winner[5]] += r.blind_points
        score_leaster(s, o, r)
        return
    r.card_points[s.picker] += mask_points(POINTS, s.buried)
    if s.cracked_by >= 0:
        r.mult *= 2
    if s.recracked:
        r.mult *= 2
    for i in range(5):
        if i == s.picker or i == s.partner:
            r.team_points += r.card_points[i]
            r.team_tricks += s.n_won[i]
    r.defender_points = 120 - r.team_points
    r.team_won = r.team_points >= 61
    r.bump = 1
    if r.team_won:
        if r.team_tricks == 6:
            r.level = 3
        elif r.defender_points <= 29:
            r.level = 2
        else:
            r.level = 1
    else:
        if r.team_tricks == 0:
            r.level = 3
        elif r.team_points <= 30:
            r.level = 2
        else:
            r.level = 1
        if o.bump:
            r.bump = 2
    r.unit = r.level * r.bump * r.mult
    if s.partner >= 0:
        defenders = 3
        r.exempt = (not r.team_won) and r.level == 3 and o.exempt
        r.picker_share = 3 if r.exempt else 2
        r.partner_share = 0 if r.exempt else 1
    else:
        defenders = 4
        r.picker_share = 4
    s_sign = 1 if r.team_won else -1
    for i in range(5):
        if i == s.picker:
            r.scores[i] = s_sign * r.picker_share * r.unit
        elif i == s.partner:
            r.scores[i] = s_sign * r.partner_share * r.unit
        else:
            r.scores[i] = -s_sign * r.unit


# ---- nogil random playout (benchmarks, batch statistics) ----------------------------------
cdef void ss_random_deal(Rng* r, const SsOpts* o, int dealer, SsState* s) noexcept nogil:
    """Deal with `r` and play uniformly random legal actions to the end of the deal."""
    cdef u64 hands[5]
    cdef u64 blind
    cdef i64 buf[64]
    cdef int n
    ss_deal(r, dealer, hands, &blind)
    ss_init(s, hands, blind, dealer)
    while s.phase != P_OVER:
        if s.phase == P_PLAY:
            ss_apply(s, o, pick_bit(r, ss_legal_play(s)))
        else:
            n = ss_legal(s, o, buf)
            ss_apply(s, o, buf[rng_below(r, n)])


cdef int ss_opts(object options, SsOpts* o) except -1:
    """The C options of a resolved `Options` (Core and batch playouts share this mapping)."""
    memset(o, 0, sizeof(SsOpts))
    o.partner_mode = ("called_ace", "jack_of_diamonds", "none").index(options.partner)
    o.no_pick = ("leaster", "doubler", "forced_pick").index(options.no_pick)
    o.blind_last_trick = options.leaster_blind == "last_trick"
    o.bump = options.double_on_the_bump
    o.exempt = options.no_trick_partner_exempt
    o.unknown_broad = options.unknown_broad
    o.dealer_leads = options.first_leader == "dealer"
    o.cracking = options.cracking
    o.multiplier = options.multiplier
    return 0


def playouts(options, long long n, unsigned long long seed):
    """Play `n` random deals without the GIL (dealer rotating); returns per contract type the
    number of deals and the summed picker score, and the largest score imbalance (0: zero-sum)."""
    cdef SsOpts o
    cdef SsState s
    cdef SsScore r
    cdef Rng rng
    cdef long long i
    cdef long long counts[8]
    cdef long long picker_total[8]
    cdef int j, total, worst = 0
    ss_opts(options, &o)
    rng.s = seed
    memset(counts, 0, sizeof(counts))
    memset(picker_total, 0, sizeof(picker_total))
    with nogil:
        for i in range(n):
            ss_random_deal(&rng, &o, <int>(i % 5), &s)
            ss_score(&s, &o, &r)
            counts[s.contract] += 1
            if s.picker >= 0:
                picker_total[s.contract] += r.scores[s.picker]
            total = 0
            for j in range(5):
                total += r.scores[j]
            if total < 0:
                total = -total
            if total > worst:
                worst = total
    return {"deals": {CONTRACT_NAMES[k]: counts[k] for k in range(1, 8) if counts[k]},
            "picker_score": {CONTRACT_NAMES[k]: picker_total[k] for k in range(1, 6) if counts[k]},
            "max_imbalance": worst}


# ---- Python edge ---------------------------------------------------------------------------


cdef class Core:
    """One Sheepshead deal as C state. The fast step API (legal codes or a card mask, apply,
    copy, undo) works on integer codes; `engine_core.state.State` wraps it for records."""

    cdef SsState s
    cdef SsOpts o
    cdef SsState hist[SS_MAX_ACTIONS]
    cdef int n_hist

    def __init__(self, options, hands, int dealer, blind=0):
        cdef u64 h[5]
        cdef int i
        ss_opts(options, &self.o)
        for i in range(5):
            h[i] = hands[i]
        ss_init(&self.s, h, blind, dealer)
        self.n_hist = 0

    cpdef Core copy(self):
        cdef Core c = Core.__new__(Core)
        c.s = self.s
        c.o = self.o
        c.n_hist = self.n_hist
        memcpy(c.hist, self.hist, self.n_hist * sizeof(SsState))
        return c

    cpdef int to_act(self):
        return self.s.to_act

    cpdef bint is_over(self):
        return self.s.phase == P_OVER

    def phase(self):
        return PHASE_NAMES[self.s.phase]

    cpdef u64 hand(self, int seat):
        """The seat's cards; the picker's include the blind until he buries, and his unknown
        card until he plays it."""
        return self.s.hand[seat]

    cpdef u64 legal_mask(self):
        """Legal cards as a mask (0 outside the play phase)."""
        return ss_legal_play(&self.s)

    cpdef list legal_codes(self):
        cdef i64 buf[64]
        cdef int n = ss_legal(&self.s, &self.o, buf)
        return [buf[i] for i in range(n)]

    cpdef bint is_legal(self, i64 code):
        cdef i64 buf[64]
        cdef int n = ss_legal(&self.s, &self.o, buf), i
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
        ss_apply(&self.s, &self.o, code)

    cpdef undo(self):
        if self.n_hist == 0:
            raise ValueError("nothing to undo")
        self.n_hist -= 1
        self.s = self.hist[self.n_hist]

    def sort_cards(self, u64 mask):
        """Trumps first (QC down to 7D), then clubs, spades, hearts, each highest first."""
        cdef int c
        keyed = []
        for c in range(32):
            if mask >> c & 1:
                keyed.append((0 if ORDER.eff_suit[c] == TRUMP else 1 + ORDER.eff_suit[c], -ORDER.power[c], c))
        return [k[2] for k in sorted(keyed)]

    def _codes(self, u64 mask):
        return [DECK.code(i) for i in self.sort_cards(mask)]

    # ---- explanations: why a well-formed action is not legal ----
    def explain(self, i64 code):
        cdef SsState* s = &self.s
        cdef int call
        if code < CALL_BASE:
            return self._explain_play(<int>code)
        if code >= EXCHANGE_BASE:
            return self._explain_exchange(code)
        call = <int>(code - CALL_BASE)
        name = CALLS[call][1]
        if s.phase == P_PICK:
            if call == C_PASS:
                return "everybody else has passed: the dealer must pick (forced pick)"
            return f"{name} is not a pick-phase call: pick or pass first; the partner is called after the bury"
        if s.phase == P_BURY:
            return f"the picker must bury 2 cards before calling"
        if s.phase == P_UNKNOWN:
            return "set the unknown card aside first (exchange 'unknown' with one card)"
        if s.phase == P_CRACK:
            if call == C_CRACK:
                return "the partner may not crack; he may only pass"
            return "only the picker may re-crack, after a crack"
        if s.phase == P_RECRACK:
            return "the picker answers the crack with recrack or pass"
        if s.phase != P_CALL:
            return f"{name} is not allowed now"
        return self._explain_call(call)

    def _explain_call(self, int call):
        cdef SsState* s = &self.s
        cdef u64 h = s.hand[s.picker], p8 = h | s.buried
        cdef int m = call_mask(s, &self.o)
        if call == C_PICK or call == C_PASS:
            return "the pick is over: the picker must call a partner or go alone"
        if self.o.partner_mode == PM_JD:
            if call == C_JD:
                return "you hold JD yourself (in hand or buried): you must play alone"
            return "in the jack-of-diamonds game the picker calls jack_of_diamonds or alone"
        if call == C_JD:
            return "the jack-of-diamonds partner is not played (option partner: called_ace)"
        x = SUITS[(call - C_ACE) % 3]
        suit = SUIT_NAMES[x]
        all_aces = (p8 & FAIL_ACES) == FAIL_ACES
        if call < C_TEN:
            if all_aces:
                return "you hold all three fail aces: call a ten instead"
            if p8 & bit(card(ACE, (call - C_ACE))):
                where = "buried it" if s.buried & bit(card(ACE, call - C_ACE)) else "hold it"
                return f"you {where}: you may call only a fail ace you do not hold"
            return f"you kept no {suit} card, so you cannot call the {suit} ace"
        if call < C_UNKNOWN:
            if not all_aces:
                return "a ten may be called only when you hold all three fail aces"
            if p8 & bit(card(TEN, call - C_TEN)):
                return f"you hold the {suit} ten yourself"
            return f"you kept no {suit} card, so you cannot call the {suit} ten"
        if all_aces:
            return "you hold all three fail aces: call a ten instead"
        if m & ((1 << C_ACE) | (1 << (C_ACE + 1)) | (1 << (C_ACE + 2))):
            return "an ace can be called: the unknown ace is only for when none can"
        if p8 & bit(card(ACE, call - C_UNKNOWN)):
            return f"you hold the {suit} ace yourself"
        if h & ORDER.suit_mask[call - C_UNKNOWN]:
            return f"you hold a {suit} card: the unknown ace is called in a suit you are void in"
        return ("you hold fail cards other than aces: with no callable ace you must play alone "
                "(the unknown ace needs a hand whose fail cards are only aces)")

    def _explain_exchange(self, i64 code):
        cdef SsState* s = &self.s
        kind = EXCHANGES[(code & 0xFF) - EXCHANGE_BASE]
        n = popcount((<u64>code) >> 8)
        if s.phase == P_BURY:
            if kind == "unknown":
                return "no unknown card now: first bury 2 cards (exchange 'bury')"
            return f"bury exactly 2 cards, not {n}"
        if s.phase == P_UNKNOWN:
            if kind == "bury":
                return "the bury is done: set one card aside as the unknown (exchange 'unknown')"
            return f"set aside exactly 1 card as the unknown, not {n}"
        if kind == "unknown":
            return "no unknown card was called: it is set aside only after an unknown_ace call"
        return "the bury is done only by the picker, right after he picks"

    def _explain_play(self, int c):
        cdef SsState* s = &self.s
        cdef int x = s.to_act, led
        cdef u64 hand = s.hand[x], legal = ss_legal_play(s)
        code = DECK.code(c)
        called = DECK.code(s.called) if s.called >= 0 else ""
        suit = SUIT_NAMES[SUITS[s.called_suit]] if s.called_suit >= 0 else ""
        if s.n_in_trick == 0:
            return (f"until {suit} has been led you may lead {suit} only with the called card {called}")
        led = eff(s, s.trick[s.trick_no][0])
        led_name = "trump" if led == TRUMP else SUIT_NAMES[SUITS[led]]
        if suit_cards(s, hand, led):
            if holds_unknown(s, x) and legal == bit(s.unknown):
                return f"{suit} is led for the first time: you must play your unknown card"
            if x == s.partner and legal == bit(s.called):
                return f"{suit} is led for the first time: you must play the called card {called}"
            return f"you must follow {led_name}: you hold {', '.join(self._codes(suit_cards(s, hand, led)))}"
        if x == s.partner and c == s.called:
            return f"the called card {called} may not be discarded before {suit} has been led"
        if holds_unknown(s, x) and c == s.unknown:
            return f"the unknown card is kept for the first {suit} trick (or the last trick)"
        return f"you must keep {code}, your only {suit} card, until {suit} has been led (or the last trick)"

    # ---- what everybody may see ----
    def _partner_known(self, int seat):
        """The partner is known to himself, and to all once the called card has been played
        or the deal is over."""
        cdef SsState* s = &self.s
        if s.partner < 0 or s.phase == P_OVER or seat == s.partner:
            return True
        return not (s.hand[s.partner] & bit(s.called))

    def _contract(self, int seat):
        """The contract fields as `seat` may see them (seat -1: everything, for the result)."""
        cdef SsState* s = &self.s
        cdef bint full = seat < 0 or s.phase == P_OVER
        if s.contract == K_NONE:
            return None
        mult = self.o.multiplier * (2 if s.cracked_by >= 0 else 1) * (2 if s.recracked else 1)
        unknown = DECK.code(s.unknown) if s.unknown >= 0 else None
        if unknown is not None and not (full or seat == s.picker):
            unknown = HIDDEN
        buried = self._codes(s.buried)
        if buried and not (seat < 0 or seat == s.picker):
            buried = [HIDDEN] * len(buried)
        partner = s.partner if s.partner >= 0 else None
        if partner is not None and not (seat < 0 or self._partner_known(seat)):
            partner = None
        forced = bool(s.forced_alone) if (full or seat == s.picker) else None
        picker = s.picker if s.picker >= 0 else None
        return {"type": CONTRACT_NAMES[s.contract], "declarer": picker, "picker": picker,
                "partner": partner, "called_card": DECK.code(s.called) if s.called >= 0 else None,
                "unknown_card": unknown, "buried": buried, "forced_alone": forced,
                "multiplier": mult, "cracked_by": s.cracked_by if s.cracked_by >= 0 else None,
                "recracked": bool(s.recracked),
                "next_multiplier": 2 * self.o.multiplier if s.contract == K_DOUBLER else 1}

    def _trick_codes(self, int t, int n, int seat):
        cdef SsState* s = &self.s
        show = seat < 0 or seat == s.picker or s.phase == P_OVER
        return [HIDDEN if (s.trick[t][k] == s.unknown and not show) else DECK.code(s.trick[t][k])
                for k in range(n)]

    def _tricks(self, int seat=-1):
        cdef SsState* s = &self.s
        return [[s.trick_leader[t], self._trick_codes(t, 5, seat), s.trick_winner[t]]
                for t in range(s.trick_no)]

    def public(self, int seat):
        """What `seat` may see beyond its hand (module docstring: hidden information). The
        picker also sees the blind, his bury and his unknown card. Seat -1 is the engine's own
        full view (tests, tooling), never to be sent to a player."""
        cdef SsState* s = &self.s
        cdef int k
        out = {
            "picker": s.picker if s.picker >= 0 else None,
            "contract": self._contract(seat),
            "trick": {"leader": s.leader, "cards": self._trick_codes(s.trick_no, s.n_in_trick, seat)}
                     if s.phase == P_PLAY else None,
            "tricks": self._tricks(seat),
            "tricks_won": [s.n_won[k] for k in range(5)],
        }
        if seat == s.picker and s.picker >= 0:
            out["blind"] = self._codes(s.blind)
            out["buried"] = self._codes(s.buried)
            out["unknown_card"] = DECK.code(s.unknown) if s.unknown >= 0 else None
        if s.phase == P_OVER:
            result = self.result()
            if seat != s.picker:
                result["contract"] = self._contract(seat)
            out["result"] = result
        return out

    def redact(self, int index, action, int seat):
        """Other seats see the bury and the unknown exchange as face-down cards, and the play
        of the unknown card as "??" until the deal is over."""
        cdef SsState* s = &self.s
        if not isinstance(action, dict) or action.get("seat") == seat:
            return action
        kind = action.get("type")
        if kind == "exchange":
            out = dict(action)
            out["cards"] = [HIDDEN] * len(action.get("cards", ()))
            return out
        if (kind == "play" and s.unknown >= 0 and s.phase != P_OVER
                and action.get("seat") == s.picker and action.get("card") == DECK.code(s.unknown)):
            out = dict(action)
            out["card"] = HIDDEN
            return out
        return action

    def result(self):
        cdef SsState* s = &self.s
        cdef SsScore r
        cdef int i
        if s.phase != P_OVER:
            return None
        ss_score(s, &self.o, &r)
        out = {"contract": self._contract(-1)}
        points = [r.card_points[i] for i in range(5)]
        scores = [r.scores[i] for i in range(5)]
        if s.contract == K_DOUBLER:
            out.update(teams=[], tricks=[], card_points=points, scores=scores,
                       breakdown=[{"item": "doubler", "value": 2 * self.o.multiplier}])
            return out
        if s.contract == K_LEASTER:
            teams = [[i] for i in range(5)]
            if self.o.blind_last_trick:
                breakdown = [{"item": "blind_to_last_trick", "value": r.blind_points}]
            else:
                breakdown = [{"item": "blind_set_aside", "value": r.blind_points}]
            if r.leaster_winner >= 0:
                breakdown.append({"item": "leaster_winner", "value": r.leaster_winner})
            else:
                breakdown.append({"item": "leaster_tie", "value": r.leaster_low})
            if self.o.multiplier != 1:
                breakdown.append({"item": "multiplier", "value": self.o.multiplier})
        else:
            side = sorted(i for i in (s.picker, s.partner) if i >= 0)
            teams = [side, [i for i in range(5) if i not in side]]
            breakdown = [{"item": "picker_team_points", "value": r.team_points},
                         {"item": "defender_points", "value": r.defender_points},
                         {"item": "picker_team_wins" if r.team_won else "picker_team_loses", "value": 1},
                         {"item": ("game", "schneider", "no_trick")[r.level - 1], "value": r.level}]
            if r.bump != 1:
                breakdown.append({"item": "double_on_the_bump", "value": r.bump})
            if s.cracked_by >= 0:
                breakdown.append({"item": "crack", "value": 2})
            if s.recracked:
                breakdown.append({"item": "recrack", "value": 2})
            if self.o.multiplier != 1:
                breakdown.append({"item": "multiplier", "value": self.o.multiplier})
            breakdown.append({"item": "per_defender", "value": r.unit})
            if r.exempt:
                breakdown.append({"item": "partner_exempt", "value": 0})
            breakdown.append({"item": "picker_share", "value": r.picker_share})
            if s.partner >= 0:
                breakdown.append({"item": "partner_share", "value": r.partner_share})
        out.update(teams=teams, tricks=self._tricks(), card_points=points, scores=scores,
                   breakdown=breakdown)
        return out


def next_deal(result, int dealer):
    """The match loop's step after a finished deal (rules 1.4, 2.6): a doubler is redealt by
    the same dealer at `next_multiplier` and does not count toward `deals_per_match`; any
    played deal passes the deal to the left at multiplier 1."""
    contract = result["contract"]
    doubler = contract["type"] == "doubler"
    return {"dealer": dealer if doubler else (dealer + 1) % 5,
            "multiplier": contract["next_multiplier"], "counts": not doubler}
