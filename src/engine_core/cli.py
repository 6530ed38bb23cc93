"""Command line: `python -m engine_core evaluate [FILE|-] [--legal]` and `... demo`.

evaluate reads JSON Lines (a record, or {"id": …, "record": …}) and writes one UTF-8 JSON line
per input line: {"id", "result"} or {"id", "error": {"index", "reason", "reason_id"}} (+ "legal"
with --legal). Exit 0 when the input was read, even if records were rejected; 2 when it could
not be read. This interface is stable: other services and scripts depend on it.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from . import __version__, _codec, games
from .errors import StichError


class Usage(Exception):
    """A command-line mistake: one line on stderr, exit status 2."""


def evaluate_line(line: str | bytes, number: int, with_legal: bool = False) -> dict:
    """The answer for one input line; `number` (1-based) is the id when none is given."""
    return _codec.evaluate_line(line, number, with_legal)


def evaluate_line_bytes(line: str | bytes, number: int, with_legal: bool = False) -> bytes:
    """The output line (UTF-8, no newline) for one input line."""
    return _codec.evaluate_line_bytes(line, number, with_legal)


def cmd_evaluate(args) -> int:
    try:
        stream = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")
    except OSError as err:
        raise Usage(f"cannot read {args.file}: {err.strerror}") from None
    out = sys.stdout.buffer
    pending: list[bytes] = []         # answers are written in blocks: one write per 256 lines
    try:
        with stream:
            for number, line in enumerate(stream, 1):
                if not line.strip():
                    continue
                pending.append(evaluate_line_bytes(line.rstrip(b"\r\n"), number, args.legal))
                if len(pending) == 256:
                    _flush(out, pending)
    except OSError as err:
        _flush(out, pending)
        raise Usage(f"cannot read {args.file}: {err.strerror or err}") from None
    _flush(out, pending)
    out.flush()
    return 0


def _flush(out, pending: list[bytes]) -> None:
    if pending:
        out.write(b"\n".join(pending) + b"\n")
        pending.clear()


def options_arg(text: str) -> dict:
    """--options: a JSON object."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise Usage(f"--options is not JSON ({err.msg} at column {err.colno}): give an object "
                    f"such as '{{\"kontra\": true}}'") from None
    if not isinstance(value, dict):
        raise Usage(f"--options must be a JSON object of option names and values, got {text[:40]}")
    return value


