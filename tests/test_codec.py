"""The one record codec: for every game, every conformance line and many malformed variants,
the scanner's answer is byte for byte the generic path's (orjson + records.evaluate); hostile
lines never raise and always give one valid JSON line."""
import copy
import json
import random

import orjson
import pytest

from engine_core import _codec, batch, cli, games, records

from conftest import CONFORMANCE, GAMES, conformance_lines

KINDS = ("scenarios", "random", "legal", "illegal")


def generic_bytes(line, number):
    return orjson.dumps(_codec.generic_line(line, number))


def layouts(game):
    for kind in KINDS:
        for line in conformance_lines(game, kind):
            rec = line["record"]
            yield json.dumps(rec)
            yield json.dumps({"id": line["id"], "record": rec})
    if not (CONFORMANCE / game / "scenarios.jsonl").exists():    # a seat variant: random deals too
        rng = random.Random(game)
        for seed in range(50):
            state = games.get(game).deal(seed, seed % games.spec_of(game).seats)
            while not state.is_over():
                state.apply(rng.choice(state.legal_actions()))
            yield json.dumps(state.record())
            yield json.dumps({"id": seed, "record": state.record()})
            yield json.dumps({"record": rec, "id": -0}, indent=2).replace("\n", "\r\n\t") + "\n"


def mutations(game):
    """Text variants of a finished record: each changes one thing the scanner must either get
    exactly right or hand to the generic path."""
    scenarios = conformance_lines(game, "scenarios")
    base = scenarios[min(1, len(scenarios) - 1)]["record"]
    text = json.dumps(base, separators=(",", ":"))
    yield text
    first = base["actions"][0]
    card = next(a for a in base["actions"] if a["type"] == "play")
    card_text = json.dumps(card, separators=(",", ":"))
    first_text = json.dumps(first, separators=(",", ":"))
    dealer = f'"dealer":{base["dealer"]}'
    swaps = [(dealer, dealer + ".0"), (dealer, dealer.replace(":", ":0")), (dealer, '"dealer":true'),
             (dealer, dealer + "," + dealer), (dealer, '"dealer":9'), (dealer, '"dealer":-1'),
             (f'"game":"{game}"', f'"game":"{game[:-1]}\\u00{ord(game[-1]):x}"'),
             (f'"game":"{game}"', '"game":"skat"'), (f'"game":"{game}"', '"game":1'),
             ('"options":{', '"options":{"x":[1],'), ('"options":{', '"options":null,"o":{'),
             ('"options":{', '"options":{"deals_per_match":0,'), ('"options":{', '"options":{"deals_per_match":1.5,'),
             ('"actions":[', '"actions":[[],'), ('"actions":[', '"blind":null,"actions":['),
             ('"actions":[', '"blind":[],"actions":['), ('"actions":[', '"blind":["AC"],"actions":['),
             (card_text, card_text.replace('"card":"', '"card":"x')),
             (card_text, card_text[:-1] + ',"extra":1}'), (card_text, card_text.replace('"seat":', '"seat":1.0,"s":')),
             (card_text, card_text.replace('"type":"play"', '"type":"bid"')),
             (card_text, card_text.replace('"play"', '"pla\\u0079"')),
             (first_text, first_text[:-1] + ',"suit":null}'), (first_text, first_text[:-1] + ',"suit":"C"}'),
             (first_text, first_text.replace('"call":', '"call":1,"c":')),
             ]
    for old, new in swaps:
        if old in text:
            yield text.replace(old, new, 1)
    yield text + " x"
    yield text[:-10]
    yield '{"id": 5}'
    yield '{"id": 5, "record": ' + text + ', "note": 1}'
    yield '{"id": 123456789012345678901, "record": ' + text + '}'
    yield '{"id": "a\\"b", "record": ' + text + '}'
    yield '{"id": "é", "record": ' + text + '}'
    yield '{"id": 1.5, "record": ' + text + '}'
    rec = copy.deepcopy(base)
    rec["actions"] = rec["actions"][:5]
    yield json.dumps(rec)
    rec = copy.deepcopy(base)
    rec["actions"].append(dict(card))
    yield json.dumps(rec)
    rec = copy.deepcopy(base)
    full = [i for i, hand in enumerate(rec["hands"]) if hand]     # a seat that sits out holds none
    rec["hands"][full[0]][0] = rec["hands"][full[1]][0]
    yield json.dumps(rec)
    rec = copy.deepcopy(base)
    rec["hands"][0], rec["hands"][1] = rec["hands"][1], rec["hands"][0]
    yield json.dumps(rec)


