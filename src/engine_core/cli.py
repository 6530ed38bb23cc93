"""Command line: `python -m engine_core evaluate [FILE|-] [--legal]` and `... demo`.

evaluate reads JSON Lines (a record, or {"id": …, "record": …}) and writes one JSON line per
input line: {"id", "result"} or {"id", "error": {"index", "reason"}} (+ "legal" with --legal).
Exit 0 when the input was read, even if records were rejected; 2 when it could not be read.
This interface is stable: other services and scripts depend on it.
"""
from __future__ import annotations

import argparse
import json
import random
import sys

from . import batch, fastjson, games
from .errors import StichError


def evaluate_line(line: str, number: int, with_legal: bool) -> dict:
    """The answer for one input line; `number` (1-based) is the id when none is given."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        return {"id": number, "error": {"index": None, "reason": f"malformed JSON: {err}"}}
    if isinstance(obj, dict) and "record" in obj and "game" not in obj:
        ident, record = obj.get("id", number), obj["record"]
    else:
        ident, record = number, obj
    return {"id": ident, **batch.evaluate_one(record, with_legal)}


def evaluate_line_text(line: str, number: int, with_legal: bool) -> str:
    """The output line (no newline) for one input line: the games' text fast paths
    (batch.evaluate_text) when they accept it, else json.dumps of evaluate_line."""
    if not with_legal:
        text = batch.evaluate_text(line, number)
        if text is not None:
            return text
    return fastjson.dumps(evaluate_line(line, number, with_legal))


def cmd_evaluate(args) -> int:
    try:
        stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    except OSError as err:
        print(f"evaluate: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return 2
    out = sys.stdout
    pending: list[str] = []         # answers are written in blocks: one write per 256 lines
    try:
        with stream:
            for number, line in enumerate(stream, 1):
                if not line or line.isspace():      # = not line.strip(), without a copy
                    continue
                pending.append(evaluate_line_text(line, number, args.legal))
                if len(pending) == 256:
                    out.write("\n".join(pending) + "\n")
                    pending.clear()
    except (OSError, UnicodeDecodeError) as err:
        _flush(out, pending)
        print(f"evaluate: cannot read {args.file}: {err}", file=sys.stderr)
        return 2
    _flush(out, pending)
    return 0


def _flush(out, pending: list[str]) -> None:
    if pending:
        out.write("\n".join(pending) + "\n")
        pending.clear()


def cmd_demo(args) -> int:
    """Deal seeded deals, play them with random legal moves, print contract, tricks and the
    itemised scoring: a quick look at the engine at work."""
    try:
        game = games.get(args.game, json.loads(args.options))
    except (StichError, json.JSONDecodeError) as err:
        print(f"demo: {err}", file=sys.stderr)
        return 2
    totals = [0] * game.seats
    for k in range(args.deals):
        seed = args.seed + k
        dealer = k % game.seats
        state = game.deal(seed, dealer)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        result = state.result()
        print(f"deal {k + 1} (seed {seed}, dealer {dealer})")
        deck = game.deck
        for s, hand in enumerate(state.hands):      # sorted trumps-first for the contract played
            ordered = [deck.code(i) for i in state.core.sort_cards(deck.mask_of(hand))]
            print(f"  seat {s}: {' '.join(ordered)}")
        bids = [a for a in state.actions if a["type"] != "play"]
        print("  calls:   " + ", ".join(f"{a['seat']}:{a['call']}{' ' + a['suit'] if 'suit' in a else ''}"
                                       for a in bids))
        print(f"  contract: {json.dumps(result['contract'])}")
        for n, (leader, cards, winner) in enumerate(result["tricks"], 1):
            print(f"  trick {n}: lead {leader}: {' '.join(cards)} -> seat {winner}")
        print(f"  card points: {result['card_points']}")
        for item in result["breakdown"]:
            extra = ", ".join(f"{k}={v}" for k, v in item.items() if k != "item")
            print(f"    {item['item']:<12} {extra}")
        print(f"  scores: {result['scores']}")
        totals = [t + s for t, s in zip(totals, result["scores"])]
    print(f"match totals after {args.deals} deals: {totals}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine_core", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="batch-evaluate JSON Lines records")
    ev.add_argument("file", nargs="?", default="-", help="JSON Lines file, or - for stdin")
    ev.add_argument("--legal", action="store_true", help="add the legal actions before each action")
    ev.set_defaults(func=cmd_evaluate)
    demo = sub.add_parser("demo", help="play seeded random deals and print them")
    demo.add_argument("--game", default="schafkopf", choices=games.GAMES)
    demo.add_argument("--options", default="{}", help="options as a JSON object")
    demo.add_argument("--deals", type=int, default=4)
    demo.add_argument("--seed", type=int, default=1)
    demo.set_defaults(func=cmd_demo)
    args = parser.parse_args(argv)
    return args.func(args)
