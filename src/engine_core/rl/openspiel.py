"""stich's games as OpenSpiel Python games (docs/rl.md, "OpenSpiel"): `register()` registers
`python_stich_<game>` for every game, its options as game parameters. The deal is dealt card
by card as chance nodes (a uniformly random card of those left, in the order of the game's
packets from the dealer's left, dealer = parameter `dealer`), then every decision is one of
the game's action indices. `resample_from_infostate` draws a hidden world from stich's
sampler (engine_core.bots.inference: worlds consistent with everything the player has seen).
"""
from __future__ import annotations

import random

import numpy as np
import pyspiel

from .. import games
from ..bots.inference import Inference
from . import Deal, Layout

# no score of any game reaches 2^40 within its options' ranges (the games' declarations)
SCORE_BOUND = float(2 ** 40)


def short_name(game: str) -> str:
    return f"python_stich_{game}"


def register() -> list[str]:
    """Register every game (once; later calls change nothing); returns the short names."""
    names = []
    for name in games.GAMES:
        short = short_name(name)
        if short not in pyspiel.registered_names():
            game_type, _ = _type_and_info(name, None)
            pyspiel.register_game(game_type, _factory(name))
        names.append(short)
    return names


def _params(name: str) -> dict:
    spec = games.spec_of(name)
    out = {o.name: o.default for o in spec.options      # OpenSpiel parameters have a type
           if o.status != "listed_only" and isinstance(o.default, (bool, int, str))}
    out["dealer"] = 0
    return out


def _type_and_info(name: str, game):
    spec = games.spec_of(name)
    game = game or games.get(name)
    layout = Layout(game)
    game_type = pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"stich {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.seats,
        min_num_players=spec.seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_params(name))
    info = pyspiel.GameInfo(
        num_distinct_actions=layout.num_actions,
        max_chance_outcomes=spec.deck.size,
        num_players=spec.seats,
        min_utility=-SCORE_BOUND,
        max_utility=SCORE_BOUND,
        utility_sum=None,
        max_game_length=layout.information_state["history"][1][0])
    return game_type, info


def _factory(name: str):
    """The game's class, as OpenSpiel registers Python games (a class taking params)."""
    def init(self, params=None):
        StichGame.__init__(self, name, params or {})
    return type(f"StichGame_{name}", (StichGame,), {"__init__": init})


class Setup:
    """What a game's states share (the stich Game, layout and dealing order): one object,
    shared by clones (OpenSpiel copies states with deepcopy)."""

    def __init__(self, name: str, params: dict):
        params = dict(params)
        dealer = params.pop("dealer", 0)
        spec = games.spec_of(name)
        known = _params(name)
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise ValueError(f"unknown parameters {unknown} for {name}; known: {sorted(known)}")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < spec.seats:
            raise ValueError(f"dealer must be a seat 0..{spec.seats - 1}, got {dealer!r}")
        self.stich = games.get(name, params)
        self.dealer = dealer
        self.layout = Layout(self.stich)
        self.faces = spec.deck.faces
        # the seat of each dealt card, in dealing order (None: the blind)
        self.order = [None if target is None else (dealer + 1 + target) % spec.seats
                      for target, size in spec.packets(self.stich.options) for _ in range(size)]
        self.params = {**known, **params, "dealer": dealer}

    def __deepcopy__(self, memo):
        return self


class StichGame(pyspiel.Game):
    """A stich game with fixed options (OpenSpiel's game parameters)."""

    def __init__(self, name: str, params: dict):
        self.setup = Setup(name, params)
        game_type, info = _type_and_info(name, self.setup.stich)
        super().__init__(game_type, info, self.setup.params)

    @property
    def stich(self):
        return self.setup.stich

    @property
    def dealer(self):
        return self.setup.dealer

    def new_initial_state(self):
        return StichState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return StichObserver(self.setup, perfect_recall)


