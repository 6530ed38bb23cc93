"""EvaluateRecords' unit of work: a slice of input lines to the serialized answers, run in a
worker process (or thread) so the event loop never evaluates.

Each answer is the engine's: `engine_core._codec.evaluate_line` (the one record codec, which
never raises for bad input), its JSON line written by orjson exactly as `python -m engine_core
evaluate` writes it (`_codec.evaluate_line_bytes` is `orjson.dumps(evaluate_line(...))`), and
the same answer typed. One line can never cost the others their answers: a line the engine
fails on is answered with the error INTERNAL_ERROR and logged.
"""
from __future__ import annotations

import logging

import orjson

from engine_core import _codec, games
from engine_core.cli import exact_id
from stich_client.gen.stich.v1 import stich_service_pb2 as pb

from . import convert

log = logging.getLogger("stich.service")
_ANSWERS_TAG = b"\x0a"               # EvaluateRecordsResponse.answers = 1, length-delimited


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def answer_message(line, number: int, with_legal: bool) -> pb.RecordAnswer:
    """The RecordAnswer of one input line (`number`: its 1-based place in the stream)."""
    try:
        answer = _codec.evaluate_line(line, number, with_legal)
        text = orjson.dumps(answer)
        if type(answer.get("id")) is float:             # an integer id beyond 64 bits: exactly
            exact = exact_id(line, text)
            if exact is not text:
                text = exact
                answer = {**answer, "id": int(text[len(b'{"id":'):text.index(b",")])}
    except Exception as err:  # noqa: BLE001 - an engine defect: this line only
        log.error("evaluating line %d failed", number, exc_info=err)
        answer = {"id": number, "error": {"index": None, "reason": f"internal error: {type(err).__name__}",
                                          "reason_id": "INTERNAL_ERROR"}}
        text = orjson.dumps(answer)
    out = pb.RecordAnswer()
    out.json = text.decode()
    ident = answer["id"]
    if type(ident) is int and abs(ident) >= 2 ** 63:   # beyond orjson: its digits, as id_value's JSON text
        out.id.string_value = str(ident)
    else:
        out.id.CopyFrom(convert.id_value(ident))
    if "result" in answer:
        convert.result_msg(answer["result"], out.result)
    else:
        err = answer["error"]
        out.error.SetInParent()
        out.error.reason = err["reason"]
        out.error.reason_id = err.get("reason_id", "")
        if err["index"] is not None:
            out.error.index = err["index"]
    if with_legal:
        add = out.legal.add
        for legal in answer.get("legal", []):
            add().actions.extend([convert.action_msg(a) for a in legal])
    return out


def answer_slice(lines: list[str], first_number: int, with_legal: bool) -> list[bytes]:
    """The answers to consecutive lines, each as a framed `answers` field of an
    EvaluateRecordsResponse: concatenating them gives the serialized response."""
    out = []
    for i, line in enumerate(lines):
        data = answer_message(line, first_number + i, with_legal).SerializeToString()
        out.append(_ANSWERS_TAG + _varint(len(data)) + data)
    return out


def warm() -> int:
    """Import everything a slice needs (run once in each worker process at its start)."""
    answer_slice([orjson.dumps({"game": games.available()[0]}).decode()], 1, False)
    return 0


def internal_error_slice(number: int) -> list[bytes]:
    """The framed answer for a line whose evaluation killed its worker process (no engine call)."""
    answer = {"id": number, "error": {"index": None, "reason": "internal error: the evaluation failed",
                                      "reason_id": "INTERNAL_ERROR"}}
    out = pb.RecordAnswer(json=orjson.dumps(answer).decode())
    out.id.number_value = number
    out.error.reason = answer["error"]["reason"]
    out.error.reason_id = "INTERNAL_ERROR"
    data = out.SerializeToString()
    return [_ANSWERS_TAG + _varint(len(data)) + data]
