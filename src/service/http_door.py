"""The HTTP door: Connect (JSON and binary), gRPC-Web and gRPC over HTTP/1.1, plus the built web
page at `/`, on the same event loop, table manager and servicer as the gRPC door.

It is a thin adapter: every method calls the same `StichServicer` method the gRPC door calls, in
the same call envelope (envelope.py), and maps the same errors (`errors.error_info`) to a Connect
error carrying the same `google.rpc.ErrorInfo` detail, so a front-end sees one service whichever
door it uses. The
Connect protocol comes from `connectrpc` (ASGI) under uvicorn, started as a task of the running
loop (no second loop, no thread).

Browsers: the page's own origin may always call; any other origin only if listed in
`--allowed-origins` (STICH_ALLOWED_ORIGINS). A request from another origin is refused with
PERMISSION_DENIED (reason ORIGIN_NOT_ALLOWED) naming the origin and what is allowed, before any
handler runs. Before that, the Host header must name this server (`Hosts`: loopback names, an
IP address, the bound name, `--allowed-hosts`), else HOST_NOT_ALLOWED: a page of another site
whose name was rebound to this address (DNS rebinding) gets nothing. `/metrics` answers the
networks of `--metrics-from` only.

A hostile network cannot stall it (docs/operations.md, "Threat model"): a request's head must
arrive within `--http-header-timeout`, connections are capped per peer and in all below the
file descriptor limit (`Connections`, `_Connection`), requests carrying options are bounded
and Connect JSON is read within bounds, large bodies off the event loop (`JsonCodec`).
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import ipaddress
import json
import logging
import mimetypes
import pathlib
import resource
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import h11
import orjson
import uvicorn
from connectrpc.code import Code
from connectrpc.compat import google_protobuf_json_codec
from connectrpc.errors import ConnectError, ErrorDetail
from google.protobuf import json_format
from google.rpc import error_details_pb2
from protobuf.wkt import Any as AnyDetail
from uvicorn.protocols.http.h11_impl import H11Protocol

from stich_client.gen.stich.v1 import stich_service_pb2 as pb
from stich_client.gen.stich.v1.stich_service_connect import StichServiceASGIApplication

from . import convert, envelope, errors, observe
from .config import Config
from .servicer import StichServicer

log = logging.getLogger("stich.service")
ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
PACKAGED_WEB_DIR = pathlib.Path(__file__).resolve().parent / "web"    # in a wheel (setup.py puts it there)
CHECKOUT_WEB_DIR = ROOT / "clients" / "web" / "dist"                   # `make web` in a checkout


def default_web_dir() -> pathlib.Path:
    """The page this installation serves: the one packaged with it (a wheel), else the
    checkout's clients/web/dist (an editable install, `make run`)."""
    return PACKAGED_WEB_DIR if (PACKAGED_WEB_DIR / "index.html").is_file() else CHECKOUT_WEB_DIR


def how_to_build_the_page() -> str:
    """What to do when there is no page: a checkout builds it; an installed wheel was built without it."""
    if (ROOT / "clients" / "web").is_dir():
        return "run `make web` (needs Node.js 18+ and npm)"
    return ("this stich was built without its page (Node.js was missing when its wheel was built): "
            "build the wheel with Node.js 20 on PATH, or give --web-dir")
SERVICE_PREFIX = "/stich.v1.StichService/"
METRICS_PATH = "/metrics"
METHODS = frozenset(m.name for m in pb.DESCRIPTOR.services_by_name["StichService"].methods)
EXPOSED = ("grpc-status, grpc-message, grpc-status-details-bin, connect-protocol-version, "
           "connect-timeout-ms, content-encoding, connect-content-encoding")
_INFO_URL = "type.googleapis.com/google.rpc.ErrorInfo"
MAX_PAGE_PATH = 1024                 # no file of the page has a longer path


def connect_error(err: BaseException) -> ConnectError:
    """The Connect form of any handler error: same code, message and ErrorInfo as gRPC's."""
    code, message, info = errors.error_info(err)
    detail = ErrorDetail(AnyDetail(type_url=_INFO_URL, value=info.SerializeToString()))
    return ConnectError(Code[code.name], message, details=[detail])


# ---- reading requests: the gRPC door's rules for Connect's two encodings -------------------------
INLINE_JSON_BYTES = 16 * 1024       # a JSON body larger than this is decoded in a thread


