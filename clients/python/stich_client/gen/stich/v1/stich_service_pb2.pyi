from google.protobuf import struct_pb2 as _struct_pb2
from stich_client.gen.stich.v1 import actions_pb2 as _actions_pb2
from stich_client.gen.stich.v1 import games_pb2 as _games_pb2
from stich_client.gen.stich.v1 import results_pb2 as _results_pb2
from stich_client.gen.stich.v1 import tables_pb2 as _tables_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[_games_pb2.GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[_games_pb2.GameInfo, _Mapping]]] = ...) -> None: ...

class CreateTableRequest(_message.Message):
    __slots__ = ("game", "options", "deals_per_match", "seats", "seed", "daily_date", "settings")
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DEALS_PER_MATCH_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DAILY_DATE_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    game: str
    options: _struct_pb2.Struct
    deals_per_match: int
    seats: _containers.RepeatedScalarFieldContainer[_tables_pb2.SeatKind]
    seed: int
    daily_date: str
    settings: _tables_pb2.TableSettings
    def __init__(self, game: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., deals_per_match: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[_tables_pb2.SeatKind, str]]] = ..., seed: _Optional[int] = ..., daily_date: _Optional[str] = ..., settings: _Optional[_Union[_tables_pb2.TableSettings, _Mapping]] = ...) -> None: ...

class CreateTableResponse(_message.Message):
    __slots__ = ("table_id", "seat_tokens", "spectator_id", "view", "invites", "spectator_link")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_ID_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    INVITES_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_LINK_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat_tokens: _containers.RepeatedCompositeFieldContainer[_tables_pb2.SeatToken]
    spectator_id: str
    view: _tables_pb2.TableView
    invites: _containers.RepeatedCompositeFieldContainer[_tables_pb2.SeatInvite]
    spectator_link: str
    def __init__(self, table_id: _Optional[str] = ..., seat_tokens: _Optional[_Iterable[_Union[_tables_pb2.SeatToken, _Mapping]]] = ..., spectator_id: _Optional[str] = ..., view: _Optional[_Union[_tables_pb2.TableView, _Mapping]] = ..., invites: _Optional[_Iterable[_Union[_tables_pb2.SeatInvite, _Mapping]]] = ..., spectator_link: _Optional[str] = ...) -> None: ...

class JoinTableRequest(_message.Message):
    __slots__ = ("invite",)
    INVITE_FIELD_NUMBER: _ClassVar[int]
    invite: str
    def __init__(self, invite: _Optional[str] = ...) -> None: ...

class JoinTableResponse(_message.Message):
    __slots__ = ("table_id", "seat", "token", "view")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    token: str
    view: _tables_pb2.TableView
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., token: _Optional[str] = ..., view: _Optional[_Union[_tables_pb2.TableView, _Mapping]] = ...) -> None: ...

