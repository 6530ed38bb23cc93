"""The service under attack: the adversarial checks of issue 11, each a function the test
suite runs at CI size (tests/test_service_adversarial.py) and this command runs long.

    python tools/adversary.py leaks  [--deals 3]            # every message of full matches checked for hidden cards
    python tools/adversary.py fuzz   [--requests 100000]    # hostile requests; a refused one never changes a table
    python tools/adversary.py kills  [--kills 60]           # SIGKILL and restart; no acknowledged action lost
    python tools/adversary.py race   [--rounds 300]         # expected_version races: exactly one winner
    python tools/adversary.py idle   [--streams 500]        # unary latency with idle streams open
    python tools/adversary.py cost   [--deals-cost 5000]    # a call at deal 1 and at deal 5,000
    python tools/adversary.py json_options  [--keys 60000]  # CreateTable with huge options, both doors
    python tools/adversary.py slow_headers  [--connections 1000]  # slowloris: request heads a byte a second
    python tools/adversary.py fd_exhaustion [--nofile 1024]       # more connections than file descriptors
    python tools/adversary.py all                           # each with its default size

Every run starts its own server processes (`python -m service`, 127.0.0.1, port 0) and
prints its figures as one JSON object per check.
"""
from __future__ import annotations

import argparse
import json
import random
import string
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter

import grpc

from engine_core import games
from engine_core._rng import deal_seed
from google.protobuf import struct_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from service.testing import ServerProcess
from service.testing.hidden import Mirror, card_strings

from stich_client import StichClient, StichError, UnavailableError
from stich_client import convert
from stich_client.errors import error_info
from stich_client.gen.stich.v1 import stich_service_pb2 as pb
from stich_client.gen.stich.v1 import stich_service_pb2_grpc as pb_grpc

TRAILER_LIMIT = 8 * 1024          # what a default gRPC client accepts
BAD_CODES = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}


def built_games() -> list[str]:
    out = []
    for name in games.available():
        try:
            games.spec_of(name)
            out.append(name)
        except ImportError:
            pass
    return out


# ---- option families --------------------------------------------------------------------------
def option_families(game: str) -> dict[str, dict]:
    """The option sets a game is checked under: its defaults, each preset, every supported
    yes/no option switched (as far as the game accepts them together) and each other value of
    every choice option."""
    spec = games.spec_of(game)
    families = {"defaults": {}}
    for name in spec.presets:
        families[f"preset:{name}"] = games.preset(game, name)
    flips: dict = {}
    for o in spec.options:
        if o.kind == "bool" and o.status == "supported":
            try:
                games.get(game, {**flips, o.name: not o.default})
                flips[o.name] = not o.default
            except Exception:  # noqa: BLE001 - an OptionError: not with the others
                pass
    if flips:
        families["flipped"] = flips
    for o in spec.options:
        if o.kind == "choice" and o.status == "supported":
            for value in o.allowed:
                if value != o.default:
                    try:
                        games.get(game, {o.name: value})
                        families[f"{o.name}={value}"] = {o.name: value}
                    except Exception:  # noqa: BLE001
                        pass
    return families


# ---- errors as a seat sees them -----------------------------------------------------------------
def trailer_bytes(err: grpc.RpcError) -> int:
    return sum(len(k) + len(v) for k, v in (err.trailing_metadata() or ())) + len(err.details() or "")


def error_text(err: grpc.RpcError) -> list:
    info = error_info(err)
    return [err.details() or "", dict(info.metadata) if info else {}]


def check_error(err: grpc.RpcError, stats: Counter) -> list[str]:
    """What is wrong with how an error came back (empty: nothing)."""
    problems = []
    code = err.code()
    stats[code.name] += 1
    if code in BAD_CODES:
        problems.append(f"{code.name}: {err.details()!r:.200}")
    if trailer_bytes(err) > TRAILER_LIMIT:
        problems.append(f"{code.name}: trailers of {trailer_bytes(err)} bytes")
    if code not in (grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED,
                    grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.UNAVAILABLE):
        info = error_info(err)
        if info is None or info.domain != "stich.v1" or not info.reason:
            problems.append(f"{code.name}: no ErrorInfo ({err.details()!r:.120})")
    return problems


# ---- 1. every message of full matches, checked for hidden cards ---------------------------------
class LeakStats:
    def __init__(self):
        self.matches = self.deals = self.messages = self.cards = 0
        self.leaks: list[str] = []

    def as_dict(self) -> dict:
        return {"matches": self.matches, "deals": self.deals, "messages": self.messages,
                "cards_checked": self.cards, "leaks": len(self.leaks), "first_leaks": self.leaks[:5]}


def _checked(stats: LeakStats, mirror: Mirror, message, seat, where: str, allowed=None) -> None:
    stats.messages += 1
    try:
        stats.cards += mirror.check(message, seat, allowed, where)
    except AssertionError as err:
        stats.leaks.append(str(err)[:300])


def play_match_checked(client: StichClient, game: str, options: dict, deals: int, seed: int,
                       stats: LeakStats, rng: random.Random) -> None:
    """An all-human match played through the service by the test, every message any viewer
    gets checked against the rule: views of every seat and the spectator at every step, the
    action responses, refused actions (of the seat to act and of another seat), every Score
    and every WatchTable event of every viewer."""
    g = games.get(game, options)
    n = g.seats
    table = client.create_table(game, options, deals, ["human"] * n, seed=seed)
    viewers = [*range(n), None]
    token = {s: table.tokens[s] for s in range(n)} | {None: table.spectator_id}
    allowed_at: dict[int, dict] = {1: {v: set() for v in viewers}}
    stats.matches += 1
    for k in range(deals):
        view_msg = client.stub.Deal(pb.DealRequest(table_id=table.table_id, token=token[0],
                                                   request_id=str(uuid.uuid4())), timeout=20).view
        view = convert.view_dict(view_msg)
        # the deal as documented: deal k of the match is deal_seed(seed, k), dealt by the dealer
        mirror = Mirror(games.get(game, view["options"]).deal(deal_seed(seed, k), view["dealer"]))
        _checked(stats, mirror, view_msg, 0, f"{game} deal response")
        allowed_at[view["version"]] = {v: set(mirror.allowed(v)) for v in viewers}
        stats.deals += 1
        while True:
            views = {}
            for v in viewers:
                msg = client.stub.GetView(pb.GetViewRequest(table_id=table.table_id, token=token[v]), timeout=20).view
                _checked(stats, mirror, msg, v, f"{game} view")
                views[v] = convert.view_dict(msg)
            to_act = views[None]["to_act"]
            for s in range(n):
                hand = sorted(views[s]["hand"])
                if hand != sorted(mirror.seen_hand(s)):         # as much as the seat has seen
                    stats.leaks.append(f"{game}: seat {s}'s view shows {hand}, not its hand")
            if to_act is None:
                break
            legal = views[to_act]["legal"]
            other = (to_act + 1) % n
            # refused: another seat tries, and the seat to act tries something illegal
            for seat, req in ((other, pb.PlayRequest(table_id=table.table_id, token=token[other], card="QC")),
                              (to_act, pb.PlayRequest(table_id=table.table_id, token=token[to_act],
                                                      card=rng.choice(views[to_act]["hand"] or ["AS"]))),
                              (to_act, pb.BidRequest(table_id=table.table_id, token=token[to_act], call="pass",
                                                     suit="C"))):
                method = client.stub.Play if isinstance(req, pb.PlayRequest) else client.stub.Bid
                if isinstance(req, pb.PlayRequest) and {"type": "play", "card": req.card, "seat": seat} in legal:
                    continue
                try:
                    method(req, timeout=20)
                    stats.leaks.append(f"{game}: a refused request was accepted: {req}")
                except grpc.RpcError as err:
                    _checked(stats, mirror, error_text(err), seat, f"{game} error")
            action = rng.choice(legal)
            resp = _send(client, table.table_id, token[to_act], action)
            mirror.apply(action)
            _checked(stats, mirror, resp, to_act, f"{game} action response")
            allowed_at[resp.version] = {v: set(mirror.allowed(v)) for v in viewers}
        for v in viewers:
            score = client.stub.Score(pb.ScoreRequest(table_id=table.table_id, token=token[v]), timeout=20)
            _checked(stats, mirror, score, v, f"{game} score")
    # every event up to the last version played (a match that goes on, e.g. to a target score,
    # keeps its stream open: it is read that far and cancelled)
    final = max(allowed_at)
    for v in viewers:
        last = {s: set() for s in viewers}
        stream = client.stub.WatchTable(pb.WatchTableRequest(table_id=table.table_id, token=token[v]), timeout=60)
        for r in stream:
            last = allowed_at.get(r.event.version, last)
            stats.messages += 1
            leaked = card_strings(r.event) - last[v]
            stats.cards += len(card_strings(r.event))
            if leaked:
                stats.leaks.append(f"{game}: event {r.event.version} showed seat {v} {sorted(leaked)}")
            if r.event.version >= final:
                stream.cancel()
                break


