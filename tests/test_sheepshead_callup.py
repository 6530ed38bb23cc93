"""Sheepshead's call-up in the jack-of-diamonds game and spitz (issue 28;
docs/rules/sheepshead.md 1, 3.5, 3.10): the options and when call_up is ignored, concrete deals
(who may call up, which jack, the secret partner in every view, the errors, 7D's rank), the
project's own conformance lines, hypothesis properties (zero-sum, the partner is the holder of
the called jack, 7D wins every trick without QC) and the bots."""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import bots, games
from engine_core.errors import ActionError, OptionError

from breakdown import settle
from conftest import conformance_lines
from moves import act, bots_finish, play

JD_UP = {"partner": "jack_of_diamonds", "call_up": True}
# docs/rules/sheepshead.md 12 "Calling up a jack": seat 1 (eldest, dealer 0) picks with JD,
# seat 3 holds JH
UP = ["AC TC KC 9C 8C 7C", "QC QS JD AD AS 7S", "AH TH KH 9H 8H 7H",
      "QH QD JH TD KD TS", "KS JC JS 9D 8D 9S"]
UP_PLAY = ("QC 7H KD 8D 7C | QS 8H TD 9D 8C | AS 9H TS 9S 9C | JD KH QH JS KC |"
           " JH JC TC 7D TH | KS AC AD AH QD")


def deal(options, hands, blind, dealer=0):
    return games.get("sheepshead", options).new_deal([h.split() for h in hands], dealer, blind.split())


def calls(state):
    return [a["call"] for a in state.legal_actions()]


def swap(hands, a, b):
    """The hands with cards a and b exchanged (each named in exactly one hand)."""
    out = []
    for hand in hands:
        cards = hand.split()
        out.append(" ".join(b if c == a else a if c == b else c for c in cards))
    return out


# ---- the option ------------------------------------------------------------------------------
def test_call_up_is_a_boolean_defaulting_to_false():
    spec = next(s for s in games.spec_of("sheepshead").options if s.name == "call_up")
    assert (spec.kind, spec.default) == ("bool", False)
    for bad in ("yes", 1, None):
        with pytest.raises(OptionError) as err:
            games.get("sheepshead", {"call_up": bad})
        assert err.value.field == "options.call_up"


def test_without_the_option_the_jd_holder_is_forced_alone():
    state = deal({"partner": "jack_of_diamonds"}, UP, "7D 8S")
    act(state, "bid pick", "exchange bury 7S 8S")
    assert calls(state) == ["alone"]
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "bid", "call": "call_up"})
    assert err.value.reason_id == "NO_CALL_UP" and "call_up" in err.value.reason


def test_the_option_is_ignored_with_the_called_ace():
    """call_up only changes the jack-of-diamonds game: with a called ace the same deal offers the
    same calls, and call_up is refused with a reason naming the partner option."""
    plain = deal({}, UP, "7D 8S")
    state = deal({"call_up": True}, UP, "7D 8S")
    for s in (plain, state):
        act(s, "bid pick", "exchange bury 7S 8S")
    assert state.legal_actions() == plain.legal_actions()
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "bid", "call": "call_up"})
    assert err.value.reason_id == "CALL_UP_JD_GAME" and "partner: jack_of_diamonds" in err.value.reason


def test_a_picker_without_jd_calls_jd_not_up():
    state = deal(JD_UP, swap(UP, "JD", "JS"), "7D 8S")     # JD now with seat 4
    act(state, "bid pick", "exchange bury 7S 8S")
    assert calls(state) == ["jack_of_diamonds", "alone"]
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "bid", "call": "call_up"})
    assert err.value.reason_id == "CALL_UP_NEEDS_JD"


@pytest.mark.parametrize("mine,called", [("", "JH"), ("JH", "JS"), ("JH JS", "JC"), ("JS", "JH")])
def test_the_next_highest_jack_he_lacks_is_called(mine, called):
    """JH, then JS, then JC: the lowest jack above JD that is not among his 8 cards."""
    hands = UP
    for j, filler in zip(mine.split(), ("AD", "AS")):       # give seat 1 those jacks
        hands = swap(hands, j, filler)
    state = deal(JD_UP, hands, "7D 8S")
    act(state, "bid pick", "exchange bury 7S 8S")
    assert calls(state) == ["call_up", "alone"]
    act(state, "bid call_up")
    holder = next(s for s, h in enumerate(hands) if called in h.split())
    assert state.view(1)["contract"]["called_card"] == called
    assert state.view(holder)["contract"]["partner"] == holder


