"""Baseline players in the styles others write, for measuring stich's levels against strong,
independent opponents in the tournament (`--bots hard,flatmc`; docs/bots.md, "Baselines").
They are not product levels (bots.LEVELS); `bots.get` returns them by the names of BASELINES.

Each sees only its seat's view, samples hidden worlds with engine_core.bots.inference and
uses none of stich's playing heuristics:
- `flatmc`: flat Monte Carlo. Each candidate action is taken in worlds sampled from the view
  and the deal finished by uniformly random legal play (Core.playouts, in C without the GIL):
  `playouts` (1,000) per candidate card over `worlds` (1,000: a fresh world for each) worlds,
  one playout per sampled deal for bids, calls, trump choice, bury, Armut and announcements over `deals` (250) deals;
- `pimc`: perfect-information Monte Carlo. The solver (engine_core.solver) values every legal
  card in each of `worlds` (40) worlds for the seat's side; best mean. Other decisions: each
  candidate in each world, then the remaining non-card decisions by the passive rule (every
  seat passes where it may: pass, healthy, decline, no double; else its first legal action,
  e.g. a Sheepshead bury of its lowest-numbered cards) and the card play by the solver move
  by move (`bid_nodes` per move), the deal's score;
- `ismcts`: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012): one
  tree over the seat's information set, a fresh determinization per iteration, UCB1 with
  availability counts, random rollouts (Core.playouts), `iterations` (1,000) per decision.

Every candidate is worth the same thing in all three: the seat's deal score minus the mean of
the other seats' scores (in Klaverjas, where both teams score, a multiple of the team margin;
in the zero-sum games 4/3 (5/4) of its own score, so in a Ramsch or a leaster its own). Each is
deterministic per seed: the random streams depend only on the seed and the decision."""
from __future__ import annotations

import math
import random

from .. import solver
from .._codes import CALL_BASE, EXCHANGE_BASE, exchange_call, exchange_mask
from ..state import State
from . import Bot
from .hard import objective_for
from .inference import Inference
from .knowledge import rng_for

BASELINES = ("flatmc", "pimc", "ismcts")
# the calls that declare nothing: pass, healthy (Doppelkopf), decline (an Armut offer)
PASSIVE = ("pass", "healthy", "decline")


