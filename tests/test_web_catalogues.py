"""The web page's message catalogues (clients/web/src/i18n.ts): every language that ships has
every message English has and no other, each with the same {placeholders}; the Urdu messages
are written in Urdu. Read off the source, so no browser is needed."""
from __future__ import annotations

import pathlib
import re

SOURCE = pathlib.Path(__file__).resolve().parent.parent / "clients" / "web" / "src" / "i18n.ts"
ENTRY = re.compile(r'(\w+): "((?:[^"\\]|\\.)*)"')


def catalogues() -> dict[str, dict[str, str]]:
    text = SOURCE.read_text(encoding="utf-8")
    found = {}
    for lang, body in re.findall(r"const (\w\w)(?:: Catalogue)? = \{(.*?)\n\};", text, re.S):
        found[lang] = dict(ENTRY.findall(body))
    return found


def test_every_language_has_every_message_with_its_placeholders():
    cats = catalogues()
    assert set(cats) == {"en", "de", "nl", "ur"}, set(cats)
    english = cats["en"]
    assert len(english) > 100, len(english)
    for lang, messages in cats.items():
        missing = sorted(set(english) - set(messages))
        assert not missing, f"{lang} lacks {missing}"
        extra = sorted(set(messages) - set(english))
        assert not extra, f"{lang} has messages English does not: {extra}"
        for key, text in messages.items():
            assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", english[key])), (lang, key, text)


def test_urdu_is_written_in_urdu():
    urdu = catalogues()["ur"]
    latin_only = [k for k, v in urdu.items() if re.search(r"[A-Za-z]{3}", v) and not re.search(r"[\u0600-\u06ff]", v)]
    assert latin_only == [], latin_only
