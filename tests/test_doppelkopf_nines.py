"""Doppelkopf without the nines (option `nines`, docs/rules/doppelkopf.md 1.1): the option and
its one refused combination, the 40-card deal (10 each, no nine, seeded deals with the nines
unchanged), records with a nine or 12 cards refused, the announcement deadlines counted from
10 cards, 10 tricks to the end (schwarz, Karlchen in the 10th), the card order without nines,
the bots' sampler never placing a nine, the bots of every level, the solver against minimax
and the record codec's fast path against the generic one (a property over random records)."""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine_core import _codec, batch, bots, cli, games, records, solver
from engine_core.bots.inference import Inference
from engine_core.errors import ActionError, InvalidRecordError, OptionError

from test_codec import generic_bytes
from test_solver import minimax, positions
from moves import bids, play

OFF = {"nines": False}
# docs/rules/doppelkopf.md 12, "Without the nines": seats 0 and 1 hold the club queens
HANDS = ["QC QS JC JS AD TD AC TC KC AH", "QC QH JH JD KD AS TS KS AH KH",
         "TH QD QS JC JH AD AC TC KC AS", "TH QH QD JS JD TD KD TS KS KH"]
NINES = {f"9{s}" for s in "CSHD"}


def deal(options=OFF, hands=HANDS, dealer=3):
    return games.get("doppelkopf", options).new_deal([h.split() for h in hands], dealer)


def first_legal_to_end(state):
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(next((a for a in legal if a["type"] != "announce"), legal[0]))


def test_option_is_declared_on_by_default_and_checked():
    spec = {o.name: o for o in games.spec_of("doppelkopf").options}["nines"]
    assert (spec.kind, spec.default, spec.status) == ("bool", True, "supported")
    with pytest.raises(OptionError, match="options.nines: must be true or false"):
        games.get("doppelkopf", {"nines": "no"})
    with pytest.raises(OptionError, match="options.schweinchen: superschweinchen ranks both nines"):
        games.get("doppelkopf", {"nines": False, "schweinchen": "superschweinchen"})
    assert games.get("doppelkopf", {"nines": False, "schweinchen": "schweinchen"}).options.nines is False
    assert all("nines" not in p for p in games.spec_of("doppelkopf").presets.values())


def test_sizes_follow_the_option():
    with9, without = games.get("doppelkopf"), games.get("doppelkopf", OFF)
    assert (with9.hand_size, with9.left_out) == (12, 0)
    assert without.hand_size == 10 and bin(without.left_out).count("1") == 8
    assert set(without.deck.codes(without.left_out)) == NINES
    assert games.spec_of("doppelkopf").hand_size == 12      # the declaration: the most a hand holds


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5])
def test_seeded_deal_is_40_cards_without_nines(seed):
    state = games.get("doppelkopf", OFF).deal(seed, dealer=seed % 4)
    assert [len(h) for h in state.hands] == [10] * 4
    cards = [c for h in state.hands for c in h]
    assert not NINES & set(cards) and all(cards.count(c) == 2 for c in cards)
    # the nines' deal is not moved by the option's code path: its records still replay
    with9 = games.get("doppelkopf").deal(seed, dealer=seed % 4)
    assert [len(h) for h in with9.hands] == [12] * 4
    assert records.replay(with9.record()).hands == with9.hands


def test_a_record_with_a_nine_or_twelve_cards_is_refused():
    game = games.get("doppelkopf", OFF)
    bad = [h.split() for h in HANDS]
    bad[2][9] = "9S"
    with pytest.raises(InvalidRecordError, match=r"hands\[2\]\[9\]: 9S is left out of the deal"):
        game.new_deal(bad, 3)
    with pytest.raises(InvalidRecordError, match=r"hands\[0\]: must be a list of 10 cards"):
        game.new_deal([h.split() + ["9C", "9C"] for h in HANDS], 3)
    record = deal().record()
    record["hands"][2][9] = "9S"
    with pytest.raises(InvalidRecordError):
        records.replay(record)


def test_card_order_leaves_the_nines_out():
    state = deal()
    bids(state, "healthy", "healthy", "healthy", "healthy")
    order = state.view(0)["order"]                      # what the seat and the bots read
    assert order["trump"] == "TH QC QS QH QD JC JS JH JD AD TD KD".split()
    assert order["C"] == ["AC", "TC", "KC"] and order["H"] == ["AH", "KH"] and order["D"] == []
    # with the nines the same order lists them (the option's mask, not the order table, decides)
    with9 = games.get("doppelkopf").deal(0)
    assert with9.core.order_codes()["trump"][-1] == "9D"


def announce_calls(state):
    return [a["call"] for a in state.legal_actions() if a["type"] == "announce"]