class StichState(pyspiel.State):
    """A deal: chance nodes while it is dealt, then the seats' decisions."""

    def __init__(self, game: StichGame):
        super().__init__(game)
        self.g = game.setup
        self.dealt: list[int] = []      # face indices in dealing order
        self.deal: Deal | None = None

    # -- the deal, card by card --
    def _left(self) -> dict[int, int]:
        deck = self.g.stich.deck
        left = {f: deck.copies for f in range(len(self.g.faces))}
        for f in self.dealt:
            left[f] -= 1
        return {f: k for f, k in left.items() if k}

    def chance_outcomes(self):
        left = self._left()
        total = sum(left.values())
        return [(f, k / total) for f, k in sorted(left.items())]

    def _finish_deal(self) -> None:
        game = self.g.stich
        deck = game.deck
        hands = [[] for _ in range(game.seats)]
        blind = []
        for seat, f in zip(self.g.order, self.dealt):
            (blind if seat is None else hands[seat]).append(deck.faces[f])
        used = 0
        masks = []
        for h in hands:
            m = deck.mask_of(h, within=deck.full_mask & ~used)
            used |= m
            masks.append(m)
        first = None
        if game.sight_phase():          # each seat's first packet: its first cards dealt
            first = [deck.mask_of(h[:n], within=m)
                     for h, m, n in zip(hands, masks, game.first_sizes(self.g.dealer))]
        self.deal = Deal.of_masks(game, masks, deck.mask_of(blind, within=deck.full_mask & ~used), self.g.dealer,
                                  first=first)

    # -- OpenSpiel's state API --
    def current_player(self):
        if self.deal is None:
            return pyspiel.PlayerId.CHANCE
        seat = self.deal.to_act()
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player):
        return self.deal.legal_indices() if self.deal is not None and self.deal.to_act() == player else []

    def _apply_action(self, action):
        if self.deal is None:
            if action not in self._left():
                raise ValueError(f"card {action} is not left to deal")
            self.dealt.append(action)
            if len(self.dealt) == len(self.g.order):
                self._finish_deal()
        else:
            self.deal.apply_index(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self.g.faces[action]}"
        lay = self.g.layout
        start, size = lay.actions["exchange"]
        if size and action >= start:
            return f"exchange #{action - start}"
        if action < lay.actions["call"][0]:
            return f"play {self.g.stich.deck.code(action)}"
        call = self.g.stich.spec.calls[action - lay.actions["call"][0]]
        return " ".join(str(x) for x in call if x)

    def is_terminal(self):
        return self.deal is not None and self.deal.to_act() is None

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.g.stich.seats
        return [float(x) for x in self.deal.state.core.scores()]

    def __str__(self):
        if self.deal is None:
            return f"dealing: {len(self.dealt)} of {len(self.g.order)} cards"
        return str(self.deal.state.record()["actions"])

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state with the same information state for `player_id`: a world drawn by stich's
        sampler of hidden worlds, its deal as chance outcomes and the same decisions."""
        if self.deal is None:
            raise ValueError("resample_from_infostate needs a dealt deal (not during the chance nodes)")
        game = self.g.stich
        seed = int(probability_sampler() * 2 ** 62)
        view = self.deal.state.view(player_id)
        sight = game.sight_phase()
        if sight is not None and view["phase"] == sight:
            world = self._first_packet_world(view, seed)
        else:
            world = Inference(view, game.options.as_dict()).sample(1, seed=seed)[0]
        out = StichState(self.get_game())
        deck = game.deck
        pools = [list(h) for h in world["hands"]]
        blind = list(world["blind"])
        for seat in self.g.order:
            code = (blind if seat is None else pools[seat]).pop(0)
            out.dealt.append(deck.face_index(code))
        first = None
        if sight is not None:           # each seat's first packet: its first cards dealt
            first = [deck.mask_of(h[:n], within=m) for h, m, n in
                     zip(world["hands"], world["masks"], game.first_sizes(self.g.dealer))]
        out.deal = Deal.of_masks(game, world["masks"], world["blind_mask"], self.g.dealer, first=first)
        for i, action in enumerate(self.deal.state.actions):
            if i in world["hidden"]:
                key = "card" if action["type"] == "play" else "cards"
                action = dict(action, **{key: world["hidden"][i]})
            out.deal.apply_code(out.deal.state.encode(action))
        return out


    def _first_packet_world(self, view: dict, seed: int) -> dict:
        """A world in the game's sight phase (Schafkopf's knocking round, the deal's first
        phase): the player has seen only its first packet and no action has told anything of
        the cards, so its first packet stays and every other card is dealt uniformly at random
        (stich's sampler starts from a seen hand, docs/bots.md)."""
        game = self.g.stich
        deck = game.deck
        seat, n = view["seat"], game.seats
        rest = [c for c in deck.faces for _ in range(deck.copies)]
        for c in view["hand"]:
            rest.remove(c)
        random.Random(seed).shuffle(rest)
        hands = [[] for _ in range(n)]
        hands[seat] = list(view["hand"])
        for s in range(n):                         # the seen packet leads the player's hand
            want = game.hand_size - len(hands[s])
            hands[s], rest = hands[s] + rest[:want], rest[want:]
        blind = rest[:game.spec.blind_size]
        used, masks = 0, []
        for h in hands:
            masks.append(deck.mask_of(h, within=deck.full_mask & ~used))
            used |= masks[-1]
        return {"hands": hands, "blind": blind, "masks": masks,
                "blind_mask": deck.mask_of(blind, within=deck.full_mask & ~used), "hidden": {}}


class StichObserver:
    """OpenSpiel's PyObserver over stich's tensors: the observation tensor, or with perfect
    recall the information-state tensor (as float32); strings are the tensors' bytes in hex."""

    def __init__(self, game: Setup, perfect_recall: bool):
        lay = game.layout
        self.perfect_recall = perfect_recall
        size = lay.information_state_size if perfect_recall else lay.observation_size
        self._buf = np.zeros(size, np.uint8)
        self.tensor = np.zeros(size, np.float32)
        parts = lay.information_state if perfect_recall else lay.observation
        self.dict = {}
        for name, (at, shape) in parts.items():
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + n].reshape(shape)

    def set_from(self, state: StichState, player: int):
        self._fill(state, player)
        self.tensor[:] = self._buf

    def string_from(self, state: StichState, player: int) -> str:
        self._fill(state, player)
        return self._buf.tobytes().hex()

    def _fill(self, state: StichState, player: int) -> None:
        if state.deal is None:
            # while dealing: only the player's own cards so far (the observation's hand)
            self._buf[:] = 0
            for seat, f in zip(state.g.order, state.dealt):
                if seat == player:
                    self._buf[f] += 1
            return
        if self.perfect_recall:
            state.deal.tracker.information_state_into(player, self._buf)
        else:
            state.deal.tracker.observation_into(player, self._buf)
