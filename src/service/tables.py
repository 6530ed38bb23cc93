"""Tables: a match of one game at one table, its seats, tokens, versions and events.

The table manager owns every table; each table has one lock (a Condition, so watchers can
wait for new versions). A request is judged and carried out on a copy of the deal, written
to the store, and only then made the table's state: after an error nothing has changed.

Versions: 1 is the table's creation; every deal started and every accepted action (a bot's
too) adds one. Replaying the stored records gives the same versions, so clients resume
after a restart as if nothing happened.

Bots play from their own seat's view only: a uniform random choice among `view["legal"]`,
seeded by table id and version, and act as soon as it is their turn (inside the request
that made it their turn).
"""
from __future__ import annotations

import hashlib
import logging
import random
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from engine_core import games
from engine_core.cards import SUITS
from engine_core.errors import StichError
from engine_core.match import after_deal, deal_seed

from . import errors
from .store import Store

log = logging.getLogger("stich.service")
HUMAN, BOT = "human", "bot"
WAITING, IN_DEAL, MATCH_OVER = "waiting_for_deal", "in_deal", "match_over"
TABLE_CREATED, DEAL_STARTED, ACTION = "table_created", "deal_started", "action"
ACTION_TYPES = ("bid", "exchange", "announce", "play")
_MAX_BOT_STEPS = 10_000


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def common(values: list) -> Any:
    """What every seat sees alike: equal values stay, dicts are compared key by key and lists
    of one length item by item, anything else that differs between seats becomes None (a
    card shown as None is sent as the hidden card "??"). This is the spectator's knowledge."""
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in first if all(k in v for v in values[1:])]
        return {k: common([v[k] for v in values]) for k in keys}
    if all(isinstance(v, list) and len(v) == len(first) for v in values):
        return [common([v[i] for v in values]) for i in range(len(first))]
    return None


@dataclass
class Deal:
    number: int            # 1-based
    seed: int
    state: Any             # engine State
    options: dict


@dataclass
class Event:
    version: int
    kind: str
    deal_number: int
    dealer: int | None
    action_index: int | None
    phase: str
    to_act: int | None
    result: dict | None
    match_scores: list[int]
    status: str


