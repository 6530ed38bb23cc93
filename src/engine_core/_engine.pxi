# The engine written once and compiled into every game's module (`include` at the end of
# games/<game>/rules.pyx), so that the game's rule hooks inline into it: the Core class with
# the step API, record replay, the random playout of one deal and the game's C entry table.
# OpenSpiel's State::ApplyAction -> DoApplyAction split, with the hooks resolved at compile time.
#
# The including module defines (contract: docs/adding-a-game.md):
#   ctypedef GState, GOpts   its state and options structs (GOpts has a `DealPlan deal`)
#   enum G_SEATS, G_HAND, G_BLIND, G_DECK, G_FACES, G_COPIES, G_MAX_ACTIONS, G_BIDS
#   nogil hooks g_init, g_kinds, g_legal_cards, g_legal, g_apply,
#               g_interjection(s, o, seat) / g_interject(s, o, seat, code) (the one action a seat
#               that is not to act may take now, -1 if none; Doppelkopf's out-of-turn announcement),
#               g_random, g_score, g_result, g_stat_contract, g_order,
#               g_sides(s, seat, &partners, &opponents) (seat masks as `seat` knows them)
#   g_opts(options, GOpts*) (the resolved Options to C), _NAMES (a _result.Names), PHASE_NAMES,
#   the Python-level hooks explain(core, code), public(core, seat), redact(core, i, a, seat),
#   redact_result(core, result, seat),
#   and the solver hooks of _solver.pxi (included at the end)
# GState has the common fields hand[], to_act (-1 when the deal is over), phase (the game's Phase
# value) and dealer, and the trick fields trick_no, n_in_trick, leader, trick[][G_SEATS],
# trick_leader[], trick_winner[].
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.pycapsule cimport PyCapsule_New
from libc.string cimport memcpy, memset
from engine_core._bits cimport popcount, lowest, bit
from engine_core._rng cimport Rng, rng_below, pick_bit
from engine_core._order cimport Order, TRUMP
from engine_core._game cimport (idle_seat, trick_size, next_seat, seat_in_trick, CALL_BASE, EXCHANGE_BASE, exchange_code, exchange_call, exchange_mask, MAX_LEGAL, MAX_SEATS, A_BID,
                                A_EXCHANGE, A_ANNOUNCE, A_PLAY, Score, Result, PlayoutStats,
                                GameHooks, book, BIDS_UNIFORM, TRACE_HANDS, TRACE_COUNT,
                                TRACE_CODES, TRACE_SIZE, DealPlan, TO_BLIND, MAX_PACKETS,
                                clock_ns, PH_DEAL, PH_CALLS, PH_PLAY, PH_SCORE, N_PHASES, TIMED_MAX_NS)
from engine_core._rng cimport shuffle_deck
from engine_core._result cimport Names, render

cdef tuple _CARD_INTS = tuple(range(64))
cdef dict _ORDER_CODES = {}     # static order table's address -> its codes (Core.order_codes)
cdef dict _POINT_CODES = {}     # static point table's address -> points by face code
cdef u64 _DECK_MASK = (<u64>-1) if G_DECK == 64 else ((<u64>1 << G_DECK) - 1)
cdef u64 _FACE_MASK = (<u64>1 << G_FACES) - 1
_KINDS = ((A_BID, "bid"), (A_EXCHANGE, "exchange"), (A_ANNOUNCE, "announce"), (A_PLAY, "play"))


# ---- the generic parts of the rules, over the hooks ----
cdef inline int g_to_act(const GState* s) noexcept nogil:
    """The seat to act, -1 when the deal is over."""
    return s.to_act


cdef inline int g_phase(const GState* s) noexcept nogil:
    return s.phase



cdef inline u64 held_copies(u64 hand, u64 faces, u64 twice) noexcept nogil:
    """The cards of `hand` that a multiset of faces names (faces given once: the first copy
    held; `twice`: both copies), as Deck.mask_of(within=hand) picks them."""
    cdef u64 once, lo
    if G_COPIES == 1:
        return faces
    once = faces & ~twice
    lo = hand & _FACE_MASK
    return twice | (twice << G_FACES) | (once & lo) | ((once & ~lo) << G_FACES)


cdef inline bint legal_code(const GState* s, const GOpts* o, i64 code) noexcept nogil:
    """Whether an action code is legal for the seat to act now."""
    cdef i64 buf[MAX_LEGAL]
    cdef int n, i
    if g_to_act(s) < 0:
        return False
    if 0 <= code < CALL_BASE:
        return code < G_DECK and (g_legal_cards(s, o) >> code) & 1
    n = g_legal(s, o, buf)
    for i in range(n):
        if buf[i] == code:
            return True
    return False


