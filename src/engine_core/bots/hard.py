"""The hard level: determinized search over worlds from the inference.

Card play: sample up to `worlds` hidden worlds consistent with the view (bots.inference),
and in each solve every legal card with engine_core.solver for the seat's side in that world
(count "margin": the side's total minus the others'; in a Ramsch or a leaster the seat's own
points, as few as possible). The card with the best mean wins. Where a search runs out of
its node budget (`nodes`, e.g. in Doppelkopf's first tricks) the solver returns proven bounds
only; their midpoint is no evaluation, so the bounds prune instead (a card whose mean upper
bound lies below another card's mean lower bound is dropped) and among the cards left the
normal level's counting heuristics choose: that is the heuristic evaluation at the leaves of
an unfinished search.

Every other decision (bids, calls, bury, Armut, Kontra/Re, cracking, trump): for each
candidate action, in each of `rollout_worlds` sampled worlds, the action is taken and the
deal played out by the normal level for every seat; a candidate's worth is the seat's score
minus the mean of the other seats' scores (Klaverjas: both teams score, so only the
difference says who gained). The normal level's choice stands unless another candidate beats
it in the same worlds by more than one standard error of the paired differences: the best of
a few noisy means is biased upwards, and without that test the bot bid hopeless solos that
one lucky rollout had made look good. A Doppelkopf Re or Kontra during the play is made when
the side wins in 75% of the worlds whose searches finished; before they finish (the first
tricks) the easy level's hand rule decides. `expected` is the seat's mean score, `win` the share
of worlds in which the seat scored more than the others on average. Exchanges with
many candidates are first narrowed to the easy level's favourite and five others; more than six
bids are screened on one world and the four best (plus the normal level's choice) go on.

Budget: `worlds` (default 16), `rollout_worlds` (8) and `nodes` per solve (20000) fix the
work of a decision, so a bot is deterministic per seed; the defaults keep the median under
0.5 s on one core (docs/bots.md has the measurements). `seconds` (default None) adds a time
limit: worlds stop being added once it is spent (at least 2 are used), which bounds the
worst case on a slow machine at the price of determinism.
"""
from __future__ import annotations

import time

from .. import solver
from . import Bot
from .inference import Inference
from .knowledge import rng_for
from .normal import NormalBot


def objective_for(state, seat: int) -> dict:
    """The solver objective of `seat`'s side in a world."""
    contract = (state.core.public(seat) or {}).get("contract") or {}
    if contract.get("type") in ("ramsch", "leaster"):
        return {"seat": seat, "count": "points", "maximize": False}
    side = state.game.rules.default_side(state.core)
    if seat not in side:
        side = [s for s in range(state.game.seats) if s not in side]
    return {"side": side, "count": "margin"}


