"""Sheepshead's red blitz (option red_blitz, issue 28; docs/rules/sheepshead.md 3.8): the option
and its errors, concrete deals (a black and a red blitz by two seats, all four queens in one
hand, the re-asked seat, queens that cannot be shown), the view's shown_hands for every seat and
a spectator, the hidden-card checker, the seat variants, the project's own conformance lines,
hypothesis properties (zero-sum, each blitz exactly doubles the same play, the breakdown's
oracle agrees) and the bots."""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import bots, games, records
from engine_core.errors import ActionError, OptionError

from breakdown import settle
from conftest import conformance_lines
from moves import act, play

RED = {"blitz": True, "red_blitz": True}
# docs/rules/sheepshead.md 12 "A black and a red blitz": R with seat 1's QH and seat 0's JD
# swapped: seat 1 (eldest, the picker) holds QC QS, seat 0 (the dealer) QH QD
TWO = ["QD QH AD TD 9D 7D", "QC QS JD JC 7S 8H", "AC TC KC 9C 8C 7C",
       "AH 9H JS AS TS 8D", "TH KH KS 9S 8S JH"]
TWO_PLAY = ("7S 7C AS 8S 7D | 9D JC 8C 8D JH | QC 9C JS 9S TD | QS KC TS KS QD |"
            " JD TC 9H KH QH | AD 7H AC AH TH")
# R with seat 1's JC and seat 0's QD swapped: seat 1 holds all four queens
FOUR = ["JC JD AD TD 9D 7D", "QC QS QH QD 7S 8H", "AC TC KC 9C 8C 7C",
        "AH 9H JS AS TS 8D", "TH KH KS 9S 8S JH"]


def deal(options, hands, blind="7H KD", dealer=0, game="sheepshead"):
    return games.get(game, options).new_deal([h.split() for h in hands], dealer, blind.split())


def calls(state):
    return [a["call"] for a in state.legal_actions()]


def refused(state, call):
    seat = state.to_act()
    before = state.view(seat)
    with pytest.raises(ActionError) as err:
        state.apply({"seat": seat, "type": "announce", "call": call})
    assert state.view(seat) == before
    return err.value


# ---- the option ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["sheepshead", "sheepshead3", "sheepshead4", "sheepshead6"])
def test_the_option_is_a_boolean_that_needs_blitz(game):
    spec = next(s for s in games.spec_of(game).options if s.name == "red_blitz")
    assert (spec.kind, spec.default, spec.status) == ("bool", False, "supported")
    for bad in ("yes", 1, None, "red"):
        with pytest.raises(OptionError) as err:
            games.get(game, {"blitz": True, "red_blitz": bad})
        assert err.value.field == "options.red_blitz"
    with pytest.raises(OptionError) as err:
        games.get(game, {"red_blitz": True})
    assert err.value.field == "options.red_blitz" and "blitz: true" in str(err.value)
    assert games.get(game, RED).options.as_dict()["red_blitz"] is True
    assert games.get(game, {"blitz": True}).options.as_dict()["red_blitz"] is False