def _send(client, table_id, token, action):
    rid = str(uuid.uuid4())
    kind = action["type"]
    if kind == "play":
        return client.stub.Play(pb.PlayRequest(table_id=table_id, token=token, card=action["card"], request_id=rid), timeout=20).view
    if kind == "bid":
        return client.stub.Bid(pb.BidRequest(table_id=table_id, token=token, call=action["call"],
                                              suit=action.get("suit", ""), request_id=rid), timeout=20).view
    if kind == "announce":
        return client.stub.Announce(pb.AnnounceRequest(table_id=table_id, token=token, call=action["call"],
                                                       request_id=rid), timeout=20).view
    return client.stub.Exchange(pb.ExchangeRequest(table_id=table_id, token=token, call=action["call"],
                                                   cards=action["cards"], request_id=rid), timeout=20).view


def leaks(deals: int = 1, seed: int = 1, game_list: list[str] | None = None, address: str | None = None) -> dict:
    stats = LeakStats()
    rng = random.Random(seed)
    families_run = 0
    with _server(address) as addr, StichClient(addr, timeout=30) as client:
        for game in game_list or built_games():
            for name, options in option_families(game).items():
                families_run += 1
                play_match_checked(client, game, options, deals, rng.randrange(2**32), stats, rng)
    return {"check": "leaks", "option_families": families_run, **stats.as_dict()}


class _server:
    """A server for a check: the given address, or a fresh process."""

    def __init__(self, address=None, data_dir=None, *args):
        self.address, self.data_dir, self.args, self.proc = address, data_dir, args, None

    def __enter__(self) -> str:
        if self.address:
            return self.address
        self.proc = ServerProcess(self.data_dir, *self.args)
        return self.proc.address

    def __exit__(self, *exc):
        if self.proc is not None:
            self.proc.stop()


# ---- 2. hostile requests: a refused request never changes a table -------------------------------
_JUNK = ["", " ", "??", "qc", "QC ", "Q", "QCQ", "\u00e9", "\U0001f0a1", "\x00", "null", "NaN", "-1",
         "t_", "st_", "sp_", "'; DROP TABLE tables; --", "../../etc/passwd", "%s%s%s", "{}", "[]"]


def _junk(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.3:
        return rng.choice(_JUNK)
    if r < 0.4:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 40)))
    if r < 0.45:
        return rng.choice("ATKQJ987") * rng.randrange(1, 200_000)        # huge
    if r < 0.6:
        return rng.choice("ATKQJ987") + rng.choice("CSHD")
    return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 12)))


def _hostile_options(rng: random.Random) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    for _ in range(rng.randrange(0, 4)):
        key = rng.choice(["tariff_solo", "kontra", "deals_per_match", "multiplier", "ruleset", "no_pick",
                          _junk(rng)[:50]])
        kind = rng.randrange(7)
        if kind == 0:
            s.fields[key].number_value = rng.choice([float("nan"), float("inf"), -float("inf"), 1e308, -1.5,
                                                     2**31, 2**63, -(2**31) - 1, 0.5])
        elif kind == 1:
            s.fields[key].string_value = _junk(rng)[:1000]
        elif kind == 2:
            s.fields[key].bool_value = rng.random() < 0.5
        elif kind == 3:
            v = s.fields[key]
            for _ in range(rng.randrange(1, 60)):                     # nested
                v = v.struct_value.fields["x"]
            v.number_value = 1
        elif kind == 4:
            s.fields[key].list_value.values.add().string_value = "C"
        elif kind == 5:
            s.fields[key].null_value = 0
        else:
            s.fields[key].number_value = rng.randrange(-5, 2000)
    return s


