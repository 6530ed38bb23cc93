"""Python names derived from a game's cpdef enums, so that each name is declared once.

Every member carries its enum's prefix (`K_` contracts, `P_` phases, `I_` breakdown items,
`W_` field keys and words, `X_` exchanges); calls are `BID_<CALL>[_<SUIT>]` or
`ANNOUNCE_<CALL>`. The Python name is the rest, lower-cased: `K_WENZ_TOUT` -> "wenz_tout",
`BID_RUFSPIEL_D` -> ("bid", "rufspiel", "D").
"""
from __future__ import annotations

_KINDS = {"BID": "bid", "ANNOUNCE": "announce"}


def _members(enum) -> list:
    members = sorted(enum, key=int)
    if [int(m) for m in members] != list(range(len(members))):
        raise ValueError(f"{enum.__name__}: values must be 0..n-1 in order")
    return members


def names(enum, prefix: str) -> tuple[str, ...]:
    """The lower-case names of an enum's members by value, without their prefix."""
    out = []
    for m in _members(enum):
        if not m.name.startswith(prefix):
            raise ValueError(f"{enum.__name__}.{m.name} lacks the prefix {prefix}")
        out.append(m.name[len(prefix):].lower())
    return tuple(out)


def calls(enum) -> tuple[tuple[str, str, str | None], ...]:
    """(type, call, suit) of every member of a Call enum by value."""
    out = []
    for m in _members(enum):
        kind, _, rest = m.name.partition("_")
        if kind not in _KINDS or not rest:
            raise ValueError(f"{enum.__name__}.{m.name}: a call is BID_... or ANNOUNCE_...")
        call, suit = rest, None
        if len(rest) > 2 and rest[-2] == "_" and rest[-1] in "CSHD":
            call, suit = rest[:-2], rest[-1]
        out.append((_KINDS[kind], call.lower(), suit))
    return tuple(out)
