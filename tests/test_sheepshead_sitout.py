"""Six-handed Sheepshead with the dealer sitting out (issue 28; docs/rules/sheepshead.md 13,
"Six-handed with the dealer sitting out"): option `dealer_sits_out` of `sheepshead6`. The dealer
is dealt nothing, is never to act, belongs to no team and scores 0; the other five play the
five-handed game exactly. The option and its refusals, the deal (every dealer), the worked
example, the sitting-out seat's view and its refused action, the last to speak (forced pick,
crack and blitz rounds), the match's rotation, the own conformance lines, and properties: every
deal played at random through the five-handed game (`sheepshead`, dealer 4) and through six
seats with any dealer sitting out gives the same legal actions, tricks, card points, breakdown
and scores, seat for seat; zero-sum with the dealer at 0; the bots and the solver never act for
the dealer. Above the engine: the service, the record codec, the terminal table, the RL
environment and the bots' trick seats."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import games, records
from engine_core.errors import IllegalActionError, InvalidRecordError, OptionError
from engine_core.match import Match

from conftest import conformance_lines
from moves import act, play
from test_sheepshead_properties import check_views, read_facts
from breakdown import settle

SIT = {"dealer_sits_out": True}

# docs/rules/sheepshead.md 12 "A called ace: the partner's duties, and a simple win", five-handed
# with dealer 0; at six with dealer 0 sitting out the five-handed dealer's hand is seat 5's
R = ["QD JD AD TD 9D 7D", "QC QS QH JC 7S 8H", "AC TC KC 9C 8C 7C",
     "AH 9H JS AS TS 8D", "TH KH KS 9S 8S JH"]
E = R[1:] + R[:1]          # the same hands from eldest (seat 1) round to the five-handed dealer
R_PLAY = ("7S 7C AS 8S 7D | 9D JC 8C 8D JH | QC 9C JS 9S TD | QS KC TS KS QD | QH TC 9H KH JD |"
          " 7H AC AH TH AD")


def six(hands, blind, dealer=0, options=None):
    game = games.get("sheepshead6", {**SIT, **(options or {})})
    return game.new_deal([h.split() for h in hands], dealer, blind.split())


def sat_out(five_hands, dealer):
    """The five-handed hands of dealer 4 (eldest 0) seated at six with `dealer` sitting out:
    five-handed seat j is seat dealer + 1 + j."""
    hands = [""] * 6
    for j, h in enumerate(five_hands):
        hands[(dealer + 1 + j) % 6] = h
    return hands


# ---- the option --------------------------------------------------------------------------------
def test_option_is_declared_for_six_seats_only():
    spec = games.spec_of("sheepshead6")
    option = next(o for o in spec.options if o.name == "dealer_sits_out")
    assert option.default is False
    assert games.get("sheepshead6").options.dealer_sits_out is False
    assert games.get("sheepshead6", SIT).options.dealer_sits_out is True
    for name in ("sheepshead", "sheepshead3", "sheepshead4"):
        with pytest.raises(OptionError, match="dealer_sits_out"):
            games.get(name, SIT)
    with pytest.raises(OptionError, match="dealer_sits_out"):
        games.get("sheepshead6", {"dealer_sits_out": "yes"})


def test_a_dealer_who_sits_out_cannot_lead():
    with pytest.raises(OptionError, match="first_leader") as err:
        games.get("sheepshead6", {**SIT, "first_leader": "dealer"})
    assert "dealer_sits_out" in str(err.value)
    assert games.get("sheepshead6", {"first_leader": "dealer"}).options.first_leader == "dealer"


# ---- the deal ----------------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", range(6))
def test_the_dealer_is_dealt_nothing(dealer):
    game = games.get("sheepshead6", SIT)
    assert game.hand_size == 6 and games.get("sheepshead6").hand_size == 5
    assert game.sits_out(dealer) == dealer and games.get("sheepshead6").sits_out(dealer) is None
    assert game.dealt_sizes(dealer) == [0 if s == dealer else 6 for s in range(6)]
    state = game.deal(1234 + dealer, dealer)
    assert [len(h) for h in state.hands] == game.dealt_sizes(dealer)
    assert len(state.blind) == 2
    assert sorted(c for h in state.hands + [state.blind] for c in h) == sorted(game.deck.faces)
    assert state.to_act() == (dealer + 1) % 6
    # the packets are the five-handed game's, round the five seats from the dealer's left
    assert game.spec.packets(game.options) == games.get("sheepshead").spec.packets(games.get("sheepshead").options)


def test_a_record_must_leave_the_dealer_without_cards():
    game = games.get("sheepshead6", SIT)
    for dealer in (0, 1, 5):
        hands = [h.split() for h in sat_out(E, dealer)]
        hands[dealer] = ["7H"]
        with pytest.raises(InvalidRecordError) as err:
            game.new_deal(hands, dealer, ["KD"])
        assert err.value.field == f"hands[{dealer}]" and "sits out" in str(err.value)
    hands = [h.split() for h in sat_out(E, 0)]
    with pytest.raises(InvalidRecordError) as err:
        game.new_deal([[]] + [h[:5] for h in hands[1:]], 0, ["7H", "KD"])
    assert err.value.field == "hands[1]"
    with pytest.raises(InvalidRecordError) as err:       # without the option every seat holds 5
        games.get("sheepshead6").new_deal(hands, 0, ["7H", "KD"])
    assert err.value.field == "hands[0]"


# ---- the worked example ----------------------------------------------------------------------
def test_worked_example_is_the_five_handed_deal():
    state = six(sat_out(E, 0), "7H KD")
    assert state.to_act() == 1
    act(state, "bid pick", "exchange bury 8H KD")
    assert [" ".join(filter(None, (a["call"], a.get("suit")))) for a in state.legal_actions()] == [
        "ace S", "ace H", "alone"]
    act(state, "bid ace H")
    play(state, R_PLAY)
    result = state.result()
    assert result["contract"]["partner"] == 3
    assert result["teams"] == [[1, 3], [2, 4, 5]]
    assert result["card_points"] == [0, 66, 0, 0, 0, 54]
    assert result["scores"] == [0, 2, -1, 1, -1, -1]
    assert all(len(cards) == 5 and 0 not in (leader, winner) for leader, cards, winner in result["tricks"])
    assert [(i["item"], i["value"]) for i in result["breakdown"]] == [
        ("picker_team_points", 66), ("defender_points", 54), ("picker_team_wins", 1), ("game", 1),
        ("per_defender", 1), ("picker_share", 2), ("partner_share", 1)]
    # the five-handed deal: seats 1-4 as at six, its dealer's hand at seat 5
    five = games.get("sheepshead").new_deal([h.split() for h in R], 0, ["7H", "KD"])
    act(five, "bid pick", "exchange bury 8H KD", "bid ace H")
    play(five, R_PLAY)
    assert five.result()["scores"] == [-1, 2, -1, 1, -1]


def test_the_dealer_sees_the_public_deal_and_cannot_act():
    state = six(sat_out(E, 0), "7H KD")
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    play(state, "7S 7C")
    view = state.view(0)
    assert view["hand"] == [] and view["legal"] == [] and view["to_act"] == 3
    assert [a["type"] for a in view["actions"]] == ["bid", "exchange", "bid", "play", "play"]
    assert view["actions"][1]["cards"] == ["??", "??"]        # the bury stays face down
    assert view["sides"] == {"partners": [0], "opponents": []}
    assert view["tricks_won"][0] == 0
    for action in ({"seat": 0, "type": "play", "card": "AS"}, {"seat": 0, "type": "bid", "call": "pass"}):
        with pytest.raises(IllegalActionError) as err:
            state.apply(action)
        assert err.value.reason_id == "SITS_OUT"
    assert state.view(3)["legal"] and len(state.actions) == 5          # state unchanged
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 4, "type": "play", "card": "8S"})
    assert err.value.reason_id == "NOT_YOUR_TURN"


# ---- the last to speak is the seat on the dealer's right ------------------------------------------
def test_forced_pick_binds_the_seat_on_the_dealers_right():
    state = six(sat_out(E, 2), "7H KD", dealer=2, options={"no_pick": "forced_pick"})
    for seat in (3, 4, 5, 0):
        assert state.to_act() == seat
        act(state, "bid pass")
    assert state.to_act() == 1
    assert [a["call"] for a in state.legal_actions()] == ["pick"]
    assert state.why_illegal({"seat": 1, "type": "bid", "call": "pass"}).startswith(
        "everybody else has passed: the last to speak (the dealer sits out) must pick (forced pick)")


def test_all_pass_leaster_among_five():
    state = six(sat_out(E, 0), "7H KD")
    for _ in range(5):
        act(state, "bid pass")
    assert state.phase() == "play" and state.to_act() == 1
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    result = state.result()
    assert result["contract"]["type"] == "leaster"
    assert result["teams"] == [[1], [2], [3], [4], [5]]
    assert result["scores"][0] == 0 and sum(result["scores"]) == 0
    assert sorted(result["scores"][1:]) in ([-1, -1, -1, -1, 4], [0] * 5)


def test_crack_and_blitz_rounds_end_before_the_dealer():
    state = six(sat_out(E, 0), "7H KD", options={"cracking": True, "blitz": True})
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    seen = []
    while state.phase() in ("blitz", "crack", "recrack"):
        seen.append((state.phase(), state.to_act()))
        act(state, "announce pass")
    assert seen == [("blitz", s) for s in (1, 2, 3, 4, 5)] + [("crack", s) for s in (2, 3, 4, 5)]
    assert state.to_act() == 1


# ---- the match: the deal passes to the left, each seat sits out in turn ------------------------------
def test_match_rotates_the_seat_that_sits_out():
    match = Match(games.get("sheepshead6", SIT), seed=7, deals_per_match=7)
    rng = random.Random(3)
    dealers = []
    while not match.is_over():
        state = match.deal()
        dealer = state.dealer
        dealers.append(dealer)
        assert state.hands[dealer] == [] and all(len(h) == 6 for s, h in enumerate(state.hands) if s != dealer)
        result = None
        while not state.is_over():
            assert state.to_act() != dealer
            result = match.apply(rng.choice(state.legal_actions()))
        assert result["scores"][dealer] == 0
    assert dealers[:7] == [0, 1, 2, 3, 4, 5, 0]
    assert sum(match.totals) == 0


def test_a_doubler_is_redealt_by_the_same_dealer_who_sits_out_again():
    match = Match(games.get("sheepshead6", {**SIT, "no_pick": "doubler"}), seed=1, first_dealer=3,
                  deals_per_match=1)
    state = match.deal()
    while not state.is_over():
        match.apply({"seat": state.to_act(), "type": "bid", "call": "pass"})
    assert state.result()["contract"]["type"] == "doubler"
    again = match.deal()
    assert again.dealer == 3 and again.hands[3] == [] and match.game.options.multiplier == 2


# ---- the own conformance lines ---------------------------------------------------------------
def test_own_scenarios_with_the_dealer_sitting_out():
    lines = [line for line in conformance_lines("sheepshead6", "own-scenarios")
             if line["record"]["options"].get("dealer_sits_out")]
    assert lines
    for line in lines:
        state = records.replay(line["record"])
        result = state.result()
        for key in ("scores", "card_points", "teams", "tricks", "breakdown"):
            assert result[key] == line["result"][key], (line["id"], key)


# ---- properties: the five play the five-handed game --------------------------------------------
OPTION_SETS = [
    {}, {"no_pick": "doubler"}, {"no_pick": "forced_pick"}, {"no_pick": "schwanzer"},
    {"leaster_blind": "last_trick"}, {"cracking": True, "blitz": True}, {"spitz": True},
    {"double_on_the_bump": False, "multiplier": 4}, {"partner": "jack_of_diamonds", "call_up": True},
    {"partner": "none"}, {"call_own_ace": True, "unknown_broad": True, "cracking": True},
    {"no_trick_partner_exempt": True, "blitz": True},
]


def _seat_map(dealer):
    return {j: (dealer + 1 + j) % 6 for j in range(5)}


def _by_seat(result, to=None):
    """The breakdown with each item's team (an index into the teams) read as its seats (mapped
    by `to`); the per-seat items (a schwanzer's points) as a sorted list after the others."""
    to = to or {s: s for s in range(6)}
    plain, per_seat = [], []
    for item in result["breakdown"]:
        item = dict(item)
        if item["item"] in ("leaster_winner", "schwanzer") and item["value"] is not None:
            item["value"] = to[item["value"]]
        if item.get("team") is not None:
            item["team"] = sorted(to[s] for s in result["teams"][item["team"]])
            per_seat.append(sorted(item.items()))
        else:
            plain.append(item)
    return plain, sorted(per_seat)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 5), data=st.data())
