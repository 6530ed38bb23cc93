"""The hard level: determinized search over worlds from the inference.

Card play: sample `worlds` hidden worlds consistent with the view (bots.inference) and in
each solve every legal card with engine_core.solver for the seat's side (count "margin": the
side's total minus the others'), `nodes` per world. A contract each seat plays for itself (a
Ramsch, a leaster) is judged by the seat's deal score in random playouts instead (_score_cards):
its result is not the seat's own points. Where the budget runs out (the first tricks; the solver then
proves bounds only) a card is judged by flat Monte Carlo instead: `playouts` random playouts
after it in each of `playout_worlds` worlds (the engine's C playouts, GIL released), the
world's mean margin kept within the bounds the solver proved for that world. Once the searches
finish, a card is worth its mean margin plus `win_weight` times its chance of winning the deal
(the game's declared win target as a margin for the seat's side: win_threshold), since a
deal's score steps at the target; a card whose upper bound of that worth lies below another card's lower bound is never
played. (The normal level's heuristics decided the first tricks before: flat Monte Carlo over
every early card beat them, issue 25.) A game may declare `exact_nodes`, a pool of spare nodes
that the worlds, solved in order, draw on (each may still take `nodes`, and at most `exact_share`
of the pool where the game declares it): when at least `exact_worlds` of them finish, their exact
values decide (Klaverjas from the first lead), not the playouts.

Every other decision (bids, calls, bury, Armut, Kontra/Re, cracking, trump): each candidate
is taken in each of `rollout_worlds` sampled worlds, the rest of the auction played by the
normal level, and the card play either by `rollout_playouts` random playouts (Klaverjas,
where every trump choice is the same game) or by the normal level (where contracts differ in
kind and stakes: random defenders make any solo look good). A candidate's worth is the
seat's score minus the mean of the other seats' scores (Klaverjas: both teams score, so only
the difference says who gained). The normal level's choice stands unless another candidate
beats it in the same worlds by more than one standard error of the paired differences: the
best of a few noisy means is biased upwards (the winner's curse). More than six candidates
are screened on `screen_worlds` worlds first, and the four best plus the normal level's
choice go on; the others are listed by `evaluate` with their screening value. A Doppelkopf
Re or Kontra during the play is made when the side wins in 75% of the worlds whose searches
finished; before they finish the easy level's hand rule decides.

`evaluate`: every legal action with `expected` (card play: the mean over the worlds of each
world's value; bids: the seat's mean score) and `win` (the share of worlds won).

Budget: `worlds`, `nodes` per solve (20000), `playout_worlds`, `playouts`, `rollout_worlds`,
`rollout_playouts` (0: the normal level plays the bid rollouts) and `screen_worlds` fix the
work of a decision, so a bot is deterministic per seed. Each game declares its defaults
(GameSpec.hard_budget), sized to what its searches cost in the time a decision may take
(docs/bots.md has the times); a game that declares none gets BUDGET. `seconds`
(default None) adds a time limit: worlds stop being added once it is spent (at least 2 are
used), which bounds the worst case on a slow machine at the price of determinism.
`inference_pool` (2) and `play_inference` (0: bids only) set how the worlds are weighed by what
the other seats did (_states).
"""
from __future__ import annotations

import time

from .. import solver
from . import Bot
from .inference import Inference
from .knowledge import HIDDEN, rng_for
from .normal import NormalBot
from .simple import free_call


def objective_for(state, seat: int) -> dict:
    """The solver objective of `seat`'s side in a world."""
    contract = (state.core.public(seat) or {}).get("contract") or {}
    if contract.get("type") in ("ramsch", "leaster"):
        return {"seat": seat, "count": "points", "maximize": False}
    side = state.game.rules.default_side(state.core)
    if seat not in side:
        side = [s for s in range(state.game.seats) if s not in side]
    return {"side": side, "count": "margin"}


