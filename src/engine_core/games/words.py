"""What a game's words are made of (docs/adding-a-game.md, "Words"): the two card patterns the
games use, the three forms of a call, and `missing(spec)`, the check that a game's words cover
every call, exchange, contract, breakdown item and phase it declares.

A game's words are plain data (ListGames serves them as a google.protobuf.Struct), keyed by
language; "en" is required and is the fallback. Templates hold placeholders `{field}` (the
value as it is) or `{field:form}`: `seat` (a seat as the client names it), `card`, `cards`
(card labels, or the count of face-down cards), or a form of the suit the field holds
(`name`, `a_name`, `symbol`), so that any client fills them with one regular expression.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
CALL_FORMS = ("name", "said", "you")

# count: how a number of face-down cards is said (a buried pair the viewer may not see)
_COUNT_EN = {"one": "{n} card", "other": "{n} cards"}

FRENCH_EN = {
    "pattern": "french",
    "label": "{rank}{suit}",                       # Q♣, 10♥
    "suits": {
        "C": {"symbol": "♣", "name": "clubs", "a_name": "a clubs"},
        "S": {"symbol": "♠", "name": "spades", "a_name": "a spades"},
        "H": {"symbol": "♥", "name": "hearts", "a_name": "a hearts"},
        "D": {"symbol": "♦", "name": "diamonds", "a_name": "a diamonds"},
    },
    "ranks": {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10", "9": "9", "8": "8", "7": "7"},
    "count": _COUNT_EN,
}

# Schafkopf's German suits: Eichel, Gras, Herz, Schellen; Sau, Zehn, König, Ober, Unter
GERMAN_EN = {
    "pattern": "german",
    "label": "{suit}-{rank}",                      # Ei-O, Sch-10
    "suits": {
        "C": {"symbol": "Ei", "name": "Eichel", "a_name": "an Eichel"},
        "S": {"symbol": "Gr", "name": "Gras", "a_name": "a Gras"},
        "H": {"symbol": "He", "name": "Herz", "a_name": "a Herz"},
        "D": {"symbol": "Sch", "name": "Schellen", "a_name": "a Schellen"},
    },
    "ranks": {"A": "A", "K": "K", "Q": "O", "J": "U", "T": "10", "9": "9", "8": "8", "7": "7"},
    "count": _COUNT_EN,
}


def call(name: str, said: str, you: str) -> dict:
    """A call's three forms: `name` (a button, a list of announcements: "no 90"), `said` (after
    a seat: "seat 2 announces no 90") and `you` (after "you", and an imperative: "announce no 90")."""
    return {"name": name, "said": said, "you": you}


def missing(spec: Any) -> list[str]:
    """What the English words of `spec` (a GameSpec) lack, as readable paths
    ('en.calls.bid.wenz.you'); empty when they cover everything the game declares. Other
    languages may be partial: a client falls back to English word by word."""
    words: Mapping[str, Any] = spec.words or {}
    if "en" not in words:
        return ["en"]
    out: list[str] = []
    for lang, w in (("en", words["en"]),):
        cards = w.get("cards") or {}
        for key in ("pattern", "label", "suits", "ranks", "count"):
            if key not in cards:
                out.append(f"{lang}.cards.{key}")
        for suit in "CSHD":
            for form in ("symbol", "name"):
                if form not in (cards.get("suits") or {}).get(suit, {}):
                    out.append(f"{lang}.cards.suits.{suit}.{form}")
        calls = w.get("calls") or {}
        wanted = list(spec.calls) + [("exchange", x, None) for x in spec.exchanges]
        for kind, name, _suit in wanted:
            entry = (calls.get(kind) or {}).get(name) or {}
            out += [f"{lang}.calls.{kind}.{name}.{form}" for form in CALL_FORMS if not isinstance(entry.get(form), str)]
        for section, names in (("contracts", spec.contracts), ("items", spec.items), ("phases", spec.phases)):
            out += [f"{lang}.{section}.{n}" for n in names if not isinstance((w.get(section) or {}).get(n), str)]
        for i, part in enumerate(w.get("contract_fields") or []):
            if not isinstance(part.get("field"), str) or not isinstance(part.get("text"), str):
                out.append(f"{lang}.contract_fields[{i}]")
        if not isinstance(w.get("teams", {}), Mapping):
            out.append(f"{lang}.teams")
    return list(dict.fromkeys(out))          # a call of four suits is missing once
