from google.protobuf import struct_pb2 as _struct_pb2
from service.gen.stich.v1 import actions_pb2 as _actions_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Team(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ...) -> None: ...

class BreakdownItem(_message.Message):
    __slots__ = ("item", "value", "count", "factor", "team", "extra")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    FACTOR_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    EXTRA_FIELD_NUMBER: _ClassVar[int]
    item: str
    value: int
    count: int
    factor: int
    team: int
    extra: _struct_pb2.Struct
    def __init__(self, item: _Optional[str] = ..., value: _Optional[int] = ..., count: _Optional[int] = ..., factor: _Optional[int] = ..., team: _Optional[int] = ..., extra: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class DealResult(_message.Message):
    __slots__ = ("contract", "teams", "tricks", "card_points", "scores", "breakdown", "extra")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    CARD_POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    EXTRA_FIELD_NUMBER: _ClassVar[int]
    contract: _struct_pb2.Struct
    teams: _containers.RepeatedCompositeFieldContainer[Team]
    tricks: _containers.RepeatedCompositeFieldContainer[_actions_pb2.Trick]
    card_points: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    breakdown: _containers.RepeatedCompositeFieldContainer[BreakdownItem]
    extra: _struct_pb2.Struct
    def __init__(self, contract: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., teams: _Optional[_Iterable[_Union[Team, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[_actions_pb2.Trick, _Mapping]]] = ..., card_points: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., breakdown: _Optional[_Iterable[_Union[BreakdownItem, _Mapping]]] = ..., extra: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class EvaluationError(_message.Message):
    __slots__ = ("index", "reason")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    index: int
    reason: str
    def __init__(self, index: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...
