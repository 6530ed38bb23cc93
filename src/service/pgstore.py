"""The PostgreSQL store: the same tables and migrations as SQLite (store.MIGRATIONS), shared by
several servers (`--database postgresql://...`). What keeps them one truth:

- a version is written once: the (table_id, version) key of `log` decides between two servers
  committing the same version; the loser gets Conflict and reloads (the versions of a table
  follow each other, so a commit based on an old version always meets a row already there);
- a commit NOTIFYs `stich_tables` with "table_id version" in its own transaction, so every
  server's listener learns of it when (and only if) it is committed;
- a table whose turn is a bot's has a `bot_leases` row, written by the commit that made it so:
  the server holding the live lease plays the bots; an expired lease (its server died) is taken
  by another server's sweep.

An action is one round trip: its log rows, its deal start, its request id, the lease change and
the notification are one statement (a data-modifying WITH) in autocommit, that is one implicit
transaction: all of it commits or none. `round_trips` counts what the store sends (statements,
and a transaction's BEGIN and COMMIT), also as the metric stich_store_round_trips.

psycopg 3, asynchronous, one pool per server plus one listening connection.
"""
from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from contextlib import asynccontextmanager
from typing import Any

import orjson
from prometheus_client import Counter

from .config import Config
from .observe import REGISTRY
from .store import (MIGRATIONS, SCHEMA_VERSION, SCHEMA_VERSION_TABLE, Commit, DailyEntry, Damaged,
                    Conflict, Exists, NicknameTaken, Store, StoreError, StoredDeal, StoredTable, Unavailable, _loads,
                    newer_schema)

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg_pool import AsyncConnectionPool, PoolTimeout
except ImportError:                      # the postgres extra is not installed
    psycopg = None

log = logging.getLogger("stich.service")
CHANNEL = "stich_tables"
MIGRATION_LOCK = 0x5717C4             # pg_advisory_xact_lock key: one server migrates at a time
CONNECT_SECONDS = 5
# libpq's TCP keepalives of the LISTEN connection: silence for 10 s, then 3 probes 5 s apart
LISTEN_KEEPALIVE = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3}
_END = 2 ** 31 - 1
ROUND_TRIPS = Counter("stich_store_round_trips", "Round trips to PostgreSQL: statements sent, and a "
                      "transaction's BEGIN and COMMIT (an action is one)", registry=REGISTRY)

# An accepted request in one statement (see the module). Every part of a WITH runs once and to
# its end whether the final SELECT reads it or not, so each writes only if the log rows were
# written (`l` returns them), and those only if the table is at the base version; a unique
# violation anywhere rolls back all of it, the notification included (NOTIFY is delivered at
# commit). The statement returns a row if it wrote. The log rows come as arrays (one row for a
# person's action, more when bots begin a deal).
_WROTE = "EXISTS (SELECT 1 FROM l)"
_LOG_ROWS = ("INSERT INTO log SELECT %(t)s, * FROM unnest(%(versions)s::int[], %(deals)s::int[], "
             "%(actions)s::text[]) WHERE EXISTS (SELECT 1 FROM log WHERE table_id=%(t)s AND version=%(base)s) "
             "RETURNING 1")
_DEAL = f"INSERT INTO deals SELECT %(t)s, %(number)s, %(first)s, %(start)s WHERE {_WROTE}"
_REQUEST = f"INSERT INTO requests SELECT %(t)s, %(rid)s, %(fingerprint)s, %(answer)s WHERE {_WROTE}"
_BOTS_LEASED = ("INSERT INTO bot_leases SELECT %(t)s, %(owner)s, clock_timestamp() + make_interval(secs => "
                f"%(lease)s) WHERE {_WROTE} ON CONFLICT (table_id) DO UPDATE SET owner=EXCLUDED.owner, "
                "expires_at=EXCLUDED.expires_at")
_BOTS_DONE = f"DELETE FROM bot_leases WHERE table_id=%(t)s AND {_WROTE}"
_NOTIFY = f"SELECT pg_notify('{CHANNEL}', %(note)s) WHERE {_WROTE}"


