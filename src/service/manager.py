"""The table manager: every table of this server, behind one interface for every door (the
gRPC servicer and the HTTP door call the same coroutines). It takes and returns plain data
(records.md dicts); the doors convert.

It holds the tables in memory while in use (at most `live_tables`, least recently used first
out; a finished match leaves as soon as nobody watches it) and finds a table for every call,
restoring it from the store on demand. Each other job is a room of its own, reached from here:

- rooms.py: CreateTable and JoinTable (opening tables, claiming open seats);
- changes.py: Deal and the seats' actions, one critical section per table (sections.py),
  with request ids (request_ids.py);
- reading.py: GetView, Score and Hint;
- watchers.py: WatchTable's event streams;
- bots_runner.py: the bots' turns, their leases and the sweep for orphaned ones;
- daily.py: the daily deal and its leaderboard;
- restore.py: tables and past deals back from the store (and damaged ones);
- freshness.py: several servers on one shared store, catching up with it (its notices).

A person's action is judged on the event loop itself; what takes longer (a bot's thinking,
restoring a table by replay, a score) runs in worker threads (`executor`); a hint runs in the
analysis pool (`analysis`, work.py), so that bot turns and restores never wait behind one. After an
error nothing has changed. A call that is cancelled once its section has begun still completes
it (the client may retry with its request id and get the answer).
"""
from __future__ import annotations

import asyncio
import collections
import time
from concurrent.futures import Executor
from typing import Callable

from . import errors
from .bots_runner import BotRunner
from .changes import Changes
from .config import Config
from .daily import Daily, utc_today
from .freshness import Freshness
from .ids import TABLE_ID
from .reading import Reading
from .restore import Restorer
from .rooms import Rooms
from .store import Store
from .tables import Table
from .watchers import Watchers
from .work import Analysis


class TableManager:
    """All tables of this server; persistence through `store`, table work in `executor`."""

    def __init__(self, store: Store, executor: Executor, live_tables: int = 10_000,
                 clock: Callable[[], str] = utc_today, analysis: Analysis | None = None,
                 sweep_seconds: float = Config.sweep_seconds, conflict_retries: int = Config.conflict_retries):
        self.clock = clock             # today's date (UTC, YYYY-MM-DD): the daily deal's
        self.store = store
        self.executor = executor
        self.analysis = analysis or Analysis()     # Hint (and the door's Analyze): never `executor`
        self.live_tables = live_tables
        self.sweep_seconds = sweep_seconds          # a shared store: the bots' sweep (bots_runner)
        self.conflict_retries = conflict_retries    # judged again after another writer (changes, rooms)
        self.live: collections.OrderedDict[str, Table] = collections.OrderedDict()
        self.loading: dict[str, asyncio.Future] = {}
        self.closing = False
        self._background: set[asyncio.Task] = set()
        self.restorer = Restorer(store, self.work)
        self.freshness = Freshness(self)
        self.bots = BotRunner(self)
        self.rooms = Rooms(self)
        self.changes = Changes(self)
        self.reading = Reading(self)
        self.watchers = Watchers(self)
        self.dailies = Daily(self)

    def start(self) -> None:
        """With a shared store: listen for other servers' commits, sweep for orphaned bot turns."""
        if self.store.shared and self.bots.sweeper is None:
            self.store.listen(self.freshness.changed_elsewhere)
            self.bots.start_sweeping()

    async def work(self, fn: Callable, *args):
        """`fn(*args)` in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def spawn(self, coro) -> None:
        """Run `coro` in the background (kept referenced until it ends)."""
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ---- the calls of the doors ----------------------------------------------------------------
    # (plain methods handing back the room's coroutine: no extra frame on the request path)
    def create(self, game: str, options: dict, deals_per_match: int, seats: list[str],
               seed: int | None = None, daily_date: str | None = None, settings: dict | None = None):
        return self.rooms.create(game, options, deals_per_match, seats, seed, daily_date, settings)

    def join(self, invite: str):
        return self.rooms.join(invite)

    def deal(self, table_id: str, token: str, expected_version: int | None, request_id: str = ""):
        return self.changes.deal(table_id, token, expected_version, request_id)

    def act(self, table_id: str, token: str, kind: str, fields: dict, expected_version: int | None,
            request_id: str = ""):
        return self.changes.act(table_id, token, kind, fields, expected_version, request_id)

    def view(self, table_id: str, token: str):
        return self.reading.view(table_id, token)

    def score(self, table_id: str, token: str, deal_number: int):
        return self.reading.score(table_id, token, deal_number)

    def hint(self, table_id: str, token: str, peer: str = ""):
        return self.reading.hint(table_id, token, peer)

    def watch(self, table_id: str, token: str, from_version: int):
        return self.watchers.watch(table_id, token, from_version)

    def today(self) -> str:
        return self.clock()

    def daily(self, game: str, player_token: str, peer: str = ""):
        return self.dailies.daily(game, player_token, peer)

    def submit_daily(self, table_id: str, token: str, nickname: str, player_token: str):
        return self.dailies.submit(table_id, token, nickname, player_token)

    def leaderboard(self, game: str, date: str, limit: int):
        return self.dailies.leaderboard(game, date, limit)

    # ---- finding a table --------------------------------------------------------------------
    async def table(self, table_id: str, to_act: bool = False) -> Table:
        """The live table (restored from the store if it is not in memory). With a shared store
        it is made current first; `to_act`: only if the store's notices say it may be behind
        (an action's commit is refused on a stale table anyway: freshness.py)."""
        if not table_id:
            raise errors.invalid("table_id", "missing")
        table = self.live.get(table_id)
        if table is not None:
            self.live.move_to_end(table_id)
            table.last_used = time.monotonic()
            if self.store.shared:
                # a seat claimed elsewhere changes who may act before any commit: a table with
                # open seats asks the store
                if to_act and not table.open_seats():
                    await self.freshness.before_action(table)
                else:
                    await self.freshness.fresh(table)
            return table
        if not TABLE_ID.match(table_id):
            raise errors.not_found("table", f"no table {errors.short(table_id)}")
        self.restorer.check(table_id)
        pending = self.loading.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load(table_id))
            self.loading[table_id] = pending
            # its error reaches the callers that wait; if all have left, the next call loads again
            pending.add_done_callback(lambda task: (self.loading.pop(table_id, None),
                                                    task.cancelled() or task.exception()))
        return await asyncio.shield(pending)

    async def _load(self, table_id: str) -> Table:
        table = await self.restorer.read(table_id)
        self.keep(table)
        self.bots.schedule(table)          # bots whose turn it was when the server stopped
        return table

    # ---- holding tables in memory ------------------------------------------------------------------
    def keep(self, table: Table) -> None:
        self.live[table.id] = table
        self.live.move_to_end(table.id)
        self.evict()

    @staticmethod
    def _idle(t: Table) -> bool:
        return not t.watchers and not t.lock.locked() and (t.bots is None or t.bots.done())

    def evict(self, table: Table | None = None) -> None:
        """Free memory: `table` if its match is over and nobody uses it, then the least recently
        used tables beyond `live_tables`."""
        if table is not None and table.match.is_over() and self._idle(table) \
                and self.live.get(table.id) is table:
            del self.live[table.id]
        if len(self.live) > self.live_tables:
            for table_id in list(self.live):
                if len(self.live) <= self.live_tables:
                    break
                if self._idle(self.live[table_id]):
                    del self.live[table_id]

    async def close(self) -> None:
        """Watchers return; bots stop (a bot's turn is resumed when the table is next loaded);
        no new work."""
        self.closing = True
        for table in list(self.live.values()):
            table.notify()
        await self.bots.close()
