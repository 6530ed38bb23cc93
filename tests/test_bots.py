"""Computer players: legality in every phase of every game and option set, determinism per
seed, fairness (a choice depends only on the seat's view), the inference's worlds (consistent
with the view, uniform on a small case) and the API's refusals."""
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine_core import bots, games
from engine_core.bots.inference import Inference

from conftest import GAMES

# the option sets each game's bots play (a game not listed: its defaults)
OPTION_SETS = {
    "schafkopf": [{}, {"ramsch": True, "kontra": True}, {"schneider_rule": "official", "kontra": True}],
    "doppelkopf": [{}, {"second_heart_ten_beats_first": True, "solo_player_leads": True, "picture_solos": True},
                   {**games.preset("doppelkopf", "house"), "hochzeit_partner": "first_colour_trick"},
                   {"nines": False, "throw_in": True, "schweinchen": "schweinchen"},
                   # a Vorfuehrung (rules 9.2): seat 1 must bid a solo, at every level
                   {"pflichtsolo": 4, "pflicht_played": [1, 0, 1, 1], "pflicht_round_deals": 4}],
    "sheepshead": [{}, games.preset("sheepshead", "seed004"), {"cracking": True, "partner": "jack_of_diamonds"},
                   {"no_pick": "doubler", "unknown_broad": True}, {"no_pick": "forced_pick"},
                   {"blitz": True, "call_own_ace": True, "cracking": True},
                   {"partner": "jack_of_diamonds", "call_up": True, "cracking": True, "spitz": True},
                   {"no_pick": "schwanzer", "spitz": True},
                   {"blitz": True, "red_blitz": True, "cracking": True}],
    "klaverjas": [{}, {"ruleset": "rotterdam"}, {"ruleset": "utrecht", "roem": False},
                  {"bidding": "drents", "stuk": "declared", "roem_claim": True}],
    # Sheepshead's seat variants (docs/rules/sheepshead.md 13)
    "sheepshead3": [{}, {"cracking": True, "blitz": True, "no_pick": "forced_pick"}],
    "sheepshead4": [{}, {"partner": "jack_of_diamonds", "call_up": True, "cracking": True}],
    "sheepshead4c": [{}, {"cracking": True, "blitz": True, "red_blitz": True, "no_pick": "doubler"}],
    "sheepshead6": [{}, {"partner": "none", "no_pick": "doubler", "blitz": True}, {"no_pick": "schwanzer"},
                    # the dealer sits out (13): the bots are never asked for him
                    {"dealer_sits_out": True, "cracking": True, "blitz": True},
                    {"dealer_sits_out": True, "partner": "jack_of_diamonds", "no_pick": "forced_pick"}],
}
CASES = [(g, o) for g in GAMES for o in OPTION_SETS.get(g, [{}])]
FAST = {"worlds": 3, "rollout_worlds": 2, "nodes": 2000, "playout_worlds": 3, "playouts": 4, "rollout_playouts": 2}


def play(game, levels, seed, dealer, **budget):
    """One deal with the bots of `levels` (one per seat); every choice checked legal."""
    state = game.deal(seed, dealer)
    players = [bots.get(game.name, lv, seed=seed + s, options=game.options.as_dict(),
                        **(budget if lv == "hard" else {})) for s, lv in enumerate(levels)]
    phases = set()
    while not state.is_over():
        seat = state.to_act()
        view = state.view(seat)
        action = players[seat].choose(view)
        assert action in state.legal_actions(), (view["phase"], action)
        phases.add(view["phase"])
        state.apply(action)
    return state, phases


@pytest.mark.parametrize("game_name,options", CASES,
                         ids=lambda x: x if isinstance(x, str) else str(sorted(x)))
def test_every_level_plays_only_legal_actions(game_name, options):
    game = games.get(game_name, options)
    n = game.seats
    phases = set()
    for k in range(6):
        levels = [("random", "easy", "normal")[(k + s) % 3] for s in range(n)]
        _, seen = play(game, levels, 1000 + k, k % n)
        phases |= seen
    _, seen = play(game, ["hard"] + ["easy"] * (n - 1), 77, 0, **FAST)
    phases |= seen
    assert "play" in phases


def test_many_easy_and_normal_deals_reach_every_phase():
    """Across seeded deals the bots reach the rarer phases too (Armut, bury, Kontra, crack)."""
    want = {"doppelkopf": {"reservation", "play"}, "sheepshead": {"pick", "bury", "call", "play"},
            "schafkopf": {"auction", "kontra", "play"}, "klaverjas": {"bidding", "play"}}
    for game_name, phases_wanted in want.items():
        options = {"kontra": True} if game_name == "schafkopf" else {}
        game = games.get(game_name, options)
        seen = set()
        for k in range(40):
            _, phases = play(game, ["easy", "normal"] * 3, 5000 + k, k % game.seats)
            seen |= phases
        assert phases_wanted <= seen, (game_name, seen)


