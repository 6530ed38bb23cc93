from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OptionSchema(_message.Message):
    __slots__ = ("name", "type", "default_value", "description", "status", "allowed", "minimum", "maximum")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    default_value: _struct_pb2.Value
    description: str
    status: str
    allowed: _containers.RepeatedCompositeFieldContainer[_struct_pb2.Value]
    minimum: int
    maximum: int
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., default_value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., description: _Optional[str] = ..., status: _Optional[str] = ..., allowed: _Optional[_Iterable[_Union[_struct_pb2.Value, _Mapping]]] = ..., minimum: _Optional[int] = ..., maximum: _Optional[int] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "seats", "hand_size", "blind_size", "options", "words", "presets")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    BLIND_SIZE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    PRESETS_FIELD_NUMBER: _ClassVar[int]
    name: str
    seats: int
    hand_size: int
    blind_size: int
    options: _containers.RepeatedCompositeFieldContainer[OptionSchema]
    words: _struct_pb2.Struct
    presets: _containers.RepeatedCompositeFieldContainer[Preset]
    def __init__(self, name: _Optional[str] = ..., seats: _Optional[int] = ..., hand_size: _Optional[int] = ..., blind_size: _Optional[int] = ..., options: _Optional[_Iterable[_Union[OptionSchema, _Mapping]]] = ..., words: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., presets: _Optional[_Iterable[_Union[Preset, _Mapping]]] = ...) -> None: ...

class Preset(_message.Message):
    __slots__ = ("name", "options")
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    name: str
    options: _struct_pb2.Struct
    def __init__(self, name: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
