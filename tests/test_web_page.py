"""The web page in headless Chromium (clients/web/test/browser.mjs, playwright-core and axe-core
from npm, Debian's chromium) against a real server: a whole deal of each registered game by taps
against easy bots, each game twice: at 390x844 and at 1280x800, once in English and once in Urdu
(right to left); the others' calls and the breakdown in words, the breakdown's rows adding up to
the scores shown (by the game's rules, tests/breakdown.py), legal cards marked and an illegal
one explained in words, the bury and the Armut by tapping cards, keyboard play, no sideways
scroll and 44 px tap targets on a phone, an axe-core scan with no serious or critical
violation, the card-pattern and rules switches kept over a reload; a friend joining by invite
link seeing the same trick, a spent invite refused in words; under Doppelkopf's DDV preset an
announcement made from the page while the friend is to act; the daily deal played and entered
on the leaderboard; no request answered 404. Screenshots of each game mid-deal and at its
breakdown in both layouts go to tests/output/web/. `make test` installs chromium if missing."""
from __future__ import annotations

import json
import os
import pathlib
import shutil

import pytest

import node_env
from breakdown import settle
from conftest import GAMES
from service.testing import ServerProcess

CHROMIUM = "/usr/bin/chromium"
OUTPUT = pathlib.Path(__file__).resolve().parent / "output" / "web"


def test_page_builds_and_is_served():
    done = node_env.run("run", "build", "-w", "web")
    assert done.returncode == 0, done.stdout[-3000:]
    assert (node_env.CLIENTS / "web" / "dist" / "index.html").is_file()


@pytest.mark.skipif(not os.path.exists(CHROMIUM) and shutil.which("apt-get") is None,
                    reason="no chromium and no apt-get to install it")
def test_browser_plays_every_game_and_a_friend_joins():
    assert os.path.exists(CHROMIUM), f"{CHROMIUM} is missing: make chromium (apt-get install -y chromium)"
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for old in OUTPUT.glob("*.png"):
        old.unlink()
    breakdowns = OUTPUT / "breakdowns.jsonl"
    breakdowns.unlink(missing_ok=True)
    with ServerProcess(None) as server:
        assert "not built" not in server.output, "build the page first (test_page_builds_and_is_served)"
        env = dict(os.environ, STICH_URL=f"http://{server.http_address}", STICH_SCREENSHOTS=str(OUTPUT),
                   STICH_GAMES=",".join(GAMES), STICH_BREAKDOWNS=str(breakdowns))   # every registered game
        done = node_env.run("exec", "-w", "web", "--", "node", "test/browser.mjs", env=env, timeout=180)
    assert done.returncode == 0, done.stdout[-6000:]
    _breakdowns_add_up(breakdowns)
    shots = sorted(p.name for p in OUTPUT.glob("*.png"))
    for game in GAMES:
        for layout in ("phone", "desktop"):
            assert f"{game}-{layout}-playing.png" in shots and f"{game}-{layout}-breakdown.png" in shots, shots
    for shot in ("friend-same-trick.png", "hint.png", "daily-leaderboard.png", "out-of-turn-announcement.png"):
        assert shot in shots, shots


def _breakdowns_add_up(path: pathlib.Path) -> None:
    """Each deal the page played: its breakdown rows are the server's items, and read by the
    game's rules (tests/breakdown.py) they give the scores the page shows beside them."""
    shown = [json.loads(line) for line in path.read_text().splitlines()]
    assert {d["game"] for d in shown} >= set(GAMES), [d["game"] for d in shown]
    for deal in shown:
        server = deal["server"]
        items = [{k: b[k] for k in ("item", "value", "count", "factor", "team") if k in b}
                 for b in server.get("breakdown", [])]
        assert deal["rows"] == items, (deal["game"], deal["rows"], items)
        assert deal["scores"] == server["scores"], deal
        result = {"breakdown": deal["rows"], "teams": [t.get("seats", []) for t in server.get("teams", [])],
                  "winners": server.get("winners", []), "contract": server["contract"]}
        assert settle(deal["game"], result, len(deal["scores"])) == deal["scores"], deal