cdef inline i64 uniform_action(const GState* s, const GOpts* o, Rng* r) noexcept nogil:
    """A uniformly random legal action (the default of g_random)."""
    cdef i64 buf[MAX_LEGAL]
    cdef int n = g_legal(s, o, buf)
    return buf[rng_below(r, n)] if n > 1 else buf[0]


cdef inline i64 held_code(u64 hand, i64 code, u64 twice) noexcept nogil:
    """The physical code of a record's action code for the seat holding `hand`: a play names a
    face (the copy held is taken), an exchange a multiset of faces (`twice`: named twice)."""
    if G_COPIES > 1:
        if 0 <= code < G_FACES and not (hand >> code) & 1:
            return code + G_FACES
        if code >= EXCHANGE_BASE:
            return exchange_code(exchange_call(code), held_copies(hand, exchange_mask(code), twice))
    return code


cdef inline bint interjection_legal(const GState* s, const GOpts* o, int seat, i64 code) noexcept nogil:
    """Whether `seat`, not the seat to act, may take the action `code` now (g_interjection)."""
    return (0 <= seat < G_SEATS and seat != g_to_act(s) and g_to_act(s) >= 0
            and code >= 0 and g_interjection(s, o, seat) == code)


cdef int g_replay(GState* s, const GOpts* o, const int8_t* seats, const i64* codes,
                  const u64* twice, int n) noexcept nogil:
    """Apply actions (seat, code) in order while each is that seat's legal action (its turn's,
    or an interjection); the number applied (n when all were). Play codes name a face (the copy held is taken) and exchange
    codes a multiset of faces (`twice`: faces named twice), as a record writes them."""
    cdef int i, seat
    cdef i64 code
    for i in range(n):
        seat = g_to_act(s)
        if seat < 0:
            return i
        if seats[i] != seat:
            if not interjection_legal(s, o, seats[i], codes[i]):
                return i
            g_interject(s, o, seats[i], codes[i])
            continue
        code = held_code(s.hand[seat], codes[i], twice[i])
        if not legal_code(s, o, code):
            return i
        g_apply(s, o, code)
    return n


cdef void g_playout(Rng* r, int dealer, int bids, const void* vo, PlayoutStats* st,
                    i64* trace) noexcept nogil:
    """Deal, random legal actions (`bids`: BIDS_*) to the end, score; add the deal to `st`.
    With a `trace` (TRACE_* layout), record the hands and every action code. With st.timed,
    add the time of each phase (PH_*) to st.phase_ns: the same loop, a clock read per phase
    (a deal that took over TIMED_MAX_NS lost the core to another process and is left out)."""
    cdef const GOpts* o = <const GOpts*>vo
    cdef GState s
    cdef Score sc
    cdef u64 hands[MAX_SEATS]
    cdef u64 blind = 0
    cdef i64 code, t0 = 0, t1
    cdef i64 ph[N_PHASES]
    cdef int i, cards = 0, calls = 0
    cdef bint timed = st.timed
    if timed:
        t0 = clock_ns()
    deal_cards(r, dealer, &o.deal, hands, &blind, NULL)
    g_init(&s, o, hands, blind, dealer)
    if timed:
        t1 = clock_ns()
        ph[PH_DEAL] = t1 - t0
        ph[PH_CALLS] = ph[PH_PLAY] = 0
        t0 = t1
    if trace != NULL:
        for i in range(G_SEATS):
            trace[TRACE_HANDS + i] = <i64>hands[i]
        trace[TRACE_HANDS + G_SEATS] = <i64>blind
        trace[TRACE_COUNT] = 0
    while g_to_act(&s) >= 0:
        code = g_random(&s, o, r, bids)
        if trace != NULL and trace[TRACE_COUNT] < TRACE_SIZE - TRACE_CODES:
            trace[TRACE_CODES + trace[TRACE_COUNT]] = code
            trace[TRACE_COUNT] += 1
        if code < CALL_BASE:
            if timed and cards == 0:
                t1 = clock_ns()
                ph[PH_CALLS] = t1 - t0
                t0 = t1
            cards += 1
        else:
            calls += 1
        g_apply(&s, o, code)
    if timed:
        t1 = clock_ns()
        ph[PH_PLAY if cards else PH_CALLS] = t1 - t0
        t0 = t1
    st.cards += cards
    st.calls += calls
    g_score(&s, o, &sc)
    book(st, &sc, g_stat_contract(&s, &sc), G_SEATS)
    if timed:
        ph[PH_SCORE] = clock_ns() - t0
        if ph[PH_DEAL] + ph[PH_CALLS] + ph[PH_PLAY] + ph[PH_SCORE] < TIMED_MAX_NS:
            for i in range(N_PHASES):
                st.phase_ns[i] += ph[i]
            st.timed_deals += 1
            st.timed_played += cards > 0
            st.timed_cards += cards