class BinaryCodec:
    """Connect's and gRPC-Web's protobuf: read exactly as the gRPC door reads it (its bounds, a
    malformed message refused by the handler)."""

    def __init__(self):
        self._parsers: dict = {}

    def name(self) -> str:
        return "proto"

    def encode(self, message) -> bytes:
        return message.SerializeToString()

    def decode(self, data, cls):
        parse = self._parsers.get(cls)
        if parse is None:
            parse = self._parsers[cls] = envelope.parser(cls)
        return parse(bytes(data))


class JsonCodec:
    """Connect's JSON, judged as the gRPC door judges the same request in protobuf: the same
    bound on requests carrying options (before anything is parsed), the same bounds on the
    options (before protobuf converts them), an enum name the enum does not have refused as
    the gRPC door refuses an unknown number (protobuf's JSON parser would drop it: an unknown
    seat kind would make an all-human table). A body over INLINE_JSON_BYTES is decoded in
    `pool`, off the event loop."""

    def __init__(self, pool):
        self.pool = pool
        self._encode = google_protobuf_json_codec()

    def name(self) -> str:
        return "json"

    def encode(self, message) -> bytes:
        return self._encode.encode(message)

    def decode(self, data, cls):
        bound = envelope.bound_of(cls)
        if bound is not None and len(data) > bound:
            return envelope.too_large(cls, len(data))
        if len(data) > INLINE_JSON_BYTES:
            return envelope.Deferred(self.pool, partial(json_request, bytes(data), cls))
        return json_request(data, cls)


def json_request(data: bytes, cls):
    """A request message of class `cls` from its Connect JSON, or a Rejected."""
    try:
        try:
            obj = orjson.loads(data)
        except orjson.JSONDecodeError:
            obj = json.loads(data)             # NaN, Infinity and integers past 64 bits, as protobuf reads them
        _judge_message(obj, cls.DESCRIPTOR, "")
        return json_format.ParseDict(obj, cls(), ignore_unknown_fields=True)
    except errors.ServiceError as err:
        return envelope.Rejected(err)
    except (ValueError, json_format.ParseError, RecursionError, TypeError) as err:
        return envelope.Malformed(f"{type(err).__name__}: {err}", "JSON")


def _judge_message(obj, descriptor, where: str) -> None:
    """Refuse what protobuf's JSON parser would let through silently or convert at any cost:
    an unknown enum name, options beyond their bounds (convert.check_plain_options)."""
    if not isinstance(obj, dict):
        return                                  # ParseDict says what is wrong
    fields = _fields_by_json_name(descriptor)
    for key, value in obj.items():
        field = fields.get(key)
        if field is None or value is None:
            continue
        here = where + field.name
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            if isinstance(value, dict):
                inner = field.message_type.fields_by_name["value"]
                for k, v in value.items():
                    _judge_value(v, inner, f"{here}[{errors.cut(k, 40)}]")
        elif field.is_repeated and isinstance(value, list):
            for i, v in enumerate(value):
                _judge_value(v, field, f"{here}[{i}]")
        else:
            _judge_value(value, field, here)


def _judge_value(value, field, where: str) -> None:
    if field.enum_type is not None:
        if isinstance(value, str) and value not in field.enum_type.values_by_name:
            try:
                int(value)                      # a number in a string is a number to protobuf
            except ValueError:
                raise convert.bad_enum(where, field.enum_type, value) from None
    elif field.message_type is not None:
        name = field.message_type.full_name
        if name == "google.protobuf.Struct" and field.name == "options":
            convert.check_plain_options(value)
        elif not name.startswith("google.protobuf."):
            _judge_message(value, field.message_type, where + ".")


_FIELDS: dict = {}


def _fields_by_json_name(descriptor) -> dict:
    found = _FIELDS.get(descriptor.full_name)
    if found is None:
        found = _FIELDS[descriptor.full_name] = {}
        for f in descriptor.fields:
            found[f.name] = found[f.json_name] = f
    return found


class _Context:
    """What the servicer asks of a call's context (its peer), from a Connect request."""

    def __init__(self, ctx):
        self._ctx = ctx

    def peer(self) -> str:
        where = self._ctx.client_address or ""
        host = where.rsplit(":", 1)[0] if ":" in where else where
        return ("ipv6:" if ":" in host else "ipv4:") + host + ":0"


