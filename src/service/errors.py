"""Every error the service returns, mapped in one place to a gRPC status code with a
`google.rpc.ErrorInfo` detail (domain `stich.v1`).

ErrorInfo.reason is a stable UPPER_SNAKE name; metadata carries `message` (the human reason),
and where they apply `field` (which request field is wrong), `legal` (the legal alternatives
as a JSON list of record actions) and `version` (the table's current version).
"""
from __future__ import annotations

import json

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from engine_core.errors import IllegalActionError, InvalidRecordError, OptionError

from .simulate import Cancelled

DOMAIN = "stich.v1"


class ServiceError(Exception):
    """An error of the service layer (tables, tokens, versions, request shape)."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str, **metadata):
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = {k: v if isinstance(v, str) else json.dumps(v) for k, v in metadata.items()}


def invalid(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT", f"{field}: {message}",
                        field=field)


def not_found(what: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.NOT_FOUND, f"{what.upper()}_NOT_FOUND", message)


def denied(message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.PERMISSION_DENIED, "BAD_SEAT_TOKEN", message)


def stale(expected: int, current: int) -> ServiceError:
    return ServiceError(grpc.StatusCode.ABORTED, "STALE_VERSION",
                        f"expected version {expected} but the table is at version {current}",
                        version=str(current))


def precondition(reason: str, message: str, **metadata) -> ServiceError:
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, reason, message, **metadata)


def classify(err: Exception) -> tuple[grpc.StatusCode, str, str, dict]:
    """(code, ErrorInfo reason, message, metadata) of any error a handler may raise."""
    if isinstance(err, ServiceError):
        return err.code, err.reason, err.message, err.metadata
    if isinstance(err, IllegalActionError):
        return (grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_ACTION", err.reason,
                {"legal": json.dumps(err.legal, separators=(",", ":"))})
    if isinstance(err, OptionError):
        return grpc.StatusCode.INVALID_ARGUMENT, "BAD_OPTION", str(err), {"field": err.field}
    if isinstance(err, InvalidRecordError):
        return grpc.StatusCode.INVALID_ARGUMENT, "INVALID_RECORD", str(err), {"field": err.field}
    if isinstance(err, Cancelled):
        return grpc.StatusCode.CANCELLED, "CANCELLED", "the call was cancelled", {}
    return grpc.StatusCode.INTERNAL, "INTERNAL", f"internal error: {type(err).__name__}", {}


def to_status(err: Exception) -> grpc.Status:
    """The rich gRPC status of an error (for `context.abort_with_status`)."""
    code, reason, message, metadata = classify(err)
    info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN,
                                       metadata={"message": message, **metadata})
    detail = any_pb2.Any()
    detail.Pack(info)
    status = status_pb2.Status(code=getattr(code_pb2, code.name), message=message, details=[detail])
    return rpc_status.to_status(status)
