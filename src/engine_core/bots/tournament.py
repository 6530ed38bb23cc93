"""Duplicate evaluation of bots (`python -m engine_core tournament`, docs/bots.md).

Every seeded deal is played once per seating of the rotation, so each bot holds each hand in
each position and luck of the cards cancels:
- four seats (Schafkopf, Doppelkopf, Klaverjas), two bots A and B: A B A B, then B A B A
  (seats 0..3). Klaverjas's fixed partnerships (0+2 against 1+3) put each bot with itself;
  in Schafkopf and Doppelkopf, where the teams form in the deal, each bot's seats are the
  same two in both seatings, so every hand is played by each bot;
- five seats (Sheepshead): A alone at seat r with B in the other four, and B alone at seat r
  with A in the others, for r = 0..4 (ten plays of each deal).
A bot's score for a deal is the mean of the scores of its seats over all the plays of that
deal; the table gives the mean over the deals with a 95% confidence interval (normal
approximation, 1.96 standard errors), the share of won deals among those in which the bot
declared (declarer, picker, maker, or the Re soloist/Hochzeit/Armut player), and the median
and 99th percentile of its decision times (decisions with more than one legal action).
"""
from __future__ import annotations

import math
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from .. import games
from .._rng import deal_seed
from . import BASELINES, LEVELS, get


def seatings(seats: int) -> list[list[int]]:
    """Per play of a deal, the bot index (0 = A, 1 = B) of each seat."""
    if seats == 4:
        return [[0, 1, 0, 1], [1, 0, 1, 0]]
    out = []
    for alone in (0, 1):
        for r in range(seats):
            out.append([alone if s == r else 1 - alone for s in range(seats)])
    return out


def level_of(name: str) -> str:
    """The bot of a tournament name: a name may carry a label, LEVEL@LABEL, so that one level
    plays itself with other budgets (`--bots hard@pool,hard@uniform --budget
    hard@uniform.inference_pool=1`)."""
    return name.split("@", 1)[0]


def cheat_choose(state) -> dict:
    """The `cheat` level: determinized search on the true deal (it sees every hand). Only the
    tournament calls it, with the State; bots.get never returns it."""
    from .hard import HardBot
    bot = HardBot(state.game.name, options=state.game.options.as_dict())
    return bot._choose_open(state)


def play_deal(game, names, seed: int, k: int, budgets: dict, times: list) -> list[dict]:
    """Every seating of deal k: per play, the seats' bot indices, scores and declarer.
    `budgets`: per bot name, the budget arguments of `bots.get`."""
    n = game.seats
    plays = []
    for seating in seatings(n):
        state = game.deal(deal_seed(seed, k), k % n)
        players = []
        for s in range(n):
            name = names[seating[s]]
            if level_of(name) == "cheat":
                players.append(None)
            else:
                players.append(get(game.name, level_of(name), seed=(seed + 7919 * k + s) % 2 ** 64,
                                   options=game.options.as_dict(), **budgets.get(name, {})))
        while not state.is_over():
            s = state.to_act()
            t0 = time.perf_counter()
            if players[s] is None:
                legal = state.legal_actions()
                action = legal[0] if len(legal) == 1 else cheat_choose(state)
            else:
                view = state.view(s)
                action = players[s].choose(view)
                if len(view["legal"]) > 1:
                    times[seating[s]].append(time.perf_counter() - t0)
            state.apply(action)
        result = state.result()
        declarer = (result.get("contract") or {}).get("declarer")
        plays.append({"seating": seating, "scores": result["scores"], "declarer": declarer})
    return plays


def play_deals(ks, game_name: str, names: list[str], seed: int, options: dict, budgets: dict) -> list:
    """Per deal k of `ks`: (plays, decision times of bot A, of bot B). The unit of work of the
    local loop, of the threads and of a Ray task (engine_core.distributed) alike: a deal's
    plays depend only on (game, options, bots, seed, k), never on where it is played."""
    game = games.get(game_name, options)
    out = []
    for k in ks:
        times = {0: [], 1: []}
        plays = play_deal(game, names, seed, k, budgets, times)
        out.append((plays, times[0], times[1]))
    return out


def _local_map(threads: int):
    """fn over the chunks in order, here: one thread, or a pool of `threads`."""
    def mapper(fn, chunks, *args):
        if threads == 1:
            for chunk in chunks:
                yield fn(chunk, *args)
            return
        with ThreadPoolExecutor(threads) as pool:
            yield from pool.map(lambda chunk: fn(chunk, *args), chunks)
    return mapper