def test_five_of_six_play_the_five_handed_game(seed, dealer, data):
    options = data.draw(st.sampled_from(OPTION_SETS))
    five = games.get("sheepshead", options).deal(seed, 4)
    game = games.get("sheepshead6", {**SIT, **options})
    to = _seat_map(dealer)
    hands = [[] for _ in range(6)]
    for j in range(5):
        hands[to[j]] = list(five.hands[j])
    state = game.new_deal(hands, dealer, list(five.blind))
    rng = random.Random(seed)
    facts = {}
    while not five.is_over():
        if state.phase() == "play" and not facts:   # the contract is made: no view shows what it may not
            read_facts(state, facts)
            check_views(state, facts)
        assert state.to_act() == to[five.to_act()]
        legal = five.legal_actions()
        assert state.legal_actions() == [dict(a, seat=to[a["seat"]]) for a in legal]
        action = rng.choice(legal)
        five.apply(action)
        state.apply(dict(action, seat=to[action["seat"]]))
        view = state.view(dealer)
        assert view["hand"] == [] and view["legal"] == []
    assert state.is_over()
    if facts:
        check_views(state, facts)
    a, b = five.result(), state.result()
    assert b["scores"][dealer] == 0 and sum(b["scores"]) == 0
    assert [b["scores"][to[j]] for j in range(5)] == a["scores"]
    assert [b["card_points"][to[j]] for j in range(5)] == a["card_points"]
    assert sorted(sorted(t) for t in b["teams"]) == sorted(sorted(to[s] for s in t) for t in a["teams"])
    assert [[to[lead], cards, to[win]] for lead, cards, win in a["tricks"]] == b["tricks"]
    assert _by_seat(a, to) == _by_seat(b)
    assert settle("sheepshead6", b, 6) == b["scores"]          # the breakdown reads as the scores
    assert records.replay(state.record()).result()["scores"] == b["scores"]


