"""`stich`: play a match against bots in the terminal, or batch-evaluate records, through a
stich server.

    stich [--server HOST:PORT] play GAME [--options JSON] [--deals N] [--seed N] [--seat S]
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
from .errors import IllegalActionError, StichError


# ---- play -------------------------------------------------------------------------------------
def describe(action: dict) -> str:
    if action["type"] == "play":
        return action["card"]
    text = action["call"] + (f" {action['suit']}" if action.get("suit") else "")
    if action["type"] == "exchange":
        text += " " + " ".join(action["cards"])
    return text


def show_view(view: dict, out) -> None:
    """The seat's hand (trumps first, legal cards marked *), the trick and the declarations."""
    legal_cards = {a["card"] for a in view["legal"] if a["type"] == "play"}
    hand = " ".join(c + ("*" if c in legal_cards else " ") for c in view["hand"])
    contract = view["contract"]
    declared = [f"{a['seat']}:{describe(a)}" for a in view["actions"] if a["type"] != "play"]
    print(f"\n-- deal {view['deal_number']}/{view['deals_per_match']}, dealer {view['dealer']}, "
          f"phase {view['phase']}", file=out)
    if declared:
        print(f"   calls:    {', '.join(declared)}", file=out)
    if contract:
        print(f"   contract: {', '.join(f'{k}={v}' for k, v in contract.items() if v is not None)}", file=out)
    for key, val in (view.get("public") or {}).items():
        print(f"   {key}: {json.dumps(val)}", file=out)
    if view["tricks"]:
        leader, cards, winner = view["tricks"][-1]
        print(f"   last trick: {' '.join(cards)} (led by {leader}) -> seat {winner}", file=out)
    if view["trick"] and view["trick"]["cards"]:
        print(f"   trick:    {' '.join(view['trick']['cards'])} (led by {view['trick']['leader']})", file=out)
    print(f"   your hand (seat {view['seat']}): {hand}", file=out)


def choose(view: dict, read, out) -> dict:
    """Ask for one of the legal actions: its number, or its text (`QC`, `pass`, `rufspiel D`)."""
    order = {card: i for i, card in enumerate(view["hand"])}
    legal = sorted(view["legal"], key=lambda a: order.get(a.get("card"), -1))   # cards in hand order
    for i, a in enumerate(legal, 1):
        print(f"   [{i}] {describe(a)}", file=out)
    while True:
        text = read(f"seat {view['seat']}> ").strip()
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        for a in legal:
            if describe(a).lower() == text.lower():
                return a
        print(f"   choose 1..{len(legal)} or type an action as listed", file=out)


def show_score(score: dict, out) -> None:
    r = score["result"]
    contract = r["contract"] or {}
    print(f"\n== deal {score['deal_number']} over: {contract.get('type')}"
          f"{' by seat ' + str(contract['declarer']) if contract.get('declarer') is not None else ''}",
          file=out)
    print(f"   teams {r['teams']}, card points {r['card_points']}", file=out)
    for item in r["breakdown"]:
        extra = ", ".join(f"{k}={v}" for k, v in item.items() if k != "item")
        print(f"     {item['item']:<12} {extra}", file=out)
    print(f"   scores {r['scores']}; match totals {score['match_scores']} "
          f"after {score['deals_finished']}/{score['deals_per_match']} deals", file=out)


def play(client: StichClient, game: str, options: dict, deals: int, seed: int | None, seat: int,
         read=input, out=sys.stdout) -> int:
    info = {g["name"]: g for g in client.list_games()}
    if game not in info:
        print(f"stich: unknown game {game!r}; games: {', '.join(info)}", file=sys.stderr)
        return 2
    n = info[game]["seats"]
    if not 0 <= seat < n:
        print(f"stich: seat must be 0..{n - 1}", file=sys.stderr)
        return 2
    kinds = ["bot"] * n
    kinds[seat] = "human"
    table = client.create_table(game, options, deals, kinds, seed=seed)
    token = table.tokens[seat]
    print(f"table {table.table_id}: {game}, you are seat {seat}, bots elsewhere", file=out)
    while True:
        view = client.view(table.table_id, token)
        if view["status"] == "match_over":
            break
        if view["status"] == "waiting_for_deal":
            view = client.deal(table.table_id, token)
        shown = 0
        while True:
            # what the others did since our last action (bots act inside our calls)
            news = [f"{a['seat']}:{describe(a)}" for a in view["actions"][shown:] if a["seat"] != seat]
            if news:
                print(f"   others: {', '.join(news)}", file=out)
            shown = len(view["actions"])
            if view["status"] != "in_deal":
                break
            show_view(view, out)
            action = choose(view, read, out)
            try:
                view = client.act(table.table_id, token, action, expected_version=view["version"])
            except IllegalActionError as err:       # cannot happen for a listed action
                print(f"   not allowed: {err.message}", file=out)
        show_score(client.score(table.table_id, token), out)
    final = client.score(table.table_id, token)
    print(f"\nmatch over: totals {final['match_scores']} (you: {final['match_scores'][seat]})", file=out)
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
    p.add_argument("--deals", type=_int_arg(0, 1000), default=0,
                   help="deals in the match, 1..1000 (default 0: the game's deals_per_match)")
    p.add_argument("--seed", type=_int_arg(0, 2 ** 64 - 1), default=None,
                   help="seed of the match's first deal, 0..2^64-1 (default: random)")
    p.add_argument("--seat", type=_int_arg(0, 4), default=0, help="your seat (default 0)")
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
                return play(client, args.game, args.options, args.deals, args.seed, args.seat)
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
