from google.protobuf import struct_pb2 as _struct_pb2
from stich_client.gen.stich.v1 import actions_pb2 as _actions_pb2
from stich_client.gen.stich.v1 import results_pb2 as _results_pb2
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
    SEAT_KIND_OPEN: _ClassVar[SeatKind]
    SEAT_KIND_BOT_EASY: _ClassVar[SeatKind]
    SEAT_KIND_BOT_NORMAL: _ClassVar[SeatKind]
    SEAT_KIND_BOT_HARD: _ClassVar[SeatKind]

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
    EVENT_KIND_SEAT_JOINED: _ClassVar[EventKind]
SEAT_KIND_UNSPECIFIED: SeatKind
SEAT_KIND_HUMAN: SeatKind
SEAT_KIND_BOT: SeatKind
SEAT_KIND_OPEN: SeatKind
SEAT_KIND_BOT_EASY: SeatKind
SEAT_KIND_BOT_NORMAL: SeatKind
SEAT_KIND_BOT_HARD: SeatKind
TABLE_STATUS_UNSPECIFIED: TableStatus
TABLE_STATUS_WAITING_FOR_DEAL: TableStatus
TABLE_STATUS_IN_DEAL: TableStatus
TABLE_STATUS_MATCH_OVER: TableStatus
EVENT_KIND_UNSPECIFIED: EventKind
EVENT_KIND_TABLE_CREATED: EventKind
EVENT_KIND_DEAL_STARTED: EventKind
EVENT_KIND_ACTION: EventKind
EVENT_KIND_SEAT_JOINED: EventKind

class SeatToken(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class SeatInvite(_message.Message):
    __slots__ = ("seat", "code", "link")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    LINK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    code: str
    link: str
    def __init__(self, seat: _Optional[int] = ..., code: _Optional[str] = ..., link: _Optional[str] = ...) -> None: ...

class TableSettings(_message.Message):
    __slots__ = ("bot_delay_ms", "hints_disabled")
    BOT_DELAY_MS_FIELD_NUMBER: _ClassVar[int]
    HINTS_DISABLED_FIELD_NUMBER: _ClassVar[int]
    bot_delay_ms: int
    hints_disabled: bool
    def __init__(self, bot_delay_ms: _Optional[int] = ..., hints_disabled: _Optional[bool] = ...) -> None: ...

class KnownTeams(_message.Message):
    __slots__ = ("re", "kontra", "complete")
    RE_FIELD_NUMBER: _ClassVar[int]
    KONTRA_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    re: _containers.RepeatedScalarFieldContainer[int]
    kontra: _containers.RepeatedScalarFieldContainer[int]
    complete: bool
    def __init__(self, re: _Optional[_Iterable[int]] = ..., kontra: _Optional[_Iterable[int]] = ..., complete: _Optional[bool] = ...) -> None: ...

class Armut(_message.Message):
    __slots__ = ("poor", "acceptor")
    POOR_FIELD_NUMBER: _ClassVar[int]
    ACCEPTOR_FIELD_NUMBER: _ClassVar[int]
    poor: int
    acceptor: int
    def __init__(self, poor: _Optional[int] = ..., acceptor: _Optional[int] = ...) -> None: ...

class Auction(_message.Message):
    __slots__ = ("bids", "passes", "picker")
    BIDS_FIELD_NUMBER: _ClassVar[int]
    PASSES_FIELD_NUMBER: _ClassVar[int]
    PICKER_FIELD_NUMBER: _ClassVar[int]
    bids: _containers.RepeatedScalarFieldContainer[str]
    passes: int
    picker: int
    def __init__(self, bids: _Optional[_Iterable[str]] = ..., passes: _Optional[int] = ..., picker: _Optional[int] = ...) -> None: ...

class CardOrder(_message.Message):
    __slots__ = ("trump", "clubs", "spades", "hearts", "diamonds")
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    CLUBS_FIELD_NUMBER: _ClassVar[int]
    SPADES_FIELD_NUMBER: _ClassVar[int]
    HEARTS_FIELD_NUMBER: _ClassVar[int]
    DIAMONDS_FIELD_NUMBER: _ClassVar[int]
    trump: _containers.RepeatedScalarFieldContainer[str]
    clubs: _containers.RepeatedScalarFieldContainer[str]
    spades: _containers.RepeatedScalarFieldContainer[str]
    hearts: _containers.RepeatedScalarFieldContainer[str]
    diamonds: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, trump: _Optional[_Iterable[str]] = ..., clubs: _Optional[_Iterable[str]] = ..., spades: _Optional[_Iterable[str]] = ..., hearts: _Optional[_Iterable[str]] = ..., diamonds: _Optional[_Iterable[str]] = ...) -> None: ...

