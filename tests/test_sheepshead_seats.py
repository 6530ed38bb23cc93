"""Sheepshead for 3, 4 and 6 players (issue 28; docs/rules/sheepshead.md 13): the declared seat
variants `sheepshead3`, `sheepshead4` and `sheepshead6` share the five-handed game's rules
(one `_rules.pxi` compiled per seat count). The declarations (sizes, deck, packets, options),
concrete deals (the scoring shares of each seat count, the deck without the black sevens, the
picker alone in the three-handed game), the project's own conformance lines, and hypothesis
properties over random option sets (card conservation, zero-sum scores, a legal action whenever
a seat is to act, no view showing the blind, the bury, the unknown card or the hidden partner,
replay)."""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import games, records
from engine_core.errors import ActionError, InvalidRecordError, OptionError

from conftest import conformance_lines
from test_sheepshead_properties import check_views, read_facts
from moves import act, play

VARIANTS = {"sheepshead3": (3, 10, 32), "sheepshead4": (4, 7, 30), "sheepshead6": (6, 5, 32)}
PARTNER_OPTIONS = {"partner", "no_trick_partner_exempt", "unknown_broad", "call_own_ace", "call_up"}

# option sets for the properties and the bots (the three-handed game takes those without a partner)
OPTION_SETS = [
    {}, {"no_pick": "doubler"}, {"no_pick": "forced_pick"}, {"no_pick": "schwanzer"}, {"leaster_blind": "last_trick"},
    {"cracking": True, "blitz": True}, {"spitz": True, "first_leader": "dealer"},
    {"double_on_the_bump": False, "multiplier": 4},
]
PARTNER_SETS = [
    {"partner": "jack_of_diamonds", "call_up": True}, {"partner": "none"},
    {"call_own_ace": True, "unknown_broad": True, "cracking": True},
    {"no_trick_partner_exempt": True, "blitz": True},
]


def options_for(name):
    return OPTION_SETS + (PARTNER_SETS if name != "sheepshead3" else [])


def deal(name, hands, blind, dealer=0, options=None):
    return games.get(name, options).new_deal([h.split() for h in hands], dealer, blind.split())


# ---- the declarations ------------------------------------------------------------------------
@pytest.mark.parametrize("name", VARIANTS)
def test_sizes_deck_and_packets(name):
    seats, hand, deck = VARIANTS[name]
    spec = games.spec_of(name)
    assert (spec.seats, spec.hand_size, spec.blind_size, spec.deck.size) == (seats, hand, 2, deck)
    assert seats * hand + 2 == deck
    packets = spec.packets(games.get(name).options)
    assert sum(n for _, n in packets) == deck
    assert [n for t, n in packets if t is None] == [2]
    for s in range(seats):
        assert sum(n for t, n in packets if t == s) == hand
    # the same rules: the five-handed game's contracts, phases, calls and reasons
    five = games.spec_of("sheepshead")
    assert (spec.contracts, spec.phases, spec.calls, spec.reasons) == (five.contracts, five.phases,
                                                                        five.calls, five.reasons)
    assert spec.rules is not five.rules
    # the same words, less the names of the five-handed presets
    assert spec.words == {lang: {k: v for k, v in w.items() if k != "presets"} for lang, w in five.words.items()}


def test_four_handed_deck_lacks_the_black_sevens():
    deck = games.spec_of("sheepshead4").deck
    assert "7C" not in deck.faces and "7S" not in deck.faces and "7H" in deck.faces and "7D" in deck.faces
    for seed in range(20):
        state = games.get("sheepshead4").deal(seed, seed % 4)
        cards = [c for h in state.hands for c in h] + state.blind
        assert sorted(cards) == sorted(deck.faces)
    hands = [["7C", "AC", "TC", "KC", "9C", "8C", "QC"]] + [[]] * 3
    with pytest.raises(InvalidRecordError):
        games.get("sheepshead4").new_deal(hands, 0, [])