# ---- a black and a red blitz by two seats ----------------------------------------------------
def test_a_black_and_a_red_blitz_by_two_seats_make_x4():
    state = deal(RED, TWO)
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    assert state.phase() == "blitz" and state.to_act() == 1 and calls(state) == ["pass", "blitz"]
    act(state, "announce blitz")
    # asked again: the red blitz is still open at the table, though seat 1 has no red pair
    assert state.to_act() == 1 and calls(state) == ["pass"]
    assert refused(state, "red_blitz").reason_id == "NO_RED_QUEENS"
    assert refused(state, "blitz").reason_id == "BLITZ_MADE"
    act(state, "announce pass")
    for seat in (2, 3, 4):
        assert state.to_act() == seat and calls(state) == ["pass"]
        act(state, "announce pass")
    assert state.to_act() == 0 and calls(state) == ["pass", "red_blitz"]
    for seat in (0, 1, 2, 3, 4, None):
        assert state.view(seat)["shown"] == {"seat": 1, "cards": ["QC", "QS"]}
        assert state.view(seat)["shown_hands"] == [{"seat": 1, "cards": ["QC", "QS"]}]
    act(state, "announce red_blitz")
    assert state.phase() == "play"          # the dealer was the last: no re-ask, both are made
    for seat in (0, 1, 2, 3, 4, None):      # public: every seat and a spectator
        view = state.view(seat)
        assert view["shown_hands"] == [{"seat": 1, "cards": ["QC", "QS"]}, {"seat": 0, "cards": ["QH", "QD"]}]
        assert view["shown"] == {"seat": 1, "cards": ["QC", "QS"]}
    play(state, "|".join(TWO_PLAY.split("|")[:3]))          # QC is played in trick 3
    assert state.view(2)["shown_hands"] == [{"seat": 1, "cards": ["QS"]}, {"seat": 0, "cards": ["QH", "QD"]}]
    play(state, TWO_PLAY.split("|")[3])                      # QS and QD in trick 4
    assert state.view(2)["shown_hands"] == [{"seat": 0, "cards": ["QH"]}]
    assert state.view(2)["shown"] == {"seat": 0, "cards": ["QH"]}
    play(state, "|".join(TWO_PLAY.split("|")[4:]))
    assert state.view(2)["shown"] is None and state.view(2)["shown_hands"] is None
    result = state.result()
    # picker team 47 (tricks 2-4 and the bury's 4): a loss, level 1, x2 bump, x4 blitzes
    assert result["card_points"] == [73, 47, 0, 0, 0]
    assert result["contract"]["multiplier"] == 4
    items = [(b["item"], b["value"]) for b in result["breakdown"]]
    assert items[3:8] == [("game", 1), ("double_on_the_bump", 2), ("blitz", 2), ("red_blitz", 2), ("per_defender", 8)]
    assert result["scores"] == [8, -16, 8, -8, 8]
    assert settle("sheepshead", result, 5) == result["scores"]


def test_a_red_blitz_alone_doubles_and_needs_both_red_queens():
    state = deal(RED, TWO)
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H", "announce pass")
    assert refused(state, "red_blitz").reason_id == "NO_RED_QUEENS"       # seat 2
    act(state, *["announce pass"] * 3)
    act(state, "announce red_blitz")
    # the black blitz is still open: the dealer is asked again, with nothing to show
    assert state.phase() == "blitz" and state.to_act() == 0 and calls(state) == ["pass"]
    act(state, "announce pass")
    play(state, TWO_PLAY)
    result = state.result()
    assert result["contract"]["multiplier"] == 2 and result["scores"] == [4, -8, 4, -4, 4]
    assert "blitz" not in [b["item"] for b in result["breakdown"]]
    assert {"item": "red_blitz", "value": 2} in result["breakdown"]


# ---- one seat with all four queens --------------------------------------------------------
def test_all_four_queens_in_one_hand_blitz_twice():
    state = deal(RED, FOUR)
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    assert calls(state) == ["pass", "blitz", "red_blitz"]
    act(state, "announce red_blitz")          # either order: red first, then black
    assert state.to_act() == 1 and calls(state) == ["pass", "blitz"]
    assert state.view(None)["shown_hands"] == [{"seat": 1, "cards": ["QH", "QD"]}]
    act(state, "announce blitz")
    assert state.to_act() == 2                # both made: the round goes on
    for seat in (0, 1, 2, 3, 4, None):
        assert state.view(seat)["shown_hands"] == [{"seat": 1, "cards": ["QC", "QS", "QH", "QD"]}]
    act(state, *["announce pass"] * 4)
    assert state.phase() == "play"
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    result = state.result()
    assert result["contract"]["multiplier"] == 4
    assert sum(result["scores"]) == 0 and settle("sheepshead", result, 5) == result["scores"]


def test_without_red_blitz_the_round_is_as_before():
    """blitz alone: no re-ask after a blitz, red_blitz refused with its own reason."""
    state = deal({"blitz": True}, FOUR)
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    assert calls(state) == ["pass", "blitz"]
    assert refused(state, "red_blitz").reason_id == "NO_RED_BLITZING"
    act(state, "announce blitz")
    assert state.to_act() == 2
    state = deal({"cracking": True}, FOUR)
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    assert state.phase() == "crack" and refused(state, "red_blitz").reason_id == "NO_BLITZING"


