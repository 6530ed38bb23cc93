"""Computer players for every game: `bots.get(game, level, seed=...)` returns a bot whose
`choose(view)` sees only one seat's view (`State.view(seat)`: its own hand, everything public,
its legal actions) and returns one of the legal actions. A bot never receives a State, so it
cannot read another seat's cards: fair by construction (docs/bots.md).

Levels (LEVELS, weakest first):
- random: a uniformly random legal action (seeded);
- easy:   the rules of thumb a casual player uses (bidding thresholds, high to win, low else);
- normal: per-game heuristics with card counting and partner signals (< 5 ms a decision);
- hard:   determinized search: worlds sampled from the inference (engine_core.bots.inference),
          each legal card solved with engine_core.solver on each world, best mean; where the
          searches are cut off (the first tricks), random playouts judge the cards.
"""
from __future__ import annotations

from typing import Any

from ..games import GAMES

LEVELS = ("random", "easy", "normal", "hard")
# players in the styles others write, for the tournament (engine_core.bots.baselines): not
# product levels, but `get` returns them so that anything that takes a level can face them
BASELINES = ("flatmc", "pimc", "ismcts")


class Bot:
    """A computer player for one game at one level; `choose(view)` is its only input."""

    level = "?"
    # whether the level decides in the game's sight phase (a knock on the first packet) by its
    # own means; the others take the easy level's rule on the cards seen
    sees_in_sight = False

    def __init__(self, game: str, seed: int = 0, options: dict | None = None):
        self.game = game
        self.seed = seed
        self.options = dict(options or {})

    def choose(self, view: Any) -> dict:
        """One of `view["legal"]` (a copy), for the seat to act."""
        legal = check_view(view, self.game)
        if len(legal) == 1:
            return dict(legal[0])
        if self.level != "random" and not self.sees_in_sight and self._partial_sight(view):
            from .simple import EasyBot          # the same rule at every level (docs/bots.md)
            return dict(EasyBot(self.game, self.seed, self.options)._choose(view, legal))
        return dict(self._choose(view, legal))

    def evaluate(self, view: Any) -> list[dict]:
        """For each legal action {"action", "expected": the expected score of the seat's
        side for the deal, "win": the probability that the seat's side wins, or None}. In the
        game's sight phase (the seat has seen only part of its hand) a level that does not
        decide there by its own means searches nothing: every action has expected 0.0 and win
        None, the rule's choice first."""
        legal = check_view(view, self.game)
        if not self.sees_in_sight and self._partial_sight(view):
            pick = self.choose(view)
            return [{"action": dict(a), "expected": 0.0, "win": None}
                    for a in sorted(legal, key=lambda a: a != pick)]
        return [{"action": e["action"], "expected": float(e["expected"]), "win": e["win"]}
                for e in self._evaluate(view, legal)]

    def _partial_sight(self, view: dict) -> bool:
        """Whether the view is of the game's sight phase (Game.sight_phase): the seat has seen
        only the first packet of its hand, so no world can be sampled around its own cards and
        every level decides by the easy level's rule on the cards seen."""
        phase = self._sight_phase()
        return phase is not None and view.get("phase") == phase

    def _sight_phase(self) -> str | None:
        """The game's sight phase with the bot's options (None: hands are seen whole)."""
        if not hasattr(self, "_sight"):
            from ..games import get as get_game
            self._sight = get_game(self.game, self.options).sight_phase()
        return self._sight

    def _hand_dealt(self) -> int:
        """The cards each hand is dealt with the bot's options (Game.hand_size: Doppelkopf's
        `nines` false deals 10 of the 12 the declaration holds)."""
        if not hasattr(self, "_dealt"):
            from ..games import get as get_game
            self._dealt = get_game(self.game, self.options).hand_size
        return self._dealt

    def _sits_out(self, view: dict) -> int | None:
        """The seat that sits out the view's deal with the bot's options (Game.sits_out:
        six-handed Sheepshead's dealer_sits_out), None when every seat plays."""
        if not hasattr(self, "_played"):
            from ..games import get as get_game
            self._played = get_game(self.game, self.options)
        return self._played.sits_out(view["dealer"])

    def _choose(self, view: dict, legal: list[dict]) -> dict:   # pragma: no cover - abstract
        raise NotImplementedError

    def _evaluate(self, view: dict, legal: list[dict]) -> list[dict]:
        from .hard import HardBot
        helper = HardBot(self.game, seed=self.seed, options=self.options)
        return helper._evaluate(view, legal)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game!r}, seed={self.seed})"