class Fuzz:
    """Hostile requests at a few live tables. After every refused request each table's views
    (every seat, the spectator) must be what they were; an accepted one (a legal action sent by
    chance or on purpose) must add versions."""

    def __init__(self, client: StichClient, rng: random.Random):
        self.client, self.rng = client, rng
        self.stub = client.stub
        self.status: Counter = Counter()
        self.problems: list[str] = []
        self.requests = self.compared = self.accepted = 0
        self.tables = []
        for game in built_games():
            n = games.get(game).seats
            for kinds in (["human"] * n, ["human"] + ["bot:easy"] * (n - 1)):
                self.tables.append(self.new_table(game, kinds))
        # a room whose one invite is spent, and a daily table: the targets of the rooms and
        # leaderboard requests (the room joins the compared tables once its seat is claimed)
        room = client.create_table("schafkopf", {}, 3, ["human", "open", "bot:easy", "bot:easy"], seed=1)
        self.spent_invite = room.invites[1]
        client.join_table(self.spent_invite)
        self.daily = client.daily_deal("klaverjas")
        self.secret = self.daily["player_token"]
        self.snaps = {t.table_id: self.snapshot(t) for t in self.tables}
        self.replaced = 0

    def new_table(self, game, kinds):
        t = self.client.create_table(game, {}, 3, kinds, seed=self.rng.randrange(2**32))
        self.client.deal(t.table_id, next(iter(t.tokens.values())))
        t.game, t.kinds = game, kinds
        return t

    def refresh(self, t) -> None:
        """A table whose match is over makes way for a new one (so legal actions go on)."""
        if convert.view_dict(self.stub.GetView(pb.GetViewRequest(
                table_id=t.table_id, token=t.spectator_id), timeout=20).view)["status"] == "match_over":
            fresh = self.new_table(t.game, t.kinds)
            self.tables[self.tables.index(t)] = fresh
            self.snaps[fresh.table_id] = self.snapshot(fresh)
            self.replaced += 1

    def settle(self, t) -> None:
        """Wait until no bot is to act: bots play after an accepted call returns, so a table
        is compared only once it stands still."""
        v = convert.view_dict(self.stub.GetView(pb.GetViewRequest(table_id=t.table_id, token=t.spectator_id),
                                                timeout=20).view)
        if v["to_act"] is not None and v["to_act"] not in t.tokens:
            for e in self.client.watch(t.table_id, t.spectator_id, v["version"], timeout=30):
                if e["to_act"] is None or e["to_act"] in t.tokens:
                    break

    def snapshot(self, t):
        self.settle(t)
        return [self.stub.GetView(pb.GetViewRequest(table_id=t.table_id, token=tok), timeout=20).view.SerializeToString(
            deterministic=True) for tok in [*t.tokens.values(), t.spectator_id]]

    def request(self):
        rng = self.rng
        t = rng.choice(self.tables)
        tokens = [*t.tokens.values(), t.spectator_id]
        tid = rng.choice([t.table_id] * 6 + [_junk(rng), "", "t_" + "A" * 16, rng.choice(self.tables).table_id])
        tok = rng.choice(tokens * 3 + [_junk(rng), ""])
        kw = {}
        if rng.random() < 0.3:
            kw["expected_version"] = rng.choice([0, -1, 2**31 - 1, rng.randrange(0, 400)])
        if rng.random() < 0.5:
            kw["request_id"] = rng.choice([str(uuid.uuid4()), _junk(rng)[:100], "r" * 65, "same-id"])
        which = rng.randrange(20)
        if which == 0:
            return t, "Play", pb.PlayRequest(table_id=tid, token=tok, card=_junk(rng), **kw)
        if which == 1:
            return t, "Bid", pb.BidRequest(table_id=tid, token=tok, call=rng.choice(["pass", "rufspiel", "pick", "wenz", _junk(rng)]),
                                           suit=rng.choice(["", "C", "H", "X", _junk(rng)]), **kw)
        if which == 2:
            return t, "Exchange", pb.ExchangeRequest(table_id=tid, token=tok, call=rng.choice(["bury", "unknown", "armut_give", _junk(rng)]),
                                                     cards=[_junk(rng)[:5] for _ in range(rng.randrange(0, 5))], **kw)
        if which == 3:
            return t, "Announce", pb.AnnounceRequest(table_id=tid, token=tok, call=rng.choice(["kontra", "re", "pass", "no_90", _junk(rng)]), **kw)
        if which == 4:
            kw.pop("request_id", None) if rng.random() < 0.5 else None
            return t, "Deal", pb.DealRequest(table_id=tid, token=tok, **kw)
        if which == 5:
            return t, "Score", pb.ScoreRequest(table_id=tid, token=tok, deal_number=rng.choice([0, 1, 2, -1, 2**31 - 1]))
        if which == 6:
            req = pb.CreateTableRequest(game=rng.choice(built_games() + [_junk(rng)]), deals_per_match=rng.choice(
                [0, 1, 1000, 1001, -1, 2**31 - 1, -(2**31)]), seats=[rng.choice([0, 1, 2, 3, 99, -3]) for _ in range(rng.choice([0, 4, 5, 9]))])
            req.options.CopyFrom(_hostile_options(rng))
            if rng.random() < 0.3:
                req.daily_date = _junk(rng)[:40]
            return None, "CreateTable", req
        if which == 7:
            req = pb.SimulateRequest(game=rng.choice(built_games() + [_junk(rng)]), deals=rng.choice([0, -1, 1, 50, 2**31 - 1]),
                                     seed=rng.randrange(2**64))
            req.options.CopyFrom(_hostile_options(rng))
            return None, "Simulate", req
        if which == 8:
            return t, "raw", rng.choice(["Play", "Bid", "CreateTable", "GetView", "Simulate", "Score"])
        if which == 9:
            return t, "Watch", pb.WatchTableRequest(table_id=tid, token=tok, from_version=rng.choice([0, -1, 3, 2**31 - 1]))
        if which == 10:
            return None, "Evaluate", [_junk(rng)[:2000] for _ in range(rng.randrange(1, 4))]
        if which == 11:
            return t, "GetView", pb.GetViewRequest(table_id=tid, token=tok)
        if which == 12:
            spent = self.spent_invite
            code = rng.choice([spent, spent + "x", spent.rsplit(".", 1)[0] + "." + t.table_id, "iv_" + "A" * 24 + "." + t.table_id,
                               _junk(rng)[:80], ""])
            return None, "JoinTable", pb.JoinTableRequest(invite=code)
        if which == 13:
            # a hint for a seat that is not to act, a spectator, a wrong token or table (a hint
            # for the seat to act is answered, and must change nothing either)
            return t, "Hint", pb.HintRequest(table_id=tid, token=tok)
        if which == 14:
            return None, "GetDailyDeal", pb.GetDailyDealRequest(game=rng.choice(built_games() + [_junk(rng)]),
                                                                player_token=rng.choice(["short", _junk(rng)[:200], "pt_" + "a" * 32 + "." + "b" * 32,
                                                                                          self.secret[:-2] + "00"]))
        if which == 15:
            d = self.daily
            return t, "SubmitDaily", pb.SubmitDailyRequest(
                table_id=rng.choice([d["table_id"], tid]), token=rng.choice([d["token"], tok]),
                nickname=rng.choice(["", "n" * 25, "\x00bad", "ok", _junk(rng)[:30]]),
                player_token=rng.choice([self.secret, "wrong-secret-xx", "", _junk(rng)[:40]]))
        if which == 16:
            return None, "GetLeaderboard", pb.GetLeaderboardRequest(
                game=rng.choice(built_games() + [_junk(rng), ""]), date=rng.choice(["", "2026-13-40", "yesterday", _junk(rng)[:20]]),
                limit=rng.choice([0, -1, 101, 2**31 - 1, 5]))
        if which == 17:
            req = pb.AnalyzeRequest(record=rng.choice([_junk(rng)[:500], "{}", '{"game": "schafkopf"}', "[]"]),
                                    fair=rng.random() < 0.5, budget=rng.choice([0, -1, 5_000_001, 2**31 - 1, 1000]))
            if rng.random() < 0.5:
                req.seat = rng.choice([-1, 0, 5, 2**31 - 1])
            return None, "Analyze", req
        return t, "legal", None          # a legal action of the seat to act (the table moves on)

    def run(self, n: int) -> dict:
        for _ in range(n):
            t, method, req = self.request()
            self.requests += 1
            ok = self.send(t, method, req)
            if t is not None and method in ("Play", "Bid", "Exchange", "Announce", "Deal", "legal", "raw", "Hint", "SubmitDaily"):
                now = self.snapshot(t)
                if ok and method in ("Hint", "SubmitDaily"):
                    if now != self.snaps[t.table_id]:      # answered, and must change no table
                        self.problems.append(f"an answered {method} changed table {t.table_id}")
                elif ok:
                    self.accepted += 1
                elif now != self.snaps[t.table_id]:
                    self.problems.append(f"a refused {method} changed table {t.table_id}: {req!r:.200}")
                self.compared += 1
                self.snaps[t.table_id] = now
                if ok and method not in ("Hint", "SubmitDaily"):
                    self.refresh(t)
        return {"check": "fuzz", "requests": self.requests, "status": dict(self.status),
                "accepted_actions": self.accepted, "state_comparisons": self.compared,
                "matches_finished": self.replaced,
                "problems": len(self.problems), "first_problems": self.problems[:5]}

    def send(self, t, method, req) -> bool:
        stub = self.stub
        try:
            if method == "raw":
                call = self.client.channel.unary_unary(f"/stich.v1.StichService/{req}")
                call(bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 64))), timeout=20)
            elif method == "Watch":
                stream = stub.WatchTable(req, timeout=0.5)
                try:
                    next(stream, None)
                finally:
                    stream.cancel()
            elif method == "Evaluate":
                for r in stub.EvaluateRecords(iter([pb.EvaluateRecordsRequest(lines=req)]), timeout=30):
                    for a in r.answers:
                        json.loads(a.json)
            elif method == "legal":
                v = convert.view_dict(stub.GetView(pb.GetViewRequest(table_id=t.table_id, token=t.spectator_id), timeout=20).view)
                if v["status"] == "waiting_for_deal":
                    stub.Deal(pb.DealRequest(table_id=t.table_id, token=next(iter(t.tokens.values()))), timeout=20)
                elif v["to_act"] is not None and v["to_act"] in t.tokens:
                    mine = convert.view_dict(stub.GetView(pb.GetViewRequest(table_id=t.table_id, token=t.tokens[v["to_act"]]), timeout=20).view)
                    _send(self.client, t.table_id, t.tokens[v["to_act"]], self.rng.choice(mine["legal"]))
                else:
                    return False
            else:
                getattr(stub, method)(req, timeout=30)
            self.status["OK"] += 1
            return True
        except grpc.RpcError as err:
            if err.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED) and method == "Watch":
                self.status["OK"] += 1
                return False
            for p in check_error(err, self.status):
                self.problems.append(f"{method}: {p}")
            return False
        except ValueError as err:            # a bad answer line
            self.problems.append(f"{method}: {err}")
            return False


