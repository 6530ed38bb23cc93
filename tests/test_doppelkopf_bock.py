"""Doppelkopf's Bockrunden (docs/rules/doppelkopf.md 9.1): the options and their errors, the
events that trigger a round, the factor on a deal's scores, the rounds the match carries
(overlapping rounds stack), and over random deals that a deal at bock b scores 2^b times the
same deal at bock 0."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine_core import games
from engine_core.errors import OptionError
from engine_core.match import Match

from breakdown import settle

SPEC = games.spec_of("doppelkopf")
# the first deal of the rules page's worked examples (section 12): as a diamond solo of seat 2
# it ends 120 : 120
L1 = ["QC AC AS AH 9D QS KC KS QH JH AD JC", "9D 9C TS KH AD JC 9C 9S QD JS TD JD",
      "KD TC KS 9H QC TH AC AS QH JH QD KH", "JD KC 9S AH TD QS TC TS TH JS KD 9H"]
L1_PLAY = ("QC 9D KD JD | AC 9C TC KC | AS TS KS 9S | AH KH 9H AH | 9D AD QC TD |"
           " TH QS QS JC | AC TC KC 9C | AS TS KS 9S | QH TH QH QD | JS JH JS JH |"
           " KD AD TD QD | KH 9H JC JD")
SOLO = ("healthy", "healthy", "solo_diamonds", "healthy")
NORMAL = ("healthy",) * 4


def play(options, calls, tokens=L1_PLAY):
    state = games.get("doppelkopf", options).new_deal([h.split() for h in L1], 3)
    for call in calls:
        state.apply({"seat": state.to_act(), "type": "bid", "call": call})
    for token in tokens.replace("|", " ").split():
        if len(token) == 2 and token[0] in "ATKQJ9":
            state.apply({"seat": state.to_act(), "type": "play", "card": token})
        else:
            state.apply({"seat": state.to_act(), "type": "announce", "call": token})
    return state.result()


# ---- options ----

def test_options_are_declared_with_defaults_and_ranges():
    by_name = {o.name: o for o in SPEC.options}
    assert (by_name["bockrunden"].kind, by_name["bockrunden"].default) == ("choice", "off")
    assert by_name["bockrunden"].allowed == ("off", "tie", "tie_or_lost_kontra")
    assert (by_name["bock"].default, by_name["bock"].minimum, by_name["bock"].maximum) == (0, 0, 4)
    assert (by_name["bock_next"].kind, by_name["bock_next"].default) == ("int_list", (0, 0, 0))
    stored = games.get("doppelkopf", {"bockrunden": "tie", "bock": 2, "bock_next": [2, 1, 0]}).options.as_dict()
    assert (stored["bockrunden"], stored["bock"], stored["bock_next"]) == ("tie", 2, [2, 1, 0])


@pytest.mark.parametrize("options,where,says", [
    ({"bockrunden": "always"}, "options.bockrunden", "must be one of ['off', 'tie', 'tie_or_lost_kontra']"),
    ({"bockrunden": True}, "options.bockrunden", "must be one of"),
    ({"bockrunden": "tie", "bock": -1}, "options.bock", "must be an integer 0..4, got -1"),
    ({"bockrunden": "tie", "bock": 5}, "options.bock", "must be an integer 0..4, got 5"),
    ({"bockrunden": "tie", "bock": "1"}, "options.bock", "must be an integer, got '1'"),
    ({"bockrunden": "tie", "bock": 1.0}, "options.bock", "must be an integer"),
    ({"bock": 1}, "options.bock", "bock rounds need the rule"),
    ({"bock_next": [1, 0, 0]}, "options.bock_next", "bock rounds need the rule"),
    ({"bockrunden": "tie", "bock": 1, "bock_next": [1, 1]}, "options.bock_next", "must list the 3 deals"),
    ({"bockrunden": "tie", "bock": 1, "bock_next": [1, 0, 0, 0]}, "options.bock_next", "must list the 3 deals"),
    ({"bockrunden": "tie", "bock_next": [1, 0, 0]}, "options.bock_next", "entry 0 is 1, more than 0"),
    ({"bockrunden": "tie", "bock": 2, "bock_next": [1, 2, 0]}, "options.bock_next", "entry 1 is 2, more than 1"),
    ({"bockrunden": "tie", "bock": 4, "bock_next": [3, 3, 0]}, "options.bock_next", "entry 1 is 3: at most 2"),
    ({"bockrunden": "tie", "bock": 4, "bock_next": [4, 0, 0]}, "options.bock_next", "integers 0..3"),
    ({"bockrunden": "tie", "bock": 1, "bock_next": "1,0,0"}, "options.bock_next", "list of integers"),
])
def test_bad_bock_options_name_the_option(options, where, says):
    with pytest.raises(OptionError) as err:
        games.get("doppelkopf", options)
    assert str(err.value).startswith(f"{where}: ") and says in str(err.value)


# ---- triggers and the factor ----

def test_a_tie_triggers_and_without_the_rule_nothing_is_said():
    plain = play({}, SOLO)
    assert plain["team_card_points"] == {"re": 120, "kontra": 120} and "bock_triggers" not in plain
    tie = play({"bockrunden": "tie"}, SOLO)
    assert tie["bock_triggers"] == ["tie"] and tie["scores"] == plain["scores"] == [1, 1, -3, 1]
    assert tie["breakdown"] == plain["breakdown"]                 # bock 0: no bock item


@pytest.mark.parametrize("bock,due", [(1, [1, 1, 1]), (2, [2, 1, 1]), (3, [2, 2, 1]), (4, [3, 2, 1])])
def test_the_factor_doubles_the_scores_per_round(bock, due):
    result = play({"bockrunden": "tie", "bock": bock, "bock_next": due}, SOLO)
    assert result["scores"] == [2 ** bock, 2 ** bock, -3 * 2 ** bock, 2 ** bock]
    assert result["breakdown"][-1] == {"item": "bock", "count": bock, "factor": 2 ** bock}
    assert result["game_value"] == 1                              # the figures before the factor
    assert settle("doppelkopf", result, 4) == result["scores"]


def test_a_lost_kontra_triggers_only_under_its_rule():
    # seat 1 (Kontra) announces kontra at his first turn; Re takes 213
    tokens = "QC kontra " + L1_PLAY[len("QC "):]
    tie_only = play({"bockrunden": "tie"}, NORMAL, tokens)
    both = play({"bockrunden": "tie_or_lost_kontra"}, NORMAL, tokens)
    assert tie_only["winner"] == both["winner"] == "re"
    assert tie_only["bock_triggers"] == [] and both["bock_triggers"] == ["lost_kontra"]
    won = play({"bockrunden": "tie_or_lost_kontra"}, NORMAL)      # no kontra: nothing lost
    assert won["bock_triggers"] == []


def test_a_tie_with_a_lost_kontra_names_both_and_starts_one_round():
    # the diamond solo with kontra: Re needs only 120 and wins at 120 : 120
    result = play({"bockrunden": "tie_or_lost_kontra", "bock": 1, "bock_next": [1, 0, 0]}, SOLO,
                  "QC kontra " + L1_PLAY[len("QC "):])
    assert result["winner"] == "re" and result["bock_triggers"] == ["tie", "lost_kontra"]
    assert result["scores"] == [-6, -6, 18, -6]                   # (won 1 + kontra 2) x 3 x 2
    nxt = SPEC.next_deal(result, 3, games.get("doppelkopf", {"bockrunden": "tie_or_lost_kontra", "bock": 1,
                                                             "bock_next": [1, 0, 0]}).options)
    assert nxt.carry == {"bock": 2, "bock_next": [1, 1, 1]}


def test_a_void_armut_triggers_nothing_and_scores_nothing_at_any_bock():
    hands = ["9S TD KD QS KS QD AH AS JC QD QH AS", "KC TS AD KC TH AH KH KH 9S TC 9C 9H",
             "JC 9D JS JH AC 9C TD KD JH TS TC KS", "JD TH AD JD 9H 9D QC QC QH QS JS AC"]
    game = games.get("doppelkopf", {"bockrunden": "tie_or_lost_kontra", "bock": 2, "bock_next": [2, 1, 0]})
    state = game.new_deal([h.split() for h in hands], 0)
    for call in ("armut", "healthy", "healthy", "healthy"):
        state.apply({"seat": state.to_act(), "type": "bid", "call": call})
    state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["9C", "AD", "TH"]})
    for _ in range(3):
        state.apply({"seat": state.to_act(), "type": "bid", "call": "decline"})
    result = state.result()
    assert result["redeal"] and result["bock_triggers"] == [] and result["breakdown"] == []
    assert result["scores"] == [0] * 4
    nxt = SPEC.next_deal(result, 0, game.options)
    assert (nxt.dealer, nxt.counts, dict(nxt.carry)) == (0, False, {"bock": 2, "bock_next": [2, 1, 0]})


# ---- what the match carries ----

@pytest.mark.parametrize("bock,due,triggered,carry", [
    (0, [0, 0, 0], False, {"bock": 0, "bock_next": [0, 0, 0]}),
    (0, [0, 0, 0], True, {"bock": 1, "bock_next": [1, 1, 1]}),
    (1, [1, 1, 1], False, {"bock": 1, "bock_next": [1, 1, 0]}),
    (1, [1, 1, 1], True, {"bock": 2, "bock_next": [2, 2, 1]}),    # overlapping: double bock
    (4, [3, 2, 1], True, {"bock": 4, "bock_next": [3, 2, 1]}),    # four rounds at most
    (2, [1, 0, 0], False, {"bock": 1, "bock_next": [0, 0, 0]}),
])
def test_between_deals_moves_the_rounds_on(bock, due, triggered, carry):
    options = games.get("doppelkopf", {"bockrunden": "tie", "bock": bock, "bock_next": due}).options
    result = {"redeal": False, "bock_triggers": ["tie"] if triggered else []}
    nxt = SPEC.next_deal(result, 2, options)
    assert (nxt.dealer, nxt.counts, dict(nxt.carry)) == (3, True, carry)
    games.get("doppelkopf", {"bockrunden": "tie", **carry})         # a state the options accept
    again = SPEC.next_deal({"redeal": True, "bock_triggers": []}, 2, options)   # a redeal keeps them
    assert (again.dealer, again.counts, dict(again.carry)) == (2, False, {"bock": bock, "bock_next": due})


def test_without_the_rule_the_match_carries_nothing():
    assert SPEC.next_deal({"redeal": False}, 0, games.get("doppelkopf").options).carry == {}


def _bock_of(result):
    return next((b["count"] for b in result["breakdown"] if b["item"] == "bock"), 0)


def _expected_levels(results):
    """Each deal's bock level read from the triggers before it: a counted deal with a trigger
    starts a round on the next four counted deals; a redealt deal keeps the level of the deal
    it replaces."""
    levels, counted = [], []
    for r in results:
        levels.append(sum(counted[-4:]))
        if r["counts_toward_match"]:
            counted.append(1 if r["bock_triggers"] else 0)
    return levels


def test_a_match_starts_four_bock_deals_after_a_tie():
    """Seed 165's first deal, each seat taking its first legal action, ends 120 : 120."""
    match = Match(games.get("doppelkopf", {"bockrunden": "tie", "deals_per_match": 6}), seed=165)
    while not match.is_over():
        state = match.deal()
        while not state.is_over():
            match.apply(state.legal_actions()[0])
        match.finish_deal()
    first = match.results[0]
    assert first["bock_triggers"] == ["tie"] and _bock_of(first) == 0
    levels = [_bock_of(r) for r in match.results]
    assert levels == _expected_levels(match.results) and levels[1:5] == [1, 1, 1, 1]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_random_matches_carry_the_rounds_the_results_trigger(seed, policy):
    """Random play announces kontra often, so a lost kontra starts rounds that overlap."""
    rng = random.Random(policy)
    match = Match(games.get("doppelkopf", {"bockrunden": "tie_or_lost_kontra", "deals_per_match": 8}), seed=seed)
    while not match.is_over():
        state = match.deal()
        while not state.is_over():
            match.apply(rng.choice(state.legal_actions()))
        match.finish_deal()
    assert [_bock_of(r) for r in match.results] == _expected_levels(match.results)
    assert sum(match.totals) == 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3), policy=st.integers(0, 2**32),
       bock=st.integers(0, 4), rule=st.sampled_from(["tie", "tie_or_lost_kontra"]))
def test_a_deal_at_bock_b_scores_2_to_the_b_times_the_plain_deal(seed, dealer, policy, bock, rule):
    due = [min(bock, 3), min(bock, 2), min(bock, 1)]
    plain = games.get("doppelkopf", {"bockrunden": rule}).deal(seed=seed, dealer=dealer)
    bocked = games.get("doppelkopf", {"bockrunden": rule, "bock": bock, "bock_next": due}).deal(seed=seed, dealer=dealer)
    rng = random.Random(policy)
    while not plain.is_over():
        action = rng.choice(plain.legal_actions())
        plain.apply(action)
        bocked.apply(action)
    base, result = plain.result(), bocked.result()
    assert result["scores"] == [s * 2 ** bock for s in base["scores"]] and sum(result["scores"]) == 0
    assert result["bock_triggers"] == base["bock_triggers"]
    assert settle("doppelkopf", result, 4) == result["scores"]
    items = [b for b in result["breakdown"] if b["item"] == "bock"]
    assert items == ([{"item": "bock", "count": bock, "factor": 2 ** bock}] if bock and not base.get("redeal") else [])
