"""The table manager: every table of this server, behind one interface for every door (the
gRPC servicer today; a Connect/ASGI adapter on the same event loop can call the same
coroutines). It takes and returns plain data (records.md dicts); the doors convert.

One accepted request is one critical section per table (an asyncio lock, no thread held while
waiting): look up the request id, check the expected version, let the engine judge and carry
out the request on a copy of the match (bots' turns included, in a worker thread), commit it to
the store, and only then make the copy the table's state and wake the watchers. After an error
nothing has changed. A call that is cancelled once its section has begun still completes it
(the client may retry with its request id and get the answer).

Tables live in memory while in use (at most `live_tables`, least recently used first out;
a finished match leaves as soon as nobody watches it) and are restored from the store on
demand by replaying their current deal, so no call ever costs more than the current deal.
"""
from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import re
import secrets
import time
from concurrent.futures import Executor
from typing import Any, AsyncIterator, Awaitable, Callable

import orjson

from engine_core import games
from engine_core.errors import ActionError, OptionError
from engine_core.match import MAX_DEALS_PER_MATCH, Match

from . import errors
from .store import Commit, Conflict, Damaged, Store
from .tables import (BOT, HUMAN, IN_DEAL, DealLog, Spec, Table, created_event, entry_after,
                     event_of, play_bots, replay, start_of, token_hash, view_of)

log = logging.getLogger("stich.service")
REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,64}$")
TABLE_ID = re.compile(r"^t_[A-Za-z0-9_\-]{1,40}$")
WATCH_WAKE_SECONDS = 1.0
_DAMAGED_KEPT = 1024


def check_request_id(request_id: str) -> str | None:
    if not request_id:
        return None
    if not REQUEST_ID.match(request_id):
        raise errors.invalid("request_id", "must be 1 to 64 characters of A-Z a-z 0-9 - _ . : "
                             f"(a UUID is recommended), got {errors.short(request_id)}",
                             reason="BAD_REQUEST_ID")
    return request_id


def fingerprint(kind: str, seat: int | None, fields: dict) -> str:
    """What makes two requests the same request (exchanged cards are a multiset)."""
    if "cards" in fields:
        fields = {**fields, "cards": sorted(fields["cards"])}
    return hashlib.sha256(orjson.dumps([kind, seat, fields], option=orjson.OPT_SORT_KEYS)).hexdigest()


