# cython: language_level=3
"""Batch work for throughput: random playouts without the GIL, and record evaluation.

`playouts(game, options, n, seed, threads)` plays n complete deals (deal, every phase with
random legal actions, scoring) in the game's own compiled playout of one deal (the engine's
`g_playout`, the same loop for every game, its hooks inlined), split over Python threads that
release the GIL. Deal k is dealt from `deal_seed(seed, k)` (= seed + k, the seed of deal k of a
match too) by the one deal function, with dealer k % seats, and its random actions come from
the same stream; the statistics are integer sums, so every figure but the timings depends only
on (game, options, n, seed, dealer, bids), never on the thread count.
`playout_record(...)` rebuilds any one of those deals as a record.

`evaluate(records)` answers exactly like `records.evaluate` for each record through the one
record codec (`_codec`), which falls back to the generic path for anything it does not accept.
"""
import threading
import time

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.string cimport memset, memcpy
from ._bits cimport u64, i64
from ._rng cimport Rng, deal_seed_u64
from ._game cimport (GameHooks, PlayoutStats, MAX_CONTRACTS, MAX_SEATS, HIST_BINS, TRACE_HANDS,
                     TRACE_COUNT, TRACE_CODES, TRACE_SIZE, BIDS_UNIFORM, BIDS_CHEAPEST, N_PHASES,
                     clock_ns)

from . import games
from ._rng import deal_seed

BIDS = ("uniform", "cheapest")     # index = BIDS_* of _game.pxd

cdef enum:
    OPTS_BYTES = 512


cdef struct Plan:
    const GameHooks* hooks
    int bids
    unsigned char opts[OPTS_BYTES]     # the game's C options struct


cdef int prepare(object game, str bids, Plan* plan) except -1:
    """The game's entry table and C options (with its deal plan)."""
    cdef const GameHooks* hooks = <const GameHooks*>PyCapsule_GetPointer(game.rules.HOOKS, "engine_core.GameHooks")
    cdef bytes opts = game.rules.c_options(game.options, game.spec.packets(game.options))
    memset(plan, 0, sizeof(Plan))
    if bids not in BIDS:
        raise ValueError(f"bids must be one of {', '.join(BIDS)}, got {bids!r}")
    if hooks.opts_size > OPTS_BYTES or len(opts) != hooks.opts_size:
        raise ValueError(f"{game.name}: options struct of {hooks.opts_size} bytes")
    plan.hooks = hooks
    plan.bids = BIDS.index(bids)
    if not hooks.bids_supported >> plan.bids & 1:
        raise ValueError(f"bids={bids!r} is not defined for {game.name} (only "
                         f"{', '.join(b for i, b in enumerate(BIDS) if hooks.bids_supported >> i & 1)})")
    memcpy(plan.opts, <const char*>opts, len(opts))
    return 0


cdef void run_range(const Plan* plan, u64 seed, i64 start, i64 stop, int dealer,
                    PlayoutStats* st) noexcept nogil:
    cdef Rng r
    cdef i64 k
    cdef int seats = plan.hooks.seats
    for k in range(start, stop):
        r.s = deal_seed_u64(seed, k)
        plan.hooks.playout(&r, dealer if dealer >= 0 else <int>(k % seats), plan.bids, plan.opts, st, NULL)


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


def _check(game, n, seed, threads, dealer, bids):
    g = games.get(game, options=None) if isinstance(game, str) else game
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be an integer >= 0, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an integer 0..2^64-1, got {seed!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
        raise ValueError(f"threads must be an integer 1..256, got {threads!r}")
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                               or not 0 <= dealer < g.seats):
        raise ValueError(f"dealer must be a seat 0..{g.seats - 1} or None (rotating), got {dealer!r}")
    if bids not in BIDS:
        raise ValueError(f"bids must be one of {', '.join(BIDS)}, got {bids!r}")


PHASES = ("deal", "calls", "play", "scoring")     # index = PH_* of _game.pxd


cdef double clock_read_ns():
    """What one clock_ns() read adds to a timed phase: the least mean of 50 runs of 200
    back-to-back reads (a run during which the process lost its core does not count)."""
    cdef i64 t0, t1, best = -1
    cdef int i, k
    with nogil:
        for k in range(50):
            t0 = clock_ns()
            for i in range(200):
                t1 = clock_ns()
            if best < 0 or t1 - t0 < best:
                best = t1 - t0
    return <double>best / 200