def test_a_buried_or_unknown_red_queen_cannot_be_shown():
    state = deal(RED, FOUR)
    act(state, "bid pick", "exchange bury QD KD", "bid ace H")
    assert calls(state) == ["pass", "blitz"]
    err = refused(state, "red_blitz")
    assert err.reason_id == "NO_RED_QUEENS" and "QH, QD" in err.reason
    # the unknown card is face down (docs 12 "The unknown ace" with QH QD in the picker's hand)
    hands = ["9S AH 8D TD AS QC", "7D JC QH AD KS KH", "TH TC KC 7C JS AC",
             "JD TS 8C KD JH 8S", "8H 9C 7S 9D 9H 7H"]
    state = deal(RED, hands, "QD QS")
    act(state, "bid pick", "exchange bury KS KH", "bid unknown_ace C", "exchange unknown QD")
    assert state.phase() == "blitz" and calls(state) == ["pass"]
    err = refused(state, "red_blitz")
    assert err.reason_id == "NO_RED_QUEENS" and "face down" in err.reason


def test_red_blitz_outside_its_round():
    state = deal(dict(RED, cracking=True), TWO)
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H", *["announce pass"] * 6)
    assert state.phase() == "crack"
    assert refused(state, "red_blitz").reason_id == "BLITZ_ROUND_ONLY"


# ---- seat variants -------------------------------------------------------------------------
def test_four_handed_red_blitz():
    four = ["7D AS TS KS 9S 8S KH", "QC QS JH QD JC JS 7H", "8D AC TC KC 9C 8C TH",
            "AH QH JD AD TD KD 9D"]
    state = deal(RED, four, "9H 8H", game="sheepshead4")
    act(state, "bid pick", "exchange bury 9H 8H", "bid ace H")
    assert state.to_act() == 1 and calls(state) == ["pass", "blitz"]
    act(state, "announce blitz", "announce pass", "announce pass", "announce pass")
    assert calls(state) == ["pass"]            # seat 0, the dealer: QD is seat 1's
    act(state, "announce pass")
    assert state.phase() == "play"
    state = deal(RED, four, "9H 8H", game="sheepshead4")
    act(state, "bid pick", "exchange bury 9H 8H", "bid alone")
    assert calls(state) == ["pass", "blitz"]


# ---- hidden information ----------------------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["sheepshead", "sheepshead4", "sheepshead3"]))
def test_no_view_shows_a_card_the_rule_hides(seed, game):
    """Every blitz that can be made is made; the hidden-card checker (service.testing.hidden)
    accepts every view of every seat and a spectator after every action, and every blitzed
    queen still in hand is in every view's shown_hands."""
    from service.testing.hidden import Mirror
    rng = random.Random(seed)
    state = games.get(game, RED).deal(seed)
    mirror = Mirror(state)
    while not state.is_over():
        legal = state.legal_actions()
        blitz = [a for a in legal if a.get("call") in ("blitz", "red_blitz")]
        mirror.apply(blitz[0] if blitz else rng.choice(legal))
        for seat in list(range(state.game.seats)) + [None]:
            view = state.view(seat)
            mirror.check(view, seat, where=f"action {len(state.record()['actions'])}")
            assert view["shown"] == (view["shown_hands"] or [None])[0]
            assert _shown(view["shown_hands"]) == expected_shown(state)


def expected_shown(state):
    """(seat, card) of the blitzed queens still in their blitzer's hand, from the record."""
    pairs = {"blitz": ("QC", "QS"), "red_blitz": ("QH", "QD")}
    out = set()
    for a in state.record()["actions"]:
        if a["type"] == "announce" and a["call"] in pairs:
            out |= {(a["seat"], c) for c in pairs[a["call"]] if c in state.view(a["seat"])["hand"]}
    return out


