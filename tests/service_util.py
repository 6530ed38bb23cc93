"""Helpers of the service tests: a hidden-card checker and a mirror of a table's deals.

The checker looks at every string of a message (any field, any depth, Struct keys included)
that is a card code, and requires each to be one the viewer may know: a card it held at some
point, a card played to a trick, or (once the deal is over) a card its result shows. Values
under a key naming a called card (e.g. `called_card`) are public calls, not cards' places.
"""
from __future__ import annotations

import re

from google.protobuf import json_format
from google.protobuf.message import Message

CARD = re.compile(r"^[ATKQJ987][CSHD]$")


def card_strings(obj) -> set[str]:
    """Every card code anywhere in a message or JSON value."""
    if isinstance(obj, Message):
        obj = json_format.MessageToDict(obj)
    found: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if CARD.match(x):
                found.add(x)
        elif isinstance(x, dict):
            # a card *named* by a public call (Sheepshead's called ace) says nothing of where
            # it lies: not a hidden card
            stack.extend(k for k in x.keys())
            stack.extend(v for k, v in x.items() if "called" not in str(k))
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return found


class Mirror:
    """The truth of one deal, kept by the test from the engine itself: what each seat may
    know at each moment (its hands over time, the cards played, the result once over)."""

    def __init__(self, state, seats: int):
        self.state = state
        self.seats = seats
        self.known = [set(state.hands[s]) for s in range(seats)]
        self.public: set[str] = set()
        self._note()

    def apply(self, action: dict) -> None:
        self.state.apply(action)
        if action["type"] == "play":
            self.public.add(action["card"])
        self._note()

    def _note(self) -> None:
        deck = self.state.game.deck
        for s in range(self.seats):
            self.known[s] |= set(deck.codes(self.state.core.hand(s)))
        result = self.state.result()
        if result is not None:
            self.public |= card_strings(result)

    def allowed(self, seat: int | None) -> set[str]:
        """Cards `seat` (None: a spectator) may see now."""
        return self.public | (self.known[seat] if seat is not None else set())

    def check(self, message, seat: int | None, allowed: set[str] | None = None) -> None:
        seen = card_strings(message)
        ok = self.allowed(seat) if allowed is None else allowed
        leaked = seen - ok
        assert not leaked, f"seat {seat} was shown hidden cards {sorted(leaked)}"
