"""Interfaces for reinforcement learning and game-theory research (docs/rl.md): observation and
information-state tensors with legal-action masks, a vectorised environment stepped in C, a
PettingZoo AEC environment (`engine_core.rl.pettingzoo`) and OpenSpiel games
(`engine_core.rl.openspiel`).

The tensors and the step loop are compiled into every game's rules module over its rule hooks
(`_vec.pxi`, included by the engine), so a game registered in memory has them too; their sizes
come from the game's declaration.
numpy is needed here (the `rl` extra); nothing else in stich imports this package.
"""
from __future__ import annotations

from typing import Any, Mapping

from .. import games
from .._rng import deal_seed


def compiled(game) -> Any:
    """The compiled tensors and step loop of a game (a Game, or a game's name): its rules
    module."""
    name = game if isinstance(game, str) else game.name
    return games.spec_of(name).rules     # OptionError for an unknown game


class Layout:
    """Where each part of a game's tensors lies (docs/rl.md, "Tensors")."""

    def __init__(self, game):
        mod = compiled(game)
        self.observation_size: int = mod.OBS_SIZE
        self.information_state_size: int = mod.INFO_SIZE
        self.num_actions: int = mod.NUM_ACTIONS
        self.observation: dict[str, tuple[int, tuple[int, ...]]] = dict(mod.OBS_LAYOUT)
        self.information_state: dict[str, tuple[int, tuple[int, ...]]] = dict(mod.INFO_LAYOUT)
        self.history_row: dict[str, tuple[int, int]] = dict(mod.HISTORY_ROW)
        self.actions: dict[str, tuple[int, int]] = dict(mod.ACTION_SECTIONS)

    def part(self, tensor, name: str):
        """The named part of an observation tensor, in its shape."""
        at, shape = self.observation[name]
        size = 1
        for d in shape:
            size *= d
        return tensor[..., at:at + size].reshape(*tensor.shape[:-1], *shape)


class Deal:
    """One deal for the Python environments: the State (views, bots, results, rendering) and the
    compiled tracker (tensors, action indices) kept in step by `apply`."""

    __slots__ = ("game", "state", "tracker")

    def __init__(self, game, state, tracker):
        self.game = game
        self.state = state
        self.tracker = tracker

    @classmethod
    def new(cls, game, seed: int, dealer: int = 0) -> "Deal":
        """The seeded deal (what Game.deal(seed, dealer) deals) with its tracker."""
        hands, blind, first = game.rules.deal_masks(game.options, game.spec.packets(game.options), seed,
                                                    dealer, first=True)
        return cls.of_masks(game, hands, blind, dealer, first=first if game.sight_phase() else None)

    @classmethod
    def of_masks(cls, game, hands: list[int], blind: int, dealer: int, actions=(), first=None) -> "Deal":
        """A deal from its dealt card masks, with record actions (dicts) replayed; `first`: the
        first packet of each seat, all it sees in the game's sight phase (Game.sight_phase)."""
        deal = cls(game, game._state(list(hands), dealer, blind, first),
                   compiled(game).Tracker(game, list(hands), blind, dealer, first))
        for action in actions:
            deal.apply_code(deal.state.encode(action))
        return deal

    def copy(self) -> "Deal":
        return Deal(self.game, self.state.copy(), self.tracker.copy())

    def __deepcopy__(self, memo) -> "Deal":
        return self.copy()

    def to_act(self) -> int | None:
        return self.state.to_act()

    def apply_index(self, index: int) -> int:
        """Apply a legal action index (ValueError naming the legal ones, nothing changed,
        otherwise); returns its action code."""
        code = self.tracker.code_of(index)
        self.state.apply_code(code)
        self.tracker.apply_code(code)
        return code

    def apply_code(self, code: int) -> None:
        self.tracker.apply_code(code)
        self.state.apply_code(code)

    def legal_indices(self) -> list[int]:
        return self.tracker.legal_indices()


