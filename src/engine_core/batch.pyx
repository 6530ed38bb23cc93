# cython: language_level=3
"""Batch work for throughput: random playouts without the GIL, and record evaluation.

`playouts(game, options, n, seed, threads)` plays n complete deals (deal, auction with random
legal calls, every phase, card play with uniformly random legal cards, scoring) inside typed
Cython loops that release the GIL, split over Python threads. Deal k always uses its own
seed-derived SplitMix64 stream and dealer k % seats, and the statistics are integer sums, so
the figures depend on (game, options, n, seed, dealer, bids) only, never on the thread count.
`playout_record(...)` rebuilds any one of those deals as a record.

A game plugs in with its nogil `xx_playout(rng, dealer, bids, opts, stats, trace)` (in its own
module, so its rule functions inline there; shared declarations in playout.pxd), a three-line
adapter below and one branch in `prepare()` that fills its C options with the module's own
`xx_opts(options, &opts)` (the mapping Core uses too).

`evaluate(records)` answers like `records.evaluate` for each record, taking the game's
`evaluate_fast` path (actions encoded straight to codes in Cython) when it has one and falling
back to the generic State replay for anything that path does not accept, so rejected records
get exactly the generic error. `evaluate_text(line, number)` is the CLI's counterpart on JSON
text (the games' `evaluate_text_fast`).
"""
import gc
import json
import threading
import time

from libc.string cimport memset
from ._core cimport u64, i64, Rng, rng_next, rng_below, CALL_BASE, MAX_LEGAL
from .playout cimport (PlayoutStats, MAX_CONTRACTS, MAX_SEATS, HIST_BINS, TRACE_HANDS,
                       TRACE_COUNT, TRACE_CODES, TRACE_SIZE, BIDS_UNIFORM, BIDS_CHEAPEST,
                       book_deal, book_side)
from .schafkopf cimport SkOpts, sk_opts, sk_playout
from .doppelkopf cimport DkOpts, dk_opts, dk_playout
from .sheepshead cimport SsOpts, ss_opts, SsState, SsScore, ss_init, ss_legal, ss_apply, ss_score, ss_deal
from .klaverjas cimport KjOpts, kj_opts, kj_packets, KjState, KjScore, kj_init, kj_legal, kj_apply, kj_score, kj_deal
from ._core cimport int8_t

from . import games, records

ctypedef void (*playout_fn)(Rng* r, int dealer, int bids, const void* opts,
                            PlayoutStats* st, i64* trace) noexcept nogil

BIDS = ("uniform", "cheapest")     # index = BIDS_* of playout.pxd

cdef enum:
    OPTS_BYTES = 256


cdef struct Plan:
    playout_fn fn
    int seats
    int bids
    int bids_supported                 # bit per BIDS_* the game's playout implements
    unsigned char opts[OPTS_BYTES]     # the game's C options struct


# ---- the games: one adapter each --------------------------------------------------------------
cdef void playout_schafkopf(Rng* r, int dealer, int bids, const void* opts,
                            PlayoutStats* st, i64* trace) noexcept nogil:
    sk_playout(r, dealer, bids, <const SkOpts*>opts, st, trace)


cdef inline void trace_hands(i64* trace, const u64* hands, int seats) noexcept nogil:
    cdef int i
    if trace != NULL:
        for i in range(seats):
            trace[TRACE_HANDS + i] = <i64>hands[i]
        trace[TRACE_COUNT] = 0


cdef inline void trace_code(i64* trace, i64 code) noexcept nogil:
    if trace != NULL and trace[TRACE_COUNT] < TRACE_SIZE - TRACE_CODES:
        trace[TRACE_CODES + trace[TRACE_COUNT]] = code
        trace[TRACE_COUNT] += 1


cdef void playout_doppelkopf(Rng* r, int dealer, int bids, const void* opts,
                             PlayoutStats* st, i64* trace) noexcept nogil:
    dk_playout(r, dealer, bids, <const DkOpts*>opts, st, trace)


cdef void playout_sheepshead(Rng* r, int dealer, int bids, const void* opts,
                             PlayoutStats* st, i64* trace) noexcept nogil:
    """Sheepshead through its generic nogil API: every legal action equally likely. The
    declaring side is the picker's team."""
    cdef const SsOpts* o = <const SsOpts*>opts
    cdef SsState s
    cdef SsScore sc
    cdef u64 hands[6]
    cdef i64 buf[MAX_LEGAL]
    cdef i64 code
    cdef int n, i
    ss_deal(r, dealer, hands, &hands[5])
    ss_init(&s, hands, hands[5], dealer)
    trace_hands(trace, hands, 6)
    while s.to_act >= 0:
        n = ss_legal(&s, o, buf)
        code = buf[rng_below(r, n)] if n > 1 else buf[0]
        trace_code(trace, code)
        ss_apply(&s, o, code)
        if code < CALL_BASE:
            st.cards += 1
        else:
            st.calls += 1
    ss_score(&s, o, &sc)
    book_deal(st, s.contract, sc.scores, sc.card_points, 5, s.trick_no != 0)
    if s.trick_no and s.picker >= 0:
        book_side(st, sc.team_won, sc.team_points, True)