def test_a_buried_jack_counts_as_held():
    """JD and JH from the blind, JH buried: he calls up JS."""
    hands = swap(UP, "JH", "7D")                             # JH to the blind, seat 3 gets 7D
    state = deal(JD_UP, hands, "JH 8S")
    act(state, "bid pick", "exchange bury JH 8S", "bid call_up")
    assert state.view(None)["contract"]["called_card"] == "JS"
    assert state.view(4)["contract"]["partner"] == 4


def test_with_all_four_jacks_he_is_forced_alone():
    hands = swap(swap(swap(UP, "JH", "AD"), "JS", "AS"), "JC", "QS")
    state = deal(JD_UP, hands, "7D 8S")
    act(state, "bid pick", "exchange bury 7S 8S")
    assert calls(state) == ["alone"]
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "bid", "call": "call_up"})
    assert err.value.reason_id == "ALL_JACKS_HELD"
    act(state, "bid alone")
    assert state.view(1)["contract"]["forced_alone"] is True


def test_going_alone_with_call_up_open_is_not_forced():
    state = deal(JD_UP, UP, "7D 8S")
    act(state, "bid pick", "exchange bury 7S 8S", "bid alone")
    assert state.view(1)["contract"]["forced_alone"] is False
    assert state.view(1)["contract"]["called_card"] is None


def test_the_worked_example_secret_partner_and_score():
    state = deal(JD_UP, UP, "7D 8S")
    act(state, "bid pick", "exchange bury 7S 8S", "bid call_up")
    assert state.phase() == "play"
    for seat in (0, 1, 2, 4, None):                          # JH not yet played: secret
        assert state.view(seat)["contract"]["partner"] is None
        assert state.view(seat)["contract"]["called_card"] == "JH"
    assert state.view(3)["contract"]["partner"] == 3
    tricks = UP_PLAY.split("|")
    play(state, "|".join(tricks[:4]))
    assert state.view(0)["contract"]["partner"] is None
    play(state, "JH")                                         # the called jack falls: public
    for seat in (0, 1, 2, 3, 4, None):
        assert state.view(seat)["contract"]["partner"] == 3
    play(state, "|".join(tricks[4:]).split(None, 1)[1])
    result = state.result()
    assert result["contract"]["type"] == "jack_of_diamonds" and result["contract"]["called_card"] == "JH"
    assert result["teams"] == [[1, 3], [0, 2, 4]]
    assert result["card_points"] == [0, 41, 0, 55, 24]
    assert result["scores"] == [-2, 4, -2, 2, -2]
    assert [(i["item"], i["value"]) for i in result["breakdown"]] == [
        ("picker_team_points", 96), ("defender_points", 24), ("picker_team_wins", 1), ("schneider", 2),
        ("per_defender", 2), ("picker_share", 2), ("partner_share", 1)]
    assert settle("sheepshead", result, 5) == result["scores"]


def test_the_partner_may_not_crack_after_a_call_up():
    state = deal({**JD_UP, "cracking": True}, UP, "7D 8S")
    act(state, "bid pick", "exchange bury 7S 8S", "bid call_up")
    assert state.phase() == "crack" and state.to_act() == 2
    act(state, "announce pass")
    assert state.to_act() == 3 and calls(state) == ["pass"]   # the JH holder


# ---- the project's own conformance lines -------------------------------------------------------
def test_own_lines_include_a_call_up():
    lines = conformance_lines("sheepshead", "own-scenarios")
    assert any(a.get("call") == "call_up" for line in lines for a in line["record"]["actions"])
    illegal = conformance_lines("sheepshead", "own-illegal")
    assert any(line["reason_id"] == "NO_CALL_UP" for line in illegal)


# ---- properties ------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), extra=st.sampled_from([{}, {"cracking": True}, {"blitz": True}]))
def test_call_up_deals_are_zero_sum_and_the_partner_holds_the_called_jack(seed, extra):
    """Every call-up that can be made is made: the called jack is the lowest jack above JD not
    among the picker's 8 cards, its holder is the partner (hidden from the others until the jack
    is played), and the deal is zero-sum with settle() agreeing."""
    rng = random.Random(seed)
    state = games.get("sheepshead", {**JD_UP, **extra}).deal(seed)
    hands0 = {s: set(state.view(s)["hand"]) for s in range(5)}
    called_up = False
    while not state.is_over():
        legal = state.legal_actions()
        up = [a for a in legal if a.get("call") == "call_up"]
        if up:
            picker = state.to_act()
            eight = set(state.view(picker)["hand"]) | set(state.view(picker)["buried"])
            assert "JD" in eight
            want = next(j for j in ("JH", "JS", "JC") if j not in eight)
            state.apply(up[0])
            called_up = True
            c = state.view(None)["contract"]
            holder = next(s for s in range(5) if want in hands0[s])
            assert c["called_card"] == want and holder != picker
            assert state.view(holder)["contract"]["partner"] == holder
            assert all(state.view(s)["contract"]["partner"] is None for s in (0, 1, 2, 3, 4, None) if s != holder)
            continue
        state.apply(rng.choice(legal))
    result = state.result()
    assert sum(result["scores"]) == 0 and settle("sheepshead", result, 5) == result["scores"]
    if called_up:
        c = result["contract"]
        assert c["partner"] == holder and sorted(result["teams"][0]) == sorted({c["picker"], holder})
        assert result["scores"][c["picker"]] == 2 * result["scores"][holder] or \
            any(b["item"] == "partner_exempt" for b in result["breakdown"])


