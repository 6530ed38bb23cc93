"""The state of one deal, the same shape for all four games (OpenSpiel's state machine with
pokerkit's explicit verify/can/do): `to_act`, `legal_actions`, `why_illegal`, `apply`, `view`,
`result`, `record`.

Actions at this edge are the records' JSON objects. Inside, each is one integer code (see
`_core.pxd`) handled by the game's Cython core; this module only translates and explains.
"""
from __future__ import annotations

from typing import Any

from .cards import SUITS, iter_bits
from .errors import IllegalActionError

ACTION_TYPES = ("bid", "exchange", "announce", "play")
_FIELDS = {"bid": ("call",), "announce": ("call",), "exchange": ("call", "cards"), "play": ("card",)}
_OPTIONAL = {"bid": ("suit",)}
CALL_BASE, EXCHANGE_BASE = 64, 128


class State:
    """One deal in progress or finished. Create it with `Game.deal`, `Game.new_deal` or
    `records.replay`; never share one between threads without a lock."""

    __slots__ = ("game", "core", "dealer", "hands", "blind", "actions")

    def __init__(self, game, core, dealer: int, hands: list[list[str]], blind: list[str]):
        self.game = game
        self.core = core
        self.dealer = dealer
        self.hands = hands
        self.blind = blind
        self.actions: list[dict] = []

    # ---- queries -------------------------------------------------------------------------
    def to_act(self) -> int | None:
        """The seat to act, or None when the deal is over."""
        seat = self.core.to_act()
        return None if seat < 0 else seat

    def is_over(self) -> bool:
        return self.core.is_over()

    def phase(self) -> str:
        return self.core.phase()

    def legal_actions(self) -> list[dict]:
        """Every legal action of the seat to act, as record action objects ([] when over)."""
        return [self.decode(c) for c in self.core.legal_codes()]

    def why_illegal(self, action: Any) -> str | None:
        """None if `action` is legal now, else the reason a player would be told."""
        try:
            self.encode(action)
        except IllegalActionError as err:
            return err.reason
        return None

    def result(self) -> dict | None:
        """The records.md Result with its itemised breakdown, or None while in progress."""
        return self.core.result() if self.core.is_over() else None

    def view(self, seat: int) -> dict:
        """What `seat` may see: its own hand sorted trumps-first, public history, and its
        legal actions when it is to act. Never another seat's hidden cards."""
        core = self.core
        deck = self.game.deck
        to_act = self.to_act()
        out = {
            "game": self.game.name,
            "seat": seat,
            "dealer": self.dealer,
            "phase": core.phase(),
            "to_act": to_act,
            "hand": [deck.code(i) for i in core.sort_cards(core.hand(seat))],
            "legal": self.legal_actions() if to_act == seat else [],
            "actions": [core.redact(i, a, seat) for i, a in enumerate(self.actions)],
        }
        out.update(core.public(seat))
        return out

    def record(self) -> dict:
        """The records.md record of this deal so far (options fully resolved)."""
        rec = {"game": self.game.name, "options": self.game.options.as_dict(), "dealer": self.dealer,
               "hands": [list(h) for h in self.hands]}
        if self.game.rules.BLIND_SIZE:
            rec["blind"] = list(self.blind)
        rec["actions"] = [_clone(a) for a in self.actions]
        return rec

    def copy(self) -> "State":
        other = State(self.game, self.core.copy(), self.dealer, self.hands, self.blind)
        other.actions = list(self.actions)
        return other

    # ---- actions ---------------------------------------------------------------------------
    def apply(self, action: Any) -> None:
        """Apply a legal action; raise IllegalActionError(reason, legal) and change nothing
        otherwise."""
        code = self.encode(action)
        self.core.apply(code)
        self.actions.append(_clone(action))

    def apply_code(self, code: int) -> dict:
        """Apply an action given as its engine code (bots, search); returns its record form."""
        if not self.core.is_legal(code):
            raise IllegalActionError(f"action code {code} is not legal now", self.legal_actions())
        action = self.decode(code)
        self.core.apply(code)
        self.actions.append(action)
        return action

    def decode(self, code: int) -> dict:
        """The record action object of an engine action code (for the seat to act)."""
        rules, deck = self.game.rules, self.game.deck
        seat = self.core.to_act()
        if code < CALL_BASE:
            return {"seat": seat, "type": "play", "card": deck.code(code)}
        if code < EXCHANGE_BASE:
            kind, call, suit = rules.CALLS[code - CALL_BASE]
            action = {"seat": seat, "type": kind, "call": call}
            if suit is not None:
                action["suit"] = suit
            return action
        call = rules.EXCHANGES[(code & 0xFF) - EXCHANGE_BASE]
        return {"seat": seat, "type": "exchange", "call": call, "cards": deck.codes(code >> 8)}

    def encode(self, action: Any) -> int:
        """The engine code of a legal action; IllegalActionError saying what is wrong otherwise.

        Checks run from the shape of the object to the rules, so the reason names the first
        thing a player would need to fix."""
        core = self.core
        seats = self.game.rules.SEATS
        if not isinstance(action, dict):
            self._refuse("an action must be a JSON object with 'seat', 'type' and the fields "
                         f"of its type, got {_short(action)}")
        if "seat" not in action:
            self._refuse("missing field 'seat'")
        seat = action["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            self._refuse(f"'seat' must be an integer 0..{seats - 1}, got {_short(seat)}")
        if "type" not in action:
            self._refuse("missing field 'type'")
        kind = action["type"]
        if kind not in ACTION_TYPES:
            self._refuse(f"unknown action type {_short(kind)}; types are {', '.join(ACTION_TYPES)}")
        for name in _FIELDS[kind]:
            if name not in action:
                self._refuse(f"missing field {name!r} in a {kind} action")
        allowed = {"seat", "type", *_FIELDS[kind], *_OPTIONAL.get(kind, ())}
        for name in action:
            if name not in allowed:
                self._refuse(f"unexpected field {name!r} in a {kind} action")
        if core.is_over():
            raise IllegalActionError("the deal is over")
        to_act = core.to_act()
        if seat != to_act:
            raise IllegalActionError(f"seat {seat} is not to act: seat {to_act} is")
        legal = core.legal_codes()
        try:                                   # the common case: a legal action
            code = self._encode_fields(kind, action, seat, legal)
        except IllegalActionError:
            code = None
        if code in legal:
            return code
        kinds_now = sorted({_kind(c, self.game.rules) for c in legal})
        # A core may name the kinds its phase knows (e.g. Doppelkopf announcements in play even
        # when none is legal now), so that its own explain() gives the precise reason.
        phase_kinds = core.phase_kinds() if hasattr(core, "phase_kinds") else kinds_now
        if kind not in kinds_now and kind not in phase_kinds:
            article = "an" if kind[0] in "aeiou" else "a"
            self._refuse(f"{article} {kind} action is not allowed in the {core.phase()} phase; "
                         f"seat {seat} must {' or '.join(kinds_now)}", legal)
        code = self._encode_fields(kind, action, seat, legal)
        if code in legal:
            return code
        self._refuse(core.explain(code), legal)

    def _encode_fields(self, kind: str, action: dict, seat: int, legal: list[int]) -> int:
        rules, deck, hand = self.game.rules, self.game.deck, self.core.hand(seat)
        if kind == "play":
            card = action["card"]
            try:
                index = deck.index_in(card, hand)
            except ValueError as err:
                self._refuse(str(err), legal)
            if not hand >> index & 1:
                self._refuse(f"{card} is not in seat {seat}'s hand", legal)
            return index
        call = action["call"]
        if kind == "exchange":
            if call not in rules.EXCHANGES:
                self._refuse(f"unknown exchange call {_short(call)}; exchange calls are "
                             f"{', '.join(rules.EXCHANGES)}", legal)
            cards = action["cards"]
            if not isinstance(cards, list):
                self._refuse(f"'cards' must be a list of card codes, got {_short(cards)}", legal)
            try:
                mask = deck.mask_of(cards, within=hand)
            except (ValueError, TypeError) as err:
                self._refuse(str(err), legal)
            missing = mask & ~hand
            if missing:
                self._refuse(f"{', '.join(deck.codes(missing))} not in seat {seat}'s hand", legal)
            return (mask << 8) | (EXCHANGE_BASE + rules.EXCHANGES.index(call))
        known = [(i, s) for i, (k, c, s) in enumerate(rules.CALLS) if k == kind and c == call]
        if not known:
            calls = sorted({c for k, c, _ in rules.CALLS if k == kind})
            self._refuse(f"unknown {kind} call {_short(call)}; {kind} calls are {', '.join(calls)}",
                         legal)
        suits = {s: i for i, s in known}
        suit = action.get("suit")
        if suit not in suits:
            if None in suits:
                self._refuse(f"the call {call!r} takes no suit", legal)
            if "suit" not in action:
                self._refuse(f"the call {call!r} needs a 'suit' ({', '.join(s for s in suits)})", legal)
            if suit not in tuple(SUITS):
                self._refuse(f"bad suit {_short(suit)}: a suit is one of C, S, H, D", legal)
            self._refuse(f"{call!r} cannot name suit {suit}; possible suits: {', '.join(suits)}",
                         legal)
        return CALL_BASE + suits[suit]

    def _refuse(self, reason: str, legal: list[int] | None = None):
        codes = self.core.legal_codes() if legal is None else legal
        actions = [self.decode(c) for c in codes]
        if actions:
            reason = f"{reason}; legal: {describe(actions)}"
        raise IllegalActionError(reason, actions)


def _clone(action: dict) -> dict:
    """A copy of a (validated) action object: its only mutable field is the `cards` list."""
    return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}


def _kind(code: int, rules) -> str:
    if code < CALL_BASE:
        return "play"
    if code < EXCHANGE_BASE:
        return rules.CALLS[code - CALL_BASE][0]
    return "exchange"


def describe(actions: list[dict], limit: int = 12) -> str:
    """A short human list of actions: `9D, KD` or `pass, rufspiel D`."""
    parts = []
    for a in actions[:limit]:
        if a["type"] == "play":
            parts.append(a["card"])
        elif a["type"] == "exchange":
            parts.append(f"{a['call']} {' '.join(a['cards'])}")
        else:
            parts.append(a["call"] + (f" {a['suit']}" if "suit" in a else ""))
    if len(actions) > limit:
        parts.append(f"… ({len(actions)} in all)")
    return ", ".join(parts)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
