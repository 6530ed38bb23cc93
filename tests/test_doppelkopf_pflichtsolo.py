"""Doppelkopf's Pflichtsolo (docs/rules/doppelkopf.md 9.2): the options and their errors, a
Pflichtsolo before a Lustsolo, the Pflicht-soloist's lead, the redeal by the same dealer that
does not count, the Vorfuehrung (only solos for the seat that must play, refused otherwise with
MUST_PLAY_A_SOLO), a match through the match layer that plays its Vorfuehrung before it ends,
the rules page's worked example as own scenario lines, and properties over random deals and
option sets."""
import json
import pathlib
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine_core import games
from engine_core.errors import IllegalActionError, OptionError
from engine_core.match import Match

SPEC = games.spec_of("doppelkopf")
OWN = pathlib.Path(__file__).parent / "conformance" / "doppelkopf" / "own-scenarios.jsonl"
# the first deal of the rules page's worked examples (section 12), dealt here by seat 0
L1 = ["QC AC AS AH 9D QS KC KS QH JH AD JC", "9D 9C TS KH AD JC 9C 9S QD JS TD JD",
      "KD TC KS 9H QC TH AC AS QH JH QD KH", "JD KC 9S AH TD QS TC TS TH JS KD 9H"]
SOLOS = ["solo_diamonds", "solo_hearts", "solo_spades", "solo_clubs", "solo_queens", "solo_jacks",
         "solo_aces"]


def deal(options, dealer=0):
    return games.get("doppelkopf", options).new_deal([h.split() for h in L1], dealer)


def bid(state, *calls):
    for call in calls:
        state.apply({"seat": state.to_act(), "type": "bid", "call": call})


def finish(state, rng=None):
    rng = rng or random.Random(0)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return state.result()


# ---- options ----
def test_the_options_are_declared():
    by_name = {o.name: o for o in SPEC.options}
    assert (by_name["pflichtsolo"].kind, by_name["pflichtsolo"].default) == ("int", 0)
    assert by_name["pflicht_played"].status == by_name["pflicht_round_deals"].status == "match_state"


@pytest.mark.parametrize("options, where, words", [
    ({"pflichtsolo": -1}, "options.pflichtsolo", "must be an integer 0..1000"),
    ({"pflichtsolo": True}, "options.pflichtsolo", "must be an integer"),
    ({"pflicht_played": [1, 0, 0, 0]}, "options.pflicht_played", "needs the rule"),
    ({"pflicht_round_deals": 2}, "options.pflicht_round_deals", "needs the rule"),
    ({"pflichtsolo": 4, "pflicht_played": [1, 0, 0]}, "options.pflicht_played", "must list the 4 seats"),
    ({"pflichtsolo": 4, "pflicht_played": [2, 0, 0, 0]}, "options.pflicht_played", "0..1"),
    ({"pflichtsolo": 4, "pflicht_round_deals": 5}, "options.pflicht_round_deals", "a round has 4"),
    ({"pflichtsolo": 4, "pflicht_round_deals": 4, "pflicht_played": [1, 1, 1, 1]},
     "options.pflicht_round_deals", "the round is complete"),
])
def test_bad_options_name_the_option(options, where, words):
    with pytest.raises(OptionError) as err:
        games.get("doppelkopf", options)
    assert err.value.field == where and words in str(err.value)


# ---- a deal ----
def test_a_solo_by_an_owing_seat_is_its_pflichtsolo_and_the_soloist_leads():
    state = deal({"pflichtsolo": 4})
    bid(state, "healthy", "solo_diamonds", "healthy", "healthy")
    assert state.to_act() == 2               # the Pflicht-soloist leads, not seat 1
    result = finish(state)
    assert result["contract"]["solo_kind"] == "pflicht" and result["contract"]["declarer"] == 2
    nxt = SPEC.next_deal(result, 0, state.game.options)
    assert (nxt.dealer, nxt.counts) == (0, False)
    assert nxt.carry == {"pflicht_played": [0, 0, 1, 0], "pflicht_round_deals": 0}


def test_a_pflichtsolo_goes_before_an_earlier_lustsolo():
    state = deal({"pflichtsolo": 4, "pflicht_played": [0, 1, 0, 0]})
    bid(state, "solo_queens", "solo_diamonds", "healthy", "healthy")   # seat 1 played already
    assert state.view(None)["contract"]["solo_kind"] == "pflicht"
    assert state.view(None)["contract"]["declarer"] == 2 and state.to_act() == 2


