"""Deal analysis with the solver, all hands open: for each card of a record's card play the
value of every legal alternative and of the card chosen (the loss in points), and for the deal
what the objective side reached, what perfect play from the first card would have reached,
whether the side could have reached its target (its win) with best play, and the first
decisive mistake (the first card after which the best reachable outcome flipped).

Values are the side's final totals as in engine_core.solver. With `budget`, every search stops
after that many nodes and reports proven bounds instead ({"lower", "upper"}).

`analyze(record, seat=s)` (fair=True, the default once a seat is named) answers "was this a
mistake given what I knew?": each decision of seat s is evaluated from s's own view at the
time, over hidden worlds sampled by the bots' inference (engine_core.bots.inference), never
from the open hands; fair=False keeps the open-hands analysis (restricted to s's cards).
"""
from __future__ import annotations

from typing import Any, Callable

from . import records, solver
from .errors import ActionError
from .solver import Objective, SolverError, objective_of

# contracts won by taking the fewest points, against each other seat's total (Schafkopf's
# Ramsch: the seat with the most points loses; Sheepshead's leaster: the fewest points win):
# no fixed number of points wins, so they have no target; the seat to act minimises
LOWEST_WINS = ("ramsch", "leaster")


class Stopped(Exception):
    """The analysis was stopped between two searches (its `stop()` turned true)."""


def _check(stop: Callable[[], bool] | None) -> None:
    if stop is not None and stop():
        raise Stopped()


def lowest_wins(state) -> str | None:
    """The contract's type if the deal is one of LOWEST_WINS (fewest points win), else None."""
    contract = (state.core.public(None) or {}).get("contract") or {}
    return contract.get("type") if contract.get("type") in LOWEST_WINS else None


def _figure(lo: int, hi: int) -> Any:
    return lo if lo == hi else {"lower": lo, "upper": hi}


def _bounds(entry: dict) -> tuple[int, int]:
    if entry["value"] is not None:
        return entry["value"], entry["value"]
    return entry["lower"], entry["upper"]


def analyze(record: Any, objective: Any = None, budget: int | None = None, target: Any = "win",
            seat: int | None = None, fair: bool | None = None, worlds: int = 16,
            stop: Callable[[], bool] | None = None) -> dict:
    """The analysis of a record (finished or in progress). Raises InvalidRecordError or an
    ActionError (with the record index) like records.replay does for a bad record, and
    SolverError for a bad objective, budget, target, seat or fair. `stop()` is asked before
    every search: once it is true the analysis raises Stopped (a caller that left, a deadline)."""
    if fair is None:
        fair = seat is not None
    if not isinstance(fair, bool):
        raise SolverError("fair", f"must be true or false, got {fair!r}")
    if fair and seat is None:
        raise SolverError("seat", "a fair analysis is from one seat's view: give seat=")
    if seat is not None:
        seats = records.new_state(record).game.seats
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise SolverError("seat", f"must be a seat 0..{seats - 1}, got {seat!r}")
    if fair:
        return _fair(record, seat, budget, worlds, stop)
    out = _open(record, objective, budget, target, stop)
    if seat is not None:
        out["seat"] = seat
        out["actions"] = [step for step in out["actions"] if step["seat"] == seat]
    return out


