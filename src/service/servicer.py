"""The stich.v1.StichService servicer: it only converts between messages and the table
manager / engine, and maps every error in one place (`errors.to_status`)."""
from __future__ import annotations

import functools
import logging
import threading

import grpc

from engine_core import games

from . import convert, errors
from .gen.stich.v1 import (stich_service_pb2 as pb, stich_service_pb2_grpc as pb_grpc,
                           tables_pb2)
from .evaluate import answer_text as evaluate_answer
from .simulate import MAX_DEALS, simulate
from .tables import TableManager

log = logging.getLogger("stich.service")
WATCH_POLL_SECONDS = 0.5


def _fail(context, method, err: Exception):
    """Abort the call with the error's rich status (handlers never abort by themselves)."""
    if errors.classify(err)[0] == grpc.StatusCode.INTERNAL:
        log.error("internal error in %s", method.__name__, exc_info=err)
    context.abort_with_status(errors.to_status(err))


def _unary(method):
    """Run a unary handler; any error becomes its rich status (the table is unchanged)."""
    @functools.wraps(method)
    def wrapper(self, request, context):
        try:
            return method(self, request, context)
        except Exception as err:  # noqa: BLE001 - every error is mapped, unknown ones to INTERNAL
            _fail(context, method, err)
    return wrapper


def _streaming(method):
    """The same for a handler that yields its responses."""
    @functools.wraps(method)
    def wrapper(self, request, context):
        try:
            yield from method(self, request, context)
        except Exception as err:  # noqa: BLE001
            _fail(context, method, err)
    return wrapper


def _options(request) -> dict:
    return convert.from_struct(request.options) if request.HasField("options") else {}


def _expected(request) -> int | None:
    return request.expected_version if request.HasField("expected_version") else None