def playouts(game, options=None, n=100_000, seed=0, threads=1, dealer=None, bids="uniform",
             bint timed=False):
    """Play n random complete deals of `game` with `options`, split over `threads` threads;
    return the statistics (a dict): deals/s and ns per card, contract counts, mean and summed
    scores per seat, the declaring side's win rate, and card-point histograms (per seat, and
    per declaring side; index = points). Deterministic in (game, options, n, seed, dealer,
    bids), whatever the thread count.

    dealer: a fixed dealer seat, or None to rotate (deal k: dealer k % seats).
    bids: "uniform" = every legal action equally likely; "cheapest" (Schafkopf, Doppelkopf) =
    each speaker passes or names the cheapest contract open to it, 50:50, every other action
    still uniform. The declaring side is the declarer's (Schafkopf), Re (Doppelkopf), the
    picker's team (Sheepshead) and the trump maker's team (Klaverjas).

    timed: also split the time by phase (`phase_ns_per_deal`: the deal, the calls before the
    first card, the card play from the first card on, scoring; `play_ns_per_card`): the same
    loop reads a monotonic clock at each boundary (what a read costs is taken off), so a timed
    run is a little slower and its totals are not the figures to quote. A deal that lost the
    core to another process meanwhile (over TIMED_MAX_NS) is left out of the split
    (`timed_deals`: the deals it averages)."""
    g = games.get(game, options)
    _check(g, n, seed, threads, dealer, bids)
    cdef Plan plan
    prepare(g, bids, &plan)
    cdef int d = -1 if dealer is None else dealer
    cdef int t
    cdef _Job job
    jobs = []
    for t in range(threads):
        job = _Job()
        job.plan = plan
        memset(&job.st, 0, sizeof(PlayoutStats))
        job.st.timed = timed
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
        for i in range(N_PHASES):
            total.phase_ns[i] += job.st.phase_ns[i]
        total.timed_deals += job.st.timed_deals
        total.timed_played += job.st.timed_played
        total.timed_cards += job.st.timed_cards
        for i in range(MAX_CONTRACTS):
            total.contracts[i] += job.st.contracts[i]
        for i in range(MAX_SEATS):
            total.score_sum[i] += job.st.score_sum[i]
        for i in range(HIST_BINS):
            total.seat_points[i] += job.st.seat_points[i]
            total.side_points[i] += job.st.side_points[i]
    names = g.spec.stat_contracts or g.spec.contracts
    seats = g.seats
    rate = <double>total.deals / wall if wall > 0 else float("inf")
    out = {
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
        "contracts": {names[i]: total.contracts[i] for i in range(min(len(names), MAX_CONTRACTS))
                      if total.contracts[i]},
        "played": total.played,
        "score_sums": [total.score_sum[i] for i in range(seats)],
        "mean_scores": [<double>total.score_sum[i] / total.deals if total.deals else 0.0 for i in range(seats)],
        "declarer_win_rate": <double>total.declarer_won / total.with_declarer if total.with_declarer else None,
        "card_points_hist": _trim(total.seat_points),
        "side_points_hist": _trim(total.side_points),
    }
    if timed and total.timed_deals:
        read = clock_read_ns()
        # intervals per deal: deal, calls and scoring in every deal, play in those with cards
        spans = (total.timed_deals, total.timed_deals, total.timed_played, total.timed_deals)
        phase = [max(0.0, (total.phase_ns[i] - read * spans[i]) / total.timed_deals) for i in range(N_PHASES)]
        out["phase_ns_per_deal"] = dict(zip(PHASES, phase))
        out["play_ns_per_card"] = (phase[2] * total.timed_deals / total.timed_cards
                                   if total.timed_cards else None)
        out["clock_read_ns"] = read
        out["timed_deals"] = total.timed_deals
    return out


def playout_record(game, options=None, seed=0, k=0, dealer=None, bids="uniform"):
    """Deal k of `playouts(game, options, n, seed, dealer=dealer, bids=bids)` (any n > k) as a
    records.md record: its hands are exactly `Game.deal(deal_seed(seed, k), dealer)`'s."""
    g = games.get(game, options)
    _check(g, 1, seed, 1, dealer, bids)
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k must be an integer >= 0, got {k!r}")
    cdef Plan plan
    cdef PlayoutStats st
    cdef i64 trace[TRACE_SIZE]
    cdef Rng r
    prepare(g, bids, &plan)
    cdef int d = <int>(k % g.seats) if dealer is None else dealer
    memset(&st, 0, sizeof(PlayoutStats))
    r.s = deal_seed_u64(seed, k)
    plan.hooks.playout(&r, d, plan.bids, plan.opts, &st, trace)
    state = g._state([<u64>trace[TRACE_HANDS + s] for s in range(g.seats)], d, <u64>trace[TRACE_HANDS + g.seats])
    for i in range(trace[TRACE_COUNT]):
        state.apply_code(trace[TRACE_CODES + i])
    return state.record()


def evaluate(recs, bint with_legal=False):
    """One records.evaluate answer per record (a dict, or a JSON text of one), in order;
    identical answers, faster: through the record codec."""
    from . import _codec
    return _codec.evaluate_many(recs, with_legal)