def test_a_lustsolo_is_a_regular_deal():
    state = deal({"pflichtsolo": 4, "pflicht_played": [0, 0, 1, 0], "pflicht_round_deals": 1})
    bid(state, "healthy", "solo_diamonds", "healthy", "healthy")
    assert state.to_act() == 1               # the usual lead
    result = finish(state)
    assert result["contract"]["solo_kind"] == "lust"
    nxt = SPEC.next_deal(result, 0, state.game.options)
    assert (nxt.dealer, nxt.counts) == (1, True)
    assert nxt.carry == {"pflicht_played": [0, 0, 1, 0], "pflicht_round_deals": 2}


def test_without_the_option_a_solo_has_no_kind_and_scores_the_same():
    plain, pflicht = deal({}), deal({"pflichtsolo": 4, "solo_player_leads": True})
    plain_lead = deal({"solo_player_leads": True})
    for state in (plain, pflicht, plain_lead):
        bid(state, "healthy", "solo_diamonds", "healthy", "healthy")
    assert "solo_kind" not in plain.view(None)["contract"]
    rng = random.Random(5)
    while not pflicht.is_over():
        action = rng.choice(pflicht.legal_actions())
        pflicht.apply(action)
        plain_lead.apply(action)
    assert pflicht.result()["scores"] == plain_lead.result()["scores"]


def test_the_vorfuehrung_allows_only_solos_to_the_seat_that_must_play():
    options = {"pflichtsolo": 4, "pflicht_played": [1, 0, 1, 1], "pflicht_round_deals": 4}
    state = deal(options)
    assert [a["call"] for a in state.legal_actions()] == SOLOS
    before = state.view(0)
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 1, "type": "bid", "call": "healthy"})
    assert err.value.reason_id == "MUST_PLAY_A_SOLO" and state.view(0) == before
    bid(state, "solo_hearts", "solo_clubs", "healthy", "healthy")      # seat 2's solo does not count
    contract = state.view(None)["contract"]
    assert (contract["declarer"], contract["solo_kind"], contract["vorfuehrung"]) == (1, "pflicht", 1)
    result = finish(state)
    nxt = SPEC.next_deal(result, 0, state.game.options)
    assert (nxt.dealer, nxt.counts) == (0, False)
    assert nxt.carry == {"pflicht_played": [0, 0, 0, 0], "pflicht_round_deals": 0}   # a new round


def test_the_first_owing_seat_from_the_dealers_left_must_play():
    options = {"pflichtsolo": 4, "pflicht_played": [0, 1, 1, 0], "pflicht_round_deals": 4}
    state = deal(options, dealer=1)
    # seats 2 and 1 have played: seat 3 (the first owing seat after dealer 1) must play
    assert [a["call"] for a in state.legal_actions()] == ["healthy", *SOLOS]
    bid(state, "healthy")
    assert [a["call"] for a in state.legal_actions()] == SOLOS


# ---- the match ----
def _play_match(options, seed, policy, healthy=False):
    rng = random.Random(policy)
    match = Match(games.get("doppelkopf", options), seed=seed)
    kinds = []
    while not match.is_over():
        state = match.deal()
        while not state.is_over():
            legal = state.legal_actions()
            calm = [a for a in legal if a.get("call") == "healthy"] if healthy else []
            match.apply(calm[0] if calm else rng.choice(legal))
        result = match.finish_deal()
        contract = result.get("contract") or {}
        kinds.append((contract.get("solo_kind"), contract.get("vorfuehrung"), contract.get("declarer")))
    return match, kinds


