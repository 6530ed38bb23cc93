"""Moves written as text, for the tests' concrete deals: each action is made by the seat to act.

- `play(state, "QC 7H | AS ...")`: cards in order (`|` marks tricks for the reader);
- `bids(state, "healthy", ...)`: bids by name;
- `act(state, "bid pick", "exchange bury KH 7S", "bid ace C")`: any call: type, call, then an
  exchange's cards or a suit;
- `bots_finish(state, players)`: the bots (one per seat) play the deal out, each choice checked
  legal; the deal's scores sum to zero."""
from __future__ import annotations


def play(state, cards):
    for card in cards.replace("|", " ").split():
        state.apply({"seat": state.to_act(), "type": "play", "card": card})


def bids(state, *calls):
    for call in calls:
        state.apply({"seat": state.to_act(), "type": "bid", "call": call})


def act(state, *actions):
    for action in actions:
        kind, call, *rest = action.split()
        a = {"seat": state.to_act(), "type": kind, "call": call}
        if kind == "exchange":
            a["cards"] = rest
        elif rest:
            a["suit"] = rest[0]
        state.apply(a)


def bots_finish(state, players):
    while not state.is_over():
        seat = state.to_act()
        action = players[seat].choose(state.view(seat))
        assert action in state.legal_actions()
        state.apply(action)
    assert sum(state.result()["scores"]) == 0
