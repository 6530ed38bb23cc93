"""Four-handed cutthroat Sheepshead, `sheepshead4c` (issue 28; docs/rules/sheepshead.md 13): the
declaration (32 cards, 7 each, a blind of 4, no partner options), the deal's packets, the bury of
four (every four of 11 cards, anything else refused), the picker alone (+3 / -1), the worked
example and its own conformance lines, hidden information, hypothesis properties (zero-sum, the
breakdown's oracle, 120 points) and the bots."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import bots, games, records
from engine_core.errors import ActionError, OptionError
from engine_core.games.sheepshead import PARTNER_OPTIONS

from breakdown import settle
from conftest import conformance_lines, without_rule_tables
from moves import act, bots_finish, play

CUT = ["7C 8S 7S AH TH KH 9H", "QC QS QH QD JC 7H 8H", "JH JD AD TD KC 9C 8C",
       "KD 9D 8D 7D TS KS 9S"]
CUT_PLAY = "QC JD 7D 7C | QS JH 8D 7S | QH AD 9D 8S | QD TD KD 9H | JC 8C 9S KH | JS 9C KS TH | AC KC TS AH"


def deal(options=None, hands=CUT, blind="AC TC AS JS", dealer=0):
    return games.get("sheepshead4c", options or {}).new_deal([h.split() for h in hands], dealer, blind.split())


def test_the_declaration():
    game = games.get("sheepshead4c")
    spec = games.spec_of("sheepshead4c")
    assert (game.seats, game.hand_size, len(spec.deck.faces)) == (4, 7, 32)
    assert spec.rules.BLIND_SIZE == 4
    names = {o.name for o in spec.options}
    assert not names & set(PARTNER_OPTIONS)
    assert {"blitz", "red_blitz", "cracking", "spitz", "no_pick"} <= names
    for name in PARTNER_OPTIONS:
        with pytest.raises(OptionError) as err:
            games.get("sheepshead4c", {name: True if name != "partner" else "called_ace"})
        assert err.value.field == f"options.{name}"
    assert games.spec_of("sheepshead4").rules.BLIND_SIZE == 2          # the 30-card game unchanged


@pytest.mark.parametrize("seed", range(20))
def test_seeded_deals_are_packets_2_2_3_2_2(seed):
    game = games.get("sheepshead4c")
    state = game.deal(seed, seed % 4)
    record = state.record()
    hands, blind = record["hands"], record["blind"]
    assert [len(h) for h in hands] == [7] * 4 and len(blind) == 4
    assert len(set(sum(hands, []) + blind)) == 32
    assert games.spec_of("sheepshead4c").packets(game.options) == (
        [(k, 2) for k in range(4)] + [(None, 2)] + [(k, 3) for k in range(4)] + [(None, 2)] + [(k, 2) for k in range(4)])


def test_the_worked_example():
    state = deal()
    act(state, "bid pick")
    legal = state.legal_actions()
    assert len(legal) == 330 and all(len(a["cards"]) == 4 and a["call"] == "bury" for a in legal)
    assert len({frozenset(a["cards"]) for a in legal}) == 330
    act(state, "exchange bury TC AS 7H 8H")
    assert state.phase() == "play" and state.to_act() == 1            # no call: alone
    for seat in (0, 2, 3, None):
        view = state.view(seat)
        assert "buried" not in view and view["contract"]["buried"] == ["??"] * 4
        text = json.dumps(without_rule_tables(view))
        assert not [c for c in ("TC", "AS", "7H", "8H", "AC", "JS") if f'"{c}"' in text], seat
    assert state.view(1)["buried"] == ["TC", "AS", "8H", "7H"]
    play(state, CUT_PLAY)
    result = state.result()
    assert result["contract"]["type"] == "alone" and result["contract"]["partner"] is None
    assert result["teams"] == [[1], [0, 2, 3]]
    assert result["card_points"] == [0, 120, 0, 0] and result["scores"] == [-3, 9, -3, -3]
    assert [(b["item"], b["value"]) for b in result["breakdown"]][2:] == [
        ("picker_team_wins", 1), ("no_trick", 3), ("per_defender", 3), ("picker_share", 3)]
    assert settle("sheepshead4c", result, 4) == result["scores"]


def test_a_bury_of_other_than_four_cards_is_refused():
    state = deal()
    act(state, "bid pick")
    for cards in (["7H", "8H"], ["7H", "8H", "TC"], ["7H", "8H", "TC", "AS", "AC"]):
        before = state.view(1)
        with pytest.raises(ActionError) as err:
            state.apply({"seat": 1, "type": "exchange", "call": "bury", "cards": cards})
        assert state.view(1) == before
        assert err.value.reason_id in ("BURY_TWO", "NOT_HELD", "BAD_CARDS") or "4" in err.value.reason


def test_a_lost_deal_pays_double_on_the_bump():
    """The same deal, the picker burying his queens: he keeps JC, two hearts and the blind's
    aces and ten, and the defenders' trumps take most of the points."""
    state = deal()
    act(state, "bid pick", "exchange bury QC QS QH QD")
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    result = state.result()
    picker = result["scores"][1]
    assert sum(result["scores"]) == 0 and settle("sheepshead4c", result, 4) == result["scores"]
    assert all(result["scores"][s] == -picker // 3 for s in (0, 2, 3))
    if picker < 0:
        assert {"item": "double_on_the_bump", "value": 2} in result["breakdown"]


def test_leaster_with_a_blind_of_four():
    state = games.get("sheepshead4c", {"leaster_blind": "last_trick"}).new_deal(
        [h.split() for h in CUT], 0, "AC TC AS JS".split())
    act(state, *["bid pass"] * 4)
    assert state.phase() == "play"
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    result = state.result()
    assert sum(result["card_points"]) == 120
    assert {"item": "blind_to_last_trick", "value": 34} in result["breakdown"]      # AC TC AS JS


# ---- own conformance lines -------------------------------------------------------------------
def test_own_scenario():
    (line,) = conformance_lines("sheepshead4c", "own-scenarios")
    state = records.replay(line["record"])
    assert state.result() == line["result"]
    assert line["result"]["scores"] == [-3, 9, -3, -3]


# ---- properties --------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from([
    {}, {"no_pick": "doubler"}, {"no_pick": "schwanzer"}, {"leaster_blind": "last_trick"},
    {"cracking": True, "blitz": True, "red_blitz": True}, {"spitz": True, "no_pick": "forced_pick"},
    {"double_on_the_bump": False, "multiplier": 4}]))