@pytest.mark.parametrize("name", VARIANTS)
def test_options_with_and_without_a_partner(name):
    declared = {o.name for o in games.spec_of(name).options}
    five = {o.name for o in games.spec_of("sheepshead").options}
    if name == "sheepshead3":
        assert declared == five - PARTNER_OPTIONS
        for option in PARTNER_OPTIONS:
            with pytest.raises(OptionError) as err:
                games.get(name, {option: "none" if option == "partner" else True})
            assert option in str(err.value)
    else:       # six seats also declare the form where the dealer sits out (13, test_sheepshead_sitout.py)
        assert declared == five | ({"dealer_sits_out"} if name == "sheepshead6" else set())
        assert games.get(name).options.partner == "called_ace"
    assert games.get(name, {"no_pick": "schwanzer"}).options.no_pick == "schwanzer"   # 3.12
    with pytest.raises(OptionError, match="no_pick"):
        games.get(name, {"no_pick": "schwanz"})
    assert games.spec_of(name).presets == {}


# ---- concrete deals --------------------------------------------------------------------------
# docs/rules/sheepshead.md 13 "Three-handed: the picker alone takes every trick"
THREE = ["KD 9D AS TS KS 9S 8S 7S AH TH", "QC QS QH QD JC JS JH JD AD TD",
         "8D 7D KH 9H 8H 7H KC 9C 8C 7C"]
THREE_PLAY = ("QC 8D KD | QS 7D 9D | QH KH AH | QD 9H TH | JC 8H AS | JS 7H TS |"
              " JH KC KS | JD 9C 9S | AD 8C 8S | TD 7C 7S")


def test_three_handed_picker_is_alone_and_wins_from_each():
    state = deal("sheepshead3", THREE, "AC TC")
    act(state, "bid pick")
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "bid", "call": "ace", "suit": "H"})
    assert err.value.reason_id == "WRONG_PHASE"        # the bury is an exchange
    act(state, "exchange bury AC TC")
    assert state.view(1)["phase"] == "play" and state.to_act() == 1
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 1, "type": "bid", "call": "alone"})
    assert err.value.reason_id == "WRONG_PHASE"
    play(state, THREE_PLAY)
    result = state.result()
    assert result["contract"]["type"] == "alone" and result["contract"]["partner"] is None
    assert result["card_points"] == [0, 120, 0]
    assert result["scores"] == [-3, 6, -3]          # no trick: 3 units, the picker's share 2


def test_three_handed_loss_on_the_bump_and_the_leaster_shares():
    """The picker's shares at three seats over random deals: alone 2 units from (or to) each
    of the two, doubled on the bump; a leaster's winner gets 2 x M."""
    game = games.get("sheepshead3", {"leaster_blind": "last_trick"})
    seen = set()
    for seed in range(60):
        state = game.deal(seed, seed % 3)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        result = state.result()
        scores = result["scores"]
        assert sum(scores) == 0
        if result["contract"]["type"] == "leaster":
            assert sorted(scores) in ([-1, -1, 2], [0, 0, 0])
            seen.add("leaster")
        else:
            picker = result["contract"]["picker"]
            unit = -scores[(picker + 1) % 3]
            assert scores[picker] == 2 * unit and scores[(picker + 2) % 3] == -unit
            if unit < 0:
                assert -unit in (2, 4, 6)       # lost: level x 2 on the bump
                seen.add("lost")
    assert seen == {"leaster", "lost"}


# docs/rules/sheepshead.md 13 "Four-handed: picker and partner two against two"
FOUR = ["7D AS TS KS 9S 8S KH", "QC QS QH QD JC JS 7H", "8D AC TC KC 9C 8C TH",
        "AH JH JD AD TD KD 9D"]
FOUR_PLAY = "QC 8D 9D 7D | QS 8C KD 8S | QH 9C TD 9S | QD KC AD KS | JC TC JD TS | JS AC JH AS | 7H TH AH KH"


def test_four_handed_called_ace_equal_shares():
    state = deal("sheepshead4", FOUR, "9H 8H")
    act(state, "bid pick", "exchange bury 9H 8H")
    assert [a["suit"] for a in state.legal_actions() if a["call"] == "ace"] == ["H"]
    act(state, "bid ace H")
    play(state, FOUR_PLAY)
    result = state.result()
    assert result["contract"]["partner"] == 3
    assert result["card_points"] == [0, 95, 0, 25]
    assert result["scores"] == [-3, 3, -3, 3]        # two against two: one share each


