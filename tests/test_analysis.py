"""Deal analysis and the solve / analyze commands: values that agree with the solver, losses
that are never negative, the first decisive mistake, stable output lines, errors as evaluate
gives them."""
import json
import subprocess
import sys

import pytest

from engine_core import analysis, batch, games, records, solver
from engine_core.solver import SolverError

from conftest import GAMES

# analysed exactly, every action solved: Doppelkopf's 12 tricks take a budget instead
# (test_a_budget_gives_bounds_in_doppelkopf)
EXACT = [game for game in GAMES if game != "doppelkopf"]


def played_record(game, k=0):
    bids = "cheapest" if game in ("schafkopf", "doppelkopf") else "uniform"
    for j in range(k, k + 200):
        record = batch.playout_record(game, seed=21, k=j, bids=bids)
        result = records.replay(record).result()
        if len(result["tricks"]) == games.spec_of(game).hand_size:
            return record
    raise AssertionError("no fully played deal found")


@pytest.mark.parametrize("game", EXACT)
def test_analysis_values_agree_with_the_solver(game):
    record = played_record(game)
    out = analysis.analyze(record)
    state = records.new_state(record)
    steps = {s["index"]: s for s in out["actions"]}
    assert out["reached"] is not None and out["perfect"] is not None
    for i, action in enumerate(record["actions"]):
        if i in steps and action["type"] == "play":
            step = steps[i]
            values = solver.values(state)
            assert [v["value"] for v in values] == [v["value"] for v in step["values"]]
            assert step["loss"] >= 0
            if step["loss"] == 0:
                assert step["value"] == step["best"]
        state.apply(action)
    final = solver.solve(state)
    assert out["reached"] == final.value


def test_the_first_decisive_mistake_flips_the_outcome():
    for k in range(40):
        record = played_record("schafkopf", k)
        out = analysis.analyze(record)
        mistake = out["first_decisive_mistake"]
        if mistake is None:
            assert out["could_win"] == out["won"]
            continue
        state = records.new_state(record)
        for action in record["actions"][:mistake["index"]]:
            state.apply(action)
        assert solver.reaches(state, "win") == mistake["could_win_before"]
        state.apply(record["actions"][mistake["index"]])
        assert solver.reaches(state, "win") == mistake["could_win_after"] != mistake["could_win_before"]
        return
    pytest.fail("no decisive mistake in 40 random deals")


def test_a_budget_gives_bounds_in_doppelkopf():
    record = played_record("doppelkopf")
    out = analysis.analyze(record, budget=20_000)
    first = out["actions"][0]
    assert isinstance(out["perfect"], (int, dict))
    for entry in first["values"]:
        value = entry["value"]
        assert isinstance(value, int) or value["lower"] <= value["upper"]


def test_bad_arguments():
    record = played_record("schafkopf")
    for bad in (0, -1, 1.5, True):
        with pytest.raises(SolverError, match="budget"):
            analysis.analyze(record, budget=bad)


def run(*args, stdin):
    return subprocess.run([sys.executable, "-m", "engine_core", *args], input=stdin, capture_output=True,
                          text=True, timeout=300)


def test_solve_command_lines():
    record = played_record("schafkopf")
    state = records.new_state(record)
    for action in record["actions"][:8]:
        state.apply(action)
    position = state.record()
    lines = "\n".join([json.dumps({"id": "p", "record": position}), json.dumps(record), "not json",
                       json.dumps({"id": 4, "record": {**position, "actions": position["actions"] + [{"seat": 9}]}})])
    done = run("solve", stdin=lines + "\n")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 4
    first = out[0]
    assert set(first) == {"id", "value", "exact", "side", "nodes", "values"} and first["id"] == "p"
    assert first["value"] == solver.solve(state).value
    assert max(v["value"] for v in first["values"]) == first["value"] or state.to_act() not in first["side"]
    assert out[1]["values"] == [] and out[1]["exact"]
    assert out[2]["error"]["reason_id"] == "MALFORMED_JSON"
    assert out[3]["error"]["index"] == len(position["actions"]) and out[3]["error"]["reason_id"] == "BAD_SEAT"
    target = run("solve", "--target", "61", stdin=json.dumps(position) + "\n")
    answer = json.loads(target.stdout)
    assert answer["reaches"] == solver.reaches(state, 61) and answer["target"] == 61
    bounded = json.loads(run("solve", "--budget", "50", stdin=json.dumps(position) + "\n").stdout)
    assert bounded["exact"] is False and bounded["lower"] <= first["value"] <= bounded["upper"]
    for bad in ("0", "-3", "x"):
        refused = run("solve", "--budget", bad, stdin="")
        assert refused.returncode == 2 and "budget" in refused.stderr and "Traceback" not in refused.stderr


