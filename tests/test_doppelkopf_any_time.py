"""Doppelkopf option `announcements: "any_time"` (docs/rules/doppelkopf.md 5.1.1): a seat that is
not to act may make its team's next announcement, its deadline counted by the cards it holds; the
seat to act stays. Concrete deals, records through both replay paths, the bots' worlds and a
property over random deals."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine_core import _codec, batch, bots, games, records
from engine_core.errors import IllegalActionError, InvalidActionError, OptionError

from moves import bids, play

ANY = {"announcements": "any_time"}
# docs/rules/doppelkopf.md section 12's deal L1: dealer 3, seats 0 and 2 hold the club queens (Re)
L1 = ("QC AC AS AH 9D QS KC KS QH JH AD JC", "9D 9C TS KH AD JC 9C 9S QD JS TD JD",
      "KD TC KS 9H QC TH AC AS QH JH QD KH", "JD KC 9S AH TD QS TC TS TH JS KD 9H")
L1_PLAY = ("QC 9D KD JD | AC 9C TC KC | AS TS KS 9S | AH KH 9H AH | 9D AD QC TD |"
           " TH QS QS JC | AC TC KC 9C | AS TS KS 9S | QH TH QH QD | JS JH JS JH |"
           " KD AD TD QD | KH 9H JC JD")
CARDS = L1_PLAY.replace("|", " ").split()


def deal(options=ANY, hands=L1, dealer=3):
    state = games.get("doppelkopf", options).new_deal([h.split() for h in hands], dealer)
    bids(state, "healthy", "healthy", "healthy", "healthy")
    return state


def ann(seat, call):
    return {"seat": seat, "type": "announce", "call": call}


def test_the_option_is_declared_and_checked():
    assert games.get("doppelkopf").options.announcements == "own_turn"
    with pytest.raises(OptionError, match="options.announcements"):
        games.get("doppelkopf", {"announcements": "whenever"})
    assert games.preset("doppelkopf", "ddv") == {"announcements": "any_time", "pflichtsolo": 24}
    assert games.get("doppelkopf", games.preset("doppelkopf", "ddv")).options.announcements == "any_time"


def test_by_default_only_the_seat_to_act_announces():
    state = deal({})
    play(state, "QC")
    assert state.legal_actions(2) == [] and state.view(2)["legal"] == []
    before = state.record()
    with pytest.raises(IllegalActionError) as info:
        state.apply(ann(2, "re"))
    assert info.value.reason_id == "NOT_YOUR_TURN" and str(info.value) == "seat 2 is not to act: seat 1 is"
    assert state.record() == before


def test_a_seat_announces_while_another_is_to_act():
    state = deal()
    play(state, "QC")                          # seat 0 leads; seat 1 is to act
    assert state.to_act() == 1
    # each seat may make its own team's announcement; the seat to act has it among its choices
    assert state.legal_actions(2) == [ann(2, "re")] and state.view(2)["legal"] == [ann(2, "re")]
    assert state.legal_actions(3) == [ann(3, "kontra")]
    assert state.legal_actions(0) == [ann(0, "re")]          # 11 cards: still in time
    assert ann(1, "kontra") in state.legal_actions()
    assert state.view(None)["legal"] == []
    state.apply(ann(2, "re"))
    assert state.to_act() == 1                 # the seat to act stays
    assert state.legal_actions(2) == [ann(2, "no_90")]      # the next level, at once if it likes
    assert state.legal_actions(0) == [ann(0, "no_90")]      # 11 cards >= 10
    state.apply(ann(2, "no_90"))
    play(state, " ".join(CARDS[1:]))
    result = state.result()
    assert result["announcements"][:2] == [
        {"seat": 2, "team": "re", "call": "re", "hand_size": 12, "trick": 1},
        {"seat": 2, "team": "re", "call": "no_90", "hand_size": 12, "trick": 1}]
    assert state.record()["actions"][5:7] == [ann(2, "re"), ann(2, "no_90")]
    assert sum(result["scores"]) == 0


def test_the_deadline_is_the_cards_the_announcer_holds():
    state = deal()
    play(state, "QC 9D KD JD | AC")          # trick 2: seat 0 has played its second card (10 held)
    assert state.to_act() == 1
    assert state.legal_actions(0) == []       # re needs 11
    assert state.legal_actions(2) == [ann(2, "re")]          # seat 2 has not played yet: 11 held
    play(state, "9C")                          # seat 2 to act
    play(state, "TC")                          # seat 2 plays its second card: 10 held
    assert state.legal_actions(2) == []
    assert state.to_act() == 3 and ann(3, "kontra") in state.legal_actions()
    state.apply(ann(3, "kontra"))             # on its own turn, 11 held
    # a reply to kontra needs one card fewer: seats 0 and 2, holding 10, may answer re now
    assert state.to_act() == 3
    assert state.legal_actions(0) == [ann(0, "re")] and state.legal_actions(2) == [ann(2, "re")]
    assert state.legal_actions(1) == [ann(1, "no_90")]       # Kontra's next level: 11 >= 10
    state.apply(ann(0, "re"))
    # no_90 needs 10 (not a reply): seat 0 and seat 2 hold 10
    assert state.legal_actions(2) == [ann(2, "no_90")]
    play(state, "KC")                          # trick 2 closes; seat 0 (AC) leads trick 3
    assert state.to_act() == 0 and ann(0, "no_90") in state.legal_actions()
    play(state, "AS")                          # seat 0's third card: 9 held
    assert state.legal_actions(0) == []
    assert state.legal_actions(2) == [ann(2, "no_90")]      # 10 held until its card
    play(state, "TS")
    assert ann(2, "no_90") in state.legal_actions()         # now on its own turn
    play(state, "KS")
    assert state.legal_actions(2) == []


def test_refusals_say_what_the_seat_may_do_and_change_nothing():
    state = deal()
    play(state, "QC")
    before = state.record()
    cases = [
        (ann(3, "re"), IllegalActionError, "NOT_YOUR_TURN",
         "seat 3 is not to act: seat 1 is; out of turn seat 3 may only announce kontra"),
        ({"seat": 2, "type": "play", "card": "KD"}, IllegalActionError, "NOT_YOUR_TURN",
         "seat 2 is not to act: seat 1 is; out of turn seat 2 may only announce re"),
        (ann(2, "no_90"), IllegalActionError, "NOT_YOUR_TURN",
         "seat 2 is not to act: seat 1 is; out of turn seat 2 may only announce re"),
        (ann(2, "hurra"), InvalidActionError, "UNKNOWN_CALL", None),
        ({"seat": 2, "type": "announce"}, InvalidActionError, "MISSING_FIELD", None),
    ]
    for action, kind, reason_id, text in cases:
        with pytest.raises(kind) as info:
            state.apply(action)
        assert info.value.reason_id == reason_id, action
        assert info.value.legal == [ann(action["seat"], "re" if action["seat"] == 2 else "kontra")]
        if text:
            assert str(info.value) == text
        assert state.record() == before
    assert state.why_illegal(ann(2, "re")) is None


def test_nobody_interjects_while_a_hochzeit_is_undecided():
    # seat 0 holds both club queens and announces a Hochzeit
    hands = ("QC QC AC AS AH 9D KC KS QH JH AD JC", "9D 9C TS KH AD JC 9C 9S QD JS TD JD",
             "KD TC KS 9H QS TH AC AS QH JH QD KH", "JD KC 9S AH TD QS TC TS TH JS KD 9H")
    state = games.get("doppelkopf", ANY).new_deal([h.split() for h in hands], 3)
    bids(state, "hochzeit", "healthy", "healthy", "healthy")
    play(state, "QC")
    assert state.to_act() == 1
    assert all(state.legal_actions(s) == [] for s in (0, 2, 3))
    assert all(a["type"] == "play" for a in state.legal_actions())


def test_undo_and_the_core_interface():
    state = deal()
    play(state, "QC")
    core = state.core
    [code] = core.interjections(2)
    assert core.interjections(1) == [] and core.interjections(7) == []
    with pytest.raises(ValueError):
        core.interject(3, code)               # seat 3 is Kontra: re is not its call
    core.interject(2, code)
    assert core.to_act() == 1 and core.interjections(2) != [code]
    core.undo()
    assert core.interjections(2) == [code]


def _record_with_interjections():
    state = deal()
    play(state, "QC")
    state.apply(ann(2, "re"))
    play(state, "9D KD")
    state.apply(ann(1, "kontra"))             # seat 1 (11 held) while seat 3 is to act
    play(state, " ".join(CARDS[3:]))
    return state.record()


def test_records_replay_the_interjections_on_every_path():
    rec = _record_with_interjections()
    assert [a["seat"] for a in rec["actions"][4:8]] == [0, 2, 1, 2]
    expected = records.evaluate(rec)
    assert "result" in expected
    assert [a["seat"] for a in expected["result"]["announcements"]] == [2, 1]
    assert batch.evaluate([rec]) == [expected]                       # the scanner path
    fast = _codec.fast_line(json.dumps(rec), 1)                     # the CLI's scanner
    assert fast is not None and fast["result"] == expected["result"]
    # the same record under the default option is refused at the interjection
    own = dict(rec, options={**rec["options"], "announcements": "own_turn"})
    bad = records.evaluate(own)
    assert bad["error"]["index"] == 5 and bad["error"]["reason_id"] == "NOT_YOUR_TURN"
    assert batch.evaluate([own]) == [bad]


def test_the_bots_decide_from_a_view_with_interjections():
    state = deal()
    play(state, "QC")
    state.apply(ann(2, "re"))
    state.apply(ann(3, "kontra"))
    for level in ("easy", "normal", "hard"):
        bot = bots.get("doppelkopf", level, seed=1, options=ANY)
        choice = bot.choose(state.view(1))
        assert choice in state.legal_actions(1)
        # a seat that is not to act is never a bot's to decide, even when it may interject
        with pytest.raises(ValueError, match="not to act"):
            bot.choose(state.view(0))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_interjections_keep_the_turn_and_the_zero_sum(seed):
    """Random deals where, before each action, a random seat interjects whenever it may: the
    seat to act never changes by it, each interjection is its team's next level, the deadline
    is its hand size, and the deal ends zero-sum with every announcement in the result."""
    rng = random.Random(seed)
    game = games.get("doppelkopf", ANY)
    state = game.deal(seed=seed, dealer=rng.randrange(4))
    made = 0
    while not state.is_over():
        if state.phase() == "play" and rng.random() < 0.3:
            seat = rng.randrange(4)
            extra = state.legal_actions(seat) if seat != state.to_act() else []
            if extra:
                to_act = state.to_act()
                held = bin(state.core.hand(seat)).count("1")
                state.apply(extra[0])
                made += 1
                assert state.to_act() == to_act
                assert state.result() is None
                assert held >= 6
        legal = state.legal_actions()
        state.apply(rng.choice(legal))
    result = state.result()
    assert sum(result["scores"]) == 0
    assert len(result["announcements"]) >= made
    assert records.evaluate(state.record())["result"] == result
