# cython: language_level=3
"""Klaverjas (Klaverjassen), 4 players in fixed pairs {0,2} v {1,3}, 32 cards: rules of
../shared/rules/klaverjas.md.

Trump choice from eldest (dealer+1): `trump` with a suit or `pass`; the first naming ends it;
after four passes eldest must name a suit (forced). `trump_choice: compulsory` (and the
Utrecht ruleset) makes eldest name trumps at once.
Card order: trumps J 9 A T K Q 8 7 (20 14 11 10 4 3 0 0), plain A T K Q J 9 8 7
(11 10 4 3 2 0 0 0); 152 + 10 for the last trick = 162.
Play: follow suit; when void, Amsterdam or Rotterdam trumping (rules 4.2, implemented
literally in `kj_legal_play`); to a trump lead always beat the top trump if you can.
Scoring: roem per trick for its winner (runs of 3/4 in A K Q J T 9 8 7, four of a kind,
stuk), pit bonus, and nat when the playing team does not score strictly more.

Everything per card, trick and deal runs in the `kj_*` functions below (typed, nogil); the
`Core` class is the Python edge used by `engine_core.state.State`.
"""
from libc.string cimport memcpy, memset
from ._core cimport (u64, i64, int8_t, int16_t, Order, Rng, TRUMP, CALL_BASE, popcount,
                     lowest, bit, trick_winner_pos, mask_points, order_init,
                     order_add_trumps, order_add_plain, shuffle_deck, rng_below)

from .cards import PIQUET, SUITS, SUIT_NAMES
from .errors import OptionError
from .options import Options, OptionSpec

NAME = "klaverjas"
SEATS = 4
HAND_SIZE = 8
BLIND_SIZE = 0
DECK = PIQUET
DEAL_USES_OPTIONS = True     # deal_hands honours `deal_packets`

RULESETS = ("amsterdam", "rotterdam", "utrecht")

OPTIONS = (
    OptionSpec("ruleset", "choice", "amsterdam",
               "trumping rules: amsterdam, rotterdam (must trump and overtrump even over partner), "
               "utrecht (amsterdam trumping, compulsory trump choice)", allowed=RULESETS),
    OptionSpec("trump_choice", "choice", None,
               "'free' (pass or name, forced after four passes) or 'compulsory' (eldest names at "
               "once); absent/null = compulsory for utrecht, else free",
               allowed=("free", "compulsory", None)),
    OptionSpec("tie_rule", "choice", "nat", "a tie is nat, or 'half_nat': defenders keep only their own points",
               allowed=("nat", "half_nat")),
    OptionSpec("roem", "bool", True, "count roem (runs, four of a kind, stuk)"),
    OptionSpec("nat_roem", "choice", "all",
               "on nat the defenders get 162 + all roem ('all') or only their own ('own')",
               allowed=("all", "own")),
    OptionSpec("pit_bonus", "int", 100, "bonus for taking all eight tricks", minimum=0),
    OptionSpec("deal_packets", "int_list", (3, 2, 3), "packet sizes of the deal, summing to 8",
               minimum=1, status="informational"),
    OptionSpec("deals_per_match", "int", 16, "match length in deals", minimum=1, status="informational"),
)

# ---- card indices: rank + 8 * suit, ranks A T K Q J 9 8 7, suits C S H D ----
cdef enum:
    ACE = 0
    TEN = 1
    KING = 2
    QUEEN = 3
    JACK = 4
    NINE = 5

# ---- calls: (type, call, suit); an action code is CALL_BASE + index ----
CALLS = (
    ("bid", "pass", None),
    ("bid", "trump", "C"), ("bid", "trump", "S"), ("bid", "trump", "H"), ("bid", "trump", "D"),
)
EXCHANGES = ()

cdef enum:
    C_PASS = 0
    C_TRUMP = 1       # + suit

