"""One EvaluateRecords answer per input line, exactly as `python -m engine_core evaluate`
writes it: the CLI's own line function (`engine_core.cli.evaluate_line_text`, the games' text
fast paths scanning JSON straight to codes, else the generic evaluation), so the service
answers at the engine's fast-path speed and can never drift from the CLI."""
from __future__ import annotations

import json

from engine_core import cli, fastjson


def answer_text(line: str, number: int, with_legal: bool) -> tuple[str, dict]:
    """The CLI's output line for one input line (no newline) and the same answer as a dict;
    `number` (1-based) is the id when the line gives none."""
    if with_legal:
        answer = cli.evaluate_line(line, number, True)
        return fastjson.dumps(answer), answer
    text = cli.evaluate_line_text(line, number, False)
    return text, json.loads(text)


def answer(line: str, number: int, with_legal: bool) -> dict:
    """The answer for one line as a dict."""
    return answer_text(line, number, with_legal)[1]