cdef struct KjPlan:
    KjOpts o
    int8_t packets[8]
    int n_packets


cdef void playout_klaverjas(Rng* r, int dealer, int bids, const void* opts,
                            PlayoutStats* st, i64* trace) noexcept nogil:
    """Klaverjas through its generic nogil API: every legal action equally likely. The
    declaring side is the trump maker's team; contracts are counted by trump suit."""
    cdef const KjPlan* p = <const KjPlan*>opts
    cdef KjState s
    cdef KjScore sc
    cdef u64 hands[4]
    cdef i64 buf[MAX_LEGAL]
    cdef i64 code
    cdef int n, i
    kj_deal(r, dealer, p.packets, p.n_packets, hands)
    kj_init(&s, &p.o, hands, dealer)
    trace_hands(trace, hands, 4)
    while s.to_act >= 0:
        n = kj_legal(&s, &p.o, buf)
        code = buf[rng_below(r, n)] if n > 1 else buf[0]
        trace_code(trace, code)
        kj_apply(&s, &p.o, code)
        if code < CALL_BASE:
            st.cards += 1
        else:
            st.calls += 1
    kj_score(&s, &p.o, &sc)
    book_deal(st, s.trump, sc.scores, sc.card_points, 4, s.trick_no != 0)
    if s.trick_no and s.maker >= 0:
        book_side(st, sc.outcome == 0, sc.total[0], True)


# contract names for the statistics of games whose module has no CONTRACT_NAMES
EXTRA_CONTRACT_NAMES = {"klaverjas": ("trump_C", "trump_S", "trump_H", "trump_D")}


# ---- dispatch --------------------------------------------------------------------------------
cdef int prepare(str game, object options, Plan* plan, str bids) except -1:
    """The playout function and C options of a game (one branch per game)."""
    cdef KjPlan* kj
    memset(plan, 0, sizeof(Plan))
    if bids not in BIDS:
        raise ValueError(f"bids must be one of {', '.join(BIDS)}, got {bids!r}")
    if game == "schafkopf":
        assert sizeof(SkOpts) <= OPTS_BYTES
        sk_opts(options, <SkOpts*>plan.opts)
        plan.fn = playout_schafkopf
        plan.seats = 4
        plan.bids_supported = (1 << BIDS_UNIFORM) | (1 << BIDS_CHEAPEST)
    elif game == "doppelkopf":
        assert sizeof(DkOpts) <= OPTS_BYTES
        dk_opts(options, <DkOpts*>plan.opts)
        plan.fn = playout_doppelkopf
        plan.seats = 4
        plan.bids_supported = (1 << BIDS_UNIFORM) | (1 << BIDS_CHEAPEST)
    elif game == "sheepshead":
        assert sizeof(SsOpts) <= OPTS_BYTES
        ss_opts(options, <SsOpts*>plan.opts)
        plan.fn = playout_sheepshead
        plan.seats = 5
        plan.bids_supported = 1 << BIDS_UNIFORM
    elif game == "klaverjas":
        assert sizeof(KjPlan) <= OPTS_BYTES
        kj = <KjPlan*>plan.opts
        kj_opts(options, &kj.o)
        kj.n_packets = kj_packets(options, kj.packets)
        plan.fn = playout_klaverjas
        plan.seats = 4
        plan.bids_supported = 1 << BIDS_UNIFORM
    else:
        raise ValueError(f"batch playouts are not available for {game!r} in this build")
    plan.bids = BIDS.index(bids)
    if not plan.bids_supported >> plan.bids & 1:
        raise ValueError(f"bids={bids!r} is not defined for {game} (only "
                         f"{', '.join(b for i, b in enumerate(BIDS) if plan.bids_supported >> i & 1)})")
    return 0


cdef inline u64 deal_seed(u64 seed, i64 k) noexcept nogil:
    """The seed of deal k's own stream: distinct k give distinct states, well mixed."""
    cdef Rng r
    r.s = seed ^ (<u64>k * <u64>0xD1B54A32D192ED03ULL)
    return rng_next(&r)