class StichServicer(pb_grpc.StichServiceServicer):
    def __init__(self, manager: TableManager, max_watchers: int = 48):
        self.manager = manager
        self._watch_slots = threading.BoundedSemaphore(max_watchers)

    # ---- games ------------------------------------------------------------------------------
    @_unary
    def ListGames(self, request, context):
        out = pb.ListGamesResponse()
        for name in games.available():
            rules = games.rules_of(name)
            info = out.games.add(name=name, seats=rules.SEATS, hand_size=rules.HAND_SIZE,
                                 blind_size=rules.BLIND_SIZE)
            for spec in rules.OPTIONS:
                s = spec.schema()
                opt = info.options.add(name=s["name"], type=s["type"], description=s["description"],
                                       status=s["status"], default_value=convert.value(s["default"]))
                opt.allowed.extend(convert.value(v) for v in s.get("allowed", []))
                if s.get("minimum") is not None:
                    opt.minimum = s["minimum"]
        return out

    # ---- tables -------------------------------------------------------------------------------
    @_unary
    def CreateTable(self, request, context):
        seats = []
        for i, kind in enumerate(request.seats):
            if kind == tables_pb2.SEAT_KIND_UNSPECIFIED:
                raise errors.invalid(f"seats[{i}]", "must be SEAT_KIND_HUMAN or SEAT_KIND_BOT")
            seats.append("human" if kind == tables_pb2.SEAT_KIND_HUMAN else "bot")
        which = request.WhichOneof("deals")
        table, tokens, spectator = self.manager.create(
            request.game, _options(request), request.deals_per_match, seats,
            seed=request.seed if which == "seed" else None,
            daily_date=request.daily_date if which == "daily_date" else None)
        with table.cond:
            view = convert.view_msg(table.view(None))
        return pb.CreateTableResponse(
            table_id=table.id, spectator_id=spectator, view=view,
            seat_tokens=[tables_pb2.SeatToken(seat=s, token=t) for s, t in sorted(tokens.items())])

    @_unary
    def Deal(self, request, context):
        table, seat = self.manager.deal(request.table_id, request.token, _expected(request))
        return pb.DealResponse(view=self._view(table, seat))

    @_unary
    def GetView(self, request, context):
        table = self.manager.get(request.table_id)
        with table.cond:
            seat = table.viewer(request.token)
            return pb.GetViewResponse(view=convert.view_msg(table.view(seat)))

    def _view(self, table, seat):
        with table.cond:
            return convert.view_msg(table.view(seat))

    def _act(self, request, kind: str, fields: dict):
        table, seat = self.manager.act(request.table_id, request.token, kind, fields, _expected(request))
        return self._view(table, seat)

    @_unary
    def Bid(self, request, context):
        return pb.BidResponse(view=self._act(request, "bid", {"call": request.call, "suit": request.suit}))

    @_unary
    def Exchange(self, request, context):
        return pb.ExchangeResponse(view=self._act(
            request, "exchange", {"call": request.call, "cards": list(request.cards)}))

    @_unary
    def Announce(self, request, context):
        return pb.AnnounceResponse(view=self._act(request, "announce", {"call": request.call}))

    @_unary
    def Play(self, request, context):
        return pb.PlayResponse(view=self._act(request, "play", {"card": request.card}))

    @_unary
    def Score(self, request, context):
        table, deal = self.manager.score(request.table_id, request.token, request.deal_number)
        with table.cond:
            finished = table.finished_deals()
            return pb.ScoreResponse(
                deal_number=deal.number, result=convert.result_msg(deal.state.result()),
                match_scores=table.match_scores, deals_finished=finished,
                deals_per_match=table.deals_per_match,
                match_over=table.status() == "match_over")

    @_streaming
    def WatchTable(self, request, context):
        table = self.manager.get(request.table_id)
        with table.cond:
            seat = table.viewer(request.token)
        if request.from_version < 0:
            raise errors.invalid("from_version", f"must be at least 0, got {request.from_version}")
        version = request.from_version
        # each open watch holds a worker thread: keep some for everything else
        if not self._watch_slots.acquire(blocking=False):
            raise errors.ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_WATCHERS",
                                      "too many open WatchTable streams on this server; retry later")
        try:
            while context.is_active() and not self.manager.closing:
                events, done = self.manager.events_after(table, seat, version, WATCH_POLL_SECONDS)
                for e in events:
                    yield pb.WatchTableResponse(event=convert.event_msg(e))
                    version = e["version"]
                if done:
                    return
        finally:
            self._watch_slots.release()

    # ---- batch ------------------------------------------------------------------------------------
    @_streaming
    def EvaluateRecords(self, request_iterator, context):
        number = 0
        for request in request_iterator:
            out = pb.EvaluateRecordsResponse()
            for line in request.lines:
                number += 1
                self._answer(line, number, request.with_legal, out.answers.add())
            yield out

    @staticmethod
    def _answer(line: str, number: int, with_legal: bool, out=None):
        """One answer: the CLI's JSON line, and the same typed; filled into `out` (an empty
        RecordAnswer, e.g. just added to the response: no copy) or a new one."""
        text, answer = evaluate_answer(line, number, with_legal)
        if out is None:
            out = pb.RecordAnswer()
        out.id.CopyFrom(convert.value(answer["id"]))
        out.json = text
        if "result" in answer:
            out.result.SetInParent()
            convert.result_msg(answer["result"], out.result)
        else:
            err = answer["error"]
            out.error.SetInParent()
            out.error.reason = err["reason"]
            if err["index"] is not None:
                out.error.index = err["index"]
        if with_legal:
            add = out.legal.add
            for legal in answer.get("legal", []):
                add().actions.extend([convert.action_msg(a) for a in legal])
        return out

    @_unary
    def Simulate(self, request, context):
        if not 1 <= request.deals <= MAX_DEALS:
            raise errors.invalid("deals", f"must be 1..{MAX_DEALS}, got {request.deals}")
        stats = simulate(request.game, _options(request), request.deals, request.seed,
                         cancelled=lambda: not context.is_active())
        return pb.SimulateResponse(**stats)

