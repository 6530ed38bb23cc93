"""Sheepshead unit tests: the worked scenarios of ../shared/rules/sheepshead.md (§8) played on
their concrete deals, one test per call type, play constraint, scoring level, option, view rule
and kind of bad input."""
import json

import pytest

from engine_core import _rng, games, records
from engine_core.cards import PIQUET
from engine_core.errors import IllegalActionError, InvalidActionError, OptionError
from engine_core.games.sheepshead import GAME, rules
from engine_core.match import Match
from engine_core.state import REASONS as STATE_REASONS

from conftest import conformance_lines, without_rule_tables


# ---- helpers -------------------------------------------------------------------------------
def new(hands, blind, dealer=0, **options):
    game = games.get("sheepshead", options)
    return game.new_deal([h.split() for h in hands], dealer, blind.split())


def bid(state, call, suit=None):
    action = {"seat": state.to_act(), "type": "bid", "call": call}
    if suit:
        action["suit"] = suit
    state.apply(action)


def announce(state, call):
    state.apply({"seat": state.to_act(), "type": "announce", "call": call})


def exchange(state, call, cards):
    state.apply({"seat": state.to_act(), "type": "exchange", "call": call, "cards": cards.split()})


def play(state, cards):
    """Play these cards in order, each by the seat to act."""
    for c in cards.split():
        state.apply({"seat": state.to_act(), "type": "play", "card": c})


def legal_cards(state):
    return {a["card"] for a in state.legal_actions() if a["type"] == "play"}


def calls(state):
    return {(a["call"] + " " + a["suit"]) if "suit" in a else a["call"] for a in state.legal_actions()}


def pick_by(state, seat):
    """Everybody before `seat` passes; `seat` picks."""
    while state.to_act() != seat:
        bid(state, "pass")
    bid(state, "pick")


def scenario(ident):
    for kind in ("scenarios", "random"):
        for line in conformance_lines("sheepshead", kind):
            if line["id"] == ident:
                return line["record"]
    raise KeyError(ident)


def snapshot(state):
    return (state.phase(), state.to_act(), json.dumps(state.legal_actions(), sort_keys=True),
            len(state.actions), [state.view(s)["hand"] for s in range(5)])


D1 = ["KH 9H 8H QD JD 7D", "QC QS JC AD 7H 9S", "AH TH QH 8C 8D TS",
      "AC TC KC 9C JS 9D", "AS KS 8S 7S JH TD"], "KD 7C"
R = ["QD JD AD TD 9D 7D", "QC QS QH JC 7S 8H", "AC TC KC 9C 8C 7C",
     "AH 9H JS AS TS 8D", "TH KH KS 9S 8S JH"], "7H KD"
W15 = ["9S AH 8D TD AS QD", "7D JC JS AD KS KH", "TH TC KC 7C QS AC",
       "JD TS 8C KD JH 8S", "8H 9C 7S 9D 9H 7H"], "QC QH"
W19 = ["QS KS KH 9D 7D AD", "QH QD TH 9S 8D 9H", "JS TD 7C AS TC 7S",
       "JC KC 9C JH TS 8C", "8S 7H 8H AC JD KD"], "AH QC"
W22 = ["QD 7H KC JD 7D AD", "QC 7C 9D TD 8C KH", "JH QH 9C QS 8D TS",
       "AC KS 8S JS 7S AH", "KD TH 9H AS TC 9S"], "8H JC"


