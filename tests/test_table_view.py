"""`stich play`'s renderer (table_view.py) and menu (menu.py) on concrete views of every game
and phase: the views are the engine's, passed through the server's and the client's
conversions exactly as a TableView travels, rendered into an 80-column recording Console."""
from __future__ import annotations

import json
import random
import re

import pytest
from rich.console import Console

from engine_core import games
from service import convert as server_convert
from stich_client import convert as client_convert
from stich_client import table_view
from stich_client.gen.stich.v1 import games_pb2
from stich_client.menu import Menu

from conftest import GAMES

# (game, options, calls preferred when legal): together they reach every phase of the game (a
# game not listed: its defaults, no call preferred)
SCENARIOS = {
    "schafkopf": [({"kontra": True, "klopfen": True}, ("kontra", "re", "rufspiel", "klopfen"))],
    "doppelkopf": [({}, ("armut", "accept", "healthy")), ({}, ("healthy", "re", "no_90"))],
    "sheepshead": [({"cracking": True, "blitz": True}, ("pick", "blitz", "crack", "recrack", "ace")),
                   ({"unknown_broad": True}, ("pick", "unknown_ace"))],
    "klaverjas": [({}, ("pass", "trump")),
                  ({"bidding": "drents", "stuk": "declared", "roem_claim": True}, ("points_80", "stuk", "roem"))],
}
SCENARIOS["sheepshead4"] = SCENARIOS["sheepshead6"] = SCENARIOS["sheepshead"]
# six seats with the dealer sitting out too (docs/rules/sheepshead.md 13): seat 0 deals deal 0
SCENARIOS["sheepshead6"] = SCENARIOS["sheepshead"] + [({"dealer_sits_out": True, "cracking": True, "blitz": True},
                                                        ("pick", "blitz", "crack", "recrack", "ace"))]
SCENARIOS["sheepshead3"] = [({"cracking": True, "blitz": True}, ("pick", "blitz", "crack", "recrack"))]
SCENARIOS["sheepshead4c"] = [({"cracking": True, "blitz": True, "red_blitz": True}, ("pick", "blitz", "crack", "recrack"))]
# phases a game declares (its rules' phases) that it never reaches: the three-handed picker is
# always alone, so there is no partner call and no unknown card
UNREACHED = {"sheepshead3": {"call", "unknown"}, "sheepshead4c": {"call", "unknown"}}


@pytest.fixture(autouse=True, scope="module")
def learned_words():
    """The words of every game as `stich play` learns them: from ListGames' Struct."""
    for game in games.available():
        info = games_pb2.GameInfo(name=game)
        info.words.update(games.spec_of(game).words)
        table_view.learn(game, client_convert.from_struct(info.words))


def client_view(state, seat: int, deal_number: int = 1) -> dict:
    """The view of `seat` as the client returns it from a real TableView."""
    n = state.game.seats
    table = {"table_id": "t_test", "version": len(state.actions) + 1, "game": state.game.name,
             "seats": ["human"] + ["bot"] * (n - 1), "status": "in_deal", "deal_number": deal_number,
             "deals_counted": 0, "deals_per_match": 4, "match_scores": [0] * n,
             "options": state.game.options.as_dict(), "seat": seat, "deal": state.view(seat)}
    return client_convert.view_dict(server_convert.view_msg(table))


def collect(game: str) -> tuple[dict[str, dict], list[dict]]:
    """One view of the seat to act per phase, and the finished deals' views of seat 0."""
    phases: dict[str, dict] = {}
    finished: list[dict] = []
    for options, prefer in SCENARIOS.get(game, [({}, ())]):
        g = games.get(game, options)
        for seed in range(200):
            state, rng = g.deal(seed), random.Random(seed)
            while not state.is_over():
                seat = state.to_act()
                if state.phase() not in phases:
                    phases[state.phase()] = client_view(state, seat)
                legal = state.legal_actions()
                pick = [a for call in prefer for a in legal if a.get("call") == call]
                state.apply(pick[0] if pick and rng.random() < 0.8 else rng.choice(legal))
            if len(finished) < 3:
                finished.append(client_view(state, 0))
            if set(phases) >= set(g.spec.phases) - {"over"} - UNREACHED.get(game, set()) and len(finished) >= 3:
                break
    return phases, finished


@pytest.fixture(scope="module", params=GAMES)
def game_views(request):
    return request.param, *collect(request.param)


def render(renderable) -> str:
    console = Console(record=True, width=80, file=open("/dev/null", "w"), color_system=None)
    console.print(renderable)
    return console.export_text()


RAW = re.compile(r"True|False|None|\[\'|\{|\}|'\w+'|_[a-z]")     # Python reprs, JSON, call ids


def check_plain(text: str) -> None:
    for line in text.splitlines():
        assert len(line) <= 80, f"wider than 80 columns: {line!r}"
    assert not RAW.search(text), f"raw data on screen: {RAW.search(text).group()!r} in\n{text}"


