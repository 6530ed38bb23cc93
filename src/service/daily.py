"""The daily deal: one deal of each game a day, the same for every player, played against bots
at a table derived from the player's identity (so a player gets the same table all day and cannot
deal it again to try another line), and a leaderboard of the engine's scores of those tables.

Nobody learns a day's deal before playing it: its seed is keyed by the server's daily key
(`keyed_daily_seed`, the key made once and kept in the store), and no other table of a day's
deal opens before that day is over (rooms.py). A player is an identity the server issues: a
player token `pt_<id>.<mac>`, the mac an HMAC of the id under the server's daily key, so only
tokens this server issued count and a made-up one is refused (BAD_PLAYER_TOKEN) rather than
becoming a new player. New identities are limited per client address and day, one entry per
identity, and a nickname is one player's per game and day (docs/operations.md, "The daily
deal": the threat model)."""
from __future__ import annotations

import collections
import datetime as _dt
import hashlib
import hmac
import secrets

from engine_core import games, records

from . import errors
from .store import DailyEntry, Exists, NicknameTaken
from .tables import HUMAN, level_available, new_secret

DAILY_SEAT = 0
DAILY_LEVELS = ("normal", "easy")    # the daily deal's bots: the first level this build has
NICKNAME_LENGTH = 24
LEADERBOARD_LIMIT = (20, 100)
DAILY_KEY = "daily-v2"               # the server_keys row of the daily seed's key
PLAYERS_PER_ADDRESS = 5              # new player identities per client address and day
PLAYER_TOKEN_PREFIX = "pt_"
PLAYER_ID_BYTES = 16                 # the identity's random part (128 bits)
PLAYER_MAC_HEX = 32                  # the signature's hex digits (128 bits)


def utc_today() -> str:
    return _dt.datetime.now(_dt.timezone.utc).date().isoformat()


def player_hash(player_id: str) -> str:
    """What the store and a table keep of a player: a hash of the id, never the token."""
    return hashlib.sha256(f"stich-player-v2:{player_id}".encode()).hexdigest()


def player_mac(key: bytes, player_id: str) -> str:
    return hmac.new(key, f"stich-player-token:{player_id}".encode(), hashlib.sha256).hexdigest()[:PLAYER_MAC_HEX]


def issue_player_token(key: bytes) -> str:
    """A new identity: a random id signed under the server's key."""
    player_id = secrets.token_hex(PLAYER_ID_BYTES)
    return f"{PLAYER_TOKEN_PREFIX}{player_id}.{player_mac(key, player_id)}"


def player_id_of(key: bytes, token: str) -> str:
    """The id of a token this server issued; BAD_PLAYER_TOKEN for anything else (a made-up,
    altered or another server's token is refused, never taken as a new player)."""
    body = token[len(PLAYER_TOKEN_PREFIX):] if token.startswith(PLAYER_TOKEN_PREFIX) else ""
    player_id, _, mac = body.partition(".")
    if (len(player_id) != 2 * PLAYER_ID_BYTES or len(mac) != PLAYER_MAC_HEX
            or not hmac.compare_digest(mac, player_mac(key, player_id))):
        raise errors.denied("the player token was not issued by this server (GetDailyDeal with an "
                            "empty player_token issues one)", reason="BAD_PLAYER_TOKEN")
    return player_id


def check_date(date: str, field: str) -> str:
    try:
        if len(date) != 10:
            raise ValueError(date)
        return _dt.date.fromisoformat(date).isoformat()
    except ValueError:
        raise errors.invalid(field, f"must be a date YYYY-MM-DD, got {errors.short(date)}") from None


def entry_dict(e: DailyEntry, rank: int) -> dict:
    return {"rank": rank, "nickname": e.nickname, "score": e.score, "submitted_at": e.submitted_at}


