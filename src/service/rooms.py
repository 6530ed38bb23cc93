"""Opening tables and filling their seats: CreateTable (a table of a game with its seats: people
with seat tokens, open seats with invite codes, bots of a level) and JoinTable (claiming an open
seat with its invite code; exactly one of racing joins wins, the store's claim is the judge)."""
from __future__ import annotations

import datetime as _dt
import secrets

from engine_core import games
from engine_core.errors import OptionError
from engine_core.match import MAX_DEALS_PER_MATCH, Match

from . import errors
from .ids import INVITE
from .sections import locked
from .store import Conflict, Exists
from .tables import (HUMAN, MAX_BOT_DELAY_MS, OPEN, SEAT_KINDS, Spec, Table, bot_level, is_bot,
                     level_available, new_secret, seat_kind, token_hash, token_table)


class Rooms:
    """CreateTable and JoinTable at a TableManager."""

    def __init__(self, manager):
        self.manager = manager

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
                games.daily_seed(game, daily_date)                # the date's form
            except OptionError:
                raise errors.invalid("daily_date", f"must be a date YYYY-MM-DD, got "
                                     f"{errors.short(daily_date)}") from None
            daily_date = _dt.date.fromisoformat(daily_date).isoformat()
            if daily_date >= self.manager.today():
                # a practice copy of a day still played (or to come) would rehearse it
                raise errors.precondition("DAILY_NOT_OVER", f"the daily deal of {daily_date} can be "
                                          "practised once that day is over (UTC); play it with "
                                          "GetDailyDeal", field="daily_date")
            seed = await self.manager.dailies.seed(game, daily_date)
        elif seed is None:
            seed = secrets.randbits(64)
        table_id = "t_" + secrets.token_urlsafe(12)
        tokens = {s: new_secret("st_", table_id) for s in range(n) if seats[s] == HUMAN}
        invites = {s: new_secret("iv_", table_id) for s in range(n) if seats[s] == OPEN}
        spectator = new_secret("sp_", table_id)
        table = await self.open_table(table_id, g, seed, deals_per_match, seats, tokens, spectator,
                                      invites, settings, None)
        return table.view(None), tokens, spectator, invites

    async def open_table(self, table_id, g, seed, deals_per_match, seats, tokens, spectator,
                         invites, settings, daily) -> Table:
        """Write a new table to the store (Exists if the id is taken) and hold it here."""
        match = Match(g, seed, 0, deals_per_match, keep_results=False)   # checks the match length
        spec = Spec(g.name, g.options.as_dict(), deals_per_match, tuple(seats),
                    {token_hash(t): s for s, t in tokens.items()}, token_hash(spectator), seed,
                    {token_hash(c): s for s, c in invites.items()}, settings, daily)
        await self.manager.store.create_table(table_id, spec.as_dict())          # Exists if taken
        table = Table(table_id, spec, 1, match, None)
        self.manager.keep(table)
        return table

    async def join(self, invite: str) -> tuple[dict, str]:
        """Claim the open seat of an invite code: (the seat's view, its new token). Nothing
        changes on an error."""
        m = self.manager
        if not invite:
            raise errors.invalid("invite", "missing: give the invite code of an open seat",
                                 reason="BAD_INVITE")
        if not INVITE.match(invite):
            raise errors.invalid("invite", "is not an invite code (iv_<secret>.<table id>, the part "
                                 "after #join= of the link)", reason="BAD_INVITE")
        table_id = token_table(invite)
        try:
            table = await m.table(table_id)
        except errors.ServiceError as err:
            if err.reason == "TABLE_NOT_FOUND":
                raise errors.not_found("invite", "no open seat has this invite code") from None
            raise
        seat = table.spec.invite_hashes.get(token_hash(invite))
        if seat is None:
            raise errors.not_found("invite", f"no open seat of table {errors.short(table.id)} has this invite code")
        token = new_secret("st_", table.id)

        async def section():
            for _ in range(m.conflict_retries):
                if seat in table.claims:
                    raise used(seat)
                try:
                    await m.store.claim_seat(table.id, seat, token_hash(token), table.version)
                    break
                except Exists:
                    raise used(seat) from None
                except Conflict:                    # another server moved the table: again on it
                    await m.freshness.catch_up(table)
            else:
                raise errors.conflict("the table kept changing meanwhile; join again")
            table.version += 1
            table.claims[seat] = (token_hash(token), table.version)
            table.notify()
            return table.view(seat)

        def used(s):
            return errors.already_exists("INVITE_USED", f"seat {s} was already claimed with this invite")

        view = await locked(table, section)
        return view, token


def check_settings(settings: dict) -> dict:
    delay = settings.get("bot_delay_ms", 0)
    if isinstance(delay, bool) or not isinstance(delay, int) or not 0 <= delay <= MAX_BOT_DELAY_MS:
        raise errors.invalid("settings.bot_delay_ms", f"must be 0..{MAX_BOT_DELAY_MS} milliseconds, got {delay!r}")
    return {"bot_delay_ms": delay, "hints_disabled": bool(settings.get("hints_disabled", False))}