def _shown(hands):
    return {(h["seat"], c) for h in hands or () for c in h["cards"]}


# ---- the project's own conformance lines -------------------------------------------------------
def own(kind):
    return [pytest.param(line, id=line["id"]) for line in conformance_lines("sheepshead", f"own-{kind}")
            if line["record"]["options"].get("red_blitz") or "red_blitz" in line["id"]]


def test_own_lines_cover_red_blitzing():
    assert own("scenarios") and own("legal") and len(own("illegal")) >= 3
    items = {b["item"] for line in conformance_lines("sheepshead", "own-scenarios") for b in line["result"]["breakdown"]}
    assert "red_blitz" in items


# ---- properties ------------------------------------------------------------------------------
def _run(game, options, seed, allowed):
    """A random deal played with `random.Random(seed)`; in the blitz round the first legal blitz
    whose call is in `allowed` is made, else pass (drawing no random number, so that the card
    play is the same whatever is allowed)."""
    rng = random.Random(seed)
    state = games.get(game, options).deal(seed)
    while not state.is_over():
        legal = state.legal_actions()
        if state.phase() == "blitz":
            state.apply(next((a for a in legal if a["call"] in allowed),
                             next(a for a in legal if a["call"] == "pass")))
        else:
            state.apply(rng.choice(legal))
    return state.result()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from([
    RED, dict(RED, cracking=True), dict(RED, partner="none", multiplier=8),
    dict(RED, partner="jack_of_diamonds"), dict(RED, spitz=True)]),
    game=st.sampled_from(["sheepshead", "sheepshead3", "sheepshead4", "sheepshead6"]))
def test_each_blitz_exactly_doubles_the_same_play(seed, options, game):
    """The same deal and card play with every blitz made, with the black one only, the red one
    only and none: each blitz made doubles every score; all are zero-sum and settle() agrees."""
    if game == "sheepshead3":
        options = {k: v for k, v in options.items() if k != "partner"}
    seats = games.get(game).seats
    base = _run(game, options, seed, set())
    assert not {"blitz", "red_blitz"} & {b["item"] for b in base["breakdown"]}
    for allowed in ({"blitz"}, {"red_blitz"}, {"blitz", "red_blitz"}):
        result = _run(game, options, seed, allowed)
        assert result["card_points"] == base["card_points"]
        items = [b["item"] for b in result["breakdown"]]
        made = items.count("blitz") + items.count("red_blitz")
        assert set(items) & {"blitz", "red_blitz"} <= allowed
        assert result["scores"] == [x * 2 ** made for x in base["scores"]]
        assert result["contract"]["multiplier"] == base["contract"]["multiplier"] * 2 ** made
        assert sum(result["scores"]) == 0 and settle(game, result, seats) == result["scores"]


# ---- bots ------------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_bots_red_blitz_on_the_pickers_side(level):
    """The picker with all four queens: every level shows both pairs."""
    state = deal(RED, FOUR)
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H")
    budget = {"rollout_worlds": 8} if level == "hard" else {}
    bot = bots.get("sheepshead", level, seed=1, options=RED, **budget)
    first = bot.choose(state.view(1))
    assert first["call"] in ("blitz", "red_blitz")
    state.apply(first)
    second = bot.choose(state.view(1))
    assert second["call"] == ({"blitz", "red_blitz"} - {first["call"]}).pop()


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_weak_defender_keeps_his_red_queens_hidden(level):
    """Seat 0, the dealer and a defender, holds QH QD and no other trump: he passes."""
    hands = ["QD QH 7C 8S 9S 7S", "QC QS JD JC AD 8H", "TD TC KC 9C 8C AC",
             "AH 9H JS AS TS 8D", "TH KH KS JH 7D 9D"]
    state = deal(RED, hands)
    act(state, "bid pick", "exchange bury 8H KD", "bid ace H", "announce blitz", "announce pass",
        *["announce pass"] * 3)
    assert state.to_act() == 0 and calls(state) == ["pass", "red_blitz"]
    bot = bots.get("sheepshead", level, seed=1, options=RED)
    assert bot.choose(state.view(0))["call"] == "pass"
