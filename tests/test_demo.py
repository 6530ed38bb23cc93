"""`python -m engine_core demo` (`make demo`): deals played by the normal bot at every seat look
like real tables (varied contracts, not only Touts and solos), and the bot sees views only."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from engine_core import bots, cli, demo


def contracts(capsys, game: str, deals: int = 24, seed: int = 1) -> Counter:
    assert cli.main(["demo", "--game", game, "--deals", str(deals), "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("bids and play: the normal bot")
    assert f"match totals after {deals} deals" in out
    assert "True" not in out and "{" not in out
    return Counter(re.findall(r"^  contract: (\w+)", out, re.M))


def test_schafkopf_demo_has_varied_contracts(capsys):
    seen = contracts(capsys, "schafkopf", 40)
    assert len(seen) >= 3 and seen["rufspiel"] >= 8, seen
    assert seen["wenz_tout"] + seen["solo_tout"] <= 4, seen      # the uniform bids made these the rule


def test_the_demo_hands_the_bot_views_only(monkeypatch, capsys):
    """Every choice is made from the acting seat's view: its own hand, no other seat's."""
    seen = []
    bot_class = type(bots.get("klaverjas", "normal", 2))
    choose = bot_class.choose

    def spy(self, view):
        assert "hands" not in view, sorted(view)
        seen.append((view["seat"], frozenset(view["hand"])))
        return choose(self, view)

    monkeypatch.setattr(bot_class, "choose", spy)
    assert isinstance(demo.policy("klaverjas", 1), demo.BotPolicy)
    assert cli.main(["demo", "--game", "klaverjas", "--deals", "1", "--seed", "2"]) == 0
    assert "match totals" in capsys.readouterr().out
    assert len(seen) >= 32 and {seat for seat, _ in seen} == {0, 1, 2, 3}
    first = {}
    for seat, hand in seen:
        first.setdefault(seat, hand)
        assert hand <= first[seat]                   # a seat's own cards, fewer as it plays
    assert sum(map(len, first.values())) == len(frozenset().union(*first.values()))   # no card in two views


@pytest.mark.parametrize("game,expected", [("doppelkopf", {"normal"}), ("sheepshead", {"ace"}),
                                           ("klaverjas", {"trump"})])
def test_other_games_demo(capsys, game, expected):
    seen = contracts(capsys, game, 30)
    assert expected <= set(seen), seen
    if game == "doppelkopf":
        assert seen["normal"] > sum(seen.values()) / 2, seen     # solos are the exception
    if game == "sheepshead":
        assert seen["leaster"] < sum(seen.values()) / 4, seen    # most deals have a picker
