"""Records (load, validate, replay, dump, evaluate), the evaluate CLI, and bad input."""
import copy
import json
import re
import subprocess
import sys

import pytest

from engine_core import games, records
from engine_core.errors import ActionError, IllegalActionError, InvalidActionError, InvalidRecordError

from conftest import without_rule_tables, CONFORMANCE, GAMES, conformance_lines

W2 = conformance_lines("schafkopf", "scenarios")[1]
assert W2["id"].startswith("w2_")


def test_record_roundtrip_and_resolved_options():
    rec = copy.deepcopy(W2["record"])
    rec["options"] = {}                                      # a reader fills in the defaults
    state = records.replay(rec)
    dumped = records.dump(state)
    assert dumped["options"]["tariff_rufspiel"] == 10 and dumped["options"]["klopfen"] is False
    assert records.replay(records.loads(records.dumps(dumped))).result() == state.result()


@pytest.mark.parametrize("mutate,field", [
    (lambda r: r.pop("hands"), "hands"),
    (lambda r: r.update(game=5), "game"),
    (lambda r: r.update(game="skat"), "game"),
    (lambda r: r.update(options={"kontra": "yes"}), "options.kontra"),
    (lambda r: r.update(options={"foo": 1}), "options.foo"),
    (lambda r: r.update(dealer=4), "dealer"),
    (lambda r: r.update(actions={}), "actions"),
    (lambda r: r.update(extra=1), "extra"),
    (lambda r: r["hands"][2].__setitem__(3, "1H"), "hands[2][3]"),
])
def test_malformed_records_name_the_field(mutate, field):
    rec = copy.deepcopy(W2["record"])
    mutate(rec)
    with pytest.raises(InvalidRecordError) as err:
        records.replay(rec)
    assert err.value.field == field
    assert records.evaluate(rec)["error"]["index"] is None


def test_loads_bad_json():
    with pytest.raises(InvalidRecordError, match="malformed JSON"):
        records.loads("{nope")


def test_illegal_action_keeps_state_and_explains():
    state = records.new_state(W2["record"])
    before = state.view(0)
    cases = [   # (action, error class, reason id, text)
        ({"seat": 1, "type": "bid", "call": "pass"}, IllegalActionError, "NOT_YOUR_TURN",
         "seat 1 is not to act: seat 0 is"),
        ({"seat": 0, "type": "play", "card": "KD"}, IllegalActionError, "WRONG_PHASE",
         "not allowed in the auction phase"),
        ({"seat": 0, "type": "bid", "call": "rufspiel", "suit": "H"}, IllegalActionError,
         "HEARTS_NOT_CALLABLE", "hearts are trumps"),
        ({"seat": 0, "type": "bid", "call": "grand"}, InvalidActionError, "UNKNOWN_CALL",
         "unknown bid call 'grand'"),
        ({"seat": 0, "type": "bid", "call": "rufspiel", "suit": "X"}, InvalidActionError, "BAD_SUIT",
         "bad suit 'X'"),
        ({"seat": 0, "type": "bid", "call": "rufspiel"}, InvalidActionError, "CALL_NEEDS_SUIT", "needs a 'suit'"),
        ({"seat": 0, "type": "bid", "call": "wenz", "suit": "C"}, InvalidActionError, "CALL_TAKES_NO_SUIT",
         "takes no suit"),
        ({"seat": 0, "type": "bid", "call": "pass", "note": 1}, InvalidActionError, "UNEXPECTED_FIELD",
         "unexpected field 'note'"),
        ({"seat": "0", "type": "bid", "call": "pass"}, InvalidActionError, "BAD_SEAT", "'seat' must be an integer"),
        ({"type": "bid", "call": "pass"}, InvalidActionError, "MISSING_FIELD", "missing field 'seat'"),
        ({"seat": 0, "call": "pass"}, InvalidActionError, "MISSING_FIELD", "missing field 'type'"),
        ({"seat": 0, "type": "fold"}, InvalidActionError, "UNKNOWN_TYPE", "unknown action type 'fold'"),
        ({"seat": 0, "type": "bid", "call": ["pass"], "suit": {"x": 1}}, InvalidActionError, "UNKNOWN_CALL",
         "unknown bid call ['pass']"),
        ("pass", InvalidActionError, "NOT_AN_OBJECT", "must be a JSON object"),
    ]
    for action, kind, reason_id, reason in cases:
        with pytest.raises(ActionError) as err:
            state.apply(action)
        assert type(err.value) is kind and err.value.reason_id == reason_id, (action, err.value)
        assert reason in err.value.reason, (action, err.value.reason)
        assert state.why_illegal(action) == err.value.reason
    assert state.view(0) == before and state.actions == []
    with pytest.raises(InvalidActionError) as err:
        state.apply({"seat": 0, "type": "bid", "call": "pass", "note": 1})
    assert {"seat": 0, "type": "bid", "call": "pass"} in err.value.legal


def test_follow_suit_reason_names_the_cards():
    rec = copy.deepcopy(W2["record"])
    rec["actions"] = rec["actions"][:5]                      # s0 led JC (trump)
    state = records.replay(rec)
    reason = state.why_illegal({"seat": 1, "type": "play", "card": "7S"})
    assert reason.startswith("you must follow trump: you hold QD, JS, JH")
    assert "not in seat 1's hand" in state.why_illegal({"seat": 1, "type": "play", "card": "KD"})