def fuzz(requests: int = 2000, seed: int = 7, address: str | None = None) -> dict:
    with _server(address) as addr, StichClient(addr, timeout=30) as client:
        return Fuzz(client, random.Random(seed)).run(requests)


# ---- 3. SIGKILL and restart: no acknowledged action lost --------------------------------------
def kills(kills: int = 5, seed: int = 3, tables: int = 4, data_dir: str | None = None,
          run_seconds: tuple[float, float] = (0.3, 1.0)) -> dict:
    """Clients act at several all-human tables (each action with a request id) while the server
    is killed with SIGKILL at random moments and restarted on the same data directory. Every
    acknowledged action must be in the table after the restart, at its version; the request
    that was in flight at the kill, retried with its id, is applied once or answered as before."""
    rng = random.Random(seed)
    tmp = tempfile.TemporaryDirectory() if data_dir is None else None
    data_dir = data_dir or tmp.name
    acked: dict[str, dict[int, dict]] = {}
    handles = []
    stats = Counter()
    in_flight: list = []
    proc = ServerProcess(data_dir)
    try:
        with StichClient(proc.address, timeout=20, retries=0) as c:
            for i in range(tables):
                game = built_games()[i % len(built_games())]
                n = games.get(game).seats
                handles.append(c.create_table(game, {}, 50, ["human"] * n, seed=rng.randrange(2**32)))
                acked[handles[-1].table_id] = {}
        for round_ in range(kills):
            stop = threading.Event()
            threads = [threading.Thread(target=_kill_worker, args=(proc.address, h, acked, stats, in_flight,
                                                                   stop, random.Random(rng.random())))
                       for h in handles]
            for th in threads:
                th.start()
            time.sleep(rng.uniform(*run_seconds))
            proc.kill()
            stats["kills"] += 1
            stop.set()
            for th in threads:
                th.join(30)
            proc = ServerProcess(data_dir)
            with StichClient(proc.address, timeout=20) as c:
                for item in list(in_flight):             # retry what got no answer, same id
                    h, kind, fields, rid = item
                    try:
                        v = c.act(h.table_id, h.tokens[fields["seat"]], {"type": kind, **fields}, request_id=rid)
                        acked[h.table_id][v["version"]] = {"type": kind, **fields}
                        stats["retried_in_flight"] += 1
                    except StichError:
                        # not applied before the kill, and refused now: the table must have
                        # moved without it, which nothing but this worker does (a defect)
                        stats["in_flight_refused"] += 1
                    in_flight.remove(item)
        with StichClient(proc.address, timeout=30) as c:
            for h in handles:
                # each action as its own seat sees it (another seat may see face-down cards as ??)
                events = {seat: _events_until_now(c, h, token) for seat, token in h.tokens.items()}
                for version, action in acked[h.table_id].items():
                    stats["acknowledged"] += 1
                    got = events[action["seat"]].get(version, {}).get("action")
                    if got is None or any(got.get(k) != v for k, v in action.items()):
                        stats["lost"] += 1
        proc.stop()
    finally:
        if proc.proc.poll() is None:
            proc.kill()
        if tmp is not None:
            tmp.cleanup()
    return {"check": "kills", "kills": stats["kills"], "acknowledged_actions": stats["acknowledged"],
            "lost": stats["lost"] + stats["in_flight_refused"], "in_flight_retried": stats["retried_in_flight"],
            "in_flight_refused_on_retry": stats["in_flight_refused"], "errors": stats["errors"]}


def _events_until_now(c, h, token) -> dict:
    version = c.view(h.table_id, h.spectator_id)["version"]
    out = {}
    stream = c.stub.WatchTable(pb.WatchTableRequest(table_id=h.table_id, token=token), timeout=60)
    try:
        for r in stream:
            e = convert.event_dict(r.event)
            out[e["version"]] = e
            if e["version"] >= version:
                break
    finally:
        stream.cancel()
    return out