cdef enum:
    P_BIDDING = 0
    P_FORCED = 1      # eldest must name trumps (four passes, or compulsory choice)
    P_PLAY = 2
    P_OVER = 3

PHASE_NAMES = ("bidding", "bidding", "play", "over")
ROEM_ITEMS = ((R_RUN3, "roem_run3"), (R_RUN4, "roem_run4"), (R_FOUR, "roem_four_of_a_kind"),
              (R_FOUR_JACKS, "roem_four_jacks"), (R_STUK, "roem_stuk"))

# ORDERS[t]: trumps t (0..3); ORDERS[4]: no trumps yet (for sorting during the trump choice)
cdef Order ORDERS[5]
cdef int8_t POINTS[4][32]     # card points per trump suit
cdef u64 ABOVE[4][9]          # ABOVE[t][p]: trumps of suit t with power > p (p = 0: every trump)
cdef int8_t SEQ[8]            # rank index -> position in the roem sequence A K Q J T 9 8 7


cdef inline int card(int rank, int suit) noexcept nogil:
    return rank + 8 * suit


cdef void _build_tables():
    cdef int8_t trumps[8]
    cdef int8_t plain[8]
    cdef int t, s, i, p, c
    trump_ranks = (JACK, NINE, ACE, TEN, KING, QUEEN, 6, 7)
    trump_points = {JACK: 20, NINE: 14, ACE: 11, TEN: 10, KING: 4, QUEEN: 3}
    plain_points = (11, 10, 4, 3, 2, 0, 0, 0)
    for i, r in enumerate((0, 4, 1, 2, 3, 5, 6, 7)):
        SEQ[i] = r
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
    for t in range(4):
        for c in range(32):
            POINTS[t][c] = trump_points.get(c % 8, 0) if c // 8 == t else plain_points[c % 8]
        for p in range(9):
            ABOVE[t][p] = 0
            for c in range(32):
                if ORDERS[t].eff_suit[c] == TRUMP and ORDERS[t].power[c] > p:
                    ABOVE[t][p] |= bit(c)

_build_tables()


# ---- the deal ------------------------------------------------------------------------------
def deal_hands(order, int dealer, options=None):
    """For each packet size in turn (default 3, 2, 3), a packet to dealer+1, dealer+2,
    dealer+3 and the dealer (rules 1)."""
    packets = options.deal_packets if options is not None else (3, 2, 3)
    hands = [[] for _ in range(4)]
    pos = 0
    for size in packets:
        for k in range(1, 5):
            hands[(dealer + k) % 4].extend(order[pos:pos + size])
            pos += size
    return hands, []


cdef void kj_deal(Rng* r, int dealer, const int8_t* packets, int n_packets, u64* hands) noexcept nogil:
    """The nogil twin of `deal_hands` for batch playouts."""
    cdef int8_t deck[32]
    cdef int i, k, j, pos = 0
    shuffle_deck(r, deck, 32)
    for i in range(4):
        hands[i] = 0
    for i in range(n_packets):
        for k in range(1, 5):
            for j in range(packets[i]):
                hands[(dealer + k) % 4] |= bit(deck[pos])
                pos += 1


def validate_options(options):
    """Resolve `trump_choice` from the ruleset and reject what the rules forbid: Utrecht
    with a free trump choice, packets that do not deal 8 cards."""
    values = options.as_dict()
    if sum(values["deal_packets"]) != 8:
        raise OptionError("options.deal_packets",
                          f"the packet sizes must add up to 8 cards, got {values['deal_packets']}")
    choice = values["trump_choice"]
    if values["ruleset"] == "utrecht":
        if choice == "free":
            raise OptionError("options.trump_choice",
                              "ruleset 'utrecht' means a compulsory trump choice: 'free' is not "
                              "allowed with it (omit trump_choice or set it to 'compulsory')")
        choice = "compulsory"
    elif choice is None:
        choice = "free"
    return Options(options.game, tuple((k, choice if k == "trump_choice" else v)
                                       for k, v in options.values))


