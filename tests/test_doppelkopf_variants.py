"""Doppelkopf's house-rule options (docs/rules/doppelkopf.md 3.4, 3.8, 4.1, 10): the project's
own conformance lines (tests/conformance/doppelkopf/own-*.jsonl), the options' checks and
presets, Schweinchen and Superschweinchen in the views and the solver, the Hochzeit partner
rules, throwing in and the match layer, and the bots' throw-in."""
import random

import pytest

from engine_core import bots, games, records, solver
from engine_core.errors import OptionError

from conftest import conformance_lines
from test_conformance import common
from moves import bids, play

PIGS = ["QC AC AS AH KC QS AD KS QH JH AD JC", "9D 9C TS KH 9D JC 9C 9S QD JS TD JD",
        "KD TC KS 9H QC TH AC AS QH JH QD KH", "JD KC 9S AH TD QS TC TS TH JS KD 9H"]
NINES = ["QC AC AS AH 9D QS KC KS QH JH AD JC", "9D 9C TS KH AD JC 9C 9S QD 9S TD JD",
         "KD TC KS 9H QC TH AC AS QH JH QD KH", "JD KC JS AH TD QS TC TS TH JS KD 9H"]
NEW = ("schweinchen", "hochzeit_partner", "throw_in", "bockrunden", "bock", "bock_next", "picture_solos",
       "nines", "pflichtsolo", "pflicht_played", "pflicht_round_deals", "announcements")


def deal(options, hands, dealer=3):
    return games.get("doppelkopf", options).new_deal([h.split() for h in hands], dealer)


# ---- the project's own conformance lines ----

def own(kind):
    return [pytest.param(line, id=line["id"]) for line in conformance_lines("doppelkopf", f"own-{kind}")]


@pytest.mark.parametrize("line", own("scenarios"))
def test_own_scenario(line):
    assert "independent reference" in line["provenance"]
    state = records.replay(line["record"])
    assert state.is_over()
    result = state.result()
    assert common(result) == common(line["result"])
    for key in line["result"]:
        assert result[key] == line["result"][key], key
    assert sum(result["scores"]) == 0




def test_own_lines_cover_every_new_option():
    lines = conformance_lines("doppelkopf", "own-scenarios")
    used = {name for line in lines for name, value in line["record"]["options"].items()
            if value != games.get("doppelkopf").options.as_dict()[name]}
    assert set(NEW) <= used
    assert {line["result"]["contract"]["type"] for line in lines} >= {"thrown_in", "hochzeit", "normal", "solo"}


# ---- options ----

def test_options_are_declared_and_checked():
    by_name = {o.name: o for o in games.spec_of("doppelkopf").options}
    assert by_name["throw_in"].status == "supported" and by_name["throw_in"].default is False
    with pytest.raises(OptionError, match="options.throw_in: must be true or false"):
        games.get("doppelkopf", {"throw_in": "yes"})
    for name, default, good, bad in (("hochzeit_partner", "first_trick", "first_colour_trick", "first_heart_trick"),
                                     ("schweinchen", "off", "superschweinchen", True)):
        assert by_name[name].status == "supported" and by_name[name].default == default
        with pytest.raises(OptionError, match=f"options.{name}: must be one of") as err:
            games.get("doppelkopf", {name: bad})
        assert good in str(err.value)
    house = games.get("doppelkopf", games.preset("doppelkopf", "house")).options
    assert house.schweinchen == "superschweinchen" and house.throw_in and house.second_heart_ten_beats_first
    assert (house.bockrunden, house.bock, house.bock_next) == ("tie", 0, (0, 0, 0))
    assert games.preset("doppelkopf", "second_heart_ten") == {"second_heart_ten_beats_first": True}
    with pytest.raises(OptionError, match="unknown preset"):
        games.preset("doppelkopf", "turnier")


def test_defaults_offer_no_throw_in_and_say_why():
    state = deal(None, NINES)
    bids(state, "healthy")
    assert "throw_in" not in {a.get("call") for a in state.legal_actions()}
    assert "option throw_in is off" in state.why_illegal({"seat": 1, "type": "bid", "call": "throw_in"})
    on = deal({"throw_in": True}, NINES)
    assert "throw_in" not in {a.get("call") for a in on.legal_actions()}       # seat 0: a good hand
    assert "you hold 1 nines, 2 kings" in on.why_illegal({"seat": 0, "type": "bid", "call": "throw_in"})
    bids(on, "healthy")
    assert "throw_in" in {a.get("call") for a in on.legal_actions()}            # seat 1: five nines


