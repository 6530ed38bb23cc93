"""Klaverjas's Drents auction (option bidding), declared stuk (option stuk) and claimed roem
(option roem_claim) (issue 28; docs/rules/klaverjas.md 12 to 14): the options and their errors,
the worked examples as concrete deals, the project's own conformance scenarios, hypothesis
properties over random option sets (the auction's bids rise, the winner names trumps, refused
actions leave the state unchanged) and the bots' bids and calls."""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import bots, games, records
from engine_core.errors import ActionError, OptionError

from conftest import conformance_lines

DRENTS = {"bidding": "drents"}
# the deal of "A tie is nat" (docs/rules/klaverjas.md 11), dealer 3
S11 = ("JH AH 9C 7C JS KS TD JD", "8H 9H KC QC 8S 7S 7D 9D",
       "QH KH AC JC AS 9S KD 8D", "7H TH TC 8C QS TS QD AD")
S11_PLAY = ("JH 8H QH 7H | 9C KC AC TC | AS QS JS 8S | KD QD TD 7D |"
            " AH 9H KH TH | QC JC 8C 7C | 7S 9S TS KS | AD JD 9D 8D")
# "Roem turns a card-point majority into nat": 91 card points against 71, roem 50 + 20
ROEM = ("7H 9H 8S QS JC 9C 9D TD", "JH AH TS 7S 8C TC JD QD",
        "QH KH 9S KS 7C AC 8D KD", "8H TH JS AS QC KC AD 7D")
ROEM_PLAY = ("7H JH QH 8H | TS 9S JS 8S | 7S KS AS QS | QC JC 8C 7C |"
             " AD 9D JD 8D | TH 9H AH KH | 9C TC AC KC | KD 7D TD QD")
SUITED = ("JH 9H AH TH KH QH 8H 7H", "JC 9C AC TC KC QC 8C 7C",
          "JS 9S AS TS KS QS 8S 7S", "JD 9D AD TD KD QD 8D 7D")
# docs/rules/klaverjas.md 13: seat 0 holds KH QH; seat 1's 9H and JH take the first two tricks
STUK = ("KH QH AC AS AD 7C 7S 7D", "JH 9H 8C 8S 8D TC TS TD",
        "AH 7H KC KS KD QC QS QD", "TH 8H JC JS JD 9C 9S 9D")
STUK_PLAY = ("KH 9H 7H 8H | JH AH TH stuk QH | TC KC JC AC | AS TS KS JS | AD TD KD JD |"
             " 7C 8C QC 9C | QS 9S 7S 8S | QD 9D 7D 8D")


def deal(options, hands, dealer=3):
    return games.get("klaverjas", options).new_deal([h.split() for h in hands], dealer)


def bid(state, *calls):
    for call in calls:
        kind, _, suit = call.partition(" ")
        action = {"seat": state.to_act(), "type": "bid", "call": kind}
        if suit:
            action["suit"] = suit
        state.apply(action)


def play(state, cards, claims=None):
    """Play the cards in order; 'stuk' says the stuk; after a trick holding roem its winner
    claims it, or lets it go where `claims` maps the trick's number to False."""
    claims = claims or {}
    done = 0
    for card in cards.replace("|", " ").split():
        if card == "stuk":
            state.apply({"seat": state.to_act(), "type": "announce", "call": "stuk"})
            continue
        state.apply({"seat": state.to_act(), "type": "play", "card": card})
        if state.to_act() is not None and state.view(state.to_act())["phase"] == "claim":
            trick = len(state.view(None)["tricks"]) - 1
            call = "roem" if claims.get(trick, True) else "pass"
            state.apply({"seat": state.to_act(), "type": "announce", "call": call})
        done += 1


def roem_items(result):
    return [(i["item"], i["team"], i["trick"], i["value"]) for i in result["breakdown"]
            if i["item"].startswith("roem")]


