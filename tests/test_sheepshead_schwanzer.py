"""Sheepshead's Schwanzer (issue 28; docs/rules/sheepshead.md 3.12): option `no_pick:
"schwanzer"`: when every seat passes no card is played, each dealt hand (not the blind) is
counted in Schwanzer points (queen 3, jack 2, other diamond 1) and the most points pays the
multiplier to each other seat, a tie going against the highest trump. The option and its
errors, concrete deals (a clear loser, a tie broken by the highest trump with and without
spitz, the multiplier, the next deal, the three- and six-handed games), the own conformance
line, the views, and a hypothesis property (zero-sum, the loser has the most points)."""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import games, records
from engine_core.errors import OptionError

from breakdown import settle
from conftest import conformance_lines

# docs/rules/sheepshead.md 12 (W22): Schwanzer points 7, 5, 9, 2, 1; the blind's JC counts for nobody
W22 = ["QD 7H KC JD 7D AD", "QC 7C 9D TD 8C KH", "JH QH 9C QS 8D TS",
       "AC KS 8S JS 7S AH", "KD TH 9H AS TC 9S"]
# W22 with seat 2's JH and seat 3's AC swapped: seats 0 (QD JD 7D AD) and 2 (QS QH 8D) tie at 7
TIE = ["QD 7H KC JD 7D AD", "QC 7C 9D TD 8C KH", "AC QH 9C QS 8D TS",
       "JH KS 8S JS 7S AH", "KD TH 9H AS TC 9S"]
VALUE = {"Q": 3, "J": 2}
TRUMPS = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D".split()


def points(hand) -> int:
    return sum(VALUE.get(c[0], 1 if c[1] == "D" else 0) for c in hand)


def all_pass(name, hands, blind, options, dealer=0):
    state = games.get(name, options).new_deal([h.split() for h in hands], dealer, blind.split())
    while not state.is_over():
        state.apply({"seat": state.to_act(), "type": "bid", "call": "pass"})
    return state


def items(result, name):
    return [b for b in result["breakdown"] if b["item"] == name]


# ---- the option ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sheepshead", "sheepshead3", "sheepshead4", "sheepshead6"])
def test_every_seat_count_declares_the_value(name):
    spec = {o.name: o for o in games.get(name).spec.options}["no_pick"]
    assert "schwanzer" in spec.allowed
    with pytest.raises(OptionError, match="no_pick"):
        games.get(name, {"no_pick": "schwanz"})


# ---- concrete deals --------------------------------------------------------------------------
def test_the_most_points_pays_each_other_seat():
    result = all_pass("sheepshead", W22, "8H JC", {"no_pick": "schwanzer"}).result()
    assert result["contract"]["type"] == "schwanzer" and result["contract"]["picker"] is None
    assert result["tricks"] == [] and result["card_points"] == [0] * 5
    assert [b["value"] for b in items(result, "schwanzer_points")] == [7, 5, 9, 2, 1]
    assert [b["team"] for b in items(result, "schwanzer_points")] == [0, 1, 2, 3, 4]
    assert result["teams"] == [[0], [1], [2], [3], [4]]
    assert items(result, "schwanzer") == [{"item": "schwanzer", "value": 2}]
    assert not items(result, "schwanzer_tie")
    assert result["scores"] == [1, 1, -4, 1, 1]
    assert settle("sheepshead", result, 5) == result["scores"]
    assert result["contract"]["next_multiplier"] == 1


def test_a_tie_goes_against_the_highest_trump():
    result = all_pass("sheepshead", TIE, "8H JC", {"no_pick": "schwanzer"}).result()
    assert [b["value"] for b in items(result, "schwanzer_points")] == [7, 5, 7, 4, 1]
    assert items(result, "schwanzer_tie") == [{"item": "schwanzer_tie", "count": 2, "value": 7}]
    assert items(result, "schwanzer")[0]["value"] == 2          # QS above QD
    assert result["scores"] == [1, 1, -4, 1, 1]


def test_spitz_makes_the_seven_of_diamonds_break_the_tie():
    result = all_pass("sheepshead", TIE, "8H JC", {"no_pick": "schwanzer", "spitz": True}).result()
    assert items(result, "schwanzer")[0]["value"] == 0          # 7D second, above QS
    assert result["scores"] == [-4, 1, 1, 1, 1]


