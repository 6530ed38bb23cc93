"""WatchTable: a table's events after a version as one viewer may see them, live, until the
match is over and every event is sent (or the server closes). A watcher sleeps until its table
changes; earlier deals' events are replayed from the store a deal at a time."""
from __future__ import annotations

import asyncio
import time
from typing import AsyncIterator

from . import errors
from .tables import Table, created_event, event_of, joined_event

# A watcher sleeps until its table changes (close() wakes every live table too); it wakes on its
# own only this often, as a safety net: 10,000 idle streams woken every second took 43% of a core.
WATCH_WAKE_SECONDS = 5.0
WATCH_RECHECK_SECONDS = 5.0     # shared store: a watched table is compared with the store this often


class Watchers:
    """The event streams of the tables of a TableManager."""

    def __init__(self, manager):
        self.manager = manager

    async def watch(self, table_id: str, token: str, from_version: int) -> AsyncIterator[dict]:
        table = await self.manager.table(table_id)
        seat = table.viewer(token)
        if from_version < 0:
            raise errors.invalid("from_version", f"must be at least 0, got {from_version}")
        return self._watch(table, seat, from_version)

    async def _watch(self, table: Table, seat, version: int) -> AsyncIterator[dict]:
        m = self.manager
        table.watchers += 1
        try:
            if m.store.shared:           # a notice before this watcher counted was not acted on
                await m.freshness.fresh(table)
            checked = time.monotonic()
            while not m.closing:
                changed = table.changed
                events = await self.events_after(table, seat, version) if table.version > version else []
                for event in events:
                    yield event
                    version = event["version"]
                if events:
                    continue
                if table.match.is_over():
                    return
                try:
                    await asyncio.wait_for(changed.wait(), WATCH_WAKE_SECONDS)
                except asyncio.TimeoutError:
                    # the safety net of notices lost on the way: a cheap look now and then
                    if m.store.shared and time.monotonic() - checked >= WATCH_RECHECK_SECONDS:
                        checked = time.monotonic()
                        m.freshness.refresh_soon(table.id)
        finally:
            table.watchers -= 1
            m.evict(table)

    async def events_after(self, table: Table, seat, version: int) -> list[dict]:
        """The events after `version`: from the current deal in memory, else the next earlier
        deal's, replayed from the store (a deal at a time: no call costs more than a deal)."""
        m = self.manager
        out: list[dict] = []
        if version < 1:
            out.append({**created_event(), "match_scores": [0] * len(table.spec.seats)})
            version = 1
        for seat_joined, (_, v) in sorted(table.claims.items(), key=lambda c: c[1][1]):
            if v > version:
                out.append(joined_event(seat_joined, v, len(table.spec.seats)))
                version = v
        dlog, state = table.deal, table.match.current
        if dlog is None or version >= table.version:
            return out
        if version + 1 < dlog.first_version:
            number = await m.store.deal_of_version(table.id, version + 1)
            if number is None:
                raise m.restorer.mark_damaged(table.id, f"version {version + 1} is missing")
            match, dlog = await m.restorer.past_deal(table, number)
            state = match.current
        for entry in dlog.entries:
            if entry.version > version:
                out.append(event_of(dlog, entry, state, seat))
        return out
