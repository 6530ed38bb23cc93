"""The gRPC door: stich.v1.StichService over the table manager and the batch work. It only
converts (request fields to the manager's arguments, the engine's dicts to messages); every call
runs in the envelope both doors share (envelope.py: request check, error mapping, log line and
metrics); the engine judges every action.

Requests are parsed by our own deserializers, so a message that is not valid protobuf is
INVALID_ARGUMENT (MALFORMED_REQUEST), never INTERNAL. Per-peer limits on open streams are
checked here (`Streams`), before any work.
"""
from __future__ import annotations

import asyncio
import collections
import logging
import time
from contextlib import contextmanager

import grpc

from engine_core import games

from stich_client.gen.stich.v1 import stich_service_pb2 as pb, tables_pb2

from . import convert, envelope, errors, observe
from .config import Config
from .manager import TableManager
from .simulate import MAX_DEALS
from .work import Work

log = logging.getLogger("stich.service")
SERVICE = "stich.v1.StichService"
_KINDS = {v: k for k, v in convert.SEAT_KINDS.items()}
ANALYZE_BUDGET = 5_000_000
DEFAULT_ANALYZE_BUDGET = 1_000_000


# ---- request values ----------------------------------------------------------------------------
options_of = convert.options_of         # bounded before it converts (OPTIONS_TOO_LARGE)


def _expected(request) -> int | None:
    return request.expected_version if request.HasField("expected_version") else None


class Streams:
    """Open streams per peer address (all kinds, and per kind) and in all."""

    def __init__(self, config: Config):
        self.per_peer = config.max_streams_per_peer
        self.per_kind = {"evaluate": config.max_evaluate_streams_per_peer}
        self.total_limit = config.max_streams
        self.total = 0
        self.open: collections.Counter = collections.Counter()

    @contextmanager
    def slot(self, peer: str, kind: str):
        limit = self.per_kind.get(kind)
        if self.total >= self.total_limit:
            raise errors.exhausted("TOO_MANY_STREAMS", f"the server has {self.total} open streams; retry later")
        if self.open[peer] >= self.per_peer:
            raise errors.exhausted("TOO_MANY_STREAMS",
                                   f"at most {self.per_peer} open streams per peer; close one first")
        if limit is not None and self.open[(peer, kind)] >= limit:
            raise errors.exhausted("TOO_MANY_STREAMS",
                                   f"at most {limit} open {kind} streams per peer; close one first")
        self.total += 1
        self.open[peer] += 1
        self.open[(peer, kind)] += 1
        try:
            yield
        finally:
            self.total -= 1
            for key in (peer, (peer, kind)):
                self.open[key] -= 1
                if not self.open[key]:
                    del self.open[key]