@dataclass
class Table:
    id: str
    game: str
    options: dict                          # resolved options of the match
    deals_per_match: int
    seats: list[str]
    token_hashes: dict[str, int]           # sha256(token) -> seat
    spectator_hash: str
    seed: int
    version: int = 0
    deals: list[Deal] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    match_scores: list[int] = field(default_factory=list)
    cond: threading.Condition = field(default_factory=threading.Condition)

    def spec(self) -> dict:
        return {"game": self.game, "options": self.options, "deals_per_match": self.deals_per_match,
                "seats": self.seats, "token_hashes": self.token_hashes,
                "spectator_hash": self.spectator_hash, "seed": self.seed}

    # ---- status --------------------------------------------------------------------------
    @property
    def current(self) -> Deal | None:
        return self.deals[-1] if self.deals else None

    def status(self) -> str:
        deal = self.current
        if deal is not None and not deal.state.is_over():
            return IN_DEAL
        if self.counted_deals() >= self.deals_per_match:
            return MATCH_OVER
        return WAITING

    def finished_deals(self) -> int:
        return sum(1 for d in self.deals if d.state.is_over())

    def counted_deals(self) -> int:
        """Finished deals that count toward the match (a void Armut or a Sheepshead doubler
        is redealt and does not count)."""
        return self._progress()[0]

    def _progress(self) -> tuple[int, int, dict]:
        """(counted deals, next dealer, options carried into the next deal), from the
        finished deals by each game's rule for what follows a deal (engine_core.match)."""
        rules = games.rules_of(self.game)
        counted, dealer, carried = 0, 0, {}
        for d in self.deals:
            result = d.state.result()
            if result is None:
                break
            info = after_deal(rules, result, d.state.dealer)
            counted += 1 if info["counts"] else 0
            dealer = info["dealer"]
            carried = {k: v for k, v in info.items() if k not in ("dealer", "counts")}
        return counted, dealer, carried

    # ---- who is asking --------------------------------------------------------------------
    def viewer(self, token: str) -> int | None:
        """The seat of a seat token, None for the spectator id; PERMISSION_DENIED otherwise."""
        if not token:
            raise errors.denied("missing token: give a seat token or the spectator id")
        digest = _hash(token)
        if digest in self.token_hashes:
            return self.token_hashes[digest]
        if secrets.compare_digest(digest, self.spectator_hash):
            return None
        raise errors.denied(f"the token is not valid for table {self.id}")

    def seat_of(self, token: str) -> int:
        seat = self.viewer(token)
        if seat is None:
            raise errors.denied("the spectator id cannot act: give a seat token")
        return seat

    def check_version(self, expected: int | None) -> None:
        if expected is not None and expected != self.version:
            raise errors.stale(expected, self.version)

    # ---- the next deal ----------------------------------------------------------------------
    def next_deal_start(self) -> dict:
        """The start of the next deal: seed, dealer and options as the game's rules say what
        follows a deal (the deal passes left; a redealt void deal keeps its dealer and a
        Sheepshead doubler carries its stake), via engine_core.match."""
        k = len(self.deals)
        _, dealer, carried = self._progress()
        seed = deal_seed(self.seed, k)
        game = games.get(self.game, {**self.options, **carried})
        state = game.deal(seed, dealer)
        return {"seed": seed, "options": game.options.as_dict(), "dealer": state.dealer,
                "hands": state.hands, "blind": state.blind}

    # ---- events ---------------------------------------------------------------------------
    def record_event(self, kind: str, deal: Deal | None, action_index: int | None,
                     snap: tuple | None = None) -> None:
        """Add the next version; `snap` is (phase, to_act, result) right after the event."""
        self.version += 1
        phase, to_act, result = snap if snap is not None else ("", None, None)
        if result is not None:
            self.match_scores = [a + b for a, b in zip(self.match_scores, result["scores"])]
        self.events.append(Event(
            version=self.version, kind=kind, deal_number=deal.number if deal else 0,
            dealer=deal.state.dealer if deal else None, action_index=action_index,
            phase=phase, to_act=to_act, result=result, match_scores=list(self.match_scores),
            status=self._status_after(deal, result)))

    def _status_after(self, deal: Deal | None, result: dict | None) -> str:
        if deal is None:
            return WAITING
        if result is None:
            return IN_DEAL
        return MATCH_OVER if self.counted_deals() >= self.deals_per_match else WAITING

    def event_for(self, event: Event, seat: int | None) -> dict:
        """An event as `seat` (None: spectator) may see it."""
        out = {"version": event.version, "kind": event.kind, "deal_number": event.deal_number,
               "dealer": event.dealer, "phase": event.phase, "to_act": event.to_act,
               "result": event.result, "match_scores": event.match_scores, "status": event.status,
               "action": None}
        if event.action_index is not None:
            state = self.deals[event.deal_number - 1].state
            out["action"] = self.redact(state, event.action_index, seat)
        return out

    def redact(self, state, index: int, seat: int | None) -> dict:
        action = state.actions[index]
        if seat is not None:
            return state.core.redact(index, action, seat)
        return common([state.core.redact(index, action, s) for s in range(len(self.seats))])

    # ---- views ------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        """What `seat` (None: the spectator) may see now."""
        deal = self.current
        out = {"table_id": self.id, "version": self.version, "game": self.game, "seat": seat,
               "seats": list(self.seats), "status": self.status(),
               "deal_number": deal.number if deal else 0, "deals_per_match": self.deals_per_match,
               "match_scores": list(self.match_scores),
               "options": deal.options if deal else self.options}
        if deal is None:
            out.update(dealer=None, phase="", to_act=None, hand=[], legal=[], actions=[], game_view={})
            return out
        state = deal.state
        if seat is not None:
            v = state.view(seat)
        else:
            n = len(self.seats)
            public = common([state.core.public(s) for s in range(n)])
            v = {"dealer": state.dealer, "phase": state.phase(), "to_act": state.to_act(),
                 "hand": [], "legal": [],
                 "actions": [self.redact(state, i, None) for i in range(len(state.actions))],
                 **public}
        out.update(dealer=v["dealer"], phase=v["phase"], to_act=v["to_act"], hand=v["hand"],
                   legal=v["legal"], actions=v["actions"])
        out["game_view"] = {k: val for k, val in v.items()
                            if k not in ("game", "seat", "dealer", "phase", "to_act", "hand",
                                         "legal", "actions")}
        return out


