"""Python client of the stich gRPC service: `StichClient` (typed calls, deadlines by default,
a request id on every action, gRPC's own retries of idempotent calls, its own exception types),
`AsyncStichClient` (the same calls for asyncio) and the `stich` command. It installs
without the engine or the server (`pip install ./clients/python`)."""
from .aio import AsyncStichClient
from .client import Action, Event, Score, StichClient, TableHandle, View, new_request_id
from .errors import (ActionError, DataLossError, IllegalActionError, InvalidActionError,
                     InvalidRecordError, InvalidRequestError, NotFoundError, OptionError,
                     PermissionDeniedError, PreconditionError, ResourceExhaustedError, ServiceError,
                     StaleVersionError, StichError, UnavailableError)

__all__ = ["StichClient", "AsyncStichClient", "TableHandle", "View", "Event", "Score", "Action", "new_request_id",
           "StichError", "ServiceError", "InvalidRequestError", "OptionError", "InvalidRecordError",
           "PreconditionError", "ActionError", "InvalidActionError", "IllegalActionError",
           "NotFoundError", "PermissionDeniedError", "StaleVersionError", "ResourceExhaustedError",
           "DataLossError", "UnavailableError"]
__version__ = "0.1.0"
