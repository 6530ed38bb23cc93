"""Errors split by cause (python-chess's IllegalMoveError / InvalidMoveError), so that callers
(the CLI, the service) map each to one answer. Action errors carry a stable reason id
(`reason_id`, e.g. "MUST_FOLLOW_SUIT"; docs/errors.md lists them) next to the text."""


class StichError(Exception):
    """Base of every error the engine raises on purpose."""


class OptionError(StichError, ValueError):
    """An unknown game, an unknown option, or an option value outside its allowed values."""

    reason_id = "BAD_OPTION"

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class InvalidRecordError(StichError, ValueError):
    """A record (or a request shaped like one) is malformed; `field` names where, e.g. `hands[2][5]`."""

    reason_id = "INVALID_RECORD"

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason


class ActionError(StichError, ValueError):
    """An action was refused. `reason` says why (text), `reason_id` names the rule or the defect
    (stable), `legal` lists what is allowed now (empty when the deal is over or the action is
    not the asker's to take), `index` is the action's position in a record when replaying one.
    Nothing changed."""

    def __init__(self, reason: str, legal=(), index=None, reason_id: str = "ILLEGAL_ACTION"):
        self.reason = reason
        self.reason_id = reason_id
        self.legal = list(legal)
        self.index = index
        super().__init__(self._message())

    def _message(self) -> str:
        prefix = f"actions[{self.index}]: " if self.index is not None else ""
        return prefix + self.reason

    def at(self, index: int) -> "ActionError":
        """The same error, located at a record index."""
        return type(self)(self.reason, self.legal, index, self.reason_id)


class InvalidActionError(ActionError):
    """An action that is not well formed: not an object, a missing or unknown field, a bad
    seat, card code or call name."""


class IllegalActionError(ActionError):
    """A well-formed action that the rules do not allow now (not the seat's turn, must follow
    suit, a bid that does not outbid, ...)."""
