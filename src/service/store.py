"""Persistence: a table is its log. The table manager talks to a `Store` (this interface); the
embedded `SqliteStore` is the default, `pgstore.PostgresStore` the one several servers share.
Both have the schema of MIGRATIONS (one ordered list, SQL per dialect).

What is stored, append-only:
- `tables`: one row per table, its spec (game, options, match length, seats, hashed tokens,
  seed), written once.
- `log`: one row per version: version 1 is the table's creation, then a row for every deal
  started (`action` null) and every accepted action (bots' too) with its deal number.
- `deals`: one row per deal started: its first version and its start (the match's progress
  before it, and the deal's record header: options, dealer, hands, blind).
- `requests`: one row per request id answered: the request's fingerprint and the answer (in
  SQLite a rowid table since schema 5: an answer is a whole view, too large for WITHOUT ROWID).
- `claims` (schema 3): one row per open seat claimed with its invite (JoinTable): the seat's
  token hash and the version the claim made. Its primary key (table, seat) is what makes two
  racing joins end with exactly one claim, even with several servers on one database.
- `daily_entries` (schema 3): the daily-deal leaderboard, one row per game, date and player
  (primary key: a second entry of a player on a day is refused by the database itself).
- `bot_leases` (schema 4, written by a shared store only): a row while a table's turn is a
  bot's, naming the server that plays it and until when.
- `schema_version`: the migrations applied.

`commit` writes one accepted request (its log rows, a deal start, its request id) in one
transaction, and only if the table is still at `base_version` and its request id is new
(the key (table, request id) decides): a second writer of the same
version gets `Conflict` (the primary key of `log` is the table and the version, so a version
is written once even with several servers sharing one database; PostgreSQL checks nothing
else, in one statement: pgstore.py). Loading a table reads its
spec, its last deal's row and that deal's log rows: the cost of a load, like every other
call, is the size of the current deal, never the table's history.
"""
from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import os
import random
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from dataclasses import dataclass
from typing import Any, Callable

import orjson

log = logging.getLogger("stich.service.store")


@dataclass(frozen=True)
class Migration:
    """One step of the schema, applied once, in order, by every store (SQLite and PostgreSQL
    share this list; a step's SQL differs only where the dialects do, and a step one dialect
    does not need is empty there: the version is still recorded, so the numbers stay one)."""
    version: int
    description: str
    sqlite: str
    postgres: str

    def statements(self, dialect: str) -> list[str]:
        return [s.strip() for s in getattr(self, dialect).split(";") if s.strip()]


