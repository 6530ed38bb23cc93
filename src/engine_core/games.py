"""The game registry: `games.get(name, options)` returns a `Game`, which deals states.

Each game is one Cython module that supplies the rules data (NAME, SEATS, DECK, HAND_SIZE,
BLIND_SIZE, OPTIONS, CALLS, EXCHANGES, deal_hands, validate_options) and its `Core`.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import importlib
from typing import Any, Mapping

from . import _core
from .errors import InvalidRecordError, OptionError
from .options import Options, resolve
from .state import State

GAMES = ("schafkopf", "doppelkopf", "sheepshead", "klaverjas")


def available() -> list[str]:
    """The games this build implements."""
    out = []
    for name in GAMES:
        try:
            rules_of(name)
        except OptionError:
            continue
        out.append(name)
    return out


def rules_of(name: str):
    if name not in GAMES:
        raise OptionError("game", f"unknown game {name!r}; games are {', '.join(GAMES)}")
    try:
        return importlib.import_module(f"engine_core.{name}")
    except ImportError:
        raise OptionError("game", f"game {name!r} is not implemented in this build") from None


def records_of(name: str):
    """The game's fast record module (`engine_core.<name>_records`: `evaluate_fast(record)`,
    `evaluate_text_fast(line, number)`), or None when the game has none: batch.evaluate and the
    CLI then take the generic path."""
    rules_of(name)
    try:
        return importlib.import_module(f"engine_core.{name}_records")
    except ModuleNotFoundError as err:
        if err.name != f"engine_core.{name}_records":
            raise
        return None


def get(name: str, options: Mapping[str, Any] | Options | None = None) -> "Game":
    """The game `name` with `options` validated and resolved (defaults filled in)."""
    rules = rules_of(name)
    if not isinstance(options, Options):
        if options is not None and not isinstance(options, Mapping):
            raise OptionError("options", f"must be an object, got {type(options).__name__}")
        options = resolve(name, rules.OPTIONS, options)
        # a game may resolve options that depend on each other (it returns the new Options)
        options = rules.validate_options(options) or options
    return Game(rules, options)


def daily_seed(game: str, date: _dt.date | str) -> int:
    """The seed of the daily deal: the same for everyone on that date in that game."""
    if isinstance(date, str):
        date = _dt.date.fromisoformat(date)
    digest = hashlib.sha256(f"stich-daily-v1:{game}:{date.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Game:
    """A game with fixed options; a factory of deals."""

    __slots__ = ("rules", "options")

    def __init__(self, rules, options: Options):
        self.rules = rules
        self.options = options

    @property
    def name(self) -> str:
        return self.rules.NAME

    @property
    def seats(self) -> int:
        return self.rules.SEATS

    @property
    def deck(self):
        return self.rules.DECK

    def __repr__(self) -> str:
        return f"Game({self.options})"

    def deal(self, seed: int, dealer: int = 0) -> State:
        """A seeded deal: deal version 1 (`_core.shuffle`), packets per the rules file."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise InvalidRecordError("seed", f"must be an integer 0..2^64-1, got {seed!r}")
        self._check_dealer(dealer)
        order = _core.shuffle(seed, self.deck.size)
        if getattr(self.rules, "DEAL_USES_OPTIONS", False):   # e.g. Klaverjas deal_packets
            hands, blind = self.rules.deal_hands(order, dealer, self.options)
        else:
            hands, blind = self.rules.deal_hands(order, dealer)
        code = self.deck.code
        return self.new_deal([[code(i) for i in h] for h in hands], dealer, [code(i) for i in blind])

    def daily(self, date: _dt.date | str, dealer: int = 0) -> State:
        return self.deal(daily_seed(self.name, date), dealer)

    def new_deal(self, hands: Any, dealer: int = 0, blind: Any = None) -> State:
        """A deal from given hands (as a record holds them); InvalidRecordError names the
        first wrong field."""
        self._check_dealer(dealer)
        masks, blind_mask = self._check_cards(hands, blind)
        core = self.rules.Core(self.options, masks, dealer, blind_mask)
        return State(self, core, dealer, [list(h) for h in hands], list(blind or []))

    def _check_dealer(self, dealer: Any) -> None:
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < self.seats:
            raise InvalidRecordError("dealer", f"must be a seat 0..{self.seats - 1}, got {dealer!r}")

    def _check_cards(self, hands: Any, blind: Any) -> tuple[list[int], int]:
        rules, deck = self.rules, self.deck
        if not isinstance(hands, list) or len(hands) != rules.SEATS:
            raise InvalidRecordError("hands", f"must be a list of {rules.SEATS} hands")
        seen: dict[str, int] = {}
        masks = []
        used = 0   # copies already dealt: with two copies of a card, each hand gets its own bit
        for s, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != rules.HAND_SIZE:
                raise InvalidRecordError(f"hands[{s}]", f"must be a list of {rules.HAND_SIZE} cards")
            for j, card in enumerate(hand):
                self._count(seen, card, f"hands[{s}][{j}]")
            masks.append(deck.mask_of(hand, within=deck.full_mask & ~used))
            used |= masks[-1]
        blind = [] if blind is None else blind
        if not isinstance(blind, list) or len(blind) != rules.BLIND_SIZE:
            want = f"a list of {rules.BLIND_SIZE} cards" if rules.BLIND_SIZE else "absent or []"
            raise InvalidRecordError("blind", f"must be {want}")
        for j, card in enumerate(blind):
            self._count(seen, card, f"blind[{j}]")
        return masks, deck.mask_of(blind, within=deck.full_mask & ~used)

    def _count(self, seen: dict, card: Any, field: str) -> None:
        try:
            self.deck.face_index(card)
        except ValueError as err:
            raise InvalidRecordError(field, str(err)) from None
        seen[card] = seen.get(card, 0) + 1
        if seen[card] > self.deck.copies:
            times = "once" if self.deck.copies == 1 else f"{self.deck.copies} times"
            raise InvalidRecordError(field, f"{card} is dealt more often than the deck holds it ({times})")
