"""Deal and the seats' actions: one accepted request is one critical section per table. Look up
the request id, check the expected version, let the engine judge and carry out the request on
a copy of the match, commit it to the store, and only then make the copy the table's state and
wake the watchers; after an error nothing has changed. A person's action is judged on the event
loop itself (tens of microseconds of engine time, less than a hop to a worker thread and back).

A commit that loses to another server's (Conflict) catches up and judges the request again on
the fresh state (or answers STALE_VERSION), so a request is accepted at most once and every
server tells the same log."""
from __future__ import annotations

from engine_core.errors import ActionError

from . import errors
from .request_ids import answered, check_request_id, fingerprint
from .sections import locked
from .store import Commit, Conflict
from .tables import HUMAN, OPEN, DealLog, Table, bot_to_act_in, entry_after, start_of, view_of


class Changes:
    """Deal and act at the tables of a TableManager."""

    def __init__(self, manager):
        self.manager = manager

    async def deal(self, table_id: str, token: str, expected_version: int | None,
                   request_id: str = "") -> dict:
        """Start the next deal (bots that act first act); the caller's view."""
        request_id = check_request_id(request_id)
        table = await self.manager.table(table_id, to_act=True)
        if any(k in (HUMAN, OPEN) for k in table.spec.seats) or token:
            seat = table.seat_of(token)
        else:
            seat = None
        if table.open_seats():
            raise errors.precondition("SEATS_OPEN", f"seats {table.open_seats()} are open: every invite "
                                      "must be claimed (JoinTable) before the first deal")
        return await self._change(table, seat, "deal", {}, expected_version, request_id, _deal_job)

    async def act(self, table_id: str, token: str, kind: str, fields: dict,
                  expected_version: int | None, request_id: str = "") -> dict:
        """One action of the token's seat (a records.md action without its seat), then
        whatever bots follow; the seat's view after them."""
        request_id = check_request_id(request_id)
        table = await self.manager.table(table_id, to_act=True)
        seat = table.seat_of(token)
        return await self._change(table, seat, kind, fields, expected_version, request_id, _act_job)

    async def _change(self, table: Table, seat, kind, fields, expected_version, request_id, job) -> dict:
        """Judge and commit one change under the table's lock. A request id is read back only
        when the change cannot go ahead as it stands (refused, stale, or its commit meets a row
        already there): a retry of an answered request always lands on one of those, so a
        request's first use costs no read."""
        m = self.manager
        store = m.store
        fp = fingerprint(kind, seat, fields) if request_id else ""

        async def section():
            asked = False               # the store, whether another server moved the table
            for _ in range(m.conflict_retries):
                try:
                    if expected_version is not None and expected_version != table.version and store.shared:
                        asked = True
                        await m.freshness.catch_up(table)   # the client may have seen another server
                    if expected_version is not None and expected_version != table.version:
                        raise errors.stale(expected_version, table.version)
                    match, dlog, commit, answer = job(table, seat, kind, fields)
                except (errors.ServiceError, errors.Refused):
                    if store.shared and not asked:
                        asked = True    # judged on a table another server may have moved: on the store's
                        if await m.freshness.catch_up(table):
                            continue
                    if (known := await answered(store, table.id, request_id, fp)) is not None:
                        return known[1]
                    raise
                if request_id:
                    commit.request = (request_id, fp, answer)
                try:
                    await store.commit(table.id, commit)
                    break
                except Conflict:
                    # another server committed first, or this request id is answered: judge
                    # again on the table as it is now (never twice: the id is checked again)
                    await m.freshness.catch_up(table)
                    if (known := await answered(store, table.id, request_id, fp)) is not None:
                        return known[1]
            else:
                raise errors.conflict("the table kept changing meanwhile; read it again")
            table.match, table.deal, table.version = match, dlog, commit.rows[-1][0]
            table.notify()
            return answer

        try:
            answer = await locked(table, section)
        finally:
            m.evict(table)
        m.bots.schedule(table)
        return answer


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


def _act_job(table: Table, seat, kind, fields):
    work = table.match.copy()
    state = work.current
    action = {"seat": seat, "type": kind, **fields}
    try:
        work.apply(action)
    except ActionError as err:
        # the refusal lists the seat's own alternatives: its turn's, or what it may take out of
        # turn (a refused action changed nothing, so `state` is the state it was judged on)
        shown = state is not None and (state.to_act() == seat or bool(state.legal_actions(seat)))
        raise errors.Refused(err, shown) from None
    dlog = DealLog(table.deal.number, table.deal.first_version, table.deal.start, list(table.deal.entries))
    version = table.version + 1
    dlog.entries.append(entry_after(work, version, len(work.current.actions) - 1))
    commit = Commit(table.version, [(version, dlog.number, work.current.actions[-1])],
                    bot_turn=bot_to_act_in(table.spec, work) is not None)
    return work, dlog, commit, view_of(table, work, version, dlog, seat)