class _Door(envelope.Door):
    """The HTTP door's ways in the shared call envelope."""
    name = "http"

    def context(self, ctx):
        return _Context(ctx)

    def deadline(self, ctx, started: float) -> float | None:
        """connectrpc cancels the handler when the call's connect-timeout-ms passes (or when
        the client goes away)."""
        timeout_ms = ctx.timeout_ms
        return None if timeout_ms is None else started + timeout_ms * 0.99 / 1000

    def status(self, err: BaseException) -> tuple[str, str]:
        if isinstance(err, ConnectError):
            return err.code.name, ""
        return super().status(err)

    async def fail(self, ctx, err: BaseException):
        if isinstance(err, ConnectError):
            raise err
        raise connect_error(err) from None


class ConnectService:
    """stich.v1.StichService for connectrpc: each method is the gRPC door's, in the same call
    envelope (envelope.py) with the HTTP door's ways."""

    def __init__(self, servicer: StichServicer):
        self.servicer = servicer
        door = _Door()
        for method in pb.DESCRIPTOR.services_by_name["StichService"].methods:
            if not (method.client_streaming or method.server_streaming):
                handler = getattr(servicer, method.name, None)
                setattr(self, _snake(method.name),
                        envelope.unary(door, method.name, handler) if handler else self._missing(method.name))
        self.watch_table = envelope.streaming(door, "WatchTable", servicer.WatchTable, watch=True)
        self.evaluate_records = envelope.streaming(door, "EvaluateRecords", self._evaluate_records)
        self.evaluate_batch = envelope.unary(door, "EvaluateBatch", self._evaluate_batch)

    @staticmethod
    def _missing(name: str):
        async def call(request, ctx):
            raise ConnectError(Code.UNIMPLEMENTED, f"{name} is not implemented by this server")
        return call

    async def _evaluate_records(self, requests, context):
        async for chunk in self.servicer.EvaluateRecords(requests, context):
            # the gRPC door sends pre-encoded answers; Connect's codecs want a message
            yield pb.EvaluateRecordsResponse.FromString(chunk) if isinstance(chunk, bytes) else chunk


    async def _evaluate_batch(self, request, context):
        answer = await self.servicer.EvaluateBatch(request, context)
        # the gRPC door sends the pre-encoded answer; Connect's codecs want a message
        return pb.EvaluateBatchResponse.FromString(answer) if isinstance(answer, bytes) else answer


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


class Origins:
    """Which browser origins may call: the page's own (the Host it was asked for) and the list."""

    def __init__(self, allowed: str):
        self.allowed = [o for o in allowed.split(",") if o]
        self.any = "*" in self.allowed

    def check(self, origin: str | None, host: str | None) -> str | None:
        """None if `origin` may call, else why not (one sentence)."""
        if origin is None:                          # not a browser (curl, Node, grpcurl)
            return None
        own = f"http://{host}" if host else None
        if self.any or origin == own or origin in self.allowed:
            return None
        listed = ", ".join(self.allowed) if self.allowed else "no other origin"
        return (f"origin {errors.cut(origin, 100)} is not allowed to call this server; allowed: the page's own "
                f"origin {own} and {listed} (add one with --allowed-origins or STICH_ALLOWED_ORIGINS)")