cdef void run_range(const Plan* plan, u64 seed, i64 start, i64 stop, int dealer,
                    PlayoutStats* st) noexcept nogil:
    cdef Rng r
    cdef i64 k
    for k in range(start, stop):
        r.s = deal_seed(seed, k)
        plan.fn(&r, dealer if dealer >= 0 else <int>(k % plan.seats), plan.bids, plan.opts, st, NULL)


cdef class _Job:
    """One thread's share: deals [start, stop), its own statistics."""
    cdef Plan plan
    cdef PlayoutStats st
    cdef u64 seed
    cdef i64 start, stop
    cdef int dealer
    cdef public double seconds

    def run(self):
        cdef double t0 = time.perf_counter()
        with nogil:
            run_range(&self.plan, self.seed, self.start, self.stop, self.dealer, &self.st)
        self.seconds = time.perf_counter() - t0


cdef list _trim(const i64* hist):
    cdef int last = HIST_BINS - 1
    while last >= 0 and hist[last] == 0:
        last -= 1
    return [hist[i] for i in range(last + 1)]


def playouts(game, options=None, long long n=100_000, unsigned long long seed=0, int threads=1,
             dealer=None, bids="uniform"):
    """Play n random complete deals of `game` with `options`, split over `threads` threads;
    return the statistics (a dict): deals/s and ns per card, contract counts, mean and summed
    scores per seat, the declaring side's win rate, and card-point histograms (per seat, and
    per declaring side; index = points). Deterministic in (game, options, n, seed, dealer,
    bids), whatever the thread count.

    dealer: a fixed dealer seat, or None to rotate (deal k: dealer k % seats).
    bids: "uniform" = every legal action equally likely (Schafkopf: many solos and touts, short
    deals; Doppelkopf: mostly solos); "cheapest" (Schafkopf, Doppelkopf) = each speaker passes
    or names the cheapest contract open to it, 50:50 (Schafkopf: mostly Rufspiele played to the
    last trick, the shape of the C yardstick's deals; Doppelkopf: healthy or hochzeit/armut,
    so mostly normal games), every other action still uniform.
    Games: Schafkopf, Doppelkopf (declaring side: Re), Sheepshead (the picker's team) and
    Klaverjas (the trump maker's team; contracts counted by trump suit)."""
    if bids not in BIDS:
        raise ValueError(f"bids must be one of {', '.join(BIDS)}, got {bids!r}")
    if n < 0:
        raise ValueError("n must be >= 0")
    if threads < 1:
        raise ValueError("threads must be >= 1")
    g = games.get(game, options)
    cdef Plan plan
    prepare(g.name, g.options, &plan, bids)
    if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < plan.seats):
        raise ValueError(f"dealer must be a seat 0..{plan.seats - 1} or None (rotating)")
    cdef int d = -1 if dealer is None else dealer
    cdef int t
    cdef _Job job
    jobs = []
    for t in range(threads):
        job = _Job()
        job.plan = plan
        memset(&job.st, 0, sizeof(PlayoutStats))
        job.seed = seed
        job.start = n * t // threads
        job.stop = n * (t + 1) // threads
        job.dealer = d
        jobs.append(job)
    t0 = time.perf_counter()
    if threads == 1:
        jobs[0].run()
    else:
        workers = [threading.Thread(target=j.run) for j in jobs]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    wall = time.perf_counter() - t0
    cdef PlayoutStats total
    cdef int i
    memset(&total, 0, sizeof(PlayoutStats))
    for job in jobs:
        total.deals += job.st.deals
        total.played += job.st.played
        total.cards += job.st.cards
        total.calls += job.st.calls
        total.with_declarer += job.st.with_declarer
        total.declarer_won += job.st.declarer_won
        for i in range(MAX_CONTRACTS):
            total.contracts[i] += job.st.contracts[i]
        for i in range(MAX_SEATS):
            total.score_sum[i] += job.st.score_sum[i]
        for i in range(HIST_BINS):
            total.seat_points[i] += job.st.seat_points[i]
            total.side_points[i] += job.st.side_points[i]
    names = EXTRA_CONTRACT_NAMES.get(g.name) or g.rules.CONTRACT_NAMES
    seats = plan.seats
    rate = <double>total.deals / wall if wall > 0 else float("inf")
    return {
        "game": g.name,
        "options": g.options.as_dict(),
        "n": total.deals,
        "seed": seed,
        "threads": threads,
        "bids": bids,
        "seconds": wall,
        "thread_seconds": [j.seconds for j in jobs],
        "deals_per_s": rate,
        "cards": total.cards,
        "calls": total.calls,
        "ns_per_card": wall * 1e9 / total.cards if total.cards else None,
        "ns_per_card_per_thread": wall * threads * 1e9 / total.cards if total.cards else None,
        "contracts": {names[i]: total.contracts[i] for i in range(len(names)) if total.contracts[i]},
        "played": total.played,
        "score_sums": [total.score_sum[i] for i in range(seats)],
        "mean_scores": [<double>total.score_sum[i] / total.deals if total.deals else 0.0 for i in range(seats)],
        "declarer_win_rate": <double>total.declarer_won / total.with_declarer if total.with_declarer else None,
        "card_points_hist": _trim(total.seat_points),
        "side_points_hist": _trim(total.side_points),
    }


