from stich_client.gen.stich.v1 import actions_pb2 as _actions_pb2
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

class Contract(_message.Message):
    __slots__ = ("type", "declarer", "suit", "partner", "kontra", "re", "trumps", "solo", "scored_as_solo", "clarified_in_trick", "acceptor", "given", "returned", "redeal", "picker", "called_card", "unknown_card", "buried", "forced_alone", "multiplier", "cracked_by", "recracked", "next_multiplier", "trump", "maker", "forced", "ruleset", "outcome", "bid", "solo_kind", "vorfuehrung")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    PARTNER_FIELD_NUMBER: _ClassVar[int]
    KONTRA_FIELD_NUMBER: _ClassVar[int]
    RE_FIELD_NUMBER: _ClassVar[int]
    TRUMPS_FIELD_NUMBER: _ClassVar[int]
    SOLO_FIELD_NUMBER: _ClassVar[int]
    SCORED_AS_SOLO_FIELD_NUMBER: _ClassVar[int]
    CLARIFIED_IN_TRICK_FIELD_NUMBER: _ClassVar[int]
    ACCEPTOR_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    RETURNED_FIELD_NUMBER: _ClassVar[int]
    REDEAL_FIELD_NUMBER: _ClassVar[int]
    PICKER_FIELD_NUMBER: _ClassVar[int]
    CALLED_CARD_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN_CARD_FIELD_NUMBER: _ClassVar[int]
    BURIED_FIELD_NUMBER: _ClassVar[int]
    FORCED_ALONE_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    CRACKED_BY_FIELD_NUMBER: _ClassVar[int]
    RECRACKED_FIELD_NUMBER: _ClassVar[int]
    NEXT_MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    MAKER_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    SOLO_KIND_FIELD_NUMBER: _ClassVar[int]
    VORFUEHRUNG_FIELD_NUMBER: _ClassVar[int]
    type: str
    declarer: int
    suit: str
    partner: int
    kontra: int
    re: int
    trumps: str
    solo: str
    scored_as_solo: bool
    clarified_in_trick: int
    acceptor: int
    given: _containers.RepeatedScalarFieldContainer[str]
    returned: _containers.RepeatedScalarFieldContainer[str]
    redeal: bool
    picker: int
    called_card: str
    unknown_card: str
    buried: _containers.RepeatedScalarFieldContainer[str]
    forced_alone: bool
    multiplier: int
    cracked_by: int
    recracked: bool
    next_multiplier: int
    trump: str
    maker: int
    forced: bool
    ruleset: str
    outcome: str
    bid: str
    solo_kind: str
    vorfuehrung: int
    def __init__(self, type: _Optional[str] = ..., declarer: _Optional[int] = ..., suit: _Optional[str] = ..., partner: _Optional[int] = ..., kontra: _Optional[int] = ..., re: _Optional[int] = ..., trumps: _Optional[str] = ..., solo: _Optional[str] = ..., scored_as_solo: _Optional[bool] = ..., clarified_in_trick: _Optional[int] = ..., acceptor: _Optional[int] = ..., given: _Optional[_Iterable[str]] = ..., returned: _Optional[_Iterable[str]] = ..., redeal: _Optional[bool] = ..., picker: _Optional[int] = ..., called_card: _Optional[str] = ..., unknown_card: _Optional[str] = ..., buried: _Optional[_Iterable[str]] = ..., forced_alone: _Optional[bool] = ..., multiplier: _Optional[int] = ..., cracked_by: _Optional[int] = ..., recracked: _Optional[bool] = ..., next_multiplier: _Optional[int] = ..., trump: _Optional[str] = ..., maker: _Optional[int] = ..., forced: _Optional[bool] = ..., ruleset: _Optional[str] = ..., outcome: _Optional[str] = ..., bid: _Optional[str] = ..., solo_kind: _Optional[str] = ..., vorfuehrung: _Optional[int] = ...) -> None: ...

