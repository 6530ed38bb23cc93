"""Rule options: each game's option table (from its rules file) as data, validated once.

An option is `supported` (changes the rules), `informational` (stored, used by the match
layer, e.g. `deals_per_match`), `match_state` (a deal's state that the match sets from the deals
before it, e.g. a doubler's multiplier, the Stock's pot, the bock rounds due: checked, stored and
scored like a supported option, but not a rule a table chooses, so a rules switch leaves it
out) or `listed_only` (named by the rules file but not part of the ruleset: accepted only at
its off value and never stored). Anything else is an error.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .errors import OptionError


@dataclass(frozen=True)
class OptionSpec:
    name: str
    kind: str                      # "bool" | "int" | "choice" | "int_list"
    default: Any
    description: str
    allowed: tuple = ()            # for "choice" (and restricted "int")
    minimum: int | None = None     # for "int" and "int_list" entries
    maximum: int | None = None     # for "int" and "int_list" entries: every score fits 64 bits
    status: str = "supported"      # "supported" | "informational" | "match_state" | "listed_only"

    def check(self, value: Any) -> Any:
        where = f"options.{self.name}"
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError(where, f"must be true or false, got {_short(value)}")
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(where, f"must be an integer, got {_short(value)}")
            if not self._in_range(value):
                raise OptionError(where, f"must be an integer {self._range()}, got {_short(value)}")
            if self.allowed and value not in self.allowed:
                raise OptionError(where, f"must be one of {list(self.allowed)}, got {_short(value)}")
        elif self.kind == "choice":
            if value not in self.allowed or isinstance(value, bool):
                raise OptionError(where, f"must be one of {list(self.allowed)}, got {_short(value)}")
        elif self.kind == "int_list":
            # stored as a tuple so that Options stays hashable; as_dict gives a list back
            if not isinstance(value, (list, tuple)) or not value or any(
                    isinstance(v, bool) or not isinstance(v, int) for v in value):
                raise OptionError(where, f"must be a non-empty list of integers, got {_short(value)}")
            if len(value) > 32 or not all(self._in_range(v) for v in value):
                raise OptionError(where, f"must be a list of at most 32 integers {self._range()}, "
                                         f"got {_short(list(value))}")
            value = tuple(value)
        if self.status == "listed_only" and value != self.default:
            raise OptionError(where, f"is listed by the rules but not part of this ruleset; "
                                     f"only {self.default!r} is allowed")
        return value

    def _in_range(self, value: int) -> bool:
        return ((self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum))

    def _range(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f"{self.minimum}..{self.maximum}"
        if self.minimum is not None:
            return f">= {self.minimum}"
        if self.maximum is not None:
            return f"<= {self.maximum}"
        return ""

    def schema(self) -> dict:
        """The option as ListGames and the README describe it."""
        out = {"name": self.name, "type": self.kind, "default": self.default,
               "description": self.description, "status": self.status}
        if self.allowed:
            out["allowed"] = list(self.allowed)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


@dataclass(frozen=True)
class Options:
    """A game's options fully resolved (defaults filled in); immutable and hashable."""

    game: str
    values: tuple = field(default=())   # ((name, value), ...) in option-table order
    # the game's default values, as games.get resolves them (for __str__); not part of equality
    defaults: tuple = field(default=(), compare=False, hash=False, repr=False)

    def __getattr__(self, name: str) -> Any:
        for key, value in object.__getattribute__(self, "values"):
            if key == name:
                return value
        raise AttributeError(name)

    def as_dict(self) -> dict:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.values}

    def __str__(self) -> str:
        """Canonical form for logs and test ids, e.g. `schafkopf(ramsch=true)`: only
        values that differ from the defaults (as the game resolves them)."""
        defaults = dict(self.defaults)
        diff = [f"{k}={_text(v)}" for k, v in self.values if k not in defaults or defaults[k] != v]
        return f"{self.game}({','.join(diff)})"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "-".join(map(str, value))
    return str(value)


def resolve(game: str, specs: tuple[OptionSpec, ...], given: Mapping[str, Any] | None) -> Options:
    """Validate `given` against the option table and fill in defaults."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise OptionError("options", f"must be an object of option names and values, got {_short(given)}")
    given = dict(given)
    by_name = {s.name: s for s in specs}
    for name in given:
        if not isinstance(name, str) or name not in by_name:
            known = ", ".join(s.name for s in specs if s.status != "listed_only")
            raise OptionError(f"options.{_short(name, 40)}", f"unknown option for {game}; known options: {known}")
    values = []
    for spec in specs:
        value = spec.check(given[spec.name]) if spec.name in given else spec.default
        if spec.status != "listed_only":
            values.append((spec.name, value))
    return Options(game, tuple(values))


def _short(value: Any, limit: int = 60) -> str:
    """A value as an error message may echo it: its repr, cut to `limit` characters."""
    try:
        text = value if isinstance(value, str) and limit == 40 else repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."