def playout_record(game, options=None, unsigned long long seed=0, long long k=0, dealer=None,
                   bids="uniform"):
    """Deal k of `playouts(game, options, n, seed, dealer=dealer, bids=bids)` (any n > k) as a
    records.md record: replay or evaluate it to inspect a deal behind the statistics."""
    if bids not in BIDS:
        raise ValueError(f"bids must be one of {', '.join(BIDS)}, got {bids!r}")
    if k < 0:
        raise ValueError("k must be >= 0")
    g = games.get(game, options)
    cdef Plan plan
    cdef PlayoutStats st
    cdef i64 trace[TRACE_SIZE]
    cdef Rng r
    prepare(g.name, g.options, &plan, bids)
    if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < plan.seats):
        raise ValueError(f"dealer must be a seat 0..{plan.seats - 1} or None (rotating)")
    cdef int d = <int>(k % plan.seats) if dealer is None else dealer
    memset(&st, 0, sizeof(PlayoutStats))
    r.s = deal_seed(seed, k)
    plan.fn(&r, d, plan.bids, plan.opts, &st, trace)
    deck = g.deck
    hands = [[deck.code(i) for i in _bits(<u64>trace[TRACE_HANDS + s])] for s in range(plan.seats)]
    state = g.new_deal(hands, d, [deck.code(i) for i in _bits(<u64>trace[TRACE_HANDS + plan.seats])]
                       if g.rules.BLIND_SIZE else None)
    for i in range(trace[TRACE_COUNT]):
        # by the action's record form: with two copies of a card, the generic deal may number
        # the copies in the hands differently from the batch deal
        state.apply(state.decode(trace[TRACE_CODES + i]))
    return state.record()


cdef list _bits(u64 m):
    cdef list out = []
    while m:
        out.append(__builtin_ctzll(m))
        m &= m - 1
    return out


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


# ---- record evaluation -----------------------------------------------------------------------
cdef dict _FAST = {}     # game name -> the game's evaluate_fast (games.records_of), or None


cdef object _fast_path(object name):
    try:
        return _FAST[name]
    except KeyError:
        pass
    try:
        fast = getattr(games.records_of(name), "evaluate_fast", None)
    except Exception:
        fast = None
    if len(_FAST) < 64:
        _FAST[name] = fast
    return fast


def evaluate_one(record, bint with_legal=False):
    """records.evaluate(record, with_legal), through the game's fast path when it has one."""
    if not with_legal and type(record) is dict:
        name = (<dict>record).get("game")
        if type(name) is str:
            fast = _fast_path(name)
            if fast is not None:
                out = fast(record)
                if out is not None:
                    return out
    return records.evaluate(record, with_legal)


cdef list _TEXT_FAST = None    # the games' evaluate_text_fast functions (games.records_of)


def evaluate_text(line, number):
    """The CLI output line for a JSON input line through a game's text fast path (scanning the
    text straight to codes), or None when no fast path accepts the line."""
    global _TEXT_FAST
    if _TEXT_FAST is None:
        found = []
        for name in games.available():
            fast = getattr(games.records_of(name), "evaluate_text_fast", None)
            if fast is not None:
                found.append(fast)
        _TEXT_FAST = found
    for fast in _TEXT_FAST:
        text = fast(line, number)
        if text is not None:
            return text
    return None


def evaluate(recs, bint with_legal=False):
    """One records.evaluate answer per record (a dict, or a JSON text of one), in order;
    identical answers, faster: see the module docstring."""
    out = []
    # the answers are acyclic: keep the cyclic collector from rescanning the growing list
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        for rec in recs:
            if isinstance(rec, (str, bytes)):
                try:
                    rec = json.loads(rec)
                except json.JSONDecodeError as err:
                    out.append({"error": {"index": None, "reason": f"malformed JSON: {err}"}})
                    continue
            out.append(evaluate_one(rec, with_legal))
    finally:
        if gc_was_on:
            gc.enable()
    return out
