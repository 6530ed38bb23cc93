"""`python -m engine_core demo` (and `make demo`): seeded deals played to the end by the normal
bot at every seat, each seat choosing from its own view only, so the printed deals look like a
table of sober players (uniform random bids end in Touts and solos). The bot knows every game
and variant from its declaration; the demo itself knows no game's rules."""
from __future__ import annotations

from . import bots


class BotPolicy:
    """The normal bot of `engine_core.bots`, choosing from the acting seat's view only."""

    name = "the normal bot"

    def __init__(self, game: str, seed: int, options: dict | None = None):
        self.bot = bots.get(game, "normal", seed, options=options)

    def choose(self, state) -> dict:
        return self.bot.choose(state.view(state.to_act()))


def policy(game: str, seed: int, options: dict | None = None) -> BotPolicy:
    """The demo's chooser: the normal bot of `game` under `options`, seeded."""
    return BotPolicy(game, seed, options)


def play_deal(game, seed: int, k: int, dealer: int, chooser):
    """Deal k of the demo's seed, played to the end by `chooser`; the finished State."""
    state = game.deal_k(seed, k, dealer)
    while not state.is_over():
        state.apply(chooser.choose(state))
    return state
