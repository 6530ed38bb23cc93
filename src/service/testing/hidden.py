"""The hidden-card rule as a checker, independent of the engine's redaction (the service
tests and tools/adversary.py).

The rule (docs/service.md, "Hidden information"): a seat may see a card only if it held that
card at some moment of the deal (its hand as dealt, once it has seen it: in Schafkopf's
knocking round only its first packet; the blind it picked, cards handed to it) or the card
was played face up or shown by an announcement (Sheepshead's blitz: the view's `shown`); a
spectator only the cards played face up or shown. A face-down card
(Sheepshead's buried cards and unknown card, Doppelkopf's Armut exchange) never becomes
public, not even after the deal. The checker reads every string of a message (any field, any
depth, Struct keys included) and every card code in the text of an error, and requires each
card to be one the viewer may know. Values under a key naming a called card (`called_card`)
are public calls, not cards' places, and the few rule phrases of the engine's texts that name a
card (RULE_PHRASES: "TH is a trump") are rules, not places, as are the view's tables of the
whole deck (RULE_TABLES: the card order, each card's points, a face-down pile's possible cards).
"""
from __future__ import annotations

import re

from google.protobuf import json_format
from google.protobuf.message import Message

CARD = re.compile(r"^[ATKQJ987][CSHD]$")
# a card code standing alone in a text (ids and tokens use _ and -: "t_KH_x" names no card)
CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9_\-])[ATKQJ987][CSHD](?![A-Za-z0-9_\-])")
# card codes an engine text names as a rule, not as a card's place (Doppelkopf's explanations)
RULE_PHRASES = ("(TH is a trump)", "(TH, queens, jacks, diamonds)", "(QC, QC)")
# view keys whose card codes are the rules' tables, not cards' places
RULE_TABLES = ("order", "points", "among")


def card_strings(obj) -> set[str]:
    """Every card code anywhere in a message or JSON value (and in free text)."""
    if isinstance(obj, Message):
        obj = json_format.MessageToDict(obj)
    found: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if CARD.match(x):
                found.add(x)
            elif len(x) > 2:
                for phrase in RULE_PHRASES:
                    x = x.replace(phrase, "")
                found.update(CARD_IN_TEXT.findall(x))
        elif isinstance(x, dict):
            stack.extend(x.keys())
            # a called card names a card, not its place; "order" (the card order in force) and
            # "points" (each card's value) list the whole deck, "among" (a face-down pile's
            # possible cards) the cards a rule allows: public by the rules, none says where a
            # card is
            stack.extend(v for k, v in x.items() if "called" not in str(k) and k not in RULE_TABLES)
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return found


class Mirror:
    """The truth of one deal, kept by the test on its own copy of the engine state: which
    cards each seat has held, which were played face up."""

    def __init__(self, state):
        self.state = state
        self.seats = state.game.seats
        self.held = [set(self.seen_hand(s)) for s in range(self.seats)]
        self.public: set[str] = set()
        self.face_down: set[str] = set()

    def seen_hand(self, seat: int) -> list[str]:
        """The cards of `seat`'s hand it has seen (all but its later packets in the game's
        sight phase, Schafkopf's knocking round: Core.unseen)."""
        core = self.state.core
        return self.state.game.deck.codes(core.hand(seat) & ~core.unseen(seat))

    def apply(self, action: dict) -> None:
        self.state.apply(action)
        if action["type"] == "exchange" and action["call"] == "unknown":
            self.face_down |= set(action["cards"])       # Sheepshead: played face down later
        if action["type"] == "play" and action["card"] not in self.face_down:
            self.public.add(action["card"])
        if action["type"] == "announce":                  # cards an announcement shows (a blitz)
            view = self.state.view(None)
            shown = view.get("shown")
            for hand in view.get("shown_hands") or ([shown] if shown else []):
                self.public |= set(hand["cards"])
        for s in range(self.seats):
            self.held[s] |= set(self.seen_hand(s))

    def allowed(self, seat: int | None) -> set[str]:
        """Cards `seat` (None: a spectator) may see now."""
        return self.public | (self.held[seat] if seat is not None else set())

    def check(self, message, seat: int | None, allowed: set[str] | None = None, where: str = "") -> int:
        """Assert no hidden card in `message`; returns how many card strings were checked."""
        seen = card_strings(message)
        ok = self.allowed(seat) if allowed is None else allowed
        leaked = seen - ok
        assert not leaked, f"{where}: seat {seat} was shown hidden cards {sorted(leaked)}"
        return len(seen)
