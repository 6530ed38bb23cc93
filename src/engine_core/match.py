"""A match: deals of one game in turn, the deal passing by the game's between-deals rule
(`GameSpec.next_deal`: to the left; Doppelkopf's void Armut and Sheepshead's doubler are
redealt by the same dealer and do not count, a doubler carrying its stake in `multiplier`),
and the running totals, until the game's match-end rule says it is over
(`GameSpec.end_of_match`: `deals_per_match` counted deals, or Klaverjas's `match_target`;
not before a deal the game owes, `GameSpec.owes_deal`: Doppelkopf's Vorfuehrung). Deal k (0-based) uses the seed `deal_seed(seed, k)` (= seed + k), so
a daily match is the same for everyone.

The service holds one Match per table: it asks the match for views and results and never
re-derives its progress. A long-lived holder keeps only what the deal to come needs:
`keep_results=False` keeps the last result only, `progress()` is the match's state between
deals (a small dict to store) and `Match.resume(game, seed, progress)` continues from it, so
restoring a match costs its current deal, not its history.
"""
from __future__ import annotations

from typing import Any

from ._rng import deal_seed
from .errors import IllegalActionError
from .games import MAX_DEALS_PER_MATCH, Game, MatchEnd
from .state import State

WAITING, IN_DEAL, MATCH_OVER = "waiting_for_deal", "in_deal", "match_over"
__all__ = ["Match", "MatchEnd", "MAX_DEALS_PER_MATCH", "WAITING", "IN_DEAL", "MATCH_OVER"]


