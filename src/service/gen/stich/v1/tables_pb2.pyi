from google.protobuf import struct_pb2 as _struct_pb2
from service.gen.stich.v1 import actions_pb2 as _actions_pb2
from service.gen.stich.v1 import results_pb2 as _results_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_UNSPECIFIED: _ClassVar[SeatKind]
    SEAT_KIND_HUMAN: _ClassVar[SeatKind]
    SEAT_KIND_BOT: _ClassVar[SeatKind]

class TableStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TABLE_STATUS_UNSPECIFIED: _ClassVar[TableStatus]
    TABLE_STATUS_WAITING_FOR_DEAL: _ClassVar[TableStatus]
    TABLE_STATUS_IN_DEAL: _ClassVar[TableStatus]
    TABLE_STATUS_MATCH_OVER: _ClassVar[TableStatus]

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_KIND_UNSPECIFIED: _ClassVar[EventKind]
    EVENT_KIND_TABLE_CREATED: _ClassVar[EventKind]
    EVENT_KIND_DEAL_STARTED: _ClassVar[EventKind]
    EVENT_KIND_ACTION: _ClassVar[EventKind]
SEAT_KIND_UNSPECIFIED: SeatKind
SEAT_KIND_HUMAN: SeatKind
SEAT_KIND_BOT: SeatKind
TABLE_STATUS_UNSPECIFIED: TableStatus
TABLE_STATUS_WAITING_FOR_DEAL: TableStatus
TABLE_STATUS_IN_DEAL: TableStatus
TABLE_STATUS_MATCH_OVER: TableStatus
EVENT_KIND_UNSPECIFIED: EventKind
EVENT_KIND_TABLE_CREATED: EventKind
EVENT_KIND_DEAL_STARTED: EventKind
EVENT_KIND_ACTION: EventKind

class SeatToken(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class TableView(_message.Message):
    __slots__ = ("table_id", "version", "game", "seat", "seats", "status", "deal_number", "deals_per_match", "dealer", "phase", "to_act", "hand", "legal", "actions", "trick", "tricks", "contract", "public", "result", "match_scores", "options")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEALS_PER_MATCH_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_SCORES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    version: int
    game: str
    seat: int
    seats: _containers.RepeatedScalarFieldContainer[SeatKind]
    status: TableStatus
    deal_number: int
    deals_per_match: int
    dealer: int
    phase: str
    to_act: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    legal: _containers.RepeatedCompositeFieldContainer[_actions_pb2.Action]
    actions: _containers.RepeatedCompositeFieldContainer[_actions_pb2.Action]
    trick: _actions_pb2.Trick
    tricks: _containers.RepeatedCompositeFieldContainer[_actions_pb2.Trick]
    contract: _struct_pb2.Value
    public: _struct_pb2.Struct
    result: _results_pb2.DealResult
    match_scores: _containers.RepeatedScalarFieldContainer[int]
    options: _struct_pb2.Struct
    def __init__(self, table_id: _Optional[str] = ..., version: _Optional[int] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatKind, str]]] = ..., status: _Optional[_Union[TableStatus, str]] = ..., deal_number: _Optional[int] = ..., deals_per_match: _Optional[int] = ..., dealer: _Optional[int] = ..., phase: _Optional[str] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., legal: _Optional[_Iterable[_Union[_actions_pb2.Action, _Mapping]]] = ..., actions: _Optional[_Iterable[_Union[_actions_pb2.Action, _Mapping]]] = ..., trick: _Optional[_Union[_actions_pb2.Trick, _Mapping]] = ..., tricks: _Optional[_Iterable[_Union[_actions_pb2.Trick, _Mapping]]] = ..., contract: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., public: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., result: _Optional[_Union[_results_pb2.DealResult, _Mapping]] = ..., match_scores: _Optional[_Iterable[int]] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class TableEvent(_message.Message):
    __slots__ = ("version", "kind", "deal_number", "dealer", "action", "phase", "to_act", "result", "match_scores", "status")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_SCORES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    version: int
    kind: EventKind
    deal_number: int
    dealer: int
    action: _actions_pb2.Action
    phase: str
    to_act: int
    result: _results_pb2.DealResult
    match_scores: _containers.RepeatedScalarFieldContainer[int]
    status: TableStatus
    def __init__(self, version: _Optional[int] = ..., kind: _Optional[_Union[EventKind, str]] = ..., deal_number: _Optional[int] = ..., dealer: _Optional[int] = ..., action: _Optional[_Union[_actions_pb2.Action, _Mapping]] = ..., phase: _Optional[str] = ..., to_act: _Optional[int] = ..., result: _Optional[_Union[_results_pb2.DealResult, _Mapping]] = ..., match_scores: _Optional[_Iterable[int]] = ..., status: _Optional[_Union[TableStatus, str]] = ...) -> None: ...
