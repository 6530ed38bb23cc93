"""The view's `hidden` (docs: view-spec, issue 24): the face-down piles a seat cannot see, as data
without their cards, checked against the real deal in every game at every step of random deals."""
from __future__ import annotations

import random

import pytest

from engine_core import games
from engine_core.cards import HIDDEN

KEYS = {"pile", "from_seat", "to_seat", "count", "action", "among"}


def _moves(piles, seat):
    """Cards that left `seat` and cards it received, by the piles (a pile kept by the seat
    that set it apart moves nothing)."""
    out = sum(p["count"] for p in piles if p["from_seat"] == seat and p["to_seat"] != seat)
    got = sum(p["count"] for p in piles if p["to_seat"] == seat and p["from_seat"] != seat)
    return out, got


def check_piles(state, among_seen: dict) -> list[dict]:
    """Every assertion on the piles of one position; returns the spectator's piles."""
    game, spec = state.game, state.game.spec
    every = state.view(None)["hidden"]          # a spectator sees no face-down card: every pile
    for p in every:
        assert set(p) == KEYS, p                # no pile lists its cards
        assert p["count"] > 0
        if p["action"] is None:                 # dealt face down: the blind
            assert p["from_seat"] is None and p["count"] == spec.blind_size
        else:
            a = state.actions[p["action"]]
            assert a["type"] == "exchange" and a["call"] == p["pile"] and a["seat"] == p["from_seat"]
            assert len(a["cards"]) == p["count"]
            assert state.view(None)["actions"][p["action"]]["cards"] == [HIDDEN] * p["count"]
        if p["among"] is not None:              # a rule of the game, the same in every deal
            assert set(p["among"]) <= set(game.deck.faces)
            assert among_seen.setdefault(p["pile"], p["among"]) == p["among"]
    # the balance of the deal: what each seat holds and played, and the piles, are the deal
    played = [0] * game.seats
    for a in state.actions:
        if a["type"] == "play":
            played[a["seat"]] += 1
    for s in range(game.seats):
        out, got = _moves(every, s)
        assert spec.hand_size == bin(state.core.hand(s)).count("1") + played[s] + out - got, (s, every)
    aside = sum(p["count"] for p in every if p["to_seat"] is None)
    assert sum(bin(state.core.hand(s)).count("1") for s in range(game.seats)) + sum(played) + aside \
        == game.deck.size
    # a seat cannot see a subset of those piles: the ones it neither gave nor received
    for seat in range(game.seats):
        view = state.view(seat)
        mine = view["hidden"]
        assert all(p in every for p in mine), (seat, mine, every)
        for p in every:
            if p in mine:
                assert seat not in (p["from_seat"], p["to_seat"]), (seat, p)
                if p["action"] is not None:
                    assert view["actions"][p["action"]]["cards"] == [HIDDEN] * p["count"]
            else:
                assert seat in (p["from_seat"], p["to_seat"]), (seat, p)
                if p["action"] is not None:
                    assert view["actions"][p["action"]]["cards"] == state.actions[p["action"]]["cards"]
    return every


@pytest.mark.parametrize("name", games.available())
def test_hidden_piles_agree_with_the_real_deal(name):
    game = games.get(name)
    spec = game.spec
    among_seen: dict = {}
    piles_seen = set()
    for seed in range(25):
        state = game.deal(seed, seed % game.seats)
        rng = random.Random(seed)
        while True:
            piles_seen |= {p["pile"] for p in check_piles(state, among_seen)}
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
    if spec.blind_size:
        assert "blind" in piles_seen
    else:
        assert "blind" not in piles_seen


def test_a_seat_number_out_of_range_is_refused():
    state = games.get(games.available()[0]).deal(1)
    with pytest.raises(ValueError, match="seat must be"):
        state.core.hidden(state.game.seats)