def test_the_bot_api_refuses_bad_input():
    with pytest.raises(ValueError, match="levels are random, easy, normal, hard"):
        bots.get("schafkopf", "expert")
    with pytest.raises(ValueError, match="games are"):
        bots.get("skat", "easy")
    with pytest.raises(ValueError, match="hard level only"):
        bots.get("schafkopf", "easy", worlds=3)
    state = games.get("schafkopf").deal(3)
    bot = bots.get("schafkopf", "easy")
    with pytest.raises(TypeError, match="view"):
        bot.choose(state)                    # a State is never accepted: it holds every hand
    with pytest.raises(ValueError, match="not to act"):
        bot.choose(state.view((state.to_act() + 1) % 4))
    with pytest.raises(ValueError, match="plays schafkopf"):
        bots.get("schafkopf", "easy").choose(games.get("klaverjas").deal(1).view(1))
    assert bots.LEVELS == ("random", "easy", "normal", "hard")


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_choices_are_deterministic_per_seed(level):
    game = games.get("doppelkopf")
    budget = FAST if level == "hard" else {}
    a, _ = play(game, [level] * 4, 11, 1, **budget)
    b, _ = play(game, [level] * 4, 11, 1, **budget)
    assert a.actions == b.actions


def _shuffled_twin(state, seat, rng):
    """A State whose view for `seat` is the same as `state`'s, with the other seats' unseen
    cards dealt differently (a world from the inference)."""
    inf = Inference(state.view(seat), state.game.options.as_dict())
    for world in inf.sample(8, rng.getrandbits(64)):
        twin = inf.state_of(world)
        if twin.hands != state.hands:
            return twin
    return None


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(games.GAMES), st.integers(0, 2 ** 32), st.integers(0, 30),
       st.sampled_from(["easy", "normal", "hard"]))
def test_a_choice_does_not_depend_on_the_hidden_hands(game_name, seed, steps, level):
    game = games.get(game_name)
    state = game.deal(seed, seed % game.seats)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over():
        return
    seat = state.to_act()
    twin = _shuffled_twin(state, seat, rng)
    if twin is None:
        return
    assert twin.view(seat) == state.view(seat)
    budget = FAST if level == "hard" else {}
    bot = bots.get(game_name, level, seed=seed, **budget)
    assert bot.choose(state.view(seat)) == bot.choose(twin.view(seat))


@pytest.mark.parametrize("game_name", games.GAMES)
def test_every_sampled_world_reproduces_the_view(game_name):
    game = games.get(game_name)
    checked = 0
    for seed in range(60):
        if checked >= 100:
            break
        state = game.deal(seed, seed % game.seats)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 40)):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over():
            continue
        seat = state.to_act()
        view = state.view(seat)
        inf = Inference(view)
        worlds = inf.sample(20, seed)
        assert worlds, (seed, view["phase"])
        for world in worlds:
            assert inf.state_of(world).view(seat) == view
            checked += 1
        # deterministic per seed
        assert [w["masks"] for w in inf.sample(5, seed)] == [w["masks"] for w in worlds[:5]]
    assert checked >= 60


def test_a_world_keeps_the_party_an_announcement_revealed():
    """Doppelkopf without the nines, seat 2 (Kontra) after Re's no 90 by seat 0: the no 90 is
    legal for seat 0 in worlds where seat 3 holds both club queens (a silent solo, seat 0 then
    Kontra), but the view shows it as Re's. Such worlds once made up a third of the sample, and
    the hard level, trying Kontra's own no 90 in them, raised IllegalActionError mid-deal."""
    options = {"nines": False}
    game = games.get("doppelkopf", options)
    state = game.deal(202, 2)
    for call in ("healthy",) * 4:
        state.apply({"seat": state.to_act(), "type": "bid", "call": call})
    for seat, kind, what in [(3, "announce", "re"), (3, "play", "AS"), (0, "play", "TC"), (1, "announce", "kontra"),
                             (1, "play", "KS"), (2, "play", "TS"), (3, "play", "TH"), (0, "announce", "no_90"),
                             (0, "play", "TD"), (1, "play", "JS")]:
        state.apply({"seat": seat, "type": kind, ("card" if kind == "play" else "call"): what})
    view = state.view(2)
    assert view["teams"]["re"] == [0, 3] and {"seat": 2, "type": "announce", "call": "no_90"} in view["legal"]
    inf = Inference(view, options)
    worlds = inf.sample(60, 1)
    assert len(worlds) >= 55
    assert all(inf.state_of(w).view(2) == view for w in worlds)
    bot = bots.get("doppelkopf", "hard", seed=202, options=options, **FAST)
    assert bot.choose(view) in view["legal"]


@pytest.mark.parametrize("game_name", GAMES)
def test_a_world_before_each_action_is_what_its_seat_saw(game_name):
    """Inference.before (what the hard level weighs a world's bids with): the world replayed
    to just before action i has that action's seat to act, the action legal, and the history
    so far; the view it gives that seat shows the view's public actions up to i."""
    game = games.get(game_name)
    checked = 0
    for seed in range(40):
        state = game.deal(seed, seed % game.seats)
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 40)):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over():
            continue
        seat = state.to_act()
        view = state.view(seat)
        inf = Inference(view)
        indices = [i for i, a in enumerate(view["actions"]) if a.get("seat") not in (None, seat)]
        for world in inf.sample(4, seed):
            for i, before in zip(indices, inf.before(world, indices)):
                action = view["actions"][i]
                assert before.to_act() == action["seat"] and len(before.actions) == i
                if action["type"] != "exchange":        # a hidden exchange: the world's cards
                    assert before.why_illegal(action) is None, (seed, i, action)
                    assert before.view(seat)["actions"] == view["actions"][:i]
                checked += 1
    assert checked >= 100


