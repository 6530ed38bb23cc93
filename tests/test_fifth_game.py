"""A fifth game, registered inside the test with no file of the project changed: Schafkopf's
declaration under a new name with other tariffs. Everything above the engine reads only the
view and the declaration, so the game deals, replays, plays every bot level in a tournament,
solves, analyses, gives hints, renders in the terminal game and plays a whole service match
with three bots. A layer that branches on a game's name fails here."""
from __future__ import annotations

import asyncio
import dataclasses
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from rich.console import Console

from engine_core import analysis, bots, games, records, solver
from engine_core.bots import tournament
from service import convert as server_convert
from service.manager import TableManager
from service.store import SqliteStore
from stich_client import convert as client_convert
from stich_client import table_view
from stich_client.menu import Menu

NAME = "fuenfter"
TARIFFS = {"tariff_rufspiel": 20, "tariff_solo": 60, "tariff_increment": 5}


@pytest.fixture(scope="module")
def scratch():
    """The scratch game, registered for this module and removed after it."""
    base = games.spec_of("schafkopf")
    options = tuple(dataclasses.replace(o, default=TARIFFS[o.name]) if o.name in TARIFFS else o
                    for o in base.options)
    spec = dataclasses.replace(base, name=NAME, options=options,
                               description="Schafkopf at other tariffs, declared in a test")
    games.register(spec)
    table_view.learn(NAME, spec.words)
    yield spec
    games.unregister(NAME)


def random_deal(seed: int):
    state = games.get(NAME).deal(seed, seed % 4)
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_registered_and_refused_twice(scratch):
    assert NAME in games.available() and games.spec_of(NAME) is scratch
    with pytest.raises(games.OptionError, match="already registered"):
        games.register(scratch)
    with pytest.raises(games.OptionError, match="built in"):
        games.unregister("schafkopf")


def test_deals_replays_and_scores_at_its_own_tariffs(scratch):
    """The same deal and actions score as Schafkopf with the scratch tariffs given as options."""
    for seed in range(12):
        state = random_deal(seed)
        record = state.record()
        assert record["game"] == NAME and records.replay(record).result() == state.result()
        same = games.get("schafkopf", TARIFFS).new_deal(state.hands, state.dealer)
        for action in state.actions:
            same.apply(action)
        assert same.result() == state.result()
        view = state.view(0)
        assert view["game"] == NAME and set(view["points"]) == set(scratch.deck.faces)


def test_every_bot_level_plays_a_tournament(scratch):
    fast = {"worlds": 2, "rollout_worlds": 1, "nodes": 2000}
    for names, deals in ((["hard", "normal"], 1), (["easy", "random"], 2)):
        report = tournament.run(NAME, names, deals, seed=5, budget=fast)
        assert report["game"] == NAME and [b["bot"] for b in report["bots"]] == names
        assert report["bots"][0]["decisions"] > 0 and report["deals"] == deals
        # zero-sum scores, each bot in half the seats of every seating
        assert abs(report["bots"][0]["mean"] + report["bots"][1]["mean"]) < 1e-9


def test_solver_analysis_and_hints(scratch):
    state = games.get(NAME).deal(3, 0)
    rng = random.Random(3)
    while state.phase() != "play" and not state.is_over():
        legal = state.legal_actions()
        bids = [a for a in legal if a.get("call") == "rufspiel"] if state.to_act() == 0 else []
        state.apply(bids[0] if bids else next((a for a in legal if a.get("call") == "pass"), legal[0]))
    if state.is_over():
        pytest.skip("the scratch deal was thrown in")
    for _ in range(8):                      # two tricks
        state.apply(rng.choice(state.legal_actions()))
    solution = solver.solve(state, budget=2_000_000)
    assert solution.exact and 0 <= solution.value <= 120
    assert solver.reaches(state, "win") == (solution.value >= 61)
    assert solver.reaches(state, "schneider") == (solution.value >= 91)
    finished = random_deal(4)
    report = analysis.analyze(finished.record(), budget=200_000)
    assert report["game"] == NAME and report["target"] == 61
    hard = bots.get(NAME, "hard", seed=1, worlds=2, rollout_worlds=1, nodes=2000)
    view = state.view(state.to_act())
    hints = hard.evaluate(view)
    assert {h["action"]["card"] for h in hints} <= {a["card"] for a in view["legal"]}


def render(renderable) -> str:
    console = Console(record=True, width=80, file=open("/dev/null", "w"), color_system=None)
    console.print(renderable)
    return console.export_text()


def test_a_service_match_with_three_bots(scratch, tmp_path):
    """A table of one human and three bots (easy, normal, hard) plays a whole match of two
    deals through the table manager; the human's view renders in the terminal game's words."""
    async def main():
        store = SqliteStore(str(tmp_path))
        await store.open()
        m = TableManager(store, ThreadPoolExecutor(2), 100)
        m.start()
        view, tokens, _, _ = await m.create(NAME, {}, 2, ["human", "bot:easy", "bot:normal", "bot:hard"], seed=9)
        tid, token = view["table_id"], tokens[0]
        rng = random.Random(9)
        shown = 0
        for _ in range(2):
            v = await m.deal(tid, token, None)
            while True:
                for _ in range(6000):               # the bots act in their own task
                    if v["status"] != "in_deal" or v["deal"]["to_act"] == v["seat"]:
                        break
                    await asyncio.sleep(0.01)
                    v = await m.view(tid, token)
                else:
                    raise AssertionError("the bots stopped")
                if v["status"] != "in_deal":
                    break
                client = client_convert.view_dict(server_convert.view_msg(v))
                if shown < 3:
                    text = render(table_view.render_view(client, Menu.of(client)))
                    assert all(table_view.card_label(NAME, c) in text for c in client["hand"])
                    shown += 1
                action = rng.choice(v["deal"]["legal"])
                fields = {k: x for k, x in action.items() if k not in ("seat", "type")}
                v = await m.act(tid, token, action["type"], fields, None)
        assert v["status"] == "match_over" and v["deals_counted"] == 2
        assert sum(v["match_scores"]) == 0
        await m.close()
        await store.close()
    asyncio.run(main())


def test_no_layer_above_the_engine_names_a_game():
    """The rule the scratch game relies on, read off the sources: no file of the layers above
    the engine holds a built-in game's name as a string literal (what one game needs is
    declared in its GameSpec and read from there)."""
    import pathlib
    import re
    root = pathlib.Path(__file__).resolve().parents[1]
    layers = [root / "src/engine_core/bots", root / "src/engine_core/solver.py",
              root / "src/engine_core/analysis.py", root / "src/engine_core/demo.py", root / "src/service",
              root / "clients/python/stich_client", root / "clients/web/src"]
    literal = re.compile(r"""["'](%s)["']""" % "|".join(games.GAMES))
    found = []
    for layer in layers:
        files = [layer] if layer.is_file() else sorted(p for p in layer.rglob("*")
                                                       if p.suffix in (".py", ".ts", ".js") and "gen" not in p.parts)
        for path in files:
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if literal.search(line):
                    found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)