def run(game_name: str, names: list[str], deals: int, seed: int = 1, threads: int = 1,
        options: dict | None = None, budget: dict | None = None, progress=None,
        mapper=None, deals_per_task: int = 1, budgets: dict | None = None) -> dict:
    """The tournament's report. `mapper(fn, chunks, *args)` yields fn(chunk, *args) for each
    chunk of deal numbers in order (default: here, on `threads` threads;
    engine_core.distributed.ordered_map: as Ray tasks); the report is made from the deals in
    deal order, so it is the same wherever they were played (decision times aside).
    `budgets` gives each bot name its budget arguments ({"flatmc": {"playouts": 200}});
    `budget` is the hard level's (budgets["hard"])."""
    game = games.get(game_name, options)
    budgets = {name: dict(b) for name, b in (budgets or {}).items()}
    if budget:
        budgets.setdefault("hard", dict(budget))
    for name, b in budgets.items():      # a bad budget fails here, not in the middle of a run
        if name in names and level_of(name) != "cheat":
            get(game_name, level_of(name), options=options, **b)
    mapper = mapper or _local_map(threads)
    chunks = [range(k, min(k + deals_per_task, deals)) for k in range(0, deals, deals_per_task)]
    times = {0: [], 1: []}
    per_deal = []
    for results in mapper(play_deals, chunks, game_name, list(names), seed, options or {}, budgets):
        for plays, times_a, times_b in results:
            per_deal.append(plays)
            times[0].extend(times_a)
            times[1].extend(times_b)
        if progress:
            progress(len(per_deal), deals)
    out = {"game": game_name, "deals": deals, "seed": seed, "options": game.options.as_dict(),
           "seatings": seatings(game.seats), "bots": []}
    for b, name in enumerate(names):
        scores, declared, won = [], 0, 0
        for plays in per_deal:
            total = count = 0
            for p in plays:
                for s, idx in enumerate(p["seating"]):
                    if idx == b:
                        total += p["scores"][s]
                        count += 1
                d = p["declarer"]
                if d is not None and p["seating"][d] == b:
                    declared += 1
                    won += p["scores"][d] > 0
            scores.append(total / count)
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else None
        t = sorted(times[b])
        out["bots"].append({
            "bot": name, "mean": mean, "ci95": _interval(mean, half),
            "declared": declared, "declarer_win_rate": won / declared if declared else None,
            "decisions": len(t),
            "time_median": t[len(t) // 2] if t else None,
            "time_p99": t[min(len(t) - 1, int(0.99 * len(t)))] if t else None,
            "time_max": t[-1] if t else None,
        })
    diffs = []
    for plays in per_deal:
        means = []
        for b in range(2):
            vals = [p["scores"][s] for p in plays for s, i in enumerate(p["seating"]) if i == b]
            means.append(sum(vals) / len(vals))
        diffs.append(means[0] - means[1])
    dm = statistics.fmean(diffs)
    dh = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else None
    out["difference"] = {"bots": f"{names[0]} - {names[1]}", "mean": dm, "ci95": _interval(dm, dh)}
    return out


def _interval(mean: float, half: float | None) -> list[float] | None:
    """The 95% confidence interval, or None where one deal gives no spread to estimate it from
    (JSON has no NaN: the report must stay valid JSON)."""
    return None if half is None else [mean - half, mean + half]


def _shown(ci95: list[float] | None) -> str:
    return "-" if ci95 is None else f"[{ci95[0]:.2f}, {ci95[1]:.2f}]"


def table(report: dict) -> str:
    w = max(8, *(len(b["bot"]) for b in report["bots"]))
    lines = [f"{report['game']}: {report['deals']} duplicate deals (seed {report['seed']}), "
             f"{len(report['seatings'])} seatings each",
             f"{'bot':<{w}} {'mean/deal':>10} {'95% CI':>20} {'declared':>9} {'won%':>6} {'median s':>9} {'p99 s':>8} "
             f"{'max s':>8}"]
    for b in report["bots"]:
        rate = "-" if b["declarer_win_rate"] is None else f"{100 * b['declarer_win_rate']:.1f}"
        med = "-" if b["time_median"] is None else f"{b['time_median']:.4f}"
        p99 = "-" if b["time_p99"] is None else f"{b['time_p99']:.4f}"
        top = "-" if b["time_max"] is None else f"{b['time_max']:.4f}"
        lines.append(f"{b['bot']:<{w}} {b['mean']:>10.2f} {_shown(b['ci95']):>20} {b['declared']:>9} {rate:>6} "
                     f"{med:>9} {p99:>8} {top:>8}")
    d = report["difference"]
    lines.append(f"{d['bots']}: {d['mean']:.2f} per deal, 95% CI {_shown(d['ci95'])}")
    return "\n".join(lines)


def progress_bar(stream=sys.stderr):
    """A one-line progress bar on a terminal (None when stderr is not one)."""
    if not stream.isatty():
        return None

    def show(done, total):
        width = 30
        filled = width * done // total
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals")
        if done == total:
            stream.write("\n")
        stream.flush()
    return show


BOT_NAMES = LEVELS + BASELINES + ("cheat",)