def commit_statement(with_deal: bool, with_request: bool, bot_turn: bool) -> str:
    """The one statement of a commit (eight variants, each prepared once per connection)."""
    parts = [f"l AS ({_LOG_ROWS})"]
    if with_deal:
        parts.append(f"d AS ({_DEAL})")
    if with_request:
        parts.append(f"r AS ({_REQUEST})")
    parts.append(f"b AS ({_BOTS_LEASED if bot_turn else _BOTS_DONE})")
    return f"WITH {', '.join(parts)} {_NOTIFY}"


if psycopg is not None:
    class _CountingCursor(psycopg.AsyncCursor):
        async def execute(self, *args, **kwargs):
            _count(self.connection)
            return await super().execute(*args, **kwargs)

        async def executemany(self, *args, **kwargs):
            _count(self.connection)
            return await super().executemany(*args, **kwargs)

    class _CountingConnection(psycopg.AsyncConnection):
        """A connection that counts its round trips into its store (`store` is set by the pool's
        configure): statements through its cursors, a transaction's BEGIN and COMMIT."""
        store = None

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.cursor_factory = _CountingCursor

        @asynccontextmanager
        async def transaction(self, *args, **kwargs):
            _count(self, 2)
            async with super().transaction(*args, **kwargs) as tx:
                yield tx


def _count(conn, n: int = 1) -> None:
    store = getattr(conn, "store", None)
    if store is not None:
        store.round_trips += n
        ROUND_TRIPS.inc(n)


def display_url(url: str) -> str:
    """The database URL as a log line or an error may show it: no password."""
    try:
        params = psycopg.conninfo.conninfo_to_dict(url)
    except Exception:  # noqa: BLE001 - only for display
        return "postgresql://?"
    user = f"{params['user']}@" if params.get("user") else ""
    port = f":{params['port']}" if params.get("port") else ""
    return f"postgresql://{user}{params.get('host', '')}{port}/{params.get('dbname', '')}"


def one_line(err: BaseException) -> str:
    """psycopg's multi-line messages as one line."""
    text = "; ".join(line.strip() for line in str(err).splitlines() if line.strip())
    return text.removeprefix("connection failed: ") or type(err).__name__


def check_available() -> None:
    if psycopg is None:
        raise StoreError("PostgreSQL needs psycopg 3: pip install 'stich[postgres]'")


async def migrate(conn, upto: int = SCHEMA_VERSION) -> int:
    """Apply the missing MIGRATIONS to the database of `conn` (autocommit), in order, each in
    its own transaction under an advisory lock (servers starting together migrate once).
    Returns the schema version."""
    current = 0
    for m in (None, *MIGRATIONS):
        if m is not None and not current < m.version <= upto:
            continue
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            await conn.execute(SCHEMA_VERSION_TABLE["postgres"])
            cur = await conn.execute("SELECT coalesce(max(version), 0) FROM schema_version")
            current = (await cur.fetchone())[0]
            if current > SCHEMA_VERSION:
                raise StoreError(newer_schema(current))
            if m is None or m.version <= current:
                continue
            for statement in m.statements("postgres"):
                await conn.execute(statement)
            await conn.execute("INSERT INTO schema_version (version, description) VALUES (%s, %s)",
                               (m.version, m.description))
            current = m.version
    return current