class DealRequest(_message.Message):
    __slots__ = ("table_id", "token", "expected_version", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    expected_version: int
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class DealResponse(_message.Message):
    __slots__ = ("view",)
    VIEW_FIELD_NUMBER: _ClassVar[int]
    view: _tables_pb2.TableView
    def __init__(self, view: _Optional[_Union[_tables_pb2.TableView, _Mapping]] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("table_id", "token")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("view",)
    VIEW_FIELD_NUMBER: _ClassVar[int]
    view: _tables_pb2.TableView
    def __init__(self, view: _Optional[_Union[_tables_pb2.TableView, _Mapping]] = ...) -> None: ...

class BidRequest(_message.Message):
    __slots__ = ("table_id", "token", "call", "suit", "expected_version", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    call: str
    suit: str
    expected_version: int
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., call: _Optional[str] = ..., suit: _Optional[str] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class BidResponse(_message.Message):
    __slots__ = ("view",)
    VIEW_FIELD_NUMBER: _ClassVar[int]
    view: _tables_pb2.TableView
    def __init__(self, view: _Optional[_Union[_tables_pb2.TableView, _Mapping]] = ...) -> None: ...

class ExchangeRequest(_message.Message):
    __slots__ = ("table_id", "token", "call", "cards", "expected_version", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    call: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    expected_version: int
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., call: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class ExchangeResponse(_message.Message):
    __slots__ = ("view",)
    VIEW_FIELD_NUMBER: _ClassVar[int]
    view: _tables_pb2.TableView
    def __init__(self, view: _Optional[_Union[_tables_pb2.TableView, _Mapping]] = ...) -> None: ...

class AnnounceRequest(_message.Message):
    __slots__ = ("table_id", "token", "call", "expected_version", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    call: str
    expected_version: int
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., call: _Optional[str] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class AnnounceResponse(_message.Message):
    __slots__ = ("view",)
    VIEW_FIELD_NUMBER: _ClassVar[int]
    view: _tables_pb2.TableView
    def __init__(self, view: _Optional[_Union[_tables_pb2.TableView, _Mapping]] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("table_id", "token", "card", "expected_version", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    card: str
    expected_version: int
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., card: _Optional[str] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("view",)
    VIEW_FIELD_NUMBER: _ClassVar[int]
    view: _tables_pb2.TableView
    def __init__(self, view: _Optional[_Union[_tables_pb2.TableView, _Mapping]] = ...) -> None: ...

class ScoreRequest(_message.Message):
    __slots__ = ("table_id", "token", "deal_number")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    deal_number: int
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., deal_number: _Optional[int] = ...) -> None: ...

class ScoreResponse(_message.Message):
    __slots__ = ("deal_number", "result", "match_scores", "deals_finished", "deals_per_match", "match_over", "match_target")
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_SCORES_FIELD_NUMBER: _ClassVar[int]
    DEALS_FINISHED_FIELD_NUMBER: _ClassVar[int]
    DEALS_PER_MATCH_FIELD_NUMBER: _ClassVar[int]
    MATCH_OVER_FIELD_NUMBER: _ClassVar[int]
    MATCH_TARGET_FIELD_NUMBER: _ClassVar[int]
    deal_number: int
    result: _results_pb2.DealResult
    match_scores: _containers.RepeatedScalarFieldContainer[int]
    deals_finished: int
    deals_per_match: int
    match_over: bool
    match_target: int
    def __init__(self, deal_number: _Optional[int] = ..., result: _Optional[_Union[_results_pb2.DealResult, _Mapping]] = ..., match_scores: _Optional[_Iterable[int]] = ..., deals_finished: _Optional[int] = ..., deals_per_match: _Optional[int] = ..., match_over: _Optional[bool] = ..., match_target: _Optional[int] = ...) -> None: ...

class WatchTableRequest(_message.Message):
    __slots__ = ("table_id", "token", "from_version")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    from_version: int
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., from_version: _Optional[int] = ...) -> None: ...

class WatchTableResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _tables_pb2.TableEvent
    def __init__(self, event: _Optional[_Union[_tables_pb2.TableEvent, _Mapping]] = ...) -> None: ...

class EvaluateRecordsRequest(_message.Message):
    __slots__ = ("lines", "with_legal")
    LINES_FIELD_NUMBER: _ClassVar[int]
    WITH_LEGAL_FIELD_NUMBER: _ClassVar[int]
    lines: _containers.RepeatedScalarFieldContainer[str]
    with_legal: bool
    def __init__(self, lines: _Optional[_Iterable[str]] = ..., with_legal: _Optional[bool] = ...) -> None: ...

class EvaluateRecordsResponse(_message.Message):
    __slots__ = ("answers",)
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    answers: _containers.RepeatedCompositeFieldContainer[RecordAnswer]
    def __init__(self, answers: _Optional[_Iterable[_Union[RecordAnswer, _Mapping]]] = ...) -> None: ...

class EvaluateBatchRequest(_message.Message):
    __slots__ = ("lines", "with_legal", "first_number")
    LINES_FIELD_NUMBER: _ClassVar[int]
    WITH_LEGAL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NUMBER_FIELD_NUMBER: _ClassVar[int]
    lines: _containers.RepeatedScalarFieldContainer[str]
    with_legal: bool
    first_number: int
    def __init__(self, lines: _Optional[_Iterable[str]] = ..., with_legal: _Optional[bool] = ..., first_number: _Optional[int] = ...) -> None: ...

class EvaluateBatchResponse(_message.Message):
    __slots__ = ("answers",)
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    answers: _containers.RepeatedCompositeFieldContainer[RecordAnswer]
    def __init__(self, answers: _Optional[_Iterable[_Union[RecordAnswer, _Mapping]]] = ...) -> None: ...

class RecordAnswer(_message.Message):
    __slots__ = ("id", "result", "error", "legal", "json")
    ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    id: _struct_pb2.Value
    result: _results_pb2.DealResult
    error: _results_pb2.EvaluationError
    legal: _containers.RepeatedCompositeFieldContainer[_actions_pb2.LegalActions]
    json: str
    def __init__(self, id: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., result: _Optional[_Union[_results_pb2.DealResult, _Mapping]] = ..., error: _Optional[_Union[_results_pb2.EvaluationError, _Mapping]] = ..., legal: _Optional[_Iterable[_Union[_actions_pb2.LegalActions, _Mapping]]] = ..., json: _Optional[str] = ...) -> None: ...

class SimulateRequest(_message.Message):
    __slots__ = ("game", "options", "deals", "seed")
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    game: str
    options: _struct_pb2.Struct
    deals: int
    seed: int
    def __init__(self, game: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., deals: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class SimulateResponse(_message.Message):
    __slots__ = ("deals", "contracts", "mean_scores", "seconds", "deals_per_second", "engine")
    class ContractsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    DEALS_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    MEAN_SCORES_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    DEALS_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    deals: int
    contracts: _containers.ScalarMap[str, int]
    mean_scores: _containers.RepeatedScalarFieldContainer[float]
    seconds: float
    deals_per_second: float
    engine: str
    def __init__(self, deals: _Optional[int] = ..., contracts: _Optional[_Mapping[str, int]] = ..., mean_scores: _Optional[_Iterable[float]] = ..., seconds: _Optional[float] = ..., deals_per_second: _Optional[float] = ..., engine: _Optional[str] = ...) -> None: ...

class HintRequest(_message.Message):
    __slots__ = ("table_id", "token")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class ActionHint(_message.Message):
    __slots__ = ("action", "expected", "win")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_FIELD_NUMBER: _ClassVar[int]
    WIN_FIELD_NUMBER: _ClassVar[int]
    action: _actions_pb2.Action
    expected: float
    win: float
    def __init__(self, action: _Optional[_Union[_actions_pb2.Action, _Mapping]] = ..., expected: _Optional[float] = ..., win: _Optional[float] = ...) -> None: ...

class HintResponse(_message.Message):
    __slots__ = ("version", "seat", "hints")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HINTS_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    hints: _containers.RepeatedCompositeFieldContainer[ActionHint]
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., hints: _Optional[_Iterable[_Union[ActionHint, _Mapping]]] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("record", "seat", "fair", "budget")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FAIR_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    record: str
    seat: int
    fair: bool
    budget: int
    def __init__(self, record: _Optional[str] = ..., seat: _Optional[int] = ..., fair: _Optional[bool] = ..., budget: _Optional[int] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("json",)
    JSON_FIELD_NUMBER: _ClassVar[int]
    json: str
    def __init__(self, json: _Optional[str] = ...) -> None: ...

class GetDailyDealRequest(_message.Message):
    __slots__ = ("game", "player_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    player_token: str
    def __init__(self, game: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class GetDailyDealResponse(_message.Message):
    __slots__ = ("date", "table_id", "seat", "token", "view", "player_token")
    DATE_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    date: str
    table_id: str
    seat: int
    token: str
    view: _tables_pb2.TableView
    player_token: str
    def __init__(self, date: _Optional[str] = ..., table_id: _Optional[str] = ..., seat: _Optional[int] = ..., token: _Optional[str] = ..., view: _Optional[_Union[_tables_pb2.TableView, _Mapping]] = ..., player_token: _Optional[str] = ...) -> None: ...

class SubmitDailyRequest(_message.Message):
    __slots__ = ("table_id", "token", "nickname", "player_token")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    NICKNAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    nickname: str
    player_token: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., nickname: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class SubmitDailyResponse(_message.Message):
    __slots__ = ("entry", "rank")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    entry: LeaderboardEntry
    rank: int
    def __init__(self, entry: _Optional[_Union[LeaderboardEntry, _Mapping]] = ..., rank: _Optional[int] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("game", "date", "limit")
    GAME_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    game: str
    date: str
    limit: int
    def __init__(self, game: _Optional[str] = ..., date: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class LeaderboardEntry(_message.Message):
    __slots__ = ("rank", "nickname", "score", "submitted_at")
    RANK_FIELD_NUMBER: _ClassVar[int]
    NICKNAME_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_AT_FIELD_NUMBER: _ClassVar[int]
    rank: int
    nickname: str
    score: int
    submitted_at: str
    def __init__(self, rank: _Optional[int] = ..., nickname: _Optional[str] = ..., score: _Optional[int] = ..., submitted_at: _Optional[str] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("game", "date", "entries", "total")
    GAME_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    game: str
    date: str
    entries: _containers.RepeatedCompositeFieldContainer[LeaderboardEntry]
    total: int
    def __init__(self, game: _Optional[str] = ..., date: _Optional[str] = ..., entries: _Optional[_Iterable[_Union[LeaderboardEntry, _Mapping]]] = ..., total: _Optional[int] = ...) -> None: ...
