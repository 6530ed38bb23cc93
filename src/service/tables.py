"""A table in memory: its spec, its version, the engine `Match` it plays and the log of its
current deal. Everything here is proportional to the current deal: earlier deals are in the
store and come back (replayed through the engine) only when a call asks for them.

Versions: 1 is the table's creation; every deal started and every accepted action (a bot's
too) adds one. Each version is an event; a deal's events are its start and its actions.

What a seat sees is the engine's answer for that seat, on every path: `State.view(seat)` for
views (`None`: the spectator's, public information only), `State.result_for(seat)` for a
finished deal's result (face-down cards stay "??" to the seats that did not handle them, for
ever), the engine's `redact` for an action in an event. The service never merges or filters
cards itself.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import time
from dataclasses import dataclass, field

from engine_core import games
from engine_core.match import IN_DEAL, MATCH_OVER, WAITING, Match
from engine_core.state import State

from . import errors

HUMAN, BOT = "human", "bot"
TABLE_CREATED, DEAL_STARTED, ACTION = "table_created", "deal_started", "action"
MAX_BOT_STEPS = 10_000


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Spec:
    """What a table is, written once: game and options, match length, seats, hashed tokens, seed."""
    game: str
    options: dict
    deals_per_match: int
    seats: tuple[str, ...]
    token_hashes: dict            # sha256(token) -> seat
    spectator_hash: str
    seed: int

    def as_dict(self) -> dict:
        return {"game": self.game, "options": self.options, "deals_per_match": self.deals_per_match,
                "seats": list(self.seats), "token_hashes": self.token_hashes,
                "spectator_hash": self.spectator_hash, "seed": self.seed}

    @classmethod
    def from_dict(cls, d: dict) -> "Spec":
        hashes = {str(k): int(v) for k, v in d["token_hashes"].items()}
        return cls(str(d["game"]), dict(d["options"]), int(d["deals_per_match"]),
                   tuple(str(s) for s in d["seats"]), hashes, str(d["spectator_hash"]), int(d["seed"]))

    def game_of(self) -> games.Game:
        return games.get(self.game, self.options)


@dataclass
class Entry:
    """One event of a deal: its version, the action index (None for the deal's start) and the
    deal as it stood right after it."""
    version: int
    index: int | None
    phase: str
    to_act: int | None
    status: str
    match_scores: list[int]
    ends_deal: bool = False


@dataclass
class DealLog:
    """A deal of a table: number, first version, its start as stored, and its events."""
    number: int
    first_version: int
    start: dict
    entries: list[Entry] = field(default_factory=list)

    @property
    def last_version(self) -> int:
        return self.entries[-1].version


def entry_after(match: Match, version: int, index: int | None) -> Entry:
    state = match.current
    over = state.is_over()
    return Entry(version, index, state.phase(), state.to_act(), match.status, list(match.totals),
                 ends_deal=over and index is not None)


def start_of(match: Match, progress: dict) -> dict:
    """The stored start of the match's current deal: the match's progress before it and the
    deal's record header."""
    record = match.current.record()
    start = {"progress": progress, "options": record["options"], "dealer": record["dealer"],
             "hands": record["hands"]}
    if "blind" in record:
        start["blind"] = record["blind"]
    return start


def replay(spec: Spec, number: int, first_version: int, start: dict, actions: list[dict]) -> tuple[Match, DealLog]:
    """A deal rebuilt from the store through the engine: the match resumed from the progress
    before it, the deal dealt again (it must be the stored one) and the stored actions applied
    (each judged again by the rules). ValueError / engine errors if the store does not replay."""
    match = Match.resume(spec.game_of(), spec.seed, start["progress"], spec.deals_per_match)
    if match.dealt != number - 1:
        raise ValueError(f"deal {number} follows {match.dealt} deals dealt")
    state = match.deal()
    record = state.record()
    if record["hands"] != start["hands"] or record["dealer"] != start["dealer"] \
            or record.get("blind", []) != start.get("blind", []):
        raise ValueError(f"deal {number} does not deal as stored")
    log = DealLog(number, first_version, start, [entry_after(match, first_version, None)])
    for i, action in enumerate(actions):
        match.apply(action)
        log.entries.append(entry_after(match, first_version + 1 + i, i))
    return match, log


class Table:
    """A table held in memory. Only the table manager changes it (holding `lock`), and it
    swaps in a new match and log only after the store has committed them: a reader on the
    event loop always sees a committed state."""

    def __init__(self, table_id: str, spec: Spec, version: int, match: Match, deal: DealLog | None):
        self.id = table_id
        self.spec = spec
        self.version = version
        self.match = match
        self.deal = deal
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.watchers = 0
        self.last_used = time.monotonic()

    # ---- who is asking --------------------------------------------------------------------
    def viewer(self, token: str) -> int | None:
        """The seat of a seat token, None for the spectator id; PERMISSION_DENIED otherwise."""
        if not token:
            raise errors.denied("missing token: give a seat token or the spectator id")
        digest = token_hash(token)
        seat = self.spec.token_hashes.get(digest)
        if seat is not None:
            return seat
        if hmac.compare_digest(digest, self.spec.spectator_hash):
            return None
        raise errors.denied(f"the token is not valid for table {errors.short(self.id)}")

    def seat_of(self, token: str) -> int:
        seat = self.viewer(token)
        if seat is None:
            raise errors.denied("the spectator id cannot act: give a seat token")
        return seat

    def notify(self) -> None:
        old, self.changed = self.changed, asyncio.Event()
        old.set()

    # ---- what a viewer sees ------------------------------------------------------------------
    def view(self, seat: int | None, match: Match | None = None, version: int | None = None) -> dict:
        """What `seat` (None: the spectator) sees now: the table, and the match's view."""
        return view_of(self, self.match if match is None else match,
                       self.version if version is None else version, self.deal, seat)


def view_of(table: Table, match: Match, version: int, deal: DealLog | None, seat: int | None) -> dict:
    v = match.view(seat)
    m = v["match"]
    return {"table_id": table.id, "version": version, "game": table.spec.game, "seat": seat,
            "seats": list(table.spec.seats), "status": m["status"],
            "deal_number": m["deals_dealt"], "deals_counted": m["deals_counted"],
            "deals_per_match": m["deals_per_match"], "match_scores": m["totals"],
            "options": match.current.game.options.as_dict() if match.current is not None
            else match.game.options.as_dict(),
            "deal": v.get("deal")}


def created_event() -> dict:
    return {"version": 1, "kind": TABLE_CREATED, "deal_number": 0, "dealer": None, "action": None,
            "phase": "", "to_act": None, "result": None, "match_scores": None, "status": WAITING}


def event_of(log: DealLog, entry: Entry, state: State, seat: int | None) -> dict:
    """One event as `seat` sees it; `state` is the deal's state now (the engine redacts the
    action and the result for the seat)."""
    action = None
    if entry.index is not None:
        action = state.core.redact(entry.index, state.actions[entry.index], seat)
    return {"version": entry.version, "kind": DEAL_STARTED if entry.index is None else ACTION,
            "deal_number": log.number, "dealer": log.start["dealer"], "action": action,
            "phase": entry.phase, "to_act": entry.to_act,
            "result": state.result_for(seat) if entry.ends_deal else None,
            "match_scores": entry.match_scores, "status": entry.status}


def play_bots(table_id: str, spec: Spec, match: Match, version: int, log: DealLog) -> int:
    """Let bot seats act until a human is to act or the deal is over; each bot chooses among
    its own legal actions only (a uniform random choice seeded by the table's seed and the
    version: a seeded table plays the same way every time), so it
    knows nothing another seat could not. Adds an entry per action; returns the new version."""
    state = match.current
    for _ in range(MAX_BOT_STEPS):
        seat = state.to_act()
        if seat is None or spec.seats[seat] != BOT:
            return version
        version += 1
        rng = random.Random(f"{spec.seed}:{version}")
        match.apply(rng.choice(state.legal_actions()))
        log.entries.append(entry_after(match, version, len(state.actions) - 1))
    raise RuntimeError("bots did not finish a deal")


__all__ = ["Spec", "Table", "DealLog", "Entry", "replay", "play_bots", "event_of", "created_event",
           "view_of", "start_of", "entry_after", "token_hash", "HUMAN", "BOT", "IN_DEAL", "WAITING",
           "MATCH_OVER"]