class TableView(_message.Message):
    __slots__ = ("table_id", "version", "game", "seat", "seats", "status", "deal_number", "deals_per_match", "dealer", "phase", "to_act", "hand", "legal", "actions", "trick", "tricks", "contract", "auction", "result", "match_scores", "options", "deals_counted", "tricks_won", "hand_sizes", "teams", "partnerships", "announcements", "levels", "armut", "blind", "buried", "unknown_card", "roem", "settings", "order", "points", "sides", "hidden", "shown", "match_target", "shown_hands")
    class PointsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
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
    AUCTION_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_SCORES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DEALS_COUNTED_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    PARTNERSHIPS_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENTS_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    ARMUT_FIELD_NUMBER: _ClassVar[int]
    BLIND_FIELD_NUMBER: _ClassVar[int]
    BURIED_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN_CARD_FIELD_NUMBER: _ClassVar[int]
    ROEM_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    MATCH_TARGET_FIELD_NUMBER: _ClassVar[int]
    SHOWN_HANDS_FIELD_NUMBER: _ClassVar[int]
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
    contract: _results_pb2.Contract
    auction: Auction
    result: _results_pb2.DealResult
    match_scores: _containers.RepeatedScalarFieldContainer[int]
    options: _struct_pb2.Struct
    deals_counted: int
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    teams: KnownTeams
    partnerships: _containers.RepeatedCompositeFieldContainer[_results_pb2.Team]
    announcements: _containers.RepeatedCompositeFieldContainer[_results_pb2.Announcement]
    levels: _results_pb2.TeamPoints
    armut: Armut
    blind: _containers.RepeatedScalarFieldContainer[str]
    buried: _containers.RepeatedScalarFieldContainer[str]
    unknown_card: str
    roem: _containers.RepeatedCompositeFieldContainer[_results_pb2.BreakdownItem]
    settings: TableSettings
    order: CardOrder
    points: _containers.ScalarMap[str, int]
    sides: Sides
    hidden: _containers.RepeatedCompositeFieldContainer[HiddenPile]
    shown: ShownHand
    match_target: int
    shown_hands: _containers.RepeatedCompositeFieldContainer[ShownHand]
    def __init__(self, table_id: _Optional[str] = ..., version: _Optional[int] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatKind, str]]] = ..., status: _Optional[_Union[TableStatus, str]] = ..., deal_number: _Optional[int] = ..., deals_per_match: _Optional[int] = ..., dealer: _Optional[int] = ..., phase: _Optional[str] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., legal: _Optional[_Iterable[_Union[_actions_pb2.Action, _Mapping]]] = ..., actions: _Optional[_Iterable[_Union[_actions_pb2.Action, _Mapping]]] = ..., trick: _Optional[_Union[_actions_pb2.Trick, _Mapping]] = ..., tricks: _Optional[_Iterable[_Union[_actions_pb2.Trick, _Mapping]]] = ..., contract: _Optional[_Union[_results_pb2.Contract, _Mapping]] = ..., auction: _Optional[_Union[Auction, _Mapping]] = ..., result: _Optional[_Union[_results_pb2.DealResult, _Mapping]] = ..., match_scores: _Optional[_Iterable[int]] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., deals_counted: _Optional[int] = ..., tricks_won: _Optional[_Iterable[int]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., teams: _Optional[_Union[KnownTeams, _Mapping]] = ..., partnerships: _Optional[_Iterable[_Union[_results_pb2.Team, _Mapping]]] = ..., announcements: _Optional[_Iterable[_Union[_results_pb2.Announcement, _Mapping]]] = ..., levels: _Optional[_Union[_results_pb2.TeamPoints, _Mapping]] = ..., armut: _Optional[_Union[Armut, _Mapping]] = ..., blind: _Optional[_Iterable[str]] = ..., buried: _Optional[_Iterable[str]] = ..., unknown_card: _Optional[str] = ..., roem: _Optional[_Iterable[_Union[_results_pb2.BreakdownItem, _Mapping]]] = ..., settings: _Optional[_Union[TableSettings, _Mapping]] = ..., order: _Optional[_Union[CardOrder, _Mapping]] = ..., points: _Optional[_Mapping[str, int]] = ..., sides: _Optional[_Union[Sides, _Mapping]] = ..., hidden: _Optional[_Iterable[_Union[HiddenPile, _Mapping]]] = ..., shown: _Optional[_Union[ShownHand, _Mapping]] = ..., match_target: _Optional[int] = ..., shown_hands: _Optional[_Iterable[_Union[ShownHand, _Mapping]]] = ...) -> None: ...

class ShownHand(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Sides(_message.Message):
    __slots__ = ("partners", "opponents")
    PARTNERS_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    partners: _containers.RepeatedScalarFieldContainer[int]
    opponents: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, partners: _Optional[_Iterable[int]] = ..., opponents: _Optional[_Iterable[int]] = ...) -> None: ...

class HiddenPile(_message.Message):
    __slots__ = ("pile", "from_seat", "to_seat", "count", "action", "among")
    PILE_FIELD_NUMBER: _ClassVar[int]
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    AMONG_FIELD_NUMBER: _ClassVar[int]
    pile: str
    from_seat: int
    to_seat: int
    count: int
    action: int
    among: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, pile: _Optional[str] = ..., from_seat: _Optional[int] = ..., to_seat: _Optional[int] = ..., count: _Optional[int] = ..., action: _Optional[int] = ..., among: _Optional[_Iterable[str]] = ...) -> None: ...

class TableEvent(_message.Message):
    __slots__ = ("version", "kind", "deal_number", "dealer", "action", "phase", "to_act", "result", "match_scores", "status", "seat")
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
    SEAT_FIELD_NUMBER: _ClassVar[int]
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
    seat: int
    def __init__(self, version: _Optional[int] = ..., kind: _Optional[_Union[EventKind, str]] = ..., deal_number: _Optional[int] = ..., dealer: _Optional[int] = ..., action: _Optional[_Union[_actions_pb2.Action, _Mapping]] = ..., phase: _Optional[str] = ..., to_act: _Optional[int] = ..., result: _Optional[_Union[_results_pb2.DealResult, _Mapping]] = ..., match_scores: _Optional[_Iterable[int]] = ..., status: _Optional[_Union[TableStatus, str]] = ..., seat: _Optional[int] = ...) -> None: ...