def test_after_end_and_unfinished():
    rec = copy.deepcopy(W2["record"])
    rec["actions"].append({"seat": 0, "type": "play", "card": "KD"})
    out = records.evaluate(rec)
    assert out["error"] == {"index": 36, "reason": "actions[36]: the deal is over", "reason_id": "DEAL_OVER"}
    rec["actions"] = rec["actions"][:10]
    out = records.evaluate(rec)
    assert out["error"] == {"index": 10, "reason": "deal not finished: seat 3 to act",
                            "reason_id": "DEAL_NOT_FINISHED"}


def run_cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "engine_core", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_cli_evaluate_mixed_input():
    lines = [json.dumps({"id": "w2", "record": W2["record"]}), json.dumps(W2["record"]), "{bad json",
             json.dumps({"id": 7, "record": {"game": "schafkopf"}})]
    proc = run_cli("evaluate", "-", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert out[0]["id"] == "w2" and out[0]["result"]["scores"] == [10, -10, 10, -10]
    assert out[1]["id"] == 2 and out[1]["result"] == out[0]["result"]
    assert out[2]["id"] == 3 and out[2]["error"]["index"] is None and "malformed JSON" in out[2]["error"]["reason"]
    assert out[3] == {"id": 7, "error": {"index": None, "reason": "dealer: missing", "reason_id": "INVALID_RECORD"}}


def test_cli_unreadable_input_exits_2():
    proc = run_cli("evaluate", "/nonexistent/file.jsonl")
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_cli_agrees_with_every_conformance_legal_line():
    path = CONFORMANCE / "schafkopf" / "legal.jsonl"
    proc = run_cli("evaluate", "--legal", str(path))
    assert proc.returncode == 0
    expected = conformance_lines("schafkopf", "legal")
    for got, line in zip(map(json.loads, proc.stdout.splitlines()), expected, strict=True):
        assert got["id"] == line["id"]
        canon = lambda acts: sorted(json.dumps(a, sort_keys=True) for a in acts)
        assert [canon(x) for x in got["legal"]] == [canon(x) for x in line["legal"]]


def test_cli_demo_runs():
    proc = run_cli("demo", "--deals", "2", "--seed", "5")
    assert proc.returncode == 0 and "match totals after 2 deals" in proc.stdout


@pytest.mark.parametrize("game", GAMES)
def test_views_hide_other_hands(game):
    state = games.get(game).deal(3, dealer=0)
    for seat in range(state.game.seats):
        view = state.view(seat)
        assert sorted(view["hand"]) == sorted(state.hands[seat])
        shown = set(re.findall(r'"([ATKQJ987][CSHD])"', json.dumps(without_rule_tables(view))))
        assert shown <= set(state.hands[seat])               # nothing played yet: only own cards
        assert (view["legal"] != []) == (seat == state.to_act())


def test_a_malformed_action_of_a_seat_not_to_act_does_not_show_the_legal_actions():
    """Legal actions are private to the seat to act: a shape error names them only to it."""
    state = games.get("schafkopf").deal(3, dealer=3)
    for action in ({"seat": 1, "type": "bid", "call": "pass", "note": 1}, {"seat": 2, "type": "fold"},
                   {"seat": 3, "type": "bid"}):
        with pytest.raises(InvalidActionError) as err:
            state.apply(action)
        assert err.value.legal == [] and "legal:" not in err.value.reason
    with pytest.raises(InvalidActionError) as err:
        state.apply({"seat": 0, "type": "bid", "call": "pass", "note": 1})
    assert err.value.legal and "legal:" in err.value.reason


def test_evaluate_blocks_number_every_line_exactly():
    """The CLI cuts and numbers its input in the codec (_codec.evaluate_block, in chunks that
    cut_lines makes): blank lines count, CR LF ends are dropped, a bad line answers alone, the
    last line may lack its newline, and however the input is cut the bytes are those of
    evaluate_line_bytes line by line."""
    from engine_core import _codec, cli
    rec = json.dumps(W2["record"])
    lines = [rec, "", "  \t", "{bad json", json.dumps({"id": 2**70, "record": W2["record"]}) + "\r",
             json.dumps({"id": "x", "record": {"game": "schafkopf"}}), rec + "\r\r", "[1,", rec]
    data = "\n".join(lines).encode()
    expected = b"".join(cli.evaluate_line_bytes(line.rstrip("\r").encode(), number) + b"\n"
                        for number, line in enumerate(lines, 1) if line.strip())
    assert b'"id":1180591620717411303424,' in expected
    assert _codec.evaluate_block(data, 1) == expected
    for size in (1, 2, 3, 100):
        out, pos, number = b"", 0, 1
        while True:
            end, count = _codec.cut_lines(data, pos, size)
            if not count:
                break
            out += cli.evaluate_chunk((number, data[pos:end]))
            number, pos = number + count, end
        out += cli.evaluate_chunk((number, data[pos:]))
        assert out == expected, size
    answers = [json.loads(x) for x in expected.splitlines()]
    assert [a["id"] for a in answers] == [1, 4, 2**70, "x", 7, 8, 9]
    assert answers[1]["error"]["reason_id"] == "MALFORMED_JSON" and answers[5]["error"]["reason_id"] == "MALFORMED_JSON"
    proc = run_cli("evaluate", "-", stdin=data.decode())
    assert proc.returncode == 0 and proc.stdout.encode() == expected