# ---- above the engine: bots and solver ---------------------------------------------------------
@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_bots_play_a_deal_and_are_never_asked_for_the_dealer(level):
    from engine_core import bots
    game = games.get("sheepshead6", SIT)
    state = game.deal(99, 2)
    players = {s: bots.get("sheepshead6", level, seed=s, options=dict(SIT)) for s in range(6) if s != 2}
    while not state.is_over():
        seat = state.to_act()
        assert seat != 2
        state.apply(players[seat].choose(state.view(seat)))
    assert state.result()["scores"][2] == 0 and sum(state.result()["scores"]) == 0


def test_solver_values_match_the_five_handed_position():
    from engine_core import solver
    state = six(sat_out(E, 0), "7H KD")
    five = games.get("sheepshead").new_deal([h.split() for h in R], 0, ["7H", "KD"])
    for s in (state, five):
        act(s, "bid pick", "exchange bury 8H KD", "bid ace H")
        play(s, "7S 7C AS 8S 7D | 9D JC")        # trick 2 under way: seat 4 to play
    a, b = solver.solve(five), solver.solve(state)
    assert a.exact and b.exact and a.value == b.value
    assert b.objective.side == (1, 3) and a.objective.side == (1, 3)
    va = {v["action"]["card"]: v["value"] for v in solver.values(five)}
    vb = {v["action"]["card"]: v["value"] for v in solver.values(state)}
    assert va == vb


