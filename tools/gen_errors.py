"""Write docs/errors.md from the reason ids the code declares (state.REASONS, each game's
REASONS, the record, match and solver ids, the service's service.errors.REASONS): the one
place they are listed is the code, and this page is the one list of them all.

    python tools/gen_errors.py          # rewrite docs/errors.md
    python tools/gen_errors.py --check  # exit 1 if docs/errors.md is stale (the tests do this)
"""
from __future__ import annotations

import sys
from pathlib import Path

from engine_core import games, state
from service.errors import REASONS as SERVICE

OUT = Path(__file__).resolve().parent.parent / "docs" / "errors.md"

# ids raised outside the action checks: records, the codec, the match layer, the solver
OTHER = {
    "INVALID_RECORD": "a record (or a request shaped like one) is malformed; `field` names where",
    "BAD_OPTION": "an unknown game or option, or a value outside the option's range",
    "MALFORMED_JSON": "an input line is not JSON (batch evaluation)",
    "DEAL_NOT_FINISHED": "a record stops before its deal is over (batch evaluation, at index len(actions))",
    "ILLEGAL_CODE": "an engine action code that is not legal now (State.apply_code)",
    "NO_DEAL": "a match has no deal in progress to act in",
    "DEAL_IN_PROGRESS": "a match cannot deal while the current deal is not finished",
    "MATCH_OVER": "the match is over: all its deals played, or its target score reached",
    "BAD_SOLVER_ARGUMENT": "the solver was given a position in the auction, a bad budget, objective or target",
}

HEAD = """# Error reasons

Every refused action, record, option or request carries a stable **reason id** next to its
text: `err.reason_id` in Python, `"reason_id"` in a batch answer's error, `ErrorInfo.reason` in
the gRPC service (the text and the legal alternatives go into the error's metadata). Ids never
change meaning; new ones may be added. Texts may be reworded.

An action that is not well formed raises `InvalidActionError`, one the rules forbid now
`IllegalActionError`; both are `ActionError`s and change nothing.

The gRPC service answers a refused action or option with the engine's id, and has ids of its
own for what only a server can refuse (tokens, versions, limits): the last table. Each id
appears once; where the engine and the service use one id, its row says both.

This file is generated from the code by `python tools/gen_errors.py`.
"""


def table(reasons) -> str:
    rows = ["| id | meaning |", "|---|---|"]
    rows += [f"| `{k}` | {v} |" for k, v in reasons.items()]
    return "\n".join(rows)


def render() -> str:
    sections = [("Every game: the shape of an action and whose turn it is", dict(state.REASONS))]
    # a game whose reasons are another's (a seat variant over the same rules: sheepshead3, ...)
    # is named in that game's section instead of repeating its table
    names: dict[tuple, list[str]] = {}
    for name in games.GAMES:
        names.setdefault(tuple(games.spec_of(name).reasons.items()), []).append(name)
    for reasons, same in names.items():
        title = same[0].capitalize() + (f" (and {', '.join(same[1:])})" if same[1:] else "")
        sections.append((f"{title}: the rules", dict(reasons)))
    sections.append(("Records, options, matches and the solver", dict(OTHER)))
    service = {}
    for reason, meaning in SERVICE.items():
        shared = [reasons for _, reasons in sections if reason in reasons]
        if shared:
            shared[0][reason] += f"; in the service: {meaning}"
        else:
            service[reason] = meaning
    sections.append(("The gRPC service: tables, tokens, versions and limits", service))
    parts = [HEAD]
    for title, reasons in sections:
        parts += [f"## {title}\n", table(reasons), ""]
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python tools/gen_errors.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