# ---- options ---------------------------------------------------------------------------------
def test_options_are_declared_with_their_defaults():
    options = games.get("klaverjas").options.as_dict()
    assert (options["bidding"], options["stuk"], options["roem_claim"]) == ("none", "same_trick", False)


@pytest.mark.parametrize("bad,name", [
    ({"bidding": "frisian"}, "bidding"), ({"stuk": "always"}, "stuk"), ({"roem_claim": "yes"}, "roem_claim"),
    ({"bidding": "drents", "ruleset": "utrecht"}, "bidding"),
    ({"bidding": "drents", "trump_choice": "compulsory"}, "bidding"),
    ({"stuk": "declared", "roem": False}, "stuk"), ({"roem_claim": True, "roem": False}, "roem_claim")])
def test_bad_options_name_the_option(bad, name):
    with pytest.raises(OptionError) as err:
        games.get("klaverjas", bad)
    assert name in str(err.value)


# ---- 12: the Drents auction ------------------------------------------------------------------
def test_the_auction_bids_rise_and_its_winner_names_trumps():
    state = deal(DRENTS, S11)
    assert state.view(0)["phase"] == "point_auction"
    assert [a["call"] for a in state.legal_actions()] == (
        ["pass"] + [f"points_{n}" for n in range(80, 161, 10)] + ["pit"])
    bid(state, "points_80", "pass", "points_90", "pass")
    assert state.to_act() == 0 and state.view(0)["bids"] == ["points_80", "pass", "points_90", "pass"]
    assert state.view(None)["passes"] == 2
    assert [a["call"] for a in state.legal_actions()][:2] == ["pass", "points_100"]
    before = state.record()
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 0, "type": "bid", "call": "points_90"})
    assert err.value.reason_id == "BID_NOT_HIGHER" and state.record() == before
    bid(state, "pass")                                  # seats 1, 3 and 0 have passed
    assert state.to_act() == 2 and state.view(2)["phase"] == "bidding"
    assert [a["call"] for a in state.legal_actions()] == ["trump"] * 4
    bid(state, "trump H")
    assert state.to_act() == 0                          # eldest leads
    play(state, S11_PLAY)
    result = state.result()
    assert result["contract"]["bid"] == "points_90" and result["contract"]["forced"] is False
    assert result["team_totals"] == [81, 81] and result["contract"]["outcome"] == "nat"
    assert result["scores"] == [0, 162, 0, 162]


@pytest.mark.parametrize("points,outcome,scores", [(90, "made", [91, 71, 91, 71]), (100, "nat", [0, 162, 0, 162])])
def test_the_bid_is_a_hurdle(points, outcome, scores):
    """91 card points against 71 (roem off): a bid of 90 is made, 100 is nat."""
    state = deal({**DRENTS, "roem": False}, ROEM)
    bid(state, f"points_{points}", "pass", "pass", "pass", "trump H")
    play(state, ROEM_PLAY)
    result = state.result()
    assert result["team_totals"] == [91, 71]
    assert (result["contract"]["outcome"], result["scores"]) == (outcome, scores)


def test_all_pass_eldest_plays_80_forced_and_pit_bids_end_the_auction():
    state = deal(DRENTS, SUITED)
    bid(state, "pass", "pass", "pass", "pass")
    assert state.to_act() == 0 and [a["call"] for a in state.legal_actions()] == ["trump"] * 4
    assert state.why_illegal({"seat": 0, "type": "bid", "call": "pass"}).startswith("all four players passed")
    bid(state, "trump H")
    play(state, " ".join(rank + suit for rank in "J9ATKQ87" for suit in "HCSD"))
    contract = state.result()["contract"]
    assert (contract["bid"], contract["forced"], contract["outcome"]) == ("points_80", True, "made")

    state = deal(DRENTS, SUITED)
    bid(state, "pit")                                   # the highest bid ends it at once
    assert state.to_act() == 0 and state.view(0)["phase"] == "bidding"
    bid(state, "trump H")
    play(state, " ".join(rank + suit for rank in "J9ATKQ87" for suit in "HCSD"))
    result = state.result()
    assert result["contract"]["bid"] == "pit" and result["scores"] == [862, 0, 862, 0]