class VecEnv:
    """N deals of one game stepped in one call (docs/rl.md, "Vectorised environment").

    `learners`: the seats the caller plays (default every seat: self-play); the others are
    played in C by uniformly random legal actions, or by stich's bots when `bots` maps seats
    to levels ("random", "easy", "normal", "hard") or Bot objects. Bots are called in Python,
    one view per decision: that path is slow (milliseconds a step, not nanoseconds). `bids`:
    how the random players call ("uniform", or "cheapest" where the game defines it)."""

    def __init__(self, game: str, n: int = 1, seed: int = 0, options: Mapping[str, Any] | None = None,
                 learners=None, cards_only: bool = False, bots: Mapping[int, Any] | None = None,
                 bids: str = "uniform"):
        self.game = games.get(game, options) if isinstance(game, str) else game
        self.layout = Layout(self.game)
        seats = self.game.seats
        self.bots = _bots(self.game, bots or {}, seed)
        if learners is None:
            learners = [s for s in range(seats) if s not in self.bots]
        learners = list(learners)
        overlap = sorted(set(learners) & set(self.bots))
        if overlap:
            raise ValueError(f"seats {overlap} are both learners and bots")
        self.learners = tuple(learners)
        # with bots, the C loop stops at every seat that is not randomly played here
        c_learners = tuple(sorted(set(learners) | set(self.bots))) if self.bots else learners
        self._env = compiled(self.game).VecEnv(self.game, n, seed, c_learners, cards_only, bids)
        self.seed = seed
        self._mirrors: dict[int, tuple[int, Any]] = {}
        if self.bots:
            self._play_bots()

    n = property(lambda self: self._env.n)
    obs = property(lambda self: self._env.obs)
    mask = property(lambda self: self._env.mask)
    seat = property(lambda self: self._env.seat)

    def reset(self):
        """Deal every game afresh (episode 0); returns (obs, mask)."""
        self._env.reset()
        self._mirrors.clear()
        if self.bots:
            self._play_bots()
        return self._env.obs, self._env.mask

    def step(self, actions):
        """One action index per game for its seat to act; returns (obs, mask, reward, done,
        seat) as numpy arrays (VecEnv of the compiled module)."""
        out = self._env.step(actions)
        if self.bots:
            self._play_bots()
        return out

    def random_steps(self, steps: int, threads: int = 1) -> dict:
        if self.bots:
            raise ValueError("random_steps is the bench of the C loop: not with Python bots")
        return self._env.random_steps(steps, threads)

    def history(self, i: int):
        return self._env.history(i)

    def _play_bots(self) -> None:
        """Let the bots act wherever a bot's seat is to act (the slow path)."""
        env = self._env
        while True:
            waiting = [i for i in range(env.n) if int(env.seat[i]) in self.bots]
            if not waiting:
                return
            for i in waiting:
                seat = int(env.seat[i])
                state = self._mirror(i)
                action = self.bots[seat].choose(state.view(seat))
                code = state.encode(action)
                env.apply_code(i, code)

    def _mirror(self, i: int):
        """Game i's deal as a State, at its position."""
        k, dealer, codes = self._env.history(i)
        known = self._mirrors.get(i)
        if known is None or known[0] != k:
            known = (k, self.game.deal(deal_seed(self.seed, k), dealer))
            self._mirrors[i] = known
        state = known[1]
        for code in codes[len(state.actions):]:
            state.apply_code(code)
        return state


def _bots(game, bots: Mapping[int, Any], seed: int) -> dict:
    from .. import bots as stich_bots
    out = {}
    for seat, bot in bots.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.seats:
            raise ValueError(f"bot seats must be 0..{game.seats - 1}, got {seat!r}")
        if isinstance(bot, str):
            bot = stich_bots.get(game.name, bot, seed=seed + seat, options=game.options.as_dict())
        out[seat] = bot
    return out
