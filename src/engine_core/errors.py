"""Errors split by cause, so callers (CLI, service) can map each to one response."""


class StichError(Exception):
    """Base of every error the engine raises on purpose."""


class OptionError(StichError, ValueError):
    """An unknown game, an unknown option, or an option value outside its allowed values."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class InvalidRecordError(StichError, ValueError):
    """A record (or a request shaped like one) is malformed; `field` names where, e.g. `hands[2][5]`."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason


class IllegalActionError(StichError, ValueError):
    """An action is not allowed now. `reason` says why, `legal` lists what is allowed
    (empty when the deal is over or the action is not the asker's to take), `index` is the
    action's position in a record when replaying one."""

    def __init__(self, reason: str, legal=(), index=None):
        self.reason = reason
        self.legal = list(legal)
        self.index = index
        super().__init__(self._message())

    def _message(self) -> str:
        prefix = f"actions[{self.index}]: " if self.index is not None else ""
        return prefix + self.reason

    def at(self, index: int) -> "IllegalActionError":
        """The same error, located at a record index."""
        return IllegalActionError(self.reason, self.legal, index)
