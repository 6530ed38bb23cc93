"""The baseline players (engine_core.bots.baselines) and the random playouts they share
(Core.playouts): legal play of whole deals at tiny budgets, fairness, determinism, budgets,
pimc on a determined endgame, and the playouts against the Python API."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine_core import bots, games, solver
from engine_core.bots import tournament
from engine_core.bots.baselines import Worlds, relative
from engine_core.bots.hard import objective_for
from engine_core.bots.inference import Inference

TINY = {"flatmc": {"playouts": 12, "deals": 6, "worlds": 4},
        "pimc": {"worlds": 2, "nodes": 300, "bid_nodes": 30},
        "ismcts": {"iterations": 25}}


def random_position(game, seed, steps):
    state = game.deal(seed, seed % game.seats)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("level", bots.BASELINES)
@pytest.mark.parametrize("game_name", games.GAMES)
def test_a_baseline_plays_a_whole_deal_legally(game_name, level):
    game = games.get(game_name)
    state = game.deal(21, 1)
    players = [bots.get(game_name, level, seed=s, **TINY[level]) if s % 2 == 0 else bots.get(game_name, "easy", seed=s)
               for s in range(game.seats)]
    kinds = set()
    while not state.is_over():
        seat = state.to_act()
        view = state.view(seat)
        action = players[seat].choose(view)
        assert action in view["legal"], (view["phase"], action)
        if seat % 2 == 0 and len(view["legal"]) > 1:
            kinds.add(action["type"])
        state.apply(action)
    assert "play" in kinds


@pytest.mark.parametrize("level", bots.BASELINES)
def test_baselines_are_deterministic_and_see_only_the_view(level):
    for game_name, seed, steps in (("klaverjas", 3, 9), ("schafkopf", 5, 6), ("doppelkopf", 8, 12), ("sheepshead", 2, 4)):
        game = games.get(game_name)
        state = random_position(game, seed, steps)
        seat = state.to_act()
        view = state.view(seat)
        inf = Inference(view)
        twins = [inf.state_of(w) for w in inf.sample(6, seed)]
        twin = next((t for t in twins if t.hands != state.hands), None)
        assert twin is not None and twin.view(seat) == view
        bot = bots.get(game_name, level, seed=seed, **TINY[level])
        again = bots.get(game_name, level, seed=seed, **TINY[level])
        assert bot.choose(view) == again.choose(twin.view(seat)) == bot.choose(view)


def test_budgets_are_checked_and_named():
    with pytest.raises(ValueError, match="playouts"):
        bots.get("klaverjas", "flatmc", playouts=0)
    with pytest.raises(ValueError, match="deals"):
        bots.get("klaverjas", "flatmc", deals=1.5)
    with pytest.raises(ValueError, match="worlds"):
        bots.get("klaverjas", "pimc", worlds=True)
    with pytest.raises(ValueError, match="bid_nodes"):
        bots.get("klaverjas", "pimc", bid_nodes=-1)
    with pytest.raises(ValueError, match="iterations"):
        bots.get("klaverjas", "ismcts", iterations=0)
    with pytest.raises(ValueError, match="'nodes' is no budget of ismcts"):
        bots.get("klaverjas", "ismcts", nodes=10)
    with pytest.raises(ValueError, match="baselines: flatmc, pimc, ismcts"):
        bots.get("klaverjas", "expert")
    assert bots.LEVELS == ("random", "easy", "normal", "hard")


def test_the_tournament_plays_baselines_with_budgets_from_the_command_line(capsys):
    from engine_core import cli
    code = cli.main(["tournament", "--game", "klaverjas", "--bots", "ismcts,flatmc", "--deals", "1",
                     "--budget", "ismcts.iterations=15", "--budget", "flatmc.playouts=8",
                     "--budget", "flatmc.deals=4", "--json"])
    assert code == 0
    out = capsys.readouterr().out
    assert '"bot": "ismcts"' in out and '"bot": "flatmc"' in out
    assert cli.main(["tournament", "--game", "klaverjas", "--bots", "ismcts,flatmc", "--deals", "1",
                     "--budget", "flatmc.rounds=3"]) == 2
    assert "'rounds' is no budget of flatmc" in capsys.readouterr().err
    with pytest.raises(ValueError, match="playouts"):
        tournament.run("klaverjas", ["flatmc", "random"], 1, budgets={"flatmc": {"playouts": 0}})


def _determined_endgame(seed):
    """A Klaverjas position with a choice of cards whose view leaves one consistent world."""
    game = games.get("klaverjas")
    state = game.deal(seed, seed % 4)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_act()
        legal = state.legal_actions()
        if state.phase() == "play" and len(state.view(seat)["hand"]) <= 3 and len(legal) > 1:
            worlds = Inference(state.view(seat)).sample(60, seed)
            if len({tuple(w["masks"]) for w in worlds}) == 1:
                return state
        state.apply(rng.choice(legal))
    return None


def test_pimc_plays_a_solver_optimal_card_in_a_determined_endgame():
    found = 0
    for seed in range(200):
        state = _determined_endgame(seed)
        if state is None:
            continue
        seat = state.to_act()
        obj = objective_for(state, seat)
        values = {}
        for e in solver.values(state, obj):
            for card in [e["action"]["card"], *e["equivalent"]]:
                values[card] = e["value"]
        best = max(values.values())
        choice = bots.get("klaverjas", "pimc", seed=seed, worlds=5).choose(state.view(seat))
        assert values[choice["card"]] == best, (seed, values, choice)
        found += len({v for v in values.values()}) > 1       # a position where the choice matters
        if found >= 3:
            break
    assert found >= 3


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(games.GAMES), st.integers(0, 2 ** 32), st.integers(0, 40), st.integers(0, 2 ** 64 - 1))
def test_playouts_are_the_python_apis_random_deals(game_name, deal, steps, seed):
    """playouts(1, s) scores the deal that applying random_actions(s) through State.apply_code
    finishes; playouts(n, s) sums playouts(1, s + k); the state is unchanged; per seed."""
    state = random_position(games.get(game_name), deal, steps)
    if state.is_over():
        return
    core = state.core
    legal, to_act = core.legal_list(), core.to_act()
    one = core.playouts(1, seed)
    codes = core.random_actions(seed)
    replay = state.copy()
    for code in codes:
        replay.apply_code(code)
    assert replay.is_over() and replay.result()["scores"] == one
    assert core.legal_list() == legal and core.to_act() == to_act
    three = core.playouts(3, seed)
    parts = [core.playouts(1, (seed + k) % 2 ** 64) for k in range(3)]
    assert three == [sum(p[i] for p in parts) for i in range(len(one))]
    assert core.playouts(3, seed) == three
    with pytest.raises(ValueError, match="positive"):
        core.playouts(0, seed)


def test_worlds_replay_the_view_as_cores():
    game = games.get("doppelkopf")
    state = random_position(game, 4, 30)
    seat = state.to_act()
    w = Worlds(state.view(seat), None)
    cores = w.cores(5, 9)
    assert len(cores) == 5
    for core in cores:
        assert sorted(game.deck.codes(core.hand(seat))) == sorted(game.deck.codes(state.core.hand(seat)))
        assert sorted(w.key_of_code(c) for c in core.legal_list()) == \
            sorted(w.key_of_action(a) for a in state.legal_actions())
    assert relative([3, -1, -1, -1], 0) == 4.0


def test_decision_time_bench_lists_saves_and_replays_the_slowest(tmp_path):
    """bench/baselines_time.py at a tiny size (the bench is a command): the slowest decisions
    are listed slowest first, saved as views, and a saved view is decided again, the same way."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    script = Path(__file__).resolve().parent.parent / "bench" / "baselines_time.py"
    out = subprocess.run([sys.executable, str(script), "--game", "klaverjas", "--bot", "hard", "--deals", "1",
                          "--slowest", "2", "--save", str(tmp_path), "--preset", "rotterdam"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("klaverjas  hard    card ")
    listed = [float(line.split("s deal")[0]) for line in out if " deal " in line]
    assert len(listed) == 2 and listed[0] >= listed[1]
    saved = sorted(tmp_path.glob("klaverjas-0-*.json"))
    assert len(saved) == 2
    record = json.loads(saved[0].read_text())
    assert record["options"] == games.preset("klaverjas", "rotterdam") and record["action"] in record["view"]["legal"]
    replayed = subprocess.run([sys.executable, str(script), "--replay", str(saved[0])],
                              capture_output=True, text=True, check=True).stdout
    assert "cumulative" in replayed
    # the bot is deterministic per seed: the replay decides as the game did
    assert json.loads(replayed.splitlines()[0].split("CPU, chose ", 1)[1]) == record["action"]