def test_four_handed_alone_takes_three_shares():
    state = deal("sheepshead4", FOUR, "9H 8H")
    act(state, "bid pick", "exchange bury 9H 8H", "bid alone")
    assert state.result() is None
    play(state, FOUR_PLAY)
    result = state.result()
    assert result["contract"]["type"] == "alone"
    # seat 3 takes the last trick for the defenders: 95 : 25, schneider (defenders <= 29)
    assert result["scores"] == [-2, 6, -2, -2]


# docs/rules/sheepshead.md 13 "Six-handed: the picker's share is three"
SIX = ["9C 8C 7C 9S 8S", "QC QS QH QD 7H", "JC TD AC TC KC", "KD 9D AS TS KS",
       "AH JS JH JD AD", "8D 7D TH KH 9H"]
SIX_PLAY = "QC JC 9D AD 7D 9C | QS TD KD JD 8D 8C | QH AC AS JH 9H 7C | QD TC TS JS KH 9S | 7H KC KS AH TH 8S"


def test_six_handed_picker_three_shares_partner_one():
    state = deal("sheepshead6", SIX, "7S 8H")
    act(state, "bid pick", "exchange bury 7S 8H", "bid ace H")
    play(state, SIX_PLAY)
    result = state.result()
    assert result["contract"]["partner"] == 4
    assert result["card_points"] == [0, 91, 0, 0, 29, 0]
    assert result["scores"] == [-3, 9, -3, -3, 3, -3]


def test_six_handed_leaster_winner_takes_five():
    game = games.get("sheepshead6")
    for seed in range(200):
        state = game.deal(seed)
        while state.view(state.to_act())["phase"] == "pick":
            state.apply({"seat": state.to_act(), "type": "bid", "call": "pass"})
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        scores = state.result()["scores"]
        if any(scores):
            assert sorted(scores) == [-1] * 5 + [5]
            return
    pytest.fail("no leaster with a winner in 200 deals")


# ---- the own conformance lines ---------------------------------------------------------------
@pytest.mark.parametrize("name", VARIANTS)
def test_own_scenarios(name):
    lines = conformance_lines(name, "own-scenarios")
    assert lines
    for line in lines:
        state = records.replay(line["record"])
        assert state.is_over()
        result = state.result()
        for key in ("scores", "card_points", "teams"):
            assert result[key] == line["result"][key], (line["id"], key)
        assert result["contract"]["type"] == line["result"]["contract"]["type"]


# ---- properties ------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32), data=st.data())
def test_random_deals_conserve_cards_and_are_zero_sum(name, seed, data):
    options = data.draw(st.sampled_from(options_for(name)))
    game = games.get(name, options)
    dealer = seed % game.seats
    state = game.deal(seed, dealer)
    deck = sorted(game.deck.faces)
    assert sorted([c for h in state.hands for c in h] + state.blind) == deck
    rng = random.Random(seed)
    facts = {}
    while not state.is_over():
        seat = state.to_act()
        legal = state.legal_actions()
        assert legal and all(a["seat"] == seat for a in legal)
        phase = state.view(seat)["phase"]
        state.apply(rng.choice(legal))
        if phase != "play" and state.view(None)["phase"] == "play":
            read_facts(state, facts)         # the contract is made: no view shows what it may not
            check_views(state, facts)
    check_views(state, facts)
    result = state.result()
    assert sum(result["scores"]) == 0
    if result["contract"]["type"] not in ("doubler", "schwanzer"):      # no card play (3.12)
        tricks = result["tricks"]
        assert len(tricks) == game.spec.hand_size and all(len(t[1]) == game.seats for t in tricks)
        assert sum(result["card_points"]) == 120 or (result["contract"]["type"] == "leaster"
                                                     and not options.get("leaster_blind"))
    again = records.replay(state.record())
    assert again.result()["scores"] == result["scores"]
