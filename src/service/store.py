"""Embedded persistence: a table is its records, appended to SQLite as actions are accepted.

Three tables: `tables` (the table's spec: game, options, seats, hashed tokens, seed), `deals`
(each deal's start: options, dealer, hands, blind) and `actions` (every accepted action, in
order). One transaction per accepted request, committed before the call returns; WAL mode
with synchronous=NORMAL survives a killed process (not a power cut). Restart replays
everything through the engine, so a stored action is re-judged by the same rules.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from typing import Iterator

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deals (
    table_id TEXT NOT NULL, number INTEGER NOT NULL, start TEXT NOT NULL,
    PRIMARY KEY (table_id, number));
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL, deal INTEGER NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (table_id, deal, idx));
"""


def _dumps(obj) -> str:
    return json.dumps(obj, separators=(",", ":"))


class Store:
    """One SQLite connection shared by all tables behind a lock (writes are short)."""

    def __init__(self, data_dir: str | None):
        if data_dir is None:
            path = ":memory:"
        else:
            os.makedirs(data_dir, exist_ok=True)
            path = os.path.join(data_dir, "stich.sqlite3")
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def write(self, table_id: str, spec: dict | None = None, deals=(), actions=()) -> None:
        """Commit one accepted change atomically: a new table's spec, deal starts
        [(number, start)], actions [(deal, index, action)]."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                if spec is not None:
                    db.execute("INSERT INTO tables VALUES (?, ?)", (table_id, _dumps(spec)))
                db.executemany("INSERT INTO deals VALUES (?, ?, ?)",
                               [(table_id, n, _dumps(start)) for n, start in deals])
                db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)",
                               [(table_id, d, i, _dumps(a)) for d, i, a in actions])
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def load(self) -> Iterator[tuple[str, dict, list[tuple[dict, list[dict]]]]]:
        """Every stored table: (id, spec, [(deal start, actions), ...]) in creation order."""
        with self._lock:
            tables = self._db.execute("SELECT id, spec FROM tables ORDER BY rowid").fetchall()
            deals = self._db.execute(
                "SELECT table_id, number, start FROM deals ORDER BY table_id, number").fetchall()
            actions = self._db.execute(
                "SELECT table_id, deal, action FROM actions ORDER BY table_id, deal, idx").fetchall()
        by_deal: dict[tuple[str, int], list[dict]] = {}
        for table_id, deal, action in actions:
            by_deal.setdefault((table_id, deal), []).append(json.loads(action))
        per_table: dict[str, list] = {}
        for table_id, number, start in deals:
            per_table.setdefault(table_id, []).append(
                (json.loads(start), by_deal.get((table_id, number), [])))
        for table_id, spec in tables:
            yield table_id, json.loads(spec), per_table.get(table_id, [])

    def close(self) -> None:
        with self._lock:
            self._db.close()