def test_rl_vec_env_never_seats_the_dealer():
    import numpy as np
    from engine_core import rl
    env = rl.VecEnv("sheepshead6", 4, seed=5, options=SIT)
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(300):
        dealers = [env.history(i)[1] for i in range(env.n)]
        assert all(int(env.seat[i]) != dealers[i] for i in range(env.n))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.mask])
        _, _, reward, done, _ = env.step(actions)
        for i in range(env.n):
            if done[i]:
                finished += 1
                assert reward[i][dealers[i]] == 0 and reward[i].sum() == 0
    assert finished >= 8


def test_the_record_codec_reads_the_empty_hand_on_its_fast_path():
    import json
    from engine_core import _codec, batch
    recs = [line["record"] for line in conformance_lines("sheepshead6", "own-scenarios")
            if line["record"]["options"].get("dealer_sits_out")]
    recs += [batch.playout_record("sheepshead6", SIT, seed=2, k=k, dealer=k % 6) for k in range(12)]
    for rec in recs:
        assert _codec.fast_line(json.dumps(rec), 1) is not None
    assert batch.evaluate(recs) == [records.evaluate(r) for r in recs]
    bad = dict(recs[0], hands=[["7H"]] + recs[0]["hands"][1:])        # the dealer holding a card
    assert _codec.fast_line(json.dumps(bad), 1) is None
    assert batch.evaluate([bad]) == [records.evaluate(bad)] and "error" in records.evaluate(bad)