def test_the_multiplier_is_the_stake():
    result = all_pass("sheepshead", W22, "8H JC", {"no_pick": "schwanzer", "multiplier": 8}).result()
    assert result["scores"] == [8, 8, -32, 8, 8]
    assert result["breakdown"][-1] == {"item": "multiplier", "value": 8}
    assert settle("sheepshead", result, 5) == result["scores"]
    assert result["contract"]["next_multiplier"] == 1


def test_the_next_deal_is_as_after_a_leaster():
    game = games.get("sheepshead", {"no_pick": "schwanzer", "multiplier": 4})
    result = all_pass("sheepshead", W22, "8H JC", {"no_pick": "schwanzer", "multiplier": 4}, dealer=3).result()
    nxt = game.spec.between_deals(result, 3, game.options)
    assert nxt.dealer == 4 and nxt.counts and nxt.carry == {"multiplier": 1}


def test_other_no_pick_values_are_unchanged():
    state = all_pass("sheepshead", W22, "8H JC", {"no_pick": "doubler"})
    assert state.result()["contract"]["type"] == "doubler"


@pytest.mark.parametrize("name,seats,hand", [("sheepshead3", 3, 10), ("sheepshead4", 4, 7),
                                             ("sheepshead6", 6, 5)])
def test_the_seat_variants(name, seats, hand):
    game = games.get(name, {"no_pick": "schwanzer", "multiplier": 2})
    for seed in range(6):
        state = game.deal(seed, seed % seats)
        hands = [list(state.view(s)["hand"]) for s in range(seats)]
        assert all(len(h) == hand for h in hands)
        while not state.is_over():
            state.apply({"seat": state.to_act(), "type": "bid", "call": "pass"})
        result = state.result()
        want = [points(h) for h in hands]
        assert [b["value"] for b in items(result, "schwanzer_points")] == want
        (loser,) = [b["value"] for b in items(result, "schwanzer")]
        assert want[loser] == max(want)
        tied = [s for s in range(seats) if want[s] == max(want)]
        first = next(c for c in TRUMPS if any(c in hands[s] for s in tied))
        assert first in hands[loser]
        assert result["scores"] == [-2 * (seats - 1) if s == loser else 2 for s in range(seats)]
        assert settle(name, result, seats) == result["scores"]


# ---- what the seats see ----------------------------------------------------------------------
def test_the_blind_stays_hidden_and_the_points_are_public():
    state = all_pass("sheepshead", W22, "8H JC", {"no_pick": "schwanzer"})
    for seat in (None, 0, 2):
        view = state.view(seat)
        assert "JC" not in str(view.get("public")) and "8H" not in str(view.get("public"))
        assert state.result_for(seat)["breakdown"] == state.result()["breakdown"]


# ---- the project's own conformance line --------------------------------------------------------
def test_the_own_scenario_is_the_worked_example():
    (line,) = [line for line in conformance_lines("sheepshead", "own-scenarios")
               if line["record"]["options"]["no_pick"] == "schwanzer"]
    result = records.replay(line["record"]).result()
    assert result["scores"] == line["result"]["scores"] == [1, 1, -4, 1, 1]
    assert result["breakdown"] == line["result"]["breakdown"]
    assert result["contract"] == line["result"]["contract"]


# ---- properties ------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["sheepshead", "sheepshead3", "sheepshead4", "sheepshead6"]),
       seed=st.integers(0, 10**6), spitz=st.booleans(), multiplier=st.integers(1, 64))
def test_zero_sum_and_the_loser_has_the_most_points(name, seed, spitz, multiplier):
    game = games.get(name, {"no_pick": "schwanzer", "spitz": spitz, "multiplier": multiplier})
    state = game.deal(seed, random.Random(seed).randrange(3))
    while not state.is_over():
        state.apply({"seat": state.to_act(), "type": "bid", "call": "pass"})
    result = state.result()
    n = len(result["scores"])
    pts = [b["value"] for b in items(result, "schwanzer_points")]
    assert len(pts) == n and sum(pts) <= 26
    (loser,) = [b["value"] for b in items(result, "schwanzer")]
    assert pts[loser] == max(pts)
    assert sum(result["scores"]) == 0
    assert result["scores"][loser] == -(n - 1) * multiplier
    assert settle(name, result, n) == result["scores"]
