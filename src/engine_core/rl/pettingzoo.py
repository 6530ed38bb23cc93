"""A PettingZoo AEC environment for every stich game (docs/rl.md, "PettingZoo"): one deal per
episode, agents `seat_0..seat_{n-1}`, observations {"observation": the seat's observation
tensor, "action_mask": its legal actions (all zero when another seat is to act)}, rewards the
deal's scores when it ends. Rendering is `stich play`'s terminal view of the seat to act.
"""
from __future__ import annotations

import io
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import games
from . import Deal, Layout


def env(game: str, options: Mapping[str, Any] | None = None, render_mode: str | None = None) -> "StichEnv":
    """The AEC environment of `game` with `options` (its defaults when None)."""
    return StichEnv(game, options, render_mode)


class StichEnv(AECEnv):
    """One deal of a stich game per episode, seat by seat."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str, options: Mapping[str, Any] | None = None, render_mode: str | None = None):
        super().__init__()
        self.game = games.get(game, options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"stich_{self.game.name}_v0"}
        self.layout = Layout(self.game)
        self.possible_agents = [f"seat_{i}" for i in range(self.game.seats)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0, 255, (self.layout.observation_size,), np.uint8),
            "action_mask": spaces.Box(0, 1, (self.layout.num_actions,), np.int8),
        })
        self._act_space = spaces.Discrete(self.layout.num_actions)
        self._rng = np.random.default_rng()
        self.deal: Deal | None = None
        self.dealer = 0

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new deal: deal seed `seed` (drawn from the environment's stream when None), the
        dealer rotating from seat 0 with each reset (options={"dealer": seat} fixes it)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal_seed = int(self._rng.integers(0, 2 ** 63))
        if options and "dealer" in options:
            self.dealer = options["dealer"]
        self.deal = Deal.new(self.game, deal_seed, self.dealer)
        self.dealer = (self.dealer + 1) % self.game.seats
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.deal.to_act()]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        obs = np.zeros(self.layout.observation_size, np.uint8)
        self.deal.tracker.observation_into(seat, obs)
        mask = np.zeros(self.layout.num_actions, np.uint8)
        if self.deal.to_act() == seat:
            self.deal.tracker.mask_into(mask)
        return {"observation": obs, "action_mask": mask.astype(np.int8)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.deal.apply_index(int(action))       # ValueError naming the legal ones, nothing changed
        self._cumulative_rewards[agent] = 0.0
        seat = self.deal.to_act()
        if seat is None:
            scores = self.deal.state.core.scores()
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(scores[i])
                self.terminations[a] = True
            self.agent_selection = self.agents[(self.possible_agents.index(agent) + 1) % len(self.agents)]
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The terminal view (`stich play`) of the seat to act, the spectator's when the deal
        is over; "ansi" returns it, "human" prints it."""
        if self.render_mode is None:
            return None
        text = render_text(self.deal.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def render_text(state) -> str:
    """`stich play`'s table view of a State for the seat to act (the result when over)."""
    from rich.console import Console
    from stich_client import table_view
    game = state.game
    table_view.learn(game.name, game.spec.words)
    seat = state.to_act()
    view = dict(state.view(seat), deal_number=1, deals_per_match=1)
    console = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    console.print(table_view.render_view(view))
    if seat is None:
        console.print(f"Scores: {state.core.scores()}")
    return console.export_text()
