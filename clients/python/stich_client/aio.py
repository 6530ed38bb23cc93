"""The asyncio client: `AsyncStichClient`, the blocking client's calls (client.Calls, one
definition each) awaited on a `grpc.aio` channel with the same options, so the same deadlines,
the same request ids and the same retry policy (gRPC's own, from the channel's service config).

    async with AsyncStichClient("127.0.0.1:50051") as c:
        game = (await c.list_games())[0]["name"]
        table = await c.create_table(game, seats=["human", "bot:easy", "bot:easy", "bot:easy"])
        view = await c.deal(table.table_id, table.tokens[0])
"""
from __future__ import annotations

import functools
import json
from typing import Any, AsyncIterator, Awaitable, Callable, Concatenate, Iterable

import grpc
from grpc_health.v1 import health_pb2_grpc

from .client import (DEFAULT_TARGET, Calls, Event, Op, P, T, View, _evaluate_requests, _method, _settled,
                     channel_options)
from . import convert
from .errors import from_rpc_error
from .gen.stich.v1 import stich_service_pb2 as pb, stich_service_pb2_grpc as pb_grpc


def awaited(call: Callable[Concatenate[Any, P], Op[T]]) -> Callable[Concatenate["AsyncStichClient", P], Awaitable[T]]:
    """A call of `Calls` as a coroutine method of the asyncio client."""
    @functools.wraps(call)
    async def method(self: "AsyncStichClient", *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._run(call(self, *args, **kwargs))
    return method


class AsyncStichClient:
    """Every call of `StichClient` as a coroutine, plus `watch` and `evaluate` as async
    iterators and `wait_turn`. Use it in one event loop (grpc.aio's rule)."""

    list_games = awaited(Calls.list_games)
    create_table = awaited(Calls.create_table)
    join_table = awaited(Calls.join_table)
    hint = awaited(Calls.hint)
    analyze = awaited(Calls.analyze)
    daily_deal = awaited(Calls.daily_deal)
    submit_daily = awaited(Calls.submit_daily)
    leaderboard = awaited(Calls.leaderboard)
    deal = awaited(Calls.deal)
    view = awaited(Calls.view)
    bid = awaited(Calls.bid)
    exchange = awaited(Calls.exchange)
    announce = awaited(Calls.announce)
    play = awaited(Calls.play)
    act = awaited(Calls.act)
    score = awaited(Calls.score)
    evaluate_batch = awaited(Calls.evaluate_batch)
    simulate = awaited(Calls.simulate)
    health = awaited(Calls.health)

    def __init__(self, target: str = DEFAULT_TARGET, timeout: float = 10.0,
                 channel: grpc.aio.Channel | None = None, retries: int = 3):
        """`retries`: how often the channel repeats an idempotent call after UNAVAILABLE (0: never;
        at most 4). A `channel` given has its own options (`client.channel_options`)."""
        self.target = target
        self.timeout = timeout
        self.retries = retries
        self.channel = channel or grpc.aio.insecure_channel(target, options=channel_options(retries))
        self.stub = pb_grpc.StichServiceStub(self.channel)
        self._health = health_pb2_grpc.HealthStub(self.channel)

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> "AsyncStichClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def _run(self, op: Op[T]) -> T:
        """Run a call: each RPC it yields, awaited once (the channel retries), its answer sent back."""
        try:
            step = next(op)
            while True:
                name, request, timeout = step
                try:
                    response = await _method(self, name)(request, timeout=self.timeout if timeout is None else timeout)
                except grpc.RpcError as err:
                    raise from_rpc_error(err) from None
                step = op.send(response)
        except StopIteration as done:
            return done.value

    async def wait_turn(self, table_id: str, token: str, timeout: float | None = 60) -> View:
        """The token's view once its seat is to act, or nobody is (see StichClient.wait_turn)."""
        view = await self.view(table_id, token)
        if _settled(view, view["seat"]):
            return view
        async for event in self.watch(table_id, token, view["version"], timeout=timeout):
            if _settled(event, view["seat"]):
                break
        return await self.view(table_id, token)

    async def watch(self, table_id: str, token: str, from_version: int = 0,
                    timeout: float | None = None) -> AsyncIterator[Event]:
        """The table's events after `from_version` until the match ends (or `timeout`)."""
        call = self.stub.WatchTable(pb.WatchTableRequest(table_id=table_id, token=token,
                                                         from_version=from_version), timeout=timeout)
        try:
            async for r in call:
                yield convert.event_dict(r.event)
        except grpc.RpcError as err:
            raise from_rpc_error(err) from None
        finally:
            call.cancel()

    async def evaluate(self, lines: Iterable[str | dict], with_legal: bool = False,
                       timeout: float | None = None, chunk: int | None = None,
                       raw: bool = False) -> AsyncIterator[dict | str]:
        """One answer per record, in order, streamed (EvaluateRecords; see StichClient.evaluate)."""
        call = self.stub.EvaluateRecords(_evaluate_requests(lines, with_legal, chunk), timeout=timeout)
        try:
            async for r in call:
                for a in r.answers:
                    yield a.json if raw else json.loads(a.json)
        except grpc.RpcError as err:
            raise from_rpc_error(err) from None
        finally:
            call.cancel()
