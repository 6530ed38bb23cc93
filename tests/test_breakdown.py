"""The breakdown explains the scores: read by each game's rules (tests/breakdown.py), the items
of every deal give exactly the scores the engine awards, over random deals with random
declared options (docs/records.md: the breakdown is itemised "so that the scores can be checked
from it"). The web page's breakdown is checked the same way in test_web_page."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from breakdown import BreakdownError, settle
from engine_core import games
from engine_core.errors import OptionError

OWN_GAMES = ("schafkopf", "doppelkopf", "sheepshead", "klaverjas")
QUIET = ("pass", "healthy", "decline", "no")


def _option_values(spec) -> st.SearchStrategy:
    """Every supported option of the game drawn from its declared values and ranges (kept small
    where the range is huge, so that scores stay readable in a failure)."""
    fields = {}
    for o in spec.options:
        if o.status != "supported":
            continue
        if o.kind == "bool":
            fields[o.name] = st.booleans()
        elif o.kind == "choice":
            fields[o.name] = st.sampled_from(o.allowed)
        elif o.kind == "int":
            fields[o.name] = (st.sampled_from(o.allowed) if o.allowed
                              else st.integers(o.minimum or 0, min(o.maximum or 64, 64)))
        elif o.kind == "int_list":
            fields[o.name] = st.lists(st.integers(o.minimum or 0, min(o.maximum or 64, 64)), min_size=1, max_size=4)
    return st.fixed_dictionaries({}, optional=fields)


def _play(game, seed: int, bidders: int):
    """A deal to its end by random legal actions, where only the first `bidders` seats after
    the dealer bid at random and the rest pass (or say healthy, decline) whenever they may:
    without that, random bidding is nearly always the highest solo, and the contracts nobody
    bids into (Ramsch, Leaster, a normal Doppelkopf game) would never come up."""
    rng = random.Random(seed)
    state = game.deal(seed, seed % game.seats)
    bidding = {(state.dealer + 1 + i) % game.seats for i in range(bidders)}
    while not state.is_over():
        legal = state.legal_actions()
        calm = [a for a in legal if a["type"] in QUIET or a.get("call") in QUIET]
        state.apply(calm[0] if calm and state.to_act() not in bidding else rng.choice(legal))
    return state.result()


@pytest.mark.parametrize("name", OWN_GAMES)
def test_the_breakdown_gives_the_scores(name):
    spec = games.spec_of(name)

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(options=_option_values(spec), seed=st.integers(0, 2**63 - 1), bidders=st.integers(0, spec.seats))
    def check(options, seed, bidders):
        try:
            game = games.get(name, options)
        except OptionError:         # a combination the game refuses (tested in its own files)
            return
        result = _play(game, seed, bidders)
        assert settle(name, result, game.seats) == result["scores"], result

    check()


# Deals whose breakdown carries every kind of item the readings use: a base, a factor, a team
# value, the picker's shares, roem and a total.
SAMPLES = {"schafkopf": ({"kontra": True, "ramsch": True}, 3), "doppelkopf": ({}, 5),
           "sheepshead": ({}, 2), "klaverjas": ({}, 1)}


@pytest.mark.parametrize("name", OWN_GAMES)
def test_a_changed_item_no_longer_gives_the_scores(name):
    """The reading is not vacuous: raising any item with a value or factor by one breaks the
    sum (or is refused as inconsistent), and an unknown item is refused."""
    options, seed = SAMPLES[name]
    game = games.get(name, options)
    result = next(r for s in range(seed, seed + 400) for r in [_play(game, s, game.seats)]
                  if any(r["scores"]) and r["breakdown"])
    assert settle(name, result, game.seats) == result["scores"]
    informational = {"picker_team_points", "defender_points", "blind_set_aside", "blind_to_last_trick",
                     "leaster_tie", "doubler", "doubler_cap", "picker_team_wins", "picker_team_loses",
                     "schwanzer_points", "schwanzer_tie",
                     "partner_exempt"}      # what the payout is not made of (flags and figures)
    changed = 0
    for i, item in enumerate(result["breakdown"]):
        for key in ("value", "factor"):
            if key not in item or item["item"] in informational:
                continue
            altered = copy.deepcopy(result)
            altered["breakdown"][i][key] += 1
            try:
                assert settle(name, altered, game.seats) != result["scores"], (item, key)
            except BreakdownError:
                pass
            changed += 1
    assert changed >= 2, result["breakdown"]
    unknown = copy.deepcopy(result)
    unknown["breakdown"].append({"item": "mystery_bonus", "value": 5})
    with pytest.raises(BreakdownError):
        settle(name, unknown, game.seats)


def test_a_klaverjas_pit_counts_in_the_total():
    """A pit (every trick to one team) is rare in random play: the docs' deal where each hand
    is one suit and seat 0 takes every trick (cards 162, roem 600, pit 100: 862)."""
    game = games.get("klaverjas")
    suits = "HCSD"
    state = game.new_deal([[rank + suit for rank in "J9ATKQ87"] for suit in suits], dealer=3)
    for seat in range(4):
        state.apply({"seat": seat, "type": "bid", "call": "pass"})
    state.apply({"seat": 0, "type": "bid", "call": "trump", "suit": "H"})
    for rank in "J9ATKQ87":
        for seat in range(4):
            state.apply({"seat": seat, "type": "play", "card": rank + suits[seat]})
    result = state.result()
    assert [b for b in result["breakdown"] if b["item"] == "pit"] and result["scores"] == [862, 0, 862, 0]
    assert settle("klaverjas", result, 4) == [862, 0, 862, 0]


def test_the_stock_items_count_in_the_scores():
    """Schafkopf's Stock (docs/rules/schafkopf.md 7.9): a thrown-in deal's `stock_in` is paid by
    every seat, a won game's `stock_out` shared by its winners; changing either changes the
    scores, and a pot the winners cannot share evenly is refused."""
    hands = [h.split() for h in ("KD 7D 7H JC TS QH KC KS", "7S AS 8C QD KH JS TC JH",
                                 "AC AH AD 9C QS 8H 9H TD", "JD 9S 8D 8S 9D QC 7C TH")]
    game = games.get("schafkopf", {"stock": 10, "stock_pot": 40})
    thrown = game.new_deal(hands, 3)
    for seat in range(4):
        thrown.apply({"seat": seat, "type": "bid", "call": "pass"})
    won = game.new_deal(hands, 3)
    won.apply({"seat": 0, "type": "bid", "call": "rufspiel", "suit": "D"})
    for seat in (1, 2, 3):
        won.apply({"seat": seat, "type": "bid", "call": "pass"})
    for card in ("JC QD AH JD JH 9H QC 7H 7C KC 8C AC QS TH QH KH 9C 9D KD TC 7S TD 9S KS"
                 " TS AS 8H 8S AD 8D 7D JS").split():
        won.apply({"seat": won.to_act(), "type": "play", "card": card})
    for state, item, scores in ((thrown, "stock_in", [-10] * 4), (won, "stock_out", [30, -10, 30, -10])):
        result = state.result()
        assert result["scores"] == scores and settle("schafkopf", result, 4) == scores
        (i,) = [k for k, b in enumerate(result["breakdown"]) if b["item"] == item]
        for step in (2, 1):
            altered = copy.deepcopy(result)
            altered["breakdown"][i]["value"] += step
            try:
                assert settle("schafkopf", altered, 4) != scores
            except BreakdownError:
                assert step == 1 and item == "stock_out"        # 41 does not split in two


def test_the_doppelkopf_bock_item_multiplies_the_scores():
    """Bockrunden (docs/rules/doppelkopf.md 9.1): the `bock` item's factor multiplies every
    seat's score; another factor changes the scores, and a factor that is not 2^count is refused."""
    hands = [h.split() for h in ("QC AC AS AH 9D QS KC KS QH JH AD JC", "9D 9C TS KH AD JC 9C 9S QD JS TD JD",
                                 "KD TC KS 9H QC TH AC AS QH JH QD KH", "JD KC 9S AH TD QS TC TS TH JS KD 9H")]
    state = games.get("doppelkopf", {"bockrunden": "tie", "bock": 2, "bock_next": [1, 1, 0]}).new_deal(hands, 3)
    for call in ("healthy", "healthy", "solo_diamonds", "healthy"):
        state.apply({"seat": state.to_act(), "type": "bid", "call": call})
    for card in ("QC 9D KD JD AC 9C TC KC AS TS KS 9S AH KH 9H AH 9D AD QC TD TH QS QS JC AC TC KC 9C"
                 " AS TS KS 9S QH TH QH QD JS JH JS JH KD AD TD QD KH 9H JC JD").split():
        state.apply({"seat": state.to_act(), "type": "play", "card": card})
    result = state.result()
    assert result["breakdown"][-1] == {"item": "bock", "count": 2, "factor": 4}
    assert result["scores"] == [4, 4, -12, 4] and settle("doppelkopf", result, 4) == result["scores"]
    altered = copy.deepcopy(result)
    altered["breakdown"][-1].update(count=3, factor=8)
    assert settle("doppelkopf", altered, 4) == [8, 8, -24, 8]
    altered["breakdown"][-1]["factor"] = 6
    with pytest.raises(BreakdownError, match="factor 2\\^count"):
        settle("doppelkopf", altered, 4)