def test_hard_keeps_the_worlds_its_model_of_the_others_bids_finds_likely():
    """With inference_pool 2 the hard level draws twice the worlds and keeps the ones in which
    the normal level would have bid as the others did: over Schafkopf auctions that others
    passed or bid, the kept worlds agree with the model more often than uniform ones."""
    import statistics
    from engine_core.bots.hard import HardBot
    pooled, uniform = HardBot("schafkopf", seed=1), HardBot("schafkopf", seed=1, inference_pool=1)
    shares = {"pooled": [], "uniform": []}
    game = games.get("schafkopf")
    for seed in range(12):
        state = game.deal(seed, 0)
        normal = [bots.get("schafkopf", "normal", seed=s) for s in range(4)]
        while not state.is_over() and state.phase() != "play":
            state.apply(normal[state.to_act()].choose(state.view(state.to_act())))
        if state.is_over():
            continue
        view = state.view(state.to_act())
        for name, bot in (("pooled", pooled), ("uniform", uniform)):
            worlds = bot._states(view, 32)
            shares[name].append(statistics.mean(_agrees_with_normal(w, view["seat"]) for w in worlds))
    assert statistics.mean(shares["pooled"]) > statistics.mean(shares["uniform"]) + 0.05, shares


def test_play_inference_keeps_the_worlds_the_model_of_the_others_cards_finds_likely():
    """With play_inference N the hard level also weighs its worlds by the other seats' last N
    cards: over Klaverjas positions in the second and third tricks, the kept worlds agree with
    the normal level's card play more often than the worlds weighed by bids only."""
    import statistics
    from engine_core.bots.hard import HardBot
    weighed, bids_only = HardBot("klaverjas", seed=1, play_inference=8), HardBot("klaverjas", seed=1)
    shares = {"weighed": [], "bids_only": []}
    game = games.get("klaverjas")
    for seed in range(10):
        state = game.deal(seed, 0)
        normal = [bots.get("klaverjas", "normal", seed=s) for s in range(4)]
        while sum(a["type"] == "play" for a in state.actions) < 4 + seed % 6:
            state.apply(normal[state.to_act()].choose(state.view(state.to_act())))
        view = state.view(state.to_act())
        for name, bot in (("weighed", weighed), ("bids_only", bids_only)):
            worlds = bot._states(view, 32)
            shares[name].append(statistics.mean(_plays_agree_with_normal(w, view["seat"]) for w in worlds))
    assert statistics.mean(shares["weighed"]) > statistics.mean(shares["bids_only"]) + 0.03, shares


def _plays_agree_with_normal(world, me) -> float:
    """The share of the other seats' cards that the normal level, holding the world's hands,
    would have played too."""
    from engine_core import records
    record = world.record()
    state = records.new_state({**record, "actions": []})
    normal = bots.get(record["game"], "normal", seed=1)
    agree = total = 0
    for action in record["actions"]:
        if action["seat"] != me and action["type"] == "play":
            total += 1
            agree += state.encode(normal.choose(state.view(action["seat"]))) == state.encode(action)
        state.apply(action)
    return agree / total


def _agrees_with_normal(world, me) -> bool:
    """Whether the normal level, holding the world's hands, would have made every bid the
    other seats made."""
    from engine_core import records
    record = world.record()
    state = records.new_state({**record, "actions": []})
    normal = bots.get(record["game"], "normal", seed=1)
    for action in record["actions"]:
        if action["seat"] != me and action["type"] != "play":
            if state.encode(normal.choose(state.view(action["seat"]))) != state.encode(action):
                return False
        state.apply(action)
    return True


def test_a_real_deal_is_among_the_worlds_and_voids_hold():
    """Late in a Klaverjas deal: the true hands are a possible world, and a seat that did not
    follow a suit never gets a card of it."""
    game = games.get("klaverjas")
    state = game.deal(9)
    rng = random.Random(2)
    while not state.is_over() and len(state.view(0)["tricks"]) < 5:
        state.apply(rng.choice(state.legal_actions()))
    seat = state.to_act()
    view = state.view(seat)
    inf = Inference(view)
    from engine_core.bots.knowledge import Order, voids
    order = Order.of(view)
    assert order is not None and order.lists == view["order"]     # the view carries the order in force
    void = voids(view, order, 4)
    for world in inf.sample(200, 1):
        twin = inf.state_of(world)
        for s in range(4):
            held = twin.view(s)["hand"]
            assert not any(order.suit_of[c] in void[s] for c in held), (s, held, void[s])


