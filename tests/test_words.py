"""Every registered game declares the words players read (games/words.py): each call,
exchange, contract type, breakdown item and phase has them in English, they are plain data a
google.protobuf.Struct carries, and every template's placeholders name what it can fill."""
from __future__ import annotations

import dataclasses
import json

import pytest

from engine_core import games
from engine_core.games import words as game_words

SPECIAL_FORMS = {"seat", "card", "cards"}


@pytest.mark.parametrize("game", games.available())
def test_words_cover_everything_the_game_declares(game):
    spec = games.spec_of(game)
    assert game_words.missing(spec) == []


@pytest.mark.parametrize("game", games.available())
def test_words_are_plain_json_with_known_placeholders(game):
    words = games.spec_of(game).words
    assert json.loads(json.dumps(words)) == words          # str keys, no tuples: a Struct holds them
    en = words["en"]
    suit_forms = set.intersection(*(set(s) for s in en["cards"]["suits"].values()))
    calls = [t for kind in en["calls"].values() for c in kind.values() for t in c.values()]
    for template in calls + list(en["contracts"].values()) + [p["text"] for p in en["contract_fields"]]:
        for field, form in game_words.PLACEHOLDER.findall(template):
            assert not form or form in SPECIAL_FORMS | suit_forms, (template, form)
            if template in calls:
                assert field in ("suit", "cards"), template        # what an action holds


def test_a_game_without_words_is_found_out():
    spec = games.spec_of("klaverjas")
    bare = dataclasses.replace(spec, words={})
    assert game_words.missing(bare) == ["en"]
    en = json.loads(json.dumps(spec.words["en"]))
    del en["calls"]["bid"]["trump"]["you"], en["phases"]["play"]
    holed = dataclasses.replace(spec, words={"en": en})
    assert game_words.missing(holed) == ["en.calls.bid.trump.you", "en.phases.play"]
