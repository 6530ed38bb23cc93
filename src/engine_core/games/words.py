"""What a game's words are made of (docs/adding-a-game.md, "Words"): the two card patterns the
games use, the three forms of a call, and `missing(spec)`, the check that a game's words cover
every call, exchange, contract, breakdown item, phase and preset it declares.

A game's words are plain data (ListGames serves them as a google.protobuf.Struct), keyed by
language; "en" is required and is the fallback; every other language a game declares ("de",
"nl", "ur") has every word English has, with the same placeholders (`untranslated`). Templates hold placeholders `{field}` (the
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


# the same patterns in German, Dutch and Urdu: German-made French decks index D(ame) and B(ube),
# Dutch ones H(eer), V(rouw), B(oer); Urdu players read the Latin indices (A = یکہ, K = بادشاہ)
FRENCH_DE = {
    **FRENCH_EN,
    "suits": {
        "C": {"symbol": "♣", "name": "Kreuz", "a_name": "ein Kreuz"},
        "S": {"symbol": "♠", "name": "Pik", "a_name": "ein Pik"},
        "H": {"symbol": "♥", "name": "Herz", "a_name": "ein Herz"},
        "D": {"symbol": "♦", "name": "Karo", "a_name": "ein Karo"},
    },
    "ranks": {**FRENCH_EN["ranks"], "Q": "D", "J": "B"},
    "count": {"one": "{n} Karte", "other": "{n} Karten"},
}
FRENCH_NL = {
    **FRENCH_EN,
    "suits": {
        "C": {"symbol": "♣", "name": "klaveren", "a_name": "een klaveren"},
        "S": {"symbol": "♠", "name": "schoppen", "a_name": "een schoppen"},
        "H": {"symbol": "♥", "name": "harten", "a_name": "een harten"},
        "D": {"symbol": "♦", "name": "ruiten", "a_name": "een ruiten"},
    },
    "ranks": {**FRENCH_EN["ranks"], "K": "H", "Q": "V", "J": "B"},
    "count": {"one": "{n} kaart", "other": "{n} kaarten"},
}
FRENCH_UR = {
    **FRENCH_EN,
    "suits": {
        "C": {"symbol": "♣", "name": "چڑیا", "a_name": "چڑیا کا پتا"},
        "S": {"symbol": "♠", "name": "حکم", "a_name": "حکم کا پتا"},
        "H": {"symbol": "♥", "name": "پان", "a_name": "پان کا پتا"},
        "D": {"symbol": "♦", "name": "اینٹ", "a_name": "اینٹ کا پتا"},
    },
    "count": {"one": "{n} پتا", "other": "{n} پتے"},
}
# Schafkopf's suits keep their Bavarian names in every language (the Urdu rules spell them)
GERMAN_DE = {
    **GERMAN_EN,
    "suits": {
        "C": {"symbol": "Ei", "name": "Eichel", "a_name": "eine Eichel"},
        "S": {"symbol": "Gr", "name": "Gras", "a_name": "ein Gras"},
        "H": {"symbol": "He", "name": "Herz", "a_name": "ein Herz"},
        "D": {"symbol": "Sch", "name": "Schellen", "a_name": "eine Schelle"},
    },
    "count": FRENCH_DE["count"],
}
GERMAN_NL = {
    **GERMAN_EN,
    "suits": {code: {**forms, "a_name": "een " + forms["name"]} for code, forms in GERMAN_EN["suits"].items()},
    "count": FRENCH_NL["count"],
}
GERMAN_UR = {
    **GERMAN_EN,
    "suits": {
        "C": {"symbol": "Ei", "name": "آئیخل", "a_name": "آئیخل کا پتا"},
        "S": {"symbol": "Gr", "name": "گراس", "a_name": "گراس کا پتا"},
        "H": {"symbol": "He", "name": "ہرٹس", "a_name": "ہرٹس کا پتا"},
        "D": {"symbol": "Sch", "name": "شیلن", "a_name": "شیلن کا پتا"},
    },
    "count": FRENCH_UR["count"],
}

# the forms a placeholder names a seat or cards by; any other form is a form of a suit
SPECIAL_FORMS = ("seat", "card", "cards")
# values that are names, not words: the same in every language
_NAMES = ("pattern", "field")
# punctuation a language may set or leave to the default ("; " before a contract field)
_OPTIONAL = ("join",)


def call(name: str, said: str, you: str) -> dict:
    """A call's three forms: `name` (a button, a list of announcements: "no 90"), `said` (after
    a seat: "seat 2 announces no 90") and `you` (after the language's "you": "you announce no
    90", "du sagst keine 90"; the page's confirm button puts "you" in front of it too)."""
    return {"name": name, "said": said, "you": you}


def missing(spec: Any) -> list[str]:
    """What the words of `spec` (a GameSpec) lack, as readable paths ('en.calls.bid.wenz.you',
    'de.items.laufende'); empty when English covers everything the game declares and every
    other language it declares has all of English's words (`untranslated`). A preset's words
    name it on a rules switch ('en.presets.club')."""
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
        for section, names in (("contracts", spec.contracts), ("items", spec.items), ("phases", spec.phases),
                               ("presets", tuple(spec.presets))):
            out += [f"{lang}.{section}.{n}" for n in names if not isinstance((w.get(section) or {}).get(n), str)]
        for i, part in enumerate(w.get("contract_fields") or []):
            if not isinstance(part.get("field"), str) or not isinstance(part.get("text"), str):
                out.append(f"{lang}.contract_fields[{i}]")
        if not isinstance(w.get("teams", {}), Mapping):
            out.append(f"{lang}.teams")
    for lang in words:
        if lang != "en":
            out += untranslated(words, lang)
    return list(dict.fromkeys(out))          # a call of four suits is missing once


def placeholders(template: str) -> set[tuple[str, str]]:
    """What a template fills: (field, form), where every form of a suit counts as "suit" (German
    says "ein {suit:name}-Solo" where English says "{suit:a_name}-Solo")."""
    return {(field, form if form in SPECIAL_FORMS or not form else "suit")
            for field, form in PLACEHOLDER.findall(template)}


def untranslated(words: Mapping[str, Any], lang: str) -> list[str]:
    """Where `words[lang]` differs in shape from `words["en"]`, as paths ('nl.items.pit'): a
    word English has and it lacks (or has and English lacks), a template that fills other
    fields, a name (`pattern`, `field`) that is not English's, or an English word left empty.
    A contract field's `join` is the language's own punctuation, present or not."""
    out: list[str] = []

    def walk(en: Any, other: Any, path: str) -> None:
        if isinstance(en, Mapping):
            if not isinstance(other, Mapping):
                out.append(path)
                return
            for key in sorted(en.keys() | other.keys()):
                sub = f"{path}.{key}"
                if key in _OPTIONAL:
                    if not isinstance(other.get(key, ""), str):
                        out.append(sub)
                elif key not in other or key not in en:
                    out.append(sub)
                elif key in _NAMES:
                    if other[key] != en[key]:
                        out.append(sub)
                else:
                    walk(en[key], other[key], sub)
        elif isinstance(en, list):
            if not isinstance(other, list) or len(other) != len(en):
                out.append(path)
                return
            for i, (e, o) in enumerate(zip(en, other)):
                walk(e, o, f"{path}[{i}]")
        elif isinstance(en, str):
            if not isinstance(other, str) or (en and not other) or placeholders(en) != placeholders(other):
                out.append(path)
        elif en != other:
            out.append(path)

    if lang not in words:
        return [lang]
    walk(words["en"], words[lang], lang)
    return sorted(out)