class Match:
    """Deals of one game until the game's match-end rule (`end`) says the match is over:
    `deals_per_match` counted deals (None: the game's `deals_per_match`), or the target score
    the game's options set (`end.target`)."""

    def __init__(self, game: Game, seed: int, first_dealer: int = 0, deals_per_match: int | None = None,
                 keep_results: bool = True):
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
        self.end: MatchEnd = game.spec.end_of_match(game.options, n)
        self.counted = 0                 # finished deals that count toward the match
        self.dealt = 0                   # deals started (redeals included)
        self.totals = [0] * game.seats
        self.keep_results = keep_results
        self.results: list[dict] = []    # every finished deal's result, in order (the last only
        #                                  without keep_results)
        self.carry: dict[str, Any] = {}  # options the next deal carries
        self.current: State | None = None
        self._game = game
        self._booked = False             # the current deal's result is booked

    @property
    def game(self) -> Game:
        """The game with the options of the deal to come (carried options applied)."""
        return self._game

    @property
    def status(self) -> str:
        if self.current is not None and not self.current.is_over():
            return IN_DEAL
        if self.end.over(self.totals, self.counted) and not self._game.spec.owes_deal(self._game.options):
            return MATCH_OVER
        return WAITING

    def is_over(self) -> bool:
        return self.status == MATCH_OVER

    def deal(self) -> State:
        """Start the next deal (the previous one must be finished)."""
        status = self.status
        if status == MATCH_OVER:
            raise IllegalActionError(f"the match is over: {self._how_over()}", reason_id="MATCH_OVER")
        if status == IN_DEAL:
            raise IllegalActionError("the current deal is not finished", reason_id="DEAL_IN_PROGRESS")
        self.current = self._game.deal(deal_seed(self.seed, self.dealt), self.dealer)
        self.dealt += 1
        self._booked = False
        return self.current

    def apply(self, action: Any) -> dict | None:
        """Apply an action to the current deal; when it ends the deal, book it and return the
        result (None otherwise)."""
        if self.current is None or self.current.is_over():
            raise IllegalActionError("no deal is in progress: deal first", reason_id="NO_DEAL")
        self.current.apply(action)
        return self._book() if self.current.is_over() else None

    def play_out(self, players) -> "Match":
        """Play the match to its end, seat s by players[s] (a bot: `choose(view)`) from its own
        seat's view only; the tools' bot matches (match lengths, match duels)."""
        while not self.is_over():
            state = self.deal()
            while not state.is_over():
                seat = state.to_act()
                self.apply(players[seat].choose(state.view(seat)))
        return self

    def apply_code(self, code: int) -> tuple[dict, dict | None]:
        """apply() for an engine action code: (its record form, the result if it ended the deal)."""
        if self.current is None or self.current.is_over():
            raise IllegalActionError("no deal is in progress: deal first", reason_id="NO_DEAL")
        action = self.current.apply_code(code)
        return action, (self._book() if self.current.is_over() else None)

    def _book(self) -> dict:
        state = self.current
        result = state.result()
        self._booked = True
        if not self.keep_results:
            self.results.clear()
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
        if not self._booked:
            return self._book()
        return self.results[-1]

    def _how_over(self) -> str:
        if self.end.target is None or self.counted >= MAX_DEALS_PER_MATCH:
            return f"{self.counted} deals played"
        return f"a total reached {self.end.target} with one side ahead after {self.counted} deals"

    def view(self, seat: int | None) -> dict:
        """What `seat` (None: a spectator) sees: the match (deal number, totals, status; its
        `target` score, None when the match is `deals_per_match` deals) and the current or last
        deal as State.view shows it."""
        out = {"match": {"deals_per_match": self.deals_per_match, "target": self.end.target,
                         "deals_dealt": self.dealt, "deals_counted": self.counted,
                         "totals": list(self.totals), "dealer": self.dealer, "status": self.status}}
        if self.current is not None:
            out["deal"] = self.current.view(seat)
        return out

    # ---- between deals: what to store, and continuing from it ----------------------------
    def progress(self) -> dict:
        """The match's state between deals, as JSON-ready data: deals dealt and counted, the
        next dealer, the totals and the carried options. With `seed`, `deals_per_match` and the
        game it is everything the deals to come depend on (`Match.resume`). Only defined when
        no deal is in progress."""
        if self.status == IN_DEAL:
            raise IllegalActionError("a deal is in progress: the match has no progress between deals "
                                     "to give", reason_id="DEAL_IN_PROGRESS")
        if self.current is not None and not self._booked:
            self._book()
        return {"dealt": self.dealt, "counted": self.counted, "dealer": self.dealer,
                "totals": list(self.totals), "carry": dict(self.carry)}

    @classmethod
    def resume(cls, game: Game, seed: int, progress: dict, deals_per_match: int | None = None,
               keep_results: bool = False, last: State | None = None) -> "Match":
        """The match that `progress()` described, waiting for its next deal (`deal()` deals
        deal `progress["dealt"]` of the seed). `game` is the match's game (its base options,
        without carried ones); `last`, if given, is the finished deal that progress follows
        (already booked in it: `view()` shows it and `results` holds its result until the next
        deal). ValueError if the progress does not fit the game."""
        match = cls(game, seed, 0, deals_per_match, keep_results)
        try:
            dealt, counted, dealer = progress["dealt"], progress["counted"], progress["dealer"]
            totals, carry = list(progress["totals"]), dict(progress["carry"])
        except (KeyError, TypeError) as err:
            raise ValueError(f"not a match progress: {err!r}"[:200]) from None
        ints = (dealt, counted, dealer, *totals)
        if any(isinstance(v, bool) or not isinstance(v, int) for v in ints):
            raise ValueError("a match progress holds integers")
        if not (0 <= counted <= dealt and counted <= (match.end.deals or MAX_DEALS_PER_MATCH)
                and 0 <= dealer < game.seats and len(totals) == game.seats):
            raise ValueError("the match progress does not fit this game and match length")
        match.dealt, match.counted, match.dealer, match.totals = dealt, counted, dealer, totals
        match.carry = carry
        if carry:
            from . import games
            match._game = games.get(game.name, {**game.options.as_dict(), **carry})
        if last is not None:
            if not last.is_over() or last.game.name != game.name:
                raise ValueError("`last` must be a finished deal of this game")
            match.current = last
            match.results = [last.result()]
            match._booked = True
        return match

    def copy(self) -> "Match":
        """An independent copy (the current deal's state copied too), e.g. to try actions on."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.totals = list(self.totals)
        other.results = list(self.results)
        other.carry = dict(self.carry)
        other.current = self.current.copy() if self.current is not None else None
        return other
