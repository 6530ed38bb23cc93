"""`python -m engine_core demo` (`make demo`): deals bid by the hand-strength policy of
engine_core/demo.py look like real tables (varied contracts, not only Touts and solos), and
the policy does what its docstring says on hands made for it."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from engine_core import cli, demo, games


def contracts(capsys, game: str, deals: int = 24, seed: int = 1) -> Counter:
    assert cli.main(["demo", "--game", game, "--deals", str(deals), "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("bids and play: " + demo.policy(game, seed).name)
    assert f"match totals after {deals} deals" in out
    assert "True" not in out and "{" not in out
    return Counter(re.findall(r"^  contract: (\w+)", out, re.M))


def test_schafkopf_demo_has_varied_contracts(capsys):
    seen = contracts(capsys, "schafkopf", 40)
    assert len(seen) >= 3 and seen["rufspiel"] >= 8, seen
    assert seen["wenz_tout"] + seen["solo_tout"] <= 4, seen      # the uniform bids made these the rule
    if isinstance(demo.policy("schafkopf", 1), demo.HandStrengthPolicy):
        assert seen["rufspiel"] > seen["farbsolo"] + seen["wenz"] and seen["wenz_tout"] + seen["solo_tout"] == 0


def test_the_demo_uses_the_normal_bot_when_there_is_one(monkeypatch, capsys):
    """A stand-in `engine_core.bots` with the bots API: the demo hands it views only."""
    import sys
    import types
    seen_views = []

    class Bot:
        def choose(self, view):
            assert isinstance(view, dict) and view["legal"], view
            seen_views.append(view)
            return view["legal"][-1]

    fake = types.ModuleType("engine_core.bots")
    fake.get = lambda game, level, seed, options=None: (level == "normal" and game == "klaverjas") and Bot()
    monkeypatch.setitem(sys.modules, "engine_core.bots", fake)
    import engine_core
    monkeypatch.setattr(engine_core, "bots", fake, raising=False)
    assert isinstance(demo.policy("klaverjas", 1), demo.BotPolicy)
    assert cli.main(["demo", "--game", "klaverjas", "--deals", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("bids and play: the normal bot") and "match totals" in out
    assert len(seen_views) >= 32 and all("hands" not in v for v in seen_views)


@pytest.mark.parametrize("game,expected", [("doppelkopf", {"normal"}), ("sheepshead", {"ace"}),
                                           ("klaverjas", {"trump"})])
def test_other_games_demo(capsys, game, expected):
    seen = contracts(capsys, game, 30)
    assert expected <= set(seen), seen
    if game == "doppelkopf":
        assert seen["normal"] > sum(seen.values()) / 2, seen     # solos are the exception
    if game == "sheepshead":
        assert seen["leaster"] < sum(seen.values()) / 4, seen    # most deals have a picker


def first_speaker(game: str, hands: list[list[str]], blind=None, options=None):
    state = games.get(game, options).new_deal(hands, dealer=0, blind=blind)
    return state, demo.HandStrengthPolicy(game, 1)


def test_schafkopf_bids():
    strong = ["QC", "QS", "JC", "JS", "AH", "TH", "KH", "9H"]           # 8 Herz-Solo trumps
    rest = ["QH", "QD", "JH", "JD", "8H", "7H", "AC", "TC", "KC", "9C", "8C", "7C",
            "AS", "TS", "KS", "9S", "8S", "7S", "AD", "TD", "KD", "9D", "8D", "7D"]
    state, policy = first_speaker("schafkopf", [rest[16:24], strong, rest[0:8], rest[8:16]])
    assert state.to_act() == 1
    assert policy.choose(state) == {"seat": 1, "type": "bid", "call": "farbsolo", "suit": "H"}
    sau = ["QH", "JD", "8H", "7H", "TC", "9C", "KS", "9S"]                 # 4 trumps, 2 of them O/U
    others = [c for c in rest + strong if c not in sau]
    state, policy = first_speaker("schafkopf", [others[0:8], sau, others[8:16], others[16:24]])
    bid = policy.choose(state)
    assert bid["call"] == "rufspiel" and bid["suit"] in "CS"
    weak = ["8H", "7H", "9C", "8C", "9S", "8S", "9D", "8D"]
    others = [c for c in rest + strong if c not in weak]
    state, policy = first_speaker("schafkopf", [others[0:8], weak, others[8:16], others[16:24]])
    assert policy.choose(state)["call"] == "pass"


def deal_rest(deck: list[str], fixed: dict[int, list[str]], seats: int, size: int,
              blind: list[str] = ()) -> list[list[str]]:
    """Hands with `fixed` ones where given and the rest of `deck` in order elsewhere."""
    rest = list(deck)
    for card in [c for h in fixed.values() for c in h] + list(blind):
        rest.remove(card)
    return [fixed[s] if s in fixed else [rest.pop(0) for _ in range(size)] for s in range(seats)]


def test_sheepshead_picks_and_buries_points():
    deck = [r + s for s in "CSHD" for r in "ATKQJ987"]
    picker = ["QC", "QS", "JC", "JD", "AD", "AH"]                     # 5 trumps and the heart ace
    blind = ["TH", "7S"]
    state, policy = first_speaker("sheepshead", deal_rest(deck, {1: picker}, 5, 6, blind), blind)
    assert state.to_act() == 1
    assert policy.choose(state) == {"seat": 1, "type": "bid", "call": "pick"}
    state.apply({"seat": 1, "type": "bid", "call": "pick"})
    bury = policy.choose(state)
    assert bury["call"] == "bury" and sorted(bury["cards"]) == ["AH", "TH"]    # the points, no trump


def test_klaverjas_names_the_suit_with_the_jack():
    deck = [r + s for s in "CSHD" for r in "ATKQJ987"]
    hand = ["JH", "9H", "7H", "8S", "AS", "7C", "8C", "7D"]
    state, policy = first_speaker("klaverjas", deal_rest(deck, {1: hand}, 4, 8))
    assert state.to_act() == 1
    assert policy.choose(state) == {"seat": 1, "type": "bid", "call": "trump", "suit": "H"}
    weak = ["8H", "7H", "8S", "7S", "AC", "8C", "7D", "8D"]
    state, policy = first_speaker("klaverjas", deal_rest(deck, {1: weak}, 4, 8))
    assert policy.choose(state) == {"seat": 1, "type": "bid", "call": "pass"}


def test_doppelkopf_reservations():
    deck = [r + s for s in "CSHD" for r in "ATKQJ9"] * 2
    healthy = ["QC", "QS", "JC", "JH", "AD", "TD", "AC", "TC", "AS", "KS", "AH", "9H"]
    state, policy = first_speaker("doppelkopf", deal_rest(deck, {1: healthy}, 4, 12))
    assert state.to_act() == 1
    assert policy.choose(state) == {"seat": 1, "type": "bid", "call": "healthy"}
    queens = ["QC", "QS", "QS", "QH", "QD", "JC", "AC", "TC", "AS", "KS", "AH", "9H"]
    state, policy = first_speaker("doppelkopf", deal_rest(deck, {1: queens}, 4, 12))
    assert policy.choose(state) == {"seat": 1, "type": "bid", "call": "solo_queens"}
    wedding = ["QC", "QC", "JH", "AC", "TC", "KC", "AS", "TS", "KS", "AH", "9H", "9C"]
    state, policy = first_speaker("doppelkopf", deal_rest(deck, {1: wedding}, 4, 12))
    assert policy.choose(state) == {"seat": 1, "type": "bid", "call": "hochzeit"}
