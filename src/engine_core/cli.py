"""Command line: `python -m engine_core` (or `stich-engine`) evaluate, solve, analyze, demo.

evaluate reads JSON Lines (a record, or {"id": …, "record": …}) and writes one UTF-8 JSON line
per input line: {"id", "result"} or {"id", "error": {"index", "reason", "reason_id"}} (+ "legal"
with --legal). Exit 0 when the input was read, even if records were rejected; 2 when it could
not be read. This interface is stable: other services and scripts depend on it.

Every mistake on the command line and every input or output that cannot be used ends with one
line on stderr (`PROG COMMAND: what is wrong`) and a non-zero exit status, never a traceback:
2 for a bad flag or an unreadable input, 1 for output that cannot be written, 141 (as for a
process killed by SIGPIPE) when the reader of standard output went away (`| head`).
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


BROKEN_PIPE = 141          # 128 + SIGPIPE: what a shell reports for `cmd | head` in C tools


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: `PROG: what is wrong (PROG --help)` and exit status 2,
    without the usage block (which --help shows)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def program_name() -> str:
    """How the user ran us: `stich-engine`, else `python -m engine_core`."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return name if name and name not in ("__main__.py", "-c") and not name.endswith(".py") else "python -m engine_core"


def output_closed(prog: str) -> int:
    """The reader of standard output went away (`| head`): one line, status 141, and no
    second error when Python flushes stdout at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    try:
        print(f"{prog}: output closed before the end (broken pipe)", file=sys.stderr)
    except OSError:
        pass
    return BROKEN_PIPE


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


TARGET_NAMES = ("win", "schneider", "schwarz")


def target_arg(text: str) -> str:
    """--target: a number of points (or tricks), or a name; the game decides which names apply."""
    if text.strip().lstrip("-").isdigit() or text in TARGET_NAMES:
        return text.strip()
    raise argparse.ArgumentTypeError(f"must be a number or one of {', '.join(TARGET_NAMES)}, got {text[:40]!r}")


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
    """Seeded deals as a table of sober players would play them: the normal bot where this
    build has one (engine_core.bots), else the hand-strength policy of engine_core/demo.py
    (each seat passes unless its hand justifies a contract, then names that contract; cards
    at random among the legal ones), printed with the calls, contract, tricks and the
    itemised scoring."""
    from . import demo
    try:
        game = games.get(args.game, options_arg(args.options))
    except StichError as err:
        raise Usage(str(err)) from None
    chooser = demo.policy(game.name, args.seed, game.options.as_dict())
    totals = [0] * game.seats
    deck = game.deck
    print(f"{game.name}, {args.deals} deal{'s' if args.deals != 1 else ''} from seed {args.seed}; "
          f"bids and play: {chooser.name}")
    for k in range(args.deals):
        state = demo.play_deal(game, args.seed, k, k % game.seats, chooser)
        result = state.result()
        print(f"deal {k + 1} (seed {args.seed} + {k}, dealer {state.dealer})")
        for s, hand in enumerate(state.hands):      # sorted trumps-first for the contract played
            ordered = [deck.code(i) for i in state.core.sort_cards(deck.mask_of(hand))]
            print(f"  seat {s}: {' '.join(ordered)}")
        calls = [a for a in state.actions if a["type"] != "play"]
        print("  calls:    " + ", ".join(
            f"{a['seat']}:{a['call']}{' ' + a['suit'] if 'suit' in a else ''}"
            f"{' ' + ' '.join(a['cards']) if 'cards' in a else ''}" for a in calls))
        print(f"  contract: {contract_line(result['contract'])}")
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


def contract_line(contract: dict | None) -> str:
    """`rufspiel by seat 0, suit D, partner 2`: the type, the declarer, every other field set."""
    if not contract:
        return "none"
    text = contract.get("type", "?")
    if contract.get("declarer") is not None:
        text += f" by seat {contract['declarer']}"
    for key, value in contract.items():
        if key in ("type", "declarer") or value is None or value is False:
            continue
        if isinstance(value, list):
            value = " ".join(map(str, value))
        elif value is True:
            value = "yes"
        text += f", {key.replace('_', ' ')} {value}"
    return text


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


def bots_arg(text: str) -> list[str]:
    """--bots: two levels, comma-separated (the tournament's `cheat` sees every hand)."""
    from .bots.tournament import BOT_NAMES
    names = [t.strip() for t in text.split(",")]
    if len(names) != 2 or any(n not in BOT_NAMES for n in names):
        raise argparse.ArgumentTypeError(f"must be two bots separated by a comma, each one of "
                                         f"{', '.join(BOT_NAMES)}, e.g. hard,normal; got {text[:40]!r}")
    return names


def cmd_tournament(args) -> int:
    """Duplicate play of two bots: every seeded deal once per seating (docs/bots.md)."""
    from .bots import tournament
    try:
        options = options_arg(args.options)
        games.get(args.game, options)
    except StichError as err:
        raise Usage(str(err)) from None
    report = tournament.run(args.game, args.bots, args.deals, seed=args.seed, threads=args.threads,
                            options=options, progress=tournament.progress_bar())
    if args.json:
        print(json.dumps(report))
    else:
        print(tournament.table(report))
    return 0


def budget_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number of nodes, got {text[:40]!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of nodes, got {value}")
    return value


EPILOG = """examples:
  %(prog)s evaluate records.jsonl            answers as JSON Lines (docs/records.md)
  %(prog)s evaluate --legal - < records.jsonl
  %(prog)s solve --target schneider positions.jsonl
  %(prog)s analyze records.jsonl
  %(prog)s demo --game doppelkopf --deals 2 --seed 7
  %(prog)s tournament --game schafkopf --bots normal,easy --deals 200

exit status: 0 when the input was read (rejected records are answers, not failures), 2 for a
bad flag or an unreadable input, 1 when the output cannot be written, 141 when the reader of
the output went away."""


def build_parser(prog: str = "python -m engine_core") -> argparse.ArgumentParser:
    parser = Parser(
        prog=prog, formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG,
        description="stich's rules engine from the command line: batch-evaluate game records, solve\n"
                    "and analyze card play with all hands open, print demo deals. No server needed.")
    parser.add_argument("--version", action="version", version=f"stich-engine {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    ev = sub.add_parser("evaluate", help="batch-evaluate JSON Lines records",
                        description="Read JSON Lines (a record, or {\"id\", \"record\"}) and write one "
                                    "answer line per input line: {\"id\", \"result\"} or {\"id\", \"error\": "
                                    "{\"index\", \"reason\", \"reason_id\"}} (docs/records.md). Exit status 0 "
                                    "when the input was read, rejected records included; 2 when it could not be.")
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
    so.add_argument("--target", type=target_arg,
                    help="answer whether the side reaches this value: a number, win, schneider or schwarz")
    so.add_argument("--budget", type=budget_arg, help="node budget per search (default: none, exact)")
    so.set_defaults(func=cmd_solve)
    an = sub.add_parser("analyze", help="analyze the card play of records",
                        description="For each record write the value of every legal card at each card "
                                    "played, the loss of the card chosen, what perfect play would have "
                                    "reached and the first decisive mistake (docs/solver.md).")
    an.add_argument("file", nargs="?", default="-", help="JSON Lines file, or - for standard input (default)")
    an.add_argument("--budget", type=budget_arg, default=2_000_000,
                    help="node budget per search (default 2000000; bounds are reported where it runs out)")
    an.set_defaults(func=cmd_analyze)
    demo = sub.add_parser("demo", help="play seeded deals (hand-strength bids) and print them",
                          description=cmd_demo.__doc__)
    demo.add_argument("--game", default="schafkopf", choices=games.GAMES)
    demo.add_argument("--options", default="{}", help="options as a JSON object, e.g. '{\"kontra\": true}'")
    demo.add_argument("--deals", type=count_arg(1, 10_000), default=4, help="number of deals (1..10000)")
    demo.add_argument("--seed", type=seed_arg, default=1, help="seed of deal 0 (0..2^64-1)")
    demo.set_defaults(func=cmd_demo)
    tour = sub.add_parser("tournament", help="duplicate play of two bots",
                          description="Play each seeded deal once per seating (each bot in each hand "
                                      "position; docs/bots.md) and print per bot the mean score per deal "
                                      "with a 95% confidence interval, the win rate as declarer and the "
                                      "decision times (median, p99).")
    tour.add_argument("--game", required=True, choices=games.GAMES)
    tour.add_argument("--bots", required=True, type=bots_arg, help="two bots, e.g. hard,normal (levels: "
                      "random, easy, normal, hard; cheat sees every hand)")
    tour.add_argument("--deals", type=count_arg(1, 1_000_000), default=100, help="number of deals (default 100)")
    tour.add_argument("--seed", type=seed_arg, default=1, help="seed of deal 0 (0..2^64-1)")
    tour.add_argument("--threads", type=count_arg(1, 256), default=1, help="threads (1..256)")
    tour.add_argument("--options", default="{}", help="game options as a JSON object")
    tour.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    tour.set_defaults(func=cmd_tournament)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(program_name())
    args = parser.parse_args(argv)
    prog = f"{parser.prog} {args.command}"
    try:
        code = args.func(args)
        sys.stdout.flush()
        return code
    except Usage as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return output_closed(prog)
    except OSError as err:                      # reading or writing failed (a full disk, ...)
        where = f"{err.filename}: " if err.filename else ""
        print(f"{prog}: {where}{err.strerror or err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
