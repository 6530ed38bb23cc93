"""What a seat can read off its view, shared by the levels: card points (the view's
"points"), the card order in force (its "order"), the trick in play and who wins it, the seat's
known partners and opponents (its "sides"), cards still out and voids shown by not following
suit. Only the view and the game's declaration are read, never a game's name."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .. import games

HIDDEN = "??"


def rng_for(seed: int, view: dict, salt: str = "") -> random.Random:
    """A random stream that depends only on the bot's seed and the decision (seat and the
    number of actions so far): the same view gives the same choice, whatever came before."""
    return random.Random(f"{seed}:{view['seat']}:{len(view['actions'])}:{salt}")


@dataclass
class Order:
    """The card order of a view: effective suit ("trump" or C S H D) and power of each face."""

    suit_of: dict = field(default_factory=dict)
    power: dict = field(default_factory=dict)
    lists: dict = field(default_factory=dict)

    @classmethod
    def of(cls, view: dict, options: dict | None = None) -> "Order | None":
        """The order in force (the view's "order", None before the contract fixes it)."""
        raw = view.get("order")
        if raw is None:
            return None
        o = cls(lists=raw)
        for suit, cards in raw.items():
            for i, c in enumerate(cards):
                o.suit_of[c] = suit
                o.power[c] = len(cards) - i
        return o

    def strength(self, card: str, led: str) -> int:
        """How a card bids for a trick led in `led`: trumps above the led suit, -1 otherwise."""
        s = self.suit_of.get(card)
        if s == "trump":
            return 100 + self.power[card]
        if s == led:
            return self.power[card]
        return -1

    def is_trump(self, card: str) -> bool:
        return self.suit_of.get(card) == "trump"


@dataclass
class Trick:
    leader: int
    cards: list
    seats: list
    led: str | None
    winner_pos: int | None


def trick_order(leader: int, seats: int, idle: int | None = None) -> list[int]:
    """The seats that play a trick led by `leader`, in play order; `idle`: a seat that sits
    out the deal (Game.sits_out: six-handed Sheepshead's dealer_sits_out), passed over."""
    return [s for s in ((leader + i) % seats for i in range(seats)) if s != idle]


def current_trick(view: dict, order: Order, seats: int, idle: int | None = None) -> Trick:
    trick = view.get("trick") or {"leader": view["seat"], "cards": []}
    cards = list(trick["cards"])
    leader = trick["leader"]
    seat_list = trick_order(leader, seats, idle)[:len(cards)]
    if not cards:
        return Trick(leader, cards, seat_list, None, None)
    led = order.suit_of.get(cards[0], "?")
    best, best_v = 0, order.strength(cards[0], led)
    for i, c in enumerate(cards[1:], 1):
        v = order.strength(c, led) if c != HIDDEN else -1
        if v > best_v:
            best, best_v = i, v
    return Trick(leader, cards, seat_list, led, best)


def spec_of(view: dict):
    """The declaration of the view's game (seats, deck, default order, ...)."""
    return games.spec_of(view["game"])


def sides(view: dict) -> tuple[set, set]:
    """(known partners incl. the seat itself, known opponents) as far as the view tells (its
    "sides")."""
    known = view.get("sides") or {}
    return set(known.get("partners") or [view["seat"]]), set(known.get("opponents") or [])


def played_cards(view: dict) -> list[tuple[int, str]]:
    """(seat, card) of every card played so far, in order ("??" for a face-down card)."""
    return [(a["seat"], a["card"]) for a in view["actions"] if a.get("type") == "play"]


def voids(view: dict, order: Order, seats: int, idle: int | None = None) -> dict[int, set]:
    """Effective suits each seat has shown it does not hold (it did not follow them); `idle`
    as in `trick_order`."""
    out: dict[int, set] = {s: set() for s in range(seats)}
    tricks = [(t[0], t[1]) for t in view.get("tricks") or []]
    cur = view.get("trick")
    if cur and cur.get("cards"):
        tricks.append((cur["leader"], cur["cards"]))
    for leader, cards in tricks:
        if not cards or cards[0] == HIDDEN:
            continue
        led = order.suit_of.get(cards[0])
        by = trick_order(leader, seats, idle)
        for i, c in enumerate(cards[1:], 1):
            if c != HIDDEN and order.suit_of.get(c) != led:
                out[by[i]].add(led)
    return out


def legal_cards(legal: list[dict]) -> list[str]:
    return [a["card"] for a in legal if a["type"] == "play"]


def by_kind(legal: list[dict], kind: str) -> list[dict]:
    return [a for a in legal if a["type"] == kind]


def find(legal: list[dict], call: str, suit: str | None = None) -> dict | None:
    for a in legal:
        if a.get("call") == call and (suit is None or a.get("suit") == suit):
            return a
    return None
