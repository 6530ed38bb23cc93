"""Outputs programs can trust (issue 27, item 9): strict JSON from `tournament --json`, batch
ids written back exactly, a default node budget so that `solve` answers a Doppelkopf position,
and engine calls that refuse what names nothing (an action code outside every band, a seat
that does not exist)."""
import json
import random
import subprocess
import sys

import pytest

from engine_core import _codes, games

ENGINE = [sys.executable, "-m", "engine_core"]


def _strict(text: str):
    """json.loads refusing NaN and Infinity, which are not JSON."""
    def refuse(name):
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refuse)


def test_tournament_json_of_one_deal_is_valid_json():
    """One deal has no spread to estimate an interval from: null, never NaN."""
    run = subprocess.run([*ENGINE, "tournament", "--game", "schafkopf", "--bots", "easy,random",
                          "--deals", "1", "--json"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    report = _strict(run.stdout)
    assert all(b["ci95"] is None for b in report["bots"]) and report["difference"]["ci95"] is None
    table = subprocess.run([*ENGINE, "tournament", "--game", "schafkopf", "--bots", "easy,random",
                            "--deals", "1"], capture_output=True, text=True, timeout=120)
    assert table.returncode == 0 and "nan" not in table.stdout.lower(), table.stdout


def _finished(game="schafkopf", seed=1) -> dict:
    state = games.get(game).deal(seed, 0)
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return state.record()


@pytest.mark.parametrize("command", ["evaluate", "solve", "analyze"])
def test_batch_ids_beyond_2_53_and_2_64_come_back_exact(command, tmp_path):
    record = _finished()
    ids = [2 ** 53 + 1, 2 ** 63 + 7, 2 ** 70 + 1, -(2 ** 66) - 3, 12345678901234567890123]
    path = tmp_path / "lines.jsonl"
    path.write_text("".join(json.dumps({"id": i, "record": record}) + "\n" for i in ids))
    run = subprocess.run([*ENGINE, command, str(path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = [json.loads(line)["id"] for line in run.stdout.splitlines()]
    assert got == ids and all(type(i) is int for i in got)


def test_evaluate_records_answers_an_id_beyond_2_64_exactly():
    from service import evaluate
    line = json.dumps({"id": 2 ** 70 + 1, "record": _finished()})
    answer = evaluate.answer_message(line, 1, False)
    assert json.loads(answer.json)["id"] == 2 ** 70 + 1
    assert answer.id.string_value == str(2 ** 70 + 1)


def test_solve_has_a_default_budget_and_answers_a_doppelkopf_position(tmp_path):
    """From the first card a Doppelkopf deal takes hours exactly; with the default budget
    the line comes back in seconds, with bounds."""
    state = games.get("doppelkopf").deal(3, 0)
    while state.view(None)["phase"] != "play":
        state.apply(state.legal_actions()[0])
    path = tmp_path / "position.jsonl"
    path.write_text(json.dumps(state.record()) + "\n")
    run = subprocess.run([*ENGINE, "solve", str(path)], capture_output=True, text=True, timeout=90)
    assert run.returncode == 0, run.stderr
    line = json.loads(run.stdout)
    assert line["nodes"] <= 2_000_000 * 64 and "exact" in line
    if not line["exact"]:
        assert line["lower"] <= line["upper"]


def test_decode_refuses_a_code_outside_every_band():
    state = games.get("schafkopf").deal(1, 0)
    legal = state.core.legal_codes()
    assert [state.decode(c) for c in legal] == state.legal_actions()
    spec = state.game.spec
    for code in (-1, -2 ** 40, state.game.deck.size, _codes.CALL_BASE - 1,
                 _codes.CALL_BASE + len(spec.calls), _codes.EXCHANGE_BASE - 1, 2 ** 70, True, 1.0):
        with pytest.raises(ValueError):
            state.decode(code)


def test_decode_refuses_an_exchange_of_cards_beyond_the_deck():
    state = games.get("sheepshead").deal(1, 0)
    size = state.game.deck.size
    assert state.decode(_codes.exchange_code(0, 0b11))["type"] == "exchange"
    with pytest.raises(ValueError):
        state.decode(_codes.exchange_code(0, 1 << size))
    with pytest.raises(ValueError):
        state.decode(_codes.exchange_code(len(state.game.spec.exchanges), 0b11))


@pytest.mark.parametrize("seat", [9, -1, 4, True, "0", 1.0])
def test_result_for_a_seat_that_does_not_exist_raises(seat):
    record = _finished()
    from engine_core import records
    state = records.replay(record)
    assert state.result_for(0) is not None and state.result_for(None) is not None
    with pytest.raises(ValueError, match="seat"):
        state.result_for(seat)