def test_worlds_are_uniform_on_a_small_case():
    """Last two tricks of a Schafkopf deal: every consistent split of the unseen cards is drawn
    about equally often (chi-square against the exact enumeration)."""
    game = games.get("schafkopf")
    for seed in range(200):
        state = game.deal(seed)
        easy = [bots.get("schafkopf", "easy", seed=s) for s in range(4)]
        while not state.is_over() and (state.phase() != "play" or len(state.view(0)["tricks"]) < 6):
            s = state.to_act()
            state.apply(easy[s].choose(state.view(s)))
        if not state.is_over() and not state.view(0)["trick"]["cards"]:
            break
    seat = state.to_act()
    view = state.view(seat)
    inf = Inference(view)
    worlds = inf.sample(3000, 5, max_tries=200000)
    counts = Counter(tuple(tuple(sorted(h)) for h in w["hands"]) for w in worlds)
    # exact enumeration: every split of the unseen cards that replays legally
    played = {a["card"] for a in view["actions"] if a["type"] == "play"}
    unseen = [c for c in game.deck.faces if c not in played and c not in view["hand"]]
    consistent = 0
    for split in itertools.permutations(unseen):
        if any(list(split[2 * i:2 * i + 2]) != sorted(split[2 * i:2 * i + 2], key=unseen.index) for i in range(3)):
            continue
        consistent += 1
    assert len(counts) <= consistent
    expected = len(worlds) / len(counts)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    dof = max(1, len(counts) - 1)
    assert chi2 < dof + 6 * (2 * dof) ** 0.5, (chi2, dof, counts)


def test_hard_evaluates_every_legal_action():
    game = games.get("schafkopf")
    state = game.deal(4)
    while state.phase() != "play" and not state.is_over():
        state.apply(bots.get("schafkopf", "easy", seed=state.to_act()).choose(state.view(state.to_act())))
    if state.is_over():
        pytest.skip("thrown in")
    view = state.view(state.to_act())
    evals = bots.get("schafkopf", "hard", **FAST).evaluate(view)
    assert sorted(e["action"]["card"] for e in evals) == sorted(a["card"] for a in view["legal"])
    for e in evals:
        assert isinstance(e["expected"], float) and (e["win"] is None or 0 <= e["win"] <= 1)


def _first_decision(game_name, seed, when):
    """The first decision of a deal (normal bots at every seat) whose view satisfies `when`."""
    game = games.get(game_name)
    state = game.deal(seed)
    players = [bots.get(game_name, "normal", seed=s) for s in range(game.seats)]
    while not state.is_over():
        seat = state.to_act()
        view = state.view(seat)
        if when(view):
            return view
        state.apply(players[seat].choose(view))
    raise AssertionError("no such decision in this deal")


def test_hard_lists_every_legal_bury_with_a_value():
    # the Hint shows every legal action: all 28 Sheepshead buries, not only those searched
    view = _first_decision("sheepshead", 0, lambda v: sum(a["type"] == "exchange" for a in v["legal"]) > 6)
    evals = bots.get("sheepshead", "hard", **FAST).evaluate(view)
    key = lambda a: (a["type"], a.get("call"), sorted(a.get("cards", [])))  # noqa: E731
    assert sorted(key(e["action"]) for e in evals) == sorted(key(a) for a in view["legal"])
    assert len(evals) == 28
    for e in evals:
        assert isinstance(e["expected"], float) and 0 <= e["win"] <= 1


def test_hard_expected_lies_within_the_worlds_exact_values():
    # Klaverjas, six cards each: searches of 5,000 nodes stop with bounds. The midpoint of
    # bounds once reported 0.0 for cards worth -182..-6 in every world; now each world's value
    # is an estimate kept within that world's proven bounds
    from engine_core import solver
    from engine_core.bots.hard import HardBot, objective_for
    view = _first_decision("klaverjas", 27, lambda v: len(v["hand"]) == 6 and len(v["legal"]) > 1)
    bot = HardBot("klaverjas", seed=0, worlds=4, playout_worlds=4, nodes=5000, exact_nodes=0)
    exact = {}
    for world in bot._states(view, 4):
        for e in solver.values(world, objective_for(world, view["seat"])):
            for card in {e["action"]["card"], *e["equivalent"]}:
                exact.setdefault(card, []).append(e["value"])
    evals = bot.evaluate(view)
    assert not all(e.get("finished", True) for e in bot._evaluate(view, view["legal"]))
    for e in evals:
        values = exact[e["action"]["card"]]
        assert min(values) <= e["expected"] <= max(values), (e, values)


def test_hard_solves_the_first_lead_exactly_in_the_worlds_its_spare_nodes_reach():
    """Klaverjas's first lead takes about 0.5M nodes a world: with `nodes` alone every world
    stops with bounds (random playouts decide); with `exact_nodes` spare the first worlds are
    solved exactly and each card is worth its mean exact value over them."""
    from engine_core import solver
    from engine_core.bots.hard import HardBot, objective_for
    view = _first_decision("klaverjas", 5, lambda v: v["phase"] == "play" and len(v["hand"]) == 8
                           and not v["trick"]["cards"])
    shallow = HardBot("klaverjas", seed=0, worlds=6, playout_worlds=3, playouts=8, nodes=2000, exact_nodes=0)
    assert not any(e["finished"] for e in shallow._evaluate(view, view["legal"]))
    deep = HardBot("klaverjas", seed=0, worlds=6, playout_worlds=3, playouts=8, nodes=2000,
                   exact_nodes=60_000_000, exact_worlds=3)
    evals = deep._evaluate(view, view["legal"])
    assert all(e["finished"] for e in evals)
    exact = {}
    for world in deep._states(view, 6):
        for e in solver.values(world, objective_for(world, view["seat"])):
            for card in {e["action"]["card"], *e["equivalent"]}:
                exact.setdefault(card, []).append(e["value"])
    for e in evals:
        values = exact[e["action"]["card"]]
        assert e["expected"] == pytest.approx(sum(values) / len(values)), (e, values)
    # too few spare nodes for `exact_worlds` worlds: the playouts decide, as without
    few = HardBot("klaverjas", seed=0, worlds=6, playout_worlds=3, playouts=8, nodes=2000,
                  exact_nodes=100_000, exact_worlds=3)
    assert not any(e["finished"] for e in few._evaluate(view, view["legal"]))