class HardBot(Bot):
    level = "hard"
    # bids, calls and exchanges: keep the normal level's choice unless a candidate beats it in
    # the same sampled worlds by more than the noise (see _lower_bound)
    paired = True
    deviation_z = 1.0
    # a card search whose bounds are wider than this (in card points) counts as unfinished
    open_width = 10

    def __init__(self, game, seed=0, options=None, worlds: int = 16, rollout_worlds: int = 8,
                 nodes: int = 20000, seconds: float | None = None):
        super().__init__(game, seed, options)
        for name, value, low in (("worlds", worlds, 1), ("rollout_worlds", rollout_worlds, 1), ("nodes", nodes, 100)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0):
            raise ValueError(f"seconds must be a positive number or None, got {seconds!r}")
        self.worlds, self.rollout_worlds, self.nodes, self.seconds = worlds, rollout_worlds, nodes, seconds
        self._normal = NormalBot(game, seed, options)

    # -- worlds --
    def _states(self, view, n):
        inf = Inference(view, self.options)
        seed = rng_for(self.seed, view, "worlds").getrandbits(64)
        return inf.states(n, seed)

    def _choose(self, view, legal):
        evals = self._evaluate(view, legal)
        best = max(evals, key=lambda e: e["utility"])
        return best["action"]

    def _evaluate(self, view, legal):
        plays = [a for a in legal if a["type"] == "play"]
        others = [a for a in legal if a["type"] != "play"]
        out = []
        if plays:
            out += self._solve_cards(view, plays)
        if others and plays:
            # an announcement during the play (Doppelkopf): Re/Kontra when the side wins in at
            # least 75% of the solved worlds with its best card; the higher ones are not made
            win = max(e["win"] or 0.0 for e in out)
            expected = max(e["expected"] for e in out)
            # unfinished searches (the first tricks) say nothing about winning: the easy
            # level's hand rule decides there
            finished = all(e.get("finished", True) for e in out)
            rule = self._normal._announce(view, others) if not finished else None
            for a in others:
                good = a.get("call") in ("re", "kontra") and (win >= 0.75 if finished else a == rule)
                out.append({"action": a, "expected": expected, "win": win,
                            "utility": 1e9 if good else -1e9})
        elif others:
            out += self._rollouts(view, others)
        return out

    def _solve_cards(self, view, plays):
        seat = view["seat"]
        start = time.perf_counter()
        states = self._states(view, self.worlds)
        sums = {a["card"]: 0.0 for a in plays}
        lows = {a["card"]: 0.0 for a in plays}
        highs = {a["card"]: 0.0 for a in plays}
        wins = {a["card"]: 0 for a in plays}
        widths = []
        used = 0
        minimize = False
        for k, state in enumerate(states):
            if self.seconds is not None and k >= 2 and time.perf_counter() - start > self.seconds:
                break
            obj = objective_for(state, seat)
            minimize = obj.get("maximize") is False
            for e in solver.values(state, obj, budget=self.nodes):
                lo, hi = (e["value"], e["value"]) if e["value"] is not None else (e["lower"], e["upper"])
                mid = (lo + hi) / 2
                widths.append(hi - lo)
                for card in [e["action"]["card"], *e["equivalent"]]:
                    if card in sums:
                        sums[card] += mid
                        lows[card] += lo
                        highs[card] += hi
                        wins[card] += (mid > 0) if not minimize else 0
            used += 1
        if not used:                   # no consistent world (cannot happen for a real view)
            return [{"action": a, "expected": 0.0, "win": None, "utility": 0.0} for a in plays]
        mean = {c: s / used for c, s in sums.items()}
        sign = -1 if minimize else 1
        best = max(sign * v for v in mean.values())
        util = {c: sign * v for c, v in mean.items()}
        if widths and max(widths) > self.open_width:
            # searches cut off by the node budget (Doppelkopf's early tricks): their midpoints
            # are no evaluation. The bounds still prune: a card whose mean upper bound is below
            # another's mean lower bound is worse in the sampled worlds; among the cards left,
            # the normal level's counting heuristics (the leaf knowledge) choose.
            sign_lo = {c: (-highs[c] if minimize else lows[c]) / used for c in mean}
            sign_hi = {c: (-lows[c] if minimize else highs[c]) / used for c in mean}
            floor = max(sign_lo.values())
            left = [c for c in mean if sign_hi[c] >= floor]
            pick = self._normal._card(view, left)
            util[pick] = max(util.values()) + 1.0
        finished = not widths or max(widths) <= self.open_width
        return [{"action": a, "expected": mean[a["card"]], "utility": util[a["card"]], "finished": finished,
                 "win": None if minimize else wins[a["card"]] / used} for a in plays]

    def _rollouts(self, view, actions, extra=False):
        seat = view["seat"]
        candidates = actions
        if len([a for a in actions if a["type"] == "exchange"]) > 6:
            ranked = self._normal._choose_ranked_exchanges(view, actions)
            candidates = ranked[:6]
        states = self._states(view, self.rollout_worlds)
        dropped = []
        if len(candidates) > 6 and len(states) > 1 and not extra:
            # many bids: one world screens them all, the four best and the easy choice go on
            screen = self._rollout_scores(states[:1], candidates, seat, extra)
            keep = sorted(range(len(candidates)), key=lambda i: -screen[i][0][0])[:4]
            favourite = self._normal._choose(view, candidates)
            kept = [candidates[i] for i in sorted(keep)] + \
                [favourite] * (favourite not in [candidates[i] for i in keep])
            for i, a in enumerate(candidates):
                if a not in kept:         # judged on the screening world only, never chosen
                    edge, score = screen[i][0]
                    dropped.append({"action": a, "expected": score, "utility": -1e8, "edge": edge,
                                    "win": 1.0 if edge > 0 else 0.0})
            candidates = kept
        start = time.perf_counter()
        results = []
        totals = self._rollout_scores(states, candidates, seat, extra, start)
        favourite = None if extra else self._normal._choose(view, candidates)
        fav = candidates.index(favourite) if favourite in candidates else None
        for i, a in enumerate(candidates):
            pairs = totals[i] or [(0, 0)]
            mean = sum(p[1] for p in pairs) / len(pairs)
            edge = sum(p[0] for p in pairs) / len(pairs)
            utility = edge if not extra else edge - 1e9
            if fav is not None and self.paired:
                utility = 0.0 if i == fav else _lower_bound(pairs, totals[fav], self.deviation_z)
            results.append({"action": a, "expected": mean, "utility": utility,
                            "edge": edge, "win": sum(1 for p in pairs if p[0] > 0) / len(pairs)})
        if extra:
            # an announcement during the play: made when it pays more than playing silently,
            # compared with the silent rollouts of the same worlds
            return self._announce_vs_silent(view, results, states)
        return results + dropped

    def _rollout_scores(self, states, candidates, seat, extra, start=None):
        """Per candidate, (relative score, score) of the seat in each world's rollout."""
        policy = [NormalBot(self.game, self.seed + s, self.options) for s in range(8)]
        totals = {i: [] for i in range(len(candidates))}
        for k, state in enumerate(states):
            if self.seconds is not None and start is not None and k >= 2 and time.perf_counter() - start > self.seconds:
                break
            for i, a in enumerate(candidates):
                st = state.copy()
                st.apply(a)
                while not st.is_over():
                    s = st.to_act()
                    v = st.view(s)
                    act = policy[s].choose(v) if len(v["legal"]) > 1 else v["legal"][0]
                    if extra and s == seat and act["type"] != "play":
                        act = next((x for x in v["legal"] if x["type"] == "play"), act)
                    st.apply(act)
                totals[i].append(_relative(st.result()["scores"], seat))
        return totals

    def _announce_vs_silent(self, view, results, states):
        seat = view["seat"]
        policy = [NormalBot(self.game, self.seed + s, self.options) for s in range(8)]
        silent = []
        for state in states:
            st = state.copy()
            while not st.is_over():
                s = st.to_act()
                v = st.view(s)
                act = policy[s].choose(v)
                if s == seat and act["type"] != "play":
                    act = next(x for x in v["legal"] if x["type"] == "play")
                st.apply(act)
            silent.append(_relative(st.result()["scores"], seat)[0])
        base = sum(silent) / max(1, len(silent))
        for r in results:
            # utility above every card (1e9) only when announcing beats staying silent
            r["utility"] = 1e9 + r["edge"] if r["edge"] > base + 1e-9 and r["win"] >= 0.6 else -1e9
        return results

    def _choose_open(self, state):
        """The tournament's `cheat` level: the same search on the true deal, every hand open
        (the price of hidden information is hard's gap to it). Takes a State explicitly; never
        reachable through bots.get or choose(view)."""
        seat = state.to_act()
        legal = state.legal_actions()
        plays = [a for a in legal if a["type"] == "play"]
        if plays:
            obj = objective_for(state, seat)
            sign = -1 if obj.get("maximize") is False else 1
            bounds = {}
            for e in solver.values(state, obj, budget=self.nodes * self.worlds):
                lo, hi = (e["value"], e["value"]) if e["value"] is not None else (e["lower"], e["upper"])
                lo, hi = sorted((sign * lo, sign * hi))
                for card in [e["action"]["card"], *e["equivalent"]]:
                    bounds[card] = (lo, hi)
            floor = max(lo for lo, _ in bounds.values())
            best = max(bounds, key=lambda c: (bounds[c][0], bounds[c][1]))
            if bounds[best][1] - bounds[best][0] > self.open_width:
                # cut off by the budget: the bounds prune, the normal level chooses (as in hard)
                left = [c for c, (_, hi) in bounds.items() if hi >= floor]
                best = self._normal._card(state.view(seat), left)
            return next(a for a in plays if a["card"] == best)
        # bids and calls: rollouts of the true deal by the normal level, under `rollout_worlds`
        # different policy seeds, with the same paired test against the normal level's choice as
        # the hard level (one rollout per candidate overbid: a lucky playout made a solo look good)
        favourite = self._normal.choose(state.view(seat))
        candidates = legal if len(legal) <= 8 else legal[:8]
        if favourite not in candidates:
            candidates = [*candidates, favourite]
        scores = {i: [] for i in range(len(candidates))}
        for r in range(self.rollout_worlds):
            policy = [NormalBot(self.game, self.seed + 8 * r + s, self.options) for s in range(8)]
            for i, a in enumerate(candidates):
                st = state.copy()
                st.apply(a)
                while not st.is_over():
                    s = st.to_act()
                    st.apply(policy[s].choose(st.view(s)))
                scores[i].append(_relative(st.result()["scores"], seat))
        fav = candidates.index(favourite)
        utility = [0.0 if i == fav else _lower_bound(scores[i], scores[fav], self.deviation_z)
                   for i in range(len(candidates))]
        return candidates[max(range(len(candidates)), key=lambda i: utility[i])]


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
