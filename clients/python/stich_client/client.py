"""A typed wrapper of the stich.v1 StichService, blocking (`StichClient`) and asyncio
(`AsyncStichClient`, aio.py), both over the same calls (`Calls`).

Every call has a deadline (`timeout`, 10 s by default). Every action and every `deal` carries a
fresh `request_id` (AIP-155). Retries are gRPC's own: the channel's service config gives the
idempotent methods (`IDEMPOTENT`: the reads, and the actions and `Deal`, whose request id makes a
retry safe) a retry policy, so a call that got no answer (UNAVAILABLE: a server restarting, a
connection dropped) is sent again by the channel, `retries` times at most, with backoff; the
server answers a retried action with its original answer and never applies it twice. Other
calls (CreateTable, JoinTable, SubmitDaily, GetDailyDeal, Analyze, Simulate) are never retried.
A refused call raises the client's exception types (errors.py). Views, events and results come
back as the plain dicts of records.md."""
from __future__ import annotations

import functools
import json
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Concatenate, Generator, Iterable, Iterator, ParamSpec, TypedDict, TypeVar

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from . import convert
from .errors import from_rpc_error
from .gen.stich.v1 import stich_service_pb2 as pb, stich_service_pb2_grpc as pb_grpc, tables_pb2

DEFAULT_TARGET = "127.0.0.1:50051"
MAX_MESSAGE = 64 * 1024 * 1024           # answers with legal actions can be large
SERVICE = "stich.v1.StichService"
# Calls the channel may send again after UNAVAILABLE: reads, and the actions and Deal, which
# carry a request id (the server answers a repeat with the first answer). GetDailyDeal is not
# here: without a player token a repeat would issue a second identity.
IDEMPOTENT = ("ListGames", "GetView", "Score", "Hint", "GetLeaderboard", "EvaluateBatch",
              "Deal", "Bid", "Exchange", "Announce", "Play")
_SEAT_KINDS = {"human": tables_pb2.SEAT_KIND_HUMAN, "open": tables_pb2.SEAT_KIND_OPEN,
               "bot": tables_pb2.SEAT_KIND_BOT, "bot:easy": tables_pb2.SEAT_KIND_BOT_EASY,
               "bot:normal": tables_pb2.SEAT_KIND_BOT_NORMAL, "bot:hard": tables_pb2.SEAT_KIND_BOT_HARD}


