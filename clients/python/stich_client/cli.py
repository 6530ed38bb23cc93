"""`stich`: play a match against bots in the terminal, or batch-evaluate records, through a
stich server.

    stich [--server HOST:PORT] play GAME [--preset NAME] [--options JSON] [--deals N] [--seed N] [--seat S]
    stich [--server HOST:PORT] evaluate FILE [--legal] [-o OUT]
    stich [--server HOST:PORT] games

A bad flag, a server that cannot be reached or refuses a request, an input or output file that
cannot be used: one line on stderr and a non-zero exit status (2 for a bad flag or file, 1 for
the server), never a traceback; 141 when the reader of standard output went away (`| head`).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import grpc

from .client import DEFAULT_TARGET, StichClient
from . import table_view
from .errors import IllegalActionError, StichError
from .menu import Menu


# ---- play ----------------------------------------------------------------------------------------
# The loop reads and sends; what is shown is table_view.py, what can be typed is menu.py.
def show_hint(client: StichClient, table_id: str, token: str, console, view: dict) -> None:
    """`hint`: the server's suggestion for this seat, where the server has a Hint RPC (asked
    through the client's `hint` when it has one; otherwise the method is probed, and a server
    without it answers UNIMPLEMENTED)."""
    ask = getattr(client, "hint", None)
    try:
        if ask is None:
            probe = client.channel.unary_unary("/stich.v1.StichService/Hint",
                                               request_serializer=None, response_deserializer=None)
            probe(b"", timeout=client.timeout)
            console.print("hint: this server has hints, but this client is too old to ask for them")
            return
        for h in ask(table_id, token):
            win = f", wins {h['win']:.0%}" if h.get("win") is not None else ""
            console.print(f"hint: {table_view.action_words(view['game'], dict(h['action'], seat=view['seat']), view['seat'])}"
                          f" expects {h['expected']:+.1f}{win}")
    except grpc.RpcError as err:
        if err.code() == grpc.StatusCode.UNIMPLEMENTED:
            console.print("hint: not available on this server")
        else:
            console.print("hint: this server has hints, but this client is too old to ask for them")
    except StichError as err:
        if getattr(err, "code", None) == grpc.StatusCode.UNIMPLEMENTED:
            console.print("hint: not available on this server")
        else:
            console.print(f"hint: {err}")


class Quit(Exception):
    """The player typed `quit`."""


class NoAnswer(Exception):
    """Input that is not a terminal kept giving answers that choose nothing."""


WRONG_ANSWERS = 20          # in a row, from piped input, before stich play gives up


def choose(client: StichClient, table_id: str, token: str, view: dict, read, console,
           interactive: bool = True) -> dict:
    """Ask until the player names one of the legal actions (or types quit). Piped input that
    answers WRONG_ANSWERS times in a row with no choice ends the match instead of looping."""
    menu = Menu.of(view)
    wrong = 0
    while True:
        answer = menu.parse(read(menu.prompt()))
        if isinstance(answer, dict):
            return answer
        if isinstance(answer, tuple):
            wrong += 1
            if not interactive and wrong >= WRONG_ANSWERS:
                raise NoAnswer(f"{wrong} answers in a row chose nothing ({answer[1]})")
        if answer == "quit":
            raise Quit
        if answer == "help":
            console.print(table_view.render_help())
        elif answer == "last":
            console.print(table_view.render_last_trick(view))
        elif answer == "hint":
            show_hint(client, table_id, token, console, view)
        else:
            console.print(f"  {answer[1]}", style="yellow", highlight=False)


def _seat_kind(level: str, s: int, seat: int) -> str:
    return "human" if s == seat else f"bot:{level}"


def play(client: StichClient, game: str, options: dict, deals: int, seed: int | None, seat: int,
         read=input, out=None, level: str = "normal", preset: str | None = None) -> int:
    from rich.console import Console
    console = Console(file=out, highlight=False) if out is not None else Console(highlight=False)
    interactive = read is not input or sys.stdin.isatty()
    info = {g["name"]: g for g in client.list_games()}
    if game not in info:
        print(f"stich play: unknown game {game!r}; games: {', '.join(info)}", file=sys.stderr)
        return 2
    table_view.learn(game, info[game].get("words"))       # what the game's cards and calls are called
    if preset is not None:                  # a named rule set of the game; --options on top of it
        presets = info[game].get("presets") or {}
        if preset not in presets:
            print(f"stich play: {game} has no preset {preset!r}; presets: {', '.join(presets) or 'none'}",
                  file=sys.stderr)
            return 2
        options = {**presets[preset], **options}
    n = info[game]["seats"]
    if not 0 <= seat < n:
        print(f"stich play: seat must be 0..{n - 1} in {game}", file=sys.stderr)
        return 2
    kinds = [f"bot:{level}"] * n
    kinds[seat] = "human"
    try:
        table = client.create_table(game, options, deals, kinds, seed=seed)
    except StichError as err:
        if not (err.reason_id == "BOT_LEVEL_UNAVAILABLE" and level == "normal"):
            print(f"stich: {err.message}", file=sys.stderr)
            return 2
        # a server whose normal bots have not landed yet: play the easy ones, and say so
        print("stich: this server has no normal bots yet; playing against easy bots", file=sys.stderr)
        level = "easy"
        kinds = [_seat_kind(level, s, seat) for s in range(n)]
        table = client.create_table(game, options, deals, kinds, seed=seed)
    token = table.tokens[seat]
    console.print(f"Table {table.table_id}: {game}, you are seat {seat}, {level} bots in the other seats. "
                  f"Type help for how to play.")
    try:
        while True:
            view = client.view(table.table_id, token)
            if view["status"] == "match_over":
                break
            if view["status"] == "waiting_for_deal":
                view = client.deal(table.table_id, token)
            shown = 0
            while view["status"] == "in_deal":
                if view["to_act"] != seat:           # bots act off the request path: follow the events
                    view = client.wait_turn(table.table_id, token)
                    continue
                news = [a for a in view["actions"][shown:] if a["seat"] != seat]
                shown = len(view["actions"])
                console.rule()
                console.print(table_view.render_view(view, Menu.of(view), news))
                action = choose(client, table.table_id, token, view, read, console, interactive)
                try:
                    view = client.act(table.table_id, token, action, expected_version=view["version"])
                except IllegalActionError as err:       # only when the table moved on meanwhile
                    console.print(f"  not allowed: {err.message}", style="yellow")
                    view = client.view(table.table_id, token)
            score = client.score(table.table_id, token)
            console.rule()
            console.print(table_view.render_result(game, score, seat))
            if score["match_over"]:
                break
    except Quit:
        console.print(f"You left table {table.table_id}.")
        return 0
    except NoAnswer as err:
        print(f"stich play: {err}; stopping", file=sys.stderr)
        return 2
    final = client.score(table.table_id, token)
    console.print(table_view.render_match_over(final["match_scores"], seat))
    return 0


# ---- evaluate -----------------------------------------------------------------------------------
def evaluate(client: StichClient, path: str, with_legal: bool, output: str | None) -> int:
    try:
        with (sys.stdin if path == "-" else open(path, encoding="utf-8")) as f:
            lines = [line for line in f if line.strip()]
    except OSError as err:
        print(f"stich evaluate: cannot read {path}: {err.strerror}", file=sys.stderr)
        return 2
    out = open(output, "w", encoding="utf-8") if output else sys.stdout
    total, done, rejected = len(lines), 0, 0
    started = last = time.perf_counter()
    try:
        for answer in client.evaluate(lines, with_legal, raw=True):
            out.write(answer + "\n")                      # the server's line, as written
            done += 1
            rejected += "error" in json.loads(answer)
            now = time.perf_counter()
            if now - last > 0.1 or done == total:
                last = now
                progress(done, total, rejected, now - started)
    finally:
        if output:
            out.close()
    print(file=sys.stderr)
    return 0


def progress(done: int, total: int, rejected: int, seconds: float) -> None:
    width = 30
    filled = int(width * done / total) if total else width
    rate = done / seconds if seconds > 0 else 0.0
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} records, "
                     f"{rejected} rejected, {rate:,.0f}/s")
    sys.stderr.flush()


# ---- the command line -----------------------------------------------------------------------
BROKEN_PIPE = 141          # 128 + SIGPIPE, what a shell reports for `cmd | head` in C tools


class Parser(argparse.ArgumentParser):
    """One-line errors (`stich play: what is wrong (see stich play --help)`), exit status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _int_arg(low: int, high: int):
    def parse(text: str) -> int:
        try:
            value = int(text, 0)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be an integer {low}..{high if high < 2 ** 63 else '2^64-1'}, "
                                             f"got {text[:40]!r}")
        return value
    parse.__name__ = "int"
    return parse