# The schema's history, oldest first. Version 1 was the thread-per-call server's layout
# (kept aside as legacy_* by SqliteStore, never migrated). A step is never edited once released:
# a change is a new step.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(2, "tables, log, deals, requests", sqlite="""
        CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS log (
            table_id TEXT NOT NULL, version INTEGER NOT NULL, deal INTEGER NOT NULL, action TEXT,
            PRIMARY KEY (table_id, version)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS deals (
            table_id TEXT NOT NULL, number INTEGER NOT NULL, first_version INTEGER NOT NULL,
            start TEXT NOT NULL, PRIMARY KEY (table_id, number)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS requests (
            table_id TEXT NOT NULL, request_id TEXT NOT NULL, fingerprint TEXT NOT NULL,
            answer BLOB NOT NULL, PRIMARY KEY (table_id, request_id)) WITHOUT ROWID
        """, postgres="""
        CREATE TABLE tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL);
        CREATE TABLE log (
            table_id TEXT NOT NULL, version INTEGER NOT NULL, deal INTEGER NOT NULL, action TEXT,
            PRIMARY KEY (table_id, version));
        CREATE TABLE deals (
            table_id TEXT NOT NULL, number INTEGER NOT NULL, first_version INTEGER NOT NULL,
            start TEXT NOT NULL, PRIMARY KEY (table_id, number));
        CREATE TABLE requests (
            table_id TEXT NOT NULL, request_id TEXT NOT NULL, fingerprint TEXT NOT NULL,
            answer BYTEA NOT NULL, PRIMARY KEY (table_id, request_id))
        """),
    Migration(3, "claims (open seats), daily_entries (leaderboard)", sqlite="""
        CREATE TABLE IF NOT EXISTS claims (
            table_id TEXT NOT NULL, seat INTEGER NOT NULL, token_hash TEXT NOT NULL,
            version INTEGER NOT NULL, PRIMARY KEY (table_id, seat)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS daily_entries (
            game TEXT NOT NULL, date TEXT NOT NULL, player_hash TEXT NOT NULL, nickname TEXT NOT NULL,
            score INTEGER NOT NULL, table_id TEXT NOT NULL, submitted_at TEXT NOT NULL,
            PRIMARY KEY (game, date, player_hash)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS daily_board ON daily_entries (game, date, score DESC, submitted_at)
        """, postgres="""
        CREATE TABLE claims (
            table_id TEXT NOT NULL, seat INTEGER NOT NULL, token_hash TEXT NOT NULL,
            version INTEGER NOT NULL, PRIMARY KEY (table_id, seat));
        CREATE TABLE daily_entries (
            game TEXT NOT NULL, date TEXT NOT NULL, player_hash TEXT NOT NULL, nickname TEXT NOT NULL,
            score INTEGER NOT NULL, table_id TEXT NOT NULL, submitted_at TEXT NOT NULL,
            PRIMARY KEY (game, date, player_hash));
        CREATE INDEX daily_board ON daily_entries (game, date, score DESC, submitted_at)
        """),
    # A row while a table's turn is a bot's (written by the commit that made it so): which
    # server plays it until when. SQLite (one server) has the table but never writes it.
    Migration(4, "bot_leases (several servers: who plays a table's bot turn)", sqlite="""
        CREATE TABLE IF NOT EXISTS bot_leases (
            table_id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at TEXT NOT NULL) WITHOUT ROWID
        """, postgres="""
        CREATE TABLE bot_leases (
            table_id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at TIMESTAMPTZ NOT NULL);
        CREATE INDEX bot_leases_due ON bot_leases (expires_at)
        """),
    # A stored answer is a seat's whole view (about 1 KB): a WITHOUT ROWID table keeps rows in
    # its key's b-tree, a few to a page, and every new random request id split pages. A rowid
    # table appends the row and keeps only the key in its index (an insert costs about half).
    # PostgreSQL's tables are heaps with an index already: nothing to do there.
    Migration(5, "requests: a rowid table in SQLite (answers too large for WITHOUT ROWID)", sqlite="""
        CREATE TABLE requests_5 (
            table_id TEXT NOT NULL, request_id TEXT NOT NULL, fingerprint TEXT NOT NULL,
            answer BLOB NOT NULL, PRIMARY KEY (table_id, request_id));
        INSERT INTO requests_5 SELECT table_id, request_id, fingerprint, answer FROM requests;
        DROP TABLE requests;
        ALTER TABLE requests_5 RENAME TO requests
        """, postgres=""),
    # The server's own secrets, made once at the first start and shared by every server of
    # the store (the daily deal's key: docs/operations.md, "The daily deal").
    Migration(6, "server_keys (the daily deal's key)", sqlite="""
        CREATE TABLE IF NOT EXISTS server_keys (
            name TEXT PRIMARY KEY, value TEXT NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID
        """, postgres="""
        CREATE TABLE server_keys (name TEXT PRIMARY KEY, value TEXT NOT NULL, created_at TEXT NOT NULL)
        """),
    # Several server processes on one SQLite file (--workers): each commit leaves a notice, which
    # the other processes read when the file's data_version moves (PostgreSQL has NOTIFY).
    Migration(7, "notices (several processes on one SQLite file: who committed what)", sqlite="""
        CREATE TABLE IF NOT EXISTS notices (
            id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, version INTEGER NOT NULL)
        """, postgres=""),
)
SCHEMA_VERSION = MIGRATIONS[-1].version
# which migrations have been applied, one row each (in every store)
SCHEMA_VERSION_TABLE = {
    "sqlite": "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
              "description TEXT NOT NULL, applied_at TEXT NOT NULL)",
    "postgres": "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                "description TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
}


def newer_schema(version: int) -> str:
    return (f"the store has schema version {version}; this build knows up to {SCHEMA_VERSION}: "
            "upgrade the server")


class StoreError(Exception):
    """The store cannot do what was asked (a damaged row, a closed store)."""


class Damaged(StoreError):
    """A stored row that cannot be read back."""


class Conflict(StoreError):
    """The table is no longer at the version a commit was based on, or the commit's request id
    is answered already."""


class Unavailable(StoreError):
    """The database does not answer (a shared store's server is down or unreachable)."""


class Exists(StoreError):
    """What was to be written once is there already: a table id, a claimed seat, a player's
    leaderboard entry of the day."""


class NicknameTaken(Exists):
    """Another player's leaderboard entry of that game and day has the nickname (case aside)."""


@dataclass
class StoredDeal:
    number: int
    first_version: int
    start: dict              # {"progress", "options", "dealer", "hands", "blind"}
    actions: list[dict]      # its accepted actions in order


@dataclass
class StoredTable:
    spec: dict
    version: int             # the table's last version
    deal: StoredDeal | None  # its last deal (None before the first)
    claims: dict | None = None  # {seat: (token_hash, version)} of the open seats claimed


@dataclass
class DailyEntry:
    """One player's leaderboard entry of a game's daily deal (player_hash: a hash of the
    player's secret, never the secret)."""
    game: str
    date: str
    player_hash: str
    nickname: str
    score: int
    table_id: str
    submitted_at: str


@dataclass
class Commit:
    """One accepted request: the versions it adds (after `base_version`), in order."""
    base_version: int
    rows: list[tuple[int, int, dict | None]]        # (version, deal, action or None)
    deal_start: tuple[int, int, dict] | None = None  # (number, first_version, start)
    request: tuple[str, str, Any] | None = None       # (request id, fingerprint, answer)
    bot_turn: bool = False   # a bot is to act after it (a shared store marks the table for the bots' lease)


class Store(abc.ABC):
    """What the table manager needs from persistence (every method a coroutine)."""

    path: str = ""
    # several servers may share the store: tables in memory can be stale, bots need a lease
    shared: bool = False
    lease_seconds: float = 0.0
    # a shared store: True while every commit is heard through `listen` (freshness.py trusts
    # its notices then, and asks the store before an action otherwise)
    listening: bool = False

    @abc.abstractmethod
    async def open(self) -> None: ...

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def count_tables(self) -> int: ...

    @abc.abstractmethod
    async def create_table(self, table_id: str, spec: dict) -> None:
        """The table's spec and its version 1, atomically; Exists if the id is taken."""

    @abc.abstractmethod
    async def load_table(self, table_id: str) -> StoredTable | None:
        """The spec, the last version and the last deal; None if there is no such table."""

    @abc.abstractmethod
    async def load_deal(self, table_id: str, number: int) -> StoredDeal | None: ...

    @abc.abstractmethod
    async def deal_of_version(self, table_id: str, version: int) -> int | None:
        """The number of the deal that `version` belongs to (0: before the first deal)."""

    @abc.abstractmethod
    async def last_version(self, table_id: str) -> int | None:
        """The table's last committed version (None: no such table): the cheap freshness check."""

    @abc.abstractmethod
    async def log_after(self, table_id: str, version: int) -> list[tuple[int, int, Any]]:
        """The log rows after `version`, in order: (version, deal, action or None). A server
        that holds the table at `version` follows them instead of reading the whole table."""

    @abc.abstractmethod
    async def commit(self, table_id: str, commit: Commit) -> None:
        """Write one accepted request atomically; Conflict unless the table is at base_version
        and the request id (if any) is new."""

    @abc.abstractmethod
    async def find_request(self, table_id: str, request_id: str) -> tuple[str, Any] | None:
        """(fingerprint, answer) of an answered request id."""

    # ---- rooms and the daily leaderboard (schema 3) -------------------------------------------
    @abc.abstractmethod
    async def claim_seat(self, table_id: str, seat: int, token_hash: str, base_version: int) -> None:
        """Claim an open seat: its claim row and the table's next version (a log row of deal 0
        whose action is {"joined": seat}) in one transaction. Exists if the seat is claimed
        already (the (table, seat) key decides between racing joins), Conflict unless the table
        is at base_version. `load_table` returns the claims."""

    @abc.abstractmethod
    async def add_daily_entry(self, entry: DailyEntry) -> None:
        """Enter a result on a daily leaderboard; Exists if the player has an entry that day,
        NicknameTaken if another player's entry of that day has the nickname."""

    @abc.abstractmethod
    async def server_key(self, name: str, new_value: str) -> str:
        """The server secret `name`: stored once (`new_value` if there is none yet, in one
        transaction, so that racing servers agree), then always the stored one."""

    @abc.abstractmethod
    async def daily_entries(self, game: str, date: str, limit: int) -> tuple[list[DailyEntry], int]:
        """The best `limit` entries of a game's daily deal (score descending, then earliest
        submission) and how many there are."""

    # ---- several servers (a shared store); a store of one server needs none of them -----------
    async def take_bot_lease(self, table_id: str) -> bool:
        """Take or renew the lease on a table's bot turn: False if another server holds it
        live, or no bot is to act there (no row)."""
        return True

    async def release_bot_lease(self, table_id: str) -> None:
        """Give the lease up now (another server's sweep may take it at once)."""

    async def due_bot_tables(self, limit: int) -> list[str]:
        """Tables whose turn is a bot's and whose lease has expired (nobody plays them)."""
        return []

    def listen(self, callback) -> None:
        """Call callback(table_id, version) when a version is committed (by any server); with
        (None, None) when changes may have been missed (listening was lost, or is back)."""


def _loads(text, what: str):
    try:
        return orjson.loads(text)
    except (orjson.JSONDecodeError, TypeError) as err:
        raise Damaged(f"{what}: {err}"[:200]) from None


@contextlib.contextmanager
def _immediate(db: sqlite3.Connection, duplicate: Callable[[], StoreError] | None = None):
    """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on any error. With
    `duplicate`, a key written twice (IntegrityError) raises the error it makes instead (made
    only then: a commit runs for every card)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except sqlite3.IntegrityError:
        _rollback(db)
        if duplicate is None:
            raise
        raise duplicate() from None
    except BaseException:
        _rollback(db)
        raise
    try:
        db.execute("COMMIT")
    except BaseException:
        _rollback(db)
        raise


def _rollback(db: sqlite3.Connection) -> None:
    """Roll back what is still open: SQLite may have rolled back itself (a full disk ends
    the transaction), and a failing ROLLBACK must not hide the error that caused it."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass


@contextlib.contextmanager
def _snapshot(db: sqlite3.Connection):
    """Several reads as of one moment (a read transaction: WAL keeps its snapshot while other
    processes commit)."""
    if db.in_transaction:
        yield db
        return
    db.execute("BEGIN")
    try:
        yield db
    finally:
        if db.in_transaction:
            db.execute("COMMIT")


def _stamp(seconds_from_now: float) -> str:
    """A lease's expiry as text that sorts as time does (UTC, milliseconds, fixed width)."""
    return datetime.fromtimestamp(time.time() + seconds_from_now, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:23]


def _last_version(db: sqlite3.Connection, table_id: str) -> int | None:
    return db.execute("SELECT max(version) FROM log WHERE table_id=?", (table_id,)).fetchone()[0]


class SqliteStore(Store):
    """SQLite in WAL mode (synchronous=NORMAL: a committed request survives a killed process,
    not a power cut); `data_dir=None` keeps everything in memory.

    Its statements run on the event loop itself. In WAL mode with synchronous=NORMAL a commit
    appends a few pages to the WAL in the page cache and never waits for the disk; the only
    disk waits are the checkpoints' fsyncs, and those run in the store's own thread on a
    connection of their own, every CHECKPOINT_ROWS rows written. A thread hop per call would
    cost more than the statements (tens of microseconds of wake-ups on every action)."""

    CHECKPOINT_ROWS = 1000           # rows written between checkpoints (a few MB of WAL)
    OPEN_SECONDS = 10.0              # how long an open waits out other processes opening the file (_open)
    NOTICES_KEPT = 100_000           # a shared store's notices kept (a process further behind reloads all)
    POLL_SECONDS = 0.01              # a shared store: how often the file's data_version is looked at

    def __init__(self, data_dir: str | None, shared: bool = False, server_id: str | None = None,
                 lease_seconds: float = 3.0):
        """`shared`: several processes of this machine use the file (--workers): each commit
        leaves a notice for the others and marks the bots' lease, as on PostgreSQL (WAL mode
        lets one process write while the others read; writers take turns on the file's lock)."""
        if data_dir is None:
            if shared:
                raise StoreError("a shared SQLite store needs a file (--data-dir), not memory")
            self.path = ":memory:"
        else:
            os.makedirs(data_dir, exist_ok=True)
            self.path = os.path.join(data_dir, "stich.sqlite3")
        self.shared = shared
        self.server_id = server_id or f"{os.getpid()}:{os.urandom(4).hex()}"
        self.lease_seconds = lease_seconds
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="stich-store")
        self._db: sqlite3.Connection | None = None
        self._checkpointed_at = 0        # the connection's total_changes when the last checkpoint began
        self._checkpoint: asyncio.Future | None = None
        self._listener: asyncio.Task | None = None

    async def _run(self, fn, *args):
        """Run `fn` on the loop (see the class), then start a checkpoint in the store's thread
        when CHECKPOINT_ROWS rows have been written since the last one."""
        try:
            out = fn(*args)
        except sqlite3.OperationalError as err:
            # a full disk, an I/O error, a locked or read-only file: nothing was written (the
            # transaction is rolled back), and a retry may succeed once the disk has room
            if self._db is None:
                raise                                # opening: the server says why it cannot start
            raise Unavailable(f"SQLite: {err}") from None
        db = self._db
        if (db is not None and self.path != ":memory:" and self._checkpoint is None
                and db.total_changes - self._checkpointed_at >= self.CHECKPOINT_ROWS):
            self._checkpointed_at = db.total_changes
            self._checkpoint = asyncio.get_running_loop().run_in_executor(self._thread, self._checkpoint_wal)
            self._checkpoint.add_done_callback(self._checkpointed)
        return out

    def _checkpoint_wal(self) -> None:
        """Copy the WAL into the database and fsync (PASSIVE: never blocks the loop's writes),
        on the thread's own connection."""
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def _checkpointed(self, future: asyncio.Future) -> None:
        self._checkpoint = None
        if not future.cancelled() and future.exception() is not None:
            log.warning("SQLite checkpoint failed (retried after more writes): %s", future.exception())

    # ---- the statements ---------------------------------------------------------------------
    def _open(self) -> None:
        """Connect, switch to WAL and migrate. Processes opening a new file at once (the workers
        of --workers N) race for it: switching the journal mode needs the file's exclusive lock,
        and SQLite answers "database is locked" at once, without its busy wait, where waiting
        could deadlock. Such an open is tried again (all of it: every migration is its own
        transaction and skips what another process applied) for up to OPEN_SECONDS."""
        deadline = time.monotonic() + self.OPEN_SECONDS
        pause = 0.005
        while True:
            db = sqlite3.connect(self.path, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("PRAGMA wal_autocheckpoint=0")      # checkpoints run in the store's thread
                self._migrate(db)
                break
            except sqlite3.OperationalError as err:
                db.close()
                if "locked" not in str(err) or time.monotonic() + pause > deadline:
                    raise
            except BaseException:
                db.close()
                raise
            time.sleep(pause * (0.5 + random.random()))       # apart, not in step with the other
            pause = min(2 * pause, 0.2)
        self._db = db
        self._checkpointed_at = db.total_changes

    @staticmethod
    def _migrate(db: sqlite3.Connection, upto: int = SCHEMA_VERSION) -> None:
        """Apply the missing MIGRATIONS in order, each in its own transaction with its
        schema_version row. A store written before schema_version existed said its version in
        PRAGMA user_version (kept up to date for older builds to refuse a newer store)."""
        with _immediate(db):
            db.execute(SCHEMA_VERSION_TABLE["sqlite"])
            current = db.execute("SELECT max(version) FROM schema_version").fetchone()[0]
            if current is None:
                current = db.execute("PRAGMA user_version").fetchone()[0]
                legacy = db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='actions'").fetchone()
                if current == 0 and legacy:
                    # the store of the thread-per-call server (tables/deals/actions): kept aside, untouched
                    for name in ("tables", "deals", "actions"):
                        db.execute(f"ALTER TABLE {name} RENAME TO legacy_{name}")
                db.executemany("INSERT INTO schema_version VALUES (?, ?, datetime('now'))",
                               [(m.version, m.description + " (from PRAGMA user_version)")
                                for m in MIGRATIONS if m.version <= current])
            if current > SCHEMA_VERSION:
                raise StoreError(newer_schema(current))
        for m in MIGRATIONS:
            if current < m.version <= upto:
                with _immediate(db):
                    # another process of a shared file may have applied it since the read above
                    if db.execute("SELECT 1 FROM schema_version WHERE version=?", (m.version,)).fetchone():
                        continue
                    for statement in m.statements("sqlite"):
                        db.execute(statement)
                    db.execute("INSERT INTO schema_version VALUES (?, ?, datetime('now'))",
                               (m.version, m.description))
                    db.execute(f"PRAGMA user_version={m.version}")

    def _db_or_fail(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the store is closed")
        return self._db

    def _create(self, table_id: str, spec: dict) -> None:
        with _immediate(self._db_or_fail(), lambda: Exists(f"table {table_id} exists")) as db:
            db.execute("INSERT INTO tables VALUES (?, ?)", (table_id, orjson.dumps(spec).decode()))
            db.execute("INSERT INTO log VALUES (?, 1, 0, NULL)", (table_id,))

    def _load_deal(self, db, table_id: str, number: int) -> StoredDeal | None:
        row = db.execute("SELECT first_version, start FROM deals WHERE table_id=? AND number=?",
                         (table_id, number)).fetchone()
        if row is None:
            return None
        first, start = row
        nxt = db.execute("SELECT first_version FROM deals WHERE table_id=? AND number=?",
                         (table_id, number + 1)).fetchone()
        end = nxt[0] if nxt else 2 ** 62
        actions = [_loads(a, f"log of deal {number}") for (a,) in db.execute(
            "SELECT action FROM log WHERE table_id=? AND version>? AND version<? ORDER BY version",
            (table_id, first, end))]
        return StoredDeal(number, first, _loads(start, f"start of deal {number}"), actions)

    def _load_table(self, table_id: str) -> StoredTable | None:
        with _snapshot(self._db_or_fail()) as db:      # another process may commit between the reads
            return self._read_table(db, table_id)

    def _read_table(self, db, table_id: str) -> StoredTable | None:
        row = db.execute("SELECT spec FROM tables WHERE id=?", (table_id,)).fetchone()
        if row is None:
            return None
        spec = _loads(row[0], "spec")
        last = _last_version(db, table_id)
        if last is None:
            raise Damaged("no log")
        number = db.execute("SELECT number FROM deals WHERE table_id=? ORDER BY number DESC LIMIT 1",
                            (table_id,)).fetchone()
        deal = self._load_deal(db, table_id, number[0]) if number else None
        claims = {seat: (token_hash, version) for seat, token_hash, version in db.execute(
            "SELECT seat, token_hash, version FROM claims WHERE table_id=?", (table_id,))}
        return StoredTable(spec, last, deal, claims)

    def _last_version(self, table_id: str) -> int | None:
        return _last_version(self._db_or_fail(), table_id)

    def _log_after(self, table_id: str, version: int) -> list[tuple[int, int, Any]]:
        return [(v, d, None if a is None else _loads(a, f"log version {v}")) for v, d, a in self._db_or_fail().execute(
            "SELECT version, deal, action FROM log WHERE table_id=? AND version>? ORDER BY version", (table_id, version))]

    def _deal_of_version(self, table_id: str, version: int) -> int | None:
        row = self._db_or_fail().execute("SELECT deal FROM log WHERE table_id=? AND version=?",
                                          (table_id, version)).fetchone()
        return None if row is None else row[0]

    def _commit(self, table_id: str, c: Commit) -> None:
        # the only key a commit can meet twice is its request id's (the version is checked in
        # the same write transaction): that request was answered meanwhile
        with _immediate(self._db_or_fail(),
                        lambda: Conflict(f"a request id of table {table_id} is answered already")) as db:
            last = _last_version(db, table_id)
            if last != c.base_version:
                raise Conflict(f"table {table_id} is at version {last}, not {c.base_version}")
            if c.deal_start is not None:
                number, first, start = c.deal_start
                db.execute("INSERT INTO deals VALUES (?, ?, ?, ?)",
                           (table_id, number, first, orjson.dumps(start).decode()))
            db.executemany("INSERT INTO log VALUES (?, ?, ?, ?)",
                           [(table_id, v, d, None if a is None else orjson.dumps(a).decode())
                            for v, d, a in c.rows])
            if c.request is not None:
                rid, fingerprint, answer = c.request
                db.execute("INSERT INTO requests VALUES (?, ?, ?, ?)",
                           (table_id, rid, fingerprint, orjson.dumps(answer)))
            if self.shared:
                if c.bot_turn:
                    db.execute("INSERT INTO bot_leases VALUES (?, ?, ?) ON CONFLICT (table_id) DO UPDATE "
                               "SET owner=excluded.owner, expires_at=excluded.expires_at",
                               (table_id, self.server_id, _stamp(self.lease_seconds)))
                else:
                    db.execute("DELETE FROM bot_leases WHERE table_id=?", (table_id,))
                self._notice(db, table_id, c.rows[-1][0])

    def _find_request(self, table_id: str, request_id: str):
        row = self._db_or_fail().execute(
            "SELECT fingerprint, answer FROM requests WHERE table_id=? AND request_id=?",
            (table_id, request_id)).fetchone()
        if row is None:
            return None
        return row[0], _loads(row[1], "stored answer")

    def _claim_seat(self, table_id: str, seat: int, token_hash: str, base_version: int) -> None:
        claimed = f"seat {seat} of table {table_id} is claimed"
        with _immediate(self._db_or_fail(), lambda: Exists(claimed)) as db:
            last = _last_version(db, table_id)
            if db.execute("SELECT 1 FROM claims WHERE table_id=? AND seat=?", (table_id, seat)).fetchone():
                raise Exists(claimed)
            if last != base_version:
                raise Conflict(f"table {table_id} is at version {last}, not {base_version}")
            version = base_version + 1
            db.execute("INSERT INTO claims VALUES (?, ?, ?, ?)", (table_id, seat, token_hash, version))
            db.execute("INSERT INTO log VALUES (?, ?, 0, ?)",
                       (table_id, version, orjson.dumps({"joined": seat}).decode()))
            if self.shared:
                self._notice(db, table_id, version)

    def _notice(self, db, table_id: str, version: int) -> None:
        """(In the commit's transaction.) Tell the other processes; the oldest notices go."""
        cur = db.execute("INSERT INTO notices (table_id, version) VALUES (?, ?)", (table_id, version))
        if cur.lastrowid % 1000 == 0:
            db.execute("DELETE FROM notices WHERE id <= ?", (cur.lastrowid - self.NOTICES_KEPT,))

    def _add_daily_entry(self, e: DailyEntry) -> None:
        try:
            cur = self._db_or_fail().execute(
                "INSERT INTO daily_entries SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM "
                "daily_entries WHERE game=? AND date=? AND lower(nickname)=lower(?) AND player_hash<>?)",
                (e.game, e.date, e.player_hash, e.nickname, e.score, e.table_id, e.submitted_at,
                 e.game, e.date, e.nickname, e.player_hash))
        except sqlite3.IntegrityError:
            raise Exists(f"the player has an entry for {e.game} on {e.date}") from None
        if cur.rowcount == 0:
            raise NicknameTaken(f"another player of {e.game} on {e.date} is called {e.nickname}")

    def _server_key(self, name: str, new_value: str) -> str:
        with _immediate(self._db_or_fail()) as db:
            db.execute("INSERT OR IGNORE INTO server_keys VALUES (?, ?, datetime('now'))", (name, new_value))
            return db.execute("SELECT value FROM server_keys WHERE name=?", (name,)).fetchone()[0]

    def _daily_entries(self, game: str, date: str, limit: int):
        db = self._db_or_fail()
        rows = db.execute("SELECT game, date, player_hash, nickname, score, table_id, submitted_at "
                          "FROM daily_entries WHERE game=? AND date=? "
                          "ORDER BY score DESC, submitted_at, player_hash LIMIT ?", (game, date, limit))
        entries = [DailyEntry(*row) for row in rows]
        total = db.execute("SELECT COUNT(*) FROM daily_entries WHERE game=? AND date=?",
                           (game, date)).fetchone()[0]
        return entries, total

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # ---- the interface --------------------------------------------------------------------------
    async def open(self) -> None:
        await self._run(self._open)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
            self._listener = None
        if self._checkpoint is not None:
            await asyncio.wait([self._checkpoint])
        self._close()                    # the last connection's close checkpoints the WAL
        self._thread.shutdown(wait=True)

    async def count_tables(self) -> int:
        return await self._run(lambda: self._db_or_fail().execute("SELECT COUNT(*) FROM tables").fetchone()[0])

    async def create_table(self, table_id: str, spec: dict) -> None:
        await self._run(self._create, table_id, spec)

    async def load_table(self, table_id: str) -> StoredTable | None:
        return await self._run(self._load_table, table_id)

    async def load_deal(self, table_id: str, number: int) -> StoredDeal | None:
        def read():
            with _snapshot(self._db_or_fail()) as db:
                return self._load_deal(db, table_id, number)
        return await self._run(read)

    async def deal_of_version(self, table_id: str, version: int) -> int | None:
        return await self._run(self._deal_of_version, table_id, version)

    async def last_version(self, table_id: str) -> int | None:
        return await self._run(self._last_version, table_id)

    async def log_after(self, table_id: str, version: int) -> list[tuple[int, int, Any]]:
        return await self._run(self._log_after, table_id, version)

    async def commit(self, table_id: str, commit: Commit) -> None:
        await self._run(self._commit, table_id, commit)

    async def find_request(self, table_id: str, request_id: str):
        return await self._run(self._find_request, table_id, request_id)

    async def claim_seat(self, table_id: str, seat: int, token_hash: str, base_version: int) -> None:
        await self._run(self._claim_seat, table_id, seat, token_hash, base_version)

    async def add_daily_entry(self, entry: DailyEntry) -> None:
        await self._run(self._add_daily_entry, entry)

    async def daily_entries(self, game: str, date: str, limit: int):
        return await self._run(self._daily_entries, game, date, limit)

    async def server_key(self, name: str, new_value: str) -> str:
        return await self._run(self._server_key, name, new_value)

    # ---- several processes on one file (shared) ------------------------------------------------
    def _take_bot_lease(self, table_id: str) -> bool:
        cur = self._db_or_fail().execute(
            "UPDATE bot_leases SET owner=?, expires_at=? WHERE table_id=? AND (owner=? OR expires_at < ?)",
            (self.server_id, _stamp(self.lease_seconds), table_id, self.server_id, _stamp(0)))
        return cur.rowcount == 1

    async def take_bot_lease(self, table_id: str) -> bool:
        return await self._run(self._take_bot_lease, table_id) if self.shared else True

    async def release_bot_lease(self, table_id: str) -> None:
        if self.shared:
            await self._run(lambda: self._db_or_fail().execute(
                "UPDATE bot_leases SET expires_at='' WHERE table_id=? AND owner=?", (table_id, self.server_id)))

    async def due_bot_tables(self, limit: int) -> list[str]:
        if not self.shared:
            return []
        return await self._run(lambda: [r[0] for r in self._db_or_fail().execute(
            "SELECT table_id FROM bot_leases WHERE expires_at < ? ORDER BY expires_at LIMIT ?", (_stamp(0), limit))])

    def listen(self, callback) -> None:
        """The other processes' commits, read from the notices whenever the file's data_version
        moves (SQLite bumps it when another connection commits); a process that fell more than
        NOTICES_KEPT behind hears (None, None): anything may have moved."""
        if self.shared and self._listener is None:
            self._listener = asyncio.ensure_future(self._listen(callback))

    async def _listen(self, callback) -> None:
        db = self._db_or_fail()
        seen = db.execute("SELECT coalesce(max(id), 0) FROM notices").fetchone()[0]
        version = db.execute("PRAGMA data_version").fetchone()[0]
        self.listening = True
        callback(None, None)                           # what happened before this process listened
        try:
            while self._db is not None:
                await asyncio.sleep(self.POLL_SECONDS)
                db = self._db_or_fail()
                now = db.execute("PRAGMA data_version").fetchone()[0]
                if now == version:
                    continue
                version = now
                with _snapshot(db):
                    oldest = db.execute("SELECT min(id) FROM notices").fetchone()[0]
                    rows = db.execute("SELECT id, table_id, version FROM notices WHERE id > ? ORDER BY id",
                                      (seen,)).fetchall()
                if oldest is not None and oldest > seen + 1 and seen:
                    callback(None, None)               # notices were pruned before this process read them
                for seen, table_id, v in rows:
                    callback(table_id, v)
        except (sqlite3.Error, StoreError) as err:
            log.warning("reading the notices of %s: %s", self.path, err)
            self.listening = False
            callback(None, None)
