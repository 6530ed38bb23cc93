"""Doppelkopf's picture solos (option `picture_solos`, docs/rules/doppelkopf.md 3.7.1 and 4):
the Damen-Buben-Solo (queens above jacks the only trumps) and the Koenigssolo (kings the only
trumps): the option and its refusal, the appended call codes, the card orders, concrete tricks,
scoring as a solo, the bots' reservation rule, the solver against minimax, and a property over
random deals (zero-sum, every trick won as the order says)."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine_core import batch, bots, games, records, solver
from engine_core.cards import DOPPELKOPF
from engine_core.errors import ActionError, OptionError
from engine_core.games.doppelkopf import rules

from test_solver import minimax
from moves import bids, play

ON = {"picture_solos": True}
# docs/rules/doppelkopf.md 12, "House rules: the picture solos": seat 0 holds 8 of the 16
# Damen-Buben trumps (five queens)
PICTURE = ["QC QC QS QS QH JC JC JS AC AC TC KC", "QH QD JH JD TH TH AH KH 9H AS 9S 9C",
           "QD JS JH JD AD AD TD KD 9D KS KS TC", "KC 9C AS TS TS 9S AH KH 9H TD KD 9D"]
TRUMPS = {"queens_jacks": "QC QS QH QD JC JS JH JD", "kings": "KC KS KH KD"}


def deal(options, hands=PICTURE, dealer=3):
    return games.get("doppelkopf", options).new_deal([h.split() for h in hands], dealer)


def test_option_is_declared_off_by_default_and_checked():
    spec = {o.name: o for o in games.spec_of("doppelkopf").options}["picture_solos"]
    assert (spec.kind, spec.default, spec.status) == ("bool", False, "supported")
    with pytest.raises(OptionError, match="options.picture_solos: must be true or false"):
        games.get("doppelkopf", {"picture_solos": "yes"})
    assert games.get("doppelkopf", ON).options.as_dict()["picture_solos"] is True


def test_calls_are_appended_so_old_codes_stay_put():
    names = [entry[1] for entry in rules.CALL_TABLE]
    assert names[-3:] == ["throw_in", "solo_queens_jacks", "solo_kings"]
    assert names.index("solo_aces") == 9 and names.index("throw_in") == 18


def test_off_the_picture_solos_are_refused_with_the_option_named():
    state = deal({})
    calls = [a["call"] for a in state.legal_actions()]
    assert "solo_queens_jacks" not in calls and "solo_kings" not in calls
    before = state.record()
    with pytest.raises(ActionError) as err:
        state.apply({"seat": 0, "type": "bid", "call": "solo_kings"})
    assert err.value.reason_id == "PICTURE_SOLOS_OFF" and "option picture_solos" in err.value.reason
    assert state.record() == before


def test_on_every_seat_may_bid_them_after_the_seven_solos():
    state = deal(ON)
    calls = [a["call"] for a in state.legal_actions()]
    assert calls[-2:] == ["solo_queens_jacks", "solo_kings"] and "solo_aces" in calls


def expected_sort(kind):
    trumps = TRUMPS[kind].split()
    out = [c for c in trumps for _ in range(2)]
    for s in "CSHD":
        out += [r + s for r in "ATKQJ9" for _ in range(2) if r + s not in trumps]
    return out


@pytest.mark.parametrize("kind", ["queens_jacks", "kings"])
def test_card_order(kind):
    state = deal(ON)
    bids(state, "solo_" + kind, "healthy", "healthy", "healthy")
    contract = state.view(0)["contract"]
    assert (contract["type"], contract["declarer"], contract["trumps"], contract["solo"]) == ("solo", 0, kind, kind)
    assert [DOPPELKOPF.code(i) for i in state.core.sort_cards((1 << 48) - 1)] == expected_sort(kind)


def test_buben_damen_worked_example_tricks():
    """A queen beats a jack, a jack beats the led plain ace, TH is a plain heart."""
    state = deal(ON)
    bids(state, "solo_queens_jacks", "healthy", "healthy", "healthy")
    play(state, "JC JD QD 9D | AD KD JS TH | QC QH JH AH")
    winners = [t[2] for t in state.view(None)["tricks"]]
    assert winners == [2, 0, 0]
    # a heart lead must be followed with TH (plain), not with a trump
    assert state.to_act() == 0


def test_kings_solo_tricks():
    state = deal(ON)
    bids(state, "healthy", "solo_kings", "healthy", "healthy")
    assert state.view(0)["contract"]["declarer"] == 1
    # seat 3's KC is a trump, so on the club lead he must play his 9C
    play(state, "AC 9C TC")
    assert {a["card"] for a in state.legal_actions() if a["type"] == "play"} == {"9C"}
    play(state, "9C")
    # kings in suit order: KC over KH, KS, KD; then QS is a plain spade: seat 1 must follow
    # with a spade (not QH), and the spade ace wins
    play(state, "KC KH KS KD | QS")
    assert {a["card"] for a in state.legal_actions() if a["type"] == "play"} == {"AS", "9S"}
    play(state, "AS JS TS")
    assert [t[2] for t in state.view(None)["tricks"]] == [0, 0, 1]


def test_picture_solo_is_scored_as_a_solo():
    state = deal(ON)
    bids(state, "solo_queens_jacks", "healthy", "healthy", "healthy")
    while not state.is_over():
        state.apply(next(a for a in state.legal_actions() if a["type"] == "play"))
    result = state.result()
    assert result["contract"]["scored_as_solo"] is True
    s = result["scores"]
    assert sum(s) == 0 and s[1] == s[2] == s[3] and s[0] == -3 * s[1]
    assert not any(i["item"] in ("doppelkopf", "fox_caught", "karlchen") for i in result["breakdown"])


def test_easy_and_normal_bid_a_buben_damen_hand():
    for level in ("easy", "normal"):
        bot = bots.get("doppelkopf", level, seed=1, options=games.get("doppelkopf", ON).options.as_dict())
        assert bot.choose(deal(ON).view(0))["call"] == "solo_queens_jacks"
        # without the option the same hand (five queens are no Damensolo) announces its
        # Hochzeit (both club queens)
        plain = bots.get("doppelkopf", level, seed=1, options=games.get("doppelkopf").options.as_dict())
        assert plain.choose(deal({}).view(0))["call"] == "hochzeit"


def test_easy_bids_a_kings_solo_on_six_kings():
    hands = ["KC KC KS KS KH KD AC AS AH 9D 9C 9S", "QC QC QS QS QH QH JC JC JS JS JH JH",
             "QD QD JD JD AC AS AH AD AD TC TC TS", "TS TH TH TD TD KH KD 9C 9S 9H 9H 9D"]
    bot = bots.get("doppelkopf", "easy", seed=1, options=games.get("doppelkopf", ON).options.as_dict())
    assert bot.choose(deal(ON, hands).view(0))["call"] == "solo_kings"


def picture_records(seed, n):
    """Records of random deals under the option whose contract is a picture solo."""
    found = []
    for k in range(n * 40):
        record = batch.playout_record("doppelkopf", ON, seed=seed, k=k, bids="uniform")
        state = records.replay(record)
        contract = state.result()["contract"]
        if contract["type"] == "solo" and contract["solo"] in TRUMPS:
            found.append((record, state))
            if len(found) == n:
                break
    return found


def strength(card, led, kind):
    """An oracle independent of the engine's tables: trumps above the led plain suit."""
    trumps = TRUMPS[kind].split()
    if card in trumps:
        return 100 - trumps.index(card)
    if led not in trumps and card[1] == led[1]:
        return 10 - "ATKQJ9".index(card[0])
    return 0


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000))
def test_property_zero_sum_and_tricks_follow_the_order(seed):
    found = picture_records(seed, 1)
    assert found, "no picture solo in 40 random deals"
    for record, state in found:
        result = state.result()
        kind = result["contract"]["solo"]
        assert sum(result["scores"]) == 0
        assert sum(result["card_points"]) == 240
        for leader, cards, winner in state.view(None)["tricks"]:
            keys = [strength(c, cards[0], kind) for c in cards]
            best = keys.index(max(keys))          # of equal cards the first wins
            assert winner == (leader + best) % 4, (kind, leader, cards, winner)


@pytest.mark.parametrize("seed", range(2))
def test_solver_equals_minimax_in_picture_solos(seed):
    rng = random.Random(seed)
    checked = 0
    for record, _ in picture_records(seed, 3):
        state = records.new_state(record)
        plays = 0
        keep = 36 + rng.randrange(4)
        for action in record["actions"]:
            if action["type"] == "play":
                if plays == keep:
                    break
                plays += 1
            state.apply(action)
        if not state.core.legal_mask():
            continue
        solution = solver.solve(state)
        side = solution.objective.side
        assert solution.exact and solution.value == minimax(state, state.core.copy(), side)
        checked += 1
    assert checked >= 2