cdef inline int finish_random(GState* s, const GOpts* o, Rng* r, i64* codes, int cap) noexcept nogil:
    """Finish the deal in `s` with uniformly random legal actions (g_random, BIDS_UNIFORM):
    the one random-playout loop of a position (playouts, random_actions and the hard level's
    playout_values). With `codes`, the first `cap` action codes are written; returns how many."""
    cdef i64 code
    cdef int count = 0
    while g_to_act(s) >= 0:
        code = g_random(s, o, r, BIDS_UNIFORM)
        if codes != NULL and count < cap:
            codes[count] = code
            count += 1
        g_apply(s, o, code)
    return count


cdef int random_finish(const GState* start, const GOpts* o, int n, u64 seed, i64* sums,
                       i64* codes, int cap) noexcept nogil:
    """n uniformly random playouts from `start` (playout k seeded with seed + k), their
    per-seat scores added to `sums`; with `codes`, the first playout's action codes (up to
    `cap`). Returns the number of codes written."""
    cdef GState s
    cdef Score sc
    cdef Rng r
    cdef int k, i, count = 0
    for k in range(n):
        s = start[0]
        r.s = seed + <u64>k
        if k == 0:
            count = finish_random(&s, o, &r, codes, cap)
        else:
            finish_random(&s, o, &r, NULL, 0)
        g_score(&s, o, &sc)
        for i in range(G_SEATS):
            sums[i] += sc.scores[i]
    return count


# ---- the C entry table (engine_core.batch, engine_core._codec) ----
cdef int _hook_init(void* s, const void* o, const u64* hands, u64 blind, int dealer) noexcept nogil:
    g_init(<GState*>s, <const GOpts*>o, hands, blind, dealer)
    return 0

cdef int _hook_replay(void* s, const void* o, const int8_t* seats, const i64* codes,
                      const u64* twice, int n) noexcept nogil:
    return g_replay(<GState*>s, <const GOpts*>o, seats, codes, twice, n)

cdef void _hook_result(const void* s, const void* o, Result* out) noexcept nogil:
    g_result(<const GState*>s, <const GOpts*>o, out)

cdef int _hook_to_act(const void* s) noexcept nogil:
    return g_to_act(<const GState*>s)

cdef GameHooks _HOOKS
_HOOKS.seats = G_SEATS
_HOOKS.hand_size = G_HAND
_HOOKS.blind_size = G_BLIND
_HOOKS.deck_size = G_DECK
_HOOKS.faces = G_FACES
_HOOKS.bids_supported = G_BIDS
_HOOKS.state_size = sizeof(GState)
_HOOKS.opts_size = sizeof(GOpts)
_HOOKS.init = _hook_init
_HOOKS.replay = _hook_replay
_HOOKS.result = _hook_result
_HOOKS.to_act = _hook_to_act
_HOOKS.playout = g_playout
HOOKS = PyCapsule_New(&_HOOKS, "engine_core.GameHooks", NULL)
SEATS = G_SEATS
HAND_SIZE = G_HAND
BLIND_SIZE = G_BLIND
BIDS = tuple(name for i, name in enumerate(("uniform", "cheapest")) if G_BIDS >> i & 1)


cdef int make_opts(options, packets, GOpts* o) except -1:
    memset(o, 0, sizeof(GOpts))
    o.deal.sight_phase = -1         # every hand seen whole from the deal, unless g_opts says
    o.deal.hand = G_HAND            # the whole deck dealt, unless g_opts leaves cards out
    o.deal.left_out = 0
    o.deal.idle = -1                # every seat plays, unless g_opts says one sits out
    g_opts(options, o)
    if packets is not None:
        fill_deal_plan(packets, &o.deal)
    return 0


def c_options(options, packets):
    """The game's C options of resolved Options with the deal's packets, as bytes (for
    engine_core.batch)."""
    cdef GOpts o
    make_opts(options, packets, &o)
    return (<char*>&o)[:sizeof(GOpts)]


