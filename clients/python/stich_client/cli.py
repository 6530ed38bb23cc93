"""`stich`: play a match against bots in the terminal, or batch-evaluate records, through a
stich server.

    stich [--server HOST:PORT] play GAME [--options JSON] [--deals N] [--seed N] [--seat S]
    stich [--server HOST:PORT] evaluate FILE [--legal] [-o OUT]
    stich [--server HOST:PORT] games
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stich", description="play and evaluate through a stich server")
    parser.add_argument("--server", default=os.environ.get("STICH_SERVER", DEFAULT_TARGET),
                        help=f"server address (env STICH_SERVER; default {DEFAULT_TARGET})")
    parser.add_argument("--timeout", type=float, default=10.0, help="deadline of each call in seconds")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play a match against bots")
    p.add_argument("game")
    p.add_argument("--options", default="{}", help="rule options as a JSON object")
    p.add_argument("--deals", type=int, default=0, help="deals in the match (default: the game's)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--seat", type=int, default=0)
    e = sub.add_parser("evaluate", help="batch-evaluate a JSON Lines file of records")
    e.add_argument("file", help="JSON Lines file, or - for stdin")
    e.add_argument("--legal", action="store_true", help="add the legal actions before each action")
    e.add_argument("-o", "--output", help="write answers here instead of stdout")
    sub.add_parser("games", help="list the server's games and options")
    args = parser.parse_args(argv)
    try:
        with StichClient(args.server, timeout=args.timeout) as client:
            if args.command == "play":
                return play(client, args.game, json.loads(args.options), args.deals, args.seed, args.seat)
            if args.command == "evaluate":
                return evaluate(client, args.file, args.legal, args.output)
            print(json.dumps(client.list_games(), indent=2))
            return 0
    except (StichError, json.JSONDecodeError) as err:
        if getattr(err, "code", None) == grpc.StatusCode.UNAVAILABLE:
            print(f"stich: cannot reach a stich server at {args.server} (start one with "
                  f"`make serve` or `python -m service`): {err}", file=sys.stderr)
        else:
            print(f"stich: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:                 # e.g. `stich games | head`
        sys.stdout = open(os.devnull, "w")
        return 0
    except (EOFError, KeyboardInterrupt):
        print("\nstich: bye", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
