"""The envelope of every call at either door (gRPC, and HTTP: Connect, gRPC-Web): the request
checked, the servicer's method run, every error mapped to the door's form of one status
(errors.py), and the call's one log line and metrics written when it ends (observe.py), a
cancelled call told apart as DEADLINE_EXCEEDED or CANCELLED. A door says only what differs:
its name, how it reads a call's context and how an error leaves it (`Door`)."""
from __future__ import annotations

import asyncio
import time

from google.protobuf.message import DecodeError

from . import errors, observe


class Malformed:
    """A request message that did not parse."""

    def __init__(self, why: str):
        self.why = why


def parser(cls):
    """The request deserializer of a message class: a message that is not valid protobuf
    becomes a Malformed (INVALID_ARGUMENT, MALFORMED_REQUEST when checked), never INTERNAL."""
    def parse(data: bytes):
        try:
            return cls.FromString(data)
        except (DecodeError, ValueError, RuntimeError) as err:   # RecursionError is a RuntimeError
            return Malformed(f"{type(err).__name__}: {err}")
    return parse


def checked(request):
    if isinstance(request, Malformed):
        raise errors.malformed(request.why)
    return request


def peer_of(context) -> str:
    """The peer address of a call as the log writes it (no port)."""
    peer = context.peer() or ""
    if peer.startswith(("ipv4:", "ipv6:")):
        return peer.rsplit(":", 1)[0]
    return peer


class Door:
    """What differs between the doors; the gRPC door's ways by default."""
    name = "grpc"

    def context(self, ctx):
        """The context the servicer's methods get (they ask it for `peer()` only)."""
        return ctx

    def deadline(self, ctx, started: float) -> float | None:
        """When a cancellation of the call counts as its deadline passing (perf_counter)."""
        remaining = ctx.time_remaining()
        return None if remaining is None else started + remaining - 0.001

    def status(self, err: BaseException) -> tuple[str, str]:
        """(status code name, ErrorInfo reason) of an error, as the log line writes them."""
        code, reason, _, _ = errors.classify(err)
        return code.name, reason

    async def fail(self, ctx, err: BaseException):
        """End the call with the error's status (raises)."""
        code, message, trailers = errors.status_of(err)
        await ctx.abort(code, message, trailing_metadata=trailers)


class Call:
    """One call in the envelope (`async with Call(...) as call:` around the servicer's method):
    on the way out an error leaves in the door's form, and the call's status goes to its log
    line and metrics. The peer and the deadline are read from the context when the call
    arrives: grpc.aio's context must not be asked once the call has ended (a cancelled
    stream's `peer()` can crash the process)."""

    __slots__ = ("door", "method", "ctx", "context", "started", "peer", "deadline", "request",
                 "response", "gauge")

    def __init__(self, door: Door, method: str, ctx, request=None, gauge=None):
        self.door = door
        self.method = method
        self.ctx = ctx
        self.context = door.context(ctx)            # what the servicer's method gets
        self.started = time.perf_counter()
        self.peer = peer_of(self.context)
        self.deadline = door.deadline(ctx, self.started)
        self.request = request
        self.response = None
        self.gauge = gauge          # a gauge of open streams, counted while the call runs

    async def __aenter__(self) -> "Call":
        if self.gauge is not None:
            self.gauge.inc()
        return self

    async def __aexit__(self, kind, err, tb) -> bool:
        code, reason = "OK", ""
        try:
            if isinstance(err, asyncio.CancelledError):
                # its deadline passed, or the client went away
                late = self.deadline is not None and time.perf_counter() >= self.deadline
                code = "DEADLINE_EXCEEDED" if late else "CANCELLED"
            elif isinstance(err, Exception):          # every error is mapped
                code, reason = self.door.status(err)
                await self.door.fail(self.ctx, err)
            return False
        finally:
            if self.gauge is not None:
                self.gauge.dec()
            observe.finished(self.door.name, self.method, code, self.started,
                             observe.table_of(self.request, self.response), reason, self.peer)


def unary(door: Door, name: str, method):
    """The handler of a unary method at `door`: `method(request, context)` in the envelope."""
    async def call(request, ctx):
        async with Call(door, name, ctx, request) as c:
            c.response = await method(checked(request), c.context)
        return c.response
    return call


def streaming(door: Door, name: str, method, watch: bool = False):
    """The handler of a streaming method at `door`. `watch`: a stream of one request
    (WatchTable), counted in stich_watch_streams; else the requests are a stream themselves."""
    gauge = observe.WATCH_STREAMS.labels(door.name) if watch else None

    async def call(request, ctx):
        async with Call(door, name, ctx, request if watch else None, gauge) as c:
            async for response in method(checked(request) if watch else request, c.context):
                yield response
    return call
