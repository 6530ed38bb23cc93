"""The perfect-information solver: with every hand open, the value of a position and of each
legal card, for every game (the search is `_solver.pxi`, compiled into each game's module over
its own rule hooks, with the GIL released).

A value is the objective side's total at the end of the deal, counted as the deal's result
counts it (`card_points` of the side's seats; Klaverjas: cards, last trick, roem and pit):
what the side has already taken plus what it takes from here with best play on both sides.

Objectives (the default of each game, or `objective=`):
- Schafkopf: the declaring side (declarer and partner); Ramsch: one seat (the seat to act)
  against the other three.
- Doppelkopf: the Re party as it stands (with all hands open, the club queens' holders).
- Sheepshead: the picker's side (the bury counts for the picker); leaster: one seat.
- Klaverjas: the maker's team (its total includes roem, the last trick and the pit bonus).
`objective` may be a dict: {"side": [seats]} or {"seat": s}, plus "count": "points" (default),
"tricks" or "margin" (the side's total minus the others'), and "maximize": false to have the
side take as little as it can (e.g. in a Ramsch). Targets for `reaches`: a number, or
a name the game declares (`GameSpec.targets`: "win" everywhere, e.g. Schafkopf 61,
Doppelkopf 121, Klaverjas a majority (margin >= 1); "schneider", "no_90", "pit", "schwarz", ...).
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Iterable

from . import records
from .errors import InvalidRecordError, StichError
from .state import State

COUNTS = {"points": 0, "tricks": 1, "margin": 2}
_LOCAL = threading.local()


class SolverError(StichError, ValueError):
    """A position or an argument the solver cannot take (a deal still in the auction, a bad
    budget, an unknown objective); `field` names the argument."""

    reason_id = "BAD_SOLVER_ARGUMENT"

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


@dataclass(frozen=True)
class Objective:
    side: tuple[int, ...]
    count: str = "points"
    maximize: bool = True

    @property
    def mask(self) -> int:
        return sum(1 << s for s in self.side)


@dataclass
class Solution:
    """The value of a position: exact, or proven bounds when the node budget ran out."""

    value: int | None
    exact: bool
    lower: int
    upper: int
    nodes: int
    objective: Objective
    values: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        out = {"value": self.value, "exact": self.exact, "side": list(self.objective.side),
               "nodes": self.nodes}
        if not self.exact:
            out["lower"] = self.lower
            out["upper"] = self.upper
        return out


def _solver_for(rules):
    cache = getattr(_LOCAL, "solvers", None)
    if cache is None:
        cache = _LOCAL.solvers = {}
    solver = cache.get(rules)
    if solver is None:
        solver = cache[rules] = rules.Solver()
    return solver


def objective_of(state: State, objective: Any = None) -> Objective:
    """The objective of a position: the game's default side, or as `objective` says."""
    seats = state.game.seats
    if objective is None:
        objective = {}
    if isinstance(objective, Objective):
        return objective
    if not isinstance(objective, dict):
        raise SolverError("objective", f"must be an object such as {{\"side\": [0, 2]}}, got {_short(objective)}")
    unknown = set(objective) - {"side", "seat", "count", "maximize"}
    if unknown:
        raise SolverError("objective", f"unknown field {_short(sorted(unknown)[0])}; fields are side, seat, count, maximize")
    if "side" in objective and "seat" in objective:
        raise SolverError("objective", "give side or seat, not both")
    if "seat" in objective:
        seat = objective["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise SolverError("objective.seat", f"must be a seat 0..{seats - 1}, got {_short(seat)}")
        side = (seat,)
    elif "side" in objective:
        side = objective["side"]
        if (not isinstance(side, (list, tuple)) or not side
                or any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < seats for x in side)
                or len(set(side)) != len(side) or len(side) >= seats):
            raise SolverError("objective.side", f"must be a list of 1..{seats - 1} distinct seats, got {_short(side)}")
        side = tuple(sorted(side))
    else:
        side = tuple(state.game.rules.default_side(state.core))
    count = objective.get("count", "points")
    if count not in COUNTS:
        raise SolverError("objective.count", f"must be one of {', '.join(COUNTS)}, got {_short(count)}")
    maximize = objective.get("maximize", True)
    if not isinstance(maximize, bool):
        raise SolverError("objective.maximize", f"must be true or false, got {_short(maximize)}")
    return Objective(side, count, maximize)