class StichServicer:
    """The methods of stich.v1.StichService (`handler()` registers them)."""

    def __init__(self, manager: TableManager, work: Work, config: Config):
        self.manager = manager
        self.work = work
        self.config = config
        self.streams = Streams(config)
        observe.watch_manager(manager)          # its in-memory tables: stich_open_tables

    # ---- games ------------------------------------------------------------------------------
    async def ListGames(self, request, context):
        out = pb.ListGamesResponse()
        for name in games.available():
            try:
                spec = games.spec_of(name)
            except ImportError as err:          # registered but not in this build
                log.warning("game %s is not available: %s", name, err)
                continue
            info = out.games.add(name=name, seats=spec.seats, hand_size=spec.hand_size,
                                 blind_size=spec.blind_size)
            info.words.update(spec.words)
            for preset, options in spec.presets.items():
                info.presets.add(name=preset).options.update(options)
            for option in spec.options:
                s = option.schema()
                opt = info.options.add(name=s["name"], type=s["type"], description=s["description"],
                                       status=s["status"], default_value=convert.value(s["default"]))
                opt.allowed.extend(convert.value(v) for v in s.get("allowed", []))
                _set_present(opt, s, "minimum", "maximum")
        return out

    # ---- tables -------------------------------------------------------------------------------
    async def CreateTable(self, request, context):
        seats = []
        for i, kind in enumerate(request.seats):
            if kind not in _KINDS:
                raise convert.bad_seat_kind(f"seats[{i}]", kind)
            seats.append(_KINDS[kind])
        which = request.WhichOneof("deals")
        settings = {"bot_delay_ms": request.settings.bot_delay_ms,
                    "hints_disabled": request.settings.hints_disabled}
        view, tokens, spectator, invites = await self.manager.create(
            request.game, options_of(request), request.deals_per_match, seats,
            seed=request.seed if which == "seed" else None,
            daily_date=request.daily_date if which == "daily_date" else None, settings=settings)
        out = pb.CreateTableResponse(table_id=view["table_id"], spectator_id=spectator,
                                     spectator_link=f"/#watch={spectator}")
        out.seat_tokens.extend(tables_pb2.SeatToken(seat=s, token=t) for s, t in sorted(tokens.items()))
        out.invites.extend(tables_pb2.SeatInvite(seat=s, code=c, link=f"/#join={c}")
                           for s, c in sorted(invites.items()))
        return _with_view(out, view)

    async def JoinTable(self, request, context):
        view, token = await self.manager.join(request.invite)
        return _with_view(pb.JoinTableResponse(table_id=view["table_id"], seat=view["seat"], token=token), view)

    async def Hint(self, request, context):
        h = await self.manager.hint(request.table_id, request.token, envelope.peer_of(context))
        out = pb.HintResponse(version=h["version"], seat=h["seat"])
        for item in h["hints"]:
            _set_present(out.hints.add(action=convert.action_msg(item["action"])), item, "expected", "win")
        return out

    async def Analyze(self, request, context):
        seat = request.seat if request.HasField("seat") else None
        if request.fair and seat is None:
            raise errors.invalid("seat", "fair analysis needs the seat whose decisions it judges")
        if not 0 <= request.budget <= ANALYZE_BUDGET:
            raise errors.invalid("budget", f"must be 0 (none) .. {ANALYZE_BUDGET} nodes, got {request.budget}")
        remaining = getattr(context, "time_remaining", lambda: None)()
        text = await self.work.analysis.run(
            envelope.peer_of(context), analyze_json, request.record, seat, request.fair,
            request.budget or DEFAULT_ANALYZE_BUDGET,
            deadline=None if remaining is None else time.monotonic() + remaining)
        return pb.AnalyzeResponse(json=text)

    async def GetDailyDeal(self, request, context):
        date, table_id, token, view, player_token = await self.manager.daily(
            request.game, request.player_token, envelope.peer_of(context))
        return _with_view(pb.GetDailyDealResponse(date=date, table_id=table_id, seat=view["seat"], token=token,
                                                  player_token=player_token), view)

    async def SubmitDaily(self, request, context):
        entry, rank = await self.manager.submit_daily(request.table_id, request.token, request.nickname,
                                                      request.player_token)
        return pb.SubmitDailyResponse(entry=pb.LeaderboardEntry(**entry), rank=rank)

    async def GetLeaderboard(self, request, context):
        board = await self.manager.leaderboard(request.game, request.date, request.limit)
        return pb.GetLeaderboardResponse(game=board["game"], date=board["date"], total=board["total"],
                                         entries=[pb.LeaderboardEntry(**e) for e in board["entries"]])

    async def Deal(self, request, context):
        view = await self.manager.deal(request.table_id, request.token, _expected(request), request.request_id)
        return _with_view(pb.DealResponse(), view)

    async def GetView(self, request, context):
        view = await self.manager.view(request.table_id, request.token)
        return _with_view(pb.GetViewResponse(), view)

    async def _act(self, request, kind: str, fields: dict, response):
        view = await self.manager.act(request.table_id, request.token, kind, fields, _expected(request),
                                      request.request_id)
        return _with_view(response, view)

    async def Bid(self, request, context):
        fields = {"call": request.call}
        if request.suit:
            fields["suit"] = request.suit
        return await self._act(request, "bid", fields, pb.BidResponse())

    async def Exchange(self, request, context):
        return await self._act(request, "exchange", {"call": request.call, "cards": list(request.cards)},
                               pb.ExchangeResponse())

    async def Announce(self, request, context):
        return await self._act(request, "announce", {"call": request.call}, pb.AnnounceResponse())

    async def Play(self, request, context):
        return await self._act(request, "play", {"card": request.card}, pb.PlayResponse())

    async def Score(self, request, context):
        s = await self.manager.score(request.table_id, request.token, request.deal_number)
        out = pb.ScoreResponse(deal_number=s["deal_number"], match_scores=s["match_scores"],
                               deals_finished=s["deals_finished"], deals_per_match=s["deals_per_match"],
                               match_over=s["match_over"], match_target=s["match_target"])
        convert.result_msg(s["result"], out.result)
        return out

    async def WatchTable(self, request, context):
        """The table's events; the stream ends OK when the match is over and every event is
        sent, UNAVAILABLE (SHUTTING_DOWN) when the server stops first: watch again from the
        last version received, here once it is back or at another server."""
        with self.streams.slot(envelope.peer_of(context), "watch"):
            events = await self.manager.watch(request.table_id, request.token, request.from_version)
            async for event in events:
                yield pb.WatchTableResponse(event=convert.event_msg(event))
            if self.manager.closing:
                raise errors.unavailable("SHUTTING_DOWN", "the server is shutting down: watch again from "
                                         "the last version you received")

    # ---- batch ----------------------------------------------------------------------------------
    async def EvaluateRecords(self, request_iterator, context):
        """Answers in order; a request's answers in one response or several consecutive ones of
        about `response_bytes`. A reader task takes the requests as they come and hands their
        slices to the workers, at most `evaluate_window` slices ahead of what has been sent (so
        consecutive small messages are evaluated in parallel too, and memory stays bounded)."""
        cfg = self.config
        step = cfg.evaluate_slice_lines
        with self.streams.slot(envelope.peer_of(context), "evaluate"):
            queue: asyncio.Queue = asyncio.Queue(maxsize=self.work.evaluate_window)
            END_OF_REQUEST, END_OF_STREAM = object(), object()

            async def reader():
                number = 0
                try:
                    async for request in request_iterator:
                        request = await envelope.read(request)
                        lines = list(request.lines)
                        for i in range(0, len(lines), step):
                            await queue.put(asyncio.ensure_future(
                                self.work.evaluate(lines[i:i + step], number + 1 + i, request.with_legal)))
                        number += len(lines)
                        await queue.put(END_OF_REQUEST)
                    await queue.put(END_OF_STREAM)
                except Exception as err:  # noqa: BLE001 - handed to the writer, which raises it
                    await queue.put(err)

            task = asyncio.ensure_future(reader())
            buffer: list[bytes] = []
            size = 0
            try:
                while True:
                    item = await queue.get()
                    if item is END_OF_STREAM:
                        return
                    if item is END_OF_REQUEST:
                        yield b"".join(buffer)
                        buffer, size = [], 0
                        continue
                    if isinstance(item, Exception):
                        raise item
                    for a in await item:
                        if size and size + len(a) > cfg.response_bytes:
                            yield b"".join(buffer)
                            buffer, size = [], 0
                        buffer.append(a)
                        size += len(a)
            finally:
                task.cancel()
                while not queue.empty():
                    item = queue.get_nowait()
                    if isinstance(item, asyncio.Future):
                        item.cancel()

    async def EvaluateBatch(self, request, context):
        """EvaluateRecords in one unary call (a browser's fetch cannot stream a request): the
        same slices on the same workers, answers in order, one per line. Counted as an open
        evaluate stream of its peer while it runs, and bounded in lines: a batch over the bound
        is refused whole, before any work, saying the bound."""
        limit = self.config.evaluate_batch_lines
        lines = list(request.lines)
        if len(lines) > limit:
            raise errors.invalid("lines", f"{len(lines)} lines in one EvaluateBatch; at most {limit} "
                                 "(split them into several calls, or stream them with EvaluateRecords)",
                                 reason="BATCH_TOO_LARGE")
        if request.first_number < 0:
            raise errors.invalid("first_number", f"must be 0 or more (the first line's position), got {request.first_number}")
        first = max(1, request.first_number)
        step = self.config.evaluate_slice_lines
        with self.streams.slot(envelope.peer_of(context), "evaluate"):
            slices = [asyncio.ensure_future(self.work.evaluate(lines[i:i + step], first + i, request.with_legal))
                      for i in range(0, len(lines), step)]
            try:
                # the framed `answers` fields: the serialized EvaluateBatchResponse itself
                return b"".join(a for answers in await asyncio.gather(*slices) for a in answers)
            finally:
                for s in slices:
                    s.cancel()

    async def Simulate(self, request, context):
        if not 1 <= request.deals <= MAX_DEALS:
            raise errors.invalid("deals", f"must be 1..{MAX_DEALS}, got {request.deals}")
        if not request.game:
            raise errors.invalid("game", f"missing; games are {', '.join(games.available())}")
        stats = await self.work.simulate(request.game, options_of(request), request.deals, request.seed)
        return pb.SimulateResponse(**stats)

    # ---- registration -----------------------------------------------------------------------------
    def handler(self) -> grpc.GenericRpcHandler:
        """Every method in the call envelope of the gRPC door (envelope.py)."""
        door = envelope.Door()
        methods = {name: grpc.unary_unary_rpc_method_handler(
                       envelope.unary(door, name, getattr(self, name)),
                       request_deserializer=envelope.parser(getattr(pb, name + "Request")),
                       response_serializer=_serialize)
                   for name in ("ListGames", "CreateTable", "JoinTable", "Deal", "GetView", "Bid",
                                "Exchange", "Announce", "Play", "Score", "Simulate", "Hint", "Analyze", "EvaluateBatch",
                                "GetDailyDeal", "SubmitDaily", "GetLeaderboard")}
        methods["WatchTable"] = grpc.unary_stream_rpc_method_handler(
            envelope.streaming(door, "WatchTable", self.WatchTable, watch=True),
            request_deserializer=envelope.parser(pb.WatchTableRequest), response_serializer=_serialize)
        methods["EvaluateRecords"] = grpc.stream_stream_rpc_method_handler(
            envelope.streaming(door, "EvaluateRecords", self.EvaluateRecords),
            request_deserializer=envelope.parser(pb.EvaluateRecordsRequest), response_serializer=_serialize)
        return grpc.method_handlers_generic_handler(SERVICE, methods)


