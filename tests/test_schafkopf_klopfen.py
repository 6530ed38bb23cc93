"""Schafkopf's option `klopfen` (docs/rules/schafkopf.md 3.2): the knocking round on the first
packet, what each seat sees during it (views, tensors, bots), and the doubling of the deal."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from breakdown import settle
from engine_core import bots, games, records
from engine_core.errors import IllegalActionError, OptionError

KLOPFEN = {"klopfen": True}
# the Rufspiel of the rules' worked example (dealer 3): seats 0 and 2 win with 70, worth 10
HANDS = [h.split() for h in ("KD 7D 7H JC TS QH KC KS", "7S AS 8C QD KH JS TC JH",
                             "AC AH AD 9C QS 8H 9H TD", "JD 9S 8D 8S 9D QC 7C TH")]
CARDS = ("JC QD AH JD JH 9H QC 7H 7C KC 8C AC QS TH QH KH 9C 9D KD TC 7S TD 9S KS"
         " TS AS 8H 8S AD 8D 7D JS").split()


def knock(state, *seats_knocking):
    """The knocking round: the seats in `seats_knocking` knock, the others pass."""
    for _ in range(4):
        seat = state.to_act()
        state.apply({"seat": seat, "type": "announce", "call": "klopfen" if seat in seats_knocking else "pass"})


def rufspiel(options, knocks=(), kontra=False):
    state = games.get("schafkopf", options).new_deal(HANDS, 3)
    if options.get("klopfen"):
        knock(state, *knocks)
    state.apply({"seat": 0, "type": "bid", "call": "rufspiel", "suit": "D"})
    for seat in (1, 2, 3):
        state.apply({"seat": seat, "type": "bid", "call": "pass"})
    if options.get("kontra"):
        for seat in range(4):
            state.apply({"seat": seat, "type": "announce", "call": "kontra" if kontra and seat == 1 else "pass"})
        if kontra:
            for seat in range(4):
                state.apply({"seat": seat, "type": "announce", "call": "pass"})
    for card in CARDS:
        state.apply({"seat": state.to_act(), "type": "play", "card": card})
    return state.result()


# ---- the round ------------------------------------------------------------------------------
def test_the_knocking_round_comes_first_from_forehand():
    state = games.get("schafkopf", KLOPFEN).deal(5, dealer=1)
    assert state.phase() == "klopfen" and state.to_act() == 2
    for seat in (2, 3, 0, 1):
        assert state.to_act() == seat
        assert state.legal_actions() == [{"seat": seat, "type": "announce", "call": "pass"},
                                         {"seat": seat, "type": "announce", "call": "klopfen"}]
        state.apply({"seat": seat, "type": "announce", "call": "klopfen" if seat == 3 else "pass"})
    assert state.phase() == "auction" and state.to_act() == 2
    assert games.get("schafkopf").deal(5, dealer=1).phase() == "auction"     # off: no round


def test_two_knocks_make_a_rufspiel_worth_four_times():
    plain = rufspiel({})
    knocked = rufspiel(KLOPFEN, knocks=(1, 3))
    assert plain["scores"] == [10, -10, 10, -10]
    assert knocked["scores"] == [40, -40, 40, -40]
    assert knocked["breakdown"] == [{"item": "game", "value": 10}, {"item": "klopfen", "count": 2, "factor": 4},
                                    {"item": "total", "value": 40}]
    assert settle("schafkopf", knocked, 4) == knocked["scores"]
    assert rufspiel(KLOPFEN)["breakdown"] == plain["breakdown"]            # nobody knocked: no item


def test_knocks_and_kontra_multiply():
    both = {"klopfen": True, "kontra": True}
    result = rufspiel(both, knocks=(0, 2), kontra=True)                     # re was not said
    assert [b["item"] for b in result["breakdown"]] == ["game", "kontra", "klopfen", "total"]
    assert result["scores"] == [80, -80, 80, -80]                           # 10 x 2 (kontra) x 4
    assert settle("schafkopf", result, 4) == result["scores"]
    assert rufspiel(both, knocks=(0, 1, 2, 3))["scores"] == [160, -160, 160, -160]


def test_ramsch_leaster_knocked_and_the_stock_never():
    for extra, item in (({"ramsch": True}, "ramsch"), ({"leaster": True}, "leaster")):
        unknocked = _passed_out({**extra, "klopfen": True}, knocks=())
        state = _passed_out({**extra, "klopfen": True}, knocks=(2,))
        result = state.result()
        assert result["contract"]["type"] == item
        assert {"item": "klopfen", "count": 1, "factor": 2} in result["breakdown"]
        assert result["scores"] == [2 * s for s in unknocked.result()["scores"]]
        assert settle("schafkopf", result, 4) == result["scores"]
    stock = _passed_out({"stock": 10, "klopfen": True}, knocks=(0, 1, 2)).result()
    assert stock["breakdown"] == [{"item": "stock_in", "value": 10}] and stock["scores"] == [-10] * 4
    thrown = _passed_out(KLOPFEN, knocks=(0,)).result()
    assert thrown["breakdown"] == [] and thrown["scores"] == [0] * 4


def _passed_out(options, knocks):
    state = games.get("schafkopf", options).new_deal(HANDS, 3)
    knock(state, *knocks)
    for seat in range(4):
        state.apply({"seat": seat, "type": "bid", "call": "pass"})
    rng = random.Random(7)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_illegal_knocks_are_refused_with_reasons_and_change_nothing():
    state = games.get("schafkopf", KLOPFEN).new_deal(HANDS, 3)
    before = state.record()
    with pytest.raises(IllegalActionError) as err:                          # out of turn
        state.apply({"seat": 2, "type": "announce", "call": "klopfen"})
    assert err.value.reason_id == "NOT_YOUR_TURN"
    with pytest.raises(IllegalActionError) as err:                          # a bid in the round
        state.apply({"seat": 0, "type": "bid", "call": "pass"})
    assert err.value.reason_id == "WRONG_PHASE"
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 0, "type": "announce", "call": "kontra"})
    assert err.value.reason_id == "KNOCK_OR_PASS"
    assert state.record() == before
    knock(state)
    with pytest.raises(IllegalActionError) as err:                          # after the round
        state.apply({"seat": 0, "type": "announce", "call": "klopfen"})
    assert err.value.reason_id == "WRONG_PHASE" and "auction" in str(err.value)
    off = games.get("schafkopf", {"kontra": True}).new_deal(HANDS, 3)
    off.apply({"seat": 0, "type": "bid", "call": "rufspiel", "suit": "D"})
    for seat in (1, 2, 3):
        off.apply({"seat": seat, "type": "bid", "call": "pass"})
    with pytest.raises(IllegalActionError) as err:                          # the option is off
        off.apply({"seat": 0, "type": "announce", "call": "klopfen"})
    assert err.value.reason_id == "KLOPFEN_OFF"


def test_options_bound_the_largest_knocked_score():
    games.get("schafkopf", {"klopfen": True, "tariff_solo": 100_000})
    with pytest.raises(OptionError, match="options.klopfen"):
        games.get("schafkopf", {"klopfen": True, "tariff_solo": 1_000_000, "tariff_increment": 1_000_000})
    games.get("schafkopf", {"tariff_solo": 1_000_000, "tariff_increment": 1_000_000})   # no knocks: as before


# ---- what each seat sees -----------------------------------------------------------------
def _shown(view):
    """Every card code a view shows (its per-face `points` table aside)."""
    return json.dumps({k: v for k, v in view.items() if k != "points"})


@pytest.mark.parametrize("seed", range(4))
def test_the_round_shows_each_seat_its_first_packet_only(seed):
    game = games.get("schafkopf", KLOPFEN)
    state = game.deal(seed, dealer=seed % 4)
    firsts = game.rules.deal_masks(game.options, game.spec.packets(game.options), seed, seed % 4, first=True)[2]
    for k in range(5):
        for seat in range(4):
            view = state.view(seat)
            first, rest = state.hands[seat][:4], state.hands[seat][4:]
            assert game.deck.mask_of(first) == firsts[seat]                 # the seeded first packet
            if state.phase() == "klopfen":
                assert sorted(view["hand"]) == sorted(first)
                assert not any(f'"{c}"' in _shown(view) for c in rest)
            else:
                assert sorted(view["hand"]) == sorted(first + rest)
        assert state.view(None)["hand"] == []
        if k < 4:
            state.apply({"seat": state.to_act(), "type": "announce", "call": "pass"})


def test_a_record_keeps_the_first_packets_and_replays():
    state = games.get("schafkopf", KLOPFEN).deal(11, 2)
    knock(state, 3)
    rec = state.record()
    assert rec["options"]["klopfen"] is True and rec["hands"] == state.hands
    again = records.replay(rec)
    assert again.view(0) == state.view(0)
    in_round = records.replay({**rec, "actions": rec["actions"][:2]})      # a deal in progress
    assert in_round.phase() == "klopfen"
    assert sorted(in_round.view(1)["hand"]) == sorted(rec["hands"][1][:4])
    shuffled = [h[4:] + h[:4] for h in rec["hands"]]                        # the order means the packets
    assert sorted(records.replay({**rec, "hands": shuffled, "actions": []}).view(1)["hand"]) \
        == sorted(rec["hands"][1][4:])


def _swapped(state, a, b):
    """The same deal with the second packets of seats a and b exchanged (what a and b cannot
    see during the knocking round)."""
    hands = [list(h) for h in state.hands]
    hands[a][4:], hands[b][4:] = hands[b][4:], hands[a][4:]
    return state.game.new_deal(hands, state.dealer)


def test_tensors_hide_the_unseen_packets():
    np = pytest.importorskip("numpy")
    from engine_core import rl
    game = games.get("schafkopf", KLOPFEN)
    mod = rl.compiled(game)

    def tensors(state, seat):
        deal = rl.Deal.of_masks(game, [state.core.hand(s) for s in range(4)], 0, state.dealer,
                                state.actions, first=state.core.first_packets())
        obs, info = np.zeros(mod.OBS_SIZE, np.uint8), np.zeros(mod.INFO_SIZE, np.uint8)
        deal.tracker.observation_into(seat, obs)
        deal.tracker.information_state_into(seat, info)
        return obs, info

    state = game.deal(3, 0)
    other = _swapped(state, 1, 2)
    layout = rl.Layout(game)
    for k in range(5):
        for seat in range(4):
            o1, i1 = tensors(state, seat)
            o2, i2 = tensors(other, seat)
            hand = layout.part(o1, "hand")
            if k < 4:                                   # in the round: identical, 4 cards
                assert int(hand.sum()) == 4
                assert np.array_equal(o1, o2) and np.array_equal(i1, i2)
            else:                                       # then seats 1 and 2 see their new cards
                assert int(hand.sum()) == 8
                assert np.array_equal(o1, o2) == (seat not in (1, 2))
        if k < 4:
            for s in (state, other):
                s.apply({"seat": s.to_act(), "type": "announce", "call": "pass"})
    seeded = rl.Deal.new(game, 3, 0)                    # the seeded deal: the same first packets
    assert seeded.state.hands == state.hands
    o, _ = np.zeros(mod.OBS_SIZE, np.uint8), None
    seeded.tracker.observation_into(1, o)
    assert int(layout.part(o, "hand").sum()) == 4


def test_vec_env_observes_four_cards_in_the_round():
    np = pytest.importorskip("numpy")
    from engine_core import rl
    env = rl.VecEnv(games.get("schafkopf", KLOPFEN), 4, seed=9, learners=[0, 1, 2, 3])
    env.reset()
    layout = rl.Layout(games.get("schafkopf", KLOPFEN))
    assert [int(layout.part(env.obs[i], "hand").sum()) for i in range(4)] == [4] * 4


@pytest.mark.parametrize("level,deals", [("easy", 12), ("normal", 12), ("hard", 2)])
def test_bots_knock_on_the_seen_cards_alone(level, deals):
    game = games.get("schafkopf", KLOPFEN)
    made = 0
    for seed in range(deals):
        state = game.deal(seed, 0)
        other = _swapped(state, 1, 2)
        bot = bots.get("schafkopf", level, seed=seed, options=KLOPFEN)
        for _ in range(4):
            seat = state.to_act()
            pick = bot.choose(state.view(seat))
            assert pick == bot.choose(other.view(seat))                     # the unseen cards do not count
            made += pick["call"] == "klopfen"
            state.apply(pick)
            other.apply(pick)
        assert state.phase() == "auction"
    if level != "hard":                          # (hard: test_hard_knocks_by_rollouts_on_the_first_packet)
        assert 0 < made < 4 * deals


def test_worlds_in_the_round_deal_the_seat_the_rest_of_its_hand():
    """In the knocking round a world keeps the four cards the seat has seen as its first packet
    and deals it four more from the cards it has not seen; the other seats get a first packet
    of four of their cards; the seat's true unseen cards change nothing."""
    from engine_core.bots.inference import Inference
    state = games.get("schafkopf", KLOPFEN).deal(4, 0)
    other = _swapped(state, 1, 2)
    view = state.view(1)
    seen = set(view["hand"])
    assert len(seen) == 4 and view == other.view(1)
    worlds = Inference(view, KLOPFEN).states(12, seed=1)
    assert len(worlds) == 12
    assert [w.hands for w in worlds] == [w.hands for w in Inference(other.view(1), KLOPFEN).states(12, seed=1)]
    assert len({frozenset(w.hands[1]) for w in worlds}) > 1                 # the rest of the hand is drawn
    for w in worlds:
        assert w.phase() == "klopfen" and w.to_act() == 1
        assert seen <= set(w.hands[1]) and len(w.hands[1]) == 8
        assert sorted(w.view(1)["hand"]) == sorted(seen)                   # the same sight in the world
        assert all(len(w.view(s)["hand"]) == 4 and set(w.view(s)["hand"]) <= set(w.hands[s]) for s in range(4))
    knock(state)
    assert Inference(state.view(1), KLOPFEN).sample(2, seed=1)             # whole hands from now on