# ---- Schweinchen ----

@pytest.mark.parametrize("options,top,fields", [
    ({}, "TH", {}),
    ({"schweinchen": "schweinchen"}, "AD", {"schweinchen": 0}),
    ({"schweinchen": "superschweinchen"}, "9D", {"schweinchen": 0, "superschweinchen": 1}),
])
def test_schweinchen_order_is_public_from_the_first_card(options, top, fields):
    state = deal(options, PIGS)
    bids(state, "healthy", "healthy", "healthy", "healthy")
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        assert view["order"]["trump"][0] == top
        assert {k: view["contract"][k] for k in ("schweinchen", "superschweinchen") if k in view["contract"]} == fields
    play(state, "AD 9D TH JD")
    winner = {"TH": 2, "AD": 0, "9D": 1}[top]
    assert state.view(None)["tricks"][0][2] == winner


def test_split_foxes_are_no_schweinchen():
    state = games.get("doppelkopf", {"schweinchen": "schweinchen"}).new_deal(
        [h.split() for h in ("QC AC AS AH 9D QS KC KS QH JH AD JC", "9D 9C TS KH AD JC 9C 9S QD JS TD JD",
                             "KD TC KS 9H QC TH AC AS QH JH QD KH", "JD KC 9S AH TD QS TC TS TH JS KD 9H")], 3)
    bids(state, "healthy", "healthy", "healthy", "healthy")
    assert state.view(None)["order"]["trump"][0] == "TH" and "schweinchen" not in state.view(None)["contract"]


def _brute(state, side):
    """The side's card points at the end with best play on both sides (exhaustive)."""
    if state.is_over():
        return sum(state.result()["card_points"][s] for s in side)
    outcomes = []
    for a in state.legal_actions():
        if a["type"] != "play":
            continue
        s = state.copy()
        s.apply(a)
        outcomes.append(_brute(s, side))
    return max(outcomes) if state.to_act() in side else min(outcomes)


@pytest.mark.parametrize("seed", range(3))
def test_solver_under_superschweinchen_matches_exhaustive_search(seed):
    """With three tricks left, the solver's card points for Re equal an exhaustive search's:
    the solver plays the Schweinchen orders through the same hooks."""
    rng = random.Random(seed)
    state = deal({"schweinchen": "superschweinchen"}, PIGS)
    bids(state, "healthy", "healthy", "healthy", "healthy")
    play(state, "AD 9D TH JD")
    while len(state.view(None)["tricks"]) < 9:
        state.apply(rng.choice([a for a in state.legal_actions() if a["type"] == "play"]))
    solution = solver.solve(state)
    side = list(solution.objective.side)
    assert side == [0, 2] and solution.exact
    assert solution.value == _brute(state.copy(), side)


# ---- Hochzeit partner ----

BRIDE = ["QC KC AS AH QC QS KC KS QH JH AD JC", "9D 9C TS KH AD JC 9C 9S QD JS TD JD",
         "KD TC KS 9H 9D TH AC AS QH JH QD KH", "JD AC 9S AH TD QS TC TS TH JS KD 9H"]


@pytest.mark.parametrize("rule,partner,trick", [
    ("first_trick", 1, 1), ("first_trump_trick", 1, 1), ("first_colour_trick", 2, 2)])
def test_hochzeit_partner_rule(rule, partner, trick):
    state = deal({"hochzeit_partner": rule}, BRIDE)
    bids(state, "hochzeit", "healthy", "healthy", "healthy")
    play(state, "JH QD KD JD")              # a trump trick won by seat 1
    if trick == 2:
        assert state.view(None)["contract"]["partner"] is None
        assert not [a for a in state.legal_actions() if a["type"] == "announce"]
    play(state, "9C AC TC KC")              # a colour trick won by seat 2
    contract = state.view(None)["contract"]
    assert (contract["partner"], contract["clarified_in_trick"]) == (partner, trick)


# ---- throwing in ----

@pytest.mark.parametrize("hand,ok", [
    ("9C 9C 9S 9S 9H AC TC KC AS TS KS JD", True),      # five nines
    ("KC KC KS KS KH AC TC 9C AS TS 9S JD", True),      # five kings
    ("JC JS JD AD TD AC TC KC AS TS KS 9H", True),      # no trump above the jacks
    ("9C 9C 9S 9S KH KH TC KC AS TS KS QD", False),     # four nines, four kings and a queen
])
def test_throw_in_needs_a_bad_hand(hand, ok):
    rest = list(games.get("doppelkopf").deck.faces) * 2
    for c in hand.split():
        rest.remove(c)
    hands = [hand] + [" ".join(rest[12 * i:12 * i + 12]) for i in range(3)]
    state = deal({"throw_in": True}, hands, dealer=3)
    assert ("throw_in" in {a.get("call") for a in state.legal_actions()}) is ok


