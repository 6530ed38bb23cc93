"""Every error the service returns, mapped in one place to a gRPC status code with a
`google.rpc.ErrorInfo` detail (domain `stich.v1`).

ErrorInfo.reason is a stable id: the engine's `reason_id` for a refused action or option
(`NOT_YOUR_TURN`, `MUST_FOLLOW_SUIT`, `BAD_CARD`, `BAD_OPTION`, ...), else the service's own
(`TABLE_NOT_FOUND`, `BAD_SEAT_TOKEN`, `STALE_VERSION`, ...). Metadata carries `message` (the
text a player would be told) and where they apply `legal` (the acting seat's legal actions as a
JSON list of record actions, on every refused action; `[]` for a seat that is not to act),
`field` (the request field that is wrong) and `version` (the table's current version).

Nothing is echoed without a bound: the message is cut to MAX_TEXT characters, every other
metadata value to MAX_VALUE, and `legal` to the actions that fit LEGAL_BYTES (then
`legal_count` says how many there are), so that the trailers of any error stay far below the
8 KiB a default gRPC client accepts.
"""
from __future__ import annotations

import logging

import grpc
import orjson
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from engine_core.errors import ActionError, InvalidActionError, StichError

from .store import Unavailable

DOMAIN = "stich.v1"
# the service's own reason ids (the engine's are in docs/errors.md); docs/service.md lists these
REASONS = {
    "INVALID_ARGUMENT": "a request field is missing or out of range (metadata `field`)",
    "MALFORMED_REQUEST": "a request message that is not valid protobuf (or, at the HTTP door, JSON)",
    "REQUEST_TOO_LARGE": "a request carrying options (CreateTable, Simulate) over its bound of 64 KiB",
    "BATCH_TOO_LARGE": "an EvaluateBatch of more lines than --evaluate-batch-lines (1000 by default)",
    "OPTIONS_TOO_LARGE": "options of more keys (64), values (1024), depth (4) or bytes (16 KiB) than any game takes",
    "BAD_SEAT_KIND": "a seat kind other than human, open, bot or bot of a level (easy, normal, hard)",
    "BOT_LEVEL_UNAVAILABLE": "a bot level this server does not have yet",
    "SEATS_OPEN": "Deal while a seat is still open (its invite not yet claimed)",
    "BAD_INVITE": "an invite code that is missing or not of the form iv_<secret>.<table id>",
    "INVITE_NOT_FOUND": "no open seat has this invite code",
    "INVITE_USED": "the invite's seat was already claimed (ALREADY_EXISTS)",
    "TOKEN_FOR_OTHER_TABLE": "a seat token or spectator id of another table",
    "HINTS_DISABLED": "Hint at a table that gives none (a daily deal, or hints_disabled)",
    "HINTS_UNAVAILABLE": "Hint on a server without the hard bot",
    "NO_DEAL_IN_PROGRESS": "Hint with no deal in progress",
    "BAD_PLAYER_TOKEN": "a player token the server did not issue, or not the daily table's player (PERMISSION_DENIED)",
    "BAD_NICKNAME": "a nickname that is empty, too long or not printable",
    "NOT_A_DAILY_TABLE": "SubmitDaily of a table that GetDailyDeal did not open",
    "DAILY_NOT_TODAY": "SubmitDaily of a daily deal of another day",
    "DAILY_ALREADY_SUBMITTED": "a second leaderboard entry of a player on a day (ALREADY_EXISTS)",
    "NICKNAME_TAKEN": "SubmitDaily with a nickname another player of that game and day has (ALREADY_EXISTS)",
    "TOO_MANY_DAILY_PLAYERS": "GetDailyDeal asking for a new player identity beyond those a client address may get a day (RESOURCE_EXHAUSTED)",
    "DAILY_NOT_OVER": "CreateTable with the daily_date of today or a later day: a daily deal is practised once its day is over",
    "MALFORMED_JSON": "Analyze of a record that is not JSON",
    "MALFORMED_RECORD": "Analyze of JSON that is not a records.md record",
    "BAD_REQUEST_ID": "a request id that is not 1 to 64 characters of A-Z a-z 0-9 - _ . :",
    "REQUEST_ID_REUSED": "a request id already used for another request at the table",
    "BAD_SEAT_TOKEN": "a missing or wrong seat token, or the spectator id for an action",
    "TABLE_NOT_FOUND": "no such table",
    "DEAL_NOT_FOUND": "no such deal at the table",
    "DEAL_NOT_FINISHED": "Score of the deal in progress",
    "STALE_VERSION": "expected_version is not the table's version",
    "CONFLICT": "another writer committed the table's next version first",
    "TOO_MANY_STREAMS": "a stream limit (per peer, per kind, in all)",
    "ANALYSIS_STOPPED": "(DEADLINE_EXCEEDED) an Analyze or Hint stopped between two searches: its deadline passed or its caller left",
    "TOO_MUCH_ANALYSIS": "Analyze or Hint over the analysis pool's bounds (per peer, waiting in all); retry later (RESOURCE_EXHAUSTED)",
    "SHUTTING_DOWN": "(UNAVAILABLE) a WatchTable stream ended by the server's shutdown: watch again from the last version",
    "TABLE_DAMAGED": "the store holds the table but its rows do not restore",
    "ORIGIN_NOT_ALLOWED": "(the HTTP door) a browser origin neither the page's own nor in --allowed-origins",
    "HOST_NOT_ALLOWED": "(the HTTP door) a Host header naming neither a loopback name, the bound address nor one of --allowed-hosts (DNS rebinding)",
    "STORE_UNAVAILABLE": "the database does not answer or cannot write (a PostgreSQL server down or unreachable, a full disk); nothing was committed; retry (UNAVAILABLE)",
    "INTERNAL": "a defect of the server",
    "INTERNAL_ERROR": "(a batch answer) the evaluation of that one line failed inside the server",
}
MAX_TEXT = 300
MAX_VALUE = 200
LEGAL_BYTES = 2500
log = logging.getLogger("stich.service")