def test_hard_knocks_by_rollouts_on_the_first_packet():
    """Hard judges the knock by rollouts in those worlds: the four Ober knock, four low cards
    of the plain suits pass, and the values say why (a knock doubles what the deal is worth)."""
    deck = [r + s for s in "CSHD" for r in "AKT987"] + ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD"]
    game = games.get("schafkopf", KLOPFEN)
    hard = bots.get("schafkopf", "hard", seed=3, options=KLOPFEN)
    for first, call in ((["QC", "QS", "QH", "QD"], "klopfen"), (["7C", "8C", "7S", "8S"], "pass")):
        rest = [c for c in deck if c not in first]
        hands = [rest[0:8], first + rest[8:12], rest[12:20], rest[20:28]]
        state = game.new_deal(hands, dealer=0)
        view = state.view(1)
        assert sorted(view["hand"]) == sorted(first)
        evals = {e["action"]["call"]: e for e in hard.evaluate(view)}
        assert hard.choose(view)["call"] == call
        sign = 1 if call == "klopfen" else -1
        assert sign * evals["pass"]["expected"] > 0 and sign * evals["klopfen"]["expected"] > 0, evals


def test_hard_bids_after_knocks():
    """The auction's first bid after a round with knocks: the worlds are weighed by the other
    seats' calls, the knocks left out (docs/bots.md)."""
    state = games.get("schafkopf", KLOPFEN).deal(6, 3)
    knock(state, 1, 2)
    view = state.view(0)
    assert bots.get("schafkopf", "hard", seed=1, options=KLOPFEN).choose(view) in view["legal"]