def deal_masks(options, packets, u64 seed, int dealer, bint first=False):
    """The dealt hands and the blind (card masks) of the seeded deal: the deal function, version
    1, with the declaration's packets (Game.deal and batch playouts both deal here). With
    `first`, also the first packet each seat received (hands, blind, firsts)."""
    cdef GOpts o
    cdef Rng r
    cdef u64 hands[MAX_SEATS]
    cdef u64 firsts[MAX_SEATS]
    cdef u64 blind = 0
    cdef int i
    if not 0 <= dealer < G_SEATS:
        raise ValueError(f"dealer must be a seat 0..{G_SEATS - 1}, got {dealer}")
    make_opts(options, packets, &o)
    r.s = seed
    with nogil:
        deal_cards(&r, dealer, &o.deal, hands, &blind, firsts)
    if first:
        return [hands[i] for i in range(G_SEATS)], blind, [firsts[i] for i in range(G_SEATS)]
    return [hands[i] for i in range(G_SEATS)], blind


def deal_shape(options):
    """(cards per hand, mask of the cards left out of the deal) under these resolved Options:
    (G_HAND, 0) unless the game's g_opts takes cards out of the deck (DealPlan.hand/left_out)."""
    cdef GOpts o
    make_opts(options, None, &o)
    return o.deal.hand, o.deal.left_out


def idle_offset(options):
    """The seat that sits out each deal under these resolved Options, as an offset from the
    dealer's left (G_SEATS - 1: the dealer himself; DealPlan.idle), None when every seat plays:
    that seat is dealt no cards and is never to act."""
    cdef GOpts o
    make_opts(options, None, &o)
    return o.deal.idle if o.deal.idle >= 0 else None


def sight_phase(options):
    """The phase (its name) during which each seat has seen only the first packet dealt to it,
    with these resolved Options; None when every seat sees its whole hand from the deal on (the
    game's g_opts sets DealPlan.sight_phase: Schafkopf's knocking round)."""
    cdef GOpts o
    make_opts(options, None, &o)
    return PHASE_NAMES[o.deal.sight_phase] if o.deal.sight_phase >= 0 else None


cdef inline u64 unseen_cards(const GState* s, const GOpts* o, const u64* first, int seat) noexcept nogil:
    """The cards of `seat`'s hand it has not seen yet: all but its first packet while the
    game's sight phase lasts (DealPlan.sight_phase), none otherwise."""
    if o.deal.sight_phase < 0 or g_phase(s) != o.deal.sight_phase:
        return 0
    return s.hand[seat] & ~first[seat]