# ---- roem (rules 5.2) ---------------------------------------------------------------------
cdef inline int longest_run(unsigned int m) noexcept nogil:
    cdef int n = 0
    while m:
        m &= m >> 1
        n += 1
    return n


cdef int kj_trick_roem(const int8_t* cards, int trump, int* items) noexcept nogil:
    """Roem of a complete trick: runs per suit in A K Q J T 9 8 7 (only the longest counts),
    four of a kind, and the stuk (K and Q of trumps) on top. Returns the value and sets the
    R_* flags in `items`."""
    cdef unsigned int seq[4]
    cdef int i, c, run, value = 0
    cdef int rank0 = cards[0] % 8
    cdef bint same_rank = True
    items[0] = 0
    for i in range(4):
        seq[i] = 0
    for i in range(4):
        c = cards[i]
        seq[c // 8] |= 1u << SEQ[c % 8]
        if c % 8 != rank0:
            same_rank = False
    if same_rank:
        if rank0 == JACK:
            items[0] = R_FOUR_JACKS
            return 200
        if rank0 <= QUEEN:           # A T K Q
            items[0] = R_FOUR
            return 100
        return 0
    for i in range(4):
        run = longest_run(seq[i])
        if run >= 4:
            items[0] |= R_RUN4
            value += 50
        elif run == 3:
            items[0] |= R_RUN3
            value += 20
    if (seq[trump] & (1u << SEQ[KING])) and (seq[trump] & (1u << SEQ[QUEEN])):
        items[0] |= R_STUK
        value += 20
    return value


# ---- state machine -------------------------------------------------------------------------
cdef void kj_init(KjState* s, const KjOpts* o, const u64* hands, int dealer) noexcept nogil:
    memset(s, 0, sizeof(KjState))
    cdef int i
    for i in range(4):
        s.hand[i] = hands[i]
        s.dealt[i] = hands[i]
    s.dealer = dealer
    s.to_act = (dealer + 1) % 4
    s.leader = s.to_act
    s.phase = P_FORCED if o.compulsory else P_BIDDING
    s.trump = -1
    s.maker = -1


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


cdef u64 kj_legal_play(const KjState* s, const KjOpts* o) noexcept nogil:
    """Legal cards of the seat to act: the algorithm of rules 4.2, step by step; 0 outside
    the play phase."""
    if s.phase != P_PLAY:
        return 0
    cdef int me = s.to_act
    cdef u64 hand = s.hand[me]
    if s.n_in_trick == 0:
        return hand                                          # lead anything
    cdef const Order* od = &ORDERS[s.trump]
    cdef int led = od.eff_suit[s.trick[s.trick_no][0]]
    cdef u64 trumps = hand & od.suit_mask[TRUMP]
    cdef int top = top_trump_power(s)
    cdef u64 higher = trumps & ABOVE[s.trump][top]
    cdef u64 follow, m
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


cdef int kj_legal(const KjState* s, const KjOpts* o, i64* out) noexcept nogil:
    cdef int n = 0, suit
    cdef u64 m
    if s.phase == P_PLAY:
        m = kj_legal_play(s, o)
        while m:
            out[n] = lowest(m)
            n += 1
            m &= m - 1
    elif s.phase == P_BIDDING or s.phase == P_FORCED:
        if s.phase == P_BIDDING:
            out[n] = CALL_BASE + C_PASS
            n += 1
        for suit in range(4):
            out[n] = CALL_BASE + C_TRUMP + suit
            n += 1
    return n


cdef void kj_apply(KjState* s, const KjOpts* o, i64 code) noexcept nogil:
    """Apply a legal action code (legality is the caller's check)."""
    cdef int seat = s.to_act, pos, winner, items, i
    cdef int8_t* cards
    if code < CALL_BASE:
        s.hand[seat] &= ~bit(<int>code)
        cards = s.trick[s.trick_no]
        cards[s.n_in_trick] = <int8_t>code
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
            s.trick_roem[s.trick_no] = kj_trick_roem(cards, s.trump, &items)
            s.trick_roem_items[s.trick_no] = items
        s.trick_no += 1
        s.n_in_trick = 0
        s.leader = winner
        s.to_act = winner
        if s.trick_no == 8:
            s.phase = P_OVER
            s.to_act = -1
        return
    code -= CALL_BASE
    if code == C_PASS:
        s.n_passes += 1
        s.to_act = (seat + 1) % 4
        if s.n_passes == 4:                  # all passed: eldest must choose (to_act is eldest)
            s.phase = P_FORCED
        return
    s.trump = <int8_t>(code - C_TRUMP)
    s.maker = seat
    s.forced = s.phase == P_FORCED
    s.phase = P_PLAY
    s.to_act = (s.dealer + 1) % 4            # eldest leads, whoever chose trumps
    s.leader = s.to_act


# ---- scoring (rules 5) ----------------------------------------------------------------------
cdef void kj_score(const KjState* s, const KjOpts* o, KjScore* r) noexcept nogil:
    """Card points, roem, pit, made or nat, and per-seat scores of a finished deal."""
    memset(r, 0, sizeof(KjScore))
    cdef int i, team, p_side = s.maker % 2, P = 0, D = 1
    cdef int tricks[2]
    cdef const int8_t* points = POINTS[s.trump]
    tricks[0] = 0
    tricks[1] = 0
    for i in range(4):
        r.card_points[i] = mask_points(points, s.won[i])
        team = P if i % 2 == p_side else D
        r.cards[team] += r.card_points[i]          # card points only; the last-trick 10 apart
        tricks[team] += s.n_won[i]
    team = P if s.trick_winner[7] % 2 == p_side else D
    r.last[team] = 10
    r.card_points[s.trick_winner[7]] += 10
    for i in range(8):
        team = P if s.trick_winner[i] % 2 == p_side else D
        r.roem[team] += s.trick_roem[i]
    for team in range(2):
        if tricks[team] == 8:
            r.pit[team] = o.pit_bonus
        r.total[team] = r.cards[team] + r.last[team] + r.roem[team] + r.pit[team]
    if r.total[P] > r.total[D]:
        r.outcome = 0
        r.score[P] = r.total[P]
        r.score[D] = r.total[D]
    elif r.total[P] == r.total[D] and o.half_nat:
        r.outcome = 2
        r.score[P] = 0
        r.score[D] = r.total[D]
    else:
        r.outcome = 1
        r.score[P] = 0
        r.score[D] = 162 + r.roem[D] + r.pit[D] + (0 if o.nat_roem_own else r.roem[P])
    for i in range(4):
        r.scores[i] = r.score[P] if i % 2 == p_side else r.score[D]


# ---- random playouts (benchmarks, statistics) -----------------------------------------------
cdef void kj_random_deal(Rng* r, const KjOpts* o, int dealer, const int8_t* packets, int n_packets,
                         KjState* s, KjScore* out) noexcept nogil:
    """Deal, then choose every action uniformly among the legal ones, and score."""
    cdef u64 hands[4]
    cdef i64 buf[32]
    cdef int n
    kj_deal(r, dealer, packets, n_packets, hands)
    kj_init(s, o, hands, dealer)
    while s.phase != P_OVER:
        n = kj_legal(s, o, buf)
        kj_apply(s, o, buf[rng_below(r, n)])
    kj_score(s, o, out)


cdef int kj_opts(object options, KjOpts* o) except -1:
    """The C options of a resolved `Options` (Core and batch playouts share this mapping)."""
    memset(o, 0, sizeof(KjOpts))
    o.rotterdam = options.ruleset == "rotterdam"
    o.compulsory = options.ruleset == "utrecht" or options.trump_choice == "compulsory"
    o.roem = options.roem
    o.half_nat = options.tie_rule == "half_nat"
    o.nat_roem_own = options.nat_roem == "own"
    o.pit_bonus = options.pit_bonus
    return 0


cdef int kj_packets(object options, int8_t* packets) except -1:
    """The deal's packet sizes (at most 8) into `packets`; returns how many (kj_deal's input)."""
    cdef int i, n = len(options.deal_packets)
    if not 0 < n <= 8:
        raise ValueError(f"deal_packets: 1..8 packets, got {n}")
    for i in range(n):
        packets[i] = options.deal_packets[i]
    return n


def random_playouts(options, int n, unsigned long long seed):
    """Play `n` random deals (dealer rotating) without the GIL; returns the per-seat score
    sums and how many deals were made, nat and half_nat."""
    cdef KjOpts o
    cdef KjState s
    cdef KjScore r
    cdef Rng rng
    cdef int8_t packets[8]
    cdef int n_packets = kj_packets(options, packets), i, k
    cdef long long sums[4]
    cdef long long outcomes[3]
    kj_opts(options, &o)
    rng.s = seed
    memset(sums, 0, sizeof(sums))
    memset(outcomes, 0, sizeof(outcomes))
    with nogil:
        for i in range(n):
            kj_random_deal(&rng, &o, i % 4, packets, n_packets, &s, &r)
            for k in range(4):
                sums[k] += r.scores[k]
            outcomes[r.outcome] += 1
    return {"deals": n, "score_sums": [sums[k] for k in range(4)],
            "made": outcomes[0], "nat": outcomes[1], "half_nat": outcomes[2]}


# ---- single-trick helpers (analysis, teaching, tests) ---------------------------------------
def trick_roem(cards, trump):
    """The roem items of one complete trick (4 card codes) with `trump` (a suit letter), as
    [(item, value), ...] in breakdown order: e.g. KH QH JH 7C with hearts ->
    [("roem_run3", 20), ("roem_stuk", 20)]."""
    cdef int8_t c[4]
    cdef int items, i
    if len(cards) != 4 or len(set(cards)) != 4:
        raise ValueError(f"a trick is 4 different cards, got {list(cards)!r}")
    if trump not in ("C", "S", "H", "D"):
        raise ValueError(f"bad trump suit {trump!r}: one of C, S, H, D")
    for i in range(4):
        c[i] = DECK.face_index(cards[i])
    kj_trick_roem(c, SUITS.index(trump), &items)
    values = {R_RUN3: 20, R_RUN4: 50, R_FOUR: 100, R_FOUR_JACKS: 200, R_STUK: 20}
    return [(name, values[flag]) for flag, name in ROEM_ITEMS if items & flag]


def card_value(card, trump):
    """Card points of one card with `trump`: e.g. JH is 20 with hearts trumps, 2 otherwise."""
    if trump not in ("C", "S", "H", "D"):
        raise ValueError(f"bad trump suit {trump!r}: one of C, S, H, D")
    return POINTS[SUITS.index(trump)][DECK.face_index(card)]


def trick_winner(cards, trump, int leader=0):
    """The seat winning a (partial) trick led by `leader`: highest trump, else highest card
    of the suit led (rules 4.1)."""
    cdef int8_t c[4]
    cdef int i, n = len(cards)
    if not 1 <= n <= 4 or len(set(cards)) != n:
        raise ValueError(f"a trick is 1 to 4 different cards, got {list(cards)!r}")
    if trump not in ("C", "S", "H", "D"):
        raise ValueError(f"bad trump suit {trump!r}: one of C, S, H, D")
    for i in range(n):
        c[i] = DECK.face_index(cards[i])
    return (leader + trick_winner_pos(&ORDERS[SUITS.index(trump)], c, n)) % 4


def position(hand, trick, trump, ruleset="amsterdam", int leader=0):
    """A Core holding one seat's position inside a trick, for the questions of rules 4.2
    (legal_codes, legal_mask, explain): `hand` of the seat to act, the `trick` cards so far
    in play order (led by `leader`), `trump` a suit letter. Other seats' cards are unknown
    and not needed: legality depends on the hand and the trick only. An analysis object,
    not a playable deal (the other hands are empty)."""
    cdef Core core = Core.__new__(Core)
    cdef KjState* s = &core.s
    cdef int i
    if ruleset not in RULESETS:
        raise ValueError(f"bad ruleset {ruleset!r}: one of {', '.join(RULESETS)}")
    if trump not in ("C", "S", "H", "D"):
        raise ValueError(f"bad trump suit {trump!r}: one of C, S, H, D")
    if not 0 <= len(trick) <= 3 or not 0 <= leader < 4:
        raise ValueError("a trick in progress holds 0 to 3 cards; leader is a seat 0..3")
    hand_mask = DECK.mask_of(hand)
    trick_mask = DECK.mask_of(trick)
    if len(set(hand)) != len(hand) or len(set(trick)) != len(trick) or hand_mask & trick_mask:
        raise ValueError("a card may appear only once in hand and trick together")
    if not 1 <= len(hand) <= 8:
        raise ValueError(f"a hand holds 1 to 8 cards, got {len(hand)}")
    memset(s, 0, sizeof(KjState))
    core.ruleset = ruleset
    core.o.rotterdam = ruleset == "rotterdam"
    core.o.roem = True
    core.o.pit_bonus = 100
    core.n_hist = 0
    s.phase = P_PLAY
    s.trump = SUITS.index(trump)
    s.leader = leader
    s.maker = leader
    s.dealer = (leader + 3) % 4
    s.trick_no = 8 - len(hand)            # a hand of n cards plays to trick 8 - n
    s.n_in_trick = len(trick)
    for i in range(len(trick)):
        s.trick[s.trick_no][i] = DECK.face_index(trick[i])
    s.to_act = (leader + len(trick)) % 4
    s.hand[s.to_act] = hand_mask
    return core


def legal_cards(hand, trick, trump, ruleset="amsterdam", int leader=0):
    """The rules file's legal(hand, trick) (4.2) as card codes, trumps first."""
    core = position(hand, trick, trump, ruleset, leader)
    return [DECK.code(i) for i in core.sort_cards(core.legal_mask())]


# ---- Python edge ---------------------------------------------------------------------------
cdef class Core:
    """One Klaverjas deal as C state. The fast step API (legal codes or a card mask, apply,
    copy, undo) works on integer codes; `engine_core.state.State` wraps it for records."""

    cdef KjState s
    cdef KjOpts o
    cdef KjState hist[KJ_MAX_ACTIONS]
    cdef int n_hist
    cdef object ruleset

    def __init__(self, options, hands, int dealer, blind=0):
        cdef u64 h[4]
        cdef int i
        self.ruleset = options.ruleset
        kj_opts(options, &self.o)
        for i in range(4):
            h[i] = hands[i]
        kj_init(&self.s, &self.o, h, dealer)
        self.n_hist = 0

    cpdef Core copy(self):
        cdef Core c = Core.__new__(Core)
        c.s = self.s
        c.o = self.o
        c.ruleset = self.ruleset
        c.n_hist = self.n_hist
        memcpy(c.hist, self.hist, self.n_hist * sizeof(KjState))
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
        return kj_legal_play(&self.s, &self.o)

    cpdef list legal_codes(self):
        cdef i64 buf[32]
        cdef int n = kj_legal(&self.s, &self.o, buf), i
        return [buf[i] for i in range(n)]

    cpdef bint is_legal(self, i64 code):
        cdef i64 buf[32]
        cdef int n, i
        if 0 <= code < 32:
            return (kj_legal_play(&self.s, &self.o) >> code) & 1
        n = kj_legal(&self.s, &self.o, buf)
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
        kj_apply(&self.s, &self.o, code)

    cpdef undo(self):
        if self.n_hist == 0:
            raise ValueError("nothing to undo")
        self.n_hist -= 1
        self.s = self.hist[self.n_hist]

    def sort_cards(self, u64 mask):
        """Trumps first (J 9 A T K Q 8 7), then the plain suits C S H D, each highest first;
        before trumps are named, every suit in its plain order."""
        cdef const Order* od = &ORDERS[self.s.trump if self.s.trump >= 0 else 4]
        cdef int c
        keyed = []
        for c in range(32):
            if mask >> c & 1:
                keyed.append((0 if od.eff_suit[c] == TRUMP else 1 + od.eff_suit[c], -od.power[c], c))
        return [k[2] for k in sorted(keyed)]

    def _names(self, u64 mask):
        return ", ".join(DECK.code(i) for i in self.sort_cards(mask))

    # ---- explanations: why a well-formed action is not legal ----
    def explain(self, i64 code):
        cdef KjState* s = &self.s
        if code < CALL_BASE:
            return self._explain_play(<int>code)
        if s.phase == P_FORCED and code == CALL_BASE + C_PASS:
            if self.o.compulsory:
                return (f"the trump choice is compulsory ({self._choice_rule()}): seat {s.to_act} "
                        f"must name a trump suit and may not pass")
            return f"all four players passed: seat {s.to_act} must now name a trump suit"
        return "trumps have already been named"

    def _choice_rule(self):
        return "Utrecht rules" if self.ruleset == "utrecht" else "trump_choice compulsory"

    def _explain_play(self, int c):
        """The rule of 4.2 that the card breaks, with the cards that satisfy it."""
        cdef KjState* s = &self.s
        cdef const Order* od = &ORDERS[s.trump]
        cdef int me = s.to_act, led, top
        cdef u64 hand = s.hand[me], legal = kj_legal_play(s, &self.o), trumps, higher
        card_code = DECK.code(c)
        if s.n_in_trick == 0:
            return f"{card_code} may not be led now"      # never happens: any card may be led
        led = od.eff_suit[s.trick[s.trick_no][0]]
        trumps = hand & od.suit_mask[TRUMP]
        top = top_trump_power(s)
        higher = trumps & ABOVE[s.trump][top]
        trump_name = SUIT_NAMES[SUITS[s.trump]]
        top_card = ""
        for i in range(s.n_in_trick):
            if od.eff_suit[s.trick[s.trick_no][i]] == TRUMP and od.power[s.trick[s.trick_no][i]] == top:
                top_card = DECK.code(s.trick[s.trick_no][i])
        winner = current_winner(s)
        who = "your partner's" if winner == (me + 2) % 4 else "the"
        if led == TRUMP:
            if higher:
                return (f"trumps were led: you must beat {who} {top_card} if you can "
                        f"(must overtrump: you hold {self._names(higher)})")
            return f"trumps were led: you must play a trump (you hold {self._names(trumps)})"
        if hand & od.suit_mask[led]:
            return (f"you must follow {SUIT_NAMES[SUITS[led]]}: you hold "
                    f"{self._names(hand & od.suit_mask[led])}")
        void = f"you cannot follow {SUIT_NAMES[SUITS[led]]}"
        if self.o.rotterdam:
            partner_wins = " even though your partner is winning" if winner == (me + 2) % 4 else ""
            if top and higher:
                return (f"{void}: Rotterdam rules, you must trump and beat {top_card}{partner_wins}: "
                        f"must overtrump: you hold {self._names(higher)}")
            if top:
                return (f"{void}: Rotterdam rules, you must trump, and undertrump when you cannot beat {top_card}: "
                        f"you hold {self._names(trumps)}")
            return f"{void}: Rotterdam rules, you must trump{partner_wins}: you hold {self._names(trumps)}"
        if winner == (me + 2) % 4:
            return (f"{void}: you may not undertrump your partner's {top_card} while you hold other "
                    f"cards (legal: {self._names(legal)})")
        if top == 0:
            return (f"{void} and an opponent is winning the trick: you must trump "
                    f"(you hold {self._names(trumps)})")
        if higher:
            return (f"{void} and an opponent is winning with {top_card}: "
                    f"must overtrump: you hold {self._names(higher)}")
        return (f"{void}: you may not undertrump {top_card} while you hold cards of another suit; "
                f"discard one of {self._names(legal)}")

    # ---- what everybody may see ----
    def _contract(self, outcome=None):
        cdef KjState* s = &self.s
        if s.maker < 0:
            return None
        out = {"type": "trump", "declarer": s.maker, "trump": SUITS[s.trump], "maker": s.maker,
               "forced": bool(s.forced), "ruleset": self.ruleset}
        if outcome is not None:
            out["outcome"] = outcome
        return out

    def _teams(self):
        p = self.s.maker % 2
        return [[p, p + 2], [1 - p, 3 - p]]

    def _tricks(self):
        cdef KjState* s = &self.s
        return [[s.trick_leader[t], [DECK.code(s.trick[t][k]) for k in range(4)], s.trick_winner[t]]
                for t in range(s.trick_no)]

    def _roem_items(self):
        """One breakdown entry per roem item of the completed tricks, in trick order."""
        cdef KjState* s = &self.s
        out = []
        p = s.maker % 2
        for t in range(s.trick_no):
            team = 0 if s.trick_winner[t] % 2 == p else 1
            flags = s.trick_roem_items[t]
            for flag, name in ROEM_ITEMS:
                if flags & flag:
                    value = {R_RUN3: 20, R_RUN4: 50, R_FOUR: 100, R_FOUR_JACKS: 200, R_STUK: 20}[flag]
                    out.append({"item": name, "team": team, "trick": t, "value": value})
        return out

    def public(self, int seat):
        """Public to every seat: the contract, the trick in progress, completed tricks and the
        roem they scored (all cards played are seen by everyone)."""
        cdef KjState* s = &self.s
        cdef int k
        out = {
            "contract": self._contract(),
            "teams": self._teams() if s.maker >= 0 else None,
            "passes": s.n_passes,
            "trick": {"leader": s.leader,
                      "cards": [DECK.code(s.trick[s.trick_no][k]) for k in range(s.n_in_trick)]}
                     if s.phase == P_PLAY else None,
            "tricks": self._tricks(),
            "tricks_won": [s.n_won[k] for k in range(4)],
            "roem": self._roem_items() if s.maker >= 0 else [],
        }
        if s.phase == P_OVER:
            out["result"] = self.result()
        return out

    def redact(self, int index, action, int seat):
        """Every Klaverjas action is public."""
        return action

    def result(self):
        cdef KjState* s = &self.s
        cdef KjScore r
        cdef int i
        if s.phase != P_OVER:
            return None
        kj_score(s, &self.o, &r)
        outcome = ("made", "nat", "half_nat")[r.outcome]
        breakdown = []
        for team in range(2):
            breakdown.append({"item": "cards", "team": team, "value": r.cards[team]})
            if r.last[team]:
                breakdown.append({"item": "last_trick", "team": team, "value": r.last[team]})
        breakdown.extend(self._roem_items())
        for team in range(2):
            if r.pit[team]:
                breakdown.append({"item": "pit", "team": team, "value": r.pit[team]})
        for team in range(2):
            breakdown.append({"item": "total", "team": team, "value": r.total[team]})
        if r.outcome:
            breakdown.append({"item": outcome, "team": 1, "value": r.score[1]})
        for team in range(2):
            breakdown.append({"item": "score", "team": team, "value": r.score[team]})
        return {
            "contract": self._contract(outcome),
            "teams": self._teams(),
            "tricks": self._tricks(),
            "card_points": [r.card_points[i] for i in range(4)],
            "team_totals": [r.total[0], r.total[1]],
            "scores": [r.scores[i] for i in range(4)],
            "breakdown": breakdown,
        }