class PostgresStore(Store):
    """Store on PostgreSQL; `server_id` names this server in the bots' leases."""

    shared = True

    def __init__(self, url: str, server_id: str | None = None, lease_seconds: float = Config.lease_seconds,
                 pool_size: int = Config.pool_size, synchronous_commit: str = Config.synchronous_commit):
        check_available()
        self.url = url
        self.path = display_url(url)
        self.server_id = server_id or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.lease_seconds = lease_seconds
        self.pool_size = pool_size
        self.synchronous_commit = synchronous_commit   # "": the database's setting (config.py)
        self._pool: AsyncConnectionPool | None = None
        self._listener: asyncio.Task | None = None
        self._callback = None
        self.listening = False     # the LISTEN connection is up: every commit since is heard
        self.reconnect_seconds = 0.2  # the first pause before listening again (doubled up to 5 s)
        # pg_stat_activity.application_name of its connections (which server's, for an operator)
        self.listener_name = f"stich listen {self.server_id}"[:63]
        self.pool_name = f"stich {self.server_id}"[:63]
        self.round_trips = 0       # sent through the pool (see the module)

    # ---- connections ------------------------------------------------------------------------
    async def open(self) -> None:
        try:
            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                         connect_timeout=CONNECT_SECONDS)
        except psycopg.Error as err:
            raise Unavailable(f"cannot connect to {self.path}: {one_line(err)}") from None
        try:
            async with conn:
                await migrate(conn)
        except psycopg.Error as err:
            raise StoreError(f"cannot migrate {self.path}: {one_line(err)}") from None

        async def configure(conn) -> None:
            conn.store = self
            if self.synchronous_commit:          # once per connection, not per commit
                await conn.execute(f"SET synchronous_commit = {self.synchronous_commit}")

        pool = AsyncConnectionPool(self.url, min_size=1, max_size=self.pool_size, open=False,
                                   connection_class=_CountingConnection, configure=configure,
                                   kwargs={"autocommit": True, "connect_timeout": CONNECT_SECONDS,
                                           "application_name": self.pool_name},
                                   timeout=CONNECT_SECONDS * 2, name="stich")
        try:
            await pool.open(wait=True, timeout=CONNECT_SECONDS * 2)
        except PoolTimeout:
            await pool.close()
            raise Unavailable(f"cannot connect to {self.path}: no connection within "
                              f"{CONNECT_SECONDS * 2} s") from None
        self._pool = pool

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            try:
                await self._listener
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - closing anyway
                pass
            self._listener = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @asynccontextmanager
    async def _conn(self):
        """A pooled connection; a database that stops answering is Unavailable, not a defect."""
        if self._pool is None:
            raise StoreError("the store is closed")
        try:
            async with self._pool.connection() as conn:
                yield conn
        except PoolTimeout:
            raise Unavailable(f"no connection to {self.path} (pool timeout)") from None
        except (psycopg.OperationalError, psycopg.InterfaceError) as err:
            raise Unavailable(f"{self.path}: {one_line(err)}"[:300]) from None

    async def _one(self, sql: str, args=()):
        async with self._conn() as conn:
            cur = await conn.execute(sql, args)
            return await cur.fetchone()

    # ---- tables -------------------------------------------------------------------------------
    async def count_tables(self) -> int:
        return (await self._one("SELECT count(*) FROM tables"))[0]

    async def create_table(self, table_id: str, spec: dict) -> None:
        try:
            async with self._conn() as conn, conn.transaction():
                await conn.execute("INSERT INTO tables VALUES (%s, %s)", (table_id, orjson.dumps(spec).decode()))
                await conn.execute("INSERT INTO log VALUES (%s, 1, 0, NULL)", (table_id,))
        except pg_errors.UniqueViolation:
            raise Exists(f"table {table_id} exists") from None

    @staticmethod
    async def _load_deal(conn, table_id: str, number: int) -> StoredDeal | None:
        cur = await conn.execute(
            "SELECT first_version, start, (SELECT first_version FROM deals WHERE table_id=%s AND number=%s) "
            "FROM deals WHERE table_id=%s AND number=%s", (table_id, number + 1, table_id, number))
        row = await cur.fetchone()
        if row is None:
            return None
        first, start, end = row
        cur = await conn.execute(
            "SELECT action FROM log WHERE table_id=%s AND version>%s AND version<%s ORDER BY version",
            (table_id, first, end if end is not None else _END))
        actions = [_loads(a, f"log of deal {number}") for (a,) in await cur.fetchall()]
        return StoredDeal(number, first, _loads(start, f"start of deal {number}"), actions)

    async def load_table(self, table_id: str) -> StoredTable | None:
        # one snapshot: a commit of another server between these reads cannot mix two versions
        async with self._conn() as conn, conn.transaction():
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cur = await conn.execute(
                "SELECT spec, (SELECT max(version) FROM log WHERE table_id=%s), "
                "(SELECT max(number) FROM deals WHERE table_id=%s) FROM tables WHERE id=%s",
                (table_id, table_id, table_id))
            row = await cur.fetchone()
            if row is None:
                return None
            spec_text, last, number = row
            spec = _loads(spec_text, "spec")
            if last is None:
                raise Damaged("no log")
            deal = await self._load_deal(conn, table_id, number) if number is not None else None
            cur = await conn.execute("SELECT seat, token_hash, version FROM claims WHERE table_id=%s", (table_id,))
            claims = {seat: (h, v) for seat, h, v in await cur.fetchall()}
        return StoredTable(spec, last, deal, claims)

    async def load_deal(self, table_id: str, number: int) -> StoredDeal | None:
        async with self._conn() as conn, conn.transaction():
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return await self._load_deal(conn, table_id, number)

    async def deal_of_version(self, table_id: str, version: int) -> int | None:
        row = await self._one("SELECT deal FROM log WHERE table_id=%s AND version=%s", (table_id, version))
        return None if row is None else row[0]

    async def last_version(self, table_id: str) -> int | None:
        return (await self._one("SELECT max(version) FROM log WHERE table_id=%s", (table_id,)))[0]

    async def log_after(self, table_id: str, version: int) -> list[tuple[int, int, Any]]:
        async with self._conn() as conn:
            cur = await conn.execute("SELECT version, deal, action FROM log WHERE table_id=%s AND version>%s "
                                     "ORDER BY version", (table_id, version))
            return [(v, d, None if a is None else _loads(a, f"log version {v}")) for v, d, a in await cur.fetchall()]

    async def commit(self, table_id: str, c: Commit) -> None:
        args = {"t": table_id, "base": c.base_version, "versions": [v for v, _, _ in c.rows], "deals": [d for _, d, _ in c.rows],
                "actions": [None if a is None else orjson.dumps(a).decode() for _, _, a in c.rows],
                "note": f"{table_id} {c.rows[-1][0]}", "owner": self.server_id, "lease": self.lease_seconds}
        if [v for v, _, _ in c.rows] != list(range(c.base_version + 1, c.base_version + 1 + len(c.rows))):
            raise Conflict(f"table {table_id}: versions {[v for v, _, _ in c.rows]} do not follow {c.base_version}")
        if c.deal_start is not None:
            number, first, start = c.deal_start
            args.update(number=number, first=first, start=orjson.dumps(start).decode())
        if c.request is not None:
            rid, fp, answer = c.request
            args.update(rid=rid, fingerprint=fp, answer=orjson.dumps(answer))
        sql = commit_statement(c.deal_start is not None, c.request is not None, c.bot_turn)
        try:
            async with self._conn() as conn:
                wrote = await (await conn.execute(sql, args)).fetchone()
        except pg_errors.UniqueViolation:
            # another server wrote this version (the table is past base_version), or this
            # request id was answered
            raise Conflict(f"table {table_id} moved past version {c.base_version} meanwhile") from None
        if wrote is None:
            raise Conflict(f"table {table_id} has no version {c.base_version} to follow")

    async def find_request(self, table_id: str, request_id: str):
        row = await self._one("SELECT fingerprint, answer FROM requests WHERE table_id=%s AND request_id=%s",
                              (table_id, request_id))
        if row is None:
            return None
        return row[0], _loads(bytes(row[1]), "stored answer")

    # ---- rooms and the daily leaderboard --------------------------------------------------------
    async def claim_seat(self, table_id: str, seat: int, token_hash: str, base_version: int) -> None:
        # one statement, like a commit: the log's key decides between this join and any other
        # change of the table, the claims key between racing joins of a seat. A claim that
        # wrote nothing reads which it was (a claimed seat says so before a moved table).
        version = base_version + 1
        claimed = f"seat {seat} of table {table_id} is claimed"
        try:
            async with self._conn() as conn:
                cur = await conn.execute(
                    "WITH l AS (INSERT INTO log SELECT %(t)s, %(v)s, 0, %(action)s WHERE EXISTS (SELECT 1 FROM "
                    "log WHERE table_id=%(t)s AND version=%(base)s) RETURNING 1), "
                    f"c AS (INSERT INTO claims SELECT %(t)s, %(seat)s, %(hash)s, %(v)s WHERE {_WROTE}) {_NOTIFY}",
                    {"t": table_id, "seat": seat, "hash": token_hash, "v": version, "base": base_version,
                     "action": orjson.dumps({"joined": seat}).decode(), "note": f"{table_id} {version}"})
                if await cur.fetchone() is not None:
                    return
        except pg_errors.UniqueViolation as err:
            if getattr(err.diag, "table_name", None) == "claims":
                raise Exists(claimed) from None
        if await self._one("SELECT 1 FROM claims WHERE table_id=%s AND seat=%s", (table_id, seat)):
            raise Exists(claimed)
        raise Conflict(f"table {table_id} moved past version {base_version} meanwhile")

    async def add_daily_entry(self, e: DailyEntry) -> None:
        try:
            async with self._conn() as conn, conn.transaction():
                # one entry at a time per game and day: the nickname check and the insert agree
                await conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"daily:{e.game}:{e.date}",))
                cur = await conn.execute(
                    "INSERT INTO daily_entries SELECT %s, %s, %s, %s, %s, %s, %s WHERE NOT EXISTS (SELECT 1 "
                    "FROM daily_entries WHERE game=%s AND date=%s AND lower(nickname)=lower(%s) AND player_hash<>%s)",
                    (e.game, e.date, e.player_hash, e.nickname, e.score, e.table_id, e.submitted_at,
                     e.game, e.date, e.nickname, e.player_hash))
                if cur.rowcount == 0:
                    raise NicknameTaken(f"another player of {e.game} on {e.date} is called {e.nickname}")
        except pg_errors.UniqueViolation:
            raise Exists(f"the player has an entry for {e.game} on {e.date}") from None

    async def server_key(self, name: str, new_value: str) -> str:
        async with self._conn() as conn, conn.transaction():
            await conn.execute("INSERT INTO server_keys VALUES (%s, %s, now()::text) ON CONFLICT (name) DO NOTHING",
                               (name, new_value))
            cur = await conn.execute("SELECT value FROM server_keys WHERE name=%s", (name,))
            return (await cur.fetchone())[0]

    async def daily_entries(self, game: str, date: str, limit: int):
        async with self._conn() as conn:
            cur = await conn.execute(
                "SELECT game, date, player_hash, nickname, score, table_id, submitted_at FROM daily_entries "
                "WHERE game=%s AND date=%s ORDER BY score DESC, submitted_at, player_hash LIMIT %s",
                (game, date, limit))
            entries = [DailyEntry(*row) for row in await cur.fetchall()]
            cur = await conn.execute("SELECT count(*) FROM daily_entries WHERE game=%s AND date=%s", (game, date))
            total = (await cur.fetchone())[0]
        return entries, total

    # ---- several servers -------------------------------------------------------------------------
    async def take_bot_lease(self, table_id: str) -> bool:
        row = await self._one(
            "UPDATE bot_leases SET owner=%s, expires_at=clock_timestamp() + make_interval(secs => %s) "
            "WHERE table_id=%s AND (owner=%s OR expires_at < clock_timestamp()) RETURNING 1",
            (self.server_id, self.lease_seconds, table_id, self.server_id))
        return row is not None

    async def release_bot_lease(self, table_id: str) -> None:
        async with self._conn() as conn:
            await conn.execute("UPDATE bot_leases SET expires_at='-infinity' WHERE table_id=%s AND owner=%s",
                               (table_id, self.server_id))

    async def due_bot_tables(self, limit: int) -> list[str]:
        async with self._conn() as conn:
            cur = await conn.execute("SELECT table_id FROM bot_leases WHERE expires_at < clock_timestamp() "
                                     "ORDER BY expires_at LIMIT %s", (limit,))
            return [r[0] for r in await cur.fetchall()]

    def listen(self, callback) -> None:
        self._callback = callback
        if self._listener is None:
            self._listener = asyncio.ensure_future(self._listen())

    async def _listen(self) -> None:
        """One connection LISTENing for the whole server, reconnecting while the store is open."""
        pause = self.reconnect_seconds
        while True:
            try:
                # TCP keepalives: a connection that died silently (a network partition) is
                # found out within about 25 s (LISTEN_KEEPALIVE), not never
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                             connect_timeout=CONNECT_SECONDS,
                                                             application_name=self.listener_name,
                                                             **LISTEN_KEEPALIVE)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    pause = self.reconnect_seconds
                    self.listening = True
                    self._callback(None, None)         # what was missed while not listening
                    async for note in conn.notifies():
                        table_id, _, version = note.payload.partition(" ")
                        if version.isdigit():
                            self._callback(table_id, int(version))
            except asyncio.CancelledError:
                self.listening = False
                raise
            except psycopg.Error as err:
                log.warning("listening to %s: %s; again in %.1f s", self.path, one_line(err), pause)
            except Exception:  # noqa: BLE001 - a defect of the callback must not end the listener
                log.exception("listener of %s", self.path)
            if self.listening:                         # lost: until it is back, nothing is heard
                self.listening = False
                self._callback(None, None)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)
