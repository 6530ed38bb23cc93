# cython: language_level=3
"""The action-code layout of `_game.pxd` for Python: the same constants and helpers, so that
the layout is declared once (state.py, the bots and the tools read it here)."""
from ._bits cimport u64, i64
from ._game cimport (CALL_BASE as _CALL_BASE, MAX_CALLS as _MAX_CALLS, EXCHANGE_BASE as _EXCHANGE_BASE,
                     EXCHANGE_SHIFT as _EXCHANGE_SHIFT, MAX_EXCHANGES as _MAX_EXCHANGES)

CALL_BASE = _CALL_BASE
MAX_CALLS = _MAX_CALLS
EXCHANGE_BASE = _EXCHANGE_BASE
EXCHANGE_SHIFT = _EXCHANGE_SHIFT
MAX_EXCHANGES = _MAX_EXCHANGES
_LOW = (1 << _EXCHANGE_SHIFT) - 1


def exchange_code(int call, u64 mask) -> int:
    """The code of exchange number `call` (the game's Exchange enum) with the cards of `mask`."""
    return <i64>((mask << _EXCHANGE_SHIFT) | <u64>(_EXCHANGE_BASE + call))


def exchange_call(i64 code) -> int:
    """The Exchange enum value of an exchange code."""
    return <int>(code & _LOW) - _EXCHANGE_BASE


def exchange_mask(i64 code) -> int:
    """The cards' mask of an exchange code."""
    return (<u64>code) >> _EXCHANGE_SHIFT


def kind(i64 code) -> str:
    """"play", "call" or "exchange": the band a code lies in."""
    if code < _CALL_BASE:
        return "play"
    if code < _EXCHANGE_BASE:
        return "call"
    return "exchange"