def _budget(budget: Any) -> int:
    if budget is None:
        return 0
    if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
        raise SolverError("budget", f"must be a positive number of nodes (or absent for none), got {_short(budget)}")
    return budget


def _state(position: Any) -> State:
    if isinstance(position, State):
        return position
    if isinstance(position, dict):
        return records.replay(position)
    raise SolverError("state", f"must be a State or a record, got {type(position).__name__}")


def solve(position: Any, objective: Any = None, budget: int | None = None) -> Solution:
    """The exact value of the position for the objective's side (or, when `budget` nodes do not
    suffice, proven lower and upper bounds), with the number of nodes searched."""
    state = _state(position)
    obj = objective_of(state, objective)
    rules = state.game.rules
    try:
        lo, hi, nodes = rules.solve_core(state.core, _solver_for(rules), obj.mask, COUNTS[obj.count],
                                         obj.maximize, _budget(budget))
    except ValueError as err:
        raise SolverError("state", str(err)) from None
    return Solution(lo if lo == hi else None, lo == hi, lo, hi, nodes, obj)


def values(position: Any, objective: Any = None, budget: int | None = None) -> list[dict]:
    """The value of every legal card: one entry per class of equivalent cards, {"action",
    "value", "equivalent": [the other cards of its class]} (plus "lower"/"upper" when a budget
    ran out). `budget` bounds the nodes of all children together."""
    return counted_values(position, objective, budget)[0]


def counted_values(position: Any, objective: Any = None, budget: int | None = None) -> tuple[list[dict], int]:
    """`values` and the nodes they took: a caller that shares one budget among several
    positions (the hard level's worlds) spends what each search left."""
    state = _state(position)
    obj = objective_of(state, objective)
    rules = state.game.rules
    try:
        found, nodes = rules.action_values(state.core, _solver_for(rules), obj.mask, COUNTS[obj.count],
                                            obj.maximize, _budget(budget))
    except ValueError as err:
        raise SolverError("state", str(err)) from None
    deck = state.game.deck
    out = []
    for code, same, lo, hi in found:
        entry = {"action": state.decode(code), "value": lo if lo == hi else None,
                 "equivalent": [deck.code(c) for c in same if c != code]}
        if lo != hi:
            entry["lower"], entry["upper"] = lo, hi
        out.append(entry)
    return out, nodes


def target_of(state: State, target: Any) -> tuple[int, Objective | None]:
    """A target as (value, objective override): numbers are points; names are the game's
    declared targets (GameSpec.targets), counted for the position's default side."""
    names = state.game.spec.targets
    if isinstance(target, bool) or not isinstance(target, (int, str)):
        raise SolverError("target", f"must be a number or one of {', '.join(names)}, got {_short(target)}")
    if isinstance(target, int):
        return target, None
    declared = names.get(target)
    if declared is None:
        raise SolverError("target", f"must be a number or one of {', '.join(names)}, got {_short(target)}")
    value = state.game.hand_size if declared.value is None else declared.value
    if declared.count == "points":
        return value, None
    return value, Objective(tuple(state.game.rules.default_side(state.core)), declared.count)


def reaches(position: Any, target: Any, objective: Any = None, budget: int | None = None) -> bool | None:
    """Whether the side's final value reaches `target` with best play on both sides: one
    null-window search, much cheaper than an exact value. None when the budget ran out."""
    state = _state(position)
    value, override = target_of(state, target)
    obj = override if override is not None and objective is None else objective_of(state, objective)
    rules = state.game.rules
    try:
        answer, _nodes = rules.reaches_core(state.core, _solver_for(rules), obj.mask, COUNTS[obj.count],
                                            obj.maximize, value, _budget(budget))
    except ValueError as err:
        raise SolverError("state", str(err)) from None
    return answer


def solve_many(positions: Iterable[Any], threads: int = 1, objective: Any = None,
               budget: int | None = None) -> list[Solution | StichError]:
    """solve() of every position (a State or a record), in order, over `threads` threads (the
    search releases the GIL); a position that cannot be solved gives its error in its place.
    The answers do not depend on the thread count."""
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
        raise SolverError("threads", f"must be 1..256, got {_short(threads)}")
    _budget(budget)
    items = list(positions)

    def one(position):
        try:
            return solve(position, objective, budget)
        except (StichError, InvalidRecordError) as err:
            return err

    if threads == 1:
        return [one(p) for p in items]
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(one, items))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