def host_name(host: str) -> str:
    """The name of a Host header value, without its port, lower case ([::1]:8080 -> ::1)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


class Hosts:
    """Which Host headers the door answers (against DNS rebinding: a page of evil.example whose
    name was made to resolve to this server sends `Host: evil.example`): loopback names
    (localhost, *.localhost), any IP address (an address cannot be rebound), the name the door
    is bound to, and `--allowed-hosts` (`*`: any). No Host at all (HTTP/1.0) is not a browser."""

    def __init__(self, allowed: str, bound: str):
        self.names = {h for h in allowed.split(",") if h}
        self.any = "*" in self.names
        bound = host_name(bound)
        if bound and not _is_address(bound):
            self.names.add(bound)

    def check(self, host: str | None) -> str | None:
        """None if `host` is served, else why not (one sentence)."""
        if host is None or self.any:
            return None
        name = host_name(host)
        if (name == "localhost" or name.endswith(".localhost") or name in self.names or _is_address(name)):
            return None
        listed = ", ".join(sorted(self.names)) or "none"
        return (f"host {errors.cut(name, 100)} is not served here (DNS rebinding?); served: localhost, IP addresses "
                f"and {listed} (add one with --allowed-hosts or STICH_ALLOWED_HOSTS)")


class Networks:
    """Client networks (for `/metrics`: `--metrics-from`)."""

    def __init__(self, text: str):
        self.text = text
        self.networks = [ipaddress.ip_network(n, strict=False) for n in text.split(",") if n]

    def __contains__(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if ip.version == 6 and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in n for n in self.networks)


class HttpApp:
    """The ASGI application of the HTTP door: the Host, CORS, the RPCs, the metrics, the page."""

    def __init__(self, servicer: StichServicer, config: Config, decode_pool=None):
        self.rpc = StichServiceASGIApplication(ConnectService(servicer), read_max_bytes=config.max_message_bytes,
                                               codecs=[BinaryCodec(), JsonCodec(decode_pool)])
        self.origins = Origins(config.allowed_origins)
        self.hosts = Hosts(config.allowed_hosts, (config.http_address or "").rsplit(":", 1)[0])
        self.metrics_from = Networks(config.metrics_from)
        self.web_dir = pathlib.Path(config.web_dir) if config.web_dir else default_web_dir()

    @property
    def has_page(self) -> bool:
        return (self.web_dir / "index.html").is_file()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        origin = headers.get("origin")
        path = scope["path"]
        reason, refused = "HOST_NOT_ALLOWED", self.hosts.check(headers.get("host"))
        if refused is None:
            reason, refused = "ORIGIN_NOT_ALLOWED", self.origins.check(origin, headers.get("host"))
        if refused:
            client = scope.get("client")
            await self._refuse(send, refused, headers.get("content-type", ""), path,
                               ("ipv6:" if client and ":" in client[0] else "ipv4:") + client[0] if client else "",
                               reason)
            return
        cors = []
        if origin is not None:
            cors = [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin"),
                    (b"access-control-expose-headers", EXPOSED.encode())]
        if scope["method"] == "OPTIONS":
            asked = headers.get("access-control-request-headers", "content-type")
            await send({"type": "http.response.start", "status": 204, "headers": cors + [
                (b"access-control-allow-methods", b"GET, POST"),
                (b"access-control-allow-headers", asked.encode("latin-1")),
                (b"access-control-max-age", b"7200")]})
            await send({"type": "http.response.body", "body": b""})
            return
        if path == METRICS_PATH:
            await self._metrics(scope, send)
            return
        if path.startswith(SERVICE_PREFIX):
            if cors:
                async def send_cors(message):
                    if message["type"] == "http.response.start":
                        message = dict(message, headers=list(message.get("headers", [])) + cors)
                    await send(message)
                await self.rpc(scope, receive, send_cors)
            else:
                await self.rpc(scope, receive, send)
            return
        await self._page(scope, send, path)

    async def _metrics(self, scope, send):
        """The Prometheus metrics (observe.py; docs/operations.md lists them), to the networks
        of --metrics-from only."""
        client = scope.get("client")
        if not self.metrics_from.networks:
            status, kind, body = 404, b"text/plain; charset=utf-8", b"not found (no --metrics-from)\n"
        elif not client or client[0] not in self.metrics_from:
            status, kind = 403, b"text/plain; charset=utf-8"
            body = f"/metrics is served to {self.metrics_from.text} only (--metrics-from)\n".encode()
        elif scope["method"] not in ("GET", "HEAD"):
            status, kind, body = 405, b"text/plain; charset=utf-8", b"only GET here\n"
        else:
            status, kind, body = 200, observe.CONTENT_TYPE.encode(), observe.scrape()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-cache")]})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})

    async def _refuse(self, send, why: str, content_type: str, path: str = "", peer: str = "",
                      reason: str = "ORIGIN_NOT_ALLOWED"):
        if path.startswith(SERVICE_PREFIX):          # an RPC refused before its handler: logged too
            name = path[len(SERVICE_PREFIX):]
            observe.finished("http", name if name in METHODS else "unknown", "PERMISSION_DENIED",
                             time.perf_counter(), reason=reason, peer=peer)
        info = error_details_pb2.ErrorInfo(reason=reason, domain=errors.DOMAIN,
                                           metadata={"message": why})
        if content_type.startswith("application/grpc"):       # gRPC-Web: the status in headers
            head = [(b"content-type", content_type.encode("latin-1")), (b"grpc-status", b"7"),
                    (b"grpc-message", why.encode("utf-8").replace(b"%", b"%25"))]
            await send({"type": "http.response.start", "status": 200, "headers": head})
            await send({"type": "http.response.body", "body": b""})
            return
        import base64
        body = json.dumps({"code": "permission_denied", "message": why, "details": [{
            "type": "google.rpc.ErrorInfo",
            "value": base64.b64encode(info.SerializeToString()).decode().rstrip("=")}]}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})

    async def _page(self, scope, send, path: str):
        status, kind, body = 404, "text/plain; charset=utf-8", b"not found\n"
        if scope["method"] not in ("GET", "HEAD"):
            status, body = 405, b"only GET here; the RPCs are POST /stich.v1.StichService/<Method>\n"
        elif not self.has_page:
            status = 404 if path not in ("/", "/index.html") else 503
            body = (f"the web page is not built ({self.web_dir}/index.html is missing): {how_to_build_the_page()}, "
                    "then reload. The RPCs are served here anyway: POST /stich.v1.StichService/<Method>\n").encode()
        elif "\0" not in path and len(path) <= MAX_PAGE_PATH:   # else no file has that name: 404
            name = "index.html" if path in ("", "/") else path.lstrip("/")
            try:
                target = (self.web_dir / name).resolve()
                base = self.web_dir.resolve()
                if (target == base or base in target.parents) and target.is_file():
                    status, body = 200, target.read_bytes()
                    kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
                    if kind.startswith("text/") or kind in ("application/javascript",):
                        kind += "; charset=utf-8"
            except (OSError, ValueError):         # a name too long, a component not a directory
                status, kind, body = 404, "text/plain; charset=utf-8", b"not found\n"
        head = [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-cache"), (b"x-content-type-options", b"nosniff"),
                (b"referrer-policy", b"no-referrer")]
        await send({"type": "http.response.start", "status": status, "headers": head})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


# ---- connections: slow clients and file descriptors -----------------------------------------------
def fd_limit() -> int:
    """The soft limit of open file descriptors of this process."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def raise_fd_limit() -> tuple[int, int]:
    """Raise the soft file descriptor limit to the hard one (what a process may do unasked):
    (before, after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            return soft, soft
        return soft, hard
    return soft, soft


class Connections:
    """The HTTP door's open connections, per peer address and in all, within their caps. The
    cap in all stays `fd_reserve` below the file descriptor limit, so that however many
    connections arrive, gRPC, the store and the pools still get descriptors."""

    def __init__(self, config: Config):
        self.per_peer = config.http_max_connections_per_peer
        room = fd_limit() - config.fd_reserve
        self.total = max(1, min(config.http_max_connections, room if room >= 64 else fd_limit() // 2))
        self.header_timeout = config.http_header_timeout
        self.open: collections.Counter = collections.Counter()
        self.count = 0
        self.closing_log = observe.Throttled(log)

    def admit(self, peer: str) -> str | None:
        """Count a new connection of `peer` in, or say why it is refused (a metric label)."""
        if self.count >= self.total:
            return "total"
        if self.open[peer] >= self.per_peer:
            return "per_peer"
        self.count += 1
        self.open[peer] += 1
        observe.HTTP_CONNECTIONS.set(self.count)
        return None

    def leave(self, peer: str) -> None:
        self.count -= 1
        self.open[peer] -= 1
        if not self.open[peer]:
            del self.open[peer]
        observe.HTTP_CONNECTIONS.set(self.count)

    def closed(self, why: str, peer: str) -> None:
        observe.HTTP_CLOSED.labels(why).inc()
        what = {"total": f"over the cap of {self.total} HTTP connections in all (--http-max-connections, "
                         f"--fd-reserve)",
                "per_peer": f"over the cap of {self.per_peer} HTTP connections per peer "
                            f"(--http-max-connections-per-peer)",
                "head_timeout": f"no request head within {self.header_timeout:g} s (--http-header-timeout)"}[why]
        self.closing_log.warn(f"http connection of {peer} closed: {what}")


class _Connection(H11Protocol):
    """uvicorn's HTTP/1.1 connection, admitted by the door's `Connections` (else answered 503
    and closed) and closed when a request's head (the request line and headers) does not
    arrive within the header timeout: at the start, and after each answer on a kept-alive
    connection. A slow body is the handler's to bound (its deadline, the message bound)."""

    guard: Connections              # set on the class each door makes (`connection_class`)

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self.peer = self.client[0] if self.client else ""
        self.admitted = False
        self.head_timer: asyncio.TimerHandle | None = None
        self.head_begun = False
        refused = self.guard.admit(self.peer)
        if refused is not None:
            self.guard.closed(refused, self.peer)
            body = (b"too many connections; retry later\n")
            transport.write(b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
                            b"connection: close\r\nretry-after: 1\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body))
            transport.close()
            return
        self.admitted = True
        self._await_head()

    def _await_head(self) -> None:
        if self.head_timer is None:
            self.head_begun = False
            self.head_timer = self.loop.call_later(self.guard.header_timeout, self._head_late)

    def _head_arrived(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_late(self) -> None:
        self.head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        self.guard.closed("head_timeout", self.peer)
        if self.head_begun and self.conn.our_state is h11.IDLE:
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n")
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.admitted:
            if self.conn.their_state is h11.IDLE:
                self.head_begun = True
            else:
                self._head_arrived()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.admitted and not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._await_head()

    def connection_lost(self, exc) -> None:
        if getattr(self, "admitted", False):
            self.admitted = False
            self.guard.leave(self.peer)
            self._head_arrived()
        super().connection_lost(exc)


def connection_class(connections: Connections) -> type:
    """The protocol class of one door's connections (uvicorn makes one per connection)."""
    return type("Connection", (_Connection,), {"guard": connections})


class _Uvicorn(uvicorn.Server):
    """uvicorn on the caller's loop; the stich server owns the signals."""

    @contextlib.contextmanager
    def capture_signals(self):
        yield


class HttpDoor:
    """Listens (a plain socket bound first, so a busy port is one clear line), serves, stops."""

    def __init__(self, config: Config):
        self.config = config

    def bind(self) -> int:
        host, _, port = self.config.http_address.rpartition(":")
        host = host.strip("[]")
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if self.config.workers > 1:              # every worker of --workers listens here
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        # accepted connections inherit it: no Nagle delay between a response's head and body
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self.sock.bind((host, int(port)))
        except OSError as err:
            self.sock.close()
            raise OSError(err.errno, err.strerror) from None
        self.sock.listen(1024)
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]
        self.address = f"{self.config.http_address.rsplit(':', 1)[0]}:{self.port}"
        return self.port

    async def start(self, servicer: StichServicer) -> None:
        self.decode_pool = ThreadPoolExecutor(2, thread_name_prefix="stich-decode")
        self.app = HttpApp(servicer, self.config, self.decode_pool)
        self.connections = Connections(self.config)
        if self.connections.total < self.config.http_max_connections:
            log.info("http door: at most %d connections (file descriptor limit %d less --fd-reserve %d)",
                     self.connections.total, fd_limit(), self.config.fd_reserve)
        cfg = uvicorn.Config(self.app, lifespan="off", log_level="warning", access_log=False,
                             timeout_graceful_shutdown=max(1, int(self.config.grace)), loop="none",
                             http=connection_class(self.connections), ws="none",
                             # asyncio accepts up to `backlog` connections in one turn of the loop
                             # before any is admitted (or refused and closed): fewer than the
                             # descriptors --fd-reserve keeps, so a burst cannot take them all
                             backlog=max(16, min(1024, self.config.fd_reserve // 2)))
        self.server = _Uvicorn(cfg)
        self.task = asyncio.ensure_future(self.server.serve(sockets=[self.sock]))
        while not self.server.started and not self.task.done():
            await asyncio.sleep(0.005)
        if self.task.done():
            self.task.result()

    async def stop(self) -> None:
        self.server.should_exit = True
        try:
            await asyncio.wait_for(self.task, self.config.grace + 2)
        except asyncio.TimeoutError:
            self.server.force_exit = True
            self.task.cancel()
        self.decode_pool.shutdown(wait=False, cancel_futures=True)


def web_dir_note(app: HttpApp) -> str:
    """The banner's word on the page: nothing if it is built, else how to build it."""
    return "" if app.has_page else f"; not built: {how_to_build_the_page()}"

