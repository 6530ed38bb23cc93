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
handler runs.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import pathlib
import socket
import time

import uvicorn
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from google.rpc import error_details_pb2
from protobuf.wkt import Any as AnyDetail

from stich_client.gen.stich.v1 import stich_service_pb2 as pb
from stich_client.gen.stich.v1.stich_service_connect import StichServiceASGIApplication

from . import envelope, errors, observe
from .config import Config
from .servicer import StichServicer

log = logging.getLogger("stich.service")
ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
DEFAULT_WEB_DIR = ROOT / "clients" / "web" / "dist"
SERVICE_PREFIX = "/stich.v1.StichService/"
METRICS_PATH = "/metrics"
METHODS = frozenset(m.name for m in pb.DESCRIPTOR.services_by_name["StichService"].methods)
EXPOSED = ("grpc-status, grpc-message, grpc-status-details-bin, connect-protocol-version, "
           "connect-timeout-ms, content-encoding, connect-content-encoding")
_INFO_URL = "type.googleapis.com/google.rpc.ErrorInfo"


def connect_error(err: BaseException) -> ConnectError:
    """The Connect form of any handler error: same code, message and ErrorInfo as gRPC's."""
    code, message, info = errors.error_info(err)
    detail = ErrorDetail(AnyDetail(type_url=_INFO_URL, value=info.SerializeToString()))
    return ConnectError(Code[code.name], message, details=[detail])


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

    @staticmethod
    def _missing(name: str):
        async def call(request, ctx):
            raise ConnectError(Code.UNIMPLEMENTED, f"{name} is not implemented by this server")
        return call

    async def _evaluate_records(self, requests, context):
        async for chunk in self.servicer.EvaluateRecords(requests, context):
            # the gRPC door sends pre-encoded answers; Connect's codecs want a message
            yield pb.EvaluateRecordsResponse.FromString(chunk) if isinstance(chunk, bytes) else chunk


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


class HttpApp:
    """The ASGI application of the HTTP door: CORS, the RPCs, the page."""

    def __init__(self, servicer: StichServicer, config: Config):
        self.rpc = StichServiceASGIApplication(ConnectService(servicer), read_max_bytes=config.max_message_bytes)
        self.origins = Origins(config.allowed_origins)
        self.web_dir = pathlib.Path(config.web_dir) if config.web_dir else DEFAULT_WEB_DIR

    @property
    def has_page(self) -> bool:
        return (self.web_dir / "index.html").is_file()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        origin = headers.get("origin")
        refused = self.origins.check(origin, headers.get("host"))
        path = scope["path"]
        if refused:
            client = scope.get("client")
            await self._refuse(send, refused, headers.get("content-type", ""), path,
                               ("ipv6:" if client and ":" in client[0] else "ipv4:") + client[0] if client else "")
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
        """The Prometheus metrics (observe.py; docs/operations.md lists them)."""
        if scope["method"] not in ("GET", "HEAD"):
            status, kind, body = 405, b"text/plain; charset=utf-8", b"only GET here\n"
        else:
            status, kind, body = 200, observe.CONTENT_TYPE.encode(), observe.scrape()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-cache")]})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})

    async def _refuse(self, send, why: str, content_type: str, path: str = "", peer: str = ""):
        if path.startswith(SERVICE_PREFIX):          # an RPC refused before its handler: logged too
            name = path[len(SERVICE_PREFIX):]
            observe.finished("http", name if name in METHODS else "unknown", "PERMISSION_DENIED",
                             time.perf_counter(), reason="ORIGIN_NOT_ALLOWED", peer=peer)
        info = error_details_pb2.ErrorInfo(reason="ORIGIN_NOT_ALLOWED", domain=errors.DOMAIN,
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
            body = (f"the web page is not built ({self.web_dir}/index.html is missing): run `make web` "
                    "(needs Node.js 18+ and npm), then reload. The RPCs are served here anyway: "
                    "POST /stich.v1.StichService/<Method>\n").encode()
        else:
            name = "index.html" if path in ("", "/") else path.lstrip("/")
            target = (self.web_dir / name).resolve()
            base = self.web_dir.resolve()
            if (target == base or base in target.parents) and target.is_file():
                status, body = 200, target.read_bytes()
                kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
                if kind.startswith("text/") or kind in ("application/javascript",):
                    kind += "; charset=utf-8"
        head = [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-cache"), (b"x-content-type-options", b"nosniff"),
                (b"referrer-policy", b"no-referrer")]
        await send({"type": "http.response.start", "status": status, "headers": head})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


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
        self.app = HttpApp(servicer, self.config)
        cfg = uvicorn.Config(self.app, lifespan="off", log_level="warning", access_log=False,
                             timeout_graceful_shutdown=max(1, int(self.config.grace)), loop="none",
                             http="h11", ws="none")
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


def web_dir_note(app: HttpApp) -> str:
    """The banner's word on the page: nothing if it is built, else how to build it."""
    return ("" if app.has_page else
            f"; not built yet: `make web` builds it, which needs Node.js 18+ and npm")

