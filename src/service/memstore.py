"""`--memory`: the store as plain data structures of this process, for tests, demos and
benchmarks that keep nothing. It has the `Store` contract of SQLite and PostgreSQL (the same
tests run on all three, tests/test_pg_store.py), without SQL: a commit is a version check and
a few appends, so a benchmark on `--memory` measures the server, not a database engine.

Whatever it keeps is a copy: the caller's action dicts, deal starts and answers can change
afterwards without changing the store (the SQLite store had that for free by serialising)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from .store import (Commit, Conflict, DailyEntry, Exists, NicknameTaken, StoredDeal, StoredTable, Store,
                    StoreError)


def _copy(value: Any) -> Any:
    """A deep copy of a JSON value (orjson round trip: faster than copy.deepcopy)."""
    return orjson.loads(orjson.dumps(value))


@dataclass
class _Table:
    spec: dict
    rows: list = field(default_factory=list)      # (deal, action or None), version = index + 1
    deals: dict = field(default_factory=dict)     # number -> (first_version, start)
    requests: dict = field(default_factory=dict)  # request id -> (fingerprint, answer as JSON bytes)
    claims: dict = field(default_factory=dict)    # seat -> (token_hash, version)


@dataclass
class MemoryData:
    """What a memory store holds. Stores made on one MemoryData see one truth (as servers on
    one database do); the service makes one per server."""
    tables: dict = field(default_factory=dict)    # table id -> _Table
    daily: dict = field(default_factory=dict)     # (game, date) -> {player_hash: DailyEntry}
    keys: dict = field(default_factory=dict)      # server secret name -> value


class MemoryStore(Store):
    """The `Store` interface over a MemoryData (every coroutine finishes without awaiting, so
    each call is atomic on the event loop: no locks)."""

    path = ":memory:"

    def __init__(self, data: MemoryData | None = None):
        self.data = MemoryData() if data is None else data
        self._open = False

    def _tables(self) -> dict:
        if not self._open:
            raise StoreError("the store is closed")
        return self.data.tables

    def _table(self, table_id: str) -> _Table | None:
        return self._tables().get(table_id)

    async def open(self) -> None:
        self._open = True

    async def close(self) -> None:
        self._open = False

    async def count_tables(self) -> int:
        return len(self._tables())

    async def create_table(self, table_id: str, spec: dict) -> None:
        tables = self._tables()
        if table_id in tables:
            raise Exists(f"table {table_id} exists")
        tables[table_id] = _Table(_copy(spec), [(0, None)])

    def _deal(self, t: _Table, number: int) -> StoredDeal | None:
        if number not in t.deals:
            return None
        first, start = t.deals[number]
        end = t.deals[number + 1][0] if number + 1 in t.deals else len(t.rows) + 1
        actions = [_copy(action) for _, action in t.rows[first:end - 1]]
        return StoredDeal(number, first, _copy(start), actions)

    async def load_table(self, table_id: str) -> StoredTable | None:
        t = self._table(table_id)
        if t is None:
            return None
        deal = self._deal(t, max(t.deals)) if t.deals else None
        return StoredTable(_copy(t.spec), len(t.rows), deal, dict(t.claims))

    async def load_deal(self, table_id: str, number: int) -> StoredDeal | None:
        t = self._table(table_id)
        return None if t is None else self._deal(t, number)

    async def deal_of_version(self, table_id: str, version: int) -> int | None:
        t = self._table(table_id)
        if t is None or not 1 <= version <= len(t.rows):
            return None
        return t.rows[version - 1][0]

    async def last_version(self, table_id: str) -> int | None:
        t = self._table(table_id)
        return None if t is None else len(t.rows)

    async def log_after(self, table_id: str, version: int) -> list[tuple[int, int, Any]]:
        t = self._table(table_id)
        if t is None:
            return []
        return [(v, deal, None if action is None else _copy(action))
                for v, (deal, action) in enumerate(t.rows[version:], start=version + 1)]

    async def commit(self, table_id: str, commit: Commit) -> None:
        t = self._table(table_id)
        last = None if t is None else len(t.rows)
        if last != commit.base_version:
            raise Conflict(f"table {table_id} is at version {last}, not {commit.base_version}")
        if commit.request is not None and commit.request[0] in t.requests:
            raise Conflict(f"a request id of table {table_id} is answered already")
        if [v for v, _, _ in commit.rows] != list(range(last + 1, last + 1 + len(commit.rows))):
            raise Conflict(f"table {table_id}: versions {[v for v, _, _ in commit.rows]} do not follow {last}")
        if commit.deal_start is not None:
            number, first, start = commit.deal_start
            if number in t.deals:
                raise Conflict(f"table {table_id} has deal {number} already")
            t.deals[number] = (first, _copy(start))
        t.rows.extend((deal, None if action is None else _copy(action)) for _, deal, action in commit.rows)
        if commit.request is not None:
            rid, fingerprint, answer = commit.request
            t.requests[rid] = (fingerprint, orjson.dumps(answer))

    async def find_request(self, table_id: str, request_id: str) -> tuple[str, Any] | None:
        t = self._table(table_id)
        found = None if t is None else t.requests.get(request_id)
        return None if found is None else (found[0], orjson.loads(found[1]))

    async def claim_seat(self, table_id: str, seat: int, token_hash: str, base_version: int) -> None:
        t = self._table(table_id)
        if t is not None and seat in t.claims:
            raise Exists(f"seat {seat} of table {table_id} is claimed")
        last = None if t is None else len(t.rows)
        if last != base_version:
            raise Conflict(f"table {table_id} is at version {last}, not {base_version}")
        t.claims[seat] = (token_hash, base_version + 1)
        t.rows.append((0, {"joined": seat}))

    async def add_daily_entry(self, entry: DailyEntry) -> None:
        self._tables()
        day = self.data.daily.setdefault((entry.game, entry.date), {})
        if entry.player_hash in day:
            raise Exists(f"the player has an entry for {entry.game} on {entry.date}")
        name = entry.nickname.lower()
        if any(e.nickname.lower() == name for e in day.values()):
            raise NicknameTaken(f"another player of {entry.game} on {entry.date} is called {entry.nickname}")
        day[entry.player_hash] = entry

    async def daily_entries(self, game: str, date: str, limit: int) -> tuple[list[DailyEntry], int]:
        self._tables()
        day = self.data.daily.get((game, date), {})
        best = sorted(day.values(), key=lambda e: (-e.score, e.submitted_at, e.player_hash))
        return best[:max(0, limit)], len(day)

    async def server_key(self, name: str, new_value: str) -> str:
        self._tables()
        return self.data.keys.setdefault(name, new_value)
