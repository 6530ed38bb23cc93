"""Command line: `python -m engine_core` (or `stich-engine`) evaluate, solve, analyze, demo,
tournament.

evaluate reads JSON Lines (a record, or {"id": …, "record": …}) and writes one UTF-8 JSON line
per input line: {"id", "result"} or {"id", "error": {"index", "reason", "reason_id"}} (+ "legal"
with --legal). Exit 0 when the input was read, even if records were rejected; 2 when it could
not be read. This interface is stable: other services and scripts depend on it.

Every mistake on the command line and every input or output that cannot be used ends with one
line on stderr (`PROG COMMAND: what is wrong`) and a non-zero exit status, never a traceback:
2 for a bad flag or an unreadable input, 1 for output that cannot be written, 141 (as for a
process killed by SIGPIPE) when the reader of standard output went away (`| head`).

The batch commands (evaluate, solve, analyze, tournament) cut their work into ordered chunks and
call one function per chunk (evaluate_chunk, solve_chunk, analyze_chunk, tournament.play_deals),
here or, with `--ray ADDRESS|local`, as Ray tasks (engine_core.distributed, docs/batch.md): the
same answers in the same order either way. Ray missing or a cluster that cannot be reached: one
line and status 2; a cluster that fails during the run: one line and status 1.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from . import __version__, _codec, distributed, games
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
    return exact_id(line, _codec.evaluate_line_bytes(line, number, with_legal))


exact_id = _codec.exact_id


def evaluate_chunk(chunk: tuple[int, bytes], with_legal: bool = False) -> bytes:
    """The output block (one line each) for a chunk of whole input lines, (number of its first
    line, the lines' bytes): the unit of work of the local loop and of a Ray task alike
    (engine_core.distributed), so both write the same bytes. The lines are cut, numbered and
    answered in the codec (_codec.evaluate_block), each as evaluate_line_bytes answers it."""
    number, block = chunk
    return _codec.evaluate_block(block, number, with_legal)


def cmd_evaluate(args) -> int:
    stream = _open_input(args.file)
    local, ray = CHUNK_LINES["evaluate"]
    blocks = _line_blocks(stream, args.file, local if args.ray is None else ray)
    return _run_chunks(args, "evaluate", evaluate_chunk, blocks, (args.legal,), chunked=True)


READ_BYTES = 1 << 20        # evaluate reads its input in blocks of up to this many bytes


def _line_blocks(stream, path: str, max_lines: int):
    """(number of the first line, bytes of up to `max_lines` whole lines) for the whole input,
    read in large blocks (read1: what a pipe has at hand, so a slow writer still streams) and
    cut at newlines in C; the last line may lack its newline. A read error ends it as Usage
    after the chunks read before it."""
    number, rest = 1, b""
    with stream:
        while True:
            try:
                data = stream.read1(READ_BYTES)
            except OSError as err:
                raise Usage(f"cannot read {path}: {err.strerror or err}") from None
            if not data:
                break
            buf = rest + data if rest else data
            pos = 0
            while True:
                end, count = _codec.cut_lines(buf, pos, max_lines)
                if not count:
                    break
                yield number, buf[pos:end]
                number += count
                pos = end
            rest = buf[pos:]
    if rest:
        yield number, rest


def _open_input(path: str):
    """The input stream, opened before any work starts (and before a Ray cluster is joined)."""
    try:
        return sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as err:
        raise Usage(f"cannot read {path}: {err.strerror}") from None


def _numbered(stream, path: str):
    """(number, line) of every non-blank line; `number` counts from 1, blank lines included
    (it is the id of a line that gives none). A read error ends it as Usage."""
    with stream:
        try:
            for number, line in enumerate(stream, 1):
                if line.strip():
                    yield number, line
        except OSError as err:
            raise Usage(f"cannot read {path}: {err.strerror or err}") from None


def _chunks(items, size: int):
    """Lists of `size` items in order; when the source fails, the items read before it are
    still yielded (their answers written) before the error."""
    chunk: list = []
    try:
        for item in items:
            chunk.append(item)
            if len(chunk) == size:
                yield chunk
                chunk = []
    except Exception:
        if chunk:
            yield chunk
        raise
    if chunk:
        yield chunk


# Input lines per chunk, (here, per Ray task). evaluate answers a line in microseconds: here one
# write per 4096 lines (the input is read in blocks of up to READ_BYTES anyway), on Ray tasks big
# enough to outweigh a task's cost (about a millisecond).
# solve and analyze take milliseconds to seconds a line: each answer is written as it comes, and
# one line per task spreads them best over the cluster.
CHUNK_LINES = {"evaluate": (4096, 2048), "solve": (1, 1), "analyze": (1, 1)}


def _run_chunks(args, command: str, fn, items, params: tuple, chunked: bool = False) -> int:
    """Write fn(chunk, *params) for every chunk of the items (`chunked`: the items are the
    chunks already), in order: here, or with --ray as Ray tasks (engine_core.distributed).
    The same function either way, so the same output."""
    out = sys.stdout.buffer
    local, ray = CHUNK_LINES[command]
    if args.ray is None:
        for chunk in (items if chunked else _chunks(items, local)):
            out.write(fn(chunk, *params))
            out.flush()
        return 0
    with distributed.cluster(args.ray):
        blocks = distributed.ordered_map(fn, items if chunked else _chunks(items, ray), *params)
        try:
            for block in blocks:
                out.write(block)
                out.flush()
        finally:
            blocks.close()
    return 0


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
    """Seeded deals as a table of sober players would play them (the normal bot at every seat,
    each choosing from its own view), printed with the calls, contract, tricks and the
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


def _wrapped(line: bytes, number: int):
    """(id, record) of an input line, or the MALFORMED_JSON answer: a bare record, or a wrapper
    {"id", "record"} (an object with a record key and no game key)."""
    import orjson
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError as err:
        return None, {"id": number, "error": {"index": None, "reason": f"malformed JSON: {err}",
                                              "reason_id": "MALFORMED_JSON"}}
    if isinstance(obj, dict) and "record" in obj and "game" not in obj:
        return (obj.get("id", number), obj["record"]), None
    return (number, obj), None


def _error_answer(ident, err: StichError) -> dict:
    from .errors import ActionError
    index = err.index if isinstance(err, ActionError) else None
    return {"id": ident, "error": {"index": index, "reason": str(err), "reason_id": err.reason_id}}


def _solve_answer(line: bytes, number: int, target: str | None, budget: int | None) -> dict:
    """One `solve` output line: the position's value (or reaches), its cards' values."""
    from . import records, solver
    parsed, failed = _wrapped(line, number)
    if failed:
        return failed
    ident, record = parsed
    try:
        state = records.replay(record)
        if target is not None:
            goal = int(target) if target.lstrip("-").isdigit() else target
            objective = solver.objective_of(state)
            answer = solver.reaches(state, goal, budget=budget)
            return {"id": ident, "reaches": answer, "side": list(objective.side), "target": solver.target_of(state, goal)[0]}
        solution = solver.solve(state, budget=budget)
        out = {"id": ident, **solution.as_dict()}
        out["values"] = [{"action": e["action"], "value": e["value"],
                          **({"lower": e["lower"], "upper": e["upper"]} if e["value"] is None else {})}
                         for e in solver.values(state, budget=budget)]
        return out
    except StichError as err:
        return _error_answer(ident, err)


def solve_chunk(lines: list[tuple[int, bytes]], target: str | None, budget: int | None) -> bytes:
    """The `solve` output block for numbered input lines (local loop and Ray task alike)."""
    import orjson
    return b"".join([exact_id(line, orjson.dumps(_solve_answer(line, number, target, budget))) + b"\n"
                     for number, line in lines])


def cmd_solve(args) -> int:
    lines = _numbered(_open_input(args.file), args.file)
    return _run_chunks(args, "solve", solve_chunk, lines, (args.target, args.budget))


def _analyze_answer(line: bytes, number: int, budget: int | None) -> dict:
    """One `analyze` output line: the analysis of the record's card play, or its error."""
    from . import analysis
    parsed, failed = _wrapped(line, number)
    if failed:
        return failed
    ident, record = parsed
    try:
        return {"id": ident, **analysis.analyze(record, budget=budget)}
    except StichError as err:
        return _error_answer(ident, err)


def analyze_chunk(lines: list[tuple[int, bytes]], budget: int | None) -> bytes:
    """The `analyze` output block for numbered input lines (local loop and Ray task alike)."""
    import orjson
    return b"".join([exact_id(line, orjson.dumps(_analyze_answer(line, number, budget))) + b"\n"
                     for number, line in lines])


def cmd_analyze(args) -> int:
    lines = _numbered(_open_input(args.file), args.file)
    return _run_chunks(args, "analyze", analyze_chunk, lines, (args.budget,))


def bots_arg(text: str) -> list[str]:
    """--bots: two levels, comma-separated (the tournament's `cheat` sees every hand)."""
    from .bots.tournament import BOT_NAMES, level_of
    names = [t.strip() for t in text.split(",")]
    if len(names) != 2 or any(level_of(n) not in BOT_NAMES or "." in n for n in names) or names[0] == names[1]:
        raise argparse.ArgumentTypeError(f"must be two bots separated by a comma, two different names, each one of "
                                         f"{', '.join(BOT_NAMES)}, optionally labelled (hard@a,hard@b: "
                                         f"a level against itself with other --budget), e.g. hard,normal; "
                                         f"got {text[:40]!r}")
    return names


def cmd_tournament(args) -> int:
    """Duplicate play of two bots: every seeded deal once per seating (docs/bots.md); with
    --ray the deals are played as Ray tasks and the report is made here in deal order."""
    from .bots import get as bots_get, tournament
    try:
        options = options_arg(args.options)
        games.get(args.game, options)
    except StichError as err:
        raise Usage(str(err)) from None
    if args.ray is not None and args.threads != 1:
        raise Usage("--threads is for the local run; with --ray the cluster's CPUs play the deals")
    budgets: dict = {}
    for name, key, value in args.budget or ():
        if name not in args.bots:
            raise Usage(f"--budget {name}.{key}: {name} is not one of the bots {','.join(args.bots)}")
        budgets.setdefault(name, {})[key] = value
    for name, b in budgets.items():
        try:
            bots_get(args.game, tournament.level_of(name), options=options, **b)
        except ValueError as err:
            raise Usage(f"--budget: {err}") from None
    run = lambda mapper, per_task: tournament.run(
        args.game, args.bots, args.deals, seed=args.seed, threads=args.threads, options=options,
        progress=tournament.progress_bar(), mapper=mapper, deals_per_task=per_task, budgets=budgets)
    if args.ray is None:
        report = run(None, 1)
    else:
        with distributed.cluster(args.ray):
            report = run(distributed.ordered_map, max(1, min(16, args.deals // (4 * distributed.cpus()))))
    if args.json:
        print(json.dumps(report, allow_nan=False))
    else:
        print(tournament.table(report))
    return 0


def bot_budget_arg(text: str) -> tuple[str, str, int]:
    """--budget BOT.NAME=N: one budget argument of a bot (hard, flatmc, pimc, ismcts)."""
    name, _, rest = text.partition(".")
    key, eq, value = rest.partition("=")
    try:
        number = int(value)
    except ValueError:
        number = None
    if not name or not key or not eq or number is None:
        raise argparse.ArgumentTypeError(f"must be BOT.NAME=INTEGER such as flatmc.playouts=200, got {text[:40]!r}")
    return name.strip(), key.strip(), number


def ray_arg(text: str) -> str:
    """--ray: `local` or the address of a running cluster."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must be local or a Ray address such as HOST:6379 or ray://HOST:10001")
    return text.strip()


RAY_HELP = ("run the batch on Ray: local (a Ray of this machine, started for the run) or a cluster's "
            "address, HOST:6379 or ray://HOST:10001 (needs pip install 'stich[ray]'; docs/batch.md)")


# every search of `solve` and `analyze` stops after this many nodes unless --budget says
# otherwise: a Doppelkopf position from its first card can take hours exactly, and answers
# with bounds in about a second (docs/solver.md)
DEFAULT_BUDGET = 2_000_000


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
  %(prog)s evaluate --ray local records.jsonl    the same answers from Ray tasks (docs/batch.md)

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
    ev.add_argument("--ray", type=ray_arg, metavar="ADDRESS", help=RAY_HELP)
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
    so.add_argument("--budget", type=budget_arg, default=DEFAULT_BUDGET,
                    help=f"node budget per search (default {DEFAULT_BUDGET}; bounds, not a value, where it "
                         "runs out: exact where it does not)")
    so.add_argument("--ray", type=ray_arg, metavar="ADDRESS", help=RAY_HELP)
    so.set_defaults(func=cmd_solve)
    an = sub.add_parser("analyze", help="analyze the card play of records",
                        description="For each record write the value of every legal card at each card "
                                    "played, the loss of the card chosen, what perfect play would have "
                                    "reached and the first decisive mistake (docs/solver.md).")
    an.add_argument("file", nargs="?", default="-", help="JSON Lines file, or - for standard input (default)")
    an.add_argument("--budget", type=budget_arg, default=DEFAULT_BUDGET,
                    help=f"node budget per search (default {DEFAULT_BUDGET}; bounds are reported where it runs out)")
    an.add_argument("--ray", type=ray_arg, metavar="ADDRESS", help=RAY_HELP)
    an.set_defaults(func=cmd_analyze)
    demo = sub.add_parser("demo", help="play seeded deals (the normal bot at every seat) and print them",
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
                      "random, easy, normal, hard; baselines: flatmc, pimc, ismcts; cheat sees every hand)")
    tour.add_argument("--budget", type=bot_budget_arg, action="append", metavar="BOT.NAME=N",
                      help="a budget of one bot, e.g. flatmc.playouts=200 or hard.worlds=8 (repeatable)")
    tour.add_argument("--deals", type=count_arg(1, 1_000_000), default=100, help="number of deals (default 100)")
    tour.add_argument("--seed", type=seed_arg, default=1, help="seed of deal 0 (0..2^64-1)")
    tour.add_argument("--threads", type=count_arg(1, 256), default=1, help="threads (1..256)")
    tour.add_argument("--options", default="{}", help="game options as a JSON object")
    tour.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    tour.add_argument("--ray", type=ray_arg, metavar="ADDRESS", help=RAY_HELP)
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
    except (Usage, distributed.RayUnavailable) as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    except distributed.ClusterFailed as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return output_closed(prog)
    except OSError as err:                      # reading or writing failed (a full disk, ...)
        where = f"{err.filename}: " if err.filename else ""
        print(f"{prog}: {where}{err.strerror or err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
