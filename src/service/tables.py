"""A table in memory: its spec, its version, the engine `Match` it plays and the log of its
current deal. Everything here is proportional to the current deal: earlier deals are in the
store and come back (replayed through the engine) only when a call asks for them.

Versions: 1 is the table's creation; every open seat claimed (before the first deal), every
deal started and every accepted action (a bot's too) adds one. Each version is an event; a
deal's events are its start and its actions.

Bots choose through engine_core.bots from their seat's view only (`bot_action`), seeded from
the table's seed, the seat and the version, so a seeded table replays the same way.

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
import secrets
import time
from dataclasses import dataclass, field
from typing import Iterable

from engine_core import games
from engine_core.match import IN_DEAL, MATCH_OVER, WAITING, Match
from engine_core.state import State

from . import errors, observe

HUMAN, OPEN, BOT = "human", "open", "bot"
# seat kinds: a person, an open seat (a person who joins with its invite), a bot of a level;
# "bot" alone is the normal level (BOT_ALIAS), stored as "bot:normal"
BOT_LEVELS = ("easy", "normal", "hard")
BOT_ALIAS = "normal"
SEAT_KINDS = (HUMAN, OPEN, *(f"bot:{level}" for level in BOT_LEVELS))
TABLE_CREATED, DEAL_STARTED, ACTION, SEAT_JOINED = "table_created", "deal_started", "action", "seat_joined"
MAX_BOT_STEPS = 10_000
MAX_BOT_DELAY_MS = 10_000


def seat_kind(kind: str) -> str:
    """The stored kind of a seat kind as requested ("bot" is the normal level)."""
    return f"bot:{BOT_ALIAS}" if kind == BOT else kind


def is_bot(kind: str) -> bool:
    return kind == BOT or kind.startswith("bot:")


def bot_level(kind: str) -> str:
    return BOT_ALIAS if kind == BOT else kind[len("bot:"):]


def bot_seed(table_seed: int, seat: int, version: int) -> int:
    """A bot's seed for the decision at `version`: from the table's seed, so a seeded table (a
    daily deal above all) is played by the same bots the same way every time."""
    digest = hashlib.sha256(f"stich-bot-v1:{table_seed}:{seat}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_action(spec: "Spec", state: State, seat: int, version: int) -> dict:
    """The action of the bot in `seat` for the decision that makes `version`: chosen by
    engine_core.bots from that seat's view only (State.view: its hand and what is public)."""
    from engine_core import bots
    level = bot_level(spec.seats[seat])
    started = time.perf_counter()
    bot = bots.get(spec.game, level, seed=bot_seed(spec.seed, seat, version),
                   options=state.game.options.as_dict())
    action = bot.choose(state.view(seat))
    observe.bot_thought(spec.game, level, time.perf_counter() - started)   # stich_bot_think_seconds
    return action


def level_available(level: str) -> bool:
    """Whether this build has the bot level (engine_core.bots lands its levels one by one): a
    bot of the level is built for the first registered game (any game has every level)."""
    from engine_core import bots
    try:
        bots.get(games.available()[0], level)
    except ImportError:
        return False
    return True


def bot_to_act_in(spec: "Spec", match: Match) -> int | None:
    """The bot seat to act in the match's current deal, if a bot is to act."""
    state = match.current
    if state is None:
        return None
    seat = state.to_act()
    return seat if seat is not None and is_bot(spec.seats[seat]) else None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_secret(prefix: str, table_id: str) -> str:
    """A seat token, spectator id or invite code: a random secret, then "." and the table id
    (which is not secret: it lets an error say "this token is for another table")."""
    return f"{prefix}{secrets.token_urlsafe(18)}.{table_id}"