# ---- deal ----------------------------------------------------------------------------------
def test_deal_packets_w1():
    """The declared packets (rules 1.2): 3 to each seat from the dealer's left, 2 to the blind,
    3 more to each; dealt from the unshuffled deck (W1)."""
    packets = GAME.packets(games.get("sheepshead").options)
    assert packets == [(0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (None, 2),
                       (0, 3), (1, 3), (2, 3), (3, 3), (4, 3)]
    order, hands, blind, pos = list(range(32)), [[] for _ in range(5)], [], 0
    for target, size in packets:
        (blind if target is None else hands[(0 + 1 + target) % 5]).extend(order[pos:pos + size])
        pos += size
    assert [PIQUET.code(i) for i in hands[1]] == ["AC", "TC", "KC", "TH", "KH", "QH"]
    assert [PIQUET.code(i) for i in blind] == ["7S", "AH"]
    assert all(len(h) == 6 for h in hands) and pos == 32


@pytest.mark.parametrize("seed,dealer", [(0, 0), (7, 3), (2**64 - 1, 4)])
def test_seeded_deal_follows_the_packets(seed, dealer):
    """Seat dealer+1+k gets deck[3k:3k+3] + deck[17+3k:20+3k], the blind deck[15:17] (rules 1.2),
    for the deal function's deck order."""
    deck = _rng.shuffle(seed, 32)
    options = games.get("sheepshead").options
    hands, blind = rules.deal_masks(options, GAME.packets(options), seed, dealer)
    for k in range(5):
        want = deck[3 * k:3 * k + 3] + deck[17 + 3 * k:20 + 3 * k]
        assert hands[(dealer + 1 + k) % 5] == sum(1 << i for i in want)
    assert blind == (1 << deck[15]) | (1 << deck[16])


def test_seeded_deal_carries_the_blind():
    state = games.get("sheepshead").deal(seed=7, dealer=3)
    rec = state.record()
    cards = [c for h in rec["hands"] for c in h] + rec["blind"]
    assert len(rec["hands"]) == 5 and len(rec["blind"]) == 2 and len(set(cards)) == 32
    assert state.to_act() == 4
    assert rec["options"]["deals_per_match"] == 10


def test_bad_blind_is_refused():
    game = games.get("sheepshead")
    with pytest.raises(Exception, match="blind"):
        game.new_deal([h.split() for h in D1[0]], 0, ["KD"])


# ---- picking -------------------------------------------------------------------------------
def test_pick_order_and_leaster_when_all_pass():
    state = new(*W22)
    for seat in (1, 2, 3, 4, 0):
        assert state.to_act() == seat
        assert calls(state) == {"pick", "pass"}
        bid(state, "pass")
    assert state.phase() == "play" and state.to_act() == 1
    assert state.view(1)["contract"]["type"] == "leaster"


def test_forced_pick_dealer_may_not_pass_w25():
    state = new(*W22, no_pick="forced_pick")
    for _ in range(4):
        bid(state, "pass")
    assert state.to_act() == 0 and calls(state) == {"pick"}
    err = state.why_illegal({"seat": 0, "type": "bid", "call": "pass"})
    assert "must pick" in err


def test_picker_takes_the_blind_and_buries_any_two():
    state = new(*D1)
    bid(state, "pick")
    assert state.phase() == "bury"
    assert len(state.view(1)["hand"]) == 8 and {"KD", "7C"} <= set(state.view(1)["hand"])
    assert len(state.legal_actions()) == 28


# ---- calls ---------------------------------------------------------------------------------
@pytest.mark.parametrize("buried,expected", [
    ("9S KD", {"ace C", "ace H", "alone"}),
    ("9S 7C", {"ace H", "alone"}),
    ("KD 7C", {"ace H", "ace S", "alone"}),
])
def test_call_options_w2(buried, expected):
    state = new(*D1)
    bid(state, "pick")
    exchange(state, "bury", buried)
    assert state.phase() == "call" and calls(state) == expected


def test_buried_ace_cannot_be_called_w10():
    state = new(["7S 8H JD 9D JH KC", "QH 9S KH QD AC KD", "7H 8S JC JS TH TC",
                 "AH QS AD 9H 7D 7C", "8D 8C TD TS QC KS"], "AS 9C")
    bid(state, "pick")
    exchange(state, "bury", "AC KD")
    assert calls(state) == {"ace H", "alone"}
    assert "buried" in state.why_illegal({"seat": 1, "type": "bid", "call": "ace", "suit": "C"})


def test_ten_call_when_holding_all_three_aces_w14():
    state = new(["JC JS JH KS TC 8C", "AS QS AH QH KC 8H", "7S TH QC 9H 8S 7C",
                 "KH QD TD JD TS AD", "7H 9S 9C 7D KD 9D"], "8D AC")
    bid(state, "pick")
    exchange(state, "bury", "AC QS")
    assert calls(state) == {"ten C", "ten H", "ten S", "alone"}
    assert "ten instead" in state.why_illegal({"seat": 1, "type": "bid", "call": "ace", "suit": "C"})
    bid(state, "ten", "C")
    assert state.result() is None and state.phase() == "play"
    assert state.view(0)["contract"]["partner"] == 0      # the partner knows himself
    assert state.view(2)["contract"]["partner"] is None


def test_ten_partner_must_play_the_ten_when_its_suit_is_first_led_w14():
    rec = scenario("seed_found_deals[W14_ten_called]#1")
    legal = []
    records.replay(rec, legal)
    # T5 s1: KC 7C AD 9C TC; s0 holds TC and 8C and must play TC
    idx = next(i for i, a in enumerate(rec["actions"]) if a.get("card") == "TC" and a["seat"] == 0)
    assert [a["card"] for a in legal[idx]] == ["TC"]


def _w15_unknown_called():
    state = new(*W15)
    bid(state, "pick")
    exchange(state, "bury", "KS KH")
    assert calls(state) == {"unknown_ace C", "unknown_ace S", "unknown_ace H", "alone"}
    bid(state, "unknown_ace", "C")
    assert state.phase() == "unknown"
    assert {a["cards"][0] for a in state.legal_actions()} == {"7D", "JC", "JS", "AD", "QC", "QH"}
    return state


def test_unknown_ace_calls_and_card_w15():
    state = _w15_unknown_called()
    assert state.view(2)["contract"]["partner"] == 2 and state.view(0)["contract"]["partner"] is None


def test_unknown_card_cannot_win_and_its_points_go_to_the_winner_w15():
    rec = scenario("W15_unknown_card#1")
    result = records.replay(rec).result()
    assert result["tricks"][1] == [2, ["AC", "8C", "9C", "AS", "QH"], 2]
    assert result["contract"]["unknown_card"] == "QH"
    assert result["scores"] == [-2, 4, 2, -2, -2]


def test_unknown_card_is_kept_and_led_as_the_called_suit_w15():
    state = _w15_unknown_called()
    exchange(state, "unknown", "7D")
    # variant 1: T1 JC QS JH 9D 8D (s2 wins), s2 leads TH; s1 void may not throw the unknown
    play(state, "JC QS JH 9D 8D")
    assert state.to_act() == 2
    play(state, "TH JD 8H AH")
    assert state.to_act() == 1 and legal_cards(state) == {"AD", "JS", "QC", "QH"}

    # variant 2: s1 leads the unknown 7D to trick 1: a club lead
    state = _w15_unknown_called()
    exchange(state, "unknown", "7D")
    assert "7D" in legal_cards(state)
    play(state, "7D")
    assert legal_cards(state) == {"AC"}
    play(state, "AC")
    assert legal_cards(state) == {"8C"}
    play(state, "8C")
    assert legal_cards(state) == {"9C"}
    play(state, "9C")
    assert legal_cards(state) == {"9S", "AH", "8D", "TD", "AS", "QD"}
    trumped = state.copy()
    play(trumped, "QD")
    assert trumped.view(0)["tricks"][0][2] == 0
    play(state, "9S")
    assert state.view(1)["tricks"][0][2] == 2            # AC wins, the unknown never does


def test_bury_and_unknown_card_are_hidden_piles_for_everyone_but_the_picker_w15():
    blind = {"pile": "blind", "from_seat": None, "to_seat": None, "count": 2, "action": None, "among": None}
    state = new(*W15)
    assert all(state.view(s)["hidden"] == [blind] for s in [*range(5), None])
    state = _w15_unknown_called()
    exchange(state, "unknown", "7D")
    picked = {**blind, "to_seat": 1}
    bury = {"pile": "bury", "from_seat": 1, "to_seat": None, "count": 2, "action": 1, "among": None}
    unknown = {"pile": "unknown", "from_seat": 1, "to_seat": 1, "count": 1, "action": 3, "among": None}
    assert state.actions[1]["call"] == "bury" and state.actions[3]["call"] == "unknown"
    for seat in (0, 2, 3, 4, None):
        assert state.view(seat)["hidden"] == [picked, bury, unknown]
        assert state.view(seat)["actions"][1]["cards"] == ["??", "??"]
    assert state.view(1)["hidden"] == []
    play(state, "7D")                     # played face down: still the picker's hidden card
    assert state.view(2)["hidden"] == [picked, bury, unknown]
    assert state.view(2)["trick"]["cards"] == ["??"]


def test_forced_alone_strict_and_broad_unknown_w19():
    state = new(*W19)
    bid(state, "pick")
    exchange(state, "bury", "QC 9S")
    assert calls(state) == {"alone"}
    assert "fail cards other than aces" in state.why_illegal(
        {"seat": 1, "type": "bid", "call": "unknown_ace", "suit": "C"})
    bid(state, "alone")
    assert state.view(1)["contract"]["forced_alone"] is True
    assert state.view(0)["contract"]["forced_alone"] is None  # hidden until the deal is over

    broad = new(*W19, unknown_broad=True)
    bid(broad, "pick")
    exchange(broad, "bury", "QC 9S")
    assert calls(broad) == {"unknown_ace C", "unknown_ace S", "alone"}


def test_voluntary_alone_is_not_forced():
    state = new(*D1)
    bid(state, "pick")
    exchange(state, "bury", "9S 7C")
    bid(state, "alone")
    contract = state.view(1)["contract"]
    assert contract["type"] == "alone" and contract["partner"] is None
    assert contract["forced_alone"] is False and contract["called_card"] is None


def test_jack_of_diamonds_partner_w26_w27():
    state = new(*W22, partner="jack_of_diamonds")
    bid(state, "pick")
    exchange(state, "bury", "QC 8H")
    assert calls(state) == {"jack_of_diamonds", "alone"}
    bid(state, "jack_of_diamonds")
    assert state.view(0)["contract"]["partner"] == 0 and state.view(2)["contract"]["partner"] is None
    # no play restriction: s0 may lead or discard JD at will
    state = new(["TH 7H 8S AD 7S 9C", "KC AH 9D 8H JD KD", "TS QH 7C KS QS 8D",
                 "7D TD JS KH 9H JC", "QC QD JH AC TC AS"], "9S 8C", partner="jack_of_diamonds")
    bid(state, "pick")
    exchange(state, "bury", "KC 9S")
    assert calls(state) == {"alone"}
    assert "JD yourself" in state.why_illegal({"seat": 1, "type": "bid", "call": "jack_of_diamonds"})


def test_partner_none_has_no_call_phase():
    state = new(*D1, partner="none")
    bid(state, "pick")
    exchange(state, "bury", "9S 7C")
    assert state.phase() == "play"
    c = state.view(1)["contract"]
    assert c["type"] == "alone" and c["forced_alone"] is False and c["called_card"] is None


# ---- play constraints ----------------------------------------------------------------------
def test_following_trumps_one_suit_w3():
    state = new(*D1)
    bid(state, "pick")
    exchange(state, "bury", "9S 7C")
    bid(state, "ace", "H")
    play(state, "QC")
    assert legal_cards(state) == {"8D", "QH"}
    play(state, "8D JS")
    assert legal_cards(state) == {"JH", "TD"}
    play(state, "JH")
    assert legal_cards(state) == {"QD", "JD", "7D"}
    play(state, "7D QS QH 9D TD JD")
    assert state.to_act() == 1
    play(state, "7H")                                     # hearts led for the first time
    assert legal_cards(state) == {"AH"}
    assert "must play the called card AH" in state.why_illegal({"seat": 2, "type": "play", "card": "TH"})
    play(state, "AH")
    assert legal_cards(state) == {"AC", "TC", "KC", "9C"}  # s3 void: anything
    play(state, "9C 7S")
    assert legal_cards(state) == {"KH", "9H", "8H"}


def _deal_r(dealer, buried="8H KD"):
    state = new(*R, dealer=dealer)
    pick_by(state, 1)
    exchange(state, "bury", buried)
    bid(state, "ace", "H")
    return state


def test_partner_may_not_discard_called_ace_and_picker_keeps_hold_card_w4():
    state = _deal_r(1)
    play(state, "7C")
    assert legal_cards(state) == {"9H", "JS", "AS", "TS", "8D"}
    assert "may not be discarded" in state.why_illegal({"seat": 3, "type": "play", "card": "AH"})
    play(state, "JS 8S QD")
    assert legal_cards(state) == {"QC", "QS", "QH", "JC", "7S"}
    assert "only" in state.why_illegal({"seat": 1, "type": "play", "card": "7H"})

    other = _deal_r(1, buried="7S KD")                   # keeps 8H 7H: may throw one
    play(other, "7C JS 8S QD")
    assert legal_cards(other) == {"QC", "QS", "QH", "JC", "8H", "7H"}


def test_partner_leads_called_suit_only_with_the_ace_w5():
    state = _deal_r(2)
    assert state.to_act() == 3
    assert legal_cards(state) == {"AH", "JS", "AS", "TS", "8D"}
    assert "only with the called card" in state.why_illegal({"seat": 3, "type": "play", "card": "9H"})


def test_restrictions_end_after_the_called_suit_is_led_w6():
    rec = scenario("W6_deal_R_full#1")
    legal = []
    state = records.replay(rec, legal)
    plays = [i for i, a in enumerate(rec["actions"]) if a["type"] == "play"]
    t4_s3 = plays[3 * 5 + 2]                               # T4 s1 leads QS; s3 only 9H TS
    assert {a["card"] for a in legal[t4_s3]} == {"9H", "TS"}
    assert state.result()["scores"] == [-1, 2, -1, 1, -1]


def test_last_trick_exempts_the_held_called_card():
    """The called suit never led: the partner may not discard the ace until trick 6, where it
    is his last card and may go on a trump lead; the picker's hold card likewise."""
    state = new(*R, dealer=0)
    bid(state, "pick")
    exchange(state, "bury", "8H KD")
    bid(state, "ace", "H")
    play(state, "QC 7C 8D JH 9D")
    play(state, "QS 8C JS 9S 7D")
    play(state, "QH 9C TS 8S TD")
    play(state, "JC KC AS KS AD")
    assert state.to_act() == 1 and legal_cards(state) == {"7S", "7H"}
    play(state, "7S TC")
    assert legal_cards(state) == {"9H"}                    # s3 void: keeps AH
    play(state, "9H KH JD")
    assert state.to_act() == 0
    play(state, "QD")
    assert legal_cards(state) == {"7H"}
    play(state, "7H AC")
    assert legal_cards(state) == {"AH"}
    play(state, "AH TH")
    assert state.is_over() and state.result()["tricks"][5] == [0, ["QD", "7H", "AC", "AH", "TH"], 0]


def _reason_id(state, action):
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as err:
        state.apply(action)
    assert snapshot(state) == before and err.value.reason_id in rules.REASONS
    return err.value.reason_id


def test_play_refusals_carry_reason_ids():
    state = new(*D1)                                       # W3
    bid(state, "pick")
    exchange(state, "bury", "9S 7C")
    bid(state, "ace", "H")
    play(state, "QC")
    assert _reason_id(state, {"seat": 2, "type": "play", "card": "TH"}) == "MUST_FOLLOW_SUIT"
    play(state, "8D JS JH 7D QS QH 9D TD JD 7H")
    assert _reason_id(state, {"seat": 2, "type": "play", "card": "TH"}) == "MUST_PLAY_CALLED_CARD"
    state = _deal_r(1)                                     # W4
    play(state, "7C")
    assert _reason_id(state, {"seat": 3, "type": "play", "card": "AH"}) == "CALLED_CARD_NO_DISCARD"
    play(state, "JS 8S QD")
    assert _reason_id(state, {"seat": 1, "type": "play", "card": "7H"}) == "HOLD_CARD_KEPT"
    state = _deal_r(2)                                     # W5
    assert _reason_id(state, {"seat": 3, "type": "play", "card": "9H"}) == "CALLED_SUIT_LEAD"
    state = _w15_unknown_called()                          # W15, unknown 7D
    exchange(state, "unknown", "7D")
    play(state, "JC QS JH 9D 8D TH JD 8H AH")
    assert _reason_id(state, {"seat": 1, "type": "play", "card": "7D"}) == "UNKNOWN_KEPT"
    state = _w15_unknown_called()                          # W15, unknown QH
    exchange(state, "unknown", "QH")
    play(state, "7D QS JH 9D 8D AC 8C 9C AS")
    assert _reason_id(state, {"seat": 1, "type": "play", "card": "JC"}) == "MUST_PLAY_UNKNOWN"


# ---- crack / re-crack ----------------------------------------------------------------------
def test_crack_round_w28():
    state = new(*W22, cracking=True)
    bid(state, "pick")
    exchange(state, "bury", "QC 8H")
    bid(state, "ace", "C")
    assert state.phase() == "crack" and state.to_act() == 2
    announce(state, "pass")
    assert state.to_act() == 3 and calls(state) == {"pass"}          # the partner
    assert "partner may not crack" in state.why_illegal({"seat": 3, "type": "announce", "call": "crack"})
    announce(state, "pass")
    announce(state, "crack")                                            # s4
    assert state.phase() == "recrack" and state.to_act() == 1
    announce(state, "recrack")
    assert state.phase() == "play" and state.to_act() == 1
    c = state.view(0)["contract"]
    assert c["cracked_by"] == 4 and c["recracked"] and c["multiplier"] == 4


def test_no_crack_round_when_the_dealer_picks():
    state = new(*W22, cracking=True)
    for _ in range(4):
        bid(state, "pass")
    bid(state, "pick")
    exchange(state, "bury", "KC QD")
    bid(state, "ace", "H")
    assert state.phase() == "play"


# ---- scoring -------------------------------------------------------------------------------
SCORING = [
    # id, scores, level item, sign
    ("W7_schneider_win#1", [-2, 4, 2, -2, -2], "schneider", 1),
    ("W8_simple_win#1", [-1, 2, 1, -1, -1], "game", 1),
    ("seed_found_deals[W9_sixty_sixty]#1", [2, -4, -2, 2, 2], "game", -1),
    ("seed_found_deals[W10_ninety_thirty]#1", [-1, 2, -1, 1, -1], "game", 1),
    ("seed_found_deals[W11_ninety_one]#1", [-2, 4, -2, 2, -2], "schneider", 1),
    ("seed_found_deals[W12_thirty_one]#1", [2, -4, 2, 2, -2], "game", -1),
    ("seed_found_deals[W13_thirty_schneidered]#1", [-4, -8, 4, 4, 4], "schneider", -1),
    ("seed_found_deals[W16_defenders_no_trick]#1", [-3, 6, 3, -3, -3], "no_trick", 1),
    ("seed_found_deals[W17_team_no_trick]#1", [6, -12, -6, 6, 6], "no_trick", -1),
    ("seed_found_deals[W20_alone_win]#1", [-1, 4, -1, -1, -1], "game", 1),
    ("seed_found_deals[W21_alone_loss]#1", [2, -8, 2, 2, 2], "game", -1),
    ("W27_jack_of_diamonds_picker_holds_it#1", [6, -24, 6, 6, 6], "no_trick", -1),
    ("W18_seed004_trickless_loss_partner_exempt#1", [3, -9, 0, 3, 3], "no_trick", -1),
    ("W18b_seed004_scoring_table#1", [1, -2, -1, 1, 1], "game", -1),
    ("W18b_seed004_scoring_table#2", [-2, -4, 2, 2, 2], "schneider", -1),
    ("W24_doubler_and_multiplier#2", [4, -8, -4, 4, 4], "game", -1),
    ("W28_crack_and_recrack#1", [-4, 8, -4, 4, -4], "game", 1),
    ("W28_crack_and_recrack#2", [-2, 4, -2, 2, -2], "game", 1),
]


@pytest.mark.parametrize("ident,scores,level,sign", SCORING, ids=[s[0] for s in SCORING])
def test_scoring_levels(ident, scores, level, sign):
    result = records.replay(scenario(ident)).result()
    assert result["scores"] == scores and sum(scores) == 0
    items = {b["item"]: b["value"] for b in result["breakdown"]}
    assert level in items
    assert ("picker_team_wins" if sign > 0 else "picker_team_loses") in items
    unit = items["per_defender"]
    picker = result["contract"]["picker"]
    partner = result["contract"]["partner"]
    assert scores[picker] == sign * items["picker_share"] * unit
    if partner is not None:
        assert scores[partner] == sign * items["partner_share"] * unit
    for seat in result["teams"][1]:
        assert scores[seat] == -sign * unit
    assert sum(result["card_points"]) == 120


def test_bury_counts_for_the_picker_w9():
    result = records.replay(scenario("seed_found_deals[W9_sixty_sixty]#1")).result()
    assert result["card_points"][1] == 25                 # 12 in tricks + 13 buried
    items = {b["item"]: b["value"] for b in result["breakdown"]}
    assert items["picker_team_points"] == 60 and items["double_on_the_bump"] == 2


def test_seed004_preset_w13():
    rec = scenario("seed_found_deals[W13_thirty_schneidered]#1")
    rec = {**rec, "options": games.preset("sheepshead", "seed004")}
    assert records.replay(rec).result()["scores"] == [-2, -4, 2, 2, 2]
    rec = {**rec, "options": games.preset("sheepshead", "seed004", double_on_the_bump=True)}
    assert records.replay(rec).result()["scores"] == [-4, -8, 4, 4, 4]
    with pytest.raises(OptionError):
        games.preset("sheepshead", "nope")
    assert games.get("sheepshead", games.preset("sheepshead", "seed004_literal")).options.first_leader == "dealer"


def test_leaster_winner_tie_and_blind_w22_w23():
    result = records.replay(scenario("W22_leaster_winner#1")).result()
    assert result["card_points"] == [12, 9, 72, 25, 0] and result["scores"] == [-1, 4, -1, -1, -1]
    assert result["teams"] == [[0], [1], [2], [3], [4]]
    result = records.replay(scenario("W22_leaster_winner#2")).result()
    assert result["card_points"][2] == 74
    result = records.replay(scenario("W23_leaster_tie#1")).result()
    assert result["scores"] == [0, 0, 0, 0, 0]


def test_leaster_at_a_multiplier():
    rec = scenario("W22_leaster_winner#1")
    rec = {**rec, "options": {"multiplier": 4}}
    assert records.replay(rec).result()["scores"] == [-4, 16, -4, -4, -4]


def test_doubler_stacks_and_does_not_count():
    state = new(*W22, no_pick="doubler")
    for _ in range(5):
        bid(state, "pass")
    result = state.result()
    assert result["contract"]["type"] == "doubler" and result["contract"]["next_multiplier"] == 2
    assert result["scores"] == [0] * 5 and result["teams"] == [] and result["tricks"] == []
    assert result["breakdown"] == [{"item": "doubler", "value": 2}]
    step = GAME.next_deal(result, 0, state.game.options)
    assert (step.dealer, step.counts, dict(step.carry)) == (0, False, {"multiplier": 2})
    state = new(*W22, no_pick="doubler", multiplier=step.carry["multiplier"] * 2)
    for _ in range(5):
        bid(state, "pass")
    assert state.result()["contract"]["next_multiplier"] == 8
    played = records.replay(scenario("W8_simple_win#1")).result()
    step = GAME.next_deal(played, 4, games.get("sheepshead").options)
    assert (step.dealer, step.counts, dict(step.carry)) == (0, True, {"multiplier": 1})


def test_doubler_stops_doubling_at_the_cap():
    """A doubler at the maximum multiplier (or one that would pass it) carries the cap itself,
    and the breakdown says so (doubler_cap); a deal at the cap scores in 64 bits."""
    cap = rules.MAX_MULTIPLIER
    assert cap == 2**20
    for m, want in ((cap // 2, cap), (cap - 1, cap), (cap, cap)):
        state = new(*W22, no_pick="doubler", multiplier=m)
        for _ in range(5):
            bid(state, "pass")
        result = state.result()
        assert result["contract"]["next_multiplier"] == want
        capped = 2 * m > cap
        assert ({"item": "doubler_cap", "value": cap} in result["breakdown"]) == capped
    rec = {**scenario("seed_found_deals[W17_team_no_trick]#1")}
    rec["options"] = {**rec["options"], "multiplier": cap}
    assert records.replay(rec).result()["scores"] == [6 * cap, -12 * cap, -6 * cap, 6 * cap, 6 * cap]


def test_a_match_of_many_doublers_in_a_row():
    """40 doublers in a row: the multiplier doubles to 2^20 and stays there (it used to wrap to
    -2^31 after 31), the dealer keeps the deal and no doubler counts; then a played deal."""
    game = games.get("sheepshead", {"no_pick": "doubler", "deals_per_match": 1})
    match = Match(game, seed=11, first_dealer=2)
    for k in range(40):
        state = match.deal()
        assert state.game.options.multiplier == min(2**k, rules.MAX_MULTIPLIER)
        for _ in range(5):
            result = match.apply({"seat": state.to_act(), "type": "bid", "call": "pass"})
        assert result["contract"]["type"] == "doubler" and result["scores"] == [0] * 5
        assert result["contract"]["next_multiplier"] == min(2**(k + 1), rules.MAX_MULTIPLIER)
        assert any(b["item"] == "doubler_cap" for b in result["breakdown"]) == (k >= 20)
        assert match.dealer == 2 and match.counted == 0 and not match.is_over()
    state = match.deal()
    assert state.game.options.multiplier == rules.MAX_MULTIPLIER
    match.apply({"seat": state.to_act(), "type": "bid", "call": "pick"})
    seed = 0
    while not state.is_over():
        seed += 1
        legal = state.core.legal_codes()
        result = match.apply_code(legal[seed * 7919 % len(legal)])[1]
    assert result["contract"]["multiplier"] == rules.MAX_MULTIPLIER
    assert sum(result["scores"]) == 0 and all(s % rules.MAX_MULTIPLIER == 0 for s in result["scores"])
    assert max(abs(s) for s in result["scores"]) <= 96 * rules.MAX_MULTIPLIER
    assert match.is_over() and match.counted == 1 and match.dealer == 3
    assert match.game.options.multiplier == 1


def test_first_leader_dealer():
    state = new(*D1, first_leader="dealer")
    bid(state, "pick")
    exchange(state, "bury", "9S 7C")
    bid(state, "ace", "H")
    assert state.to_act() == 0


# ---- bad input: refused with the reason and the legal alternatives, state unchanged --------
def _refused(state, action, fragment, reason_id=None, error=IllegalActionError):
    """Refused as `error` (IllegalActionError: against the rules; InvalidActionError:
    malformed), with the reason (text and id) and the legal alternatives; nothing changes."""
    before = snapshot(state)
    with pytest.raises(error) as err:
        state.apply(action)
    assert type(err.value) is error
    assert fragment in err.value.reason, err.value.reason
    assert "legal:" in err.value.reason and err.value.legal == state.legal_actions()
    if reason_id is not None:
        assert err.value.reason_id == reason_id
    assert err.value.reason_id in rules.REASONS or err.value.reason_id in STATE_REASONS
    assert snapshot(state) == before
    return err.value


def test_bad_calls_and_exchanges_are_refused():
    state = new(*D1)
    _refused(state, {"seat": 1, "type": "bid", "call": "ace", "suit": "H"}, "pick or pass first",
             "NOT_A_PICK_CALL")
    bid(state, "pick")
    _refused(state, {"seat": 1, "type": "exchange", "call": "bury", "cards": ["AH", "9S"]},
             "not in seat 1's hand", "CARDS_NOT_IN_HAND")
    _refused(state, {"seat": 1, "type": "exchange", "call": "bury", "cards": ["9S", "7C", "KD"]},
             "exactly 2", "BURY_TWO")
    _refused(state, {"seat": 1, "type": "exchange", "call": "bury", "cards": ["9S"]}, "exactly 2")
    _refused(state, {"seat": 1, "type": "exchange", "call": "unknown", "cards": ["9S"]},
             "first bury", "BURY_FIRST")
    _refused(state, {"seat": 1, "type": "bid", "call": "alone"}, "not allowed in the bury phase",
             "WRONG_PHASE")
    exchange(state, "bury", "9S 7C")
    _refused(state, {"seat": 1, "type": "bid", "call": "ace", "suit": "C"}, "no clubs card",
             "NO_CARD_OF_SUIT")
    _refused(state, {"seat": 1, "type": "bid", "call": "ace", "suit": "D"}, "possible suits",
             "NO_SUCH_CALL", InvalidActionError)
    _refused(state, {"seat": 1, "type": "bid", "call": "ten", "suit": "H"}, "all three fail aces",
             "TEN_NEEDS_ALL_ACES")
    _refused(state, {"seat": 1, "type": "bid", "call": "unknown_ace", "suit": "C"}, "an ace can be called",
             "ACE_CALLABLE")
    _refused(state, {"seat": 1, "type": "bid", "call": "jack_of_diamonds"}, "called_ace", "JD_NOT_PLAYED")
    _refused(state, {"seat": 1, "type": "bid", "call": "blitz"}, "unknown bid call", "UNKNOWN_CALL",
             InvalidActionError)
    _refused(state, {"seat": 1, "type": "exchange", "call": "unknown", "cards": ["QC"]},
             "not allowed in the call phase")
    bid(state, "ace", "H")
    _refused(state, {"seat": 1, "type": "exchange", "call": "unknown", "cards": ["QC"]},
             "not allowed in the play phase")
    _refused(state, {"seat": 1, "type": "play", "card": "QX"}, "bad card code", "BAD_CARD",
             InvalidActionError)
    _refused(state, {"seat": 1, "type": "play"}, "missing field 'card'", "MISSING_FIELD",
             InvalidActionError)
    _refused(state, {"seat": 1, "type": "play", "card": "QC", "face": "down"}, "unexpected field",
             "UNEXPECTED_FIELD", InvalidActionError)


def test_wrong_unknown_count_is_refused():
    state = _w15_unknown_called()
    _refused(state, {"seat": 1, "type": "exchange", "call": "unknown", "cards": ["7D", "JC"]},
             "exactly 1")
    _refused(state, {"seat": 1, "type": "exchange", "call": "unknown", "cards": ["KS"]},
             "not in seat 1's hand")                     # buried cards are gone
    _refused(state, {"seat": 1, "type": "exchange", "call": "bury", "cards": ["7D", "JC"]},
             "bury is done")


def test_illegal_record_names_the_index():
    rec = scenario("W8_simple_win#1")
    bad = {**rec, "actions": rec["actions"][:2] + [{"seat": 1, "type": "bid", "call": "ace", "suit": "S"}]}
    out = records.evaluate(bad)
    assert out["error"]["index"] == 2 and "legal:" in out["error"]["reason"]


# ---- views: hidden information ------------------------------------------------------------
OTHERS = (0, 2, 3, 4, None)        # every seat but the picker (seat 1 below), and a spectator


def test_blind_and_bury_are_the_pickers_alone():
    state = new(*D1)
    for seat in range(5):
        assert "KD" not in json.dumps(without_rule_tables(state.view(seat)))       # the blind is unseen before the pick
    assert "KD" not in json.dumps(without_rule_tables(state.view(None)))
    bid(state, "pick")
    exchange(state, "bury", "9S KD")
    bid(state, "ace", "C")
    assert state.view(1)["buried"] == ["KD", "9S"] and state.view(1)["blind"] == ["KD", "7C"]
    assert state.view(1)["contract"]["buried"] == ["KD", "9S"]
    assert state.view(1)["actions"][1]["cards"] == ["9S", "KD"]
    for seat in OTHERS:
        view = state.view(seat)
        text = json.dumps(without_rule_tables(view))
        assert '"KD"' not in text and '"9S"' not in text
        assert view["actions"][1]["cards"] == ["??", "??"]
        assert view["contract"]["buried"] == ["??", "??"]
        assert "blind" not in view and "buried" not in view and "unknown_card" not in view


def test_buried_cards_stay_hidden_after_the_deal():
    """W13: s1 buries 7S QH; neither ever shows to another seat or a spectator, also not in
    the finished deal's result (view and result_for), while the picker sees them."""
    rec = scenario("seed_found_deals[W13_thirty_schneidered]#1")
    state = records.replay(rec)
    assert state.is_over() and state.result()["contract"]["buried"] == ["QH", "7S"]
    assert state.result_for(1) == state.result() == state.view(1)["result"]
    for seat in OTHERS:
        view = state.view(seat)
        for shown in (view, view["result"], state.result_for(seat)):
            text = json.dumps(without_rule_tables(shown))
            assert '"QH"' not in text and '"7S"' not in text, seat
        assert view["result"] == state.result_for(seat)
        assert view["result"]["contract"]["buried"] == ["??", "??"]
        assert view["contract"]["buried"] == ["??", "??"]
        assert view["actions"][1]["cards"] == ["??", "??"]
        assert view["result"]["scores"] == [-4, -8, 4, 4, 4]
        assert view["result"]["contract"]["partner"] == 0      # everybody knows him now


def _unknown_deal():
    """W15 with QH as the unknown card, played to trick 2."""
    state = _w15_unknown_called()
    exchange(state, "unknown", "QH")
    play(state, "7D QS JH 9D 8D")
    play(state, "AC 8C 9C AS")
    return state


def test_unknown_card_is_face_down_for_every_other_seat():
    state = _unknown_deal()
    assert state.view(1)["unknown_card"] == "QH" and state.view(1)["contract"]["unknown_card"] == "QH"
    play(state, "QH")
    for seat in OTHERS:
        view = state.view(seat)
        assert '"QH"' not in json.dumps(without_rule_tables(view))
        assert view["tricks"][1][1] == ["AC", "8C", "9C", "AS", "??"]
        assert view["actions"][-1]["card"] == "??" and view["actions"][3]["cards"] == ["??"]
        assert view["contract"]["unknown_card"] == "??"
    assert state.view(1)["tricks"][1][1][-1] == "QH"
    assert state.view(1)["actions"][-1]["card"] == "QH"


def test_unknown_card_in_the_trick_in_play():
    """The unknown card led (rules 4.2): in the trick in play it is "??" to every seat but the
    picker; the spectator's view works with it there."""
    state = _w15_unknown_called()
    exchange(state, "unknown", "7D")
    play(state, "7D")
    assert state.view(1)["trick"]["cards"] == ["7D"]
    for seat in OTHERS:
        view = state.view(seat)
        assert view["trick"] == {"leader": 1, "cards": ["??"]}
        assert '"7D"' not in json.dumps(without_rule_tables(view))
        assert view["actions"][-1] == {"seat": 1, "type": "play", "card": "??"}


def test_unknown_card_stays_face_down_after_the_deal():
    state = _unknown_deal()
    play(state, "QH KC 8S 7S TD QC JC 7C JD 8H QD AH JS TH TS 7H AD TC KD 9H 9S")
    assert state.is_over()
    full = state.result()
    assert full["contract"]["unknown_card"] == "QH" and full["tricks"][1][1][-1] == "QH"
    assert state.view(1)["result"] == full and state.result_for(1) == full
    assert state.view(1)["tricks"][1][1][-1] == "QH"
    for seat in OTHERS:
        view = state.view(seat)
        for shown in (view, state.result_for(seat)):
            assert '"QH"' not in json.dumps(without_rule_tables(shown)), seat
        result = state.result_for(seat)
        assert view["result"] == result
        assert result["contract"]["unknown_card"] == "??" and result["contract"]["buried"] == ["??", "??"]
        assert result["tricks"][1] == [2, ["AC", "8C", "9C", "AS", "??"], 2]
        assert view["tricks"][1][1][-1] == "??" and view["actions"][13]["card"] == "??"
        assert result["scores"] == [-2, 4, 2, -2, -2] and result["card_points"] == full["card_points"]
    assert state.record()["actions"][3]["cards"] == ["QH"]   # the record keeps the real code


def test_partner_stays_hidden_until_the_called_card_is_played():
    state = new(*D1)
    bid(state, "pick")
    exchange(state, "bury", "9S 7C")
    bid(state, "ace", "H")
    for seat in (0, 1, 3, 4, None):
        assert state.view(seat)["contract"]["partner"] is None
    assert state.view(2)["contract"]["partner"] == 2
    assert state.view(0)["legal"] == [] and state.view(None)["legal"] == []
    play(state, "QC 8D JS JH 7D QS QH 9D TD JD 7H")
    assert state.view(0)["contract"]["partner"] is None and state.view(None)["contract"]["partner"] is None
    play(state, "AH")
    assert all(state.view(seat)["contract"]["partner"] == 2 for seat in (0, 1, 2, 3, 4, None))


def test_bad_view_seats_are_refused():
    state = new(*D1)
    for seat in (5, -1, True, "1"):
        with pytest.raises(ValueError):
            state.view(seat)


# ---- options -------------------------------------------------------------------------------
def test_options_are_validated():
    with pytest.raises(OptionError):
        games.get("sheepshead", {"partner": "ace"})
    assert games.get("sheepshead").options.as_dict() == {
        "partner": "called_ace", "no_pick": "leaster", "leaster_blind": "set_aside",
        "double_on_the_bump": True, "no_trick_partner_exempt": False, "unknown_broad": False,
        "first_leader": "eldest", "call_own_ace": False, "call_up": False, "spitz": False, "cracking": False,
        "blitz": False, "red_blitz": False, "multiplier": 1, "deals_per_match": 10}


@pytest.mark.parametrize("name", ["blitzing", "red_blitzing", "calling_up", "seven_of_diamonds", "sheepshead_call"])
@pytest.mark.parametrize("value", [True, False])
def test_options_the_rules_do_not_list_are_unknown(name, value):
    """Only the declared options are accepted: blitzing is the option `blitz` (black queens),
    red blitzing `red_blitz` (tests/test_sheepshead_red_blitz.py), calling up is `call_up`, spitz
    `spitz`."""
    with pytest.raises(OptionError, match="unknown option for sheepshead") as err:
        games.get("sheepshead", {name: value})
    assert err.value.field == f"options.{name}"


@pytest.mark.parametrize("name,low,high", [("multiplier", 1, 2**20), ("deals_per_match", 1, 1000)])
def test_integer_option_ranges(name, low, high):
    """Every integer option has a range: the ends are accepted, one beyond is refused with an
    OptionError naming the option and the range."""
    for value in (low, high):
        assert getattr(games.get("sheepshead", {name: value}).options, name) == value
    for value in (low - 1, high + 1):
        with pytest.raises(OptionError, match=f"{low}..{high}") as err:
            games.get("sheepshead", {name: value})
        assert err.value.field == f"options.{name}"
    spec = next(s for s in GAME.options if s.name == name)
    assert (spec.minimum, spec.maximum) == (low, high) and f"{high}" in spec.description


def test_presets_are_declared():
    assert GAME.presets["seed004"] == {"double_on_the_bump": False, "no_trick_partner_exempt": True}
    assert games.preset("sheepshead", "seed004_literal", cracking=True) == {
        "double_on_the_bump": False, "no_trick_partner_exempt": True, "first_leader": "dealer",
        "cracking": True}
    assert not hasattr(rules, "preset")
