"""Sheepshead's blitz round and calling one's own ace (issue 28; docs/rules/sheepshead.md 3.8,
3.9): options and their errors, concrete deals (who may blitz, the shown queens in every view,
the doubled stakes with and without cracks, a secret alone), the project's own conformance
lines (tests/conformance/sheepshead/own-*.jsonl), hypothesis properties (zero-sum, the blitz
exactly doubles the totals of the same play, the breakdown's oracle agrees) and the bots'
decisions."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import bots, games, records
from engine_core.errors import ActionError, OptionError
from engine_core.games.sheepshead import rules

from breakdown import settle
from conftest import conformance_lines
from test_conformance import common
from moves import act, play

# docs/rules/sheepshead.md 12: seat 1 (eldest, dealer 0) holds both black queens
R = ["QD JD AD TD 9D 7D", "QC QS QH JC 7S 8H", "AC TC KC 9C 8C 7C",
     "AH 9H JS AS TS 8D", "TH KH KS 9S 8S JH"]
R_PLAY = "7S 7C AS 8S 7D | 9D JC 8C 8D JH | QC 9C JS 9S TD | QS KC TS KS QD | QH TC 9H KH JD | 7H AC AH TH AD"
# W22 with seat 1's QC and seat 2's 9C swapped: seat 2, a defender, holds QC QS
D = ["QD 7H KC JD 7D AD", "9C 7C 9D TD 8C KH", "JH QH QC QS 8D TS",
     "AC KS 8S JS 7S AH", "KD TH 9H AS TC 9S"]
# R with seat 1's 7S and seat 3's AS swapped: the picker holds the spade ace
OWN = ["QD JD AD TD 9D 7D", "QC QS QH JC AS 8H", "AC TC KC 9C 8C 7C",
       "AH 9H JS 7S TS 8D", "TH KH KS 9S 8S JH"]


def deal(options, hands, blind, dealer=0):
    return games.get("sheepshead", options).new_deal([h.split() for h in hands], dealer, blind.split())


def calls(state):
    return [" ".join(filter(None, (a["call"], a.get("suit")))) for a in state.legal_actions()]


# ---- options ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["blitz", "call_own_ace"])
def test_the_options_are_booleans_defaulting_to_false(name):
    spec = next(s for s in games.spec_of("sheepshead").options if s.name == name)
    assert (spec.kind, spec.default) == ("bool", False)
    for bad in ("yes", 1, None, "black"):
        with pytest.raises(OptionError) as err:
            games.get("sheepshead", {name: bad})
        assert err.value.field == f"options.{name}"
    assert games.get("sheepshead", {name: True}).options.as_dict()[name] is True


# ---- blitzing ---------------------------------------------------------------------------------
def test_no_blitz_round_without_the_option():
    state = deal({}, R, "7H KD")
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    assert state.phase() == "play"
    state = deal({"cracking": True}, R, "7H KD")
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    assert state.phase() == "crack" and state.to_act() == 2
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 2, "type": "announce", "call": "blitz"})
    assert err.value.reason_id == "NO_BLITZING" and "option blitz" in err.value.reason


def test_the_picker_blitzes_and_the_stakes_double():
    state = deal({"blitz": True}, R, "7H KD")
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    assert state.phase() == "blitz" and state.to_act() == 1 and calls(state) == ["pass", "blitz"]
    assert all(state.view(s)["shown"] is None for s in (0, 1, 2, 3, 4, None))
    act(state, "announce blitz")
    for seat in (0, 1, 2, 3, 4, None):          # public: every seat and a spectator
        assert state.view(seat)["shown"] == {"seat": 1, "cards": ["QC", "QS"]}
    for seat in (2, 3, 4, 0):                    # asked anyway, nothing but pass
        assert state.to_act() == seat and calls(state) == ["pass"]
        before = state.view(seat)
        with pytest.raises(ActionError) as err:
            state.apply({"seat": seat, "type": "announce", "call": "blitz"})
        assert err.value.reason_id == "NO_BLACK_QUEENS" and state.view(seat) == before
        act(state, "announce pass")
    assert state.phase() == "play"
    play(state, R_PLAY.split("|")[0] + "|" + R_PLAY.split("|")[1] + "| QC 9C JS 9S TD")
    assert state.view(0)["shown"] == {"seat": 1, "cards": ["QS"]}
    play(state, "|".join(R_PLAY.split("|")[3:]))
    result = state.result()
    assert state.view(0)["shown"] is None
    assert result["scores"] == [-2, 4, -2, 2, -2] and result["contract"]["multiplier"] == 2
    assert {"item": "blitz", "value": 2} in result["breakdown"]
    assert settle("sheepshead", result, 5) == result["scores"]


def test_a_defender_blitzes_then_a_crack_and_a_recrack():
    state = deal({"blitz": True, "cracking": True}, D, "8H JC")
    act(state, "bid pick", "exchange bury 8H 9C", "bid ace C")
    assert state.phase() == "blitz" and state.to_act() == 1
    act(state, "announce pass")
    assert calls(state) == ["pass", "blitz"]        # seat 2: QC QS
    act(state, "announce blitz", "announce pass", "announce pass", "announce pass")
    assert state.phase() == "crack" and state.to_act() == 2
    act(state, "announce crack", "announce recrack")
    assert state.phase() == "play"
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    result = state.result()
    assert result["contract"]["multiplier"] == 8
    items = [b["item"] for b in result["breakdown"]]
    assert items.index("blitz") < items.index("crack") < items.index("recrack")
    assert sum(result["scores"]) == 0 and settle("sheepshead", result, 5) == result["scores"]
    assert all(abs(x) % 8 == 0 for x in result["scores"])


def test_a_buried_or_unknown_queen_cannot_be_shown():
    state = deal({"blitz": True}, R, "7H KD")
    act(state, "bid pick", "exchange bury QS KD", "bid ace H")
    assert calls(state) == ["pass"]
    # the unknown card is face down: the deal of docs 12 "The unknown ace" with QC QS in hand
    hands = ["9S AH 8D TD AS QD", "7D JC QS AD KS KH", "TH TC KC 7C JS AC",
             "JD TS 8C KD JH 8S", "8H 9C 7S 9D 9H 7H"]
    state = deal({"blitz": True}, hands, "QC QH")
    act(state, "bid pick", "exchange bury KS KH", "bid unknown_ace C", "exchange unknown QS")
    assert state.phase() == "blitz" and calls(state) == ["pass"]
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "announce", "call": "blitz"})
    assert err.value.reason_id == "NO_BLACK_QUEENS" and "face down" in err.value.reason


def test_blitz_outside_its_round_is_refused_with_a_reason():
    state = deal({"blitz": True, "cracking": True}, R, "7H KD")
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "announce", "call": "blitz"})
    assert err.value.reason_id == "WRONG_PHASE"          # the pick phase has no announcements
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "announce", "call": "crack"})
    assert err.value.reason_id == "BLITZ_OR_PASS"
    act(state, *["announce pass"] * 5)
    assert state.phase() == "crack" and state.to_act() == 2
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 2, "type": "announce", "call": "blitz"})
    assert err.value.reason_id == "BLITZ_ROUND_ONLY" and state.phase() == "crack"


def test_no_blitz_round_in_a_leaster():
    state = deal({"blitz": True}, R, "7H KD")
    act(state, *["bid pass"] * 5)
    assert state.phase() == "play"


# ---- calling one's own ace ---------------------------------------------------------------------
def test_own_ace_is_offered_only_with_the_option():
    state = deal({}, OWN, "7H KD")
    act(state, "bid pick", "exchange bury 8H 7H")     # no heart, no club, the spade ace held
    assert calls(state) == ["unknown_ace C", "unknown_ace H", "alone"]
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "bid", "call": "ace", "suit": "S"})
    assert err.value.reason_id == "ACE_HELD"
    state = deal({"call_own_ace": True}, OWN, "7H KD")
    act(state, "bid pick", "exchange bury 8H 7H")     # the unknown ace is still offered
    assert calls(state) == ["ace S", "unknown_ace C", "unknown_ace H", "alone"]
    state = deal({"call_own_ace": True}, OWN, "7H KD")
    act(state, "bid pick", "exchange bury AS KD")     # a buried ace is not called
    assert calls(state) == ["ace H", "alone"]


def test_own_ace_is_a_secret_alone():
    state = deal({"call_own_ace": True}, OWN, "7H KD")
    act(state, "bid pick", "exchange bury 8H 7H", "bid ace S")
    assert state.phase() == "play"
    for seat in (0, 1, 2, 3, 4, None):               # looks like any ace call
        c = state.view(seat)["contract"]
        assert (c["type"], c["called_card"], c["partner"]) == ("ace", "AS", None)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    result = state.result()
    assert result["teams"] == [[1], [0, 2, 3, 4]] and result["contract"]["partner"] is None
    by = {b["item"]: b["value"] for b in result["breakdown"]}
    assert by["picker_share"] == 4 and "partner_share" not in by
    assert result["scores"][1] == 4 * by["per_defender"] * (1 if "picker_team_wins" in by else -1)
    assert sum(result["scores"]) == 0 and settle("sheepshead", result, 5) == result["scores"]


# ---- the project's own conformance lines -------------------------------------------------------
def own(kind):
    return [pytest.param(line, id=line["id"]) for line in conformance_lines("sheepshead", f"own-{kind}")]


@pytest.mark.parametrize("line", own("scenarios"))
def test_own_scenario(line):
    assert "independent reference" in line["provenance"]
    state = records.replay(line["record"])
    assert state.is_over()
    result = state.result()
    assert common(result) == common(line["result"])
    assert result["contract"] == line["result"]["contract"]
    assert result["breakdown"] == line["result"]["breakdown"]
    assert sum(result["scores"]) == 0




def test_own_lines_cover_both_options():
    items = {b["item"] for line in conformance_lines("sheepshead", "own-scenarios")
             for b in line["result"]["breakdown"]}
    assert "blitz" in items
    assert any(line["record"]["options"]["call_own_ace"] for line in conformance_lines("sheepshead", "own-scenarios"))


# ---- properties ------------------------------------------------------------------------------
def _finish(state, rng):
    while not state.is_over():
        legal = state.legal_actions()
        blitz = [a for a in legal if a.get("call") == "blitz"]
        state.apply(blitz[0] if blitz else rng.choice(legal))
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from([
    {"blitz": True}, {"blitz": True, "cracking": True}, {"blitz": True, "call_own_ace": True},
    {"blitz": True, "partner": "none", "multiplier": 8}, {"blitz": True, "partner": "jack_of_diamonds"}]))
def test_a_blitz_exactly_doubles_the_same_play(seed, options):
    """Every blitz that can be made is made; the same actions with the blitz passed give half of
    every score; both are zero-sum and settle() agrees with both."""
    import random
    rng = random.Random(seed)
    state = _finish(games.get("sheepshead", options).deal(seed), rng)
    record = state.record()
    result = state.result()
    assert sum(result["scores"]) == 0 and settle("sheepshead", result, 5) == result["scores"]
    blitzes = [i for i, a in enumerate(record["actions"]) if a.get("call") == "blitz"]
    if not blitzes:
        assert not any(b["item"] == "blitz" for b in result["breakdown"])
        return
    (i,) = blitzes
    passed = dict(record, actions=[dict(a, call="pass") if k == i else a for k, a in enumerate(record["actions"])])
    half = records.replay(passed).result()
    assert [2 * x for x in half["scores"]] == result["scores"]
    assert half["card_points"] == result["card_points"] and settle("sheepshead", half, 5) == half["scores"]
    assert result["contract"]["multiplier"] == 2 * half["contract"]["multiplier"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_own_ace_deals_are_zero_sum_and_alone(seed):
    import random
    rng = random.Random(seed)
    state = games.get("sheepshead", {"call_own_ace": True}).deal(seed)
    while not state.is_over():
        legal = state.legal_actions()
        hand = state.view(state.to_act())["hand"]
        own = [a for a in legal if a.get("call") == "ace" and "A" + a["suit"] in hand]
        state.apply(own[0] if own else rng.choice(legal))
    result = state.result()
    assert sum(result["scores"]) == 0 and settle("sheepshead", result, 5) == result["scores"]
    c = result["contract"]
    if c["type"] == "ace" and c["partner"] is None:
        assert result["teams"][0] == [c["picker"]]
        assert abs(result["scores"][c["picker"]]) == 4 * abs(result["scores"][(c["picker"] + 1) % 5])


# ---- bots ------------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_bots_blitz_on_the_pickers_side(level):
    """The picker with both black queens, five trumps and a partner: every level blitzes (the
    hard level judges it by rollouts over sampled worlds, starting from the normal choice)."""
    state = deal({"blitz": True}, R, "7H KD")
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    budget = {"rollout_worlds": 8} if level == "hard" else {}
    bot = bots.get("sheepshead", level, seed=1, options={"blitz": True}, **budget)
    assert bot.choose(state.view(1))["call"] == "blitz"


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_bots_call_their_own_ace_only_with_a_strong_hand(level):
    state = deal({"call_own_ace": True}, OWN, "7H KD")
    act(state, "bid pick", "exchange bury 8H 7H")      # five trumps: not the own ace
    bot = bots.get("sheepshead", level, seed=1, options={"call_own_ace": True})
    assert bot.choose(state.view(1)) == {"seat": 1, "type": "bid", "call": "unknown_ace", "suit": "C"}


# ---- the solver ------------------------------------------------------------------------------
def test_the_solver_values_the_card_play_the_same_with_a_blitz():
    """The solver counts card points: a blitz changes the stakes, not a card's value. Four
    tricks into the deal of docs 12 (two cards each left), with and without the blitz."""
    from engine_core import solver
    values = []
    for blitzed in (False, True):
        state = deal({"blitz": True}, R, "7H KD")
        act(state, "bid pick", "exchange bury 8H KD", "bid ace H",
            "announce blitz" if blitzed else "announce pass", *["announce pass"] * 4)
        play(state, "|".join(R_PLAY.split("|")[:4]))
        values.append(sorted((v["action"]["card"], v["value"]) for v in solver.values(state)))
    assert values[0] == values[1] and len(values[0]) == 2
