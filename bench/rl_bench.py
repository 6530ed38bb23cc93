"""The rl interfaces' speed (docs/rl.md, "Speed"): the vectorised environment with uniformly
random legal actions, observation tensors and legal-action masks written after every step, in
steps per second per core for N = 1, 64 and 4,096 games per call and over threads; beside it,
in the same run, the bare engine playout (engine_core.batch, no tensors), OpenSpiel's Skat per
step through pyspiel with the same chooser (uniform over the legal actions), with and without
its observation tensor and mask, and the PettingZoo and OpenSpiel paths of stich's games.

    .venv/bin/python bench/rl_bench.py [--game schafkopf] [--seconds 1.5] [--threads 2]

Rows are medians of `--reps` runs, in steps per CPU second of the thread(s) doing the work (per
core: a loaded machine does not inflate them), but the `.wall` row: the threads' throughput in
steps per wall second. OpenSpiel and the Python paths count the decisions of the deal (chance
steps untimed for Skat).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from engine_core import batch, games, rl


def vec_rate(game, n, seconds, threads=1, cards_only=True, wall=False, bids="uniform"):
    """Steps per CPU second (per core) of VecEnv.random_steps with n games, observations and
    masks written; wall=True: steps per wall second (the threads' throughput)."""
    env = rl.VecEnv(game, n, seed=1, cards_only=cards_only, bids=bids)
    steps = max(1, int(200_000 // n))
    total = spent = 0.0
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end:
        r = env.random_steps(steps, threads)
        total += r["steps"]
        spent += r["seconds"] if wall else r["cpu_seconds"]
        steps = max(1, min(steps * 2, int(4_000_000 // n)))
    return total / spent


def engine_rate(game, seconds):
    """Actions (cards and calls) per CPU second of the bare compiled playout, one thread (no
    tensors, no masks): the engine's own loop."""
    n = 20_000
    acts = cpu = 0
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end:
        c0 = time.thread_time()
        r = batch.playouts(game, n=n, seed=3)
        cpu += time.thread_time() - c0
        acts += r["cards"] + r["calls"]
    return acts / cpu


def openspiel_skat(seconds, observe):
    """OpenSpiel Skat steps/s from Python: the deal (chance) untimed, then per decision
    (observe: the observation tensor and the legal-action mask of the player to act) a uniform
    choice among the legal actions and apply_action."""
    import pyspiel
    game = pyspiel.load_game("skat")
    rng = random.Random(1)
    choice = rng.choice
    steps = 0
    busy = 0.0
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end:
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(choice(state.chance_outcomes())[0])
        t0 = time.thread_time()
        while not state.is_terminal():
            if observe:
                p = state.current_player()
                state.observation_tensor(p)
                state.legal_actions_mask(p)
            state.apply_action(choice(state.legal_actions()))
            steps += 1
        busy += time.thread_time() - t0
    return steps / busy


def pettingzoo_rate(game, seconds):
    """Steps/s of the PettingZoo AEC environment: observe (dict with the mask), a uniform legal
    action, step."""
    from engine_core.rl.pettingzoo import env as make_env
    e = make_env(game)
    rng = random.Random(1)
    steps = 0
    e.reset(seed=1)
    t0, c0 = time.perf_counter(), time.thread_time()
    while time.perf_counter() - t0 < seconds:
        agent = e.agent_selection
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            if not e.agents:
                e.reset(seed=rng.getrandbits(32))
            continue
        legal = [i for i, v in enumerate(obs["action_mask"]) if v]
        e.step(rng.choice(legal))
        steps += 1
    return steps / (time.thread_time() - c0)


def openspiel_stich(game, seconds):
    """Steps/s of a stich game through pyspiel (registered Python game): observation tensor,
    mask, uniform choice, apply_action."""
    import pyspiel
    from engine_core.rl import openspiel
    openspiel.register()
    g = pyspiel.load_game(openspiel.short_name(game))
    rng = random.Random(1)
    steps = 0
    t0, c0 = time.perf_counter(), time.thread_time()
    while time.perf_counter() - t0 < seconds:
        state = g.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        while not state.is_terminal():
            p = state.current_player()
            state.observation_tensor(p)
            state.legal_actions_mask(p)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.thread_time() - c0)


def run(game="schafkopf", seconds=1.5, reps=3, threads=2, sizes=(1, 64, 4096), others=True):
    def med(fn, *a, **k):
        return statistics.median(fn(*a, **k) for _ in range(reps))
    rows = {}
    for n in sizes:
        rows[f"vec.cards_only.n{n}"] = med(vec_rate, game, n, seconds)
    rows["vec.all_decisions.n64"] = med(vec_rate, game, 64, seconds, cards_only=False)
    if "cheapest" in games.get(game).rules.BIDS:
        # random players that pass or name the cheapest contract: more deals reach the card play
        rows["vec.cards_only.n64.bids_cheapest"] = med(vec_rate, game, 64, seconds, bids="cheapest")
    if threads > 1:
        n = max(sizes)
        rows[f"vec.cards_only.n{n}.threads{threads}"] = med(vec_rate, game, n, seconds, threads)
        rows[f"vec.cards_only.n{n}.threads{threads}.wall"] = med(vec_rate, game, n, seconds, threads, wall=True)
    rows["engine_playout.actions"] = med(engine_rate, game, seconds)
    if others:
        try:
            rows["openspiel.skat.step"] = med(openspiel_skat, seconds, False)
            rows["openspiel.skat.step_observe"] = med(openspiel_skat, seconds, True)
        except ImportError:
            rows["openspiel.skat.step"] = None
        try:
            rows["pettingzoo.step"] = med(pettingzoo_rate, game, seconds)
        except ImportError:
            rows["pettingzoo.step"] = None
        try:
            rows["openspiel.stich.step"] = med(openspiel_stich, game, seconds)
        except ImportError:
            rows["openspiel.stich.step"] = None
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="schafkopf", choices=games.available())
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = ap.parse_args(argv)
    rows = run(args.game, args.seconds, args.reps, args.threads)
    if args.json:
        print(json.dumps(rows))
        return 0
    base = rows.get("openspiel.skat.step_observe")
    for key, rate in rows.items():
        if rate is None:
            print(f"{key:40s} {'n/a (pip install .[rl])':>18s}")
            continue
        ratio = f"  x{rate / base:8.1f} OpenSpiel Skat (observed)" if base else ""
        print(f"{key:40s} {rate / 1e6:14.3f} M/s{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