class Daily:
    """GetDailyDeal, SubmitDaily and GetLeaderboard at a TableManager (today: its clock)."""

    def __init__(self, manager):
        self.manager = manager
        self._key: bytes | None = None
        self.players_per_address = PLAYERS_PER_ADDRESS
        self._new_players: dict[str, collections.Counter] = {}     # date -> (address, game) -> count

    async def key(self) -> bytes:
        """The daily seed's key: made at the first need and stored, the stored one after."""
        if self._key is None:
            self._key = bytes.fromhex(await self.manager.store.server_key(DAILY_KEY, secrets.token_hex(32)))
        return self._key

    async def seed(self, game: str, date: str) -> int:
        """The seed of `game`'s daily deal of `date` on this server (its key)."""
        return games.keyed_daily_seed(await self.key(), game, date)

    def _count_new_player(self, peer: str, date: str) -> None:
        """A new identity for `peer` today: refused beyond players_per_address."""
        for old in [d for d in self._new_players if d != date]:
            del self._new_players[old]
        seen = self._new_players.setdefault(date, collections.Counter())
        if peer and seen[peer] >= self.players_per_address:
            raise errors.exhausted("TOO_MANY_DAILY_PLAYERS", f"at most {self.players_per_address} new "
                                   "daily players a day from one address (keep the player_token "
                                   "GetDailyDeal issued and send it again)")
        seen[peer] += 1

    async def daily(self, game: str, player_token: str, peer: str = "") -> tuple[str, str, str, dict, str]:
        """The player's table of today's deal of `game`: (date, table id, token, view, player
        token). An empty player token asks for a new identity, which counts against `peer`'s new
        players of the day; any other must be one this server issued."""
        m = self.manager
        if not game:
            raise errors.invalid("game", f"missing; games are {', '.join(games.available())}")
        g = games.get(game, {})
        key = await self.key()
        date = m.today()
        if player_token:
            player_id = player_id_of(key, player_token)
        else:
            self._count_new_player(peer, date)
            player_token = issue_player_token(key)
            player_id = player_id_of(key, player_token)
        player = player_hash(player_id)
        table_id = "t_d" + hashlib.sha256(f"{game}:{date}:{player}".encode()).hexdigest()[:30]
        token = "st_" + hmac.new(key, f"daily-seat:{player_token}:{table_id}".encode(),
                                 hashlib.sha256).hexdigest()[:32] + "." + table_id
        try:
            table = await m.table(table_id)
        except errors.ServiceError as err:
            if err.reason != "TABLE_NOT_FOUND":
                raise
            level = next(lv for lv in DAILY_LEVELS if level_available(lv))
            seats = [HUMAN if s == DAILY_SEAT else f"bot:{level}" for s in range(g.seats)]
            seed = await self.seed(game, date)
            try:
                table = await m.rooms.open_table(
                    table_id, g, seed, 1, seats, {DAILY_SEAT: token},
                    new_secret("sp_", table_id), {}, {"bot_delay_ms": 0, "hints_disabled": True},
                    {"date": date, "player_hash": player})
            except Exists:                                   # a racing call of the same player
                table = await m.table(table_id)
        if table.match.dealt == 0:
            try:
                await m.deal(table_id, token, 1)
            except errors.ServiceError as err:
                if err.reason != "STALE_VERSION":            # another call dealt it meanwhile
                    raise
        return date, table_id, token, await m.view(table_id, token), player_token

    async def submit(self, table_id: str, token: str, nickname: str, player_token: str) -> tuple[dict, int]:
        """Enter the finished daily deal of the token's seat: the engine's score of the table's
        record, never a client's number. (entry, rank)."""
        m = self.manager
        nickname = nickname.strip()
        if not 1 <= len(nickname) <= NICKNAME_LENGTH or not nickname.isprintable():
            raise errors.invalid("nickname", f"must be 1 to {NICKNAME_LENGTH} printable characters, "
                                 f"got {errors.short(nickname)}", reason="BAD_NICKNAME")
        player_id = player_id_of(await self.key(), player_token)
        table = await m.table(table_id)
        seat = table.seat_of(token)
        daily = table.spec.daily
        if daily is None:
            raise errors.precondition("NOT_A_DAILY_TABLE", f"table {errors.short(table.id)} is not a daily-deal "
                                      "table (GetDailyDeal opens one)")
        if not hmac.compare_digest(player_hash(player_id), daily["player_hash"]):
            raise errors.denied("the player token is not the one this daily table was opened with",
                                reason="BAD_PLAYER_TOKEN")
        today = m.today()
        if daily["date"] != today:
            raise errors.precondition("DAILY_NOT_TODAY", f"the table is the deal of {daily['date']}; "
                                      f"today's ({today}) is the only one the leaderboard takes")
        state = table.match.current
        if state is None or not state.is_over():
            raise errors.precondition("DEAL_NOT_FINISHED", "the daily deal is not finished yet")
        answer = await m.work(records.evaluate, state.record())
        score = answer["result"]["scores"][seat]
        entry = DailyEntry(table.spec.game, daily["date"], daily["player_hash"], nickname, score, table.id,
                           _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="microseconds"))
        try:
            await m.store.add_daily_entry(entry)
        except NicknameTaken:
            raise errors.already_exists("NICKNAME_TAKEN", f"another player of {entry.game} on {entry.date} "
                                        f"is called {nickname}: choose another nickname") from None
        except Exists:
            raise errors.already_exists("DAILY_ALREADY_SUBMITTED", f"this player already has an entry for "
                                        f"{entry.game} on {entry.date}") from None
        entries, total = await m.store.daily_entries(entry.game, entry.date, 10 ** 6)
        rank = next(i for i, e in enumerate(entries, 1) if e.player_hash == entry.player_hash)
        return entry_dict(entry, rank), rank

    async def leaderboard(self, game: str, date: str, limit: int) -> dict:
        m = self.manager
        if game not in games.available():
            raise errors.invalid("game", f"unknown game {errors.short(game)}; games are "
                                 f"{', '.join(games.available())}")
        date = check_date(date, "date") if date else m.today()
        default, most = LEADERBOARD_LIMIT
        if not 0 <= limit <= most:
            raise errors.invalid("limit", f"must be 1..{most} (0: {default}), got {limit}")
        entries, total = await m.store.daily_entries(game, date, limit or default)
        return {"game": game, "date": date, "total": total,
                "entries": [entry_dict(e, i) for i, e in enumerate(entries, 1)]}