@pytest.mark.parametrize("healthy", [False, True])
def test_a_match_plays_every_pflichtsolo_of_each_round(healthy):
    """A match of two rounds of 2 regular deals: random play declares solos (Pflicht first,
    then Lust); seats always healthy leave every Pflichtsolo to the Vorfuehrungen at each
    round's end, each seat once per round, the dealer dealing again after each."""
    match, kinds = _play_match({"pflichtsolo": 2, "deals_per_match": 4}, seed=7, policy=3, healthy=healthy)
    assert match.counted == 4
    pflicht = [k for k in kinds if k[0] == "pflicht"]
    assert len(pflicht) == 8                                # four per round
    assert sorted(k[2] for k in pflicht) == [0, 0, 1, 1, 2, 2, 3, 3]
    if healthy:
        assert all(k[1] == k[2] for k in pflicht)           # all were Vorfuehrungen
    redeals = sum(bool(r.get("redeal")) for r in match.results)
    assert match.dealt == match.counted + len(pflicht) + redeals
    assert sum(match.totals) == 0 and not match.carry.get("pflicht_round_deals")


def test_the_match_is_not_over_while_a_seat_owes_its_vorfuehrung():
    match = Match(games.get("doppelkopf", {"pflichtsolo": 1, "deals_per_match": 1}), seed=11)
    state = match.deal()
    while not state.is_over():
        legal = state.legal_actions()
        healthy = [a for a in legal if a.get("call") == "healthy"]
        match.apply(healthy[0] if healthy else legal[0])
    match.finish_deal()
    if match.counted == 1:
        assert not match.is_over() and match.game.options.pflicht_round_deals == 1
        progress = match.progress()
        again = Match.resume(games.get("doppelkopf", {"pflichtsolo": 1, "deals_per_match": 1}), 11, progress)
        assert not again.is_over()
        state = again.deal()
        assert all(a["call"] in SOLOS for a in state.legal_actions())


# ---- own conformance scenarios (run with the others by test_doppelkopf_variants) ----
def test_own_scenarios_show_the_worked_example():
    lines = {line["id"]: line for line in map(json.loads, OWN.read_text().splitlines())
             if line["id"].startswith("own-pflicht")}
    pflicht, lust, vorf = (lines[k]["result"] for k in ("own-pflichtsolo", "own-pflicht-lustsolo",
                                                        "own-pflicht-vorfuehrung"))
    assert pflicht["contract"]["solo_kind"] == "pflicht" and pflicht["tricks"][0][0] == 2
    assert lust["contract"]["solo_kind"] == "lust" and lust["tricks"][0][0] == 1
    assert vorf["contract"]["vorfuehrung"] == 1 and vorf["tricks"][0][0] == 1


# ---- properties ----
OPTION_SETS = st.fixed_dictionaries({
    "pflichtsolo": st.integers(1, 6),
    "played": st.lists(st.integers(0, 1), min_size=4, max_size=4),
    "done": st.integers(0, 6),
    "solo_player_leads": st.booleans(),
    "picture_solos": st.booleans(),
    "nines": st.booleans(),
    "throw_in": st.booleans(),
})


@settings(max_examples=40, deadline=None)
@given(opts=OPTION_SETS, seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3), policy=st.integers(0, 2**32))
def test_random_deals_keep_the_pflicht_rules(opts, seed, dealer, policy):
    done = min(opts["done"], opts["pflichtsolo"])
    if done == opts["pflichtsolo"] and all(opts["played"]):
        done = 0
    options = {"pflichtsolo": opts["pflichtsolo"], "pflicht_played": opts["played"], "pflicht_round_deals": done,
               **{k: opts[k] for k in ("solo_player_leads", "picture_solos", "nines", "throw_in")}}
    game = games.get("doppelkopf", options)
    state = game.deal(seed=seed, dealer=dealer)
    vorfuehrung = done == opts["pflichtsolo"] and not all(opts["played"])
    result = finish(state, random.Random(policy))
    contract = result.get("contract") or {}
    nxt = SPEC.next_deal(result, dealer, game.options)
    games.get("doppelkopf", {**options, **nxt.carry})        # the carried state is accepted
    if vorfuehrung:
        forced = next((dealer + k) % 4 for k in range(1, 5) if not opts["played"][(dealer + k) % 4])
        assert contract["vorfuehrung"] == forced and result["contract"]["declarer"] == forced
    if contract.get("solo_kind") == "pflicht":
        assert not opts["played"][result["contract"]["declarer"]] and (nxt.dealer, nxt.counts) == (dealer, False)
        assert result["tricks"][0][0] == contract["declarer"]
    elif contract.get("solo_kind") == "lust":
        assert opts["played"][result["contract"]["declarer"]] and not vorfuehrung
    assert sum(result["scores"]) == 0
