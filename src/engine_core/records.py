"""JSON game records (../spec/records.md): load, validate, replay, dump, evaluate.

A record is the whole truth of a deal: options, dealer, hands, actions. Replaying it through
the engine is the only way its result is computed, so persistence, batch evaluation and the
conformance tests all share this path.
"""
from __future__ import annotations

import json
from typing import Any

from . import games
from .errors import ActionError, InvalidRecordError, OptionError
from .state import State

_KEYS = {"game", "options", "dealer", "hands", "blind", "actions"}


def loads(text: str) -> dict:
    """Parse a record from JSON text (InvalidRecordError on bad JSON)."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, TypeError) as err:
        raise InvalidRecordError("", f"malformed JSON: {err}") from None
    validate(obj)
    return obj


def dumps(record: dict) -> str:
    return json.dumps(record, separators=(",", ":"))


def validate(record: Any) -> None:
    """Check a record's top-level shape (actions are judged one by one by `replay`)."""
    if not isinstance(record, dict):
        raise InvalidRecordError("", "a record must be a JSON object")
    for key in record:
        if key not in _KEYS:
            raise InvalidRecordError(key, f"unknown record field; fields are {', '.join(sorted(_KEYS))}")
    for key in ("game", "dealer", "hands", "actions"):
        if key not in record:
            raise InvalidRecordError(key, "missing")
    if not isinstance(record["game"], str):
        raise InvalidRecordError("game", "must be a string")
    if "options" in record and not isinstance(record["options"], dict):
        raise InvalidRecordError("options", "must be an object")
    if "blind" in record and not isinstance(record["blind"], list):
        raise InvalidRecordError("blind", "must be a list of cards ([] in games without a blind)")
    if not isinstance(record["actions"], list):
        raise InvalidRecordError("actions", "must be a list")


def new_state(record: Any) -> State:
    """The state at the start of a record's deal (no actions applied)."""
    validate(record)
    try:
        game = games.get(record["game"], record.get("options") or {})
    except OptionError as err:
        raise InvalidRecordError(err.field, err.reason) from None
    return game.new_deal(record["hands"], record["dealer"], record.get("blind"))


def replay(record: Any, legal: list | None = None) -> State:
    """The state after every action of the record. Raises InvalidActionError or
    IllegalActionError at the first refused action (index set); a record that stops early yields a deal in progress.
    If `legal` is a list, the legal actions before each action are appended to it: the seat to
    act's, or for an out-of-turn action (docs/records.md 3) the acting seat's own when it has any."""
    state = new_state(record)
    seats = state.game.seats
    for i, action in enumerate(record["actions"]):
        if legal is not None:
            seat = action.get("seat") if isinstance(action, dict) else None
            own = (state.legal_actions(seat) if type(seat) is int and 0 <= seat < seats
                   and seat != state.to_act() else [])
            legal.append(own or state.legal_actions())
        try:
            state.apply(action)
        except ActionError as err:
            raise err.at(i) from None
    return state


def dump(state: State) -> dict:
    return state.record()


def evaluate(record: Any, with_legal: bool = False) -> dict:
    """One batch-evaluation answer: {"result": …} or {"error": {"index", "reason"}}
    (plus "legal" with `with_legal`). Never raises for bad input."""
    legal: list | None = [] if with_legal else None
    out: dict = {}
    try:
        state = replay(record, legal)
        if state.is_over():
            out["result"] = state.result()
        else:
            n = len(record["actions"])
            out["error"] = {"index": n, "reason": f"deal not finished: seat {state.to_act()} to act",
                            "reason_id": "DEAL_NOT_FINISHED"}
    except ActionError as err:
        out["error"] = {"index": err.index, "reason": str(err), "reason_id": err.reason_id}
    except InvalidRecordError as err:
        out["error"] = {"index": None, "reason": str(err), "reason_id": err.reason_id}
    if legal is not None:
        out["legal"] = legal
    return out