def test_every_phase_renders_in_words(game_views):
    game, phases, _ = game_views
    assert set(phases) >= set(games.get(game).spec.phases) - {"over"} - UNREACHED.get(game, set())
    for phase, view in phases.items():
        menu = Menu.of(view)
        text = render(table_view.render_view(view, menu, view["actions"][-3:]))
        check_plain(text)
        assert phase.replace("_", " ") in text.splitlines()[0]
        for card in view["hand"]:
            assert table_view.card_label(game, card) in text
        if game == "schafkopf":
            assert not set("♣♠♥♦") & set(text) and re.search(r"\b(Ei|Gr|He|Sch)-(A|10|K|O|U|9|8|7)\b", text)
        else:
            assert set("♣♠♥♦") & set(text)
        # every legal action can be chosen by a number shown on the screen
        assert menu.choices or menu.picks
        for choice in menu.choices:
            assert menu.parse(str(choice.number)) == choice.action
        if menu.picks is None:
            assert len(menu.choices) == len({json.dumps(a, sort_keys=True) for a in view["legal"]})
        else:                            # a set of cards: typed, never listed pair by pair
            assert len(re.findall(r"^\s*\[\d+\]", text, re.M)) == len(menu.choices) < 5


def test_deal_results_show_breakdown_last_trick_and_totals(game_views):
    game, _, finished = game_views
    for view in finished:
        result = view["result"]
        score = {"deal_number": 1, "result": result, "match_scores": result["scores"], "deals_finished": 1,
                 "deals_per_match": 4, "match_over": False}
        text = render(table_view.render_result(game, score, 0))
        check_plain(text)
        assert "Scoring" in text and "Match totals after 1 of 4 deals" in text
        for item in result["breakdown"]:
            assert table_view.item_words(game, item["item"]) in text
        leader, cards, winner = result["tricks"][-1]
        assert f"Last trick (trick {len(result['tricks'])})" in text
        assert all(table_view.card_label(game, c) in text for c in cards)
        deal_scores = r"\s+".join(re.escape(f"{s:+d}") for s in result["scores"])
        assert re.search(r"this deal\s+" + deal_scores, text)


def test_last_trick_on_request(game_views):
    game, phases, _ = game_views
    view = phases["play"]
    assert render(table_view.render_last_trick(dict(view, tricks=[]))).strip() == "No trick finished yet."
    view = dict(view, seat=0, tricks=[[1, ["AC", "KC", "9C", "TC"], 3]])
    text = render(table_view.render_last_trick(view))
    assert text.startswith("Last trick (trick 1): seat 1 ")
    assert text.rstrip().endswith("→ seat 3")


def first_view(game: str, options: dict, phase: str, prefer: tuple[str, ...], seeds=range(300)) -> dict:
    g = games.get(game, options)
    for seed in seeds:
        state, rng = g.deal(seed), random.Random(seed)
        while not state.is_over():
            if state.phase() == phase:
                return client_view(state, state.to_act())
            legal = state.legal_actions()
            pick = [a for call in prefer for a in legal if a.get("call") == call]
            state.apply(pick[0] if pick else rng.choice(legal))
    raise AssertionError(f"no {phase} in {game}")


def test_sheepshead_bury_takes_two_cards_in_any_order():
    view = first_view("sheepshead", {}, "bury", ("pick",))
    menu = Menu.of(view)
    assert menu.picks == ("bury", 2) and len(view["legal"]) > 10
    legal = view["legal"][-1]
    a, b = legal["cards"]
    for typed in (f"{a} {b}", f"{b} {a}", f"bury {b.lower()}, {a.lower()}",
                  " ".join(table_view.card_label("sheepshead", c) for c in (b, a))):
        assert menu.parse(typed) == legal, typed
    numbers = {c: menu.card_numbers[i] for i, c in enumerate(view["hand"])}
    assert menu.parse(f"{numbers[b]} {numbers[a]}") == legal
    kind, why = menu.parse(f"{a}")
    assert kind == "error" and "choose 2 cards" in why
    absent = next(r + s for r in "AKQJT987" for s in "CSHD" if r + s not in view["hand"])
    kind, why = menu.parse(f"{a} {absent}")
    assert kind == "error" and "choose 2 cards" in why
    text = render(table_view.render_view(view, menu))
    assert "Choose 2 cards to bury" in text and "Blind picked up:" in text
    assert menu.prompt() == "bury 2 cards> "