def analyze_json(text: str, seat: int | None, fair: bool, budget: int | None, stop=None) -> str:
    """The analysis of a record given as JSON text (engine_core.analysis), as JSON text; it
    stops between searches once `stop()` is true (its caller left, its deadline passed)."""
    import orjson

    from engine_core import analysis
    try:
        record = orjson.loads(text)
    except orjson.JSONDecodeError as err:
        raise errors.invalid("record", f"is not JSON: {errors.cut(str(err), 80)}", reason="MALFORMED_JSON") from None
    if not isinstance(record, dict):
        raise errors.invalid("record", "must be a JSON object (a records.md record)", reason="MALFORMED_RECORD")
    kwargs: dict = {"budget": budget, "stop": stop}
    if fair:
        kwargs.update(seat=seat, fair=True)
    elif seat is not None:
        kwargs["objective"] = {"seat": seat}
    try:
        out = analysis.analyze(record, **kwargs)
    except analysis.Stopped:
        raise errors.deadline_passed("the analysis was stopped: its deadline passed or its caller left") from None
    except (KeyError, TypeError) as err:
        raise errors.invalid("record", f"is not a records.md record: {type(err).__name__}: "
                             f"{errors.cut(str(err), 80)}", reason="MALFORMED_RECORD") from None
    return orjson.dumps(out).decode()


def _set_present(message, values: dict, *names: str) -> None:
    """Set the optional fields `names` of `message` that `values` has (not None)."""
    for name in names:
        if values.get(name) is not None:
            setattr(message, name, values[name])


def _with_view(response, view: dict):
    """`response` with its `view` built in place (`Response(view=msg)` would copy the message)."""
    convert.view_msg(view, response.view)
    return response


def _serialize(message) -> bytes:
    return message if isinstance(message, bytes) else message.SerializeToString()