def token_table(token: str) -> str | None:
    """The table id a token or invite code names, if it has the form of new_secret."""
    head, dot, table_id = token.rpartition(".")
    return table_id if dot and head and table_id.startswith("t_") else None


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
    invite_hashes: dict = field(default_factory=dict)   # sha256(invite code) -> open seat
    settings: dict = field(default_factory=lambda: {"bot_delay_ms": 0, "hints_disabled": False})
    daily: dict | None = None     # {"date", "player_hash"} of a daily-deal table

    def as_dict(self) -> dict:
        return {"game": self.game, "options": self.options, "deals_per_match": self.deals_per_match,
                "seats": list(self.seats), "token_hashes": self.token_hashes,
                "spectator_hash": self.spectator_hash, "seed": self.seed,
                "invite_hashes": self.invite_hashes, "settings": self.settings, "daily": self.daily}

    @classmethod
    def from_dict(cls, d: dict) -> "Spec":
        hashes = {str(k): int(v) for k, v in d["token_hashes"].items()}
        invites = {str(k): int(v) for k, v in d.get("invite_hashes", {}).items()}
        settings = {"bot_delay_ms": int(d.get("settings", {}).get("bot_delay_ms", 0)),
                    "hints_disabled": bool(d.get("settings", {}).get("hints_disabled", False))}
        daily = d.get("daily")
        return cls(str(d["game"]), dict(d["options"]), int(d["deals_per_match"]),
                   tuple(seat_kind(str(s)) for s in d["seats"]), hashes, str(d["spectator_hash"]),
                   int(d["seed"]), invites, settings, dict(daily) if daily else None)

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
    apply_logged(match, log.entries, first_version, enumerate(actions, first_version + 1))
    return match, log


def apply_logged(match: Match, entries: list, first_version: int, rows: Iterable[tuple[int, dict]]) -> None:
    """Apply stored (version, action) rows of the deal that began at `first_version` to
    `match` (each judged again by the rules), appending each one's log entry: the one way a
    deal is rebuilt, whole (replay) or its tail after another server's actions (Freshness)."""
    for version, action in rows:
        match.apply(action)
        entries.append(entry_after(match, version, version - first_version - 1))


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
        self.claims: dict[int, tuple[str, int]] = {}   # open seat -> (token hash, version)
        self.bots: asyncio.Task | None = None          # the task playing the bots' turns

    def seats(self) -> list[str]:
        """Who sits where now: a claimed open seat is a human's."""
        return [HUMAN if k == OPEN and s in self.claims else k for s, k in enumerate(self.spec.seats)]

    def open_seats(self) -> list[int]:
        return [s for s, k in enumerate(self.spec.seats) if k == OPEN and s not in self.claims]

    def bot_to_act(self) -> int | None:
        """The bot seat to act in the deal in progress, if a bot is to act."""
        return None if self.deal is None else bot_to_act_in(self.spec, self.match)

    # ---- who is asking --------------------------------------------------------------------
    def viewer(self, token: str) -> int | None:
        """The seat of a seat token, None for the spectator id; PERMISSION_DENIED otherwise."""
        if not token:
            raise errors.denied("missing token: give a seat token or the spectator id")
        digest = token_hash(token)
        seat = self.spec.token_hashes.get(digest)
        if seat is not None:
            return seat
        for s, (claimed, _) in self.claims.items():
            if hmac.compare_digest(digest, claimed):
                return s
        if hmac.compare_digest(digest, self.spec.spectator_hash):
            return None
        other = token_table(token)
        if other is not None and other != self.id:
            raise errors.denied(f"the token is for table {errors.short(other)}, not {errors.short(self.id)}",
                                reason="TOKEN_FOR_OTHER_TABLE")
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
            "seats": table.seats(), "status": m["status"], "settings": dict(table.spec.settings),
            "deal_number": m["deals_dealt"], "deals_counted": m["deals_counted"],
            "deals_per_match": m["deals_per_match"], "match_target": m["target"] or 0,
            "match_scores": m["totals"],
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


def joined_event(seat: int, version: int, n: int) -> dict:
    return {"version": version, "kind": SEAT_JOINED, "deal_number": 0, "dealer": None, "action": None,
            "phase": "", "to_act": None, "result": None, "match_scores": [0] * n, "status": WAITING,
            "seat": seat}


__all__ = ["Spec", "Table", "DealLog", "Entry", "replay", "bot_action", "event_of", "created_event",
           "joined_event", "view_of", "start_of", "entry_after", "token_hash", "new_secret",
           "token_table", "seat_kind", "is_bot", "bot_to_act_in", "bot_level", "bot_seed", "level_available",
           "HUMAN", "OPEN", "BOT", "BOT_LEVELS", "SEAT_KINDS", "IN_DEAL", "WAITING", "MATCH_OVER"]
