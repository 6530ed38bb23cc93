"""One EvaluateRecords answer per input line, exactly as `python -m engine_core evaluate`
writes it (`engine_core.cli.evaluate_line`), through `engine_core.batch.evaluate_one` (the
games' fast paths, identical answers) when this build has it."""
from __future__ import annotations

import json

from engine_core import records

try:
    from engine_core.batch import evaluate_one as _evaluate
except ImportError:                 # a build without the batch module
    _evaluate = records.evaluate


def answer(line: str, number: int, with_legal: bool) -> dict:
    """The answer for one line; `number` (1-based) is the id when the line gives none."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        return {"id": number, "error": {"index": None, "reason": f"malformed JSON: {err}"}}
    if isinstance(obj, dict) and "record" in obj and "game" not in obj:
        ident, record = obj.get("id", number), obj["record"]
    else:
        ident, record = number, obj
    return {"id": ident, **_evaluate(record, with_legal)}