class TableManager:
    """All tables of this server; persistence through `store`."""

    def __init__(self, store: Store):
        self.store = store
        self.tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self.closing = False
        self.unrestorable: dict[str, str] = {}      # table id -> why its records do not replay

    # ---- lookup ---------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        if not table_id:
            raise errors.invalid("table_id", "missing")
        table = self.tables.get(table_id)
        if table is None:
            raise errors.not_found("table", f"no table {table_id!r}")
        return table

    # ---- create -----------------------------------------------------------------------------
    def create(self, game: str, options: dict, deals_per_match: int, seats: list[str],
               seed: int | None = None, daily_date: str | None = None) -> tuple[Table, dict[int, str], str]:
        """A new table; returns it, the token of every human seat and the spectator id."""
        if not game:
            raise errors.invalid("game", f"missing; games are {', '.join(games.available())}")
        g = games.get(game, options)          # OptionError -> INVALID_ARGUMENT
        n = g.seats
        if not seats:
            seats = [HUMAN] * n
        if len(seats) != n:
            raise errors.invalid("seats", f"{game} has {n} seats, got {len(seats)}")
        if deals_per_match < 0:
            raise errors.invalid("deals_per_match", f"must be at least 1, got {deals_per_match}")
        resolved = g.options.as_dict()
        if deals_per_match == 0:
            deals_per_match = resolved.get("deals_per_match", n)
        elif resolved.get("deals_per_match", deals_per_match) != deals_per_match:
            # the game's informational option says the same as the table
            g = games.get(game, {**resolved, "deals_per_match": deals_per_match})
        if daily_date:
            try:
                seed = games.daily_seed(game, daily_date)
            except ValueError:
                raise errors.invalid("daily_date", f"must be a date YYYY-MM-DD, got {daily_date!r}") from None
        elif seed is None:
            seed = secrets.randbits(64)
        tokens = {s: "st_" + secrets.token_urlsafe(18) for s in range(n) if seats[s] == HUMAN}
        spectator = "sp_" + secrets.token_urlsafe(18)
        table = Table(id="t_" + secrets.token_urlsafe(9), game=game, options=g.options.as_dict(),
                      deals_per_match=deals_per_match, seats=list(seats),
                      token_hashes={_hash(t): s for s, t in tokens.items()},
                      spectator_hash=_hash(spectator), seed=seed, match_scores=[0] * n)
        with table.cond:
            self.store.write(table.id, spec=table.spec())
            table.record_event(TABLE_CREATED, None, None)
            with self._lock:
                self.tables[table.id] = table
        return table, tokens, spectator

    # ---- deal ---------------------------------------------------------------------------------
    def deal(self, table_id: str, token: str, expected_version: int | None) -> tuple[Table, int | None]:
        """Start the next deal; bots that act first act. Returns the table and the caller's seat."""
        table = self.get(table_id)
        with table.cond:
            if any(k == HUMAN for k in table.seats) or token:
                seat = table.seat_of(token)
            else:
                seat = None
            table.check_version(expected_version)
            status = table.status()
            if status == IN_DEAL:
                raise errors.precondition("DEAL_IN_PROGRESS",
                                          f"deal {table.current.number} is still in progress")
            if status == MATCH_OVER:
                raise errors.precondition("MATCH_OVER",
                                          f"the match is over: all {table.deals_per_match} deals played")
            start = table.next_deal_start()
            state = games.get(table.game, start["options"]).new_deal(
                start["hands"], start["dealer"], start["blind"])
            deal = Deal(len(table.deals) + 1, start["seed"], state, start["options"])
            start_snap = snapshot(state)
            snaps = self._bots(table, deal, table.version + 1)
            self.store.write(table.id, deals=[(deal.number, start)],
                             actions=[(deal.number, i, a) for i, a in enumerate(state.actions)])
            table.deals.append(deal)
            table.record_event(DEAL_STARTED, deal, None, start_snap)
            self._commit(table, deal, 0, snaps)
            return table, seat

    # ---- act ------------------------------------------------------------------------------------
    def act(self, table_id: str, token: str, kind: str, fields: dict,
            expected_version: int | None) -> tuple[Table, int]:
        """One action of the token's seat, then whatever bots follow; all or nothing."""
        table = self.get(table_id)
        with table.cond:
            seat = table.seat_of(token)
            deal = table.current
            action = self._action(table, seat, kind, fields)
            table.check_version(expected_version)
            if deal is None or deal.state.is_over():
                raise errors.precondition("NO_DEAL_IN_PROGRESS",
                                          "no deal in progress: call Deal to start the next one"
                                          if table.status() == WAITING else "the match is over")
            to_act = deal.state.to_act()
            if to_act != seat:
                raise errors.precondition("NOT_YOUR_TURN", f"seat {seat} is not to act: seat {to_act} is",
                                          to_act=str(to_act))
            first = len(deal.state.actions)
            work = Deal(deal.number, deal.seed, deal.state.copy(), deal.options)
            work.state.apply(action)              # IllegalActionError -> FAILED_PRECONDITION
            snaps = [snapshot(work.state)] + self._bots(table, work, table.version + 2)
            self.store.write(table.id, actions=[(deal.number, i, work.state.actions[i])
                                                for i in range(first, len(work.state.actions))])
            table.deals[-1] = work
            self._commit(table, work, first, snaps)
            return table, seat

    def _action(self, table: Table, seat: int, kind: str, fields: dict) -> dict:
        """The record action of a request, or INVALID_ARGUMENT for a malformed one (a call the
        game does not know, a bad card code, a bad suit)."""
        rules = games.rules_of(table.game)
        deck = rules.DECK
        action: dict = {"seat": seat, "type": kind}
        if kind == "play":
            card = fields.get("card", "")
            if not card:
                raise errors.invalid("card", "missing")
            try:
                deck.face_index(card)
            except ValueError as err:
                raise errors.invalid("card", str(err)) from None
            action["card"] = card
            return action
        call = fields.get("call", "")
        if not call:
            raise errors.invalid("call", "missing")
        if kind == "exchange":
            known = list(rules.EXCHANGES)
        else:
            known = sorted({c for k, c, _ in rules.CALLS if k == kind})
        if call not in known:
            raise errors.invalid("call", f"unknown {kind} call {call!r} in {table.game}; "
                                         f"{kind} calls are {', '.join(known) or 'none'}")
        action["call"] = call
        if kind == "exchange":
            cards = list(fields.get("cards", []))
            for i, card in enumerate(cards):
                try:
                    deck.face_index(card)
                except ValueError as err:
                    raise errors.invalid(f"cards[{i}]", str(err)) from None
            action["cards"] = cards
        suit = fields.get("suit", "")
        if suit:
            if kind != "bid" or suit not in SUITS:
                raise errors.invalid("suit", f"bad suit {suit!r}: a suit is one of C, S, H, D"
                                     if kind == "bid" else f"a {kind} takes no suit")
            action["suit"] = suit
        return action

    def _bots(self, table: Table, deal: Deal, version: int) -> list[tuple]:
        """Let bot seats act until a human is to act or the deal is over (on `deal`, a work
        copy); returns the snapshot after each bot action. Each bot sees only its own view."""
        state = deal.state
        snaps = []
        for step in range(_MAX_BOT_STEPS):
            seat = state.to_act()
            if seat is None or table.seats[seat] != BOT:
                return snaps
            view = state.view(seat)
            rng = random.Random(f"{table.id}:{version + step}")
            state.apply(rng.choice(view["legal"]))
            snaps.append(snapshot(state))
        raise RuntimeError("bots did not finish a deal")

    def _commit(self, table: Table, deal: Deal, first_index: int, snaps: list[tuple]) -> None:
        """Make a stored change the table's state: one version per action, wake watchers."""
        for k, snap in enumerate(snaps):
            table.record_event(ACTION, deal, first_index + k, snap)
        table.cond.notify_all()

    # ---- score -------------------------------------------------------------------------------
    def score(self, table_id: str, token: str, deal_number: int) -> tuple[Table, Deal]:
        table = self.get(table_id)
        with table.cond:
            table.viewer(token)
            if deal_number < 0:
                raise errors.invalid("deal_number", f"must be 0 (the last finished) or a deal 1.., got {deal_number}")
            if deal_number == 0:
                finished = [d for d in table.deals if d.state.is_over()]
                if not finished:
                    raise errors.not_found("deal", "no deal has finished yet")
                return table, finished[-1]
            if deal_number > len(table.deals):
                raise errors.not_found("deal", f"no deal {deal_number}: {len(table.deals)} dealt so far")
            deal = table.deals[deal_number - 1]
            if not deal.state.is_over():
                raise errors.precondition("DEAL_NOT_FINISHED", f"deal {deal_number} is still in progress")
            return table, deal

    # ---- watch ---------------------------------------------------------------------------------
    def events_after(self, table: Table, seat: int | None, version: int, timeout: float) -> tuple[list[dict], bool]:
        """The events after `version` for `seat`, waiting up to `timeout` for one; and whether
        the table will have no more (the match is over and everything was sent)."""
        with table.cond:
            if table.version <= version and not self.closing:
                table.cond.wait_for(lambda: table.version > version or self.closing, timeout)
            out = [table.event_for(e, seat) for e in table.events[max(version, 0):]]
            return out, table.status() == MATCH_OVER

    def close(self) -> None:
        self.closing = True
        for table in list(self.tables.values()):
            with table.cond:
                table.cond.notify_all()

    # ---- restart ------------------------------------------------------------------------------
    def restore(self) -> int:
        """Rebuild every stored table by replaying its records; returns how many. A table
        whose records this build can no longer replay (e.g. a rule changed) is left in the
        database, logged and listed in `self.unrestorable`, and the others still come back."""
        count = 0
        for table_id, spec, deals in self.store.load():
            try:
                table = self._replay(table_id, spec, deals)
            except (StichError, KeyError, TypeError, ValueError) as err:
                self.unrestorable[table_id] = f"{type(err).__name__}: {err}"
                log.error("table %s cannot be restored: %s", table_id, err)
                continue
            self.tables[table_id] = table
            deal = table.current
            if deal is not None and not deal.state.is_over():
                # a bot owed a move when the server stopped: let it move now
                first = len(deal.state.actions)
                work = Deal(deal.number, deal.seed, deal.state.copy(), deal.options)
                snaps = self._bots(table, work, table.version + 1)
                if snaps:
                    self.store.write(table.id, actions=[(deal.number, i, work.state.actions[i])
                                                        for i in range(first, len(work.state.actions))])
                    table.deals[-1] = work
                    self._commit(table, work, first, snaps)
            count += 1
        return count

    @staticmethod
    def _replay(table_id: str, spec: dict, deals: list) -> Table:
        table = Table(id=table_id, game=spec["game"], options=spec["options"],
                      deals_per_match=spec["deals_per_match"], seats=spec["seats"],
                      token_hashes={k: int(v) for k, v in spec["token_hashes"].items()},
                      spectator_hash=spec["spectator_hash"], seed=spec["seed"],
                      match_scores=[0] * len(spec["seats"]))
        table.record_event(TABLE_CREATED, None, None)
        for number, (start, actions) in enumerate(deals, 1):
            state = games.get(table.game, start["options"]).new_deal(
                start["hands"], start["dealer"], start["blind"])
            deal = Deal(number, start["seed"], state, start["options"])
            table.deals.append(deal)
            table.record_event(DEAL_STARTED, deal, None, snapshot(state))
            for i, action in enumerate(actions):
                state.apply(action)
                table.record_event(ACTION, deal, i, snapshot(state))
        return table


def snapshot(state) -> tuple:
    """(phase, to_act, result) of a deal at one moment: what an event tells about it."""
    return state.phase(), state.to_act(), state.result()
