"""Several servers on one shared store (`store.shared`): a table held in memory here may be
behind the store. Every commit is announced (the store's `listen`: PostgreSQL's NOTIFY, heard
on one connection per server), so a server knows which tables another server moved without
asking (docs/service.md, "Several servers"):

- an action asks the store nothing first: its commit is written only if the table is still at
  the version it was judged on (the log's key), and a commit that meets a newer version
  catches up and judges again. It catches up first only when the notices say the table is
  behind, or when notices may have been missed (the listening connection is down, or was down
  since the table was last read);
- a read compares the table's version with the store's last one (one indexed read) and catches
  up first, so that a client moving between servers never reads a version older than one it
  was answered elsewhere (a notice may still be on its way);
- watched tables catch up as soon as a notice comes, and all of them after listening was lost.
"""
from __future__ import annotations

import logging
from . import errors
from .sections import locked
from .store import StoreError
from .tables import DealLog, Table, apply_logged

log = logging.getLogger("stich.service")
FOLLOW_ROWS = 64        # more rows behind than this: read the table whole (see Freshness.follow)


class Freshness:
    """Keeps the tables of a TableManager current with the shared store."""

    def __init__(self, manager):
        self.manager = manager
        self._refreshing: dict[str, bool] = {}     # table id -> caught up again after this run
        self.heard: dict[str, int] = {}            # table id -> the newest version announced
        self.unsure: set[str] = set()              # held while notices may have been missed

    def behind(self, table: Table) -> bool:
        """The table may be behind the store as far as this server can tell without asking."""
        if not self.manager.store.listening or table.id in self.unsure:
            return True
        heard = self.heard.get(table.id)
        if heard is not None and heard <= table.version:
            del self.heard[table.id]
            return False
        return heard is not None

    async def before_action(self, table: Table) -> None:
        """Catch up if the table is known or feared to be behind; otherwise no round trip."""
        if self.behind(table):
            await locked(table, lambda: self.catch_up(table))

    async def fresh(self, table: Table) -> None:
        """Before a read: make the table current if another server moved it (one indexed read)."""
        last = await self.manager.store.last_version(table.id)
        if last is not None and last != table.version:
            await locked(table, lambda: self.catch_up(table))

    async def catch_up(self, table: Table) -> bool:
        """(Holding the table's lock.) Reload the table from the store if the store is ahead,
        into the same Table object, so its watchers see the new events. True if it moved."""
        m = self.manager
        # sure from this read on (a loss of listening meanwhile makes it unsure again)
        self.unsure.discard(table.id)
        try:
            last = await m.store.last_version(table.id)
        except BaseException:
            self.unsure.add(table.id)
            raise
        if last is None or last == table.version:
            return False
        if await self.follow(table, last):
            table.notify()
            return True
        fresh = await m.restorer.read(table.id, forget=lambda: m.live.pop(table.id, None))
        table.match, table.deal, table.version, table.claims = fresh.match, fresh.deal, fresh.version, fresh.claims
        table.notify()
        return True

    async def follow(self, table: Table, last: int) -> bool:
        """(Holding the table's lock.) Apply the actions another server committed since the
        version held, when they all belong to the deal held here (a few rows instead of the
        whole deal read and replayed: servers taking turns on one table do this on most
        actions). False, changing nothing, where it cannot (a new deal, open seats, a gap of
        more than FOLLOW_ROWS, rows the rules refuse): the caller reads the whole table."""
        deal = table.deal
        if deal is None or table.open_seats() or last - table.version > FOLLOW_ROWS:
            return False
        rows = await self.manager.store.log_after(table.id, table.version)
        if not rows or rows[0][0] != table.version + 1 or any(d != deal.number or a is None for _, d, a in rows):
            return False
        match = table.match.copy()
        entries = list(deal.entries)
        try:
            apply_logged(match, entries, deal.first_version, ((version, action) for version, _, action in rows))
        except Exception:  # noqa: BLE001 - whatever the rows hold, the whole read judges them
            return False
        table.match, table.version = match, rows[-1][0]
        table.deal = DealLog(deal.number, deal.first_version, deal.start, entries)
        return True

    def changed_elsewhere(self, table_id: str | None, version: int | None) -> None:
        """The store's notice: a version was committed (by any server). Watched tables held here
        catch up now; others before their next action. (None, None): anything may have moved."""
        m = self.manager
        if m.closing:
            return
        if table_id is None:
            self.unsure = set(m.live)
            self.heard.clear()
            for loading_id, pending in m.loading.items():     # their reads may be older than this
                pending.add_done_callback(lambda _, t=loading_id: self.unsure.add(t))
            for t in list(m.live.values()):
                if t.watchers:
                    self.refresh_soon(t.id)
            return
        pending = m.loading.get(table_id)
        if pending is not None:         # a load that may have read the version before this one
            pending.add_done_callback(lambda _: self.refresh_soon(table_id))
            return
        table = m.live.get(table_id)
        if table is None or version is None or version <= table.version:
            return                      # not held (a load reads the store), or this server's own
        if len(self.heard) > len(m.live) + 1000:     # tables that left memory since
            self.heard = {k: v for k, v in self.heard.items() if k in m.live}
            self.unsure &= set(m.live)
        self.heard[table_id] = max(version, self.heard.get(table_id, 0))
        if table.watchers:
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