def test_a_thrown_in_deal_is_dealt_again_by_the_same_dealer_and_does_not_count():
    state = deal({"throw_in": True}, NINES, dealer=3)
    bids(state, "healthy", "throw_in", "healthy", "healthy")
    result = state.result()
    assert result["contract"]["type"] == "thrown_in" and result["contract"]["declarer"] == 1
    assert result["scores"] == [0] * 4 and result["redeal"] and result["teams"] == []
    assert (result["next_dealer"], result["counts_toward_match"]) == (3, False)
    nxt = games.spec_of("doppelkopf").between_deals(result, 3, state.game.options)
    assert (nxt.dealer, nxt.counts) == (3, False)
    assert state.view(2)["teams"] == {"re": [], "kontra": [], "complete": False}


def test_throw_in_beats_armut_and_hochzeit_but_not_a_solo():
    hands = ["QC QC AS AH 9D QS KC KS QH JH AD JC", "9D 9C TS KH AD JC 9C 9S AC 9S TD JD",
             "KD TC KS 9H QD TH AC AS QH JH QD KH", "JD KC JS AH TD QS TC TS TH JS KD 9H"]
    state = deal({"throw_in": True}, hands)
    bids(state, "hochzeit", "throw_in", "healthy", "healthy")
    assert state.result()["contract"]["type"] == "thrown_in"
    state = deal({"throw_in": True}, hands)
    bids(state, "hochzeit", "throw_in", "healthy", "solo_aces")
    assert state.view(None)["contract"]["type"] == "solo"


@pytest.mark.parametrize("options,want", [({"throw_in": True}, "throw_in"), ({}, "healthy")])
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_easy_and_normal_throw_in_a_bad_hand(options, want, level):
    state = deal(options, NINES)
    bids(state, "healthy")
    assert bots.get("doppelkopf", level, seed=1, options=options).choose(state.view(1))["call"] == want


def test_schweinchen_lie_open_and_every_sampled_world_holds_them():
    """The Schweinchen still in the holder's hand are `shown` to every seat, so the bots'
    worlds give them to him; without the option nothing is shown."""
    from engine_core.bots.inference import Inference
    state = deal({"schweinchen": "schweinchen"}, PIGS)
    bids(state, "healthy", "healthy", "healthy", "healthy")
    assert all(state.view(s)["shown"] == {"seat": 0, "cards": ["AD", "AD"]} for s in (None, 1, 2, 3))
    worlds = Inference(state.view(3), state.game.options.as_dict()).sample(40, seed=1)
    assert worlds and all(w["hands"][0].count("AD") == 2 for w in worlds)
    play(state, "AD 9D TH JD")
    assert state.view(2)["shown"] == {"seat": 0, "cards": ["AD"]}
    plain = deal({}, PIGS)
    bids(plain, "healthy", "healthy", "healthy", "healthy")
    assert plain.view(3)["shown"] is None
    spread = Inference(plain.view(3), {}).sample(40, seed=1)
    assert any(w["hands"][0].count("AD") < 2 for w in spread)      # the test can fail


def test_worlds_reach_the_views_position_when_a_superschweinchen_won():
    """Seat 1's Superschweinchen (not shown: shown holds the Schweinchen holder's cards) won
    trick 1, so seat 1 leads: every sampled world must give seat 1 both 9D, or its replay would
    have seat 0 to act (the crash of the hard bot this guards against)."""
    from engine_core.bots.inference import Inference
    state = deal({"schweinchen": "superschweinchen"}, PIGS)
    bids(state, "healthy", "healthy", "healthy", "healthy")
    play(state, "AD 9D TH JD")
    inference = Inference(state.view(3), state.game.options.as_dict())
    worlds = inference.sample(30, seed=2)
    assert worlds and all(w["hands"][1].count("9D") == 2 for w in worlds)
    assert all(s.to_act() == 1 for s in inference.states(10, seed=3))
    assert bots.get("doppelkopf", "hard", seed=1, options=state.game.options.as_dict(), worlds=4,
                    playout_worlds=4, playouts=8, rollout_worlds=2).choose(state.view(1)) in state.legal_actions()
