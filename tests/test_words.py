"""Every registered game declares the words players read (games/words.py): each call,
exchange, contract type, breakdown item, phase and preset has them in English, they are plain data a
google.protobuf.Struct carries, and every template's placeholders name what it can fill. The
four games ship German, Dutch and Urdu too, each with every English word and the same
placeholders, and written in that language."""
from __future__ import annotations

import dataclasses
import json
import re

import pytest

from engine_core import games
from engine_core.games import words as game_words

SPECIAL_FORMS = set(game_words.SPECIAL_FORMS)
LANGUAGES = ("de", "nl", "ur")
SHIPPED = ("schafkopf", "doppelkopf", "sheepshead", "klaverjas")


def strings(node, path=""):
    """Every (path, text) of a language's words."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from strings(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from strings(value, f"{path}[{i}]")
    elif isinstance(node, str):
        yield path, node


@pytest.mark.parametrize("game", games.available())
def test_words_cover_everything_the_game_declares(game):
    spec = games.spec_of(game)
    assert game_words.missing(spec) == []


@pytest.mark.parametrize("game", games.available())
def test_words_are_plain_json_with_known_placeholders(game):
    words = games.spec_of(game).words
    assert json.loads(json.dumps(words)) == words          # str keys, no tuples: a Struct holds them
    for lang, w in words.items():
        suit_forms = set.intersection(*(set(s) for s in w["cards"]["suits"].values()))
        calls = [t for kind in w["calls"].values() for c in kind.values() for t in c.values()]
        fields = [t for p in w["contract_fields"] for t in [p["text"], *p.get("values", {}).values()]]
        for template in calls + list(w["contracts"].values()) + fields:
            for field, form in game_words.PLACEHOLDER.findall(template):
                assert not form or form in SPECIAL_FORMS | suit_forms, (lang, template, form)
                if template in calls:
                    assert field in ("suit", "cards"), (lang, template)        # what an action holds


@pytest.mark.parametrize("game", SHIPPED)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_english_word_with_its_placeholders(game, lang):
    words = games.spec_of(game).words
    assert game_words.untranslated(words, lang) == []
    en, other = dict(strings(words["en"])), dict(strings(words[lang]))
    assert set(other) - {p for p in other if p.endswith(".join")} == set(en) - {p for p in en if p.endswith(".join")}
    for path, text in en.items():
        if not path.endswith(".join"):
            assert game_words.placeholders(other[path]) == game_words.placeholders(text), (lang, path)


@pytest.mark.parametrize("game", SHIPPED)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_is_written_in_it(game, lang):
    """No sentence is left in English: a call said by a seat differs from the English one in
    every language, and Urdu is in Urdu script (Re and Kontra keep their Latin letters, as the
    Urdu rules write them; card symbols are the cards' own indices)."""
    words = games.spec_of(game).words
    for kind, calls in words["en"]["calls"].items():
        for name, forms in calls.items():
            for form in ("said", "you"):
                assert words[lang]["calls"][kind][name][form] != forms[form], (lang, kind, name, form)
    if lang == "ur":
        for path, text in strings(words["ur"]):
            names = path.endswith((".pattern", ".field", ".label", ".symbol")) or ".ranks." in path
            bare = re.sub(r"\{\w+(:\w+)?\}|[\W\d×]", "", text)
            if not names and bare and not re.search(r"[\u0600-\u06ff]", text):
                assert bare in ("Re", "Kontra"), (path, text)


def test_a_game_without_words_is_found_out():
    spec = games.spec_of("klaverjas")
    bare = dataclasses.replace(spec, words={})
    assert game_words.missing(bare) == ["en"]
    en = json.loads(json.dumps(spec.words["en"]))
    del en["calls"]["bid"]["trump"]["you"], en["phases"]["play"]
    holed = dataclasses.replace(spec, words={"en": en})
    assert game_words.missing(holed) == ["en.calls.bid.trump.you", "en.phases.play"]
    # a declared preset without its name in words is found out too
    unnamed = dataclasses.replace(spec, presets={**spec.presets, "den_haag": {"roem": False}})
    assert game_words.missing(unnamed) == ["en.presets.den_haag"]


def test_a_partial_or_misshapen_language_is_found_out():
    """`untranslated` (and so `missing`) names each word a language lacks or has beyond
    English, a template filling other fields, a changed name and an English word left empty;
    a contract field's `join` is the language's own."""
    spec = games.spec_of("klaverjas")
    de = json.loads(json.dumps(spec.words["de"]))
    del de["items"]["pit"]
    de["phases"]["extra"] = "Extra"
    de["contracts"]["trump"] = "Trumpf {suit:name}"                # English fills {trump:name}
    de["calls"]["bid"]["trump"]["said"] = "macht {suit:name} zu Trumpf: {cards:cards}"
    de["contract_fields"][0]["field"] = "maker"
    de["contract_fields"][1]["text"] = ""
    de["contract_fields"][1].pop("join")
    broken = dataclasses.replace(spec, words={"en": spec.words["en"], "de": de})
    expected = ["de.calls.bid.trump.said", "de.contract_fields[0].field", "de.contract_fields[1].text",
                "de.contracts.trump", "de.items.pit", "de.phases.extra"]
    assert game_words.untranslated(broken.words, "de") == expected
    assert game_words.missing(broken) == expected
    assert game_words.untranslated(broken.words, "fr") == ["fr"]
    # suit forms are a language's own: German says "ein {suit:name}-Solo" where English has a_name
    assert game_words.placeholders("plays {suit:a_name}-Solo") == game_words.placeholders("spielt ein {suit:name}-Solo")