def _timeout_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 86400:                  # NaN fails too
        raise argparse.ArgumentTypeError(f"must be a number of seconds, more than 0 and at most 86400, got {text[:40]!r}")
    return value


def _options_arg(text: str) -> dict:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise argparse.ArgumentTypeError(f"is not JSON ({err.msg} at column {err.colno}): give an object such "
                                         f"as '{{\"kontra\": true}}'") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"must be a JSON object of option names and values, got {text[:40]!r}")
    return value


def _server_arg(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("must be a server address such as 127.0.0.1:50051")
    return text.strip()


def _output_closed(prog: str) -> int:
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    try:
        print(f"{prog}: output closed before the end (broken pipe)", file=sys.stderr)
    except OSError:
        pass
    return BROKEN_PIPE


def build_parser() -> argparse.ArgumentParser:
    from . import __version__
    parser = Parser(prog="stich", formatter_class=argparse.RawDescriptionHelpFormatter,
                    description="Play and evaluate through a stich server (start one with `make run`\n"
                                "or `python -m service`).",
                    epilog="examples:\n"
                           "  stich play schafkopf                      a match against three bots\n"
                           "  stich play sheepshead --deals 2 --seed 7 --seat 1\n"
                           "  stich evaluate records.jsonl -o answers.jsonl\n"
                           "  stich --server 127.0.0.1:50051 games\n\n"
                           "exit status: 0 done, 1 the server could not be reached or refused, 2 a bad flag\n"
                           "or file, 130 interrupted, 141 the reader of the output went away.")
    parser.add_argument("--version", action="version", version=f"stich {__version__} (stich-client)")
    parser.add_argument("--server", type=_server_arg, default=os.environ.get("STICH_SERVER") or DEFAULT_TARGET,
                        help=f"server address HOST:PORT (env STICH_SERVER; default {DEFAULT_TARGET})")
    parser.add_argument("--timeout", type=_timeout_arg, default=10.0,
                        help="deadline of each call in seconds (default 10)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("play", help="play a match against bots in the terminal",
                       description="Play a match against bots: you take one seat, the server's bots the others. "
                                   "Answer each prompt with the number of a listed action or its text.")
    p.add_argument("game", help="schafkopf, doppelkopf, sheepshead or klaverjas (`stich games` lists them)")
    p.add_argument("--options", type=_options_arg, default={}, help="rule options as a JSON object, "
                   "e.g. '{\"kontra\": true}' (docs/rules/<game>.md lists them)")
    p.add_argument("--preset", default=None, help="a named rule set of the game, e.g. ddv for doppelkopf "
                   "(`stich games` lists each game's presets); --options are applied on top of it")
    p.add_argument("--deals", type=_int_arg(1, 1000), default=0,
                   help="deals in the match, 1..1000 (default: the game's deals_per_match)")
    p.add_argument("--seed", type=_int_arg(0, 2 ** 64 - 1), default=None,
                   help="seed of the match's first deal, 0..2^64-1 (default: random)")
    p.add_argument("--seat", type=_int_arg(0, 5), default=0, help="your seat, from 0 (default 0; the game "
                   "says how many seats it has)")
    p.add_argument("--bots", choices=("easy", "normal", "hard"), default="normal",
                   help="the bots' level (default normal)")
    e = sub.add_parser("evaluate", help="batch-evaluate a JSON Lines file of records",
                       description="Send records (JSON Lines, docs/records.md) to the server and write one "
                                   "answer line per record, as `python -m engine_core evaluate` does.")
    e.add_argument("file", help="JSON Lines file, or - for stdin")
    e.add_argument("--legal", action="store_true", help="add the legal actions before each action")
    e.add_argument("-o", "--output", help="write answers here instead of stdout")
    sub.add_parser("games", help="list the server's games and options",
                   description="The server's games with their seats and option tables, as JSON.")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    prog = f"stich {args.command}"
    try:
        with StichClient(args.server, timeout=args.timeout) as client:
            if args.command == "play":
                return play(client, args.game, args.options, args.deals, args.seed, args.seat,
                            level=args.bots, preset=args.preset)
            if args.command == "evaluate":
                return evaluate(client, args.file, args.legal, args.output)
            print(json.dumps(client.list_games(), indent=2))
            sys.stdout.flush()
            return 0
    except StichError as err:
        if getattr(err, "code", None) in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            print(f"{prog}: cannot reach a stich server at {args.server} (start one with "
                  f"`make run` or `python -m service`, or give --server HOST:PORT)", file=sys.stderr)
        else:
            print(f"{prog}: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:                 # e.g. `stich games | head`
        return _output_closed(prog)
    except OSError as err:                  # an output file that cannot be written
        where = f"{err.filename}: " if err.filename else ""
        print(f"{prog}: {where}{err.strerror or err}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print("\nstich: bye", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