def _kill_worker(address, h, acked, stats, in_flight, stop, rng):
    with StichClient(address, timeout=5, retries=0) as c:
        while not stop.is_set():
            try:
                v = c.view(h.table_id, h.spectator_id)
                if v["status"] == "match_over":
                    return
                if v["status"] == "waiting_for_deal":
                    c.deal(h.table_id, h.tokens[0])
                    continue
                seat = v["to_act"]
                mine = c.view(h.table_id, h.tokens[seat])
                action = rng.choice(mine["legal"])
            except (UnavailableError, StichError):
                return
            rid = str(uuid.uuid4())
            fields = {k: val for k, val in action.items() if k != "type"}
            try:
                r = c.act(h.table_id, h.tokens[seat], action, request_id=rid)
                acked[h.table_id][r["version"] - _bot_steps(r)] = action
            except UnavailableError:
                in_flight.append((h, action["type"], fields, rid))
                return
            except StichError:
                stats["errors"] += 1
                return


def _bot_steps(view) -> int:
    return 0                                  # all-human tables: one version per action


# ---- 4. expected_version races: exactly one winner ----------------------------------------------
def race(rounds: int = 20, racers: int = 8, seed: int = 5, address: str | None = None) -> dict:
    """`racers` clients send an action with the same expected_version at once; exactly one is
    accepted, the others get ABORTED (STALE_VERSION), and the table moved by one version."""
    rng = random.Random(seed)
    results = Counter()
    with _server(address) as addr:
        clients = [StichClient(addr, timeout=20) for _ in range(racers)]
        try:
            game = built_games()[0]
            n = games.get(game).seats
            t = clients[0].create_table(game, {}, 1000, ["human"] * n, seed=seed)
            for _ in range(rounds):
                v = clients[0].view(t.table_id, t.spectator_id)
                if v["status"] == "waiting_for_deal":
                    clients[0].deal(t.table_id, t.tokens[0])
                    v = clients[0].view(t.table_id, t.spectator_id)
                seat = v["to_act"]
                legal = clients[0].view(t.table_id, t.tokens[seat])["legal"]
                barrier = threading.Barrier(racers)
                outcome = []

                def go(i):
                    barrier.wait()
                    try:
                        clients[i].act(t.table_id, t.tokens[seat], rng.choice(legal), expected_version=v["version"])
                        outcome.append("won")
                    except StichError as err:
                        outcome.append(err.reason_id)

                threads = [threading.Thread(target=go, args=(i,)) for i in range(racers)]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join()
                after = clients[0].view(t.table_id, t.spectator_id)["version"]
                ok = outcome.count("won") == 1 and outcome.count("STALE_VERSION") == racers - 1 \
                    and after == v["version"] + 1
                results["one_winner" if ok else "bad"] += 1
        finally:
            for c in clients:
                c.close()
    return {"check": "race", "rounds": rounds, "racers": racers, "one_winner": results["one_winner"],
            "bad_rounds": results["bad"]}