def test_a_failed_pit_bid_is_nat():
    state = deal(DRENTS, S11)
    bid(state, "pass", "pass", "pit", "trump H")
    play(state, S11_PLAY)
    assert state.result()["contract"]["outcome"] == "nat"


# ---- 13: declared stuk -----------------------------------------------------------------------
def test_a_declared_stuk_counts_for_the_holder_whoever_wins_the_trick():
    state = deal({"stuk": "declared"}, STUK)
    bid(state, "trump H")
    play(state, "KH 9H 7H 8H | JH AH TH")
    legal = state.legal_actions()
    assert {"seat": 0, "type": "announce", "call": "stuk"} in legal
    with pytest.raises(ActionError):                    # not his turn, and no stuk of his
        state.apply({"seat": 1, "type": "announce", "call": "stuk"})
    state.apply({"seat": 0, "type": "announce", "call": "stuk"})
    assert state.legal_actions() == [{"seat": 0, "type": "play", "card": "QH"}]
    play(state, STUK_PLAY.split("stuk ")[1])
    result = state.result()
    assert roem_items(result) == [("roem_run3", 1, 0, 20), ("roem_run3", 1, 1, 20), ("roem_stuk", 0, 1, 20),
                                  ("roem_run3", 0, 5, 20), ("roem_run3", 0, 6, 20), ("roem_run3", 0, 7, 20)]
    assert result["team_totals"] == [180, 102] and result["scores"] == [180, 102, 180, 102]
    assert ("roem_stuk", 0, 1, 20) in roem_items({"breakdown": state.view(3)["roem"]})


def test_a_stuk_not_said_is_lost_and_the_same_trick_stuk_is_off():
    state = deal({"stuk": "declared"}, STUK)
    bid(state, "trump H")
    play(state, STUK_PLAY.replace("stuk ", ""))
    assert state.result()["team_totals"] == [160, 102]
    # the one-suit deal: KH and QH in tricks 4 and 5 by one player; never in the same trick
    state = deal({"stuk": "declared"}, SUITED)
    bid(state, "trump H")
    cards = " ".join(rank + suit for rank in "J9ATKQ87" for suit in "HCSD")
    play(state, cards.replace("QH", "stuk QH"))
    assert ("roem_stuk", 0, 5, 20) in roem_items(state.result())
    assert state.result()["scores"] == [882, 0, 882, 0]


# ---- 14: claimed roem ------------------------------------------------------------------------
def test_roem_not_claimed_is_lost():
    state = deal({"stuk": "declared", "roem_claim": True}, STUK)
    bid(state, "trump H")
    play(state, "KH 9H 7H 8H | JH AH TH stuk")       # trick 1's 9 8 7 claimed by seat 1
    state.apply({"seat": 0, "type": "play", "card": "QH"})
    assert state.to_act() == 1 and state.view(1)["phase"] == "claim"
    assert [a["call"] for a in state.legal_actions()] == ["roem", "pass"]
    before = state.record()
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "play", "card": "TC"})
    assert err.value.reason_id == "WRONG_PHASE" and state.record() == before
    state.apply({"seat": 1, "type": "announce", "call": "roem"})
    with pytest.raises(ActionError) as err:            # no roem in sight
        state.apply({"seat": 1, "type": "announce", "call": "roem"})
    assert err.value.reason_id == "NO_ROEM_TO_CLAIM"
    play(state, STUK_PLAY.split("stuk QH |")[1], claims={5: False})
    result = state.result()
    assert ("roem_run3", 0, 5, 20) not in roem_items(result)
    assert result["team_totals"] == [160, 102] and result["scores"] == [160, 102, 160, 102]