def test_announcement_deadlines_count_from_ten_cards():
    """re/kontra need 9 cards (up to one's second card), no_90 8; the re that answers a kontra
    one card fewer than it needs: 8 (docs/rules/doppelkopf.md 1.1, 5.1)."""
    state = deal()
    bids(state, "healthy", "healthy", "healthy", "healthy")
    for card, calls in (("AC", ["re"]), ("AS", ["re"]), ("TC", ["kontra"]), ("KS", ["kontra"])):
        assert announce_calls(state) == calls
        play(state, card)
    assert state.to_act() == 0 and len(state.view(0)["hand"]) == 9
    assert announce_calls(state) == ["re"]              # 9 cards: the second card still may
    play(state, "KC KH")
    state.apply({"seat": 2, "type": "announce", "call": "kontra"})
    assert announce_calls(state) == ["no_90"]           # no_90 needs 8: seat 2 holds 9
    play(state, "KC KH")
    assert state.to_act() == 0 and len(state.view(0)["hand"]) == 8
    assert announce_calls(state) == ["re"]              # the reply to kontra: 10 - 1 - 1 = 8
    play(state, "AH")
    for calls in (["re"], ["no_90"], ["no_90"]):       # seat 1 answers too; Kontra holds 8
        assert announce_calls(state) == calls
        state.apply(next(a for a in state.legal_actions() if a["type"] == "play"))
    assert len(state.view(state.to_act())["hand"]) == 7 and announce_calls(state) == []
def test_ten_tricks_and_the_deal_ends():
    state = deal()
    bids(state, "healthy", "healthy", "healthy", "healthy")
    first_legal_to_end(state)
    result = state.result()
    assert len(result["tricks"]) == 10 and sum(result["card_points"]) == 240
    assert sum(result["scores"]) == 0 and result["teams"][0] == [0, 1]
    assert records.replay(state.record()).result() == result


def test_karlchen_is_the_club_jack_in_the_tenth_trick():
    """Random deals until a Karlchen scores: it is always the JC winning trick 10."""
    game = games.get("doppelkopf", OFF)
    rng = random.Random(5)
    found = 0
    for seed in range(400):
        state = game.deal(seed)
        while not state.is_over():
            legal = [a for a in state.legal_actions() if a["type"] != "announce"] or state.legal_actions()
            healthy = [a for a in legal if a.get("call") == "healthy"]
            state.apply(healthy[0] if healthy else rng.choice(legal))
        result = state.result()
        if any(b["item"] == "karlchen" for b in result["breakdown"]):
            leader, cards, winner = result["tricks"][9]
            assert cards[(winner - leader) % 4] == "JC"
            found += 1
            if found == 3:
                break
    assert found


def test_the_sampler_never_places_a_nine():
    game = games.get("doppelkopf", OFF)
    state = game.deal(11)
    while state.phase() != "play":
        state.apply(state.legal_actions()[0])
    inf = Inference(state.view(state.to_act()), game.options.as_dict())
    for world in inf.sample(20, seed=3):
        cards = [c for h in world["hands"] for c in h]
        assert len(cards) == 40 and not NINES & set(cards)


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_every_bot_level_plays_without_nines(level):
    game = games.get("doppelkopf", {**OFF, "throw_in": True})
    budget = {"worlds": 3, "rollout_worlds": 2, "playout_worlds": 3, "playouts": 4} if level == "hard" else {}
    for seed in range(2 if level == "hard" else 4):
        state = game.deal(seed, seed % 4)
        players = [bots.get("doppelkopf", level, seed=seed + s, options=game.options.as_dict(), **budget)
                   for s in range(4)]
        while not state.is_over():
            seat = state.to_act()
            action = players[seat].choose(state.view(seat))
            assert action in state.legal_actions()
            state.apply(action)
        result = state.result()
        assert sum(result["scores"]) == 0 and len(result["tricks"]) in (0, 10)


def test_solver_agrees_with_minimax_three_tricks_from_the_end():
    """The solver's value over the last 3 of 10 tricks is plain minimax's (test_solver runs
    the option set too; this is the quick check with the options' own positions)."""
    checked = 0
    for state in positions("doppelkopf", OFF, 3, 4, seed=3):
        solution = solver.solve(state)
        assert solution.exact and solution.value == minimax(state, state.core.copy(), solution.objective.side)
        checked += 1
    assert checked == 4


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), k=st.integers(0, 1000))
def test_codec_fast_path_answers_as_the_generic_path(seed, k):
    """Random finished records without the nines (and one with a nine put into a hand): the
    record codec's fast path (10-card hands from the record's options) answers exactly as the
    generic path, and takes the fast path for the valid record."""
    record = batch.playout_record("doppelkopf", OFF, seed=seed, k=k)
    assert [len(h) for h in record["hands"]] == [10] * 4
    bad = json.loads(json.dumps(record))
    bad["hands"][0][0] = "9" + bad["hands"][0][0][1]
    for rec in (record, bad):
        line = json.dumps(rec)
        assert cli.evaluate_line_bytes(line, 1) == cli.exact_id(line, generic_bytes(line, 1))
    assert _codec.fast_line(json.dumps(record), 1) is not None
    assert batch.evaluate([record, bad]) == [records.evaluate(record), records.evaluate(bad)]
