"""`stich play` in a real terminal: a server on a free loopback port, the command in a detached
80-column tmux session, driven with send-keys and read with capture-pane, as a player would.
A full deal of each game against the server's bots, choosing each action by a number the
screen shows, to the payout table and the match totals."""
from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from engine_core import games
from service.testing import ServerProcess

from conftest import GAMES

# `make test` installs tmux; outside CI a machine without it skips these tests, CI fails them
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None and not os.environ.get("CI"),
                                reason="tmux is not installed (make test installs it)")

STICH = Path(sys.executable).with_name("stich")
PROMPT = re.compile(r"^(your choice|(\S+(?: \S+)*) (\d+) cards?)> *$")
NUMBER = re.compile(r"\[(\d+)\]")


@pytest.fixture(scope="module")
def server():
    srv = ServerProcess()
    yield srv
    srv.stop()


# a tmux server of this test run alone (its own socket), so no other tmux user meets it
TMUX = ["tmux", "-L", f"stich-test-{os.getpid()}"]


class Terminal:
    """One tmux session running one command, 80 columns wide."""

    def __init__(self, command: str):
        self.name = f"stich-test-{uuid.uuid4().hex[:8]}"
        for attempt in range(3):
            # the previous test's kill-session ends the tmux server when it held the last
            # session; a new-session racing that exit fails with "server exited unexpectedly"
            started = subprocess.run([*TMUX, "new-session", "-d", "-s", self.name, "-x", "80", "-y", "50",
                                      f"{command}; echo STICH-EXIT=$?; sleep 60"], capture_output=True,
                                     text=True, env=dict(os.environ, TERM="xterm-256color"))
            if started.returncode == 0:
                break
            time.sleep(0.5)
        else:
            raise AssertionError(f"tmux could not start a session: {started.stderr.strip()}")
        subprocess.run([*TMUX, "set-option", "-t", self.name, "history-limit", "20000"], check=True)

    def screen(self, history: bool = False) -> str:
        argv = [*TMUX, "capture-pane", "-p", "-t", self.name] + (["-J", "-S", "-"] if history else [])
        return subprocess.run(argv, capture_output=True, text=True, check=True).stdout

    def send(self, text: str) -> None:
        subprocess.run([*TMUX, "send-keys", "-t", self.name, "-l", text], check=True)
        subprocess.run([*TMUX, "send-keys", "-t", self.name, "Enter"], check=True)

    def wait(self, old: str, timeout: float = 20.0) -> str:
        """The screen once it changed from `old` and ends in a prompt or the exit line."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.screen()
            lines = [l for l in text.rstrip("\n").split("\n") if l.strip()]
            if text != old and lines and (PROMPT.match(lines[-1]) or "STICH-EXIT=" in text):
                return text
            time.sleep(0.03)
        raise AssertionError(f"the terminal did not answer:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*TMUX, "kill-session", "-t", self.name], capture_output=True)


def choices(screen: str) -> tuple[list[int], list[int]]:
    """The numbers shown since the last rule: those under the hand and the listed [n] calls."""
    part = screen.split("─" * 20)[-1]
    lines = part.split("\n")
    hand: list[int] = []
    for i, line in enumerate(lines):
        if line.startswith("Your hand") and i + 2 < len(lines):
            hand = [int(t) for t in lines[i + 2].split() if t.isdigit()]
    return hand, [int(n) for n in NUMBER.findall(part)]


@pytest.mark.parametrize("game,seat,seed", [(game, k % games.spec_of(game).seats, 11 + k)
                                            for k, game in enumerate(GAMES)])
def test_a_full_deal_in_tmux(server, game, seat, seed):
    rng = random.Random(seed)
    term = Terminal(f"{STICH} --server {server.address} play {game} --deals 1 --seed {seed} --seat {seat}")
    try:
        screen, actions = term.wait(""), 0
        assert "Type help for how to play." in screen
        term.send("help")
        screen = term.wait(screen)
        assert "last         the last finished trick" in screen
        term.send("hint")
        screen = term.wait(screen)
        assert re.search(r"hint: you .+ expects [+-]\d", screen), screen   # the hard bot's evaluation
        while "STICH-EXIT=" not in screen:
            prompt = PROMPT.match([l for l in screen.rstrip().split("\n") if l.strip()][-1])
            hand, calls = choices(screen)
            if prompt.group(3):                       # a set of cards: k numbers under the hand
                typed = " ".join(map(str, rng.sample(hand, int(prompt.group(3)))))
            elif (bold := re.search(r"\[(\d+)\] (picks up the blind|has an Armut)", screen.split("─" * 20)[-1])):
                typed = bold.group(1)                 # take the blind: the bury comes next
            else:
                typed = str(rng.choice(hand + calls))
            term.send(typed)
            screen = term.wait(screen)
            actions += 1
            assert actions < 80, screen
        full = term.screen(history=True)
        Path(os.environ.get("STICH_TMUX_LOG", "/dev/null")).write_text(full)
    finally:
        term.close()
    assert "STICH-EXIT=0" in full, full[-3000:]
    assert "Traceback" not in full and "True" not in full and "['" not in full
    assert "Deal 1 is over" in full and actions >= 2
    assert re.search(r"Last trick \(trick \d+\): ", full)
    assert "Scoring" in full and "item" in full and "value" in full
    assert "Match totals after 1 of 1 deals" in full and "Match over" in full
    assert all(len(line) <= 80 for line in full.split("\n"))
