"""The web page in headless Chromium (clients/web/test/browser.mjs, playwright-core from npm,
Debian's chromium): a full deal of each registered game against bots played by clicks, only
legal cards clickable, an illegal card explained, a hint shown, the breakdown shown; a friend
joining by invite link seeing the same trick live, a spent invite refused; the daily deal played
and entered on the leaderboard; screenshots under tests/output/web/. `make test` installs chromium if missing."""
from __future__ import annotations

import os
import pathlib
import shutil

import pytest

import node_env
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
    with ServerProcess(None) as server:
        assert "not built" not in server.output, "build the page first (test_page_builds_and_is_served)"
        env = dict(os.environ, STICH_URL=f"http://{server.http_address}", STICH_SCREENSHOTS=str(OUTPUT),
                   STICH_GAMES=",".join(GAMES))       # the page plays each game the registry has
        done = node_env.run("exec", "-w", "web", "--", "node", "test/browser.mjs", env=env, timeout=240)
    assert done.returncode == 0, done.stdout[-6000:]
    shots = sorted(p.name for p in OUTPUT.glob("*.png"))
    for game in GAMES:
        assert f"{game}-breakdown.png" in shots, shots
    for shot in ("friend-same-trick.png", "hint.png", "daily-leaderboard.png"):
        assert shot in shots, shots
