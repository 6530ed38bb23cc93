"""A match: deals of one game in turn, the deal passing by the game's between-deals rule
(`GameSpec.next_deal`: to the left; Doppelkopf's void Armut and Sheepshead's doubler are
redealt by the same dealer and do not count, a doubler carrying its stake in `multiplier`),
and the running totals. Deal k (0-based) uses the seed `deal_seed(seed, k)` (= seed + k), so
a daily match is the same for everyone.

The service holds one Match per table: it asks the match for views and results and never
re-derives its progress.
"""
from __future__ import annotations

from typing import Any

from ._rng import deal_seed
from .errors import IllegalActionError
from .games import Game
from .state import State

WAITING, IN_DEAL, MATCH_OVER = "waiting_for_deal", "in_deal", "match_over"
MAX_DEALS_PER_MATCH = 1000


class Match:
    """`deals_per_match` counted deals of one game (None: the game's `deals_per_match`)."""

    def __init__(self, game: Game, seed: int, first_dealer: int = 0, deals_per_match: int | None = None):
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
            raise ValueError(f"seed must be an integer 0..2^64-1, got {seed!r}")
        if not (isinstance(first_dealer, int) and 0 <= first_dealer < game.seats):
            raise ValueError(f"first_dealer must be a seat 0..{game.seats - 1}, got {first_dealer!r}")
        n = deals_per_match if deals_per_match is not None else game.options.deals_per_match
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_DEALS_PER_MATCH:
            raise ValueError(f"deals_per_match must be 1..{MAX_DEALS_PER_MATCH}, got {n!r}")
        self.base_game = game
        self.seed = seed
        self.dealer = first_dealer
        self.deals_per_match = n
        self.counted = 0                 # finished deals that count toward the match
        self.dealt = 0                   # deals started (redeals included)
        self.totals = [0] * game.seats
        self.results: list[dict] = []    # every finished deal's result, in order
        self.carry: dict[str, Any] = {}  # options the next deal carries
        self.current: State | None = None
        self._game = game

    @property
    def game(self) -> Game:
        """The game with the options of the deal to come (carried options applied)."""
        return self._game

    @property
    def status(self) -> str:
        if self.current is not None and not self.current.is_over():
            return IN_DEAL
        return MATCH_OVER if self.counted >= self.deals_per_match else WAITING

    def is_over(self) -> bool:
        return self.status == MATCH_OVER

    def deal(self) -> State:
        """Start the next deal (the previous one must be finished)."""
        status = self.status
        if status == MATCH_OVER:
            raise IllegalActionError(f"the match is over after {self.deals_per_match} deals",
                                     reason_id="MATCH_OVER")
        if status == IN_DEAL:
            raise IllegalActionError("the current deal is not finished", reason_id="DEAL_IN_PROGRESS")
        self.current = self._game.deal(deal_seed(self.seed, self.dealt), self.dealer)
        self.dealt += 1
        return self.current

    def apply(self, action: Any) -> dict | None:
        """Apply an action to the current deal; when it ends the deal, book it and return the
        result (None otherwise)."""
        if self.current is None or self.current.is_over():
            raise IllegalActionError("no deal is in progress: deal first", reason_id="NO_DEAL")
        self.current.apply(action)
        return self._book() if self.current.is_over() else None

    def apply_code(self, code: int) -> tuple[dict, dict | None]:
        """apply() for an engine action code: (its record form, the result if it ended the deal)."""
        if self.current is None or self.current.is_over():
            raise IllegalActionError("no deal is in progress: deal first", reason_id="NO_DEAL")
        action = self.current.apply_code(code)
        return action, (self._book() if self.current.is_over() else None)

    def _book(self) -> dict:
        state = self.current
        result = state.result()
        self.results.append(result)
        self.totals = [t + s for t, s in zip(self.totals, result["scores"])]
        nxt = state.game.spec.next_deal(result, state.dealer, state.game.options)
        self.dealer = nxt.dealer
        if nxt.counts:
            self.counted += 1
        self.carry = dict(nxt.carry)
        if self.carry:
            from . import games
            self._game = games.get(self.base_game.name, {**self.base_game.options.as_dict(), **self.carry})
        else:
            self._game = self.base_game
        return result

    def finish_deal(self) -> dict:
        """The finished current deal's result (booked when its last action was applied through
        this match, or now when the deal was played on the state directly)."""
        state = self.current
        if state is None or not state.is_over():
            raise IllegalActionError("no finished deal to book", reason_id="NO_DEAL")
        if len(self.results) < self.dealt:
            return self._book()
        return self.results[-1]

    def view(self, seat: int | None) -> dict:
        """What `seat` (None: a spectator) sees: the match (deal number, totals, status) and the
        current or last deal as State.view shows it."""
        out = {"match": {"deals_per_match": self.deals_per_match, "deals_dealt": self.dealt,
                         "deals_counted": self.counted, "totals": list(self.totals),
                         "dealer": self.dealer, "status": self.status}}
        if self.current is not None:
            out["deal"] = self.current.view(seat)
        return out