def _fair(record: Any, seat: int, budget: int | None, worlds: int, stop=None) -> dict:
    """Each decision of `seat` (every phase) from its own view at the time: the hard bot's
    evaluation over sampled worlds, the action's expected value and the loss against the best."""
    from . import bots
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
        raise SolverError("worlds", f"must be a positive number of worlds, got {worlds!r}")
    state = records.new_state(record)
    game = state.game
    # the review's work follows `worlds` alone (16: the budget of a game that declares none),
    # whatever budget the game's hard level declares, so reviewing a long record stays cheap
    hard = bots.get(game.name, "hard", seed=0, options=game.options.as_dict(), worlds=worlds,
                    rollout_worlds=max(2, worlds // 2), nodes=budget or 20000,
                    playout_worlds=worlds, playouts=4 * worlds, exact_nodes=0)
    steps = []
    for i, action in enumerate(record["actions"]):
        if not state.is_over() and state.to_act() == seat and len(state.legal_actions()) > 1:
            view = state.view(seat)
            _check(stop)
            evals = hard.evaluate(view)
            best = max(evals, key=lambda e: e["expected"])
            chosen = next((e for e in evals if _same(e["action"], action)), None)
            step = {"index": i, "seat": seat, "action": action, "phase": view["phase"],
                    "values": evals, "best": best["action"], "best_expected": best["expected"]}
            if chosen is not None:
                step["expected"] = chosen["expected"]
                step["win"] = chosen["win"]
                step["loss"] = best["expected"] - chosen["expected"]
            steps.append(step)
        _apply(state, action, i)
    return {"game": game.name, "seat": seat, "fair": True, "worlds": worlds, "actions": steps}


def _same(a: dict, b: Any) -> bool:
    if not isinstance(b, dict):
        return False
    keys = ("type", "call", "suit", "card")
    if any(a.get(k) != b.get(k) for k in keys):
        return False
    return sorted(a.get("cards") or []) == sorted(b.get("cards") or [])


def _open(record: Any, objective: Any, budget: int | None, target: Any, stop=None) -> dict:
    """The open-hands analysis (every hand seen)."""
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0):
        raise SolverError("budget", f"must be a positive number of nodes, got {budget!r}")
    state = records.new_state(record)
    actions = record["actions"]
    i = 0
    while i < len(actions) and not (state.core.legal_mask() and isinstance(actions[i], dict)
                                    and actions[i].get("type") == "play"):
        _apply(state, actions[i], i)
        i += 1
    out: dict = {"game": state.game.name}
    if state.is_over() or not state.core.legal_mask():
        out.update(side=None, target=None, perfect=None, reached=None, could_win=None, won=None,
                   first_decisive_mistake=None, actions=[])
        return out
    fewest = lowest_wins(state) if objective is None else None
    if fewest is not None:
        # the seat to act, taking as few points as it can; won: it did not lose (its score)
        obj = Objective((state.to_act(),), "points", maximize=False)
        target = None
        out["target_note"] = (f"a {fewest} is won by taking fewer points than the other seats, not "
                              "by reaching a number: no target; won is the seat's result")
    else:
        obj = objective_of(state, objective)
    judged = solver.target_of(state, target) if target is not None else None
    goal = judged[0] if judged is not None else None
    # what the target counts: the objective's count, unless the game declares the target in
    # another (Klaverjas' win: a margin of at least 1)
    if judged is None:
        target_count = None
    elif judged[1] is not None and objective is None:
        target_count = judged[1].count
    else:
        target_count = obj.count
    _check(stop)
    perfect = solver.solve(state, obj, budget)
    _check(stop)
    could = solver.reaches(state, target, obj if objective is not None else None, budget) if target is not None else None
    out.update(side=list(obj.side), count=obj.count, maximize=obj.maximize, target=goal,
               target_count=target_count, perfect=_figure(perfect.lower, perfect.upper), could_win=could)
    steps = []
    decisive = None
    reach_before = could
    while i < len(actions) and not state.is_over():
        action = actions[i]
        seat = state.to_act()
        step: dict[str, Any] = {"index": i, "seat": seat, "action": action}
        if isinstance(action, dict) and action.get("type") == "play" and state.core.legal_mask():
            _check(stop)
            options = solver.values(state, obj, budget)
            for_side = (seat in obj.side) == obj.maximize
            bounds = [_bounds(e) for e in options]
            best = max(bounds) if for_side else min(bounds, key=lambda b: (b[1], b[0]))
            step["values"] = [{"action": e["action"], "value": _figure(*_bounds(e)),
                               "equivalent": e["equivalent"]} for e in options]
            step["best"] = _figure(*best)
            card = action.get("card")
            chosen = next((e for e in options if e["action"].get("card") == card or card in e["equivalent"]), None)
            if chosen is not None:
                lo, hi = _bounds(chosen)
                step["value"] = _figure(lo, hi)
                if lo == hi and best[0] == best[1]:
                    step["loss"] = (best[0] - lo) if for_side else (lo - best[0])
        _apply(state, action, i)
        if target is not None and reach_before is not None and decisive is None:
            # best play never worsens the actor's outcome: a flip is the actor's mistake
            _check(stop)
            after = solver.reaches(state, target, obj if objective is not None else None, budget)
            if after is not None and after != reach_before:
                decisive = {"index": i, "seat": seat, "action": action, "could_win_before": reach_before,
                            "could_win_after": after}
            reach_before = after
        steps.append(step)
        i += 1
    final = solver.solve(state, obj) if state.is_over() else None
    out["reached"] = final.value if final is not None else None
    if final is None:
        out["won"] = None
    elif fewest is not None:
        out["won"] = state.result_for(None)["scores"][obj.side[0]] > 0
    elif target is not None:
        out["won"] = solver.reaches(state, target, obj if objective is not None else None)
    else:
        out["won"] = None
    out["first_decisive_mistake"] = decisive
    out["actions"] = steps
    return out


def _apply(state, action, index: int) -> None:
    try:
        state.apply(action)
    except ActionError as err:
        raise err.at(index) from None