cdef class Core:
    """One deal as C state, with the step API for search and learning: legal codes or a card
    mask, apply / step / advance, copy, undo, random playouts, scores. Every entry point checks
    its arguments, so no call can corrupt the deal or crash the interpreter."""

    cdef GState s
    cdef GOpts o
    cdef GState hist[G_MAX_ACTIONS]
    cdef int n_hist
    cdef u64 first[MAX_SEATS]       # the cards each seat saw first (its first packet): unseen

    def __init__(self, options, hands, int dealer, blind=0, first=None):
        """`first`: the first packet dealt to each seat (masks within its hand), which is all
        the seat sees during the game's sight phase (`sight_phase`); None: whole hands."""
        cdef u64 h[MAX_SEATS]
        cdef u64 used = 0, m, b
        cdef int i
        if not 0 <= dealer < G_SEATS:
            raise ValueError(f"dealer must be a seat 0..{G_SEATS - 1}, got {dealer}")
        if len(hands) != G_SEATS:
            raise ValueError(f"need {G_SEATS} hands, got {len(hands)}")
        if first is not None and len(first) != G_SEATS:
            raise ValueError(f"need {G_SEATS} first packets, got {len(first)}")
        make_opts(options, None, &self.o)
        for i in range(G_SEATS):
            if not 0 <= hands[i] <= _DECK_MASK:
                raise ValueError(f"hand {i} is not a mask of this deck's {G_DECK} cards")
            m = hands[i]
            if i == idle_seat(&self.o.deal, dealer, G_SEATS):
                if m:
                    raise ValueError(f"hand {i} must be empty: seat {i} sits out this deal")
            elif popcount(m) != self.o.deal.hand or m & used:
                raise ValueError(f"hand {i} must hold {self.o.deal.hand} cards that no other hand holds")
            if m & self.o.deal.left_out:
                raise ValueError(f"hand {i} holds a card these options leave out of the deal")
            used |= m
            h[i] = m
            self.first[i] = m
            if first is not None:
                if not 0 <= first[i] <= _DECK_MASK or first[i] & ~m:
                    raise ValueError(f"first packet {i} must be cards of hand {i}")
                self.first[i] = first[i]
        if not 0 <= blind <= _DECK_MASK:
            raise ValueError(f"the blind is not a mask of this deck's {G_DECK} cards")
        b = blind
        if popcount(b) != G_BLIND or b & used:
            raise ValueError(f"the blind must hold {G_BLIND} cards that no hand holds")
        g_init(&self.s, &self.o, h, b, dealer)
        self.n_hist = 0

    cpdef Core copy(self):
        cdef Core c = Core.__new__(Core)
        c.s = self.s
        c.o = self.o
        c.first = self.first
        c.n_hist = self.n_hist
        memcpy(c.hist, self.hist, self.n_hist * sizeof(GState))
        return c

    cpdef int to_act(self):
        """The seat to act, -1 when the deal is over."""
        return g_to_act(&self.s)

    cpdef bint is_over(self):
        return g_to_act(&self.s) < 0

    def phase(self):
        return PHASE_NAMES[g_phase(&self.s)]

    def phase_kinds(self):
        """The action types this phase knows, legal now or not (so that a refused one gets its
        precise reason)."""
        cdef int k = g_kinds(&self.s)
        return tuple(name for b, name in _KINDS if k & b)

    cpdef u64 hand(self, int seat):
        if not 0 <= seat < G_SEATS:
            raise ValueError(f"seat must be 0..{G_SEATS - 1}, got {seat}")
        return self.s.hand[seat]

    cpdef u64 unseen(self, int seat):
        """The cards of `seat`'s hand that it has not seen yet (0 but in the game's sight phase,
        where only its first packet is seen): what no view of that seat may show."""
        if not 0 <= seat < G_SEATS:
            raise ValueError(f"seat must be 0..{G_SEATS - 1}, got {seat}")
        return unseen_cards(&self.s, &self.o, self.first, seat)

    def first_packets(self):
        """The first packet of each seat (its whole hand where none was given)."""
        return [self.first[i] for i in range(G_SEATS)]

    cpdef u64 legal_mask(self):
        """Legal cards as a mask (0 outside the card play)."""
        return g_legal_cards(&self.s, &self.o) if g_to_act(&self.s) >= 0 else 0

    cpdef list legal_codes(self):
        cdef i64 buf[MAX_LEGAL]
        cdef int n = g_legal(&self.s, &self.o, buf) if g_to_act(&self.s) >= 0 else 0
        return [buf[i] for i in range(n)]

    cpdef list legal_list(self):
        """The legal codes as a small list (the step API; same as legal_codes)."""
        cdef i64 buf[MAX_LEGAL]
        cdef int n, i
        cdef u64 m
        cdef list out
        if g_to_act(&self.s) < 0:
            return []
        if g_kinds(&self.s) == A_PLAY:
            m = g_legal_cards(&self.s, &self.o)
            out = PyList_New(popcount(m))
            i = 0
            while m:
                item = _CARD_INTS[lowest(m)]
                Py_INCREF(item)
                PyList_SET_ITEM(out, i, item)
                i += 1
                m &= m - 1
            return out
        n = g_legal(&self.s, &self.o, buf)
        return [buf[i] for i in range(n)]

    cpdef bint is_legal(self, i64 code):
        return legal_code(&self.s, &self.o, code)

    cdef inline int _push(self, i64 code) except -1:
        if not legal_code(&self.s, &self.o, code):
            raise ValueError(f"action code {code} is not legal now")
        if self.n_hist >= G_MAX_ACTIONS:
            raise ValueError("too many actions for one deal")
        self.hist[self.n_hist] = self.s
        self.n_hist += 1
        g_apply(&self.s, &self.o, code)
        return 0

    cpdef list interjections(self, int seat):
        """The codes `seat` may take while another seat is to act (g_interjection: an
        out-of-turn announcement), [] for the seat to act, an unknown seat or a finished deal."""
        cdef i64 code = -1
        if 0 <= seat < G_SEATS and seat != g_to_act(&self.s) and g_to_act(&self.s) >= 0:
            code = g_interjection(&self.s, &self.o, seat)
        return [code] if code >= 0 else []

    cpdef interject(self, int seat, i64 code):
        """Apply `seat`'s interjection `code` (the seat to act stays); ValueError (state
        unchanged) unless it is in interjections(seat). Undone by undo()."""
        if not interjection_legal(&self.s, &self.o, seat, code):
            raise ValueError(f"action code {code} is not an action seat {seat} may take out of turn now")
        if self.n_hist >= G_MAX_ACTIONS:
            raise ValueError("too many actions for one deal")
        self.hist[self.n_hist] = self.s
        self.n_hist += 1
        g_interject(&self.s, &self.o, seat, code)

    cpdef apply(self, i64 code):
        """Apply a legal code; ValueError (state unchanged) if it is not legal."""
        self._push(code)

    cpdef int step(self, i64 code) except -2:
        """apply(code) and return the seat to act next (-1 when the deal is over): one call
        per move for search and learning loops."""
        self._push(code)
        return g_to_act(&self.s)

    cpdef list advance(self, i64 code):
        """step(code), then the legal codes of the next decision ([] when the deal is over):
        one call per move for rollouts (`legal = core.advance(pick(legal))` until empty)."""
        self._push(code)
        return self.legal_list()

    cpdef undo(self):
        if self.n_hist == 0:
            raise ValueError("nothing to undo")
        self.n_hist -= 1
        self.s = self.hist[self.n_hist]

    cpdef list scores(self):
        """Per-seat scores of the finished deal (None while in progress): the cheap part of
        result() for search code."""
        cdef Score sc
        if g_to_act(&self.s) >= 0:
            return None
        g_score(&self.s, &self.o, &sc)
        return [sc.scores[i] for i in range(G_SEATS)]

    cpdef list random_playout(self, u64 seed):
        """Finish the deal with uniformly random legal actions (SplitMix64 seeded with `seed`):
        the actions playouts(1, seed) takes (finish_random, the one loop), applied here so that
        each is undoable; returns the per-seat scores."""
        cdef GState s = self.s
        cdef Rng r
        cdef i64 codes[G_MAX_ACTIONS]
        cdef int i, count
        r.s = seed
        with nogil:
            count = finish_random(&s, &self.o, &r, codes, G_MAX_ACTIONS)
            for i in range(count):
                if self.n_hist >= G_MAX_ACTIONS:
                    break
                self.hist[self.n_hist] = self.s
                self.n_hist += 1
                g_apply(&self.s, &self.o, codes[i])
        return self.scores()

    def playouts(self, int n, u64 seed):
        """Per-seat sums of the scores of `n` uniformly random playouts from this position
        (every remaining decision, the auction included, drawn by the game's g_random with
        BIDS_UNIFORM and scored by its g_score), in C without the GIL; the state is unchanged.
        Playout k draws from SplitMix64 seeded with seed + k (mod 2^64), so playouts(n, seed)
        is the sum of playouts(1, seed + k): what the flat Monte Carlo baseline and ISMCTS
        rollouts (engine_core.bots.baselines) average."""
        cdef i64 sums[MAX_SEATS]
        cdef int i
        if n < 1:
            raise ValueError(f"n must be a positive number of playouts, got {n}")
        for i in range(G_SEATS):
            sums[i] = 0
        with nogil:
            random_finish(&self.s, &self.o, n, seed, sums, NULL, 0)
        return [sums[i] for i in range(G_SEATS)]

    def random_actions(self, u64 seed):
        """The action codes that playouts(1, seed) takes from this position, in order (the
        state is unchanged): to replay that playout through State.apply_code."""
        cdef i64 sums[MAX_SEATS]
        cdef i64 codes[G_MAX_ACTIONS]
        cdef int count
        with nogil:
            count = random_finish(&self.s, &self.o, 1, seed, sums, codes, G_MAX_ACTIONS)
        return [codes[i] for i in range(count)]

    def replay(self, list seats, list codes, list twice):
        """Apply actions as a record names them (play codes by face, exchange codes by a
        multiset of faces with `twice` marking faces named with both copies) while each is
        legal for its seat: g_replay, the loop the sampler of hidden worlds checks worlds with.
        Returns the number applied (len(codes) when all were); the applied ones are undoable."""
        cdef int i, n = len(codes), seat
        cdef i64 code
        if len(seats) != n or len(twice) != n:
            raise ValueError("seats, codes and twice must have the same length")
        for i in range(n):
            seat = seats[i]
            if seat != g_to_act(&self.s):
                if not interjection_legal(&self.s, &self.o, seat, codes[i]) or self.n_hist >= G_MAX_ACTIONS:
                    return i
                self.hist[self.n_hist] = self.s
                self.n_hist += 1
                g_interject(&self.s, &self.o, seat, codes[i])
                continue
            code = held_code(self.s.hand[seat], codes[i], twice[i])
            if not legal_code(&self.s, &self.o, code) or self.n_hist >= G_MAX_ACTIONS:
                return i
            self.hist[self.n_hist] = self.s
            self.n_hist += 1
            g_apply(&self.s, &self.o, code)
        return n

    def result(self):
        """The records.md Result of the finished deal (None while in progress)."""
        cdef Result res
        if g_to_act(&self.s) >= 0:
            return None
        g_result(&self.s, &self.o, &res)
        return render(&res, _NAMES)

    def sort_cards(self, u64 mask):
        """Card indices of `mask`: trumps first (highest first) in the order in force, then the
        plain suits C S H D, each highest first."""
        cdef const Order* order = g_order(&self.s)
        cdef int c
        keyed = []
        for c in range(G_DECK):
            if mask >> c & 1:
                keyed.append((0 if order.eff_suit[c] == TRUMP else 1 + order.eff_suit[c],
                              -order.power[c], c % G_FACES, c))
        return [k[3] for k in sorted(keyed)]

    def card_order(self):
        """The card order in force as card indices, each face once, highest first:
        [trumps, clubs, spades, hearts, diamonds] by effective suit (public once the contract
        is known: the bots' card counting and void inference read it); the cards the options
        leave out of the deal (DealPlan.left_out) are in no suit."""
        cdef const Order* order = g_order(&self.s)
        cdef int c
        keyed = [[] for _ in range(5)]
        for c in range(G_FACES):
            if order.eff_suit[c] >= 0 and not (self.o.deal.left_out >> c) & 1:
                keyed[order.eff_suit[c]].append((-order.power[c], c))
        return [[c for _, c in sorted(keyed[4])]] + [[c for _, c in sorted(keyed[k])] for k in range(4)]

    def explain(self, i64 code):
        """(reason id, text): why a well-formed action that is not legal now is refused."""
        return explain(self, code)

    def public(self, seat):
        """What `seat` (None: a spectator) may see of the deal besides its own hand."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < G_SEATS):
            raise ValueError(f"seat must be 0..{G_SEATS - 1} or None, got {seat!r}")
        return public(self, seat)

    def order_codes(self):
        """card_order() as card codes by effective suit, {"trump": [...], "C": [...], ...}: a
        fresh copy of codes worked out once per order table (g_order's tables are static)."""
        cdef const Order* order = g_order(&self.s)
        key = (<size_t>order, self.o.deal.left_out)
        found = _ORDER_CODES.get(key)
        if found is None:
            found = tuple((name, tuple(DECK.code(c) for c in cards))
                          for name, cards in zip(("trump", "C", "S", "H", "D"), self.card_order()))
            _ORDER_CODES[key] = found
        return {name: list(cards) for name, cards in found}

    def points_by_code(self):
        """card_points() by face code, a fresh dict worked out once per point table (static)."""
        cdef const int8_t* table = g_point_table(&self.s)
        key = <size_t>table
        found = _POINT_CODES.get(key)
        if found is None:
            found = _POINT_CODES[key] = dict(zip(DECK.faces, self.card_points()))
        return dict(found)

    def card_points(self):
        """Card points of each face (by face index) in the contract in force: the solver's
        point table, so a view tells what a card is worth without knowing the game."""
        cdef const int8_t* table = g_point_table(&self.s)
        cdef int c
        return [table[c] for c in range(G_FACES)]

    def sides(self, int seat):
        """(partners, opponents) as seat masks, as `seat` knows them now: the seat itself is
        among its partners; a seat in neither is not known yet (the game's `g_sides` hook)."""
        cdef int partners, opponents
        if not 0 <= seat < G_SEATS:
            raise ValueError(f"seat must be 0..{G_SEATS - 1}, got {seat!r}")
        g_sides(&self.s, seat, &partners, &opponents)
        return partners, opponents

    def redact(self, int index, action, seat):
        """The record action `action` (number `index`) as `seat` (None: a spectator) sees it."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < G_SEATS):
            raise ValueError(f"seat must be 0..{G_SEATS - 1} or None, got {seat!r}")
        return redact(self, index, action, seat)

    def hidden(self, seat):
        """The face-down piles `seat` (None: a spectator) cannot see, as data without their
        cards (view-spec: pile, from_seat, to_seat, count, action, among): the bots' sampler
        of hidden worlds draws from this description."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < G_SEATS):
            raise ValueError(f"seat must be 0..{G_SEATS - 1} or None, got {seat!r}")
        return hidden(self, seat)


# ---- helpers the games' hooks use ----
cdef inline void deal_cards(Rng* r, int dealer, const DealPlan* plan, u64* hands, u64* blind,
                            u64* first) noexcept nogil:
    """The deal function, version 1: shuffle the deck (Fisher-Yates), hand out the packets of
    the plan in order (passing over the cards the plan leaves out), then number the two copies of a card (Doppelkopf) so that the first seat
    holding one has the first copy, as Game.new_deal numbers the cards of a record. With
    `first` (else NULL), the first packet each seat received (by faces where a card has two
    copies: either copy of a face seen first counts as seen)."""
    cdef int8_t deck[64]
    cdef int p, j, pos = 0, seat
    cdef u64 taken = 0, h, lo, hi, two, one, f
    cdef u64 got = 0                # seats that have had their first packet
    shuffle_deck(r, deck, G_DECK)
    for seat in range(G_SEATS):
        hands[seat] = 0
        if first != NULL:
            first[seat] = 0
    blind[0] = 0
    for p in range(plan.n):
        seat = (dealer + 1 + plan.target[p]) % G_SEATS if plan.target[p] != TO_BLIND else -1
        for j in range(plan.size[p]):
            while pos < G_DECK and (plan.left_out >> deck[pos]) & 1:
                pos += 1            # a card the options leave out of the deal
            if pos >= G_DECK:
                break
            if seat < 0:
                blind[0] |= bit(deck[pos])
            else:
                hands[seat] |= bit(deck[pos])
                if first != NULL and not (got >> seat) & 1:
                    first[seat] |= bit(deck[pos])
            pos += 1
        if seat >= 0:
            got |= bit(seat)
    if G_COPIES > 1:
        for seat in range(G_SEATS):
            h = hands[seat]
            lo = h & _FACE_MASK
            hi = (h >> G_FACES) & _FACE_MASK
            two = lo & hi
            one = (lo | hi) & ~two
            hands[seat] = two | (two << G_FACES) | (one & ~taken) | ((one & taken) << G_FACES)
            taken |= lo | hi
            if first != NULL:
                f = (first[seat] | (first[seat] >> G_FACES)) & _FACE_MASK
                first[seat] = hands[seat] & (f | (f << G_FACES))


cdef int fill_deal_plan(packets, DealPlan* plan) except -1:
    """The C deal plan of a declaration's packets: [(seat offset or None for the blind, size)]."""
    if len(packets) > MAX_PACKETS:
        raise ValueError(f"at most {MAX_PACKETS} packets")
    plan.n = len(packets)
    for p, (target, size) in enumerate(packets):
        plan.target[p] = TO_BLIND if target is None else target
        plan.size[p] = size
    return 0


cdef inline void fill_tricks(const GState* s, Result* r) noexcept nogil:
    """The completed tricks of the state into the Result (leader, cards in play order, winner)."""
    cdef int t, k
    r.n_tricks = s.trick_no
    r.trick_size = G_SEATS
    for t in range(s.trick_no):
        r.trick_leader[t] = s.trick_leader[t]
        r.trick_winner[t] = s.trick_winner[t]
        for k in range(G_SEATS):
            r.trick_cards[t][k] = s.trick[t][k]


cdef inline void start_score(Score* sc, const GState* s, int contract, int declarer) noexcept nogil:
    """A Score before the game counts it: the contract and declarer, no declaring side yet,
    zero card points and scores."""
    cdef int i
    sc.contract = contract
    sc.declarer = declarer
    sc.side = 0
    sc.side_won = -1
    sc.side_points = -1
    sc.played = s.trick_no > 0
    for i in range(MAX_SEATS):
        sc.card_points[i] = 0
        sc.scores[i] = 0


cdef object action_in_phase(Core core, int phase):
    """The index (in the deal's actions) of the first action taken in `phase`, None when none
    was: where a face-down pile left its seat (the hooks' `hidden`)."""
    cdef int k
    for k in range(core.n_hist):
        if core.hist[k].phase == phase:
            return k
    return None


cdef inline void start_result(Result* r) noexcept nogil:
    r.n_teams = 0
    r.n_items = 0
    r.n_contract = 0
    r.n_extra = 0
    r.n_tricks = 0
    r.trick_size = G_SEATS


# ---- the perfect-information solver, over the same hooks ----
include "_solver.pxi"


# ---- tensors and the vectorised environment (engine_core.rl, docs/rl.md) ----
include "rl/_vec.pxi"
