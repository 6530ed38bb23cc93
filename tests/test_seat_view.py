"""What a seat knows, carried by its view for every registered game (docs/records.md, "What
each seat sees"): the card order in force, the card points of the contract in force, the sides
as the seat knows them. The bots and every client read these instead of re-deriving a game's
rules, so each is checked against what the deal turns out to be."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_core import games

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(game: str, seed: int):
    """A random deal played out, with every seat's view at every step."""
    g = games.get(game)
    state = g.deal(seed, seed % g.seats)
    rng = random.Random(seed)
    views = []
    while not state.is_over():
        views.append([state.view(s) for s in range(g.seats)] + [state.view(None)])
        state.apply(rng.choice(state.legal_actions()))
    views.append([state.view(s) for s in range(g.seats)] + [state.view(None)])
    return g, state, views


@SETTINGS
@given(game=st.sampled_from(games.available()), seed=st.integers(0, 2**64 - 1))
def test_sides_are_never_wrong(game, seed):
    """A seat's known partners and opponents agree with the teams the result names, at every
    moment; the seat is its own partner; a spectator is told no sides."""
    g, state, views = play(game, seed)
    teams = state.result()["teams"]
    for step in views:
        *seats, spectator = step
        assert spectator["sides"] is None
        for seat, view in enumerate(seats):
            sides = view["sides"]
            partners, opponents = set(sides["partners"]), set(sides["opponents"])
            assert seat in partners and not partners & opponents
            assert partners | opponents <= set(range(g.seats))
            team = next((set(t) for t in teams if seat in t), None)
            if team is not None:
                assert partners <= team, (view["phase"], view["contract"], sides, teams)
                assert not opponents & team, (view["phase"], view["contract"], sides, teams)


@SETTINGS
@given(game=st.sampled_from(games.available()), seed=st.integers(0, 2**64 - 1))
def test_points_count_the_deal(game, seed):
    """The view's card points are what the result counts: at least the tricks' cards, at most
    every card dealt (a blind, a bury) and a last-trick bonus of 10; every face has a value."""
    g, state, views = play(game, seed)
    result = state.result()
    final = views[-1][0]
    assert set(final["points"]) == set(g.deck.faces)
    if len(result["tricks"]) < g.spec.hand_size:
        return                              # thrown in, or a Tout ended early
    points = final["points"]
    taken = sum(points[c] for _, cards, _ in result["tricks"] for c in cards)
    dealt = sum(points[c] for hand in state.hands for c in hand) + sum(points[c] for c in state.blind)
    # every trick's cards count; a blind or a bury may count too; a last-trick bonus of 10 may
    assert taken <= sum(result["card_points"]) <= dealt + 10


@SETTINGS
@given(game=st.sampled_from(games.available()), seed=st.integers(0, 2**64 - 1))
def test_order_is_public_once_the_play_begins(game, seed):
    """No order before the card play; from then on every face once, the same for every seat and
    the spectator, and each seat's hand sorted by it (trumps first, highest first)."""
    g, state, views = play(game, seed)
    for step in views:
        orders = {repr(v["order"]) for v in step}
        assert len(orders) == 1
        order = step[0]["order"]
        if order is None:
            assert "play" not in [a["type"] for a in step[0]["legal"] + step[0]["actions"]]
            continue
        faces = [c for cards in order.values() for c in cards]
        assert sorted(faces) == sorted(g.deck.faces)
        rank = {c: i for i, c in enumerate(faces)}
        for v in step[:-1]:
            keys = [rank[c] for c in v["hand"]]
            assert keys == sorted(keys)


def test_order_points_and_sides_in_a_schafkopf_rufspiel():
    """A concrete deal: seat 0 calls the Eichel-Sau; its holder knows his side from the start,
    the others only once the ace falls."""
    g = games.get("schafkopf")
    hands = [["QC", "QS", "JC", "JS", "AH", "TH", "9C", "7S"],
             ["QH", "QD", "JH", "JD", "KH", "AC", "8C", "9S"],
             ["KC", "AS", "7C", "TS", "KS", "8S", "9H", "8H"],
             ["TC", "AD", "TD", "KD", "9D", "8D", "7D", "7H"]]
    state = g.new_deal(hands, dealer=3)
    state.apply({"seat": 0, "type": "bid", "call": "rufspiel", "suit": "C"})
    for seat in (1, 2, 3):
        state.apply({"seat": seat, "type": "bid", "call": "pass"})
    assert state.view(1)["sides"] == {"partners": [0, 1], "opponents": [2, 3]}      # holds AC
    assert state.view(0)["sides"] == {"partners": [0], "opponents": []}
    assert state.view(2)["sides"] == {"partners": [2], "opponents": [0]}
    order = state.view(0)["order"]
    assert order["trump"][:4] == ["QC", "QS", "QH", "QD"] and order["trump"][-1] == "7H"
    assert order["C"] == ["AC", "TC", "KC", "9C", "8C", "7C"] and "7C" not in order["trump"]
    assert state.view(0)["points"]["AC"] == 11 and state.view(0)["points"]["QC"] == 3
    for card, seat in (("7S", 0), ("9S", 1), ("TS", 2), ("7D", 3)):        # seat 0 leads
        state.apply({"seat": seat, "type": "play", "card": card})
    leader = state.view(0)["to_act"]
    assert leader == 2
    for card, seat in (("7C", 2), ("TC", 3), ("9C", 0), ("AC", 1)):        # the ace falls
        state.apply({"seat": seat, "type": "play", "card": card})
    assert state.view(2)["sides"] == {"partners": [2, 3], "opponents": [0, 1]}
    assert state.view(0)["sides"] == {"partners": [0, 1], "opponents": [2, 3]}