def cut(text: str, limit: int = MAX_TEXT) -> str:
    """`text` with at most `limit` characters (an ellipsis marks a cut)."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def short(value, limit: int = 40) -> str:
    """A request value as an error may quote it: its repr, cut."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001
        text = f"<{type(value).__name__}>"
    return cut(text, limit)


class ServiceError(Exception):
    """An error of the service layer (tables, tokens, versions, request shape, limits)."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str, **metadata):
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = {k: str(v) for k, v in metadata.items()}


def invalid(field: str, message: str, reason: str = "INVALID_ARGUMENT") -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, reason, f"{field}: {message}", field=field)


def not_found(what: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.NOT_FOUND, f"{what.upper()}_NOT_FOUND", message)


def malformed(why: str, what: str = "protobuf") -> ServiceError:
    """A request message that did not parse (`what`: protobuf, or JSON at the HTTP door)."""
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST",
                        f"the request message is not valid {what}: {cut(why, 100)}")


def denied(message: str, reason: str = "BAD_SEAT_TOKEN") -> ServiceError:
    return ServiceError(grpc.StatusCode.PERMISSION_DENIED, reason, message)


def already_exists(reason: str, message: str) -> ServiceError:
    """Something that exists once only was asked for again (a claimed seat, a day's entry)."""
    return ServiceError(grpc.StatusCode.ALREADY_EXISTS, reason, message)


def conflict(message: str) -> ServiceError:
    """Other writers kept committing first: the request was not carried out."""
    return ServiceError(grpc.StatusCode.ABORTED, "CONFLICT", message)


def unavailable(reason: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAVAILABLE, reason, message)


def stale(expected: int, current: int) -> ServiceError:
    return ServiceError(grpc.StatusCode.ABORTED, "STALE_VERSION",
                        f"expected version {expected} but the table is at version {current}",
                        version=current)


def precondition(reason: str, message: str, **metadata) -> ServiceError:
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, reason, message, **metadata)