class TableManager:
    """All tables of this server; persistence through `store`, table work in `executor`."""

    def __init__(self, store: Store, executor: Executor, live_tables: int = 10_000):
        self.store = store
        self.executor = executor
        self.live_tables = live_tables
        self.live: collections.OrderedDict[str, Table] = collections.OrderedDict()
        self._loading: dict[str, asyncio.Future] = {}
        self.damaged: collections.OrderedDict[str, str] = collections.OrderedDict()
        self.closing = False

    async def _work(self, fn: Callable, *args):
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    # ---- finding a table --------------------------------------------------------------------
    async def table(self, table_id: str) -> Table:
        """The live table (restored from the store if it is not in memory)."""
        if not table_id:
            raise errors.invalid("table_id", "missing")
        table = self.live.get(table_id)
        if table is not None:
            self.live.move_to_end(table_id)
            table.last_used = time.monotonic()
            return table
        if not TABLE_ID.match(table_id):
            raise errors.not_found("table", f"no table {errors.short(table_id)}")
        if table_id in self.damaged:
            raise errors.damaged(table_id, self.damaged[table_id])
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = pending
            pending.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _load(self, table_id: str) -> Table:
        try:
            stored = await self.store.load_table(table_id)
        except Damaged as err:
            raise self._mark_damaged(table_id, str(err)) from None
        if stored is None:
            raise errors.not_found("table", f"no table {errors.short(table_id)}")
        try:
            table = await self._work(self._restore, table_id, stored)
        except Exception as err:  # noqa: BLE001 - whatever the rows hold, only this table is lost
            raise self._mark_damaged(table_id, f"{type(err).__name__}: {err}") from None
        if table.deal is not None and table.match.current.to_act() is not None \
                and table.spec.seats[table.match.current.to_act()] == BOT:
            await self._locked(table, lambda: self._bots_owed(table))
        self._keep(table)
        return table

    def _mark_damaged(self, table_id: str, why: str) -> errors.ServiceError:
        log.error("table %s cannot be restored: %s", table_id, why)
        self.damaged[table_id] = errors.cut(why, 160)
        while len(self.damaged) > _DAMAGED_KEPT:
            self.damaged.popitem(last=False)
        return errors.damaged(table_id, self.damaged[table_id])

    @staticmethod
    def _restore(table_id: str, stored) -> Table:
        spec = Spec.from_dict(stored.spec)
        game = spec.game_of()
        if stored.deal is None:
            if stored.version != 1:
                raise ValueError(f"versions up to {stored.version} but no deal")
            match = Match(game, spec.seed, 0, spec.deals_per_match, keep_results=False)
            return Table(table_id, spec, stored.version, match, None)
        d = stored.deal
        match, dlog = replay(spec, d.number, d.first_version, d.start, d.actions)
        if dlog.last_version != stored.version:
            raise ValueError(f"the log ends at version {stored.version}, the deal at {dlog.last_version}")
        return Table(table_id, spec, stored.version, match, dlog)

    def _keep(self, table: Table) -> None:
        self.live[table.id] = table
        self.live.move_to_end(table.id)
        self._evict()

    @staticmethod
    def _idle(t: Table) -> bool:
        return not t.watchers and not t.lock.locked()

    def _evict(self, table: Table | None = None) -> None:
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

    async def _locked(self, table: Table, section: Callable[[], Awaitable[Any]]):
        """Run `section` holding the table's lock, to its end even if the caller is cancelled
        once it has begun (a caller cancelled while still waiting for the lock leaves nothing)."""
        state = {"abandoned": False}

        async def run():
            async with table.lock:
                if state["abandoned"]:
                    raise asyncio.CancelledError()
                return await section()

        task = asyncio.ensure_future(run())
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            state["abandoned"] = True
            raise

    # ---- create -------------------------------------------------------------------------------
    async def create(self, game: str, options: dict, deals_per_match: int, seats: list[str],
                     seed: int | None = None, daily_date: str | None = None) -> tuple[dict, dict[int, str], str]:
        """A new table: (its spectator view, the token of every human seat, the spectator id)."""
        if not game:
            raise errors.invalid("game", f"missing; games are {', '.join(games.available())}")
        g = games.get(game, options)                   # OptionError -> INVALID_ARGUMENT
        n = g.seats
        seats = list(seats) or [HUMAN] * n
        if len(seats) != n:
            raise errors.invalid("seats", f"{game} has {n} seats, got {len(seats)}")
        if not 0 <= deals_per_match <= MAX_DEALS_PER_MATCH:
            raise errors.invalid("deals_per_match", f"must be 1..{MAX_DEALS_PER_MATCH} "
                                 f"(0: the game's option), got {deals_per_match}")
        if deals_per_match == 0:
            deals_per_match = g.options.deals_per_match
        elif g.options.deals_per_match != deals_per_match:
            g = games.get(game, {**g.options.as_dict(), "deals_per_match": deals_per_match})
        if daily_date is not None:
            try:
                seed = games.daily_seed(game, daily_date)
            except OptionError:
                raise errors.invalid("daily_date", f"must be a date YYYY-MM-DD, got "
                                     f"{errors.short(daily_date)}") from None
        elif seed is None:
            seed = secrets.randbits(64)
        match = Match(g, seed, 0, deals_per_match, keep_results=False)   # checks the match length
        tokens = {s: "st_" + secrets.token_urlsafe(18) for s in range(n) if seats[s] == HUMAN}
        spectator = "sp_" + secrets.token_urlsafe(18)
        table_id = "t_" + secrets.token_urlsafe(12)
        spec = Spec(game, g.options.as_dict(), deals_per_match, tuple(seats),
                    {token_hash(t): s for s, t in tokens.items()}, token_hash(spectator), seed)
        await self.store.create_table(table_id, spec.as_dict())
        table = Table(table_id, spec, 1, match, None)
        self._keep(table)
        return table.view(None), tokens, spectator

    # ---- deal and act -------------------------------------------------------------------------
    async def deal(self, table_id: str, token: str, expected_version: int | None,
                   request_id: str = "") -> dict:
        """Start the next deal (bots that act first act); the caller's view."""
        request_id = check_request_id(request_id)
        table = await self.table(table_id)
        if any(k == HUMAN for k in table.spec.seats) or token:
            seat = table.seat_of(token)
        else:
            seat = None
        return await self._change(table, seat, "deal", {}, expected_version, request_id, self._deal_job)

    async def act(self, table_id: str, token: str, kind: str, fields: dict,
                  expected_version: int | None, request_id: str = "") -> dict:
        """One action of the token's seat (a records.md action without its seat), then
        whatever bots follow; the seat's view after them."""
        request_id = check_request_id(request_id)
        table = await self.table(table_id)
        seat = table.seat_of(token)
        return await self._change(table, seat, kind, fields, expected_version, request_id, self._act_job)

    async def _change(self, table: Table, seat, kind, fields, expected_version, request_id, job) -> dict:
        fp = fingerprint(kind, seat, fields) if request_id else ""

        async def section():
            if request_id:
                known = await self.store.find_request(table.id, request_id)
                if known is not None:
                    if known[0] != fp:
                        raise errors.invalid("request_id", "was already used for another request",
                                             reason="REQUEST_ID_REUSED")
                    return known[1]
            if expected_version is not None and expected_version != table.version:
                raise errors.stale(expected_version, table.version)
            match, dlog, commit, answer = await self._work(job, table, seat, kind, fields)
            if request_id:
                commit.request = (request_id, fp, answer)
            try:
                await self.store.commit(table.id, commit)
            except Conflict:
                self.live.pop(table.id, None)              # another writer: reload from the store
                raise errors.ServiceError(errors.grpc.StatusCode.ABORTED, "CONFLICT",
                                          "the table changed meanwhile; read it again") from None
            table.match, table.deal, table.version = match, dlog, commit.rows[-1][0]
            table.notify()
            return answer

        try:
            return await self._locked(table, section)
        finally:
            self._evict(table)

    @staticmethod
    def _deal_job(table: Table, seat, kind, fields):
        work = table.match.copy()
        try:
            progress = work.progress()
            work.deal()
        except ActionError as err:                       # MATCH_OVER, DEAL_IN_PROGRESS
            raise errors.Refused(err, True) from None
        version = table.version + 1
        number = work.dealt
        dlog = DealLog(number, version, start_of(work, progress), [entry_after(work, version, None)])
        last = play_bots(table.id, table.spec, work, version, dlog)
        rows = [(version, number, None)] + [
            (e.version, number, work.current.actions[e.index]) for e in dlog.entries[1:]]
        commit = Commit(table.version, rows, deal_start=(number, version, dlog.start))
        return work, dlog, commit, view_of(table, work, last, dlog, seat)

    @staticmethod
    def _act_job(table: Table, seat, kind, fields):
        work = table.match.copy()
        state = work.current
        action = {"seat": seat, "type": kind, **fields}
        shown = state is not None and state.to_act() == seat
        try:
            work.apply(action)
        except ActionError as err:
            raise errors.Refused(err, shown) from None
        dlog = DealLog(table.deal.number, table.deal.first_version, table.deal.start, list(table.deal.entries))
        version = table.version + 1
        first = len(dlog.entries)
        dlog.entries.append(entry_after(work, version, len(work.current.actions) - 1))
        last = play_bots(table.id, table.spec, work, version, dlog)
        rows = [(e.version, dlog.number, work.current.actions[e.index]) for e in dlog.entries[first:]]
        commit = Commit(table.version, rows)
        return work, dlog, commit, view_of(table, work, last, dlog, seat)

    async def _bots_owed(self, table: Table) -> None:
        """After a restore: bots whose turn it is act now (committed like any request)."""
        def job():
            work = table.match.copy()
            d = table.deal
            dlog = DealLog(d.number, d.first_version, d.start, list(d.entries))
            first = len(dlog.entries)
            last = play_bots(table.id, table.spec, work, table.version, dlog)
            rows = [(e.version, dlog.number, work.current.actions[e.index]) for e in dlog.entries[first:]]
            return work, dlog, Commit(table.version, rows), last
        work, dlog, commit, last = await self._work(job)
        if commit.rows:
            await self.store.commit(table.id, commit)
            table.match, table.deal, table.version = work, dlog, last

    # ---- reading --------------------------------------------------------------------------------
    async def view(self, table_id: str, token: str) -> dict:
        table = await self.table(table_id)
        try:
            return table.view(table.viewer(token))
        finally:
            self._evict(table)

    async def score(self, table_id: str, token: str, deal_number: int) -> dict:
        """A finished deal's result as the viewer may see it, and the match so far."""
        table = await self.table(table_id)
        seat = table.viewer(token)
        match, dlog = table.match, table.deal
        if deal_number < 0:
            raise errors.invalid("deal_number", f"must be 0 (the last finished) or a deal 1.., got {deal_number}")
        dealt = match.dealt
        in_deal = match.status == IN_DEAL
        finished = dealt - 1 if in_deal else dealt
        number = deal_number or finished
        if number == 0:
            raise errors.not_found("deal", "no deal has finished yet")
        if number > dealt:
            raise errors.not_found("deal", f"no deal {deal_number}: {dealt} dealt so far")
        if number == dealt and in_deal:
            raise errors.precondition("DEAL_NOT_FINISHED", f"deal {number} is still in progress")
        if number == dealt:
            state = match.current
        else:
            state = (await self.past_deal(table, number))[0].current
        self._evict(table)
        return {"deal_number": number, "result": state.result_for(seat), "match_scores": list(match.totals),
                "deals_finished": finished, "deals_per_match": match.deals_per_match,
                "match_over": match.is_over()}

    async def past_deal(self, table: Table, number: int) -> tuple[Match, DealLog]:
        """A finished deal of the table, replayed from the store."""
        stored = await self.store.load_deal(table.id, number)
        if stored is None:
            raise self._mark_damaged(table.id, f"deal {number} is missing")
        try:
            return await self._work(replay, table.spec, number, stored.first_version, stored.start, stored.actions)
        except Exception as err:  # noqa: BLE001
            raise self._mark_damaged(table.id, f"deal {number}: {type(err).__name__}: {err}") from None

    # ---- watching -------------------------------------------------------------------------------
    async def watch(self, table_id: str, token: str, from_version: int) -> AsyncIterator[dict]:
        """The table's events after `from_version` as the viewer may see them, live, until the
        match is over and every event is sent (or the server closes)."""
        table = await self.table(table_id)
        seat = table.viewer(token)
        if from_version < 0:
            raise errors.invalid("from_version", f"must be at least 0, got {from_version}")
        return self._watch(table, seat, from_version)

    async def _watch(self, table: Table, seat, version: int) -> AsyncIterator[dict]:
        table.watchers += 1
        try:
            while not self.closing:
                changed = table.changed
                events = await self._events_after(table, seat, version) if table.version > version else []
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
                    pass
        finally:
            table.watchers -= 1
            self._evict(table)

    async def _events_after(self, table: Table, seat, version: int) -> list[dict]:
        """The events after `version`: from the current deal in memory, else the next earlier
        deal's, replayed from the store (a deal at a time: no call costs more than a deal)."""
        out: list[dict] = []
        if version < 1:
            out.append({**created_event(), "match_scores": [0] * len(table.spec.seats)})
            version = 1
        dlog, state = table.deal, table.match.current
        if dlog is None or version >= table.version:
            return out
        if version + 1 < dlog.first_version:
            number = await self.store.deal_of_version(table.id, version + 1)
            if number is None:
                raise self._mark_damaged(table.id, f"version {version + 1} is missing")
            match, dlog = await self.past_deal(table, number)
            state = match.current
        for entry in dlog.entries:
            if entry.version > version:
                out.append(event_of(dlog, entry, state, seat))
        return out

    async def close(self) -> None:
        """Watchers return; no new work."""
        self.closing = True
        for table in list(self.live.values()):
            table.notify()