def test_doppelkopf_armut_return_by_numbers():
    view = first_view("doppelkopf", {}, "armut_return", ("armut", "accept", "healthy"), range(3000))
    menu = Menu.of(view)
    assert menu.picks == ("armut_return", 3)
    target = view["legal"][len(view["legal"]) // 2]
    index = {}
    for i, c in enumerate(view["hand"]):
        index.setdefault(c, []).append(menu.card_numbers[i])
    typed = [index[c].pop() for c in reversed(target["cards"])]
    assert menu.parse(" ".join(map(str, typed))) == target
    text = render(table_view.render_view(view, menu))
    assert "Armut by seat" in text and re.search(r"(you take|seat \d takes) the Armut", text)
    assert "Choose 3 cards to give back" in text


def test_calls_and_cards_by_name():
    view = first_view("schafkopf", {}, "auction", ())
    menu = Menu.of(view)
    labels = [c.label for c in menu.choices]
    assert labels[0] == "passes (weiter)"
    assert menu.parse("pass") == {"seat": view["to_act"], "type": "bid", "call": "pass"}
    for choice in menu.choices:
        a = choice.action
        if a["call"] == "rufspiel":
            name = table_view.suit_name("schafkopf", a["suit"])
            assert choice.label == f"plays a Sauspiel with the {name}-Sau"
            assert menu.parse(f"rufspiel {name.lower()}") == a == menu.parse(f"rufspiel {a['suit']}")
        if a["call"] == "farbsolo":
            assert menu.parse(f"farbsolo {table_view.suit_name('schafkopf', a['suit'])}") == a
    kind, why = menu.parse(str(len(menu.choices) + 1))
    assert kind == "error" and f"1..{len(menu.choices)}" in why
    assert menu.parse("help") == "help" and menu.parse("QUIT") == "quit" and menu.parse("last") == "last"

    play = first_view("schafkopf", {}, "play", ("rufspiel",))
    menu = Menu.of(play)
    card = menu.choices[0].action["card"]
    assert menu.parse(card.lower()) == menu.choices[0].action
    assert menu.parse(table_view.card_label("schafkopf", card)) == menu.choices[0].action
    illegal = [c for i, c in enumerate(play["hand"]) if i not in menu.card_numbers]
    if illegal:
        kind, why = menu.parse(illegal[0])
        assert kind == "error" and "not allowed now" in why


def test_words_for_calls_and_contracts():
    w = table_view.action_words
    assert w("doppelkopf", {"seat": 0, "type": "bid", "call": "healthy"}, 0) == "you are healthy (gesund)"
    assert w("doppelkopf", {"seat": 2, "type": "announce", "call": "no_90"}, 0) == "seat 2 announces no 90"
    assert w("doppelkopf", {"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["??"] * 3}, 0) \
        == "seat 1 gives the Armut partner 3 cards"
    assert w("sheepshead", {"seat": 0, "type": "exchange", "call": "bury", "cards": ["KS", "TH"]}, 0) \
        == "you bury K♠ 10♥"
    assert w("sheepshead", {"seat": 3, "type": "bid", "call": "ace", "suit": "H"}, 0) == "seat 3 calls the ace of hearts"
    assert w("klaverjas", {"seat": 1, "type": "bid", "call": "trump", "suit": "D"}, 0) \
        == "seat 1 plays with diamonds as trump"
    assert w("schafkopf", {"seat": 0, "type": "play", "card": "QC"}, 0) == "you play Ei-O"
    assert w("schafkopf", {"seat": 1, "type": "bid", "call": "farbsolo", "suit": "C"}, 0) == "seat 1 plays an Eichel-Solo"
    c = table_view.contract_words
    assert c("schafkopf", {"type": "rufspiel", "declarer": 0, "suit": "D", "kontra": 2, "re": None}, 0) \
        == "Sauspiel with the Schellen-Sau by you; Kontra by seat 2"
    assert c("sheepshead", {"type": "ace", "picker": 1, "called_card": "AC", "partner": None, "multiplier": 2,
                            "cracked_by": 3, "recracked": True}, 0) \
        == "called ace, seat 1 picked; called card A♣; cracked by seat 3, re-cracked; stakes ×2"
    assert c("klaverjas", {"type": "trump", "declarer": 1, "trump": "H", "outcome": "nat"}, 0) \
        == "hearts trump by seat 1; the makers went wet (nat)"


def test_a_game_is_rendered_from_its_words_alone():
    """The renderer knows no game by name: Schafkopf's words learned under another name render
    the same screen, and a game whose words are unknown (an older server) shows the engine's
    names instead of failing."""
    view = first_view("schafkopf", {}, "auction", ())
    table_view.learn("scratch", games.spec_of("schafkopf").words)
    scratch = dict(view, game="scratch")
    assert render(table_view.render_view(scratch, Menu.of(scratch))).replace("Scratch", "Schafkopf") \
        == render(table_view.render_view(view, Menu.of(view)))
    unknown = dict(view, game="unknown")
    text = render(table_view.render_view(unknown, Menu.of(unknown)))
    assert "rufspiel" in text and all(card in text for card in view["hand"])