def _check_budget(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return value


def relative(scores, seat: int) -> float:
    """The seat's deal score minus the mean of the others' (what every baseline maximizes)."""
    n = len(scores)
    return scores[seat] - (sum(scores) - scores[seat]) / (n - 1)


class Worlds:
    """The hidden worlds of one view as engine Cores at the view's position, and the keys that
    name an action alike in the view and in every world (a card by its face: Doppelkopf's two
    copies are one action)."""

    def __init__(self, view: dict, options: dict | None):
        self.inf = Inference(view, options)
        self.game = self.inf.game
        self.view = view
        spec = self.game.spec
        self.faces = len(self.game.deck.faces)
        self._calls = {(k, c, s): i for i, (k, c, s) in enumerate(spec.calls)}
        acts = self.inf._acts
        self._seats = [a[0] for a in acts]
        self._codes = [a[1] for a in acts]
        self._twice = [a[4] for a in acts]
        # the calls of the passive rule (pimc's model of the rest of an auction)
        self.passive = {CALL_BASE + i for i, (_, call, _) in enumerate(spec.calls) if call in PASSIVE}

    def cores(self, n: int, seed: int) -> list:
        """Up to n worlds (fewer when the sampler's tries run out), each a Core replayed to the
        view's position; deterministic per seed."""
        rules, game = self.game.rules, self.game
        out = []
        for hands, blind, hidden in self.inf.sampler.sample(n, seed & (2 ** 64 - 1), 0):
            core = rules.Core(game.options, hands, self.view["dealer"], blind)
            codes, twice = list(self._codes), list(self._twice)
            for i, (code, tw) in hidden.items():
                codes[i], twice[i] = code, tw
            if core.replay(self._seats, codes, twice) != len(codes):   # the sampler checked it
                raise RuntimeError("a sampled world does not replay the view")
            out.append(core)
        return out

    def key_of_code(self, code: int):
        if code < CALL_BASE:
            return code % self.faces
        if code < EXCHANGE_BASE:
            return code
        mask, low = exchange_mask(code), (1 << self.faces) - 1
        lo, hi = mask & low, mask >> self.faces
        return (exchange_call(code), lo | hi, lo & hi)

    def key_of_action(self, action: dict):
        deck, spec = self.game.deck, self.game.spec
        if action["type"] == "play":
            return deck.face_index(action["card"])
        if action["type"] == "exchange":
            faces = twice = 0
            for c in action["cards"]:
                f = 1 << deck.face_index(c)
                twice |= faces & f
                faces |= f
            return (spec.exchanges.index(action["call"]), faces, twice)
        return CALL_BASE + self._calls[(action["type"], action["call"], action.get("suit"))]

    def code_in(self, core, key) -> int:
        """The code of the action named by `key` in a world."""
        for code in core.legal_list():
            if self.key_of_code(code) == key:
                return code
        raise RuntimeError("an action of the view is not legal in a sampled world")

    def state(self, core) -> State:
        """A State around a world's Core for the solver (it reads the core only)."""
        return State(self.game, core, self.view["dealer"], [], [])


class FlatMCBot(Bot):
    """Flat Monte Carlo: every candidate judged by uniformly random playouts in sampled worlds."""

    level = "flatmc"

    def __init__(self, game, seed=0, options=None, playouts: int = 1000, deals: int = 250,
                 worlds: int = 1000):
        super().__init__(game, seed, options)
        self.playouts = _check_budget("playouts", playouts, 1)
        self.deals = _check_budget("deals", deals, 1)
        self.worlds = _check_budget("worlds", worlds, 1)

    def _choose(self, view, legal):
        return max(self._evaluate(view, legal), key=lambda e: e["expected"])["action"]

    def _evaluate(self, view, legal):
        seat = view["seat"]
        cards_only = all(a["type"] == "play" for a in legal)
        # cards: `playouts` per candidate spread over `worlds` worlds; any other decision: one
        # sampled deal per playout (`deals` of them; cards offered with it keep `playouts`)
        n_worlds = min(self.worlds, self.playouts) if cards_only else self.deals
        target = self.playouts if any(a["type"] == "play" for a in legal) else self.deals
        w = Worlds(view, self.options)
        rng = rng_for(self.seed, view, "flatmc")
        cores = w.cores(n_worlds, rng.getrandbits(64))
        if not cores:
            return [{"action": a, "expected": 0.0, "win": None} for a in legal]
        reps = -(-target // len(cores))
        seeds = [rng.getrandbits(64) for _ in cores]
        keys = [w.key_of_action(a) for a in legal]
        out = []
        for a, key in zip(legal, keys):
            total = 0.0
            for core, s in zip(cores, seeds):     # the same random streams for every candidate
                c = core.copy()
                c.apply(w.code_in(c, key))
                if c.is_over():
                    total += reps * relative(c.scores(), seat)
                else:
                    total += relative(c.playouts(reps, s), seat)
            out.append({"action": a, "expected": total / (reps * len(cores)), "win": None})
        return out


class PIMCBot(Bot):
    """Perfect-information Monte Carlo: the solver on each sampled world, best mean."""

    level = "pimc"

    def __init__(self, game, seed=0, options=None, worlds: int = 40, nodes: int = 20000,
                 bid_nodes: int = 500):
        super().__init__(game, seed, options)
        self.worlds = _check_budget("worlds", worlds, 1)
        self.nodes = _check_budget("nodes", nodes, 100)
        self.bid_nodes = _check_budget("bid_nodes", bid_nodes, 10)

    def _choose(self, view, legal):
        return max(self._evaluate(view, legal), key=lambda e: e["utility"])["action"]

    def _evaluate(self, view, legal):
        w = Worlds(view, self.options)
        rng = rng_for(self.seed, view, "pimc")
        cores = w.cores(self.worlds, rng.getrandbits(64))
        if not cores:
            return [{"action": a, "expected": 0.0, "win": None, "utility": 0.0} for a in legal]
        plays = [a for a in legal if a["type"] == "play"]
        if plays:
            out = self._cards(view, w, cores, plays)
            # an announcement during the play (Doppelkopf) is never made: the card search
            # values cards only
            out += [{"action": a, "expected": 0.0, "win": None, "utility": -math.inf}
                    for a in legal if a["type"] != "play"]
            return out
        return self._others(view, w, cores, legal)

    def _cards(self, view, w, cores, plays):
        """Mean solver value of each card over the worlds: the side's card-point margin (own
        points, minimized, in a Ramsch or a leaster). A search cut off by `nodes` counts the
        midpoint of its proven bounds."""
        seat = view["seat"]
        sums = {w.key_of_action(a): 0.0 for a in plays}
        sign = 1
        for core in cores:
            state = w.state(core)
            obj = objective_for(state, seat)
            sign = -1 if obj.get("maximize") is False else 1
            for e in solver.values(state, obj, budget=self.nodes):
                lo, hi = (e["value"], e["value"]) if e["value"] is not None else (e["lower"], e["upper"])
                for card in [e["action"]["card"], *e["equivalent"]]:
                    key = w.game.deck.face_index(card)
                    if key in sums:
                        sums[key] += (lo + hi) / 2
        out = []
        for a in plays:
            mean = sums[w.key_of_action(a)] / len(cores)
            out.append({"action": a, "expected": mean, "win": None, "utility": sign * mean})
        return out

    def _others(self, view, w, cores, legal):
        """Bids, calls, exchanges, doubles: each candidate in each world, the rest of the
        non-card decisions by the passive rule, the card play by the solver; the seat's
        relative deal score, averaged."""
        seat = view["seat"]
        out = []
        for a in legal:
            key = w.key_of_action(a)
            total = 0.0
            for core in cores:
                c = core.copy()
                c.apply(w.code_in(c, key))
                total += relative(self._finish(w, c), seat)
            mean = total / len(cores)
            out.append({"action": a, "expected": mean, "win": None, "utility": mean})
        return out

    def _finish(self, w, core) -> list:
        """Scores of the deal finished from `core`: the passive rule for every decision that is
        not a card, and for every card the best of the solver's values for the mover's
        side (`bid_nodes` a move; a cut-off search counts its bounds' midpoint)."""
        state = w.state(core)
        while not core.is_over():
            legal = core.legal_list()
            if len(legal) == 1 or legal[0] >= CALL_BASE:
                core.apply(next((c for c in legal if c in w.passive), legal[0]))
                continue
            obj = objective_for(state, core.to_act())
            sign = -1 if obj.get("maximize") is False else 1
            best, best_v = None, -math.inf
            for e in solver.values(state, obj, budget=self.bid_nodes):
                lo, hi = (e["value"], e["value"]) if e["value"] is not None else (e["lower"], e["upper"])
                v = sign * (lo + hi) / 2
                if v > best_v:
                    best, best_v = e["action"], v
            core.apply(state.encode(best) if best is not None else legal[0])
        return core.scores()


class _Node:
    __slots__ = ("mover", "visits", "total", "avail", "children")

    def __init__(self, mover: int):
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict = {}


class ISMCTSBot(Bot):
    """Single-observer information-set MCTS with random rollouts."""

    level = "ismcts"
    exploration = 0.7          # UCB1's constant, in units of the largest |reward| seen

    def __init__(self, game, seed=0, options=None, iterations: int = 1000):
        super().__init__(game, seed, options)
        self.iterations = _check_budget("iterations", iterations, 1)

    def _choose(self, view, legal):
        return max(self._evaluate(view, legal), key=lambda e: e["visits"])["action"]

    def _evaluate(self, view, legal):
        w = Worlds(view, self.options)
        rng = rng_for(self.seed, view, "ismcts")
        cores = w.cores(self.iterations, rng.getrandbits(64))
        keys = [w.key_of_action(a) for a in legal]
        root = _Node(view["seat"])
        scale = 1e-9
        pick = random.Random(rng.getrandbits(64))
        for i in range(self.iterations if cores else 0):
            core = cores[i % len(cores)].copy()     # a fresh determinization per iteration
            node, path = root, []
            while not core.is_over():
                legal_now = {w.key_of_code(c): c for c in core.legal_list()}
                for k, child in node.children.items():
                    if k in legal_now:
                        child.avail += 1
                untried = [k for k in legal_now if k not in node.children]
                mover = core.to_act()
                if untried:
                    k = untried[pick.randrange(len(untried))]
                    child = node.children[k] = _Node(mover)
                    core.apply(legal_now[k])
                    path.append(child)
                    break
                log_c = self.exploration * scale

                def ucb(k):
                    ch = node.children[k]
                    return ch.total / ch.visits + log_c * math.sqrt(math.log(ch.avail) / ch.visits)
                k = max(legal_now, key=ucb)
                node = node.children[k]
                core.apply(legal_now[k])
                path.append(node)
            scores = core.scores() if core.is_over() else core.playouts(1, pick.getrandbits(64))
            for n in path:
                r = relative(scores, n.mover)
                scale = max(scale, abs(r))
                n.visits += 1
                n.total += r
        out = []
        for a, k in zip(legal, keys):
            ch = root.children.get(k)
            out.append({"action": a, "expected": ch.total / ch.visits if ch and ch.visits else 0.0,
                        "win": None, "visits": ch.visits if ch else 0})
        return out


CLASSES = {"flatmc": FlatMCBot, "pimc": PIMCBot, "ismcts": ISMCTSBot}
