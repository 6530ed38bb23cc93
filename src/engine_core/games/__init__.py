"""The games: each is one declaration (`GameSpec`, in `engine_core.games.<name>`) plus its rule
hooks (`engine_core.games.<name>.rules`, compiled). `get(name, options)` returns a `Game`, a
factory of deals with validated options.

Adding a game is one line in `REGISTRY` (see docs/adding-a-game.md).
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import importlib
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Callable, Mapping

from .._rng import deal_seed
from ..cards import Deck
from ..errors import InvalidRecordError, OptionError
from ..options import Options, OptionSpec, resolve

# name -> the package holding its declaration (GAME) and its rules module
REGISTRY = {
    "schafkopf": "engine_core.games.schafkopf",
    "doppelkopf": "engine_core.games.doppelkopf",
    "sheepshead": "engine_core.games.sheepshead",
    "klaverjas": "engine_core.games.klaverjas",
    # Sheepshead's seat variants: declarations of the same rules for 3, 4 and 6 seats
    # (engine_core.games.sheepshead.seat_variant; docs/rules/sheepshead.md 13)
    "sheepshead3": "engine_core.games.sheepshead.three",
    "sheepshead4": "engine_core.games.sheepshead.four",
    "sheepshead4c": "engine_core.games.sheepshead.cutthroat",
    "sheepshead6": "engine_core.games.sheepshead.six",
}
GAMES = tuple(REGISTRY)
MAX_DEALS_PER_MATCH = 1000          # no match runs longer, whatever ends it


@dataclass(frozen=True)
class NextDeal:
    """What follows a finished deal in a match: who deals, whether the deal counts toward
    `deals_per_match`, and options the next deal carries (e.g. Sheepshead's `multiplier`)."""

    dealer: int
    counts: bool = True
    carry: Mapping[str, Any] = field(default_factory=dict)


def rotate(result: dict, dealer: int, options: Options, seats: int) -> NextDeal:
    """The plain between-deals rule: the deal passes to the left and counts."""
    return NextDeal((dealer + 1) % seats)


@dataclass(frozen=True)
class MatchEnd:
    """When a match is over, as the game's declaration says (`GameSpec.end_of_match`): after
    `deals` counted deals; or, with `target` (and `deals` None), after the first deal at whose
    end a side's total has reached `target` and one side is ahead of every other. `sides` are
    the seats that share a total (fixed partners), None: each seat is a side. Sides level at
    the top after reaching the target play on: the next deal that separates them ends the
    match. A target match ends after MAX_DEALS_PER_MATCH counted deals at the latest."""

    deals: int | None = None
    target: int | None = None
    sides: tuple[tuple[int, ...], ...] | None = None

    def over(self, totals: list[int], counted: int) -> bool:
        if self.target is None:
            return counted >= self.deals
        if counted >= MAX_DEALS_PER_MATCH:
            return True
        sides = self.sides or tuple((s,) for s in range(len(totals)))
        best = sorted((totals[side[0]] for side in sides), reverse=True)
        return best[0] >= self.target and (len(best) == 1 or best[0] > best[1])


@dataclass(frozen=True)
class Target:
    """A named question for the solver (`solver.reaches(position, name)`): does the default
    side's total, counted as `count` ("points", "tricks" or "margin"), reach `value`; a value of
    None means every trick (schwarz)."""

    value: int | None
    count: str = "points"


@dataclass(frozen=True)
class GameSpec:
    """The static facts of a game, declared once; the engine, the codec, batch work, the match
    layer and the service read these fields and nothing else."""

    name: str
    rules: Any                                  # the compiled rules module (Core, HOOKS, names, ...)
    options: tuple[OptionSpec, ...]
    # [(seat offset from the dealer's left, or None for the blind, cards)] in dealing order
    packets: Callable[[Options], list[tuple[int | None, int]]]
    stat_contracts: tuple[str, ...] = ()        # batch statistics' contract names (default: contracts)
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    validate: Callable[[Options], Options] = staticmethod(lambda options: options)
    between_deals: Callable[[dict, int, Options], NextDeal] | None = None
    description: str = ""
    targets: Mapping[str, Target] = field(default_factory=dict)   # the solver's named targets
    # what each bid's contract asks of a hand, by call name, for the bots' auction rules: its
    # trumps (`trump_ranks`, and `trump_suit`: a suit code, or "named" for the suit the bid
    # names), whether it promises every trick (`tout`) or aims at taking none (`aim`:
    # "no_trick"); a call not listed is never bid by the easy and normal levels
    bid_families: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # calls that only ever add to the caller's side (Klaverjas's declared stuk): every bot level
    # makes them whenever they are legal
    free_calls: tuple = ()
    # what players read: suit and card names, calls, contracts, breakdown items and phases, by
    # language ({"en": {...}}, English required); ListGames serves them (games/words.py)
    words: Mapping[str, Any] = field(default_factory=dict)
    # card points of a trump card's rank where they differ from its plain points, for a game
    # whose trump suit scores otherwise (Klaverjas: the trump jack 20, the nine 14): what a
    # bidder weighs a suit by before the trump is named
    trump_points: Mapping[str, int] = field(default_factory=dict)
    # the key of the view's "teams" that names the declaring side when the contract names no
    # declarer (Doppelkopf's normal game: "re", the club queens' team); None: the declarer's side
    declaring_team: str | None = None
    # the hard level's default budget in this game (engine_core.bots.hard: the HardBot keyword
    # arguments worlds, playout_worlds, playouts, rollout_worlds, rollout_playouts,
    # screen_worlds), sized to what the game's searches cost in the time a decision may take;
    # rollout_playouts > 0 where random playouts judge the bids fairly (docs/bots.md)
    hard_budget: Mapping[str, int] = field(default_factory=dict)
    # where a seat's side wins the deal as the position stands, in the count of the declared
    # "win" target (card points, or a margin), where that moves during the deal (Doppelkopf's
    # announcements, Klaverjas's Drents bid); None: the declared "win" target holds
    win_at: Callable[[Any, int], int | None] | None = None
    # how a match ends, from the options and the match's deal count (`end_of_match`): None is
    # the plain rule, after `deals_per_match` counted deals; Klaverjas's `match_target` plays
    # to a score instead
    match_end: Callable[[Options, int], MatchEnd] | None = None
    # whether the deal to come must be played even when the match's end is reached, from the
    # options that deal carries (Doppelkopf's Vorfuehrung: a seat still owes its Pflichtsolo);
    # None: never
    deal_owed: Callable[[Options], bool] | None = None

    # the sizes, declared once as the rules module's G_* constants
    @property
    def seats(self) -> int:
        return self.rules.SEATS

    @property
    def hand_size(self) -> int:
        """The cards each hand is dealt with the default options (the rules module's HAND_SIZE
        is the most any option deals: six-handed Sheepshead's dealer_sits_out deals 6, else 5)."""
        return self.rules.deal_shape(self.validate(resolve(self.name, self.options, None)))[0]

    @property
    def blind_size(self) -> int:
        return self.rules.BLIND_SIZE

    @property
    def deck(self) -> Deck:
        return self.rules.DECK

    @cached_property
    def default_order(self) -> dict[str, list[str]]:
        """The card order before any contract is made, as the rules hold it at the deal, in the
        shape of the view's "order" ({"trump": [codes high->low], "C": [...], ...}): the normal
        game's (Schafkopf's Rufspiel, Doppelkopf's normal game, Sheepshead's fixed trumps; no
        trumps in Klaverjas until one is named). The bots count a hand's trumps with it in the
        auction, before a contract fixes the order in force."""
        deck = self.deck
        options = self.validate(resolve(self.name, self.options, None))
        core = Game(self, options).deal(0).core
        return {name: [deck.code(i) for i in cards]
                for name, cards in zip(("trump", "C", "S", "H", "D"), core.card_order())}

    # the names, declared once as the rules module's enums (engine_core._names derives them)
    @property
    def calls(self) -> tuple[tuple[str, str, str | None], ...]:
        """(type, call, suit) by call number."""
        return self.rules.CALL_TABLE

    @property
    def exchanges(self) -> tuple[str, ...]:
        """Exchange calls by number."""
        return self.rules.EXCHANGES

    @property
    def contracts(self) -> tuple[str, ...]:
        """Contract types by Contract value."""
        return self.rules.CONTRACTS

    @property
    def phases(self) -> tuple[str, ...]:
        return self.rules.PHASE_NAMES

    @property
    def items(self) -> tuple[str, ...]:
        """Breakdown item names."""
        return self.rules.NAMES.items

    @property
    def reasons(self) -> Mapping[str, str]:
        """Reason id -> what it means (docs/errors.md)."""
        return self.rules.REASONS

    def next_deal(self, result: dict, dealer: int, options: Options) -> NextDeal:
        if self.between_deals is None:
            return rotate(result, dealer, options, self.seats)
        return self.between_deals(result, dealer, options)

    def owes_deal(self, options: Options) -> bool:
        """The deal these options belong to must be played before the match may end."""
        return self.deal_owed is not None and self.deal_owed(options)

    def end_of_match(self, options: Options, deals: int) -> MatchEnd:
        """How a match of `deals` counted deals (the match's `deals_per_match`) with these
        options ends; the match layer and everything above it ask this, never the options."""
        if self.match_end is None:
            return MatchEnd(deals=deals)
        return self.match_end(options, deals)


_SPECS: dict[str, GameSpec] = {}


def spec_of(name: str) -> GameSpec:
    """The declaration of game `name` (OptionError for an unknown game)."""
    try:
        return _SPECS[name]
    except (KeyError, TypeError):
        pass
    if not isinstance(name, str) or name not in REGISTRY:
        shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
        raise OptionError("game", f"unknown game {shown}; games are {', '.join(available())}")
    spec = importlib.import_module(REGISTRY[name]).GAME
    _SPECS[name] = spec
    return spec


def available() -> list[str]:
    """The games this build implements, then any registered in memory (`register`)."""
    return [*GAMES, *(name for name in _SPECS if name not in REGISTRY)]


def register(spec: GameSpec) -> None:
    """Add a game declared in memory (an experiment, a test's scratch game) under its new name:
    every layer that reads the registry (deals, records, batch, bots, solver, the service) then
    serves it, with no file changed. OptionError if the name is taken."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register takes a GameSpec, got {type(spec).__name__}")
    if spec.name in REGISTRY or spec.name in _SPECS:
        raise OptionError("game", f"a game named {spec.name!r} is already registered")
    _SPECS[spec.name] = spec


def unregister(name: str) -> None:
    """Remove a game added by `register` (the built-in games stay)."""
    if name in REGISTRY:
        raise OptionError("game", f"{name!r} is built in and cannot be removed")
    _SPECS.pop(name, None)
    _DEFAULTS.pop(name, None)


def preset(game: str, name: str, **overrides) -> dict:
    """The options of a named preset of a game (e.g. Sheepshead's `seed004`), with overrides."""
    spec = spec_of(game)
    if name not in spec.presets:
        known = ", ".join(spec.presets) or "none"
        raise OptionError("preset", f"unknown preset {name!r} for {game}; presets are {known}")
    return {**spec.presets[name], **overrides}



def get(name: str, options: Mapping[str, Any] | Options | None = None) -> "Game":
    """The game `name` with `options` validated and resolved (defaults filled in)."""
    spec = spec_of(name)
    if isinstance(options, Options):
        if options.game != name:
            raise OptionError("options", f"options of {options.game} given for {name}")
        return Game(spec, options)
    resolved = spec.validate(resolve(name, spec.options, options))
    return Game(spec, replace(resolved, defaults=_defaults(spec)))


_DEFAULTS: dict[str, tuple] = {}
_SIGHT: dict[tuple, str | None] = {}      # (rules module, Options) -> Game.sight_phase()
_SHAPE: dict[tuple, tuple[int, int]] = {}  # (rules module, Options) -> (hand size, cards left out)
_IDLE: dict[tuple, int | None] = {}       # (rules module, Options) -> the idle seat offset (Game.sits_out)


def _defaults(spec: GameSpec) -> tuple:
    """The values of a game's options when none is given (validated: Klaverjas's ruleset fills
    in its trump choice), kept once per game."""
    found = _DEFAULTS.get(spec.name)
    if found is None:
        found = _DEFAULTS[spec.name] = spec.validate(resolve(spec.name, spec.options, None)).values
    return found


def _iso_date(date: _dt.date | str) -> str:
    if isinstance(date, str):
        try:
            date = _dt.date.fromisoformat(date)
        except ValueError:
            raise OptionError("date", f"must be a date YYYY-MM-DD, got {date[:40]!r}") from None
    return date.isoformat()


def daily_seed(game: str, date: _dt.date | str) -> int:
    """The public daily seed, version 1: the first 8 bytes (big-endian) of SHA-256 of
    `stich-daily-v1:<game>:<YYYY-MM-DD>`. Anyone can compute it for any day, so it suits a
    library's own "deal of the day"; a server with a leaderboard uses `keyed_daily_seed`."""
    digest = hashlib.sha256(f"stich-daily-v1:{game}:{_iso_date(date)}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def keyed_daily_seed(key: bytes, game: str, date: _dt.date | str) -> int:
    """The daily seed, version 2: the first 8 bytes (big-endian) of HMAC-SHA256 under the
    server's secret `key` of `stich-daily-v2:<game>:<YYYY-MM-DD>`. Without the key nobody can
    compute a day's deal (docs/operations.md, "The daily deal")."""
    if not isinstance(key, bytes) or len(key) < 16:
        raise OptionError("key", "must be at least 16 bytes of secret")
    digest = hmac.new(key, f"stich-daily-v2:{game}:{_iso_date(date)}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


class Game:
    """A game with fixed options; a factory of deals."""

    __slots__ = ("spec", "options")

    def __init__(self, spec: GameSpec, options: Options):
        self.spec = spec
        self.options = options

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def seats(self) -> int:
        return self.spec.seats

    @property
    def deck(self) -> Deck:
        return self.spec.deck

    @property
    def rules(self):
        return self.spec.rules

    def __repr__(self) -> str:
        return f"Game({self.options})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and self.options == other.options

    def __hash__(self) -> int:
        return hash(self.options)

    def deal(self, seed: int, dealer: int = 0):
        """The seeded deal: deal function version 1 (`_rng.shuffle`), the declared packets."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise InvalidRecordError("seed", f"must be an integer 0..2^64-1, got {_short(seed)}")
        self._check_dealer(dealer)
        hands, blind, first = self.spec.rules.deal_masks(self.options, self.spec.packets(self.options), seed,
                                                         dealer, first=True)
        return self._state(hands, dealer, blind, first if self.sight_phase() else None)

    def sight_phase(self) -> str | None:
        """The phase during which each seat has seen only the first packet dealt to it (the
        rest of its hand is left out of its view: Schafkopf's knocking round), None when every
        seat sees its whole hand from the deal on. A record of such a deal lists each hand in
        the order dealt: its first packet first (docs/records.md)."""
        key = (self.spec.rules, self.options)
        try:
            return _SIGHT[key]
        except KeyError:
            phase = self.spec.rules.sight_phase(self.options)
            if len(_SIGHT) < 4096:          # options sets are few; a flood of them is not cached
                _SIGHT[key] = phase
            return phase

    def _shape(self) -> tuple[int, int]:
        key = (self.spec.rules, self.options)
        try:
            return _SHAPE[key]
        except KeyError:
            shape = tuple(self.spec.rules.deal_shape(self.options))
            if len(_SHAPE) < 4096:
                _SHAPE[key] = shape
            return shape

    @property
    def hand_size(self) -> int:
        """The cards each hand is dealt under these options: the declaration's `hand_size`,
        fewer where an option leaves cards out of the deal (Doppelkopf without nines)."""
        return self._shape()[0]

    def sits_out(self, dealer: int) -> int | None:
        """The seat that sits out the deal of `dealer` under these options (six-handed Sheepshead's
        dealer_sits_out: the dealer), None when every seat plays. That seat is dealt no cards, is
        never to act, belongs to no team and scores 0."""
        key = (self.spec.rules, self.options)
        try:
            offset = _IDLE[key]
        except KeyError:
            offset = self.spec.rules.idle_offset(self.options)
            if len(_IDLE) < 4096:
                _IDLE[key] = offset
        return None if offset is None else (dealer + 1 + offset) % self.seats

    def dealt_sizes(self, dealer: int) -> list[int]:
        """The cards each seat is dealt in the deal of `dealer`: `hand_size`, 0 for a seat that
        sits out."""
        idle = self.sits_out(dealer)
        return [0 if s == idle else self.hand_size for s in range(self.seats)]

    @property
    def left_out(self) -> int:
        """The mask of the deck's cards these options leave out of the deal (never dealt, never
        in play; 0 for a whole deck): the bots' sampler draws no hidden card from it."""
        return self._shape()[1]

    def first_sizes(self, dealer: int) -> list[int]:
        """The size of the first packet dealt to each seat (the declared packets)."""
        sizes = [0] * self.seats
        for target, size in self.spec.packets(self.options):
            if target is not None:
                seat = (dealer + 1 + target) % self.seats
                sizes[seat] = sizes[seat] or size
        return sizes

    def deal_k(self, seed: int, k: int, dealer: int = 0):
        """Deal k (0-based) of a match or batch started with `seed`: `deal(deal_seed(seed, k))`."""
        return self.deal(deal_seed(seed, k), dealer)

    def daily(self, date: _dt.date | str, dealer: int = 0):
        return self.deal(daily_seed(self.name, date), dealer)

    def new_deal(self, hands: Any, dealer: int = 0, blind: Any = None):
        """A deal from given hands (as a record holds them); InvalidRecordError names the
        first wrong field."""
        from ..state import State
        self._check_dealer(dealer)
        masks, blind_mask = self._check_cards(hands, blind, dealer)
        first = None
        if self.sight_phase():           # the hands as dealt: each one's first packet first
            first = [self.deck.mask_of(h[:n], within=m)
                     for h, m, n in zip(hands, masks, self.first_sizes(dealer))]
        core = self.spec.rules.Core(self.options, masks, dealer, blind_mask, first)
        return State(self, core, dealer, [list(h) for h in hands], list(blind or []))

    def _state(self, masks: list[int], dealer: int, blind: int, first: list[int] | None = None):
        """A deal from card masks; with `first` (each seat's first packet), each hand lists its
        first packet first, as dealt."""
        from ..state import State
        deck = self.deck
        core = self.spec.rules.Core(self.options, masks, dealer, blind, first)
        if first is None:
            hands = [deck.codes(m) for m in masks]
        else:
            hands = [deck.codes(f) + deck.codes(m & ~f) for m, f in zip(masks, first)]
        return State(self, core, dealer, hands, deck.codes(blind))

    def _check_dealer(self, dealer: Any) -> None:
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < self.seats:
            raise InvalidRecordError("dealer", f"must be a seat 0..{self.seats - 1}, got {_short(dealer)}")

    def _check_cards(self, hands: Any, blind: Any, dealer: int = 0) -> tuple[list[int], int]:
        spec, deck = self.spec, self.deck
        idle = self.sits_out(dealer)
        if not isinstance(hands, list) or len(hands) != spec.seats:
            raise InvalidRecordError("hands", f"must be a list of {spec.seats} hands")
        seen: dict[str, int] = {}
        masks = []
        used = 0   # copies already dealt: with two copies of a card, each hand gets its own bit
        for s, hand in enumerate(hands):
            if s == idle:
                if hand != []:
                    raise InvalidRecordError(f"hands[{s}]", f"must be [] (no cards): seat {s} deals and "
                                             f"sits out this deal")
                masks.append(0)
                continue
            if not isinstance(hand, list) or len(hand) != self.hand_size:
                raise InvalidRecordError(f"hands[{s}]", f"must be a list of {self.hand_size} cards")
            for j, card in enumerate(hand):
                self._count(seen, card, f"hands[{s}][{j}]")
                if self.left_out and self.left_out >> deck.face_index(card) & 1:
                    raise InvalidRecordError(f"hands[{s}][{j}]", f"{card} is left out of the deal "
                                             f"under these options")
            masks.append(deck.mask_of(hand, within=deck.full_mask & ~used))
            used |= masks[-1]
        blind = [] if blind is None else blind
        if not isinstance(blind, list) or len(blind) != spec.blind_size:
            want = f"a list of {spec.blind_size} cards" if spec.blind_size else "absent or []"
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


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
