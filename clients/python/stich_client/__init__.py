"""Python client of the stich gRPC service: `StichClient` (typed calls, deadlines by default,
errors raised as the engine's exception types) and the `stich` command."""
from .client import Action, Event, Score, StichClient, TableHandle, View
from .errors import (NotFoundError, PermissionDeniedError, ServiceError, StaleVersionError,
                     InvalidRequestError)

__all__ = ["StichClient", "TableHandle", "View", "Event", "Score", "Action", "ServiceError", "NotFoundError", "PermissionDeniedError",
           "StaleVersionError", "InvalidRequestError"]
