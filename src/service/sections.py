"""A table's critical section: one accepted change at a time per table, run to its end even if
the caller is cancelled once it has begun (an asyncio lock, no thread held while waiting)."""
from __future__ import annotations

import asyncio
import types
from typing import Any, Awaitable, Callable

from .tables import Table


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


async def locked(table: Table, section: Callable[[], Awaitable[Any]]):
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
