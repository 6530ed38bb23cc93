"""The envelope of every call at either door (gRPC, and HTTP: Connect, gRPC-Web): the request
checked, the servicer's method run, every error mapped to the door's form of one status
(errors.py), and the call's one log line and metrics written when it ends (observe.py), a
cancelled call told apart as DEADLINE_EXCEEDED or CANCELLED. A door says only what differs:
its name, how it reads a call's context and how an error leaves it (`Door`)."""
from __future__ import annotations

import asyncio
import logging
import time

import grpc
from google.protobuf.message import DecodeError

from . import errors, observe


# Requests that carry options (CreateTable, Simulate) take a few hundred bytes; they are bounded
# far below --max-message-bytes, so that reading one costs a moment whatever it holds.
OPTIONS_REQUEST_BYTES = 64 * 1024


class Rejected:
    """A request refused as it was read (not valid protobuf or JSON, too large for its method,
    an enum value its enum does not have): its handler raises the error, so the call is
    answered, logged and counted as any other."""

    __slots__ = ("error",)

    def __init__(self, error: Exception):
        self.error = error


def Malformed(why: str, what: str = "protobuf") -> Rejected:
    """A request message that did not parse (INVALID_ARGUMENT, MALFORMED_REQUEST)."""
    return Rejected(errors.malformed(why, what))


class Deferred:
    """A request whose decoding is too heavy for the event loop (a large Connect JSON body):
    `read` runs `decode` in `pool` and goes on with its result."""

    __slots__ = ("pool", "decode")

    def __init__(self, pool, decode):
        self.pool = pool
        self.decode = decode


def bound_of(cls) -> int | None:
    """The largest request of message class `cls` in bytes, if it has a bound of its own."""
    return OPTIONS_REQUEST_BYTES if "options" in cls.DESCRIPTOR.fields_by_name else None


def too_large(cls, size: int) -> Rejected:
    bound = bound_of(cls)
    method = cls.DESCRIPTOR.name.removesuffix("Request")
    return Rejected(errors.ServiceError(
        grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_TOO_LARGE",
        f"a {method} request of {size} bytes; at most {bound} (a game's options take far less)"))


def parser(cls):
    """The request deserializer of a message class: a message that is not valid protobuf, or
    larger than its method's bound (`bound_of`, checked before it is parsed), becomes a
    Rejected (INVALID_ARGUMENT), never INTERNAL."""
    bound = bound_of(cls)

    def parse(data: bytes):
        if bound is not None and len(data) > bound:
            return too_large(cls, len(data))
        try:
            return cls.FromString(data)
        except (DecodeError, ValueError, RuntimeError) as err:   # RecursionError is a RuntimeError
            return Malformed(f"{type(err).__name__}: {err}")
    return parse


def checked(request):
    """The request, or its Rejected's error raised."""
    if isinstance(request, Rejected):
        raise request.error
    return request


async def read(request):
    """The request as `checked` gives it, decoded off the event loop first if it is Deferred."""
    if isinstance(request, Deferred):
        request = await asyncio.get_running_loop().run_in_executor(request.pool, request.decode)
    return checked(request)


class ClientLeft(logging.Filter):
    """gRPC's own line for a call whose client went away while its answer was being sent (its
    send fails: "Unexpected [ExecuteBatchError] raised by servicer method [...]", with a
    traceback) made what it is, an ordinary outcome: one INFO line, no traceback. The call's
    own line says CANCELLED. Installed on gRPC's logger by the server (`install`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "[ExecuteBatchError]" in text:
            method = text.rsplit("[", 1)[-1].rstrip("]")
            record.msg, record.args = "client left while its answer was being sent: %s", (method,)
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True

    @classmethod
    def install(cls) -> None:
        logger = logging.getLogger("grpc._cython.cygrpc")
        if not any(isinstance(f, cls) for f in logger.filters):
            logger.addFilter(cls())


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
            if isinstance(err, (asyncio.CancelledError, GeneratorExit)):
                # its deadline passed, or the client went away (a stream's generator is closed
                # when its client left while an answer was being sent)
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
            c.response = await method(await read(request), c.context)
        return c.response
    return call


def streaming(door: Door, name: str, method, watch: bool = False):
    """The handler of a streaming method at `door`. `watch`: a stream of one request
    (WatchTable), counted in stich_watch_streams; else the requests are a stream themselves."""
    gauge = observe.WATCH_STREAMS.labels(door.name) if watch else None

    async def call(request, ctx):
        async with Call(door, name, ctx, request if watch else None, gauge) as c:
            async for response in method(await read(request) if watch else request, c.context):
                yield response
    return call
