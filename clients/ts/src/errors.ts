/**
 * Errors of the stich service as classes: every refused call carries a google.rpc.ErrorInfo
 * (domain "stich.v1") whose reason is a stable id and whose metadata holds the player-facing
 * message and, for a refused action, the legal alternatives. The same on both doors.
 */
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";
import { ActionSchema, type Action } from "./gen/stich/v1/actions_pb.js";

export class StichError extends Error {
  /** The status code (Code.FailedPrecondition, ...). */
  readonly code: Code;
  /** ErrorInfo.reason: NOT_YOUR_TURN, MUST_FOLLOW_SUIT, TABLE_NOT_FOUND, ... (docs/errors.md). */
  readonly reason: string;
  /** The acting seat's legal actions, for a refused action ([] to any other seat). */
  readonly legal: Action[];
  /** How many legal actions there are when `legal` was cut to fit the trailers. */
  readonly legalCount: number;
  /** The request field that is wrong (INVALID_ARGUMENT), else "". */
  readonly field: string;
  /** The table's current version (STALE_VERSION), else undefined. */
  readonly version?: number;
  /** Every ErrorInfo metadata value as sent. */
  readonly metadata: Record<string, string>;
  readonly cause: ConnectError;

  constructor(err: ConnectError, reason: string, metadata: Record<string, string>) {
    super(metadata.message ?? err.rawMessage);
    this.name = new.target.name;
    this.code = err.code;
    this.reason = reason;
    this.metadata = metadata;
    this.cause = err;
    this.field = metadata.field ?? "";
    this.legal = metadata.legal
      ? (JSON.parse(metadata.legal) as JsonValue[]).map((a) => fromJson(ActionSchema, a as never))
      : [];
    this.legalCount = metadata.legal_count ? Number(metadata.legal_count) : this.legal.length;
    if (metadata.version !== undefined) this.version = Number(metadata.version);
  }
}

/** An action against the rules (FAILED_PRECONDITION with the engine's reason). */
export class IllegalActionError extends StichError {}
/** A malformed action or request (INVALID_ARGUMENT). */
export class InvalidRequestError extends StichError {}
/** A wrong or missing seat token, or an origin not allowed (PERMISSION_DENIED). */
export class PermissionDeniedError extends StichError {}
/** No such table or deal (NOT_FOUND). */
export class NotFoundError extends StichError {}
/** expected_version is not the table's version, or a concurrent writer won (ABORTED). */
export class StaleVersionError extends StichError {}
/** A stream limit (RESOURCE_EXHAUSTED). */
export class ResourceExhaustedError extends StichError {}
/** The call's deadline passed (DEADLINE_EXCEEDED) or the server is unreachable (UNAVAILABLE). */
export class UnavailableError extends StichError {}

const CLASSES: Partial<Record<Code, typeof StichError>> = {
  [Code.FailedPrecondition]: IllegalActionError,
  [Code.InvalidArgument]: InvalidRequestError,
  [Code.PermissionDenied]: PermissionDeniedError,
  [Code.NotFound]: NotFoundError,
  [Code.Aborted]: StaleVersionError,
  [Code.ResourceExhausted]: ResourceExhaustedError,
  [Code.DeadlineExceeded]: UnavailableError,
  [Code.Unavailable]: UnavailableError,
};

/** The StichError of anything a call threw (a ConnectError with or without an ErrorInfo). */
export function stichError(thrown: unknown): StichError {
  if (thrown instanceof StichError) return thrown;
  const err = ConnectError.from(thrown);
  const [info] = err.findDetails(ErrorInfoSchema);
  const cls = CLASSES[err.code] ?? StichError;
  return new cls(err, info?.reason ?? Code[err.code], { ...(info?.metadata ?? {}) });
}
