"""The table manager: every table of this server, behind one interface for every door (the
gRPC servicer today; a Connect/ASGI adapter on the same event loop can call the same
coroutines). It takes and returns plain data (records.md dicts); the doors convert.

One accepted request is one critical section per table (an asyncio lock, no thread held while
waiting): look up the request id, check the expected version, let the engine judge and carry
out the request on a copy of the match, commit it to the store, and only then make the copy the
table's state and wake the watchers. A person's action is judged on the event loop itself: it
takes tens of microseconds of engine time, less than a hop to a worker thread and back, and
the GIL would serialise the two anyway. What takes longer (a bot's thinking, restoring a table
by replay, a hint, a score) runs in worker threads. After an error
nothing has changed. A call that is cancelled once its section has begun still completes it
(the client may retry with its request id and get the answer).

Tables live in memory while in use (at most `live_tables`, least recently used first out;
a finished match leaves as soon as nobody watches it) and are restored from the store on
demand by replaying their current deal, so no call ever costs more than the current deal.

Several servers on one shared store (PostgreSQL, `store.shared`): a table in memory may be
behind the store, so every call first compares its version with the store's last one (one
indexed read) and catches up; a commit that loses to another server's (Conflict) catches up
and judges the request again on the fresh state (or answers STALE_VERSION), so a request is
accepted at most once and every server tells the same log. Watchers are woken by the store's
notifications. A bot turn is played by the server holding the table's lease; every server
sweeps for expired leases, so a dead server's bot turns go on elsewhere (docs/service.md,
"Several servers").
"""
from __future__ import annotations

import asyncio
import collections
import datetime as _dt
import hashlib
import hmac
import logging
import re
import secrets
import time
import types
from concurrent.futures import Executor
from typing import Any, AsyncIterator, Awaitable, Callable

import orjson

from engine_core import games, records
from engine_core.errors import ActionError, OptionError
from engine_core.match import MAX_DEALS_PER_MATCH, Match

from . import errors
from .store import Commit, Conflict, DailyEntry, Damaged, Exists, Store, StoreError
from .tables import (HUMAN, IN_DEAL, MAX_BOT_DELAY_MS, OPEN, SEAT_KINDS, DealLog, Spec, Table,
                     bot_action, bot_level, bot_to_act_in, created_event, entry_after, event_of, is_bot,
                     joined_event, level_available, new_secret, replay, seat_kind, start_of,
                     token_hash, token_table, view_of)

log = logging.getLogger("stich.service")
REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,64}$")
TABLE_ID = re.compile(r"^t_[A-Za-z0-9_\-]{1,40}$")
# A watcher sleeps until its table changes (close() wakes every live table too); it wakes on its
# own only this often, as a safety net: 10,000 idle streams woken every second took 43% of a core.
WATCH_WAKE_SECONDS = 5.0
WATCH_RECHECK_SECONDS = 5.0     # shared store: a watched table is compared with the store this often
_DAMAGED_KEPT = 1024
INVITE = re.compile(r"^iv_[A-Za-z0-9_\-]{20,40}\.t_[A-Za-z0-9_\-]{1,40}$")
DAILY_SEAT = 0
DAILY_LEVELS = ("normal", "easy")    # the daily deal's bots: the first level this build has
NICKNAME_LENGTH = 24
PLAYER_SECRET = (8, 128)
LEADERBOARD_LIMIT = (20, 100)
CONFLICT_RETRIES = 8        # reloads after a Conflict before a request is answered CONFLICT
SWEEP_SECONDS = 1.0         # how often a server of a shared store looks for orphaned bot turns
SWEEP_BATCH = 32


def utc_today() -> str:
    return _dt.datetime.now(_dt.timezone.utc).date().isoformat()


def player_hash(secret: str) -> str:
    return hashlib.sha256(f"stich-player-v1:{secret}".encode("utf-8", "surrogatepass")).hexdigest()