def test_hard_world_gives_up_at_its_share_of_the_spare_nodes(monkeypatch):
    """`exact_share` caps what one world may take of the pool: a world that would need more
    gives up there, the rest search with `nodes` and the playouts decide, so an early
    Doppelkopf decision does not spend the whole pool on one world it cannot finish."""
    from engine_core import solver
    from engine_core.bots.hard import HardBot
    view = _first_decision("klaverjas", 5, lambda v: v["phase"] == "play" and len(v["hand"]) == 8
                           and not v["trick"]["cards"])
    caps = []
    counted = solver.counted_values

    def recording(position, objective=None, budget=None):
        caps.append(budget)
        return counted(position, objective, budget)
    monkeypatch.setattr(solver, "counted_values", recording)
    shared = HardBot("klaverjas", seed=0, worlds=6, playout_worlds=3, playouts=8, nodes=2000,
                     exact_nodes=60_000_000, exact_worlds=3, exact_share=50_000)
    assert not any(e["finished"] for e in shared._evaluate(view, view["legal"]))
    assert caps == [50_000] + [2000] * 5
    caps.clear()        # without a share the first world may take the whole pool
    whole = HardBot("klaverjas", seed=0, worlds=6, playout_worlds=3, playouts=8, nodes=2000,
                    exact_nodes=60_000_000, exact_worlds=3)
    assert all(e["finished"] for e in whole._evaluate(view, view["legal"]))
    assert caps[0] == 60_000_000


