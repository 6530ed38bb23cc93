"""Refused calls as exceptions, from the status code and the `google.rpc.ErrorInfo` the server
attaches to every error (domain `stich.v1`). The types mirror the engine's (an action refused
as malformed or against the rules, a bad option, a bad record) without importing it: this
package installs without the engine.

Every error has `.code` (grpc.StatusCode), `.reason_id` (ErrorInfo.reason, a stable id such as
MUST_FOLLOW_SUIT or TABLE_NOT_FOUND; `.error_reason` is the same), `.message` (the text a
player would be told; `.reason` is the same) and `.metadata` (ErrorInfo.metadata).
"""
from __future__ import annotations

import json

import grpc
from google.rpc import error_details_pb2, status_pb2

DOMAIN = "stich.v1"
_DETAILS_KEY = "grpc-status-details-bin"


class StichError(Exception):
    """Base of every error this client raises for a refused call."""

    def __init__(self, message: str, code: grpc.StatusCode | None = None, reason_id: str = "",
                 metadata: dict | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.reason_id = reason_id or (code.name if code is not None else "")
        self.metadata = dict(metadata or {})

    @property
    def reason(self) -> str:
        """The text (as the engine's errors call it)."""
        return self.message

    @property
    def error_reason(self) -> str:
        return self.reason_id


class ServiceError(StichError):
    """A refused call without a more specific type (e.g. INTERNAL, CANCELLED)."""


class InvalidRequestError(StichError, ValueError):
    """INVALID_ARGUMENT: a malformed request (a missing field, a bad request id, a bad seat kind)."""

    @property
    def field(self) -> str:
        return self.metadata.get("field", "")


class OptionError(InvalidRequestError):
    """INVALID_ARGUMENT, BAD_OPTION: an unknown game or option, or a value outside its range."""


class InvalidRecordError(InvalidRequestError):
    """INVALID_ARGUMENT, INVALID_RECORD: a malformed record or deal."""


class PreconditionError(StichError):
    """FAILED_PRECONDITION: the table is not in a state for this call (a deal in progress, the
    match over, a deal not finished yet)."""


class ActionError(StichError):
    """A refused action. `.legal` lists the acting seat's legal actions (records.md action
    objects); it is empty when the asker is not the seat to act."""

    @property
    def legal(self) -> list[dict]:
        try:
            return json.loads(self.metadata.get("legal", "[]"))
        except ValueError:
            return []


class InvalidActionError(ActionError, InvalidRequestError):
    """INVALID_ARGUMENT: a malformed action (a bad card code, an unknown call, a suit where the
    call takes none)."""


class IllegalActionError(ActionError, PreconditionError):
    """FAILED_PRECONDITION: an action the rules do not allow now (NOT_YOUR_TURN,
    MUST_FOLLOW_SUIT, NO_DEAL, ...)."""


class NotFoundError(StichError, LookupError):
    """NOT_FOUND: no such table or deal."""


class PermissionDeniedError(StichError, PermissionError):
    """PERMISSION_DENIED: a wrong or missing seat token or spectator id."""


class StaleVersionError(StichError):
    """ABORTED: `expected_version` is not the table's version (`.current_version` is)."""

    @property
    def current_version(self) -> int:
        try:
            return int(self.metadata.get("version", -1))
        except ValueError:
            return -1


class ResourceExhaustedError(StichError):
    """RESOURCE_EXHAUSTED: a server limit (streams per peer, message size)."""


class DataLossError(StichError):
    """DATA_LOSS: the server has the table but cannot restore it (a damaged or incompatible
    stored record)."""


class UnavailableError(StichError, ConnectionError):
    """UNAVAILABLE or DEADLINE_EXCEEDED: no answer from the server (it may or may not have
    acted: retry with the same request id)."""


_BY_CODE = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidRequestError,
    grpc.StatusCode.FAILED_PRECONDITION: PreconditionError,
    grpc.StatusCode.NOT_FOUND: NotFoundError,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDeniedError,
    grpc.StatusCode.ABORTED: StaleVersionError,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhaustedError,
    grpc.StatusCode.DATA_LOSS: DataLossError,
    grpc.StatusCode.UNAVAILABLE: UnavailableError,
    grpc.StatusCode.DEADLINE_EXCEEDED: UnavailableError,
}


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo of a failed call, if the server sent one."""
    try:
        trailers = err.trailing_metadata() or ()
    except Exception:  # noqa: BLE001 - not a call error
        return None
    for key, value in trailers:
        if key == _DETAILS_KEY:
            status = status_pb2.Status()
            try:
                status.ParseFromString(value)
            except Exception:  # noqa: BLE001
                return None
            for detail in status.details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    return info
    return None


def from_rpc_error(err: grpc.RpcError) -> StichError:
    """The exception a caller should see for a failed call."""
    code = err.code() if hasattr(err, "code") else None
    info = error_info(err)
    meta = dict(info.metadata) if info is not None else {}
    reason = info.reason if info is not None else (code.name if code is not None else "")
    details = err.details() if hasattr(err, "details") else ""
    message = meta.get("message") or details or reason
    if "legal" in meta and code == grpc.StatusCode.INVALID_ARGUMENT:
        cls: type[StichError] = InvalidActionError
    elif "legal" in meta and code == grpc.StatusCode.FAILED_PRECONDITION:
        cls = IllegalActionError
    elif reason == "BAD_OPTION":
        cls = OptionError
    elif reason == "INVALID_RECORD":
        cls = InvalidRecordError
    else:
        cls = _BY_CODE.get(code, ServiceError)
    return cls(message, code, reason, meta)