def exhausted(reason: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, reason, message)


def deadline_passed(message: str) -> ServiceError:
    """Work stopped at the call's deadline (the caller has usually gone by then)."""
    return ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED, "ANALYSIS_STOPPED", message)


def damaged(table_id: str, why: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.DATA_LOSS, "TABLE_DAMAGED",
                        f"table {short(table_id)} is stored but cannot be restored: {why}")


class Refused(Exception):
    """An engine ActionError as one seat may be told it: `shown_legal` False when the asking
    seat is not the seat to act (the legal alternatives are another seat's secret)."""

    def __init__(self, err: ActionError, shown_legal: bool):
        super().__init__(err.reason)
        self.err = err
        self.shown_legal = shown_legal


def legal_json(actions: list) -> tuple[str, int | None]:
    """The legal actions as compact JSON within LEGAL_BYTES (and the full count if cut)."""
    text = orjson.dumps(actions).decode()
    if len(text) <= LEGAL_BYTES:
        return text, None
    kept = []
    size = 2
    for a in actions:
        item = orjson.dumps(a).decode()
        if size + len(item) + 1 > LEGAL_BYTES:
            break
        kept.append(a)
        size += len(item) + 1
    return orjson.dumps(kept).decode(), len(actions)


def classify(err: BaseException) -> tuple[grpc.StatusCode, str, str, dict]:
    """(code, ErrorInfo reason, message, metadata) of any error a handler may raise."""
    if isinstance(err, ServiceError):
        return err.code, err.reason, err.message, err.metadata
    if isinstance(err, Refused):
        action_err, shown = err.err, err.shown_legal
        code = (grpc.StatusCode.INVALID_ARGUMENT if isinstance(action_err, InvalidActionError)
                else grpc.StatusCode.FAILED_PRECONDITION)
        if shown:
            legal, count = legal_json(action_err.legal)
            message = action_err.reason
        else:
            # another seat is to act: neither its alternatives nor a text naming them
            legal, count = "[]", None
            message = action_err.reason if not action_err.legal else "the action was refused"
        meta = {"legal": legal}
        if count is not None:
            meta["legal_count"] = str(count)
        return code, action_err.reason_id, message, meta
    if isinstance(err, ActionError):                       # not from a seat's request
        return grpc.StatusCode.FAILED_PRECONDITION, err.reason_id, err.reason, {"legal": "[]"}
    if isinstance(err, StichError):                        # OptionError, InvalidRecordError
        meta = {"field": getattr(err, "field", "")}
        return grpc.StatusCode.INVALID_ARGUMENT, getattr(err, "reason_id", "INVALID_ARGUMENT"), str(err), meta
    if isinstance(err, Unavailable):                       # the shared store's database is down
        return grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE", "the database does not answer; retry", {}
    return grpc.StatusCode.INTERNAL, "INTERNAL", f"internal error: {type(err).__name__}", {}


def error_info(err: BaseException) -> tuple[grpc.StatusCode, str, error_details_pb2.ErrorInfo]:
    """(code, message, ErrorInfo) of an error as either door sends it, every value bounded."""
    code, reason, message, metadata = classify(err)
    if code == grpc.StatusCode.INTERNAL:
        log.error("internal error", exc_info=err)
    message = cut(message)
    meta = {"message": message}
    for k, v in metadata.items():
        meta[k] = v if k == "legal" else cut(v, MAX_VALUE)
    return code, message, error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=meta)


def status_of(err: BaseException) -> tuple[grpc.StatusCode, str, tuple]:
    """(code, details, trailing metadata) of an error: the rich status of the gRPC door."""
    code, message, info = error_info(err)
    detail = any_pb2.Any()
    detail.Pack(info)
    status = status_pb2.Status(code=getattr(code_pb2, code.name), message=message, details=[detail])
    return code, message, (("grpc-status-details-bin", status.SerializeToString()),)