# ---- the service ---------------------------------------------------------------------------------
def test_a_service_table_skips_the_dealer_and_rotates(client):
    """A human at seat 0 with five bots: in deal 1 (dealer 0) the human sits out, the bots play
    it through and his view is the public deal with an empty hand; in deal 2 (dealer 1) he plays,
    with hints, while seat 1 sits out."""
    from stich_client.errors import StichError
    t = client.create_table("sheepshead6", SIT, 2, ["human"] + ["bot:easy"] * 5, seed=4)
    view = client.deal(t.table_id, t.tokens[0])
    assert view["dealer"] == 0 and view["hand"] == []
    view = client.wait_turn(t.table_id, t.tokens[0])
    assert view["to_act"] is None and view["hand"] == [] and view["result"]["scores"][0] == 0
    assert [len(cards) for _, cards, _ in view["result"]["tricks"]] == [5] * 6
    with pytest.raises(StichError):
        client.hint(t.table_id, t.tokens[0])
    view = client.deal(t.table_id, t.tokens[0])
    assert view["dealer"] == 1 and len(view["hand"]) == 6
    while True:
        view = client.wait_turn(t.table_id, t.tokens[0])
        if view["to_act"] is None:
            break
        assert view["to_act"] == 0
        hints = client.hint(t.table_id, t.tokens[0])
        assert {json.dumps(h["action"], sort_keys=True) for h in hints} == \
            {json.dumps(a, sort_keys=True) for a in view["legal"]}
        client.act(t.table_id, t.tokens[0], view["legal"][0])
    assert view["result"]["scores"][1] == 0 and sum(view["result"]["scores"]) == 0


def test_a_hint_for_the_seat_that_sits_out_says_so(client):
    """While the bots play the deal the human's seat sits out, a hint is refused SITS_OUT (not
    NOT_YOUR_TURN: the seat has no turn at all in this deal)."""
    from stich_client.errors import StichError
    t = client.create_table("sheepshead6", SIT, 1, ["human"] + ["bot:easy"] * 5, seed=4, bot_delay_ms=300)
    view = client.deal(t.table_id, t.tokens[0])
    assert view["dealer"] == 0 and view["to_act"] not in (0, None)
    with pytest.raises(StichError) as err:
        client.hint(t.table_id, t.tokens[0])
    assert err.value.reason_id == "SITS_OUT" and "sits this deal out" in err.value.message


def test_the_terminal_table_names_the_seats_that_played():
    """`stich play` labels each card of a trick with the seat that played it, passing over the
    dealer who sits out (the play actions say who played; a finished deal's teams who played)."""
    from stich_client import table_view
    state = six(sat_out(E, 0), "7H KD")
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    play(state, "7S 7C AS 8S 7D | 9D JC")
    view = state.view(None)
    assert table_view.trick_seats(view, 2) == [5, 1]
    assert table_view.trick_seats(view, 5, 2) == [1, 2, 3, 4, 5]
    text = table_view.trick_text("sheepshead6", 5, ["9D", "JC"], None, by=table_view.trick_seats(view, 2)).plain
    assert text.startswith("seat 5 ") and "seat 1 " in text and "seat 0" not in text
    play(state, "8C 8D JH | QC 9C JS 9S TD | QS KC TS KS QD | QH TC 9H KH JD | 7H AC AH TH AD")
    score = {"result": state.result(), "deal_number": 1, "match_scores": [0] * 6}
    from rich.console import Console
    console = Console(record=True, width=200, file=open("/dev/null", "w"), color_system=None)
    console.print(table_view.render_result("sheepshead6", score, None))
    last = next(line for line in console.export_text().splitlines() if line.startswith("Last trick"))
    assert last.rstrip() == ("Last trick (trick 6): seat 1 7H  seat 2 AC  seat 3 AH  seat 4 TH  seat 5 AD"
                             "  → seat 5")


def test_openspiel_and_pettingzoo_never_seat_the_dealer():
    import numpy as np
    pyspiel = pytest.importorskip("pyspiel")
    from engine_core.rl import openspiel, pettingzoo
    openspiel.register()
    game = pyspiel.load_game("python_stich_sheepshead6", {"dealer_sits_out": True})
    rng = np.random.default_rng(1)
    for _ in range(4):
        s = game.new_initial_state()
        players = set()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                players.add(s.current_player())
                s.apply_action(int(rng.choice(s.legal_actions())))
        assert players == {1, 2, 3, 4, 5} and s.returns()[0] == 0 and sum(s.returns()) == 0
    env = pettingzoo.env("sheepshead6", SIT)
    env.reset(seed=3)
    acted = set()
    for agent in env.agent_iter(max_iter=500):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
        else:
            acted.add(agent)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert acted == {f"seat_{s}" for s in range(1, 6)}