@pytest.mark.parametrize("game", GAMES)
def test_scanner_answers_exactly_as_the_generic_path(game):
    fast = 0
    lines = list(layouts(game)) + list(mutations(game))
    for number, line in enumerate(lines, 1):
        # the CLI writes an integer id beyond 64 bits back exactly, on both paths (cli.exact_id)
        assert cli.evaluate_line_bytes(line, number) == cli.exact_id(line, generic_bytes(line, number)), line[:200]
        fast += _codec.fast_line(line, number) is not None
    assert fast > len(lines) // 2          # the valid lines do take the fast path


@pytest.mark.parametrize("game", GAMES)
def test_dict_records_take_the_same_codec(game):
    recs = [line["record"] for kind in KINDS for line in conformance_lines(game, kind)]
    recs += [json.loads(m) for m in mutations(game) if _valid_json(m)]
    assert batch.evaluate(recs) == [records.evaluate(r) for r in recs]
    played = [batch.playout_record(game, seed=11, k=k) for k in range(60)]
    assert batch.evaluate(played) == [records.evaluate(r) for r in played]


def _valid_json(text):
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


HOSTILE = [
    '{"game": "schafkopf", "dealer": ' + "9" * 5000 + ', "hands": [], "actions": []}',
    "[" * 5000 + "]" * 5000,
    '{"id": "\\ud800", "record": {"game": "schafkopf"}}',
    '{"id": ' + "1" * 400 + ', "record": {}}',
    '{"id": NaN, "record": {}}',
    '{"id": Infinity, "record": {}}',
    '{"game": "schafkopf", "options": {"tariff_solo": 2147483648}, "dealer": 0, "hands": [], "actions": []}',
    '{"game": "schafkopf", "options": {"tariff_solo": NaN}, "dealer": 0, "hands": [], "actions": []}',
    '{"game": "schafkopf", "dealer": 0, "hands": [[]], "actions": [{"seat": 0, "type": "bid", "call": "rufspiel", "suit": [1]}]}',
    '{"game": "schafkopf", "options": ' + '{"a":' * 200 + "1" + "}" * 200 + ', "dealer": 0, "hands": [], "actions": []}',
    "\x00\xff garbage",
    b"\xff\xfe not utf-8",
    "",
    "null",
    '"text"',
    "{}",
]


def test_hostile_lines_are_answered_not_raised():
    for number, line in enumerate(HOSTILE, 1):
        out = cli.evaluate_line_bytes(line, number)
        answer = json.loads(out)
        assert set(answer) == {"id", "error"} and answer["error"]["reason"], (line[:80], answer)
        assert len(answer["error"]["reason"]) < 600


def test_a_bad_line_does_not_stop_the_others(tmp_path):
    good = json.dumps(conformance_lines("schafkopf", "scenarios")[0]["record"])
    path = tmp_path / "in.jsonl"
    path.write_bytes(("\n".join([good] + [h if isinstance(h, str) else h.decode("latin-1") for h in HOSTILE] + [good]) + "\n").encode("utf-8", "surrogatepass"))
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-m", "engine_core", "evaluate", str(path)], capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.decode().splitlines()
    answers = [json.loads(line) for line in lines]
    assert "result" in answers[0] and "result" in answers[-1]
    assert len(answers) == len(HOSTILE) + 2 - 1       # the empty line is skipped
