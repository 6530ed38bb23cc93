"""A match: a fixed number of deals with the deal passing to the left and running totals.

Each rules file says what happens between deals; a game module that needs more than plain
rotation supplies `next_deal(result, dealer) -> {"dealer", "counts", ...option updates}`
(Sheepshead's doubler: same dealer, stake carried in `multiplier`, not counted; Doppelkopf's
void Armut: same dealer, not counted). Deal k of a match uses the seed `seed + k` so a daily
match is the same for everyone.
"""
from __future__ import annotations

from .games import Game
from .state import State

_M64 = (1 << 64) - 1


def after_deal(rules, result: dict, dealer: int) -> dict:
    """What follows a finished deal: {"dealer": next dealer, "counts": whether it counts toward
    `deals_per_match`, plus options the next deal carries (e.g. Sheepshead `multiplier`)}."""
    step = getattr(rules, "next_deal", None)
    if step is not None:
        return step(result, dealer)
    return {"dealer": (dealer + 1) % rules.SEATS, "counts": True}


def deal_seed(seed: int, k: int) -> int:
    """The seed of the k-th deal (0-based) of a match started with `seed`."""
    return (seed + k) & _M64


class Match:
    """Deals of one game in turn; `deals_per_match` counted deals (void and thrown-in-and-
    redealt deals do not count where the rules say so)."""

    def __init__(self, game: Game, seed: int, first_dealer: int = 0, deals_per_match: int | None = None):
        self.base_game = game
        self.seed = seed
        self.dealer = first_dealer
        self.deals_per_match = deals_per_match or getattr(game.options, "deals_per_match")
        self.counted = 0
        self.dealt = 0
        self.totals = [0] * game.seats
        self.results: list[dict] = []
        self.overrides: dict = {}
        self.current: State | None = None

    @property
    def game(self) -> Game:
        from . import games
        if not self.overrides:
            return self.base_game
        return games.get(self.base_game.name, {**self.base_game.options.as_dict(), **self.overrides})

    def is_over(self) -> bool:
        return self.counted >= self.deals_per_match

    def deal(self) -> State:
        """Start the next deal (the previous one must be finished)."""
        if self.is_over():
            raise ValueError(f"the match is over after {self.deals_per_match} deals")
        if self.current is not None and not self.current.is_over():
            raise ValueError("the current deal is not finished")
        self.current = self.game.deal(deal_seed(self.seed, self.dealt), self.dealer)
        self.dealt += 1
        return self.current

    def finish_deal(self) -> dict:
        """Book the finished current deal: totals, dealer and carried options."""
        state = self.current
        if state is None or not state.is_over():
            raise ValueError("no finished deal to book")
        result = state.result()
        self.results.append(result)
        self.totals = [t + s for t, s in zip(self.totals, result["scores"])]
        info = after_deal(state.game.rules, result, self.dealer)
        self.dealer = info["dealer"]
        if info["counts"]:
            self.counted += 1
        self.overrides = {k: v for k, v in info.items() if k not in ("dealer", "counts")}
        return result