# ---- bots ------------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_every_level_plays_the_worked_deal_legally(level):
    """Each bot level picks, buries, calls and plays the call-up deal with only legal actions;
    the easy and normal picker calls up rather than going alone."""
    state = deal(JD_UP, UP, "7D 8S")
    budget = {"worlds": 3, "rollout_worlds": 2, "nodes": 2000, "playout_worlds": 3, "playouts": 4,
              "rollout_playouts": 2} if level == "hard" else {}
    players = [bots.get("sheepshead", level, seed=s, options=state.game.options.as_dict(), **budget)
               for s in range(5)]
    act(state, "bid pick", "exchange bury 7S 8S")
    choice = players[1].choose(state.view(1))
    assert choice in state.legal_actions()
    if level in ("easy", "normal"):
        assert choice["call"] == "call_up"
    bots_finish(state, players)


# ---- spitz -----------------------------------------------------------------------------------
SPITZ_PLAY = ("QC 7H KD 8D 7C | QS 8H TD 9D 8C | AS 9H TS 9S 9C | 7D KH QH JS KC |"
              " JD TH JH JC TC | KS AC AD AH QD")


def test_spitz_is_a_boolean_option_defaulting_to_false():
    spec = next(s for s in games.spec_of("sheepshead").options if s.name == "spitz")
    assert (spec.kind, spec.default) == ("bool", False)
    with pytest.raises(OptionError) as err:
        games.get("sheepshead", {"spitz": "7D"})
    assert err.value.field == "options.spitz"


def test_spitz_puts_7d_second_in_the_order_and_the_hand():
    for spitz, trumps in ((True, "QC 7D QS QH QD JC JS JH JD AD TD KD 9D 8D"),
                          (False, "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D")):
        state = deal({**JD_UP, "spitz": spitz}, UP, "7D 8S")
        act(state, "bid pick")
        assert state.view(1)["hand"][:3] == (["QC", "7D", "QS"] if spitz else ["QC", "QS", "JD"])
        act(state, "exchange bury 7S 8S", "bid call_up")
        assert state.view(2)["order"]["trump"] == trumps.split()


@pytest.mark.parametrize("spitz,winner", [(True, 1), (False, 3)])
def test_spitz_7d_beats_qh_but_not_qc(spitz, winner):
    state = deal({**JD_UP, "spitz": spitz}, UP, "7D 8S")
    act(state, "bid pick", "exchange bury 7S 8S", "bid call_up")
    play(state, "|".join(SPITZ_PLAY.split("|")[:4]))
    assert state.view(None)["tricks"][3][2] == winner
    if spitz:
        play(state, "|".join(SPITZ_PLAY.split("|")[4:]))
        result = state.result()
        assert [t[2] for t in result["tricks"]] == [1, 1, 1, 1, 4, 3]
        assert result["card_points"] == [0, 54, 0, 40, 26] and result["scores"] == [-2, 4, -2, 2, -2]
        assert settle("sheepshead", result, 5) == result["scores"]


def test_spitz_7d_loses_to_qc():
    hands = swap(UP, "QC", "QH")                    # seat 3 now holds QC
    state = deal({**JD_UP, "spitz": True}, hands, "7D 8S")
    act(state, "bid pick", "exchange bury 7S 8S", "bid call_up")
    play(state, "7D 7H QC")
    play(state, "8D 7C")
    assert state.view(None)["tricks"][0][2] == 3


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_spitz_deals_are_zero_sum_and_a_trick_with_7d_and_no_qc_goes_to_7d(seed):
    rng = random.Random(seed)
    state = games.get("sheepshead", {"spitz": True, "partner": "jack_of_diamonds", "call_up": True}).deal(seed)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    result = state.result()
    assert sum(result["scores"]) == 0 and settle("sheepshead", result, 5) == result["scores"]
    for leader, cards, winner in result["tricks"]:
        if "7D" in cards and "QC" not in cards and "??" not in cards:
            assert (leader + cards.index("7D")) % 5 == winner