def service_config(retries: int) -> str:
    """The channel's service config: gRPC's retry policy for the idempotent methods (and the
    health check), `retries` repeats after the first attempt (gRPC allows 4 at most); none
    with 0. Backoff 0.1 s doubling to 2 s (randomised by gRPC)."""
    if retries <= 0:
        return json.dumps({"methodConfig": []})
    names = [{"service": SERVICE, "method": m} for m in IDEMPOTENT]
    names.append({"service": "grpc.health.v1.Health", "method": "Check"})
    return json.dumps({"methodConfig": [{"name": names, "retryPolicy": {
        "maxAttempts": 1 + min(retries, 4), "initialBackoff": "0.1s", "maxBackoff": "2s",
        "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]})


def channel_options(retries: int) -> list[tuple[str, Any]]:
    """The options of a channel of either client: message sizes, the retry policy, and a
    reconnection that tries again within 2 s (not gRPC's default of up to 2 minutes), so that
    a retry after a restart finds the server back."""
    return [("grpc.max_receive_message_length", MAX_MESSAGE),
            ("grpc.max_send_message_length", MAX_MESSAGE),
            ("grpc.enable_retries", 1), ("grpc.service_config", service_config(retries)),
            ("grpc.initial_reconnect_backoff_ms", 100), ("grpc.max_reconnect_backoff_ms", 2000)]


CHANNEL_OPTIONS = channel_options(3)


class Action(TypedDict, total=False):
    """A records.md action: seat, type and the fields of its type."""
    seat: int
    type: str
    call: str
    suit: str
    card: str
    cards: list[str]


class View(TypedDict):
    """What one seat (seat None: a spectator) may see of a table (TableView)."""
    table_id: str
    version: int
    game: str
    seat: int | None
    seats: list[str]                 # "human" | "open" | "bot:easy" | "bot:normal" | "bot:hard"
    status: str                      # "waiting_for_deal" | "in_deal" | "match_over"
    deal_number: int
    deals_per_match: int
    match_target: int                # the score that ends the match; 0: deals_per_match deals
    deals_counted: int
    dealer: int | None
    phase: str
    to_act: int | None
    hand: list[str]                  # trumps first
    legal: list[Action]              # only in the acting seat's own view
    actions: list[Action]
    trick: dict | None               # {"leader", "cards"}
    tricks: list[list]               # [leader, cards, winner]
    contract: dict | None
    public: dict
    result: dict | None              # records.md Result once the deal is over
    match_scores: list[int]
    options: dict
    settings: dict                   # {"bot_delay_ms", "hints_disabled"}


class Event(TypedDict):
    """One versioned table event as the viewer may see it."""
    version: int
    kind: str                        # "table_created" | "seat_joined" | "deal_started" | "action"
    deal_number: int
    dealer: int | None
    action: Action | None
    phase: str
    to_act: int | None
    result: dict | None
    match_scores: list[int]
    status: str
    seat: int | None                 # the seat a "seat_joined" event claimed


class Score(TypedDict):
    deal_number: int
    result: dict
    match_scores: list[int]
    deals_finished: int
    deals_per_match: int
    match_over: bool
    match_target: int                # the score that ends the match; 0: deals_per_match deals


@dataclass
class TableHandle:
    """What CreateTable returns: the table id, each human seat's token, the spectator id."""

    table_id: str
    tokens: dict[int, str]
    spectator_id: str
    view: View
    invites: dict[int, str] = None   # type: ignore[assignment]  # open seat -> invite code
    spectator_link: str = ""


def _settled(v: dict, seat: int | None) -> bool:
    return v["to_act"] is None or v["to_act"] == seat


def _entry(e) -> dict:
    return {"rank": e.rank, "nickname": e.nickname, "score": e.score, "submitted_at": e.submitted_at}


def new_request_id() -> str:
    return str(uuid.uuid4())


# One unary RPC as a call describes it: (method name, request, timeout or None for the default).
Step = tuple[str, Any, "float | None"]
T = TypeVar("T")
P = ParamSpec("P")
Op = Generator[Step, Any, T]           # a call: yields its RPCs, is sent their answers, returns T


class Calls:
    """Every unary call of the service once: a generator that builds its request from the
    arguments, yields the RPC (a Step) and returns the answer converted. Each client runs them
    in its own way: `StichClient` blocking (`blocking`), `AsyncStichClient` awaited (aio.py)."""

    # ---- games and tables ---------------------------------------------------------------------
    def list_games(self) -> Op[list[dict]]:
        out = []
        for g in (yield "ListGames", pb.ListGamesRequest(), None).games:
            options = []
            for o in g.options:
                opt = {"name": o.name, "type": o.type, "default": convert.from_value(o.default_value),
                       "description": o.description, "status": o.status}
                if o.allowed:
                    opt["allowed"] = [convert.from_value(v) for v in o.allowed]
                if o.HasField("minimum"):
                    opt["minimum"] = o.minimum
                if o.HasField("maximum"):
                    opt["maximum"] = o.maximum
                options.append(opt)
            out.append({"name": g.name, "seats": g.seats, "hand_size": g.hand_size,
                        "blind_size": g.blind_size, "options": options,
                        "words": convert.from_struct(g.words),
                        "presets": {p.name: convert.from_struct(p.options) for p in g.presets}})
        return out

    def create_table(self, game: str, options: dict | None = None, deals_per_match: int = 0,
                     seats: Iterable[str] | None = None, seed: int | None = None,
                     daily_date: str | None = None, bot_delay_ms: int = 0,
                     hints_disabled: bool = False) -> Op[TableHandle]:
        """`seats`: "human", "open" (a friend joins with the invite), "bot" (= "bot:normal"),
        "bot:easy", "bot:normal" or "bot:hard" per seat (default every seat human)."""
        request = pb.CreateTableRequest(game=game, deals_per_match=deals_per_match,
                                        seats=[_SEAT_KINDS[s] for s in seats or ()])
        request.settings.bot_delay_ms = bot_delay_ms
        request.settings.hints_disabled = hints_disabled
        if options:
            request.options.update(options)
        if seed is not None:
            request.seed = seed
        if daily_date is not None:
            request.daily_date = daily_date
        r = yield "CreateTable", request, None
        return TableHandle(r.table_id, {t.seat: t.token for t in r.seat_tokens}, r.spectator_id,
                           convert.view_dict(r.view), {i.seat: i.code for i in r.invites}, r.spectator_link)

    def join_table(self, invite: str) -> Op[tuple[int, str, View]]:
        """Claim an open seat with its invite code (or link): (seat, token, the seat's view)."""
        code = invite.split("#join=", 1)[-1]
        r = yield "JoinTable", pb.JoinTableRequest(invite=code), None
        return r.seat, r.token, convert.view_dict(r.view)

    def hint(self, table_id: str, token: str) -> Op[list[dict]]:
        """The hard bot's evaluation of the seat's legal actions, best first:
        [{"action", "expected", "win"}]."""
        r = yield "Hint", pb.HintRequest(table_id=table_id, token=token), None
        return [{"action": convert.action_dict(h.action), "expected": h.expected, "win": h.win} for h in r.hints]

    def analyze(self, record: dict | str, seat: int | None = None, fair: bool = False,
                budget: int = 0, timeout: float | None = 120) -> Op[dict]:
        request = pb.AnalyzeRequest(record=record if isinstance(record, str) else json.dumps(record),
                                    fair=fair, budget=budget)
        if seat is not None:
            request.seat = seat
        return json.loads((yield "Analyze", request, timeout).json)

    def daily_deal(self, game: str, player_token: str = "") -> Op[dict]:
        """Today's deal of `game` for this player: {"date", "table_id", "seat", "token", "view",
        "player_token"}. Without a player token the server issues a new identity: keep the
        answer's "player_token" and pass it on every later call."""
        r = yield "GetDailyDeal", pb.GetDailyDealRequest(game=game, player_token=player_token), None
        return {"date": r.date, "table_id": r.table_id, "seat": r.seat, "token": r.token,
                "view": convert.view_dict(r.view), "player_token": r.player_token}

    def submit_daily(self, table_id: str, token: str, nickname: str, player_token: str) -> Op[dict]:
        r = yield "SubmitDaily", pb.SubmitDailyRequest(table_id=table_id, token=token, nickname=nickname,
                                                       player_token=player_token), None
        return {"rank": r.rank, "entry": _entry(r.entry)}

    def leaderboard(self, game: str, date: str = "", limit: int = 0) -> Op[dict]:
        r = yield "GetLeaderboard", pb.GetLeaderboardRequest(game=game, date=date, limit=limit), None
        return {"game": r.game, "date": r.date, "total": r.total, "entries": [_entry(e) for e in r.entries]}

    def deal(self, table_id: str, token: str = "", expected_version: int | None = None,
             request_id: str | None = None) -> Op[View]:
        request = pb.DealRequest(table_id=table_id, token=token, request_id=request_id or new_request_id())
        if expected_version is not None:
            request.expected_version = expected_version
        return convert.view_dict((yield "Deal", request, None).view)

    def view(self, table_id: str, token: str) -> Op[View]:
        r = yield "GetView", pb.GetViewRequest(table_id=table_id, token=token), None
        return convert.view_dict(r.view)

    # ---- actions --------------------------------------------------------------------------------
    def bid(self, table_id: str, token: str, call: str, suit: str = "",
            expected_version: int | None = None, request_id: str | None = None) -> Op[View]:
        return (yield from _act("Bid", pb.BidRequest(table_id=table_id, token=token, call=call, suit=suit),
                                expected_version, request_id))

    def exchange(self, table_id: str, token: str, call: str, cards: list[str],
                 expected_version: int | None = None, request_id: str | None = None) -> Op[View]:
        return (yield from _act("Exchange", pb.ExchangeRequest(table_id=table_id, token=token, call=call,
                                                               cards=cards), expected_version, request_id))

    def announce(self, table_id: str, token: str, call: str, expected_version: int | None = None,
                 request_id: str | None = None) -> Op[View]:
        return (yield from _act("Announce", pb.AnnounceRequest(table_id=table_id, token=token, call=call),
                                expected_version, request_id))

    def play(self, table_id: str, token: str, card: str, expected_version: int | None = None,
             request_id: str | None = None) -> Op[View]:
        return (yield from _act("Play", pb.PlayRequest(table_id=table_id, token=token, card=card),
                                expected_version, request_id))

    def act(self, table_id: str, token: str, action: dict, expected_version: int | None = None,
            request_id: str | None = None) -> Op[View]:
        """Send a records.md action object through the RPC of its type (its seat comes from
        the token)."""
        kind = action.get("type")
        if kind == "play":
            return (yield from Calls.play(self, table_id, token, action.get("card", ""), expected_version, request_id))
        if kind == "bid":
            return (yield from Calls.bid(self, table_id, token, action.get("call", ""), action.get("suit", ""),
                                         expected_version, request_id))
        if kind == "announce":
            return (yield from Calls.announce(self, table_id, token, action.get("call", ""), expected_version,
                                              request_id))
        if kind == "exchange":
            return (yield from Calls.exchange(self, table_id, token, action.get("call", ""),
                                              list(action.get("cards", [])), expected_version, request_id))
        raise ValueError(f"unknown action type {kind!r}")

    # ---- results ----------------------------------------------------------------------------------
    def score(self, table_id: str, token: str, deal_number: int = 0) -> Op[Score]:
        r = yield "Score", pb.ScoreRequest(table_id=table_id, token=token, deal_number=deal_number), None
        return {"deal_number": r.deal_number, "result": convert.result_dict(r.result),
                "match_scores": list(r.match_scores), "deals_finished": r.deals_finished,
                "deals_per_match": r.deals_per_match, "match_over": r.match_over,
                "match_target": r.match_target}

    # ---- batch ----------------------------------------------------------------------------------
    def evaluate_batch(self, lines: Iterable[str | dict], with_legal: bool = False, first_number: int = 0,
                       timeout: float | None = 120, raw: bool = False) -> Op[list]:
        """One answer per record in one unary call (EvaluateBatch; at most the server's
        --evaluate-batch-lines): a list, as `evaluate` yields them. `first_number`: the first
        line's position, the id of an answer whose record has none."""
        request = pb.EvaluateBatchRequest(lines=[_line(x) for x in lines], with_legal=with_legal,
                                          first_number=first_number)
        r = yield "EvaluateBatch", request, timeout
        return [a.json if raw else json.loads(a.json) for a in r.answers]

    def simulate(self, game: str, options: dict | None = None, deals: int = 1000, seed: int = 0,
                 timeout: float | None = 120.0) -> Op[dict]:
        request = pb.SimulateRequest(game=game, deals=deals, seed=seed)
        if options:
            request.options.update(options)
        r = yield "Simulate", request, timeout
        return {"deals": r.deals, "contracts": dict(r.contracts), "mean_scores": list(r.mean_scores),
                "seconds": r.seconds, "deals_per_second": r.deals_per_second, "engine": r.engine}

    def health(self, service: str = "") -> Op[str]:
        r = yield "health.Check", health_pb2.HealthCheckRequest(service=service), None
        return health_pb2.HealthCheckResponse.ServingStatus.Name(r.status)


def _act(method: str, request, expected_version, request_id) -> Op[View]:
    if expected_version is not None:
        request.expected_version = expected_version
    request.request_id = request_id or new_request_id()
    return convert.view_dict((yield method, request, None).view)


def _line(line: str | dict) -> str:
    return line if isinstance(line, str) else json.dumps(line, separators=(",", ":"))


def _method(client, name: str):
    """The stub method of an RPC name ("health.Check": the health service's)."""
    if name.startswith("health."):
        return getattr(client._health, name.split(".", 1)[1])
    return getattr(client.stub, name)


def blocking(call: Callable[Concatenate[Any, P], Op[T]]) -> Callable[Concatenate["StichClient", P], T]:
    """A call of `Calls` as a method of the blocking client."""
    @functools.wraps(call)
    def method(self: "StichClient", *args: P.args, **kwargs: P.kwargs) -> T:
        return self._run(call(self, *args, **kwargs))
    return method


class StichClient:
    """The blocking client: the calls of `Calls`, plus `watch`, `wait_turn` and the streaming
    `evaluate`."""

    list_games = blocking(Calls.list_games)
    create_table = blocking(Calls.create_table)
    join_table = blocking(Calls.join_table)
    hint = blocking(Calls.hint)
    analyze = blocking(Calls.analyze)
    daily_deal = blocking(Calls.daily_deal)
    submit_daily = blocking(Calls.submit_daily)
    leaderboard = blocking(Calls.leaderboard)
    deal = blocking(Calls.deal)
    view = blocking(Calls.view)
    bid = blocking(Calls.bid)
    exchange = blocking(Calls.exchange)
    announce = blocking(Calls.announce)
    play = blocking(Calls.play)
    act = blocking(Calls.act)
    score = blocking(Calls.score)
    evaluate_batch = blocking(Calls.evaluate_batch)
    simulate = blocking(Calls.simulate)
    health = blocking(Calls.health)

    def __init__(self, target: str = DEFAULT_TARGET, timeout: float = 10.0,
                 channel: grpc.Channel | None = None, retries: int = 3):
        """`retries`: how often the channel repeats an idempotent call after UNAVAILABLE (0: never;
        at most 4). A `channel` given has its own options (`channel_options` gives these)."""
        self.target = target
        self.timeout = timeout
        self.retries = retries
        self.channel = channel or grpc.insecure_channel(target, options=channel_options(retries))
        self.stub = pb_grpc.StichServiceStub(self.channel)
        self._health = health_pb2_grpc.HealthStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> "StichClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _run(self, op: Op[T]) -> T:
        """Run a call: each RPC it yields, once (the channel retries), its answer sent back."""
        try:
            step = next(op)
            while True:
                name, request, timeout = step
                try:
                    response = _method(self, name)(request, timeout=self.timeout if timeout is None else timeout)
                except grpc.RpcError as err:
                    raise from_rpc_error(err) from None
                step = op.send(response)
        except StopIteration as done:
            return done.value

    def wait_turn(self, table_id: str, token: str, timeout: float | None = 60) -> View:
        """The token's view once its seat is to act, or nobody is (the deal over, no deal in
        progress): follows the table's events while bots act (off the request path)."""
        view = self.view(table_id, token)
        if _settled(view, view["seat"]):
            return view
        for event in self.watch(table_id, token, view["version"], timeout=timeout):
            if _settled(event, view["seat"]):
                break
        return self.view(table_id, token)

    def watch(self, table_id: str, token: str, from_version: int = 0,
              timeout: float | None = None) -> Iterator[Event]:
        """The table's events after `from_version` until the match ends (or `timeout`)."""
        stream = self.stub.WatchTable(pb.WatchTableRequest(table_id=table_id, token=token,
                                                           from_version=from_version), timeout=timeout)
        try:
            for r in stream:
                yield convert.event_dict(r.event)
        except grpc.RpcError as err:
            raise from_rpc_error(err) from None
        finally:
            stream.cancel()

    def evaluate(self, lines: Iterable[str | dict], with_legal: bool = False,
                 timeout: float | None = None, chunk: int | None = None,
                 raw: bool = False) -> Iterator[dict] | Iterator[str]:
        """One answer per record (as `python -m engine_core evaluate` prints them), in order.
        `lines` are JSON lines or record dicts, sent `chunk` to a message (default 64, 8 with
        legal actions; lazily, so a long or endless input streams); the stream has no deadline
        unless given. `raw=True` yields each answer's JSON line as the server wrote it."""
        try:
            for r in self.stub.EvaluateRecords(_evaluate_requests(lines, with_legal, chunk), timeout=timeout):
                for a in r.answers:
                    yield a.json if raw else json.loads(a.json)
        except grpc.RpcError as err:
            raise from_rpc_error(err) from None


def _evaluate_requests(lines: Iterable[str | dict], with_legal: bool, chunk: int | None):
    """EvaluateRecords' request messages of `chunk` lines (default 64, 8 with legal actions)."""
    chunk = chunk or (8 if with_legal else 64)
    batch: list[str] = []
    for line in lines:
        batch.append(_line(line))
        if len(batch) >= chunk:
            yield pb.EvaluateRecordsRequest(lines=batch, with_legal=with_legal)
            batch = []
    if batch:
        yield pb.EvaluateRecordsRequest(lines=batch, with_legal=with_legal)
