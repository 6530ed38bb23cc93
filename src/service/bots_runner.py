"""The bots' turns at a table: played off the request path (a person's call has returned),
one action at a time, each committed and announced like any action. With a shared store a bot
turn is played by the server holding the table's bot lease; every server sweeps for expired
leases, so a dead server's bot turns go on elsewhere (docs/service.md, "Several servers")."""
from __future__ import annotations

import asyncio
import logging

from . import errors
from .sections import locked
from .store import Commit, Conflict, StoreError
from .tables import DealLog, Table, bot_action, bot_to_act_in, entry_after

log = logging.getLogger("stich.service")
SWEEP_BATCH = 32


class BotRunner:
    """The bot task of each table of a TableManager, and the sweep for orphaned bot turns."""

    def __init__(self, manager):
        self.manager = manager
        self.sweeper: asyncio.Task | None = None

    def start_sweeping(self) -> None:
        if self.sweeper is None:
            self.sweeper = asyncio.ensure_future(self._sweep())

    def schedule(self, table: Table) -> None:
        """Start the table's bot task if a bot is to act and none runs."""
        m = self.manager
        if m.closing or table.bot_to_act() is None or m.live.get(table.id) is not table:
            return
        if table.bots is not None and not table.bots.done():
            return
        table.bots = asyncio.ensure_future(self._run(table))
        # a match the bots finish leaves memory once their task is done (inside the task the
        # table is not idle yet: its own task still runs)
        table.bots.add_done_callback(lambda _task: m.evict(table))

    async def _run(self, table: Table) -> None:
        m = self.manager
        delay = table.spec.settings.get("bot_delay_ms", 0) / 1000
        shared = m.store.shared
        leased = renewed = False
        try:
            while not m.closing and table.bot_to_act() is not None and m.live.get(table.id) is table:
                if shared and not renewed:
                    # the lease first: exactly one server plays a table's bots (a bot's commit
                    # here that left the turn to a bot renewed it already: one round trip less)
                    leased = await m.store.take_bot_lease(table.id)
                    if not leased:
                        return
                if delay:
                    await self._keeping_lease(table, asyncio.sleep(delay))
                renewed = await locked(table, lambda: self._step(table))
            leased = False          # the last bot's commit removed the row (or kept it ours)
        except asyncio.CancelledError:
            raise
        except (errors.ServiceError, StoreError) as err:
            log.warning("bots of table %s stopped: %s", table.id, getattr(err, "reason", None) or err)
        except Exception:  # noqa: BLE001 - a bot's defect stops this table's bots only
            log.exception("bots of table %s stopped", table.id)
        finally:
            if shared and leased and not m.closing:
                m.spawn(self.release(table.id))
            m.evict(table)

    async def release(self, table_id: str) -> None:
        try:
            await self.manager.store.release_bot_lease(table_id)
        except StoreError as err:
            log.warning("lease of table %s not released (it expires): %s", table_id, err)

    async def _keeping_lease(self, table: Table, awaitable):
        """Await `awaitable` (a bot thinking, its delay) renewing the table's bot lease."""
        store = self.manager.store
        if not store.shared:
            return await awaitable

        async def renew():
            while True:
                await asyncio.sleep(store.lease_seconds / 3)
                if not await store.take_bot_lease(table.id):
                    return

        keeper = asyncio.ensure_future(renew())
        try:
            return await awaitable
        finally:
            keeper.cancel()

    async def _step(self, table: Table) -> bool:
        """One bot's action; True if it was committed and a bot is to act next (the commit
        made the lease this server's, for lease_seconds from now)."""
        m = self.manager
        if m.store.shared and m.freshness.behind(table):
            await m.freshness.catch_up(table)     # the bot may have acted on another server already
        seat = table.bot_to_act()
        if seat is None:
            return False

        def job():
            work = table.match.copy()
            version = table.version + 1
            work.apply(bot_action(table.spec, work.current, seat, version))
            d = table.deal
            dlog = DealLog(d.number, d.first_version, d.start, list(d.entries))
            dlog.entries.append(entry_after(work, version, len(work.current.actions) - 1))
            return work, dlog, Commit(table.version, [(version, d.number, work.current.actions[-1])],
                                      bot_turn=bot_to_act_in(table.spec, work) is not None)

        work, dlog, commit = await self._keeping_lease(table, m.work(job))
        try:
            await m.store.commit(table.id, commit)
        except Conflict:
            await m.freshness.catch_up(table)     # another server played it: the loop looks again
            return False
        table.match, table.deal, table.version = work, dlog, commit.rows[-1][0]
        table.notify()
        return commit.bot_turn

    async def _sweep(self) -> None:
        """Every `sweep_seconds` of the manager: bot turns whose lease expired (their server died, or gave them
        up) are taken and played here."""
        m = self.manager
        while not m.closing:
            await asyncio.sleep(m.sweep_seconds)
            try:
                for table_id in await m.store.due_bot_tables(SWEEP_BATCH):
                    if m.closing:
                        return
                    held = m.live.get(table_id)
                    if held is not None and held.bots is not None and not held.bots.done():
                        continue
                    if not await m.store.take_bot_lease(table_id):
                        continue
                    try:
                        table = await m.table(table_id)        # loads (and schedules) or catches up
                    except errors.ServiceError as err:
                        log.warning("bot turn of table %s not resumed: %s", table_id, err.reason)
                        await self.release(table_id)
                        continue
                    self.schedule(table)
                    if table.bots is None or table.bots.done():
                        await self.release(table_id)
            except asyncio.CancelledError:
                raise
            except StoreError as err:
                log.warning("bot sweep: %s", err)
            except Exception:  # noqa: BLE001 - the sweep goes on
                log.exception("bot sweep")

    async def close(self) -> None:
        """Bots stop (a bot's turn is resumed when the table is next loaded); with a shared
        store their leases are released, so another server takes these bot turns at once."""
        m = self.manager
        if self.sweeper is not None:
            self.sweeper.cancel()
        playing = []
        for table in list(m.live.values()):
            if table.bots is not None and not table.bots.done():
                table.bots.cancel()
                playing.append(table.id)
        if m.store.shared:
            for table_id in playing:
                await self.release(table_id)