def test_random_deals_are_zero_sum_and_settle(seed, options):
    rng = random.Random(seed)
    state = games.get("sheepshead4c", options).deal(seed, seed % 4)
    buried = None
    while not state.is_over():
        action = rng.choice(state.legal_actions())
        if action["type"] == "exchange":
            buried = action["cards"]
            assert len(buried) == 4
        state.apply(action)
    result = state.result()
    assert sum(result["scores"]) == 0 and settle("sheepshead4c", result, 4) == result["scores"]
    kind = result["contract"]["type"]
    if kind == "alone":
        picker = result["contract"]["picker"]
        assert sorted(result["contract"]["buried"]) == sorted(buried)
        assert sum(result["card_points"]) == 120
        assert all(result["scores"][s] * -3 == result["scores"][picker] for s in range(4) if s != picker)
    else:
        assert kind in ("leaster", "doubler", "schwanzer")


# ---- bots --------------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_bots_bury_four_and_play_a_deal(level):
    game = games.get("sheepshead4c")
    for seed in range(3):
        state = game.deal(seed, 0)
        players = [bots.get("sheepshead4c", level, seed=seed + s) for s in range(4)]
        bots_finish(state, players)


def test_the_easy_bot_buries_points_and_keeps_trumps():
    state = deal()
    act(state, "bid pick")
    choice = bots.get("sheepshead4c", "easy", seed=1).choose(state.view(1))
    assert choice["call"] == "bury" and not {"QC", "QS", "QH", "QD", "JC", "JS"} & set(choice["cards"])


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_the_pick_rule_reads_the_shape_of_the_auction(level):
    """The pick thresholds are per shape of the auction (docs/bots.md, SS_PICK): at the first
    of four turns, four trumps and a queen (trumps plus queens 5) pick in four-handed
    Sheepshead, where the picker has a partner, and pass in cutthroat, where the picker plays
    alone against three (6 needed: the pick table lost 1.7 a pick there)."""
    mine = "QC JD AD 9D AH TH KH"                  # four trumps, one queen
    others = ["QS QH QD JC JH JS TD", mine, "KD 8D 7D TC KC 9C 8C", "AS TS KS 9S 8S 9H 8H"]
    state = deal(hands=others, blind="AC 7C 7S 7H")
    assert state.to_act() == 1
    assert bots.get("sheepshead4c", level, seed=1).choose(state.view(1))["call"] == "pass"
    four = games.get("sheepshead4").new_deal([h.split() for h in others], 0, ["AC", "7H"])
    assert four.to_act() == 1
    assert bots.get("sheepshead4", level, seed=1).choose(four.view(1))["call"] == "pick"