# The budget of a game that declares none (GameSpec.hard_budget): 16 worlds, flat Monte Carlo
# by 16 x 64 playouts, the bids judged by the normal level's play in 8 worlds. Bids go by
# random playouts of the card play (rollout_playouts > 0) only where a game declares it: where
# contracts differ in kind and stakes (solos, Wenz, going alone) random defenders make every
# solo look good (docs/bots.md).
# `exact_nodes` 0: no pool of spare nodes, `nodes` a world; `exact_share` 0: a world may take
# all that is left of the pool (see _card_values).
BUDGET = {"worlds": 16, "playout_worlds": 16, "playouts": 64, "rollout_playouts": 0,
          "exact_nodes": 0, "exact_worlds": 16, "exact_share": 0}
BUDGET_NAMES = ("worlds", "playout_worlds", "playouts", "rollout_worlds", "rollout_playouts", "screen_worlds",
                "exact_nodes", "exact_worlds", "exact_share")


def declared_budget(game: str) -> dict:
    """BUDGET with what the game declares (GameSpec.hard_budget) over it."""
    from ..games import spec_of
    declared = dict(spec_of(game).hard_budget)
    unknown = sorted(set(declared) - set(BUDGET_NAMES))
    if unknown:
        raise ValueError(f"{game}'s hard_budget names {', '.join(unknown)}; "
                         f"a budget names {', '.join(BUDGET_NAMES)}")
    return {**BUDGET, **declared}