# ---- 5. unary latency with idle streams open -----------------------------------------------------
def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def idle(streams: int = 500, calls: int = 500, address: str | None = None, channels: int = 10) -> dict:
    """p50/p99 of an unrelated GetView and of a health check, first with nothing open, then
    with `streams` idle streams open (WatchTable on a table that does not change, and
    EvaluateRecords streams that send nothing), spread over `channels` connections."""
    with _server(address) as addr, StichClient(addr, timeout=10) as c:
        game = built_games()[0]
        quiet = c.create_table(game, {}, 1, seed=1)
        busy = c.create_table(game, {}, 1, seed=2)
        health = health_pb2_grpc.HealthStub(c.channel)

        def measure():
            view, hc = [], []
            for _ in range(calls):
                t0 = time.perf_counter()
                c.stub.GetView(pb.GetViewRequest(table_id=busy.table_id, token=busy.spectator_id), timeout=10)
                view.append((time.perf_counter() - t0) * 1e3)
                t0 = time.perf_counter()
                health.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
                hc.append((time.perf_counter() - t0) * 1e3)
            return view, hc

        base_view, base_health = measure()
        chans = [grpc.insecure_channel(addr) for _ in range(channels)]
        opened, held = [], []
        gate = threading.Event()

        def idle_requests():
            gate.wait()
            return
            yield  # noqa: unreachable - an iterator that sends nothing until closed

        try:
            evaluate_streams = min(streams // 8, 64)
            for i in range(streams):
                stub = pb_grpc.StichServiceStub(chans[i % channels])
                if i < evaluate_streams:
                    call = stub.EvaluateRecords(idle_requests(), timeout=300)
                else:
                    call = stub.WatchTable(pb.WatchTableRequest(table_id=quiet.table_id, token=quiet.spectator_id), timeout=300)
                    held.append(call)
                opened.append(call)
            for call in held:                   # each watch got its first event: the stream is open
                next(call)
            time.sleep(0.5)
            view, hc = measure()
        finally:
            gate.set()
            for call in opened:
                call.cancel()
            for ch in chans:
                ch.close()
    r = lambda xs: round(xs, 3)  # noqa: E731
    return {"check": "idle", "streams_open": len(opened), "evaluate_streams": evaluate_streams,
            "calls": calls,
            "getview_ms_no_streams": {"p50": r(percentile(base_view, 50)), "p99": r(percentile(base_view, 99))},
            "getview_ms_with_streams": {"p50": r(percentile(view, 50)), "p99": r(percentile(view, 99))},
            "health_ms_no_streams": {"p50": r(percentile(base_health, 50)), "p99": r(percentile(base_health, 99))},
            "health_ms_with_streams": {"p50": r(percentile(hc, 50)), "p99": r(percentile(hc, 99))}}


# ---- 6. a call costs the same at deal 1 and deal 5,000 ------------------------------------------
def cost(deals: int = 5000, address: str | None = None) -> dict:
    """A Sheepshead table where every deal is a doubler (all five pass, the deal is redealt and
    does not count, so the match never ends): `deals` deals of six calls each (Deal, five Bid
    passes), then the median latency of Deal, Bid and GetView over the first and the last 100
    deals, and the server's memory."""
    with _server(address) as addr, StichClient(addr, timeout=30) as c:
        t = c.create_table("sheepshead", {"no_pick": "doubler"}, 1, seed=1)
        lat = {"deal": [], "bid": [], "view": []}

        def timed(kind, fn, *args):
            t0 = time.perf_counter()
            out = fn(*args)
            lat[kind].append((time.perf_counter() - t0) * 1e3)
            return out

        for _ in range(deals):
            v = timed("deal", c.deal, t.table_id, t.tokens[0])
            while v["status"] == "in_deal":
                seat = c.view(t.table_id, t.spectator_id)["to_act"]
                timed("bid", c.bid, t.table_id, t.tokens[seat], "pass")
                v = timed("view", c.view, t.table_id, t.tokens[seat])
        final = c.view(t.table_id, t.spectator_id)
    med = lambda xs: round(sorted(xs)[len(xs) // 2], 3)  # noqa: E731
    first, last = slice(0, 100), slice(-100, None)
    return {"check": "cost", "deals_dealt": final["deal_number"], "deals_counted": final["deals_counted"],
            "version": final["version"],
            "deal_ms": {"first_100": med(lat["deal"][first]), "last_100": med(lat["deal"][last])},
            "bid_ms": {"first_500": med(lat["bid"][:500]), "last_500": med(lat["bid"][-500:])},
            "view_ms": {"first_500": med(lat["view"][:500]), "last_500": med(lat["view"][-500:])}}


# ---- 7. a hostile network: options floods, slow heads, descriptors (issue 27) -------------------
class Health:
    """Health latency of both doors while an attack runs, measured by a process of its own (so
    that the attacker's threads do not hold up the measuring one): a gRPC health check on a
    channel opened before the attack, and a Connect `GetView` (the spectator's, of a table made
    for it) on an HTTP connection opened before it from another loopback address than the
    attacker's (127.0.0.2), one after the other every `pause` seconds. A failed probe counts as
    `timeout` seconds."""

    def __init__(self, server: ServerProcess, pause: float = 0.01, timeout: float = 10.0):
        with StichClient(server.address) as client:
            table = client.create_table("schafkopf", {}, 1, ["human"] * 4, seed=1)
        view = json.dumps({"tableId": table.table_id, "token": table.spectator_id})
        import subprocess
        self.proc = subprocess.Popen([sys.executable, "-c", _PROBE, server.address, server.http_address, view,
                                      str(pause), str(timeout)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("the health probe did not start")
        self.result: dict = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        out, _ = self.proc.communicate("stop\n", timeout=60)
        self.result = json.loads(out.strip().splitlines()[-1])

    def figures(self) -> dict:
        return self.result


_PROBE = r"""
import http.client, json, sys, threading, time
import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
address, http_address, view, pause, timeout = sys.argv[1:6]
pause, timeout = float(pause), float(timeout)
stub = health_pb2_grpc.HealthStub(grpc.insecure_channel(address))
host, port = http_address.rsplit(":", 1)
conn = [None]
def connect():
    conn[0] = http.client.HTTPConnection(host, int(port), timeout=timeout, source_address=("127.0.0.2", 0))
def http_call():
    conn[0].request("POST", "/stich.v1.StichService/GetView", view.encode(), {"content-type": "application/json"})
    r = conn[0].getresponse(); r.read()
    if r.status != 200:
        raise OSError(r.status)
connect(); http_call()
stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
ms, failed, stop = {"grpc": [], "http": []}, {"grpc": 0, "http": 0}, threading.Event()
threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
print("ready", flush=True)
while not stop.is_set():
    t0 = time.perf_counter()
    try:
        stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout)
        ms["grpc"].append((time.perf_counter() - t0) * 1e3)
    except grpc.RpcError:
        failed["grpc"] += 1; ms["grpc"].append(timeout * 1e3)
    t0 = time.perf_counter()
    try:
        http_call()
        ms["http"].append((time.perf_counter() - t0) * 1e3)
    except (OSError, http.client.HTTPException):
        failed["http"] += 1; ms["http"].append(timeout * 1e3)
        conn[0].close(); connect()
    time.sleep(pause)
def pct(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]
print(json.dumps({d: {"probes": len(xs), "failed": failed[d], "p50": round(pct(xs, 50), 2),
                      "p99": round(pct(xs, 99), 2), "max": round(max(xs), 2)} for d, xs in ms.items() if xs}))
"""


def _options_request(keys: int) -> pb.CreateTableRequest:
    req = pb.CreateTableRequest(game="schafkopf")
    req.options.update({f"o{i}": i for i in range(keys)})
    return req


def json_options(attackers: int = 4, keys: int = 60_000, rounds: int = 3, args: tuple = ()) -> dict:
    """CreateTable with `keys` option keys (60,000: 1.5 MB of Connect JSON, 1.2 MB of protobuf)
    from `attackers` threads at once, `rounds` times each, through both doors; and the same
    with 3,000 keys (under the request bound, over the options bound). Health latency of both
    doors meanwhile; what each attack request got and how long it took."""
    import http.client
    got: Counter = Counter()
    took: list[float] = []
    with ServerProcess(None, *args) as server, Health(server) as health:
        host, port = server.http_address.rsplit(":", 1)
        big_json = json.dumps({"game": "schafkopf", "options": {f"o{i}": i for i in range(keys)}}).encode()
        small_json = json.dumps({"game": "schafkopf", "options": {f"o{i}": i for i in range(3000)}}).encode()
        big_pb, small_pb = _options_request(keys), _options_request(3000)

        big_pb, small_pb = big_pb.SerializeToString(), small_pb.SerializeToString()

        def attack(k: int) -> None:
            channel = grpc.insecure_channel(server.address, options=[("grpc.max_send_message_length", -1)])
            create = channel.unary_unary("/stich.v1.StichService/CreateTable")      # bytes as they are
            for i in range(rounds):
                for body in (big_json, small_json):
                    conn = http.client.HTTPConnection(host, int(port), timeout=60)
                    t0 = time.perf_counter()
                    conn.request("POST", "/stich.v1.StichService/CreateTable", body, {"content-type": "application/json"})
                    r = conn.getresponse()
                    answer = json.loads(r.read() or b"{}")
                    took.append((time.perf_counter() - t0) * 1e3)
                    conn.close()
                    reason = ""
                    for d in answer.get("details", []):
                        from google.rpc import error_details_pb2
                        import base64
                        raw = d["value"]
                        reason = error_details_pb2.ErrorInfo.FromString(base64.b64decode(raw + "=" * (-len(raw) % 4))).reason
                    got[f"http:{answer.get('code', r.status)}:{reason}"] += 1
                for req in (big_pb, small_pb):
                    t0 = time.perf_counter()
                    try:
                        create(req, timeout=60)
                        got["grpc:OK"] += 1
                    except grpc.RpcError as err:
                        info = error_info(err)
                        got[f"grpc:{err.code().name}:{info.reason if info else ''}"] += 1
                    took.append((time.perf_counter() - t0) * 1e3)
            channel.close()

        time.sleep(0.3)                       # a baseline before the attack
        threads = [threading.Thread(target=attack, args=(k,)) for k in range(attackers)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        time.sleep(0.3)
    return {"check": "json_options", "attackers": attackers, "keys": keys, "json_bytes": len(big_json),
            "protobuf_bytes": len(big_pb), "attack_requests": len(took), "answers": dict(got),
            "attack_ms": {"p50": round(percentile(took, 50), 1), "max": round(max(took), 1)},
            "health_ms": health.figures()}


def _slow_socket(address: tuple, source: str):
    import socket
    s = socket.socket()
    s.settimeout(5)
    s.bind((source, 0))
    s.connect(address)
    s.setblocking(False)
    return s


def _still_open(s) -> bool:
    """Whether the server has not closed `s` (no EOF, no reset, nothing but a pending head)."""
    try:
        data = s.recv(4096)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False if data == b"" or data.startswith(b"HTTP/1.1 5") or data.startswith(b"HTTP/1.1 408") else True


def slow_headers(connections: int = 1000, seconds: float = 20.0, sources: int = 1, args: tuple = ()) -> dict:
    """`connections` connections to the HTTP door from `sources` loopback addresses (127.0.0.10
    and on), each sending its request head one byte a second (slowloris), for `seconds` after
    the last one opened. How many the server kept open 1 s after that and at the end, and the
    health latency of both doors all along."""
    head = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 10_000
    opened, kept_1s = [], 0
    with ServerProcess(None, *args) as server, Health(server) as health:
        host, port = server.http_address.rsplit(":", 1)
        address = (host, int(port))
        refused = 0
        t_open = time.monotonic()
        for i in range(connections):
            try:
                s = _slow_socket(address, f"127.0.0.{10 + i % sources}")
                s.send(head[:1])
                opened.append(s)
            except OSError:
                refused += 1
        t_open = time.monotonic() - t_open
        t0 = time.monotonic()
        alive = list(opened)
        sent = 1
        while time.monotonic() - t0 < seconds:
            time.sleep(1.0 - (time.monotonic() - t0) % 1.0)
            alive = [s for s in alive if _still_open(s)]
            if sent == 1:
                kept_1s = len(alive)
            for s in alive:
                try:
                    s.send(head[sent:sent + 1])
                except OSError:
                    pass
            sent += 1
        kept_end = len(alive)
        for s in opened:
            s.close()
        out = server.output
    return {"check": "slow_headers", "connections": connections, "sources": sources, "connect_failed": refused,
            "opening_seconds": round(t_open, 1), "open_after_1s": kept_1s, "open_at_end": kept_end,
            "seconds": seconds, "server_tracebacks": out.count("Traceback"), "health_ms": health.figures()}


def fd_exhaustion(connections: int = 1100, nofile: int = 1024, sources: int = 10, hold: float = 5.0,
                  args: tuple = ()) -> dict:
    """A server whose file descriptor limit is `nofile` (soft and hard) gets `connections` idle
    HTTP connections from `sources` loopback addresses (so that the cap per peer does not stop
    them first), held `hold` seconds. Meanwhile: health latency of both doors (connections
    opened before), and whether a new gRPC channel still gets an answer; after: the server's
    log lines about failed accepts and tracebacks."""
    import socket
    socks, connect_failed = [], 0
    new_channel_ok = False
    with ServerProcess(None, "--http-header-timeout", str(max(hold * 4, 10)), *args, nofile=(nofile, nofile)) as server, \
            Health(server) as health:
        host, port = server.http_address.rsplit(":", 1)
        for i in range(connections):
            try:
                s = socket.socket()
                s.settimeout(5)
                s.bind((f"127.0.0.{10 + i % sources}", 0))
                s.connect((host, int(port)))
                s.send(b"G")
                socks.append(s)
            except OSError:
                connect_failed += 1
        time.sleep(hold / 2)
        with grpc.insecure_channel(server.address) as channel:
            try:
                health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
                new_channel_ok = True
            except grpc.RpcError:
                pass
        refused = 0
        for s in socks:
            s.setblocking(False)
            refused += not _still_open(s)
        time.sleep(hold / 2)
        for s in socks:
            s.close()
        time.sleep(0.5)
        out = server.output
    return {"check": "fd_exhaustion", "nofile": nofile, "connections": connections, "sources": sources,
            "connect_failed": connect_failed, "closed_by_server": refused, "held_open": len(socks) - refused,
            "new_grpc_channel_answered": new_channel_ok, "server_tracebacks": out.count("Traceback"),
            "accept_error_lines": out.count("out of system resource"), "server_log_bytes": len(out),
            "health_ms": health.figures()}


def _heavy_record() -> str:
    """A played Doppelkopf deal: analysing every card of it with a large budget takes minutes."""
    state = games.get("doppelkopf").deal(3, 0)
    rng = random.Random(3)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return json.dumps(state.record())


def _bot_moves(client: StichClient, seconds: float) -> float:
    """Moves a second of an all-bot Schafkopf table over `seconds` (dealing again between deals)."""
    n = games.get("schafkopf").seats
    table = client.create_table("schafkopf", {}, 1000, ["bot:easy"] * n, seed=7)
    version = client.deal(table.table_id)["version"]
    moves, t0 = 0, time.monotonic()
    while time.monotonic() - t0 < seconds:
        time.sleep(0.05)
        view = client.view(table.table_id, table.spectator_id)
        moves += view["version"] - version
        version = view["version"]
        if view["status"] == "waiting_for_deal":
            version = client.deal(table.table_id)["version"]
    return moves / seconds


def analysis_load(callers: int = 8, sources: int = 4, seconds: float = 10.0, args: tuple = ()) -> dict:
    """Analysis starving the bots (issue 27, item 3): `callers` threads calling Analyze of a
    heavy record (budget 5,000,000) over and over for `seconds`, half over gRPC from one address
    and half over Connect JSON from `sources` loopback addresses (127.0.0.10 and on), while an
    all-bot table plays. The bots' move rate before and during the attack, health latency of
    both doors, and what the Analyze calls got (answers, refusals by reason)."""
    import http.client
    record = _heavy_record()
    got: Counter = Counter()
    stop = threading.Event()
    with ServerProcess(None, *args) as server, StichClient(server.address, timeout=30) as client:
        before = _bot_moves(client, min(seconds, 3.0))
        host, port = server.http_address.rsplit(":", 1)
        body = json.dumps({"record": record, "budget": 5_000_000}).encode()

        def over_grpc() -> None:
            with grpc.insecure_channel(server.address) as channel:
                analyze = channel.unary_unary("/stich.v1.StichService/Analyze",
                                              request_serializer=pb.AnalyzeRequest.SerializeToString)
                while not stop.is_set():
                    try:
                        analyze(pb.AnalyzeRequest(record=record, budget=5_000_000), timeout=5)
                        got["grpc:OK"] += 1
                    except grpc.RpcError as err:
                        info = error_info(err)
                        got[f"grpc:{err.code().name}:{info.reason if info else ''}"] += 1
                        time.sleep(0.02)

        def over_http(k: int) -> None:
            while not stop.is_set():
                conn = http.client.HTTPConnection(host, int(port), timeout=30,
                                                  source_address=(f"127.0.0.{10 + k % sources}", 0))
                try:
                    conn.request("POST", "/stich.v1.StichService/Analyze", body,
                                 {"content-type": "application/json", "connect-timeout-ms": "5000"})
                    r = conn.getresponse()
                    answer = json.loads(r.read() or b"{}")
                    got[f"http:{answer.get('code', 'ok') if r.status != 200 else 'OK'}"] += 1
                    if r.status != 200:
                        time.sleep(0.02)
                except (OSError, http.client.HTTPException) as err:
                    got[f"http:{type(err).__name__}"] += 1
                finally:
                    conn.close()

        with Health(server) as health:
            threads = [threading.Thread(target=over_grpc if k % 2 == 0 else over_http, args=() if k % 2 == 0 else (k,),
                                        daemon=True) for k in range(callers)]
            for th in threads:
                th.start()
            time.sleep(0.5)
            during = _bot_moves(client, seconds)
            stop.set()
            for th in threads:
                th.join(timeout=40)
    return {"check": "analysis_load", "callers": callers, "sources": sources, "attack_seconds": seconds,
            "bot_moves_per_s": {"before": round(before, 1), "during": round(during, 1)},
            "analyze_answers": dict(got), "health_ms": health.figures()}


def daily_rehearsal(identities: int = 20, game: str = "schafkopf", args: tuple = ()) -> dict:
    """Learning or rehearsing today's daily deal (issue 27, item 4), as an attacker with one
    address and no key: the hand from the public v1 seed and from the v2 formula under guessed
    keys, compared with the real daily table's; CreateTable(daily_date=today, tomorrow);
    `identities` new players from one address, and made-up player tokens. What each got."""
    import datetime as _dt
    with ServerProcess(None, *args) as server, Health(server) as health, \
            StichClient(server.address, timeout=30) as client:
        today = _dt.datetime.now(_dt.timezone.utc).date()
        real = client.daily_deal(game)
        hand, dealer = sorted(real["view"]["hand"]), real["view"]["dealer"]
        g = games.get(game)
        v1 = sorted(g.deal(games.daily_seed(game, today.isoformat()), dealer).view(0)["hand"]) == hand
        guessed = sum(sorted(g.deal(games.keyed_daily_seed(key, game, today.isoformat()), dealer).view(0)["hand"]) == hand
                      for key in (b"\0" * 32, b"\xff" * 32, b"stich-daily-v2:key", (b"daily-v2" * 4), (game * 4).encode()))
        practice: Counter = Counter()
        for day in (today, today + _dt.timedelta(days=1)):
            try:
                client.stub.CreateTable(pb.CreateTableRequest(game=game, daily_date=day.isoformat()), timeout=10)
                practice["OK"] += 1
            except grpc.RpcError as err:
                info = error_info(err)
                practice[f"{err.code().name}:{info.reason if info else ''}"] += 1
        new: Counter = Counter()
        tables = {real["table_id"]}
        for _ in range(identities):
            try:
                d = client.daily_deal(game)
                tables.add(d["table_id"])
                new["OK"] += 1
            except StichError as err:
                new[f"{err.code.name if err.code else ''}:{err.reason_id}"] += 1
        made_up: Counter = Counter()
        token = real["player_token"]
        for fake in ("player-secret-0001", "pt_" + "0" * 32 + "." + "0" * 32, token[:-1] + ("1" if token[-1] == "0" else "0"),
                     token.split(".")[0] + "." + "f" * 32):
            try:
                client.stub.GetDailyDeal(pb.GetDailyDealRequest(game=game, player_token=fake), timeout=10)
                made_up["OK"] += 1
            except grpc.RpcError as err:
                info = error_info(err)
                made_up[f"{err.code().name}:{info.reason if info else ''}"] += 1
    return {"check": "daily_rehearsal", "game": game, "identities_tried": identities,
            "hand_from_v1_seed": v1, "hands_from_guessed_keys": guessed,
            "practice_tables": dict(practice), "new_identities": dict(new),
            "daily_tables_of_one_address": len(tables), "made_up_tokens": dict(made_up),
            "health_ms": health.figures()}


# ---- the command ---------------------------------------------------------------------------------
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("check", choices=["leaks", "fuzz", "kills", "race", "idle", "cost", "json_options",
                                          "slow_headers", "fd_exhaustion", "analysis_load", "daily_rehearsal", "all"])
    parser.add_argument("--deals", type=int, default=3, help="leaks: deals per match")
    parser.add_argument("--requests", type=int, default=100_000, help="fuzz: requests")
    parser.add_argument("--kills", type=int, default=60, help="kills: SIGKILLs")
    parser.add_argument("--rounds", type=int, default=300, help="race: rounds")
    parser.add_argument("--streams", type=int, default=500, help="idle: streams")
    parser.add_argument("--calls", type=int, default=2000, help="idle: calls measured")
    parser.add_argument("--deals-cost", type=int, default=5000, help="cost: deals dealt")
    parser.add_argument("--keys", type=int, default=60_000, help="json_options: option keys per request")
    parser.add_argument("--attackers", type=int, default=4, help="json_options: concurrent attackers")
    parser.add_argument("--connections", type=int, default=1000, help="slow_headers, fd_exhaustion: connections")
    parser.add_argument("--seconds", type=float, default=20.0, help="slow_headers: seconds the attack lasts")
    parser.add_argument("--nofile", type=int, default=1024, help="fd_exhaustion: the server's descriptor limit")
    parser.add_argument("--sources", type=int, default=0, help="slow_headers, fd_exhaustion: loopback addresses "
                        "the connections come from (default 1 and 10)")
    parser.add_argument("--callers", type=int, default=16, help="analysis_load: concurrent Analyze callers")
    parser.add_argument("--identities", type=int, default=100, help="daily_rehearsal: new players asked for")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server", help="use this server (leaks, fuzz, race, idle) instead of starting one")
    args = parser.parse_args(argv)
    checks = (["leaks", "fuzz", "kills", "race", "idle", "cost", "json_options", "slow_headers", "fd_exhaustion",
               "analysis_load", "daily_rehearsal"]
              if args.check == "all" else [args.check])
    failed = False
    for check in checks:
        t0 = time.perf_counter()
        if check == "leaks":
            out = leaks(args.deals, args.seed, address=args.server)
            failed |= out["leaks"] > 0
        elif check == "fuzz":
            out = fuzz(args.requests, args.seed, address=args.server)
            failed |= out["problems"] > 0
        elif check == "kills":
            out = kills(args.kills, args.seed)
            failed |= out["lost"] > 0
        elif check == "race":
            out = race(args.rounds, 8, args.seed, address=args.server)
            failed |= out["bad_rounds"] > 0
        elif check == "idle":
            out = idle(args.streams, args.calls, address=args.server)
        elif check == "json_options":
            out = json_options(args.attackers, args.keys)
            failed |= out["health_ms"]["grpc"]["p99"] > 100 or out["health_ms"]["http"]["p99"] > 100
        elif check == "slow_headers":
            out = slow_headers(args.connections, args.seconds, args.sources or 1)
            failed |= out["open_at_end"] > 0
        elif check == "fd_exhaustion":
            out = fd_exhaustion(max(args.connections, args.nofile + 76), args.nofile, args.sources or 10)
            failed |= not out["new_grpc_channel_answered"] or out["server_tracebacks"] > 0
        elif check == "analysis_load":
            out = analysis_load(args.callers, args.sources or 8, args.seconds)
            # the bots share the CPU with the searches but never wait behind them (before: 0 moves)
            failed |= out["bot_moves_per_s"]["during"] < out["bot_moves_per_s"]["before"] / 10
        elif check == "daily_rehearsal":
            out = daily_rehearsal(args.identities)
            failed |= (out["hand_from_v1_seed"] or out["hands_from_guessed_keys"] > 0 or "OK" in out["practice_tables"]
                       or out["daily_tables_of_one_address"] > 5 or "OK" in out["made_up_tokens"])
        else:
            out = cost(args.deals_cost, address=args.server)
        out["seconds"] = round(time.perf_counter() - t0, 1)
        print(json.dumps(out), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