def test_hard_budget_knobs_are_checked():
    for bad in ({"playouts": 0}, {"playout_worlds": -1}, {"rollout_worlds": 0}, {"rollout_playouts": -1},
                {"screen_worlds": 0}, {"playouts": 2.5}, {"worlds": True}, {"inference_pool": 0},
                {"inference_pool": 17}, {"inference_pool": 1.5}, {"play_inference": -1},
                {"play_inference": 65}, {"play_inference": True}, {"exact_nodes": -1},
                {"exact_nodes": 1.5}, {"exact_worlds": 0}, {"exact_share": -1}, {"exact_share": 2.5}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            bots.get("klaverjas", "hard", **bad)


def test_fair_analysis_uses_only_the_seats_view():
    """analyze(seat=, fair=True) evaluates the seat's decisions from its view: the same for
    two deals that look the same to that seat; the open-hands analysis stays available."""
    from engine_core import analysis
    game = games.get("klaverjas")
    state = game.deal(21)
    players = [bots.get("klaverjas", "easy", seed=s) for s in range(4)]
    while not state.is_over():
        s = state.to_act()
        state.apply(players[s].choose(state.view(s)))
    record = state.record()
    fair = analysis.analyze(record, seat=1, worlds=3, budget=3000)
    assert fair["fair"] is True and fair["actions"]
    assert all(step["seat"] == 1 for step in fair["actions"])
    for step in fair["actions"]:
        assert step["loss"] >= 0
        assert {tuple(sorted(e["action"].items())) for e in step["values"]} >= {tuple(sorted(step["best"].items()))}
    # a twin deal: the same view for seat 1 at its first card, other hidden hands
    first = next(step["index"] for step in fair["actions"] if step["action"]["type"] == "play")
    partial = {**record, "actions": record["actions"][:first]}
    from engine_core import records
    at = records.replay(partial)
    twin = _shuffled_twin(at, 1, random.Random(3))
    if twin is not None:
        twin_record = {**twin.record(), "actions": twin.record()["actions"] + [record["actions"][first]]}
        a = analysis.analyze({**record, "actions": record["actions"][:first + 1]}, seat=1, worlds=3, budget=3000)
        b = analysis.analyze(twin_record, seat=1, worlds=3, budget=3000)
        assert a["actions"][-1]["values"] == b["actions"][-1]["values"]
    open_hands = analysis.analyze(record, seat=1, fair=False, budget=3000)
    assert open_hands["seat"] == 1 and all(s["seat"] == 1 for s in open_hands["actions"])
    with pytest.raises(ValueError, match="seat"):
        analysis.analyze(record, fair=True)
    with pytest.raises(ValueError, match="seat"):
        analysis.analyze(record, seat=9)


def test_tournament_command_prints_the_table_and_json():
    import json
    import subprocess
    import sys
    run = lambda *args: subprocess.run([sys.executable, "-m", "engine_core", "tournament", *args],
                                       capture_output=True, text=True, timeout=120)
    out = run("--game", "schafkopf", "--bots", "normal,random", "--deals", "3", "--seed", "5")
    assert out.returncode == 0, out.stderr
    assert "normal" in out.stdout and "95% CI" in out.stdout and "normal - random" in out.stdout
    assert out.stderr == ""                       # no progress bar when stderr is not a terminal
    out = run("--game", "sheepshead", "--bots", "easy,random", "--deals", "2", "--json")
    report = json.loads(out.stdout)
    assert len(report["seatings"]) == 10 and [b["bot"] for b in report["bots"]] == ["easy", "random"]
    for bot in report["bots"]:
        assert bot["ci95"][0] <= bot["mean"] <= bot["ci95"][1]
        assert bot["decisions"] > 0 and 0 < bot["time_median"] <= bot["time_p99"] <= bot["time_max"]
    # a level against itself, labelled: the same bot in every seat of both seatings plays the
    # same deal, so the difference is exactly zero; a labelled budget reaches only its bot
    out = run("--game", "schafkopf", "--bots", "normal@a,normal@b", "--deals", "2", "--json")
    report = json.loads(out.stdout)
    assert [b["bot"] for b in report["bots"]] == ["normal@a", "normal@b"] and report["difference"]["mean"] == 0
    out = run("--game", "schafkopf", "--bots", "normal@a,normal@b", "--budget", "normal@b.worlds=3")
    assert out.returncode == 2 and "worlds" in out.stderr, out.stderr
    for args, message in ((["--game", "schafkopf", "--bots", "hard"], "two bots"),
                          (["--game", "schafkopf", "--bots", "hard,hard"], "two different names"),
                          (["--game", "schafkopf", "--bots", "easy,expert"], "two bots"),
                          (["--game", "skat", "--bots", "easy,random"], "invalid choice"),
                          (["--game", "klaverjas", "--bots", "easy,random", "--options", "{"], "not JSON"),
                          (["--game", "klaverjas", "--bots", "easy,random", "--deals", "0"], "1..1000000")):
        out = run(*args)
        assert out.returncode == 2 and message in out.stderr and out.stderr.count("\n") == 1, out.stderr


def test_tournament_seatings_put_each_bot_in_each_position():
    from engine_core.bots.tournament import seatings
    for n in (4, 5):
        plays = seatings(n)
        for seat in range(n):
            assert {p[seat] for p in plays} == {0, 1}
    assert seatings(4) == [[0, 1, 0, 1], [1, 0, 1, 0]]       # Klaverjas pairs 0+2, 1+3 stay together


def test_the_hard_budget_is_the_games_declaration():
    """The hard level's defaults come from the game's declaration (GameSpec.hard_budget), not
    from its name: a registered copy of a game with its own budget gets that budget, keyword
    arguments override it, and a declaration naming no budget knob is refused by name."""
    import dataclasses
    from engine_core.bots.hard import BUDGET
    base = games.spec_of("schafkopf")
    small = dataclasses.replace(base, name="budgetprobe", hard_budget={"worlds": 3, "rollout_playouts": 2})
    wrong = dataclasses.replace(base, name="budgetwrong", hard_budget={"world": 3})
    games.register(small)
    games.register(wrong)
    try:
        bot = bots.get("budgetprobe", "hard")
        assert (bot.worlds, bot.rollout_playouts, bot.rollout_worlds) == (3, 2, 48)
        assert bot.playouts == BUDGET["playouts"]
        assert bots.get("budgetprobe", "hard", worlds=5).worlds == 5
        declared = bots.get("schafkopf", "hard")
        assert declared.worlds == base.hard_budget["worlds"] and declared.rollout_playouts == 0
        with pytest.raises(ValueError, match="hard_budget names world; a budget names worlds"):
            bots.get("budgetwrong", "hard")
    finally:
        games.unregister("budgetprobe")
        games.unregister("budgetwrong")


@pytest.mark.parametrize("game,options", [(g, {}) for g in GAMES] + [("klaverjas", {"bidding": "drents"})])
def test_the_win_threshold_is_where_the_scoring_says_a_side_wins(game, options):
    """The hard level weighs a card by its chance of winning the deal (win_threshold: the
    game's "win" target as a margin for the seat's side). On random finished deals the default
    side's margin reaches its threshold exactly when the scoring pays that side, and the other
    side's margin reaches its own exactly when it does not (contracts whose win the target does
    not describe, a Tout or an announcement that moves it where the game declares no
    win_at, are left out; Doppelkopf's announcements stay in: its win_at follows them, and so
    does Klaverjas's Drents bid)."""
    from engine_core import batch, records, solver
    from engine_core.bots.hard import win_threshold
    rules = games.get(game, options).rules
    bids = "cheapest" if "cheapest" in rules.BIDS else "uniform"
    checked = 0
    for k in range(300):
        record = batch.playout_record(game, options, seed=11, k=k, bids=bids)
        state = records.new_state(record)
        for action in record["actions"]:
            state.apply(action)
        result = state.core.result()
        contract = result["contract"] or {}
        moved = result.get("announcements") and state.game.spec.win_at is None
        if "tout" in str(contract.get("type")) or moved or contract.get("kontra"):
            continue
        side = rules.default_side(state.core)
        if not side:                   # a Ramsch: no declarers
            continue
        other = next(s for s in range(state.game.seats) if s not in side)
        at = win_threshold(state, side[0])
        if "winners" in result:        # who won, as the result says it (else the score's sign)
            declarers_won = side[0] in result["winners"]
        elif "winner" in result:
            if result["winner"] is None:
                continue
            declarers_won = result["winner"] == "re"
        elif result["scores"][side[0]] == 0 and result["scores"][other] == 0:
            continue
        else:
            declarers_won = result["scores"][side[0]] > result["scores"][other]
        if at is None:
            continue
        margin = solver.solve(state, {"side": side, "count": "margin"}).value
        assert (margin >= at) == declarers_won, (record, margin, at)
        assert (-margin >= win_threshold(state, other)) == (not declarers_won)
        checked += 1
    assert checked >= 50


def test_a_farbsolo_needs_seven_trumps_or_six_with_side_tricks():
    """The easy and normal levels' Farbsolo rule (tools/schafkopf_solo_table.py has the table
    behind it): the old rule's six trumps with three Ober and Unter and one side ace is no solo."""
    from engine_core.bots.simple import solo_worth_playing

    def judge(hand, suit):
        obers = sum(c[0] == "Q" for c in hand)
        unters = sum(c[0] == "J" for c in hand)
        trumps = sum(c[0] in "QJ" or c[1] == suit for c in hand)
        return solo_worth_playing(hand, suit, trumps, obers, unters)
    # seven trumps: always
    assert judge(["QC", "JD", "AH", "TH", "KH", "9H", "8H", "7S"], "H")
    # six trumps with three Ober and Unter, no side ace, one void: once a solo, now not
    assert not judge(["QC", "QS", "JD", "AH", "KH", "9H", "8S", "7C"], "H")
    # Ober-Ober-Unter, a side ace and a void (two side tricks): 2 x 2 + 1 + 2 = 7, not
    assert not judge(["QC", "QS", "JD", "AH", "KH", "9H", "AS", "7C"], "H")
    # the ace with its small card in the same suit (two voids: three side tricks): 8
    assert judge(["QC", "QS", "JD", "AH", "KH", "9H", "AS", "7S"], "H")
    assert judge(["QC", "QS", "QH", "AH", "KH", "9H", "AS", "7S"], "H")


def _leaster_position(seed):
    """A Sheepshead leaster (every seat passes), played by the normal level to the seat that
    plays the last card of the fifth trick: after its card every card is forced."""
    game = games.get("sheepshead")
    state = game.deal(seed, 0)
    while state.phase() != "play":
        state.apply({"seat": state.to_act(), "type": "bid", "call": "pass"})
    normal = [bots.get("sheepshead", "normal", seed=s) for s in range(5)]
    while True:
        view = state.view(state.to_act())
        if len(view["hand"]) == 2 and len(view["trick"]["cards"]) == 4 and len(view["legal"]) == 2:
            return state, view
        if len(view["hand"]) < 2:
            return None, None
        state.apply(normal[state.to_act()].choose(view))


def test_a_leaster_card_is_worth_its_deal_score_not_its_fewest_points():
    """In a contract each seat plays for itself, hard judges a card by the seat's deal score
    (the engine's scoring: a leaster is won with the fewest points among the seats that took a
    trick) minus the mean of the others', not by its own points: here every card after the
    seat's is forced, so each card's `expected` is exactly that score averaged over the worlds;
    and the Hint, best expected first, leads with the card the bot plays."""
    from engine_core.bots.hard import HardBot
    from service.reading import hint_of
    state, view = next((s, v) for s, v in map(_leaster_position, range(40)) if s is not None)
    assert view["contract"]["type"] == "leaster"
    seat = view["seat"]
    bot = HardBot("sheepshead", seed=3, worlds=6, playout_worlds=6, playouts=2)
    evals = bot._evaluate(view, view["legal"])
    worlds = bot._states(view, 6)
    for e in evals:
        relative = []
        for world in worlds:
            after = world.copy()
            after.apply(e["action"])
            while not after.is_over():
                after.apply(after.legal_actions()[0])
            scores = after.result()["scores"]
            relative.append(scores[seat] - (sum(scores) - scores[seat]) / 4)
        assert e["expected"] == pytest.approx(sum(relative) / len(relative)), e
    hints = hint_of("sheepshead", {}, view, 3)
    assert hints[0]["action"] == bots.get("sheepshead", "hard", seed=3).choose(view)
    assert hints[0]["expected"] == max(h["expected"] for h in hints)


def test_pass_duel_tool_plays_every_seat_against_the_baseline():
    """tools/pass_duel.py (docs/bots.md, the leaster rows) at a tiny size: the passed-out deal
    is the game's own per-seat contract, every seat is played by A once, and a level against
    itself gains nothing."""
    from conftest import tool
    pass_duel = tool("pass_duel")
    out = pass_duel.duel("sheepshead", {}, "easy", "random", 2, seed=3)
    assert out["contracts"] == ["leaster"] and out["plays"] == 10
    same = pass_duel.duel("schafkopf", {"ramsch": True}, "normal", "normal", 2, seed=3)
    assert same["contracts"] == ["ramsch"] and same["mean"] == 0 and same["plays"] == 8
    # without Ramsch or leaster a passed-out Schafkopf deal has no card play
    with pytest.raises(SystemExit, match="no deal"):
        pass_duel.duel("schafkopf", {}, "normal", "easy", 2)


def test_exact_by_trick_tool_counts_the_decisions_exact_values_decided():
    """tools/exact_by_trick.py (docs/bots.md, the spare nodes) at a tiny size: without spare
    nodes and 2,000 nodes a world the first lead is left to the playouts and the last tricks
    are exact; with spare nodes for two worlds the first lead is exact too."""
    from conftest import tool
    by_trick = tool("exact_by_trick").by_trick
    small = {"worlds": 2, "playout_worlds": 2, "playouts": 4, "rollout_worlds": 2, "nodes": 2000}
    without = by_trick("klaverjas", 1, seed=5, budget={**small, "exact_nodes": 0})
    assert without[0]["exact"] == 0 and without[max(without)]["exact"] == 1
    with_spare = by_trick("klaverjas", 1, seed=5, budget={**small, "exact_nodes": 20_000_000, "exact_worlds": 2})
    assert with_spare[0]["exact"] == 1


def test_klaverjas_trump_naming_follows_the_seats_turn():
    """The free trump choice: a hand worth 40..55 is named by the third seat (eldest's partner,
    whose pass may leave eldest to name on anything) but passed by eldest, the second seat and
    the dealer (whose pass makes eldest, an opponent, play); the forced fifth turn names."""
    from engine_core.bots.simple import KJ_NAMING, kj_strength
    game = games.get("klaverjas")
    normal = bots.get("klaverjas", "normal", seed=0)
    seen = set()
    for seed in range(400):
        state = game.deal(seed, seed % 4)
        for turn in range(5):
            view = state.view(state.to_act())
            if view["phase"] != "bidding":
                break
            strength = max(kj_strength(view, view["hand"], s) for s in "CSHD")
            choice = normal.choose(view)
            if turn == 4:
                assert choice["call"] == "trump"
                seen.add(turn)
            elif 40 <= strength < 56:
                assert (choice["call"] == "trump") == (turn == 2), (seed, turn, strength)
                seen.add(turn)
            elif strength >= KJ_NAMING[turn] and turn < 4:
                assert choice["call"] == "trump"
            if choice["call"] == "trump":
                break
            state.apply(choice)
    assert seen == {0, 1, 2, 3, 4}


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_sheepshead_pick_follows_the_seats_turn(level):
    """Five-handed, the pick needs trumps plus queens 6 at the first two turns and 4 for the
    dealer (SS_PICK, from the pick table): four trumps without a queen (4) and three with two
    queens (5) pass at the first turn (the old rule picked both at once) and pick as the
    dealer."""
    game = games.get("sheepshead")
    four = "JD AD 9D 8D AC TC"                       # four trumps, no queen
    two_queens = "QC QS TD KC 9C 8C"                 # three trumps, two queens
    rest = ["QH JC 7C AS TS KS", "QD JS 9S 8S 7S AH", "JH KD TH KH 9H 8H"]
    for first in (four, two_queens):
        dealer = two_queens if first == four else four
        state = game.new_deal([h.split() for h in [dealer, first, *rest]], 0, ["7D", "7H"])
        players = [bots.get("sheepshead", level, seed=s) for s in range(5)]
        for seat in (1, 2, 3, 4):
            assert state.to_act() == seat
            choice = players[seat].choose(state.view(seat))
            assert choice["call"] == "pass", (seat, first)
            state.apply(choice)
        assert players[0].choose(state.view(0))["call"] == "pick"


def test_klaverjas_trump_table_tool_weighs_naming_against_passing():
    """tools/klaverjas_trump_table.py (the thresholds above) at a tiny size: every turn of the
    free choice is weighed, and a named contract is made or not."""
    from conftest import tool
    stats = tool("klaverjas_trump_table").table(12, seed=3)
    assert {turn for turn, _ in stats} >= {1, 2}
    for count, made, gain in stats.values():
        assert count >= 1 and 0 <= made <= count


def test_sheepshead_pick_table_tool_weighs_picking_against_passing():
    """tools/sheepshead_pick_table.py (SS_PICK) at a tiny size: the turns are counted from the
    first seat with a choice, and a pick's deal is won or not."""
    from conftest import tool
    stats = tool("sheepshead_pick_table").table(10, seed=3)
    assert {turn for turn, _, _ in stats} >= {1, 2}
    for (turn, trumps, queens), (count, won, gain) in stats.items():
        assert 1 <= turn <= 5 and queens <= trumps and count >= 1 and 0 <= won <= count


def test_sheepshead_pick_duel_tool_plays_the_former_rule():
    """tools/sheepshead_pick_duel.py at a tiny size: the former rule picks four trumps without
    a queen at the first turn, the shipped one passes, and the report is the tournament's."""
    from conftest import tool
    duel = tool("sheepshead_pick_duel")
    hands = ["QC QS TD KC 9C 8C", "JD AD 9D 8D AC TC", "QH JC 7C AS TS KS", "QD JS 9S 8S 7S AH",
             "JH KD TH KH 9H 8H"]
    state = games.get("sheepshead").new_deal([h.split() for h in hands], 0, ["7D", "7H"])
    assert duel.FormerPick("sheepshead", 1).choose(state.view(1))["call"] == "pick"
    assert bots.get("sheepshead", "normal", seed=1).choose(state.view(1))["call"] == "pass"
    report = duel.run("sheepshead", "normal", 2, seed=1_000_000)
    assert report["difference"]["bots"] == "normal - normal@old"