def check_view(view: Any, game: str) -> list[dict]:
    """The legal actions of a view for the seat to act; TypeError for anything but a view
    dict (a State above all: a bot must never see the hidden hands), ValueError for a view of
    another game or of a seat that is not to act."""
    if not isinstance(view, dict):
        raise TypeError(f"a bot chooses from a seat's view (a dict from State.view(seat)), "
                        f"not a {type(view).__name__}")
    for key in ("game", "seat", "hand", "legal", "actions", "dealer"):
        if key not in view:
            raise ValueError(f"not a seat's view: the key {key!r} is missing")
    if view["game"] != game:
        raise ValueError(f"this bot plays {game}, the view is of {view['game']!r}")
    if view["seat"] is None:
        raise ValueError("a spectator's view has no hand and no legal actions")
    legal = view["legal"]
    if not legal:
        raise ValueError(f"seat {view['seat']} is not to act in this view (no legal actions)")
    if view.get("to_act", view["seat"]) != view["seat"]:
        # its legal actions are what it may take out of turn (docs/records.md 3): a bot acts on
        # its own turn only
        raise ValueError(f"seat {view['seat']} is not to act in this view: seat {view['to_act']} is")
    return legal


def play_out(state, players) -> dict:
    """Play `state` to its end, each seat's bot (players[seat]) choosing from its own view; the
    result. The tools that weigh a decision both ways (a bid, a pick) finish each way here."""
    while not state.is_over():
        seat = state.to_act()
        state.apply(players[seat].choose(state.view(seat)))
    return state.result()


def get(game: str, level: str, seed: int = 0, options: dict | None = None, **budget) -> Bot:
    """The bot of `level` for `game`. `options` are the game's options (defaults filled in;
    the bot needs them to score sampled worlds); `budget` tunes the hard level (worlds,
    seconds, nodes: see engine_core.bots.hard) and the baselines (engine_core.bots.baselines).
    `level` is one of LEVELS or of BASELINES."""
    from ..games import spec_of
    spec_of(game)                    # OptionError (a ValueError) for a game this build lacks
    if not isinstance(level, str) or level not in LEVELS + BASELINES:
        raise ValueError(f"unknown bot level {level!r}; levels are {', '.join(LEVELS)} "
                         f"(baselines: {', '.join(BASELINES)})")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an integer 0..2^64-1, got {seed!r}")
    if options is not None and not isinstance(options, dict):
        raise ValueError(f"options must be a dict of the game's options, got {type(options).__name__}")
    from ..games import get as get_game
    get_game(game, options)          # OptionError (a ValueError) for bad options, now
    if level == "random":
        from .simple import RandomBot
        cls = RandomBot
    elif level == "easy":
        from .simple import EasyBot
        cls = EasyBot
    elif level == "normal":
        from .normal import NormalBot
        cls = NormalBot
    elif level == "hard":
        from .hard import HardBot
        cls = HardBot
    else:
        from .baselines import CLASSES
        cls = CLASSES[level]
    if budget and level not in ("hard",) + BASELINES:
        raise ValueError(f"budget arguments ({', '.join(sorted(budget))}) apply to the hard level only "
                         f"and to the baselines {', '.join(BASELINES)}")
    import inspect
    known = [p for p in inspect.signature(cls.__init__).parameters if p not in ("self", "game", "seed", "options")]
    for name in budget:
        if name not in known:
            raise ValueError(f"{name!r} is no budget of {level}; its budgets are {', '.join(known)}")
    return cls(game, seed=seed, options=options, **budget)


__all__ = ["BASELINES", "Bot", "GAMES", "LEVELS", "check_view", "get"]
