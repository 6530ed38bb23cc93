"""Several servers on one shared store (`store.shared`): a table held in memory here may be
behind the store. Every call first compares its version with the store's last one (one indexed
read) and catches up; the store's notifications of other servers' commits wake the watched
tables held here (docs/service.md, "Several servers")."""
from __future__ import annotations

import logging
from . import errors
from .sections import locked
from .store import StoreError
from .tables import Table

log = logging.getLogger("stich.service")


class Freshness:
    """Keeps the tables of a TableManager current with the shared store."""

    def __init__(self, manager):
        self.manager = manager
        self._refreshing: dict[str, bool] = {}     # table id -> caught up again after this run

    async def fresh(self, table: Table) -> None:
        """Make a table held in memory current if another server moved it."""
        last = await self.manager.store.last_version(table.id)
        if last is not None and last != table.version:
            await locked(table, lambda: self.catch_up(table))

    async def catch_up(self, table: Table) -> bool:
        """(Holding the table's lock.) Reload the table from the store if the store is ahead,
        into the same Table object, so its watchers see the new events. True if it moved."""
        m = self.manager
        last = await m.store.last_version(table.id)
        if last is None or last == table.version:
            return False
        fresh = await m.restorer.read(table.id, forget=lambda: m.live.pop(table.id, None))
        table.match, table.deal, table.version, table.claims = fresh.match, fresh.deal, fresh.version, fresh.claims
        table.notify()
        return True

    def changed_elsewhere(self, table_id: str | None, version: int | None) -> None:
        """The store's notification: a version was committed (by any server). Watched tables
        held here catch up now; others when next used. (None, None): anything may have moved."""
        m = self.manager
        if m.closing:
            return
        if table_id is None:
            for t in list(m.live.values()):
                if t.watchers:
                    self.refresh_soon(t.id)
            return
        pending = m.loading.get(table_id)
        if pending is not None:         # a load that may have read the version before this one
            pending.add_done_callback(lambda _: self.refresh_soon(table_id))
            return
        table = m.live.get(table_id)
        if table is not None and table.watchers and version != table.version:
            self.refresh_soon(table_id)

    def refresh_soon(self, table_id: str) -> None:
        """Catch a table up in the background; a notice that comes while it runs makes it run
        once more (its read may have been older than that notice's commit)."""
        m = self.manager
        table = m.live.get(table_id)
        if table is None or m.closing:
            return
        if table_id in self._refreshing:
            self._refreshing[table_id] = True
            return
        self._refreshing[table_id] = True

        async def refresh():
            try:
                while self._refreshing.get(table_id) and not m.closing:
                    self._refreshing[table_id] = False
                    await locked(table, lambda: self.catch_up(table))
            except (errors.ServiceError, StoreError) as err:
                log.warning("table %s could not catch up: %s", table_id, err)
            finally:
                self._refreshing.pop(table_id, None)

        m.spawn(refresh())