def check_player_secret(secret: str) -> str:
    lo, hi = PLAYER_SECRET
    if not lo <= len(secret) <= hi or not secret.isprintable():
        raise errors.invalid("player_secret", f"must be {lo} to {hi} printable characters "
                             f"(kept by the player's device), got {len(secret)} characters",
                             reason="BAD_PLAYER_SECRET")
    return secret


def check_date(date: str, field: str) -> str:
    try:
        if len(date) != 10:
            raise ValueError(date)
        return _dt.date.fromisoformat(date).isoformat()
    except ValueError:
        raise errors.invalid(field, f"must be a date YYYY-MM-DD, got {errors.short(date)}") from None


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


@types.coroutine
def _resume(coro, waiting_for):
    """Go on with a coroutine that was started by hand and stopped at `waiting_for` (what it
    yielded: the future it awaits): yield that to the task driving this, then let the coroutine
    run on (the future is done by then, so its await returns the result)."""
    try:
        yield waiting_for
    except BaseException:
        coro.close()
        raise
    return (yield from coro)


async def _continue(coro, waiting_for):
    return await _resume(coro, waiting_for)


class TableManager:
    """All tables of this server; persistence through `store`, table work in `executor`."""

    def __init__(self, store: Store, executor: Executor, live_tables: int = 10_000,
                 clock: Callable[[], str] = utc_today):
        self.clock = clock             # today's date (UTC, YYYY-MM-DD): the daily deal's
        self.store = store
        self.executor = executor
        self.live_tables = live_tables
        self.live: collections.OrderedDict[str, Table] = collections.OrderedDict()
        self._loading: dict[str, asyncio.Future] = {}
        self.damaged: collections.OrderedDict[str, str] = collections.OrderedDict()
        self.closing = False
        self._sweeper: asyncio.Task | None = None
        self._refreshing: dict[str, bool] = {}     # table id -> caught up again after this run
        self._background: set[asyncio.Task] = set()

    def start(self) -> None:
        """With a shared store: listen for other servers' commits, sweep for orphaned bot turns."""
        if self.store.shared and self._sweeper is None:
            self.store.listen(self._changed_elsewhere)
            self._sweeper = asyncio.ensure_future(self._sweep())

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
            if self.store.shared:
                await self._fresh(table)
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
        self._keep(table)
        self._schedule_bots(table)          # bots whose turn it was when the server stopped
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
        claims = {int(k): (str(h), int(v)) for k, (h, v) in (stored.claims or {}).items()}
        if stored.deal is None:
            if stored.version != 1 + len(claims):
                raise ValueError(f"versions up to {stored.version} but no deal")
            match = Match(game, spec.seed, 0, spec.deals_per_match, keep_results=False)
            table = Table(table_id, spec, stored.version, match, None)
        else:
            d = stored.deal
            match, dlog = replay(spec, d.number, d.first_version, d.start, d.actions)
            if dlog.last_version != stored.version:
                raise ValueError(f"the log ends at version {stored.version}, the deal at {dlog.last_version}")
            table = Table(table_id, spec, stored.version, match, dlog)
        table.claims = claims
        return table

    # ---- several servers: catching up with the store -------------------------------------------
    async def _fresh(self, table: Table) -> None:
        """Make a table held in memory current if another server moved it."""
        last = await self.store.last_version(table.id)
        if last is not None and last != table.version:
            await self._locked(table, lambda: self._catch_up(table))

    async def _catch_up(self, table: Table) -> bool:
        """(Holding the table's lock.) Reload the table from the store if the store is ahead,
        into the same Table object, so its watchers see the new events. True if it moved."""
        last = await self.store.last_version(table.id)
        if last is None or last == table.version:
            return False
        try:
            stored = await self.store.load_table(table.id)
        except Damaged as err:
            raise self._mark_damaged(table.id, str(err)) from None
        if stored is None:
            raise errors.not_found("table", f"no table {errors.short(table.id)}")
        try:
            fresh = await self._work(self._restore, table.id, stored)
        except Exception as err:  # noqa: BLE001 - as in _load: only this table is lost
            self.live.pop(table.id, None)
            raise self._mark_damaged(table.id, f"{type(err).__name__}: {err}") from None
        table.match, table.deal, table.version, table.claims = fresh.match, fresh.deal, fresh.version, fresh.claims
        table.notify()
        return True

    def _changed_elsewhere(self, table_id: str | None, version: int | None) -> None:
        """The store's notification: a version was committed (by any server). Watched tables
        held here catch up now; others when next used. (None, None): anything may have moved."""
        if self.closing:
            return
        if table_id is None:
            for t in list(self.live.values()):
                if t.watchers:
                    self._refresh_soon(t.id)
            return
        pending = self._loading.get(table_id)
        if pending is not None:         # a load that may have read the version before this one
            pending.add_done_callback(lambda _: self._refresh_soon(table_id))
            return
        table = self.live.get(table_id)
        if table is not None and table.watchers and version != table.version:
            self._refresh_soon(table_id)

    def _refresh_soon(self, table_id: str) -> None:
        """Catch a table up in the background; a notice that comes while it runs makes it run
        once more (its read may have been older than that notice's commit)."""
        table = self.live.get(table_id)
        if table is None or self.closing:
            return
        if table_id in self._refreshing:
            self._refreshing[table_id] = True
            return
        self._refreshing[table_id] = True

        async def refresh():
            try:
                while self._refreshing.get(table_id) and not self.closing:
                    self._refreshing[table_id] = False
                    await self._locked(table, lambda: self._catch_up(table))
            except (errors.ServiceError, StoreError) as err:
                log.warning("table %s could not catch up: %s", table_id, err)
            finally:
                self._refreshing.pop(table_id, None)

        self._spawn(refresh())

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _keep(self, table: Table) -> None:
        self.live[table.id] = table
        self.live.move_to_end(table.id)
        self._evict()

    @staticmethod
    def _idle(t: Table) -> bool:
        return not t.watchers and not t.lock.locked() and (t.bots is None or t.bots.done())

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
        once it has begun (a caller cancelled while still waiting for the lock leaves nothing).

        Started eagerly, in the caller's step: with the lock free and an inline store (SQLite)
        the section ends without ever suspending, so nothing can cancel it midway and no task
        is needed (a task and its extra turn of the loop were a sixth of a Play's time in the
        server). A section that does suspend (a held lock, PostgreSQL, a bot thinking) is
        handed, where it stopped, to a task the caller awaits through a shield."""
        state = {"abandoned": False}

        async def run():
            async with table.lock:
                if state["abandoned"]:
                    raise asyncio.CancelledError()
                return await section()

        coro = run()
        try:
            waiting_for = coro.send(None)
        except StopIteration as done:
            return done.value
        task = asyncio.ensure_future(_continue(coro, waiting_for))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            state["abandoned"] = True
            raise

    # ---- create -------------------------------------------------------------------------------
    async def create(self, game: str, options: dict, deals_per_match: int, seats: list[str],
                     seed: int | None = None, daily_date: str | None = None,
                     settings: dict | None = None) -> tuple[dict, dict[int, str], str, dict[int, str]]:
        """A new table: (its spectator view, the token of every human seat, the spectator id,
        the invite code of every open seat)."""
        if not game:
            raise errors.invalid("game", f"missing; games are {', '.join(games.available())}")
        g = games.get(game, options)                   # OptionError -> INVALID_ARGUMENT
        n = g.seats
        seats = [seat_kind(k) for k in seats] or [HUMAN] * n
        if len(seats) != n:
            raise errors.invalid("seats", f"{game} has {n} seats, got {len(seats)}")
        for i, kind in enumerate(seats):
            if kind not in SEAT_KINDS:
                raise errors.invalid(f"seats[{i}]", f"must be one of {', '.join(SEAT_KINDS)} (or bot), "
                                     f"got {errors.short(kind)}", reason="BAD_SEAT_KIND")
            if is_bot(kind) and not level_available(bot_level(kind)):
                raise errors.precondition("BOT_LEVEL_UNAVAILABLE",
                                          f"seats[{i}]: this server has no {bot_level(kind)} bot yet",
                                          field=f"seats[{i}]")
        settings = check_settings(settings or {})
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
        table_id = "t_" + secrets.token_urlsafe(12)
        tokens = {s: new_secret("st_", table_id) for s in range(n) if seats[s] == HUMAN}
        invites = {s: new_secret("iv_", table_id) for s in range(n) if seats[s] == OPEN}
        spectator = new_secret("sp_", table_id)
        table = await self._open_table(table_id, g, seed, deals_per_match, seats, tokens, spectator,
                                       invites, settings, None)
        return table.view(None), tokens, spectator, invites

    async def _open_table(self, table_id, g, seed, deals_per_match, seats, tokens, spectator,
                          invites, settings, daily) -> Table:
        match = Match(g, seed, 0, deals_per_match, keep_results=False)   # checks the match length
        spec = Spec(g.name, g.options.as_dict(), deals_per_match, tuple(seats),
                    {token_hash(t): s for s, t in tokens.items()}, token_hash(spectator), seed,
                    {token_hash(c): s for s, c in invites.items()}, settings, daily)
        await self.store.create_table(table_id, spec.as_dict())          # Exists if taken
        table = Table(table_id, spec, 1, match, None)
        self._keep(table)
        return table

    # ---- rooms --------------------------------------------------------------------------------
    async def join(self, invite: str) -> tuple[dict, str]:
        """Claim the open seat of an invite code: (the seat's view, its new token). Exactly one
        of racing joins wins (the store's claim is the judge); nothing changes on an error."""
        if not invite:
            raise errors.invalid("invite", "missing: give the invite code of an open seat",
                                 reason="BAD_INVITE")
        if not INVITE.match(invite):
            raise errors.invalid("invite", "is not an invite code (iv_<secret>.<table id>, the part "
                                 "after #join= of the link)", reason="BAD_INVITE")
        table_id = token_table(invite)
        try:
            table = await self.table(table_id)
        except errors.ServiceError as err:
            if err.reason == "TABLE_NOT_FOUND":
                raise errors.not_found("invite", "no open seat has this invite code") from None
            raise
        seat = table.spec.invite_hashes.get(token_hash(invite))
        if seat is None:
            raise errors.not_found("invite", f"no open seat of table {errors.short(table.id)} has this invite code")
        token = new_secret("st_", table.id)

        async def section():
            for _ in range(CONFLICT_RETRIES):
                if seat in table.claims:
                    raise used(seat)
                try:
                    await self.store.claim_seat(table.id, seat, token_hash(token), table.version)
                    break
                except Exists:
                    raise used(seat) from None
                except Conflict:                    # another server moved the table: again on it
                    await self._catch_up(table)
            else:
                raise errors.ServiceError(errors.grpc.StatusCode.ABORTED, "CONFLICT",
                                          "the table kept changing meanwhile; join again")
            table.version += 1
            table.claims[seat] = (token_hash(token), table.version)
            table.notify()
            return table.view(seat)

        def used(s):
            return errors.ServiceError(errors.grpc.StatusCode.ALREADY_EXISTS, "INVITE_USED",
                                       f"seat {s} was already claimed with this invite")

        view = await self._locked(table, section)
        return view, token

    # ---- the daily deal -------------------------------------------------------------------------
    def today(self) -> str:
        return self.clock()

    async def daily(self, game: str, secret: str) -> tuple[str, str, str, dict]:
        """The player's table of today's deal of `game`: (date, table id, token, view). The
        table id and the token are derived from the player secret, so the same player gets the
        same table all day (and cannot deal it again to try another line)."""
        if not game:
            raise errors.invalid("game", f"missing; games are {', '.join(games.available())}")
        check_player_secret(secret)
        g = games.get(game, {})
        date = self.today()
        player = player_hash(secret)
        table_id = "t_d" + hashlib.sha256(f"{game}:{date}:{player}".encode()).hexdigest()[:30]
        token = "st_" + hmac.new(secret.encode("utf-8", "surrogatepass"), table_id.encode(),
                                 hashlib.sha256).hexdigest()[:32] + "." + table_id
        try:
            table = await self.table(table_id)
        except errors.ServiceError as err:
            if err.reason != "TABLE_NOT_FOUND":
                raise
            level = next(lv for lv in DAILY_LEVELS if level_available(lv))
            seats = [HUMAN if s == DAILY_SEAT else f"bot:{level}" for s in range(g.seats)]
            try:
                table = await self._open_table(
                    table_id, g, games.daily_seed(game, date), 1, seats, {DAILY_SEAT: token},
                    new_secret("sp_", table_id), {}, {"bot_delay_ms": 0, "hints_disabled": True},
                    {"date": date, "player_hash": player})
            except Exists:                                   # a racing call of the same player
                table = await self.table(table_id)
        if table.match.dealt == 0:
            try:
                await self.deal(table_id, token, 1)
            except errors.ServiceError as err:
                if err.reason != "STALE_VERSION":            # another call dealt it meanwhile
                    raise
        return date, table_id, token, await self.view(table_id, token)

    async def submit_daily(self, table_id: str, token: str, nickname: str, secret: str) -> tuple[dict, int]:
        """Enter the finished daily deal of the token's seat: the engine's score of the table's
        record, never a client's number. (entry, rank)."""
        nickname = nickname.strip()
        if not 1 <= len(nickname) <= NICKNAME_LENGTH or not nickname.isprintable():
            raise errors.invalid("nickname", f"must be 1 to {NICKNAME_LENGTH} printable characters, "
                                 f"got {errors.short(nickname)}", reason="BAD_NICKNAME")
        check_player_secret(secret)
        table = await self.table(table_id)
        seat = table.seat_of(token)
        daily = table.spec.daily
        if daily is None:
            raise errors.precondition("NOT_A_DAILY_TABLE", f"table {errors.short(table.id)} is not a daily-deal "
                                      "table (GetDailyDeal opens one)")
        if not hmac.compare_digest(player_hash(secret), daily["player_hash"]):
            raise errors.ServiceError(errors.grpc.StatusCode.PERMISSION_DENIED, "BAD_PLAYER_SECRET",
                                      "the player secret is not the one this daily table was opened with")
        today = self.today()
        if daily["date"] != today:
            raise errors.precondition("DAILY_NOT_TODAY", f"the table is the deal of {daily['date']}; "
                                      f"today's ({today}) is the only one the leaderboard takes")
        state = table.match.current
        if state is None or not state.is_over():
            raise errors.precondition("DEAL_NOT_FINISHED", "the daily deal is not finished yet")
        answer = await self._work(records.evaluate, state.record())
        score = answer["result"]["scores"][seat]
        entry = DailyEntry(table.spec.game, daily["date"], daily["player_hash"], nickname, score, table.id,
                           _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="microseconds"))
        try:
            await self.store.add_daily_entry(entry)
        except Exists:
            raise errors.ServiceError(errors.grpc.StatusCode.ALREADY_EXISTS, "DAILY_ALREADY_SUBMITTED",
                                      f"this player already has an entry for {entry.game} on {entry.date}") from None
        entries, total = await self.store.daily_entries(entry.game, entry.date, 10 ** 6)
        rank = next(i for i, e in enumerate(entries, 1) if e.player_hash == entry.player_hash)
        return entry_dict(entry, rank), rank

    async def leaderboard(self, game: str, date: str, limit: int) -> dict:
        if game not in games.available():
            raise errors.invalid("game", f"unknown game {errors.short(game)}; games are "
                                 f"{', '.join(games.available())}")
        date = check_date(date, "date") if date else self.today()
        default, most = LEADERBOARD_LIMIT
        if not 0 <= limit <= most:
            raise errors.invalid("limit", f"must be 1..{most} (0: {default}), got {limit}")
        entries, total = await self.store.daily_entries(game, date, limit or default)
        return {"game": game, "date": date, "total": total,
                "entries": [entry_dict(e, i) for i, e in enumerate(entries, 1)]}

    # ---- hints ----------------------------------------------------------------------------------
    async def hint(self, table_id: str, token: str) -> dict:
        """The hard bot's evaluation of each legal action of the token's seat, computed from
        that seat's view alone (the worker gets the view dict, never the deal)."""
        table = await self.table(table_id)
        seat = table.seat_of(token)
        if table.spec.settings.get("hints_disabled"):
            raise errors.precondition("HINTS_DISABLED", f"table {errors.short(table.id)} gives no hints")
        state = table.match.current
        if table.deal is None or state is None or state.is_over():
            raise errors.precondition("NO_DEAL_IN_PROGRESS", "no deal is in progress: nothing to hint")
        if state.to_act() != seat:
            raise errors.precondition("NOT_YOUR_TURN", f"seat {state.to_act()} is to act, not seat {seat}: "
                                      "a hint is for the seat to act")
        if not level_available("hard"):
            raise errors.precondition("HINTS_UNAVAILABLE", "this server has no hard bot yet to give hints")
        version = table.version
        view = state.view(seat)
        options = state.game.options.as_dict()
        hints = await self._work(hint_of, table.spec.game, options, view, bot_seed_of(table, seat, version))
        return {"version": version, "seat": seat, "hints": hints}

    # ---- deal and act -------------------------------------------------------------------------
    async def deal(self, table_id: str, token: str, expected_version: int | None,
                   request_id: str = "") -> dict:
        """Start the next deal (bots that act first act); the caller's view."""
        request_id = check_request_id(request_id)
        table = await self.table(table_id)
        if any(k in (HUMAN, OPEN) for k in table.spec.seats) or token:
            seat = table.seat_of(token)
        else:
            seat = None
        if table.open_seats():
            raise errors.precondition("SEATS_OPEN", f"seats {table.open_seats()} are open: every invite "
                                      "must be claimed (JoinTable) before the first deal")
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
        """Judge and commit one change under the table's lock. A request id is read back only
        when the change cannot go ahead as it stands (refused, stale, or its commit meets a row
        already there): a retry of an answered request always lands on one of those, so a
        request's first use costs no read."""
        fp = fingerprint(kind, seat, fields) if request_id else ""

        async def answered():
            """The answer stored under this request id, if it was answered (REQUEST_ID_REUSED
            if that was another request)."""
            if not request_id:
                return None
            known = await self.store.find_request(table.id, request_id)
            if known is not None and known[0] != fp:
                raise errors.invalid("request_id", "was already used for another request",
                                     reason="REQUEST_ID_REUSED")
            return known

        async def section():
            for _ in range(CONFLICT_RETRIES):
                try:
                    if expected_version is not None and expected_version != table.version and self.store.shared:
                        await self._catch_up(table)         # the client may have seen another server
                    if expected_version is not None and expected_version != table.version:
                        raise errors.stale(expected_version, table.version)
                    match, dlog, commit, answer = job(table, seat, kind, fields)
                except (errors.ServiceError, errors.Refused):
                    if (known := await answered()) is not None:
                        return known[1]
                    raise
                if request_id:
                    commit.request = (request_id, fp, answer)
                try:
                    await self.store.commit(table.id, commit)
                    break
                except Conflict:
                    # another server committed first, or this request id is answered: judge
                    # again on the table as it is now (never twice: the id is checked again)
                    await self._catch_up(table)
                    if (known := await answered()) is not None:
                        return known[1]
            else:
                raise errors.ServiceError(errors.grpc.StatusCode.ABORTED, "CONFLICT",
                                          "the table kept changing meanwhile; read it again")
            table.match, table.deal, table.version = match, dlog, commit.rows[-1][0]
            table.notify()
            return answer

        try:
            answer = await self._locked(table, section)
        finally:
            self._evict(table)
        self._schedule_bots(table)
        return answer

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
        commit = Commit(table.version, [(version, number, None)], deal_start=(number, version, dlog.start),
                        bot_turn=bot_to_act_in(table.spec, work) is not None)
        return work, dlog, commit, view_of(table, work, version, dlog, seat)

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
        dlog.entries.append(entry_after(work, version, len(work.current.actions) - 1))
        commit = Commit(table.version, [(version, dlog.number, work.current.actions[-1])],
                        bot_turn=bot_to_act_in(table.spec, work) is not None)
        return work, dlog, commit, view_of(table, work, version, dlog, seat)

    # ---- bots --------------------------------------------------------------------------------------
    def _schedule_bots(self, table: Table) -> None:
        """Start the table's bot task if a bot is to act and none runs: bots think off the
        request path (a person's call has returned), one action at a time, each committed and
        announced like any action."""
        if self.closing or table.bot_to_act() is None or self.live.get(table.id) is not table:
            return
        if table.bots is not None and not table.bots.done():
            return
        table.bots = asyncio.ensure_future(self._run_bots(table))
        # a match the bots finish leaves memory once their task is done (inside the task the
        # table is not idle yet: its own task still runs)
        table.bots.add_done_callback(lambda _task: self._evict(table))

    async def _run_bots(self, table: Table) -> None:
        delay = table.spec.settings.get("bot_delay_ms", 0) / 1000
        shared = self.store.shared
        leased = False
        try:
            while not self.closing and table.bot_to_act() is not None and self.live.get(table.id) is table:
                if shared:
                    # the lease first: exactly one server plays a table's bots
                    leased = await self.store.take_bot_lease(table.id)
                    if not leased:
                        return
                if delay:
                    await self._keeping_lease(table, asyncio.sleep(delay))
                await self._locked(table, lambda: self._bot_step(table))
            leased = False          # the last bot's commit removed the row (or kept it ours)
        except asyncio.CancelledError:
            raise
        except (errors.ServiceError, StoreError) as err:
            log.warning("bots of table %s stopped: %s", table.id, getattr(err, "reason", None) or err)
        except Exception:  # noqa: BLE001 - a bot's defect stops this table's bots only
            log.exception("bots of table %s stopped", table.id)
        finally:
            if shared and leased and not self.closing:
                self._spawn(self._release(table.id))
            self._evict(table)

    async def _release(self, table_id: str) -> None:
        try:
            await self.store.release_bot_lease(table_id)
        except StoreError as err:
            log.warning("lease of table %s not released (it expires): %s", table_id, err)

    async def _keeping_lease(self, table: Table, awaitable):
        """Await `awaitable` (a bot thinking, its delay) renewing the table's bot lease."""
        if not self.store.shared:
            return await awaitable

        async def renew():
            while True:
                await asyncio.sleep(self.store.lease_seconds / 3)
                if not await self.store.take_bot_lease(table.id):
                    return

        keeper = asyncio.ensure_future(renew())
        try:
            return await awaitable
        finally:
            keeper.cancel()

    async def _bot_step(self, table: Table) -> None:
        if self.store.shared:
            await self._catch_up(table)     # the bot may have acted on another server already
        seat = table.bot_to_act()
        if seat is None:
            return

        def job():
            work = table.match.copy()
            version = table.version + 1
            work.apply(bot_action(table.spec, work.current, seat, version))
            d = table.deal
            dlog = DealLog(d.number, d.first_version, d.start, list(d.entries))
            dlog.entries.append(entry_after(work, version, len(work.current.actions) - 1))
            return work, dlog, Commit(table.version, [(version, d.number, work.current.actions[-1])],
                                      bot_turn=bot_to_act_in(table.spec, work) is not None)

        work, dlog, commit = await self._keeping_lease(table, self._work(job))
        try:
            await self.store.commit(table.id, commit)
        except Conflict:
            await self._catch_up(table)     # another server played it: the loop looks again
            return
        table.match, table.deal, table.version = work, dlog, commit.rows[-1][0]
        table.notify()

    async def _sweep(self) -> None:
        """Every SWEEP_SECONDS: bot turns whose lease expired (their server died, or gave them
        up) are taken and played here."""
        while not self.closing:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                for table_id in await self.store.due_bot_tables(SWEEP_BATCH):
                    if self.closing:
                        return
                    held = self.live.get(table_id)
                    if held is not None and held.bots is not None and not held.bots.done():
                        continue
                    if not await self.store.take_bot_lease(table_id):
                        continue
                    try:
                        table = await self.table(table_id)        # loads (and schedules) or catches up
                    except errors.ServiceError as err:
                        log.warning("bot turn of table %s not resumed: %s", table_id, err.reason)
                        await self._release(table_id)
                        continue
                    self._schedule_bots(table)
                    if table.bots is None or table.bots.done():
                        await self._release(table_id)
            except asyncio.CancelledError:
                raise
            except StoreError as err:
                log.warning("bot sweep: %s", err)
            except Exception:  # noqa: BLE001 - the sweep goes on
                log.exception("bot sweep")

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
            if self.store.shared:           # a notice before this watcher counted was not acted on
                await self._fresh(table)
            checked = time.monotonic()
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
                    # the safety net of notices lost on the way: a cheap look now and then
                    if self.store.shared and time.monotonic() - checked >= WATCH_RECHECK_SECONDS:
                        checked = time.monotonic()
                        self._refresh_soon(table.id)
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
        for seat_joined, (_, v) in sorted(table.claims.items(), key=lambda c: c[1][1]):
            if v > version:
                out.append(joined_event(seat_joined, v, len(table.spec.seats)))
                version = v
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
        """Watchers return; bots stop (a bot's turn is resumed when the table is next loaded);
        no new work."""
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        playing = []
        for table in list(self.live.values()):
            table.notify()
            if table.bots is not None and not table.bots.done():
                table.bots.cancel()
                playing.append(table.id)
        if self.store.shared:           # another server takes these bot turns at once
            for table_id in playing:
                await self._release(table_id)


def check_settings(settings: dict) -> dict:
    delay = settings.get("bot_delay_ms", 0)
    if isinstance(delay, bool) or not isinstance(delay, int) or not 0 <= delay <= MAX_BOT_DELAY_MS:
        raise errors.invalid("settings.bot_delay_ms", f"must be 0..{MAX_BOT_DELAY_MS} milliseconds, got {delay!r}")
    return {"bot_delay_ms": delay, "hints_disabled": bool(settings.get("hints_disabled", False))}


def entry_dict(e: DailyEntry, rank: int) -> dict:
    return {"rank": rank, "nickname": e.nickname, "score": e.score, "submitted_at": e.submitted_at}


def bot_seed_of(table: Table, seat: int, version: int) -> int:
    from .tables import bot_seed
    return bot_seed(table.spec.seed, seat, version)


def hint_of(game: str, options: dict, view: dict, seed: int) -> list[dict]:
    """The hard bot's evaluation of a seat's legal actions from the seat's view (a dict: the
    bot never gets the deal), best expected score first."""
    from engine_core import bots
    hints = bots.get(game, "hard", seed=seed, options=options).evaluate(view)
    return sorted(hints, key=lambda h: -(h["expected"] if h["expected"] is not None else float("-inf")))