def test_bots_play_knocked_deals_to_the_end():
    game = games.get("schafkopf", {**KLOPFEN, "kontra": True, "ramsch": True})
    for seed, level in ((1, "normal"), (2, "easy")):
        state = game.deal(seed, seed % 4)
        bot = bots.get("schafkopf", level, seed=seed, options=game.options.as_dict())
        while not state.is_over():
            state.apply(bot.choose(state.view(state.to_act())))
        assert sum(state.result()["scores"]) == 0


# ---- properties ---------------------------------------------------------------------------
OPTIONS = st.fixed_dictionaries({
    "klopfen": st.just(True), "ramsch": st.booleans(), "kontra": st.booleans(), "leaster": st.booleans(),
    "schneider_rule": st.sampled_from(["seed", "official"]), "geier": st.booleans(), "bettel": st.booleans(),
    "tariff_rufspiel": st.integers(1, 50), "tariff_solo": st.integers(1, 100),
    "tariff_increment": st.integers(1, 20),
})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3),
       knocks=st.lists(st.booleans(), min_size=4, max_size=4))
def test_knocks_multiply_the_unknocked_deal(options, seed, dealer, knocks):
    """The same deal played the same way with the knocks replaced by passes scores 2^knocks
    times less; the deal is zero-sum and its breakdown adds up."""
    game = games.get("schafkopf", options)
    state = game.deal(seed, dealer)
    for k in knocks:
        state.apply({"seat": state.to_act(), "type": "announce", "call": "klopfen" if k else "pass"})
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    result = state.result()
    rec = state.record()
    plain = records.replay({**rec, "actions": [dict(a, call="pass") if i < 4 else a
                                               for i, a in enumerate(rec["actions"])]}).result()
    n = sum(knocks)
    assert result["scores"] == [s * 2 ** n for s in plain["scores"]]
    assert sum(result["scores"]) == 0
    assert settle("schafkopf", result, 4) == result["scores"]
    items = {b["item"]: b for b in result["breakdown"]}
    if result["contract"]["type"] != "thrown_in" and n:
        assert items["klopfen"] == {"item": "klopfen", "count": n, "factor": 2 ** n}
        assert items["total"]["value"] == {b["item"]: b for b in plain["breakdown"]}["total"]["value"] * 2 ** n
    else:
        assert "klopfen" not in items


def test_openspiel_resamples_the_round_around_the_first_packet():
    pyspiel = pytest.importorskip("pyspiel")
    from engine_core.rl import openspiel
    openspiel.register()
    game = pyspiel.load_game(openspiel.short_name("schafkopf"), {"klopfen": True})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    state.apply_action(state.legal_actions()[1])            # forehand knocks
    player = state.current_player()
    mine = state.information_state_tensor(player)
    for k in range(3):
        world = state.resample_from_infostate(player, lambda: (k + 1) / 7)
        assert world.information_state_tensor(player) == mine
        assert world.deal.state.phase() == "klopfen"
        assert sum(world.observation_tensor(player)[:32]) == 4