def test_analyze_command_lines():
    record = played_record("schafkopf")
    done = run("analyze", stdin=json.dumps({"id": 7, "record": record}) + "\n{}\n")
    assert done.returncode == 0, done.stderr
    first, second = [json.loads(line) for line in done.stdout.splitlines()]
    assert first["id"] == 7 and first["side"] and first["actions"]
    assert {"perfect", "reached", "could_win", "won", "first_decisive_mistake", "target"} <= set(first)
    assert second["error"]["index"] is None and second["error"]["reason_id"] == "INVALID_RECORD"


# ---- contracts won by the fewest points; what the header judges --------------------------------
def _all_pass_record(game, options, kind):
    """A played deal whose contract is `kind` (every seat passes in the auction)."""
    import random
    for seed in range(400):
        state = games.get(game, options).deal(seed, 0)
        rng = random.Random(seed)
        while not state.is_over():
            legal = state.legal_actions()
            passes = [a for a in legal if a["type"] == "bid" and a.get("call") == "pass"]
            state.apply(passes[0] if passes else rng.choice(legal))
        if (state.core.public(None)["contract"] or {}).get("type") == kind:
            return state.record()
    raise AssertionError(f"no {kind} found")


@pytest.mark.parametrize("game,options,kind", [("schafkopf", {"ramsch": True}, "ramsch"),
                                               ("sheepshead", {}, "leaster")])
def test_a_ramsch_or_leaster_is_judged_by_the_fewest_points(game, options, kind):
    """Nobody wins a Ramsch by reaching 61: the seat to act minimises its points, there is no
    target to reach, and won says whether its result is a win (the engine's score)."""
    record = _all_pass_record(game, options, kind)
    out = analysis.analyze(record, budget=100_000)
    state = records.replay(record)
    first_play = next(i for i, a in enumerate(record["actions"]) if a["type"] == "play")
    assert out["side"] == [record["actions"][first_play]["seat"]]
    assert out["maximize"] is False and out["count"] == "points"
    assert out["target"] is None and out["could_win"] is None and kind in out["target_note"]
    seat = out["side"][0]
    assert out["won"] == (state.result()["scores"][seat] > 0)
    assert out["first_decisive_mistake"] is None
    for step in out["actions"]:
        if "loss" in step:
            assert step["loss"] >= 0
        if step["seat"] == seat and isinstance(step.get("best"), int):
            exact = [v["value"] for v in step["values"] if isinstance(v["value"], int)]
            if len(exact) == len(step["values"]):
                assert step["best"] == min(exact)      # the seat wants the fewest points


def test_the_klaverjas_header_says_it_judges_the_margin():
    record = played_record("klaverjas")
    out = analysis.analyze(record, budget=200_000)
    assert out["target"] == 1 and out["target_count"] == "margin" and out["count"] == "points"


def test_a_stopped_analysis_stops_between_searches():
    record = played_record("schafkopf")
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 3
    with pytest.raises(analysis.Stopped):
        analysis.analyze(record, stop=stop)
    assert len(calls) == 4


def test_the_fair_review_of_a_leaster_names_the_card_the_hard_level_plays():
    """The review from the seat's own view takes the card with the highest `expected` as best.
    In a leaster `expected` is the seat's relative deal score (the hard level's own reading of a
    contract each seat plays for itself), so the best card is the one the bot plays; while it
    was the seat's points, the review named the card that took the most."""
    from engine_core import bots
    record = _all_pass_record("sheepshead", {}, "leaster")
    seat = next(a["seat"] for a in record["actions"] if a["type"] == "play")
    out = analysis.analyze(record, seat=seat, fair=True, worlds=4)
    hard = bots.get("sheepshead", "hard", seed=0, worlds=4, rollout_worlds=2, nodes=20000,
                    playout_worlds=4, playouts=16)
    state = records.new_state({**record, "actions": []})
    steps = {step["index"]: step for step in out["actions"]}
    checked = 0
    for i, action in enumerate(record["actions"]):
        if i in steps and action["type"] == "play":
            assert steps[i]["best"] == hard.choose(state.view(seat))
            assert steps[i]["loss"] >= 0
            checked += 1
        state.apply(action)
    assert checked >= 3
