"""Tables and deals back from the store: a table is restored by replaying its current deal
through the engine (no call ever costs more than the current deal), an earlier deal by
replaying that deal. A table whose rows do not restore is marked damaged: only that table is
lost (DATA_LOSS, TABLE_DAMAGED), and it is not read again."""
from __future__ import annotations

import collections
import logging
from typing import Awaitable, Callable

from engine_core.match import Match

from . import errors
from .store import Damaged, Store
from .tables import DealLog, Spec, Table, replay

log = logging.getLogger("stich.service")
_DAMAGED_KEPT = 1024


class Restorer:
    """Reads tables and past deals from `store`, replaying them in `work` (a worker thread)."""

    def __init__(self, store: Store, work: Callable[..., Awaitable]):
        self.store = store
        self.work = work
        self.damaged: collections.OrderedDict[str, str] = collections.OrderedDict()

    def check(self, table_id: str) -> None:
        """TABLE_DAMAGED if the table was found damaged before."""
        if table_id in self.damaged:
            raise errors.damaged(table_id, self.damaged[table_id])

    async def read(self, table_id: str, forget: Callable[[], None] = lambda: None) -> Table:
        """The table as the store holds it (NOT_FOUND, TABLE_DAMAGED); `forget` runs first
        when its rows are there but do not restore."""
        try:
            stored = await self.store.load_table(table_id)
        except Damaged as err:
            raise self.mark_damaged(table_id, str(err)) from None
        if stored is None:
            raise errors.not_found("table", f"no table {errors.short(table_id)}")
        try:
            return await self.work(restore, table_id, stored)
        except Exception as err:  # noqa: BLE001 - whatever the rows hold, only this table is lost
            forget()
            raise self.mark_damaged(table_id, f"{type(err).__name__}: {err}") from None

    def mark_damaged(self, table_id: str, why: str) -> errors.ServiceError:
        log.error("table %s cannot be restored: %s", table_id, why)
        self.damaged[table_id] = errors.cut(why, 160)
        while len(self.damaged) > _DAMAGED_KEPT:
            self.damaged.popitem(last=False)
        return errors.damaged(table_id, self.damaged[table_id])

    async def past_deal(self, table: Table, number: int) -> tuple[Match, DealLog]:
        """A finished deal of the table, replayed from the store."""
        stored = await self.store.load_deal(table.id, number)
        if stored is None:
            raise self.mark_damaged(table.id, f"deal {number} is missing")
        try:
            return await self.work(replay, table.spec, number, stored.first_version, stored.start, stored.actions)
        except Exception as err:  # noqa: BLE001
            raise self.mark_damaged(table.id, f"deal {number}: {type(err).__name__}: {err}") from None


def restore(table_id: str, stored) -> Table:
    """A table from its stored rows: its spec, its claims and its current deal replayed."""
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