class BreakdownItem(_message.Message):
    __slots__ = ("item", "value", "count", "factor", "team", "trick", "losers")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    FACTOR_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    LOSERS_FIELD_NUMBER: _ClassVar[int]
    item: str
    value: int
    count: int
    factor: int
    team: int
    trick: int
    losers: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, item: _Optional[str] = ..., value: _Optional[int] = ..., count: _Optional[int] = ..., factor: _Optional[int] = ..., team: _Optional[int] = ..., trick: _Optional[int] = ..., losers: _Optional[_Iterable[int]] = ...) -> None: ...

class Announcement(_message.Message):
    __slots__ = ("seat", "team", "call", "hand_size", "trick")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: str
    call: str
    hand_size: int
    trick: int
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[str] = ..., call: _Optional[str] = ..., hand_size: _Optional[int] = ..., trick: _Optional[int] = ...) -> None: ...

class TeamPoints(_message.Message):
    __slots__ = ("re", "kontra")
    RE_FIELD_NUMBER: _ClassVar[int]
    KONTRA_FIELD_NUMBER: _ClassVar[int]
    re: int
    kontra: int
    def __init__(self, re: _Optional[int] = ..., kontra: _Optional[int] = ...) -> None: ...

class DealResult(_message.Message):
    __slots__ = ("contract", "teams", "tricks", "card_points", "scores", "breakdown", "winners", "announcements", "counts_toward_match", "extra_points", "game_value", "next_dealer", "team_card_points", "winner", "redeal", "team_totals", "bock_triggers")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    CARD_POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENTS_FIELD_NUMBER: _ClassVar[int]
    COUNTS_TOWARD_MATCH_FIELD_NUMBER: _ClassVar[int]
    EXTRA_POINTS_FIELD_NUMBER: _ClassVar[int]
    GAME_VALUE_FIELD_NUMBER: _ClassVar[int]
    NEXT_DEALER_FIELD_NUMBER: _ClassVar[int]
    TEAM_CARD_POINTS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    REDEAL_FIELD_NUMBER: _ClassVar[int]
    TEAM_TOTALS_FIELD_NUMBER: _ClassVar[int]
    BOCK_TRIGGERS_FIELD_NUMBER: _ClassVar[int]
    contract: Contract
    teams: _containers.RepeatedCompositeFieldContainer[Team]
    tricks: _containers.RepeatedCompositeFieldContainer[_actions_pb2.Trick]
    card_points: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    breakdown: _containers.RepeatedCompositeFieldContainer[BreakdownItem]
    winners: _containers.RepeatedScalarFieldContainer[int]
    announcements: _containers.RepeatedCompositeFieldContainer[Announcement]
    counts_toward_match: bool
    extra_points: TeamPoints
    game_value: int
    next_dealer: int
    team_card_points: TeamPoints
    winner: str
    redeal: bool
    team_totals: _containers.RepeatedScalarFieldContainer[int]
    bock_triggers: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, contract: _Optional[_Union[Contract, _Mapping]] = ..., teams: _Optional[_Iterable[_Union[Team, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[_actions_pb2.Trick, _Mapping]]] = ..., card_points: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., breakdown: _Optional[_Iterable[_Union[BreakdownItem, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ..., announcements: _Optional[_Iterable[_Union[Announcement, _Mapping]]] = ..., counts_toward_match: _Optional[bool] = ..., extra_points: _Optional[_Union[TeamPoints, _Mapping]] = ..., game_value: _Optional[int] = ..., next_dealer: _Optional[int] = ..., team_card_points: _Optional[_Union[TeamPoints, _Mapping]] = ..., winner: _Optional[str] = ..., redeal: _Optional[bool] = ..., team_totals: _Optional[_Iterable[int]] = ..., bock_triggers: _Optional[_Iterable[str]] = ...) -> None: ...

class EvaluationError(_message.Message):
    __slots__ = ("index", "reason", "reason_id")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    REASON_ID_FIELD_NUMBER: _ClassVar[int]
    index: int
    reason: str
    reason_id: str
    def __init__(self, index: _Optional[int] = ..., reason: _Optional[str] = ..., reason_id: _Optional[str] = ...) -> None: ...
