"""gRPC errors turned back into exceptions: the engine's own types where the server's
ErrorInfo names one (IllegalActionError with its legal alternatives, OptionError,
InvalidRecordError), else the service's. Every raised error has `.code` (grpc.StatusCode),
`.error_reason` (ErrorInfo.reason) and `.metadata`."""
from __future__ import annotations

import json

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engine_core.errors import IllegalActionError, InvalidRecordError, OptionError, StichError


class ServiceError(StichError):
    """A service error without a more specific type."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class InvalidRequestError(ServiceError, ValueError):
    """INVALID_ARGUMENT: a malformed request (missing field, bad card code, unknown call)."""

    @property
    def field(self) -> str:
        return self.metadata.get("field", "")


class NotFoundError(ServiceError, LookupError):
    """NOT_FOUND: no such table or deal."""


class PermissionDeniedError(ServiceError, PermissionError):
    """PERMISSION_DENIED: wrong or missing seat token."""


class StaleVersionError(ServiceError):
    """ABORTED: expected_version is not the table's version (`.current_version`)."""

    @property
    def current_version(self) -> int:
        return int(self.metadata.get("version", -1))


class PreconditionError(ServiceError):
    """FAILED_PRECONDITION that is not about an action (deal in progress, match over ...)."""


_BY_CODE = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidRequestError,
    grpc.StatusCode.NOT_FOUND: NotFoundError,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDeniedError,
    grpc.StatusCode.ABORTED: StaleVersionError,
    grpc.StatusCode.FAILED_PRECONDITION: PreconditionError,
}


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    status = rpc_status.from_call(err) if hasattr(err, "trailing_metadata") else None
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info
    return None


def from_rpc_error(err: grpc.RpcError) -> Exception:
    """The exception a caller should see for a failed call."""
    code = err.code()
    info = error_info(err)
    meta = dict(info.metadata) if info else {}
    reason = info.reason if info else code.name
    message = meta.get("message") or err.details() or code.name
    if reason in ("ILLEGAL_ACTION", "NOT_YOUR_TURN"):
        out: Exception = IllegalActionError(message, json.loads(meta.get("legal", "[]")))
    elif reason == "BAD_OPTION":
        field = meta.get("field", "options")
        out = OptionError(field, message.removeprefix(f"{field}: "))
    elif reason == "INVALID_RECORD":
        field = meta.get("field", "")
        out = InvalidRecordError(field, message.removeprefix(f"{field}: ") if field else message)
    else:
        out = _BY_CODE.get(code, ServiceError)(message)
    out.code = code
    out.error_reason = reason
    out.metadata = meta
    return out