# ---- the project's own conformance scenarios ---------------------------------------------------
@pytest.mark.parametrize("line", conformance_lines("klaverjas", "own-scenarios"), ids=lambda line: line["id"])
def test_own_scenarios(line):
    state = records.replay(line["record"])
    result = state.result()
    for key in ("contract", "tricks", "card_points", "team_totals", "breakdown", "scores"):
        assert result[key] == line["result"][key], key


# ---- properties ------------------------------------------------------------------------------
RANDOM_OPTIONS = [DRENTS, {**DRENTS, "stuk": "declared", "roem_claim": True},
                  {**DRENTS, "ruleset": "rotterdam", "tie_rule": "half_nat", "nat_roem": "own"},
                  {"stuk": "declared", "roem_claim": True, "pit_bonus": 0}]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=st.sampled_from(RANDOM_OPTIONS), seed=st.integers(0, 2**64 - 1), play_seed=st.integers(0, 2**32))
def test_random_deals_keep_the_auction_and_refuse_without_change(opts, seed, play_seed):
    rng = random.Random(play_seed)
    state = games.get("klaverjas", opts).deal(seed=seed, dealer=rng.randrange(4))
    last_bid = 0
    while not state.is_over():
        legal = state.legal_actions()
        seat = state.to_act()
        # a refused action leaves the state as it was, with a reason
        wrong = rng.choice([{"seat": seat, "type": "announce", "call": "roem"},
                            {"seat": seat, "type": "announce", "call": "stuk"},
                            {"seat": seat, "type": "bid", "call": "points_80"},
                            {"seat": seat, "type": "bid", "call": "pass"}])
        if wrong not in legal:
            before = state.record()
            with pytest.raises(ActionError) as err:
                state.apply(wrong)
            assert err.value.reason_id and state.record() == before
        action = rng.choice(legal)
        if state.view(seat)["phase"] == "point_auction" and action["call"] != "pass":
            value = 162 if action["call"] == "pit" else int(action["call"].split("_")[1])
            assert value > last_bid
            last_bid = value
        state.apply(action)
    result = state.result()
    contract = result["contract"]
    if opts.get("bidding") == "drents":
        assert contract["bid"] == ("pit" if last_bid == 162 else f"points_{last_bid or 80}")
        assert contract["forced"] == (last_bid == 0)
    if contract["outcome"] == "made":
        assert result["team_totals"][0] > result["team_totals"][1]
    assert records.replay(state.record()).result() == result


# ---- bots ------------------------------------------------------------------------------------
def test_easy_and_normal_bid_by_strength_and_never_over_the_partner():
    hands = ["JH 9H AH TH KH AC AS AD", "8H 7H KC QC 8S 7S 7D 9D"]
    rest = sorted({r + s for r in "ATKQJ987" for s in "CSHD"} - set(" ".join(hands).split()))
    strong = deal(DRENTS, hands + [" ".join(rest[:8]), " ".join(rest[8:])])
    for level in ("easy", "normal"):
        action = bots.get("klaverjas", level, options=DRENTS).choose(strong.view(0))
        assert action["call"].startswith("points_") or action["call"] == "pit"
    weak = deal(DRENTS, S11)
    bid(weak, "points_80")
    assert bots.get("klaverjas", "easy", options=DRENTS).choose(weak.view(1))["call"] == "pass"


def test_every_level_says_stuk_and_claims_roem():
    state = deal({"stuk": "declared", "roem_claim": True}, STUK)
    bid(state, "trump H")
    play(state, "KH 9H 7H 8H | JH AH TH")
    for level in ("easy", "normal", "hard"):
        bot = bots.get("klaverjas", level, options={"stuk": "declared", "roem_claim": True})
        assert bot.choose(state.view(0))["call"] == "stuk"
    play(state, "stuk")
    state.apply({"seat": 0, "type": "play", "card": "QH"})
    for level in ("easy", "normal", "hard"):
        bot = bots.get("klaverjas", level, options={"stuk": "declared", "roem_claim": True})
        assert bot.choose(state.view(1))["call"] == "roem"