class HardBot(Bot):
    level = "hard"
    # a knock on the first packet is judged by rollouts in worlds that deal the seat the rest
    # of its hand too (Inference, _rollouts)
    sees_in_sight = True
    # more exchanges than this (a Doppelkopf Armut return) are not all screened
    screen_limit = 32
    # bids, calls and exchanges: keep the normal level's choice unless a candidate beats it in
    # the same sampled worlds by more than the noise (see _lower_bound)
    paired = True
    deviation_z = 1.0
    # a card search whose bounds are wider than this (in card points) counts as unfinished
    open_width = 10
    # an announcement is made where the side wins in this share of the searched worlds, and it
    # costs at most `announce_cost` of the worlds won without it (see _announcements)
    announce_share = 0.75
    announce_cost = 0.05
    announce_worlds = 16
    announce_nodes = 100_000
    # a contract each seat plays for itself is judged by its score in playouts (_score_cards),
    # not by the solver's fewest points (False: the solver, as before; for measuring)
    per_seat_by_score = True
    # the worlds of a decision are drawn from this many times as many and weighed by the other
    # seats' bids (see _states); a world in which the normal level would have bid otherwise
    # counts this much per such bid
    inference_miss = 0.35
    # a card another seat played where the normal level would have played another counts this
    # much (with `play_inference` > 0): the others' card play says less than their bids, and
    # the others need not play like the normal level
    play_miss = 0.5

    def __init__(self, game, seed=0, options=None, worlds: int | None = None, rollout_worlds: int | None = None,
                 nodes: int = 20000, playout_worlds: int | None = None, playouts: int | None = None,
                 rollout_playouts: int | None = None, screen_worlds: int | None = None,
                 seconds: float | None = None, win_weight: int | None = None, inference_pool: int = 2,
                 play_inference: int = 0, exact_nodes: int | None = None, exact_worlds: int | None = None,
                 exact_share: int | None = None):
        super().__init__(game, seed, options)
        given = {"worlds": worlds, "playout_worlds": playout_worlds, "playouts": playouts,
                 "rollout_worlds": rollout_worlds, "rollout_playouts": rollout_playouts,
                 "screen_worlds": screen_worlds, "exact_nodes": exact_nodes, "exact_worlds": exact_worlds,
                 "exact_share": exact_share}
        budget = {**declared_budget(game), **{k: v for k, v in given.items() if v is not None}}
        worlds, playout_worlds, playouts = budget["worlds"], budget["playout_worlds"], budget["playouts"]
        rollout_playouts = budget["rollout_playouts"]
        rollout_worlds = budget.get("rollout_worlds", 48 if rollout_playouts else 8)
        screen_worlds = budget.get("screen_worlds", 8 if rollout_playouts else 1)
        for name, value, low in (("worlds", worlds, 1), ("rollout_worlds", rollout_worlds, 1), ("nodes", nodes, 100),
                                 ("playout_worlds", playout_worlds, 1), ("playouts", playouts, 1),
                                 ("rollout_playouts", rollout_playouts, 0),
                                 ("screen_worlds", screen_worlds, 1),
                                 ("exact_nodes", budget["exact_nodes"], 0), ("exact_worlds", budget["exact_worlds"], 1),
                                 ("exact_share", budget["exact_share"], 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
        if isinstance(inference_pool, bool) or not isinstance(inference_pool, int) or not 1 <= inference_pool <= 16:
            raise ValueError(f"inference_pool must be an integer 1..16, got {inference_pool!r}")
        self.inference_pool = inference_pool
        if isinstance(play_inference, bool) or not isinstance(play_inference, int) or not 0 <= play_inference <= 64:
            raise ValueError(f"play_inference must be an integer 0..64, got {play_inference!r}")
        self.play_inference = play_inference
        if win_weight is not None and (isinstance(win_weight, bool) or not isinstance(win_weight, int) or win_weight < 0):
            raise ValueError(f"win_weight must be an integer >= 0 or None, got {win_weight!r}")
        self.win_weight = win_weight
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0):
            raise ValueError(f"seconds must be a positive number or None, got {seconds!r}")
        self.worlds, self.rollout_worlds, self.nodes, self.seconds = worlds, rollout_worlds, nodes, seconds
        self.playout_worlds, self.playouts = playout_worlds, playouts
        self.rollout_playouts, self.screen_worlds = rollout_playouts, screen_worlds
        self.exact_nodes, self.exact_worlds = budget["exact_nodes"], budget["exact_worlds"]
        self.exact_share = budget["exact_share"]
        self._normal = NormalBot(game, seed, options)

    # -- worlds --
    def _states(self, view, n):
        """n worlds consistent with the view, weighed by what the other seats' bids, calls and
        announcements say about their hands: `inference_pool` x n worlds are drawn uniformly,
        each weighed by the likelihood of those actions under a model of their play (the normal
        level: a world in which it would have acted otherwise counts `inference_miss` per such
        action), and n of them are kept by weighted sampling without replacement. A seat that
        passed a solo probably holds no solo hand; one that called a Rufspiel, trumps. With
        `play_inference` N the other seats' last N cards are weighed too (`play_miss` each)."""
        inf = Inference(view, self.options)
        rng = rng_for(self.seed, view, "worlds")
        seed = rng.getrandbits(64)
        me = view["seat"]
        decisions = [i for i, a in enumerate(view["actions"])
                     if a.get("seat") not in (None, me) and a["type"] not in ("play", "exchange")]
        if self.play_inference:
            plays = [i for i, a in enumerate(view["actions"])
                     if a["type"] == "play" and a.get("seat") not in (None, me) and a.get("card") != HIDDEN]
            decisions = sorted(decisions + plays[-self.play_inference:])
        if not decisions or self.inference_pool == 1:
            return inf.states(n, seed)
        worlds = inf.sample(self.inference_pool * n, seed)
        keys = []
        for k, world in enumerate(worlds):
            weight = self._likelihood(inf, world, decisions, view["actions"])
            keys.append((rng.random() ** (1.0 / weight), k))    # Efraimidis-Spirakis keys
        kept = sorted(k for _, k in sorted(keys, reverse=True)[:n])
        return [inf.state_of(worlds[k]) for k in kept]

    def _likelihood(self, inf, world, decisions, actions) -> float:
        """How likely the other seats' non-card actions are in `world` under the normal level's
        play, softened: `inference_miss` for each action it would not have taken there. A call
        in the game's sight phase (a knock) is not weighed: a world does not say which of a
        seat's cards were the first packet it decided on. An announcement out of turn is not
        weighed either (the model announces on its own turns); the worlds' replay already keeps
        only those where the announcer's team may make it."""
        weight = 1.0
        sight = self._sight_phase()
        for i, state in zip(decisions, inf.before(world, decisions)):
            if sight is not None and state.phase() == sight:
                continue        # a knock on a first packet that the world does not single out
            seat = actions[i]["seat"]
            if state.to_act() != seat:
                continue        # out of turn (docs/records.md 3): the model acts on its turns only
            if state.encode(self._normal.choose(state.view(seat))) != state.encode(actions[i]):
                weight *= self.play_miss if actions[i]["type"] == "play" else self.inference_miss
        return weight

    def _choose(self, view, legal):
        free = free_call(view, [a for a in legal if a["type"] != "play"])
        if free is not None:
            return free
        evals = self._evaluate(view, legal, complete=False)
        best = max(evals, key=lambda e: e["utility"])
        return best["action"]

    def _evaluate(self, view, legal, complete=True):
        """Every legal action with its value and the utility the choice maximizes (`complete`:
        also the exchanges the choice never considers, as evaluate lists every legal action)."""
        plays = [a for a in legal if a["type"] == "play"]
        others = [a for a in legal if a["type"] != "play"]
        out = []
        if plays:
            states = self._states(view, max(self.worlds, self.playout_worlds))
            out += self._card_values(states, plays, view["seat"], rng_for(self.seed, view, "playouts"),
                                     self.worlds, self.nodes, self.playout_worlds, self.playouts)
        if others and plays:
            out += self._announcements(view, others, out, states)
        elif others:
            out += self._rollouts(view, others, complete=complete)
        return out

    def _announcements(self, view, others, cards, states):
        """An announcement during the play (Doppelkopf's re/kontra, no 90 .. schwarz), judged
        by null-window searches in `announce_worlds` of the sampled worlds: does the side reach
        its win target, as the targets stand after the announcement, with best play? It is
        made when the side does in at least `announce_share` of the worlds and the announcement
        costs at most `announce_cost` of the worlds the side wins without it (a promise raises
        the side's own target: a no 90 that fails loses a deal that 121 points would have won,
        and hands the other team two more). A world whose search runs out of its
        `announce_nodes` counts as not reached; where most do (the first tricks) the searches
        say nothing, and the easy level's hand rule decides."""
        seat = view["seat"]
        chosen = max(cards, key=lambda e: e["utility"])
        worlds = states[:self.announce_worlds]
        rule = self._normal._announce(view, others)
        out = []
        for a in others:
            after = self._share_reaching(worlds, seat, a)
            if after is None:
                good, win = a == rule, chosen["win"]
            else:
                win = after
                good = after >= self.announce_share
                if good:
                    before = self._share_reaching(worlds, seat, None)
                    good = before is not None and after >= before - self.announce_cost
            out.append({"action": a, "expected": chosen["expected"], "win": win,
                        "utility": 1e9 if good else -1e9})
        return out

    def _share_reaching(self, worlds, seat, action):
        """The share of `worlds` in which the seat's side reaches its win target with best play
        (after `action`, when given); None when no target applies or the searches of most
        worlds run out of nodes (the first two failing stops the rest)."""
        reached = unanswered = 0
        for k, world in enumerate(worlds):
            if action is not None:
                world = world.copy()
                world.apply(action)
            at = win_threshold(world, seat)
            if at is None:
                return None
            answer = solver.reaches(world, at, objective_for(world, seat), budget=self.announce_nodes)
            unanswered += answer is None
            reached += answer is True
            if unanswered * 2 > len(worlds) or unanswered == k + 1 == 2:
                return None
        return reached / max(1, len(worlds))

    def _card_values(self, states, plays, seat, seeds, solve, nodes, playout_worlds, playouts):
        """Each legal card's value over the worlds `states`: exact solver values where the
        searches of the first `solve` worlds finish in `nodes` each; otherwise (the first
        tricks) the mean margin of `playouts` random playouts after the card in each of the
        first `playout_worlds` worlds (flat Monte Carlo), each world's value kept within the
        bounds the solver proved for it. `expected` is the mean margin over the worlds, so it
        lies within the worlds' values (the Hint shows it); `win` the mean chance of winning
        the deal. Once the searches finish, the card maximizes the mean of margin + win_weight x
        chance of winning: a deal's score is a step at the game's win target, not a line in the
        card points (before, random playouts' win shares would mislead: the mean margin decides).
        With `exact_nodes` spare, each world in order may search with what is left of them
        (at most `exact_share` of them, where set: a world that will not finish then gives up
        early, so a Doppelkopf decision in the first tricks does not spend the pool for
        nothing); when the first `exact_worlds` or more finish, those worlds' exact values decide."""
        start = time.perf_counter()
        if not states:                 # no consistent world (cannot happen for a real view)
            return [{"action": a, "expected": 0.0, "win": None, "utility": 0.0} for a in plays]
        objective = objective_for(states[0], seat)
        if "seat" in objective and self.per_seat_by_score:
            return self._score_cards(states[:playout_worlds], plays, seat, seeds, playouts, start)
        minimize = objective.get("maximize") is False
        sign = -1 if minimize else 1
        weight = self._win_weight(states[0]) if win_threshold(states[0], seat) is not None else 0
        exact = {a["card"]: [] for a in plays}
        bounds = []                    # per solved world: {card: (lo, hi)}
        thresholds = []                # per world: the margin from which the seat's side wins
        spare = self.exact_nodes       # the pool the worlds draw on in order (each at least `nodes`)
        prefix = None                  # how many worlds, in order, were solved exactly
        for k, state in enumerate(states[:solve]):
            if self.seconds is not None and k >= 2 and time.perf_counter() - start > self.seconds:
                break
            at = win_threshold(state, seat)
            thresholds.append(at)
            found = {}
            cap = nodes if prefix is not None else max(nodes, min(spare, self.exact_share or spare))
            entries, used = solver.counted_values(state, objective_for(state, seat), budget=cap)
            for e in entries:
                lo, hi = (e["value"], e["value"]) if e["value"] is not None else (e["lower"], e["upper"])
                # two copies of a card share a code (Doppelkopf): each card counts once
                for card in {e["action"]["card"], *e["equivalent"]}:
                    if card in exact:
                        found[card] = (lo, hi)
            bounds.append(found)
            if prefix is None:
                spare -= used
                if any(hi - lo > self.open_width for lo, hi in found.values()):
                    prefix = k
                    if self.exact_nodes and prefix >= self.exact_worlds:
                        break          # the exact worlds decide; the rest would not count
            for card, (lo, hi) in found.items():
                value = (lo + hi) / 2
                exact[card].append((value, _won(value, at)))
        finished = all(hi - lo <= self.open_width for b in bounds for lo, hi in b.values())
        if finished:
            per_card = exact
        elif prefix is not None and self.exact_nodes and prefix >= self.exact_worlds:
            # the first `prefix` worlds were solved within the spare nodes: exact values over
            # fewer worlds beat random playouts over more (a Klaverjas first lead: 0.5M nodes a
            # world, so 20,000 each left every early trick to the playouts)
            per_card = {c: v[:prefix] for c, v in exact.items()}
            bounds, thresholds, finished = bounds[:prefix], thresholds[:prefix], True
        else:
            per_card = self._playout_cards(states[:playout_worlds], plays, seat, bounds, seeds, playouts, start)

        def worth(v, at):             # a value's utility for the seat, monotone in the value
            return sign * v + weight * _won(v, at) if at is not None else sign * v

        # the proven bounds prune: a card whose mean upper bound (for the seat) lies below
        # another card's mean lower bound is worse in the searched worlds, whatever the playouts say
        low = {c: sum(min(worth(b[c][0], at), worth(b[c][1], at)) for b, at in zip(bounds, thresholds))
               for c in exact}
        high = {c: sum(max(worth(b[c][0], at), worth(b[c][1], at)) for b, at in zip(bounds, thresholds))
                for c in exact}
        floor = max(low.values())
        out = []
        for a in plays:
            vals = per_card[a["card"]]
            mean = sum(v for v, _ in vals) / len(vals)
            win = sum(w for _, w in vals) / len(vals)
            # the win chance counts where the searches finished: random playouts say little
            # about who wins a deal played well (they misjudged the defence of a Wenz)
            utility = sign * mean + (weight * win if finished else 0) - (1e6 if high[a["card"]] < floor else 0)
            out.append({"action": a, "expected": mean, "utility": utility, "finished": finished,
                        "win": None if minimize else win})
        return out

    def _score_cards(self, states, plays, seat, seeds, playouts, start):
        """A contract each seat plays for itself (a Ramsch, a leaster): who wins depends on
        every seat's points and tricks, not on the seat's own points alone (a leaster is won
        with the fewest points among the seats that took a trick: the fewest of all, no trick,
        never wins). Each card is worth the seat's deal score, by the engine's own scoring,
        minus the mean of the others', over `playouts` random playouts after it in each world
        (the engine's C playouts; the cards of a world share the seed, so their differences
        are paired). `expected` is that relative score, so the best card has the highest."""
        per_card = {a["card"]: [] for a in plays}
        for k, state in enumerate(states):
            if self.seconds is not None and k >= 2 and time.perf_counter() - start > self.seconds:
                break
            seed = seeds.getrandbits(64)
            for a in plays:
                after = state.copy()
                after.apply(a)
                if after.is_over():
                    rel = _relative(after.core.scores(), seat)[0]
                else:
                    rel = _relative(after.core.playouts(playouts, seed), seat)[0] / playouts
                per_card[a["card"]].append(rel)
        out = []
        for a in plays:
            mean = sum(per_card[a["card"]]) / len(per_card[a["card"]])
            out.append({"action": a, "expected": mean, "utility": mean, "finished": False, "win": None})
        return out

    def _win_weight(self, state) -> float:
        """What winning the deal is worth against card points: `win_weight`, by default the
        deck's card points (a won deal outweighs any margin of half the deck's points: in
        Schafkopf the score hardly depends on the points beyond 61, in Klaverjas a contract lost
        hands the other team every point); 0 where no win target applies."""
        if self.win_weight is not None:
            return self.win_weight
        return sum(state.core.card_points()) * state.game.deck.copies

    def _playout_cards(self, states, plays, seat, bounds, seeds, playouts, start):
        """Per card, (its value, its chance of winning) in each world: the mean margin of
        `playouts` random playouts after it and the share of them that reach the win target
        (the engine's C playouts, GIL released), clamped to the world's proven solver bounds
        where the world was searched, so no estimate leaves what search has proved. The cards
        of a world share the playout seeds (their differences are paired)."""
        per_card = {a["card"]: [] for a in plays}
        for k, state in enumerate(states):
            if self.seconds is not None and k >= 2 and time.perf_counter() - start > self.seconds:
                break
            obj = solver.objective_of(state, objective_for(state, seat))
            at = win_threshold(state, seat)
            proved = bounds[k] if k < len(bounds) else {}
            sums = state.game.rules.playout_values(state.core, [state.encode(a) for a in plays], playouts,
                                                   seeds.getrandbits(64), obj.mask,
                                                   solver.COUNTS[obj.count], obj.maximize,
                                                   NO_TARGET if at is None else at)
            for a, (total, wins) in zip(plays, sums):
                value, win = total / playouts, wins / playouts
                if a["card"] in proved:
                    lo, hi = proved[a["card"]]
                    value = min(max(value, lo), hi)
                    if at is not None:     # what search proved about winning stands
                        win = 1.0 if lo >= at else 0.0 if hi < at else win
                per_card[a["card"]].append((value, win if at is not None else _won(value, None)))
        return per_card

    def _rollouts(self, view, actions, states=None, complete=True):
        """Bids, calls, exchanges, Kontra/Re, cracking, the trump choice: each candidate judged
        in the same `rollout_worlds` sampled worlds (_playout_scores). The normal level's choice
        stands unless another candidate beats it by more than the noise (_lower_bound). Many
        candidates (a Schafkopf auction, a Sheepshead bury) are screened on `screen_worlds`
        of the worlds first, and the four best plus the normal level's choice go on; the others
        are listed with their screening value (evaluate lists every legal action)."""
        seat = view["seat"]
        start = time.perf_counter()
        if states is None:
            states = self._states(view, self.rollout_worlds)
        # the normal level's choice (in the sight phase: the easy level's rule on the cards seen)
        favourite = (self._normal.choose(view) if self._partial_sight(view)
                     else self._normal._choose(view, actions))
        candidates = actions
        dropped = []
        if len([a for a in actions if a["type"] == "exchange"]) > self.screen_limit:
            # an Armut return (hundreds of candidates; screening them all by normal-level
            # rollouts took 6 s): the choice is among the easy level's favourite and five
            # others; `evaluate` (complete) lists the rest with the value of random playouts on
            # the screening worlds (the contract is fixed, so random defenders favour no one)
            candidates = self._normal._choose_ranked_exchanges(view, actions)[:6]
            if favourite not in candidates:
                favourite = candidates[0]
            rest = [a for a in actions if a not in candidates]
            if complete and rest:
                screen = self._playout_scores(view, states[:self.screen_worlds], rest, seat,
                                              playouts=self.rollout_playouts or 8)
                for i, a in enumerate(rest):
                    pairs = screen[i]
                    dropped.append({"action": a, "expected": sum(p[1] for p in pairs) / len(pairs),
                                    "utility": -1e8, "edge": sum(p[0] for p in pairs) / len(pairs),
                                    "win": sum(1 for p in pairs if p[0] > 0) / len(pairs)})
        if len(candidates) > 6 and len(states) > self.screen_worlds:
            screen = self._playout_scores(view, states[:self.screen_worlds], candidates, seat)
            means = [sum(p[0] for p in screen[i]) / len(screen[i]) for i in range(len(candidates))]
            keep = set(sorted(range(len(candidates)), key=lambda i: -means[i])[:4])
            keep.add(candidates.index(favourite))
            for i, a in enumerate(candidates):
                if i not in keep:         # judged on the screening worlds only, never chosen
                    pairs = screen[i]
                    dropped.append({"action": a, "expected": sum(p[1] for p in pairs) / len(pairs),
                                    "utility": -1e8, "edge": means[i],
                                    "win": sum(1 for p in pairs if p[0] > 0) / len(pairs)})
            candidates = [candidates[i] for i in sorted(keep)]
        totals = self._playout_scores(view, states, candidates, seat, start)
        fav = candidates.index(favourite)
        results = []
        for i, a in enumerate(candidates):
            pairs = totals[i] or [(0, 0)]
            edge = sum(p[0] for p in pairs) / len(pairs)
            utility = edge
            if self.paired:
                utility = 0.0 if i == fav else _lower_bound(pairs, totals[fav], self.deviation_z)
            results.append({"action": a, "expected": sum(p[1] for p in pairs) / len(pairs), "utility": utility,
                            "edge": edge, "win": sum(1 for p in pairs if p[0] > 0) / len(pairs)})
        return results + dropped

    def _playout_scores(self, view, states, candidates, seat, start=None, playouts=None):
        """Per candidate, (relative score, score) of the seat in each world: the action is
        taken, the rest of the auction (every call before the first card) is played by the
        normal level, and the card play by `rollout_playouts` random playouts (the engine's C
        playout), averaged. Every candidate of a world meets the same auction policy and
        playout seeds, so their differences are paired."""
        policy = [NormalBot(self.game, self.seed + s, self.options) for s in range(8)]
        seeds = rng_for(self.seed, view, "bids")
        totals = {i: [] for i in range(len(candidates))}
        for k, state in enumerate(states):
            if self.seconds is not None and start is not None and k >= 2 and time.perf_counter() - start > self.seconds:
                break
            count = self.rollout_playouts if playouts is None else playouts
            world_seed = seeds.getrandbits(64)
            for i, a in enumerate(candidates):
                st = state.copy()
                st.apply(a)
                while not st.is_over():
                    legal = st.legal_actions()
                    if any(x["type"] == "play" for x in legal):
                        break
                    s = st.to_act()
                    st.apply(policy[s].choose(st.view(s)) if len(legal) > 1 else legal[0])
                if not count:                 # no playouts: the normal level plays the cards too
                    while not st.is_over():
                        s = st.to_act()
                        v = st.view(s)
                        st.apply(policy[s].choose(v) if len(v["legal"]) > 1 else v["legal"][0])
                    rel, own = _relative(st.core.scores(), seat)
                else:
                    # the sums of `count` C playouts (GIL released): _relative is linear
                    rel, own = _relative(st.core.playouts(count, world_seed), seat)
                    rel, own = rel / count, own / count
                totals[i].append((rel, own))
        return totals

    def _choose_open(self, state):
        """The tournament's `cheat` level: the same search on the true deal, every hand open
        (the price of hidden information is hard's gap to it). Takes a State explicitly; never
        reachable through bots.get or choose(view)."""
        seat = state.to_act()
        legal = state.legal_actions()
        plays = [a for a in legal if a["type"] == "play"]
        if plays:
            # the true deal is the only world: one search with the budget of all the worlds,
            # the playouts of all the worlds where it does not finish
            seeds = rng_for(self.seed, state.view(seat), "playouts")
            evals = self._card_values([state], plays, seat, seeds, 1, self.nodes * self.worlds, 1,
                                      self.playouts * self.playout_worlds)
            return max(evals, key=lambda e: e["utility"])["action"]
        # bids and calls: the hard level's judgement with the true deal as every world
        view = state.view(seat)
        evals = self._rollouts(view, legal, states=[state] * self.rollout_worlds, complete=False)
        return max(evals, key=lambda e: e["utility"])["action"]


NO_TARGET = 1 << 30          # a win threshold no value reaches (playout_values counts no wins)


def win_threshold(state, seat: int) -> int | None:
    """The margin (in the solver's "margin" count for the seat's side, as objective_for sets
    it) from which the seat's side wins the deal: the game's declared "win" target for the
    default side, turned around for the other side (the declarers fail below it). None where
    none applies: no such target, one counted in tricks, or a contract of one's own points
    (a Ramsch, a leaster)."""
    target = state.game.spec.targets.get("win")
    objective = objective_for(state, seat)
    if target is None or target.value is None or target.count == "tricks" or "side" not in objective:
        return None
    if target.count == "margin":
        declarers = target.value
    else:                          # points p of a deck of T points: margin 2p - T
        declarers = 2 * target.value - sum(state.core.card_points()) * state.game.deck.copies
    win_at = state.game.spec.win_at                  # as the announcements or the bid stand
    if win_at is not None and target.count == "margin":
        return win_at(state.core, seat)
    if win_at is not None and target.count == "points":
        points = win_at(state.core, seat)
        return None if points is None else 2 * points - sum(state.core.card_points()) * state.game.deck.copies
    if seat in state.game.rules.default_side(state.core):
        return declarers
    return 1 - declarers


def _won(value: float, at: int | None) -> float:
    """1.0 when a side's value reaches its win threshold (no threshold: a positive margin)."""
    return 1.0 if (value >= at if at is not None else value > 0) else 0.0


def _lower_bound(pairs: list, favourite: list, z: float = 1.0) -> float:
    """How much better a candidate is than the normal level's choice, pessimistically: the
    mean of their paired differences (the same worlds, the same playout policy) minus z standard
    errors. The maximum of a few noisy means is biased upwards (the winner's curse: a rollout
    that happens to go well makes a hopeless solo look good), so the hard level deviates from the
    club player's bid only where the sampled worlds agree that it pays."""
    diffs = [p[0] - q[0] for p, q in zip(pairs, favourite)]
    if len(diffs) < 2:
        return -1e9
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean - z * (var / len(diffs)) ** 0.5


def _relative(scores: list, seat: int) -> tuple[float, float]:
    """(the seat's score minus the mean of the other seats', its own score): what a rollout is
    worth to the seat. In Klaverjas both teams score, so only the difference says who gained."""
    others = [x for s, x in enumerate(scores) if s != seat]
    return scores[seat] - sum(others) / len(others), scores[seat]