def seed_arg(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer 0..2^64-1, got {text[:40]!r}") from None
    if not 0 <= value < 2 ** 64:
        raise argparse.ArgumentTypeError(f"must be an integer 0..2^64-1, got {text[:40]}")
    return value


def count_arg(low: int, high: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer {low}..{high}, got {text[:40]!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be an integer {low}..{high}, got {value}")
        return value
    return parse


def cmd_demo(args) -> int:
    """Seeded deals played by random legal moves with the cheapest-bids policy (each speaker
    passes or names the cheapest contract open to him, where the game has that policy), printed
    with contract, tricks and the itemised scoring."""
    from . import batch
    try:
        game = games.get(args.game, options_arg(args.options))
    except StichError as err:
        raise Usage(str(err)) from None
    bids = "cheapest" if "cheapest" in game.rules.BIDS else "uniform"
    totals = [0] * game.seats
    deck = game.deck
    for k in range(args.deals):
        record = batch.playout_record(game.name, game.options, args.seed, k, bids=bids)
        from .records import replay
        state = replay(record)
        result = state.result()
        print(f"deal {k + 1} (seed {args.seed} + {k}, dealer {state.dealer})")
        for s, hand in enumerate(state.hands):      # sorted trumps-first for the contract played
            ordered = [deck.code(i) for i in state.core.sort_cards(deck.mask_of(hand))]
            print(f"  seat {s}: {' '.join(ordered)}")
        calls = [a for a in state.actions if a["type"] != "play"]
        print("  calls:    " + ", ".join(
            f"{a['seat']}:{a['call']}{' ' + a['suit'] if 'suit' in a else ''}"
            f"{' ' + ' '.join(a['cards']) if 'cards' in a else ''}" for a in calls))
        print(f"  contract: {json.dumps(result['contract'])}")
        for n, (leader, cards, winner) in enumerate(result["tricks"], 1):
            print(f"  trick {n:>2}: lead {leader}: {' '.join(cards)} -> seat {winner}")
        print(f"  card points: {result['card_points']}")
        for item in result["breakdown"]:
            extra = ", ".join(f"{key}={v}" for key, v in item.items() if key != "item")
            print(f"    {item['item']:<24} {extra}")
        print(f"  scores: {result['scores']}")
        totals = [t + s for t, s in zip(totals, result["scores"])]
    print(f"match totals after {args.deals} deals: {totals}")
    return 0


def _records_in(path: str):
    """(number, line) of every non-blank line of a JSON Lines file or standard input."""
    try:
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as err:
        raise Usage(f"cannot read {path}: {err.strerror}") from None
    with stream:
        for number, line in enumerate(stream, 1):
            if line.strip():
                yield number, line


def _solve_answer(line: bytes, number: int, args) -> dict:
    """One `solve` output line: the position's value (or reaches), its cards' values."""
    from . import records, solver
    import orjson
    from .errors import ActionError, InvalidRecordError
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError as err:
        return {"id": number, "error": {"index": None, "reason": f"malformed JSON: {err}", "reason_id": "MALFORMED_JSON"}}
    ident, record = number, obj
    if isinstance(obj, dict) and "record" in obj and "game" not in obj:
        ident, record = obj.get("id", number), obj["record"]
    try:
        state = records.replay(record)
        if args.target is not None:
            target = int(args.target) if args.target.lstrip("-").isdigit() else args.target
            objective = solver.objective_of(state)
            answer = solver.reaches(state, target, budget=args.budget)
            return {"id": ident, "reaches": answer, "side": list(objective.side), "target": solver.target_of(state, target)[0]}
        solution = solver.solve(state, budget=args.budget)
        out = {"id": ident, **solution.as_dict()}
        out["values"] = [{"action": e["action"], "value": e["value"],
                          **({"lower": e["lower"], "upper": e["upper"]} if e["value"] is None else {})}
                         for e in solver.values(state, budget=args.budget)]
        return out
    except ActionError as err:
        return {"id": ident, "error": {"index": err.index, "reason": str(err), "reason_id": err.reason_id}}
    except StichError as err:
        return {"id": ident, "error": {"index": None, "reason": str(err), "reason_id": err.reason_id}}


def cmd_solve(args) -> int:
    import orjson
    out = sys.stdout.buffer
    for number, line in _records_in(args.file):
        out.write(orjson.dumps(_solve_answer(line, number, args)) + b"\n")
        out.flush()
    return 0


def cmd_analyze(args) -> int:
    import orjson
    from . import analysis
    from .errors import ActionError
    out = sys.stdout.buffer
    for number, line in _records_in(args.file):
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as err:
            answer = {"id": number, "error": {"index": None, "reason": f"malformed JSON: {err}",
                                              "reason_id": "MALFORMED_JSON"}}
        else:
            ident, record = number, obj
            if isinstance(obj, dict) and "record" in obj and "game" not in obj:
                ident, record = obj.get("id", number), obj["record"]
            try:
                answer = {"id": ident, **analysis.analyze(record, budget=args.budget)}
            except ActionError as err:
                answer = {"id": ident, "error": {"index": err.index, "reason": str(err), "reason_id": err.reason_id}}
            except StichError as err:
                answer = {"id": ident, "error": {"index": None, "reason": str(err), "reason_id": err.reason_id}}
        out.write(orjson.dumps(answer) + b"\n")
        out.flush()
    return 0


def budget_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number of nodes, got {text[:40]!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of nodes, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine_core",
        description="stich's rules engine from the command line: evaluate game records, print demo deals.")
    parser.add_argument("--version", action="version", version=f"stich-engine {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    ev = sub.add_parser("evaluate", help="batch-evaluate JSON Lines records",
                        description="Read JSON Lines (a record, or {\"id\", \"record\"}) and write one "
                                    "answer line per input line: {\"id\", \"result\"} or {\"id\", \"error\"}.")
    ev.add_argument("file", nargs="?", default="-", help="JSON Lines file, or - for standard input (default)")
    ev.add_argument("--legal", action="store_true", help="add the legal actions before each action")
    ev.set_defaults(func=cmd_evaluate)
    so = sub.add_parser("solve", help="solve positions with all hands open",
                        description="For each record (finished or in progress) write the value of its "
                                    "position for the objective side and the value of every legal card: "
                                    '{"id", "value", "exact", "side", "nodes", "values": [{"action", "value"}]} '
                                    '(plus "lower"/"upper" when the budget ran out); with --target, '
                                    '{"id", "reaches", "side", "target"}.')
    so.add_argument("file", nargs="?", default="-", help="JSON Lines file, or - for standard input (default)")
    so.add_argument("--target", help="answer whether the side reaches this value: a number, win, schneider or schwarz")
    so.add_argument("--budget", type=budget_arg, help="node budget per search (default: none, exact)")
    so.set_defaults(func=cmd_solve)
    an = sub.add_parser("analyze", help="analyze the card play of records",
                        description="For each record write the value of every legal card at each card "
                                    "played, the loss of the card chosen, what perfect play would have "
                                    "reached and the first decisive mistake (docs/analysis.md).")
    an.add_argument("file", nargs="?", default="-", help="JSON Lines file, or - for standard input (default)")
    an.add_argument("--budget", type=budget_arg, default=2_000_000,
                    help="node budget per search (default 2000000; bounds are reported where it runs out)")
    an.set_defaults(func=cmd_analyze)
    demo = sub.add_parser("demo", help="play seeded random deals and print them",
                          description=cmd_demo.__doc__)
    demo.add_argument("--game", default="schafkopf", choices=games.GAMES)
    demo.add_argument("--options", default="{}", help="options as a JSON object, e.g. '{\"kontra\": true}'")
    demo.add_argument("--deals", type=count_arg(1, 10_000), default=4, help="number of deals (1..10000)")
    demo.add_argument("--seed", type=seed_arg, default=1, help="seed of deal 0 (0..2^64-1)")
    demo.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except Usage as err:
        print(f"{parser.prog} {args.command}: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        return 130
