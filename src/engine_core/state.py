"""The state of one deal, the same shape for all games (OpenSpiel's state machine with
pokerkit's explicit verify/can/do): `to_act`, `legal_actions`, `why_illegal`, `apply`, `view`,
`result`, `record`.

Actions at this edge are the records' JSON objects. Inside, each is one integer code (see
`_game.pxd`) handled by the game's Cython core; this module only translates and explains.
A malformed action raises InvalidActionError, one the rules forbid IllegalActionError; both
carry a reason id and the legal alternatives, and change nothing.
"""
from __future__ import annotations

from typing import Any

from ._codes import CALL_BASE, EXCHANGE_BASE, exchange_call, exchange_code, exchange_mask
from .cards import SUITS
from .errors import ActionError, IllegalActionError, InvalidActionError

ACTION_TYPES = ("bid", "exchange", "announce", "play")
_FIELDS = {"bid": ("call",), "announce": ("call",), "exchange": ("call", "cards"), "play": ("card",)}
_OPTIONAL = {"bid": ("suit",)}

# the reason ids of the checks made here, before a game's own rules (docs/errors.md)
REASONS = {
    "NOT_AN_OBJECT": "an action must be a JSON object",
    "MISSING_FIELD": "a field the action type needs is missing",
    "UNEXPECTED_FIELD": "the action has a field its type does not have",
    "BAD_SEAT": "'seat' is not a seat number of this game",
    "UNKNOWN_TYPE": "'type' is not bid, exchange, announce or play",
    "BAD_CARD": "a card code is not one of this deck",
    "BAD_CARDS": "'cards' is not a list of card codes",
    "UNKNOWN_CALL": "the call name does not exist for this action type",
    "BAD_SUIT": "'suit' is not C, S, H or D",
    "CALL_TAKES_NO_SUIT": "the call names no suit",
    "CALL_NEEDS_SUIT": "the call needs a suit",
    "NO_SUCH_CALL": "the call does not exist with that suit",
    "DEAL_OVER": "the deal is over",
    "NOT_YOUR_TURN": "another seat is to act",
    "SITS_OUT": "the seat sits out this deal (six-handed Sheepshead's dealer_sits_out): it has no cards and no turn",
    "WRONG_PHASE": "this action type is not part of the current phase",
    "CARD_NOT_IN_HAND": "the card is not in the acting seat's hand",
    "CARDS_NOT_IN_HAND": "an exchanged card is not in the acting seat's hand",
}


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

    def legal_actions(self, seat: int | None = None) -> list[dict]:
        """Every legal action of the seat to act, as record action objects ([] when over); with
        `seat`, that seat's: the seat to act's, or what another seat may take out of turn
        (Core.interjections: Doppelkopf's announcements under `announcements: "any_time"`)."""
        core = self.core
        if seat is None or seat == core.to_act():
            return [self._decode(c) for c in core.legal_codes()]
        return [self._decode(c, seat) for c in core.interjections(seat)]

    def why_illegal(self, action: Any) -> str | None:
        """None if `action` is legal now, else the reason a player would be told."""
        try:
            self.encode(action)
        except ActionError as err:
            return err.reason
        return None

    def result(self) -> dict | None:
        """The records.md Result with its itemised breakdown, or None while in progress."""
        return self.core.result()

    def result_for(self, seat: int | None) -> dict | None:
        """The Result as `seat` (None: a spectator) may see it: face-down cards that the seat
        did not handle stay hidden ("??") for ever (docs/records.md, "What each seat sees")."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < self.game.seats):
            raise ValueError(f"seat must be 0..{self.game.seats - 1} or None, got {seat!r}")
        result = self.core.result()
        if result is None:
            return None
        return self.game.spec.rules.redact_result(self.core, result, seat)

    def view(self, seat: int | None) -> dict:
        """What `seat` may see: its own hand sorted trumps-first (as much of it as the seat has
        seen: only its first packet in the game's sight phase, `Core.unseen`), public history,
        and its legal actions when it is to act. Never another seat's hidden cards. `seat=None`
        is the spectator's view: public information only."""
        core = self.core
        deck = self.game.deck
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < self.game.seats):
            raise ValueError(f"seat must be 0..{self.game.seats - 1} or None, got {seat!r}")
        to_act = self.to_act()
        out = {
            "game": self.game.name,
            "seat": seat,
            "dealer": self.dealer,
            "phase": core.phase(),
            "to_act": to_act,
            "hand": [] if seat is None else [deck.code(i) for i in core.sort_cards(core.hand(seat) & ~core.unseen(seat))],
            "legal": [] if seat is None else self.legal_actions(seat),
            "actions": [core.redact(i, a, seat) for i, a in enumerate(self.actions)],
            "order": core.order_codes() if self._in_play() else None,
            "points": core.points_by_code(),
            "sides": None if seat is None else _seats_of(core.sides(seat), self.game.seats),
        }
        out.update(core.public(seat))
        out["hidden"] = core.hidden(seat)
        if core.is_over():
            out["result"] = self.result_for(seat)
        return out

    def _in_play(self) -> bool:
        """The card play has begun (or is over after cards were played): the card order is fixed
        and public from then on."""
        if "play" in self.core.phase_kinds():
            return True
        return self.core.is_over() and any(a["type"] == "play" for a in self.actions)

    def record(self) -> dict:
        """The records.md record of this deal so far (options fully resolved)."""
        rec = {"game": self.game.name, "options": self.game.options.as_dict(), "dealer": self.dealer,
               "hands": [list(h) for h in self.hands]}
        if self.game.spec.blind_size:
            rec["blind"] = list(self.blind)
        rec["actions"] = [_clone(a) for a in self.actions]
        return rec

    def copy(self) -> "State":
        other = State(self.game, self.core.copy(), self.dealer, self.hands, self.blind)
        other.actions = list(self.actions)
        return other

    # ---- actions ---------------------------------------------------------------------------
    def apply(self, action: Any) -> None:
        """Apply a legal action; raise InvalidActionError (malformed) or IllegalActionError
        (against the rules) and change nothing otherwise."""
        code = self.encode(action)
        if action["seat"] == self.core.to_act():
            self.core.apply(code)
        else:                                  # encode allowed it as an interjection
            self.core.interject(action["seat"], code)
        self.actions.append(_clone(action))

    def apply_code(self, code: int) -> dict:
        """Apply an action given as its engine code (bots, search); returns its record form."""
        if isinstance(code, bool) or not isinstance(code, int) or not self.core.is_legal(code):
            raise IllegalActionError(f"action code {code!r} is not legal now", self.legal_actions(),
                                     reason_id="ILLEGAL_CODE")
        action = self._decode(code)
        self.core.apply(code)
        self.actions.append(action)
        return action

    def decode(self, code: int) -> dict:
        """The record action object of an engine action code (for the seat to act)."""
        if isinstance(code, bool) or not isinstance(code, int) or not self._is_code(code):
            raise ValueError(f"{code!r} is the code of no {self.game.name} action")
        return self._decode(code)

    def _decode(self, code: int, seat: int | None = None) -> dict:
        """decode() of a code the engine produced (a legal code; `seat`: the seat taking it,
        by default the seat to act): no check on the hot path."""
        spec, deck = self.game.spec, self.game.deck
        if seat is None:
            seat = self.core.to_act()
        if code < CALL_BASE:
            return {"seat": seat, "type": "play", "card": deck.code(code)}
        if code < EXCHANGE_BASE:
            kind, call, suit = spec.calls[code - CALL_BASE]
            action = {"seat": seat, "type": kind, "call": call}
            if suit is not None:
                action["suit"] = suit
            return action
        call = spec.exchanges[exchange_call(code)]
        return {"seat": seat, "type": "exchange", "call": call, "cards": deck.codes(exchange_mask(code))}

    def _is_code(self, code: int) -> bool:
        """Whether `code` lies in a band of the layout (_codes) and names one of this game's
        cards, calls or exchanges."""
        spec, size = self.game.spec, self.game.deck.size
        if 0 <= code < size:
            return True
        if CALL_BASE <= code < CALL_BASE + len(spec.calls):
            return True
        if EXCHANGE_BASE <= code < 1 << 63:
            mask = exchange_mask(code)
            return 0 <= exchange_call(code) < len(spec.exchanges) and mask >> size == 0
        return False

    def encode(self, action: Any) -> int:
        """The engine code of a legal action; InvalidActionError / IllegalActionError saying what
        is wrong otherwise.

        Checks run from the shape of the object to the rules, so the reason names the first
        thing a player would need to fix."""
        core = self.core
        seats = self.game.seats
        if not isinstance(action, dict):
            self._malformed("NOT_AN_OBJECT", "an action must be a JSON object with 'seat', 'type' and "
                            f"the fields of its type, got {_short(action)}")
        if "seat" not in action:
            self._malformed("MISSING_FIELD", "missing field 'seat'")
        seat = action["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            self._malformed("BAD_SEAT", f"'seat' must be an integer 0..{seats - 1}, got {_short(seat)}")
        # from here on a shape error lists the legal actions only to the seat that is to act
        # (or to a seat that may act out of turn: its own)
        own = core.legal_codes() if seat == core.to_act() else core.interjections(seat) or None
        if "type" not in action:
            self._malformed("MISSING_FIELD", "missing field 'type'", own, seat)
        kind = action["type"]
        if not isinstance(kind, str) or kind not in ACTION_TYPES:
            self._malformed("UNKNOWN_TYPE", f"unknown action type {_short(kind)}; types are "
                            f"{', '.join(ACTION_TYPES)}", own, seat)
        for name in _FIELDS[kind]:
            if name not in action:
                self._malformed("MISSING_FIELD", f"missing field {name!r} in a {kind} action", own, seat)
        allowed = {"seat", "type", *_FIELDS[kind], *_OPTIONAL.get(kind, ())}
        for name in action:
            if name not in allowed:
                self._malformed("UNEXPECTED_FIELD", f"unexpected field {_short(name)} in a {kind} action", own, seat)
        if core.is_over():
            raise IllegalActionError("the deal is over", reason_id="DEAL_OVER")
        to_act = core.to_act()
        if seat != to_act and seat == self.game.sits_out(self.dealer):
            raise IllegalActionError(f"seat {seat} deals and sits out this deal: it has no cards and takes "
                                     f"no action (seat {to_act} is to act)", reason_id="SITS_OUT")
        if seat != to_act:
            return self._interjection(kind, action, seat, to_act)
        legal = core.legal_codes()
        try:                                   # the common case: a legal action
            code = self._encode_fields(kind, action, seat, legal)
        except ActionError:
            code = None
        if code in legal:
            return code
        kinds_now = sorted({_kind(c, self.game.spec) for c in legal})
        if kind not in kinds_now and kind not in core.phase_kinds():
            article = "an" if kind[0] in "aeiou" else "a"
            self._refuse("WRONG_PHASE", f"{article} {kind} action is not allowed in the {core.phase()} "
                         f"phase; seat {seat} must {' or '.join(kinds_now)}", legal)
        code = self._encode_fields(kind, action, seat, legal)
        if code in legal:
            return code
        self._refuse(*core.explain(code), legal)

    def _interjection(self, kind: str, action: dict, seat: int, to_act: int) -> int:
        """The code of an action by a seat that is not to act: legal only as one of its
        interjections (Core.interjections), else NOT_YOUR_TURN, naming what it may do."""
        extra = self.core.interjections(seat)
        if not extra:
            raise IllegalActionError(f"seat {seat} is not to act: seat {to_act} is", reason_id="NOT_YOUR_TURN")
        own = [self._decode(c, seat) for c in extra]
        kinds = sorted({a["type"] for a in own})
        if kind in kinds:
            try:
                code = self._encode_fields(kind, action, seat, extra)
            except ActionError as err:         # the same reason, with the seat's own alternatives
                raise type(err)(err.reason, own, reason_id=err.reason_id) from None
            if code in extra:
                return code
        raise IllegalActionError(f"seat {seat} is not to act: seat {to_act} is; out of turn seat {seat} may "
                                 f"only {' or '.join(kinds)} {describe(own)}", own, reason_id="NOT_YOUR_TURN")

    def _encode_fields(self, kind: str, action: dict, seat: int, legal: list[int]) -> int:
        spec, deck, hand = self.game.spec, self.game.deck, self.core.hand(seat)
        if kind == "play":
            card = action["card"]
            try:
                index = deck.index_in(card, hand)
            except ValueError as err:
                self._malformed("BAD_CARD", str(err), legal)
            if not hand >> index & 1:
                self._refuse("CARD_NOT_IN_HAND", f"{card} is not in seat {seat}'s hand", legal)
            return index
        call = action["call"]
        if kind == "exchange":
            if not isinstance(call, str) or call not in spec.exchanges:
                known = ", ".join(spec.exchanges) or "none in this game"
                self._malformed("UNKNOWN_CALL", f"unknown exchange call {_short(call)}; exchange calls "
                                f"are {known}", legal)
            cards = action["cards"]
            if not isinstance(cards, list):
                self._malformed("BAD_CARDS", f"'cards' must be a list of card codes, got {_short(cards)}", legal)
            try:
                mask = deck.mask_of(cards, within=hand)
            except (ValueError, TypeError) as err:
                self._malformed("BAD_CARD", str(err), legal)
            missing = mask & ~hand
            if missing:
                self._refuse("CARDS_NOT_IN_HAND", f"{', '.join(deck.codes(missing))} not in seat "
                             f"{seat}'s hand", legal)
            return exchange_code(spec.exchanges.index(call), mask)
        known = [(i, s) for i, (k, c, s) in enumerate(spec.calls) if k == kind and c == call]
        if not known:
            calls = sorted({c for k, c, _ in spec.calls if k == kind})
            self._malformed("UNKNOWN_CALL", f"unknown {kind} call {_short(call)}; {kind} calls are "
                            f"{', '.join(calls) or 'none in this game'}", legal)
        suits = {s: i for i, s in known}
        suit = action.get("suit")
        if not (suit is None or isinstance(suit, str)) or suit not in suits:
            if None in suits:
                self._malformed("CALL_TAKES_NO_SUIT", f"the call {call!r} takes no suit", legal)
            if "suit" not in action:
                self._malformed("CALL_NEEDS_SUIT", f"the call {call!r} needs a 'suit' "
                                f"({', '.join(s for s in suits)})", legal)
            if not isinstance(suit, str) or suit not in tuple(SUITS):
                self._malformed("BAD_SUIT", f"bad suit {_short(suit)}: a suit is one of C, S, H, D", legal)
            self._malformed("NO_SUCH_CALL", f"{call!r} cannot name suit {suit}; possible suits: "
                            f"{', '.join(suits)}", legal)
        return CALL_BASE + suits[suit]

    def _alternatives(self, legal: list[int] | None, seat: int | None = None) -> list[dict]:
        if legal is None:
            legal = self.core.legal_codes()
        return [self._decode(c, seat) for c in legal]

    def _malformed(self, reason_id: str, reason: str, legal: list[int] | None = None, seat: int | None = None):
        """A malformed action: the legal alternatives are told only once the action's seat is
        known to be the one to act (legal actions are private to that seat)."""
        actions = self._alternatives(legal, seat) if legal is not None else []
        raise InvalidActionError(_with_legal(reason, actions), actions, reason_id=reason_id)

    def _refuse(self, reason_id: str, reason: str, legal: list[int] | None = None):
        actions = self._alternatives(legal)
        raise IllegalActionError(_with_legal(reason, actions), actions, reason_id=reason_id)


def _seats_of(masks: tuple[int, int], seats: int) -> dict:
    """{"partners": [...], "opponents": [...]} of a game hook's (partners, opponents) masks."""
    partners, opponents = masks
    return {"partners": [s for s in range(seats) if partners >> s & 1],
            "opponents": [s for s in range(seats) if opponents >> s & 1]}


def _with_legal(reason: str, actions: list[dict]) -> str:
    return f"{reason}; legal: {describe(actions)}" if actions else reason


def _clone(action: dict) -> dict:
    """A copy of a (validated) action object: its only mutable field is the `cards` list."""
    return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}


def _kind(code: int, spec) -> str:
    if code < CALL_BASE:
        return "play"
    if code < EXCHANGE_BASE:
        return spec.calls[code - CALL_BASE][0]
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
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."
