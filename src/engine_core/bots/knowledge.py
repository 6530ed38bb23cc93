"""What a seat can read off its view, shared by the levels: card points, the card order in
force (the view's "order"), the trick in play and who wins it, the seat's known partners and
opponents, cards still out and voids shown by not following suit. Only the view is read."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .. import games

SUITS = "CSHD"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
KLAVERJAS_TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
HIDDEN = "??"


def rng_for(seed: int, view: dict, salt: str = "") -> random.Random:
    """A random stream that depends only on the bot's seed and the decision (seat and the
    number of actions so far): the same view gives the same choice, whatever came before."""
    return random.Random(f"{seed}:{view['seat']}:{len(view['actions'])}:{salt}")


def points(game: str, card: str, trump_suit: str | None = None) -> int:
    if game == "klaverjas" and trump_suit is not None and card[1] == trump_suit:
        return KLAVERJAS_TRUMP_POINTS[card[0]]
    return POINTS[card[0]]


class NoConsistentWorld(ValueError):
    """The inference found no deal consistent with a view: a gap in the sampler (some
    Doppelkopf announcement and Armut histories), not a fault of the view."""


@dataclass
class Order:
    """The card order of a view: effective suit ("trump" or C S H D) and power of each face."""

    suit_of: dict = field(default_factory=dict)
    power: dict = field(default_factory=dict)
    lists: dict = field(default_factory=dict)

    @classmethod
    def of(cls, view: dict, options: dict | None = None) -> "Order | None":
        """The order in force in the card play (None before it): the rules and the public
        contract fix it, so it is read once per contract off any world consistent with the
        view (engine_core.bots.inference, voids left out) and kept."""
        raw = view.get("order") or _order_lists(view, options)
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


def trump_suit_of(view: dict) -> str | None:
    """Klaverjas: the trump suit (its points differ)."""
    contract = view.get("contract") or {}
    return contract.get("trump") if view["game"] == "klaverjas" else None


@dataclass
class Trick:
    leader: int
    cards: list
    seats: list
    led: str | None
    winner_pos: int | None


def current_trick(view: dict, order: Order, seats: int) -> Trick:
    trick = view.get("trick") or {"leader": view["seat"], "cards": []}
    cards = list(trick["cards"])
    leader = trick["leader"]
    seat_list = [(leader + i) % seats for i in range(len(cards))]
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
    """(known partners incl. the seat itself, known opponents) as far as the view tells."""
    game, me = view["game"], view["seat"]
    n = spec_of(view).seats
    others = set(range(n)) - {me}
    mine, theirs = {me}, set()
    contract = view.get("contract") or {}
    if game == "klaverjas":
        teams = view.get("teams")
        if teams:
            for t in teams:
                if me in t:
                    mine = set(t)
            theirs = set(range(n)) - mine
        else:
            mine, theirs = {me, (me + 2) % 4}, {(me + 1) % 4, (me + 3) % 4}
    elif game == "doppelkopf":
        teams = view.get("teams") or {}
        for name in ("re", "kontra"):
            side = set(teams.get(name) or [])
            if me in side:
                mine |= side
                other = "kontra" if name == "re" else "re"
                theirs |= set(teams.get(other) or [])
                if teams.get("complete"):
                    theirs = set(range(n)) - mine
    elif game == "schafkopf":
        declarer = contract.get("declarer")
        partner = contract.get("partner")
        if contract.get("type") == "ramsch" or declarer is None:
            theirs = others
        else:
            dside = {declarer} | ({partner} if partner is not None else set())
            solo = contract.get("type") != "rufspiel"
            if me in dside:
                mine = dside
                theirs = others - dside if (solo or partner is not None) else theirs | set()
                if not solo and partner is None:
                    theirs = set()
            else:
                theirs = dside
                if solo or partner is not None:
                    mine = set(range(n)) - dside
    elif game == "sheepshead":
        picker = contract.get("picker", view.get("picker"))
        partner = contract.get("partner")
        if picker is None or contract.get("type") in ("leaster", "doubler"):
            theirs = others
        else:
            pside = {picker} | ({partner} if partner is not None else set())
            alone = contract.get("type") == "alone"
            if me in pside:
                mine = pside
                theirs = others - pside if (alone or partner is not None) else set()
            else:
                theirs = pside
                if alone or partner is not None:
                    mine = set(range(n)) - pside
    return mine, theirs


def played_cards(view: dict) -> list[tuple[int, str]]:
    """(seat, card) of every card played so far, in order ("??" for a face-down card)."""
    return [(a["seat"], a["card"]) for a in view["actions"] if a.get("type") == "play"]


def voids(view: dict, order: Order, seats: int) -> dict[int, set]:
    """Effective suits each seat has shown it does not hold (it did not follow them)."""
    out: dict[int, set] = {s: set() for s in range(seats)}
    tricks = [(t[0], t[1]) for t in view.get("tricks") or []]
    cur = view.get("trick")
    if cur and cur.get("cards"):
        tricks.append((cur["leader"], cur["cards"]))
    for leader, cards in tricks:
        if not cards or cards[0] == HIDDEN:
            continue
        led = order.suit_of.get(cards[0])
        for i, c in enumerate(cards[1:], 1):
            if c != HIDDEN and order.suit_of.get(c) != led:
                out[(leader + i) % seats].add(led)
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


_ORDERS: dict = {}


def _order_lists(view: dict, options: dict | None):
    if view.get("phase") != "play":
        return None
    contract = view.get("contract") or {}
    key = (view["game"], repr(sorted((options or {}).items())),
           *(repr(contract.get(k)) for k in ("type", "suit", "trumps", "trump", "solo")))
    lists = _ORDERS.get(key)
    if lists is None:
        from .inference import Inference
        inf = Inference(view, options, use_voids=False)
        worlds = inf.sample(1, 0, max_tries=1_000_000)
        if not worlds:
            raise NoConsistentWorld("no deal is consistent with this view")
        state = inf.state_of(worlds[0])
        deck = state.game.deck
        lists = {name: [deck.code(i) for i in cards]
                 for name, cards in zip(("trump", *SUITS), state.core.card_order())}
        if len(_ORDERS) > 4096:
            _ORDERS.clear()
        _ORDERS[key] = lists
    return lists
