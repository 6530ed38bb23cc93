"""Doppelkopf unit tests on concrete deals: the worked layouts of ../shared/rules/doppelkopf.md
section 8 (L1 and its variants), hand-made Armut and solo deals, and every reservation, card
order, announcement threshold and scoring item."""
import itertools

import pytest

from engine_core import _rng, batch, games, records
from engine_core.cards import DOPPELKOPF
from engine_core.errors import IllegalActionError, InvalidActionError, OptionError
from engine_core.games.doppelkopf import rules

# ---- layout L1 (rules 8): rows are tricks, columns seats 0..3; dealer 3, seat 0 leads ----
L1 = [
    ["QC", "9D", "KD", "JD"],
    ["AC", "9C", "TC", "KC"],
    ["AS", "TS", "KS", "9S"],
    ["AH", "KH", "9H", "AH"],
    ["9D", "AD", "QC", "TD"],
    ["QS", "JC", "TH", "QS"],
    ["KC", "9C", "AC", "TC"],
    ["KS", "9S", "AS", "TS"],
    ["QH", "QD", "QH", "TH"],
    ["JH", "JS", "JH", "JS"],
    ["AD", "TD", "QD", "KD"],
    ["JC", "JD", "KH", "9H"],
]


def variant(base, changes):
    """A layout with some cells changed: {(trick 1-based, seat): card}."""
    rows = [list(r) for r in base]
    for (t, seat), c in changes.items():
        rows[t - 1][seat] = c
    return rows


L2 = variant(L1, {(5, 0): "QC", (5, 2): "9D"})
L3 = variant(L2, {(2, 0): "KC", (2, 3): "AC"})
L6 = variant(L1, {(1, 0): "9D", (1, 1): "QC", (5, 2): "TD", (5, 3): "QC"})
L1C = variant(L1, {(6, 1): "JD", (12, 1): "JC"})
L1D = variant(L1, {(2, 0): "AC", (2, 1): "TC", (2, 2): "AC", (2, 3): "TC",
                   (7, 0): "9C", (7, 1): "9C", (7, 2): "KC", (7, 3): "KC"})


def hands_of(rows):
    return [[rows[t][s] for t in range(12)] for s in range(4)]


def new(rows, dealer=3, **options):
    return games.get("doppelkopf", options).new_deal(hands_of(rows), dealer)


def bid(state, *calls):
    for call in calls:
        state.apply({"seat": state.to_act(), "type": "bid", "call": call})


def announce(state, *calls):
    for call in calls:
        state.apply({"seat": state.to_act(), "type": "announce", "call": call})


def play_layout(state, rows, before=None, upto=12):
    """Play the layout's tricks; before(state, trick 1-based, seat) may act first (announce)."""
    while state.to_act() is not None and state.core.phase() == "play":
        t = len(state.core.public(0)["tricks"])
        if t >= upto:
            return
        seat = state.to_act()
        if before:
            before(state, t + 1, seat)
        state.apply({"seat": seat, "type": "play", "card": rows[t][seat]})


def announcement_now(state):
    """The announcement the seat to act may make now, or None."""
    calls = [a["call"] for a in state.legal_actions() if a["type"] == "announce"]
    assert len(calls) <= 1
    return calls[0] if calls else None


def items(result):
    return [(b["item"], b["team"], b["value"]) for b in result["breakdown"]]


# ---- deck and deal ----------------------------------------------------------------------
def test_seeded_deal_gives_packets_of_three_and_every_card_twice():
    state = games.get("doppelkopf").deal(7, dealer=2)
    order = [DOPPELKOPF.code(i) for i in _rng.shuffle(7, 48)]
    for k in range(16):                     # packet k (deck cards 3k..3k+2) to seat dealer+1+k
        seat = (2 + 1 + k) % 4
        packet = order[3 * k:3 * k + 3]
        assert all(state.hands[seat].count(c) >= packet.count(c) for c in packet)
    for seat in range(4):
        assert sorted(state.hands[seat]) == sorted(order[3 * k + i] for k in range(16) for i in range(3)
                                                   if (3 + k) % 4 == seat)
    assert sorted(sum(state.hands, [])) == sorted(DOPPELKOPF.faces * 2)
    masks = [state.core.hand(s) for s in range(4)]
    assert sum(bin(m).count("1") for m in masks) == 48 and (masks[0] | masks[1] | masks[2] | masks[3]) == (1 << 48) - 1


def test_seeded_deal_numbers_copies_as_a_record_does():
    """The deal function gives the first seat holding a face its first copy, as Game.new_deal
    numbers the cards of a record: replaying a seeded deal's record gives the same masks."""
    for seed, dealer in ((0, 0), (12345, 3), (2**63 + 5, 1)):
        state = games.get("doppelkopf").deal(seed, dealer)
        again = records.new_state(state.record())
        assert [again.core.hand(s) for s in range(4)] == [state.core.hand(s) for s in range(4)]
        first = {}
        for s in range(4):
            for c in range(48):
                if state.core.hand(s) >> c & 1:
                    first.setdefault(c % 24, (s, c))
        assert all(c < 24 for _, c in first.values())


def test_batch_deals_are_the_seeded_deals():
    for k in range(8):
        for bids in ("uniform", "cheapest"):
            record = batch.playout_record("doppelkopf", seed=77, k=k, bids=bids)
            deal = games.get("doppelkopf").deal_k(77, k, dealer=k % 4)
            assert record["hands"] == deal.hands and record["dealer"] == k % 4
            assert records.replay(record).is_over()


def test_identical_cards_in_two_hands_are_distinct_copies():
    state = new(L1)
    assert state.core.hand(0) & state.core.hand(3) == 0     # both hold an AH


def test_legal_plays_list_a_doubled_card_once():
    state = new(L1)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    play_layout(state, L1, upto=10)
    # seat 3 leads trick 11 holding KD and... every face once in legal actions
    cards = [a["card"] for a in state.legal_actions() if a["type"] == "play"]
    assert len(cards) == len(set(cards))
    state = games.get("doppelkopf").new_deal(
        [["QC", "QC"] + ["AS"] * 2 + ["9D"] * 2 + ["KH"] * 2 + ["9H"] * 2 + ["AC"] * 2,
         ["TH"] * 2 + ["QS"] * 2 + ["QH"] * 2 + ["QD"] * 2 + ["JC"] * 2 + ["JS"] * 2,
         ["JH"] * 2 + ["JD"] * 2 + ["AD"] * 2 + ["TD"] * 2 + ["KD"] * 2 + ["TC"] * 2,
         ["KC"] * 2 + ["9C"] * 2 + ["TS"] * 2 + ["KS"] * 2 + ["9S"] * 2 + ["AH"] * 2], 3)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    cards = [a["card"] for a in state.legal_actions() if a["type"] == "play"]
    assert sorted(cards) == ["9D", "9H", "AC", "AS", "KH", "QC"]
    assert state.core.public(0)["contract"]["type"] == "silent_solo"
    state.apply({"seat": 0, "type": "play", "card": "QC"})
    assert state.core.public(0)["hand_sizes"][0] == 11
    state.core.undo()
    assert state.core.public(0)["hand_sizes"][0] == 12


# ---- reservations -----------------------------------------------------------------------
SOLOS = ["solo_diamonds", "solo_hearts", "solo_spades", "solo_clubs", "solo_queens",
         "solo_jacks", "solo_aces"]


def test_reservation_bids_offered():
    state = new(L2)          # seat 0 holds both QC and 10 trumps
    calls = [a["call"] for a in state.legal_actions()]
    assert calls == ["healthy", "hochzeit"] + SOLOS
    bid(state, "healthy")
    assert [a["call"] for a in state.legal_actions()] == ["healthy"] + SOLOS


def test_reservation_refusals_name_the_reason_and_alternatives():
    state = new(L1)
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 0, "type": "bid", "call": "hochzeit"})
    assert "both club queens" in err.value.reason and "healthy" in err.value.reason
    assert len(err.value.legal) == 8
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 0, "type": "bid", "call": "armut"})
    assert "at most 3 trumps" in err.value.reason
    assert state.actions == [] and state.to_act() == 0


def test_normal_game_teams_are_the_club_queen_holders():
    state = new(L1)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    play_layout(state, L1)
    r = state.result()
    assert r["contract"] == {"type": "normal", "declarer": None, "trumps": "normal",
                             "scored_as_solo": False}
    assert r["teams"] == [[0, 2], [1, 3]]


def test_earliest_solo_wins_whatever_its_type():
    # S14: dealer 0; bids 1 healthy, 2 solo_jacks, 3 solo_queens, 0 healthy
    for leads, leader in ((False, 1), (True, 2)):
        state = new(L1, dealer=0, solo_player_leads=leads)
        bid(state, "healthy", "solo_jacks", "solo_queens", "healthy")
        pub = state.core.public(0)
        assert pub["contract"]["type"] == "solo" and pub["contract"]["solo"] == "jacks"
        assert pub["contract"]["declarer"] == 2 and state.to_act() == leader


def test_solo_beats_armut_beats_hochzeit():
    hands, dealer = armut_deal()
    g = games.get("doppelkopf")
    state = g.new_deal(hands, dealer)
    bid(state, "armut", "healthy", "hochzeit", "healthy")
    assert state.core.phase() == "armut_give" and state.to_act() == 1
    state = g.new_deal(hands, dealer)
    bid(state, "armut", "healthy", "hochzeit", "solo_aces")
    assert state.core.public(0)["contract"]["declarer"] == 0
    assert state.core.phase() == "play"
    state = g.new_deal(hands, dealer)
    bid(state, "healthy", "healthy", "hochzeit", "healthy")
    assert state.core.public(0)["contract"]["type"] == "hochzeit"


def test_silent_solo_is_hidden_in_play_and_scored_as_solo():
    state = new(L2)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    assert state.view(1)["contract"]["type"] == "normal"
    assert state.view(1)["contract"]["declarer"] is None
    assert state.view(0)["contract"]["type"] == "silent_solo"
    assert state.view(1)["teams"] == {"re": [], "kontra": [1], "complete": False}
    assert state.view(0)["teams"]["complete"] is True
    play_layout(state, L2)
    r = state.result()                          # S8
    assert r["contract"]["type"] == "silent_solo" and r["teams"] == [[0], [1, 2, 3]]
    assert r["scores"] == [-3, 1, 1, 1] and items(r) == [("won", 1, 1)]


def test_silent_solo_ignores_solo_player_leads():
    state = new(L2, solo_player_leads=True)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    assert state.to_act() == 0


# ---- Armut ------------------------------------------------------------------------------
def armut_deal():
    """Dealer 0. Seat 1: trumps AD, TH only; seat 3: both QC."""
    poor = ["AD", "TH", "AC", "AC", "TC", "KC", "9C", "AS", "TS", "KS", "AH", "KH"]
    rest = [c for c in DOPPELKOPF.faces for _ in range(2)]
    for c in poor:
        rest.remove(c)
    rest.remove("QC")
    rest.remove("QC")
    seat3 = ["QC", "QC"] + rest[:10]
    rest = rest[10:]
    return [rest[:12], poor, rest[12:24], seat3], 0


def distinct_multisets(cards, k):
    return {tuple(sorted(c)) for c in itertools.combinations(cards, k)}


def test_armut_give_must_hold_every_trump():
    hands, dealer = armut_deal()
    state = games.get("doppelkopf").new_deal(hands, dealer)
    assert "armut" in [a["call"] for a in state.legal_actions()]
    bid(state, "armut", "healthy", "healthy", "healthy")
    legal = state.legal_actions()
    plain = [c for c in hands[1] if c not in ("AD", "TH")]
    assert sorted(tuple(sorted(a["cards"])) for a in legal) == sorted(
        tuple(sorted(["AD", "TH", c])) for c in set(plain))
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["AD", "AC", "AC"]})
    assert "all your trumps" in err.value.reason and "TH" in err.value.reason
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 1, "type": "exchange", "call": "armut_give",
                     "cards": ["AD", "TH", "AC", "AC"]})
    assert "exactly 3" in err.value.reason
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 1, "type": "exchange", "call": "armut_return", "cards": ["AD", "TH", "AC"]})
    assert "armut_give" in err.value.reason
    assert state.core.phase() == "armut_give" and len(state.actions) == 4


def test_armut_accept_return_and_public_teams():
    hands, dealer = armut_deal()
    state = games.get("doppelkopf").new_deal(hands, dealer)
    bid(state, "armut", "healthy", "healthy", "healthy")
    state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["TH", "AC", "AD"]})
    assert state.to_act() == 2 and [a["call"] for a in state.legal_actions()] == ["accept", "decline"]
    bid(state, "decline", "accept")
    assert state.to_act() == 3 and bin(state.core.hand(3)).count("1") == 15
    taker = hands[3] + ["TH", "AC", "AD"]
    legal = state.legal_actions()
    assert len(legal) == len(distinct_multisets(taker, 3))
    assert {tuple(sorted(a["cards"])) for a in legal} == distinct_multisets(taker, 3)
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 3, "type": "exchange", "call": "armut_return", "cards": ["TH", "AD"]})
    assert "exactly 3" in err.value.reason
    state.apply({"seat": 3, "type": "exchange", "call": "armut_return", "cards": ["QC", "AD", "TH"]})
    assert [bin(state.core.hand(s)).count("1") for s in range(4)] == [12] * 4
    assert state.to_act() == 1 and state.core.phase() == "play"
    assert state.view(0)["teams"] == {"re": [1, 3], "kontra": [0, 2], "complete": True}
    # the exchanged cards are seen only by the giver and the taker
    assert state.view(0)["actions"][4]["cards"] == ["??"] * 3
    assert state.view(2)["actions"][7]["cards"] == ["??"] * 3
    assert state.view(1)["actions"][7]["cards"] == ["QC", "AD", "TH"]
    assert state.view(3)["actions"][4]["cards"] == ["TH", "AC", "AD"]
    assert state.view(0)["contract"]["given"] == ["??"] * 3
    assert state.view(3)["contract"]["given"] == ["AC", "AD", "TH"]
    # the poor player's hand now holds QC, AD, TH and is sorted trumps first
    assert state.view(1)["hand"][:3] == ["TH", "QC", "AD"]


def test_armut_cards_are_hidden_piles_for_the_seats_not_involved():
    hands, dealer = armut_deal()
    state = games.get("doppelkopf").new_deal(hands, dealer)
    bid(state, "armut", "healthy", "healthy", "healthy")
    assert all(state.view(s)["hidden"] == [] for s in [*range(4), None])
    state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["TH", "AC", "AD"]})
    # the gift holds a non-trump (AC: the poor player had two trumps), so it is among any cards
    give = {"pile": "armut_give", "from_seat": 1, "to_seat": None, "count": 3, "action": 4, "among": None}
    assert [state.view(s)["hidden"] for s in range(4)] == [[give], [], [give], [give]]
    bid(state, "decline", "accept")
    give["to_seat"] = 3
    assert [state.view(s)["hidden"] for s in range(4)] == [[give], [], [give], []]
    state.apply({"seat": 3, "type": "exchange", "call": "armut_return", "cards": ["QC", "AD", "TH"]})
    back = {"pile": "armut_return", "from_seat": 3, "to_seat": 1, "count": 3, "action": 7, "among": None}
    assert [state.view(s)["hidden"] for s in [*range(4), None]] == [[give, back], [], [give, back], [],
                                                                    [give, back]]


def test_armut_nobody_accepts_is_void_and_redealt_by_the_same_dealer():
    hands, dealer = armut_deal()
    state = games.get("doppelkopf").new_deal(hands, dealer)
    bid(state, "armut", "healthy", "healthy", "healthy")
    state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["TH", "AC", "AD"]})
    bid(state, "decline", "decline", "decline")
    assert state.is_over()
    r = state.result()
    assert r["redeal"] is True and r["scores"] == [0] * 4 and r["teams"] == [] and r["tricks"] == []
    assert r["contract"]["redeal"] is True and r["contract"]["acceptor"] is None
    assert r["next_dealer"] == 0 and r["counts_toward_match"] is False
    assert sorted(DOPPELKOPF.codes(state.core.hand(1))) == sorted(hands[1])
    assert records.replay(state.record()).result() == r


def test_armut_scores_with_extras_and_against_the_old():
    hands, dealer = armut_deal()
    state = games.get("doppelkopf").new_deal(hands, dealer)
    bid(state, "armut", "healthy", "healthy", "healthy")
    state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["TH", "AC", "AD"]})
    bid(state, "accept")
    state.apply({"seat": 2, "type": "exchange", "call": "armut_return", "cards": state.legal_actions()[0]["cards"]})
    while not state.is_over():
        state.apply(state.legal_actions()[-1])
    r = state.result()
    assert r["teams"] == [[1, 2], [0, 3]] and r["contract"]["acceptor"] == 2
    assert r["contract"]["scored_as_solo"] is False
    assert sum(r["scores"]) == 0 and sum(r["card_points"]) == 240


# ---- Hochzeit ---------------------------------------------------------------------------
def test_hochzeit_partner_found_in_trick_2():
    state = new(L3)
    bid(state, "hochzeit", "healthy", "healthy", "healthy")
    seen = {}

    def before(st, trick, seat):
        seen.setdefault(trick, {})[seat] = announcement_now(st)
    play_layout(state, L3, before)
    # no announcements while undecided (tricks 1, 2); afterwards thresholds lowered by 2
    assert all(v is None for t in (1, 2) for v in seen[t].values())
    assert seen[3][3] == "re" and seen[3][0] == "re" and seen[3][1] == "kontra"
    assert seen[4][0] == "re" and seen[5][0] is None       # 9 cards, 8 cards: re needs 9
    r = state.result()                                     # S10
    assert r["contract"]["partner"] == 3 and r["contract"]["clarified_in_trick"] == 2
    assert r["teams"] == [[0, 3], [1, 2]] and r["scores"] == [2, -2, -2, 2]
    assert items(r) == [("won", 0, 1), ("fox_caught", 0, 1), ("fox_caught", 1, 1), ("karlchen", 0, 1)]


def test_hochzeit_announcement_window_s11():
    state = new(L3)
    bid(state, "hochzeit", "healthy", "healthy", "healthy")
    play_layout(state, L3, upto=2)
    assert state.to_act() == 3
    announce(state, "re")
    assert announcement_now(state) == "no_90"          # 10 cards, needs 10 - 2 = 8
    state.apply({"seat": 3, "type": "play", "card": L3[2][3]})
    assert state.to_act() == 0 and announcement_now(state) == "no_90"
    announce(state, "no_90")
    assert announcement_now(state) == "no_60"          # needs 9 - 2 = 7


def test_hochzeit_without_partner_is_scored_as_solo():
    state = new(L2)
    bid(state, "hochzeit", "healthy", "healthy", "healthy")
    seen = {}

    def before(st, trick, seat):
        seen.setdefault(trick, {})[seat] = announcement_now(st)
    play_layout(state, L2, before)
    assert all(v is None for t in (1, 2, 3) for v in seen[t].values())
    assert seen[4][0] == "re"                              # 9 cards, needs 11 - 3 = 8
    r = state.result()                                     # S9
    assert r["contract"]["partner"] is None and r["contract"]["clarified_in_trick"] == 3
    assert r["contract"]["scored_as_solo"] is True
    assert r["teams"] == [[0], [1, 2, 3]] and r["scores"] == [-3, 1, 1, 1]
    assert items(r) == [("won", 1, 1)]


def test_no_announcement_during_undecided_hochzeit_is_explained():
    state = new(L2)
    bid(state, "hochzeit", "healthy", "healthy", "healthy")
    with pytest.raises(IllegalActionError) as err:
        announce(state, "re")
    assert "Hochzeit is undecided" in err.value.reason


# ---- card orders of every contract --------------------------------------------------------
ORDER_TABLE = {
    "normal": "TH QC QS QH QD JC JS JH JD AD TD KD 9D",
    "diamonds": "TH QC QS QH QD JC JS JH JD AD TD KD 9D",
    "hearts": "TH QC QS QH QD JC JS JH JD AH KH 9H",
    "spades": "TH QC QS QH QD JC JS JH JD AS TS KS 9S",
    "clubs": "TH QC QS QH QD JC JS JH JD AC TC KC 9C",
    "queens": "QC QS QH QD",
    "jacks": "JC JS JH JD",
    "aces": "",
}


def expected_sort(kind):
    trumps = ORDER_TABLE[kind].split()
    out = [c for c in trumps for _ in range(2)]
    for s in "CSHD":
        out += [r + s for r in "ATKQJ9" for _ in range(2) if r + s not in trumps]
    return out


@pytest.mark.parametrize("kind", ["diamonds", "hearts", "spades", "clubs", "queens", "jacks", "aces"])
def test_solo_card_order(kind):
    state = new(L1)
    bid(state, "solo_" + kind, "healthy", "healthy", "healthy")
    c = state.core.public(0)["contract"]
    assert c["trumps"] == kind and c["solo"] == kind
    order = [DOPPELKOPF.code(i) for i in state.core.sort_cards((1 << 48) - 1)]
    assert order == expected_sort(kind)


def test_normal_card_order():
    state = new(L1)
    assert [DOPPELKOPF.code(i) for i in state.core.sort_cards((1 << 48) - 1)] == expected_sort("normal")


def first_trick_deal(cards, leader_must_avoid=None, kind=None):
    """Hands whose first trick (dealer 3, seat 0 leads) is `cards`; seats listed in
    `leader_must_avoid` ({seat: [cards]}) get none of those cards among the rest."""
    rest = [c for c in DOPPELKOPF.faces for _ in range(2)]
    for c in cards:
        rest.remove(c)
    avoid = leader_must_avoid or {}
    hands = [[cards[s]] for s in range(4)]
    # deal forbidden cards to seats that may hold them first
    forbidden = set().union(*avoid.values()) if avoid else set()
    risky = [c for c in rest if c in forbidden]
    safe = [c for c in rest if c not in forbidden]
    for c in risky:
        seat = next(s for s in range(4) if len(hands[s]) < 12 and c not in avoid.get(s, ()))
        hands[seat].append(c)
    for c in safe:
        seat = next(s for s in range(4) if len(hands[s]) < 12)
        hands[seat].append(c)
    return hands


def solo_first_trick(cards, contract_bid, avoid=None, **options):
    hands = first_trick_deal(cards, avoid)
    state = games.get("doppelkopf", options).new_deal(hands, 3)
    bid(state, contract_bid, "healthy", "healthy", "healthy")
    for s in range(4):
        state.apply({"seat": s, "type": "play", "card": cards[s]})
    return state.core.public(0)["tricks"][0][2]


def test_trick_winners_of_rules_s17():
    # normal: the first TH wins; with the option the second does
    assert solo_first_trick(["TH", "QC", "TH", "9D"], "healthy") == 0
    assert solo_first_trick(["TH", "QC", "TH", "9D"], "healthy", second_heart_ten_beats_first=True) == 2
    assert solo_first_trick(["AC", "TC", "AC", "KC"], "healthy") == 0
    suit = lambda s: [r + s for r in "ATKQJ9"]
    assert solo_first_trick(["TH", "AH", "KH", "9H"], "solo_queens") == 1
    assert solo_first_trick(["AD", "TD", "9H", "KD"], "solo_hearts", {2: suit("D")}) == 2
    assert solo_first_trick(["QH", "AH", "TH", "KS"], "solo_aces", {3: suit("H")}) == 1
    assert solo_first_trick(["QC", "AC", "JD", "TC"], "solo_jacks", {2: suit("C")}) == 2
    # the option does not apply where TH is a plain heart
    assert solo_first_trick(["TH", "AH", "TH", "9H"], "solo_queens",
                            second_heart_ten_beats_first=True) == 1


def test_second_heart_ten_rule_over_random_deals():
    """Every trick holding both trump heart tens: the first wins, or with the option the
    second, except in trick 12 (4.3)."""
    import random
    checked = {"early": 0, "last": 0}
    for option in (False, True):
        game = games.get("doppelkopf", {"second_heart_ten_beats_first": option})
        for seed in range(250):
            state = game.deal(seed, seed % 4)
            rng = random.Random(seed)
            bid(state, *["healthy"] * 4)
            while not state.is_over():
                plays = [a for a in state.legal_actions() if a["type"] == "play"]
                state.apply(rng.choice(plays))
            for n, (leader, cards, winner) in enumerate(state.result()["tricks"]):
                if cards.count("TH") == 2:
                    first, second = [(leader + i) % 4 for i, c in enumerate(cards) if c == "TH"]
                    want = second if option and n < 11 else first
                    assert winner == want
                    checked["last" if n == 11 else "early"] += 1
    assert checked["early"] > 10


# seat 0 wins tricks 1-11 and leads TH into trick 12, where seat 1 adds the second TH
L_TH = [["QC", "QS", "QH", "QD"]] * 2 + [["JC", "JS", "JH", "JD"]] * 2 + \
       [["AD", "TD", "KD", "9D"]] * 2 + [["AC", "TC", "KC", "9C"]] * 2 + \
       [["AS", "TS", "KS", "9S"]] * 2 + [["AH", "9H", "AH", "9H"], ["TH", "TH", "KH", "KH"]]


@pytest.mark.parametrize("option", [False, True])
def test_second_heart_ten_rule_not_in_last_trick(option):
    state = new(L_TH, second_heart_ten_beats_first=option)
    bid(state, *["healthy"] * 4)
    play_layout(state, L_TH)
    assert state.result()["tricks"][11] == [0, ["TH", "TH", "KH", "KH"], 0]


def test_follow_rules_heart_lead_and_trump_class():
    state = new(L1)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    play_layout(state, L1, upto=3)
    # trick 4: AH led; seat 2 holds 9H, TH, KH: TH is a trump, not a heart
    state.apply({"seat": 0, "type": "play", "card": "AH"})
    state.apply({"seat": 1, "type": "play", "card": "KH"})
    assert sorted(a["card"] for a in state.legal_actions()) == ["9H", "KH"]
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 2, "type": "play", "card": "TH"})
    assert "must follow hearts (TH is a trump)" in err.value.reason
    play_layout(state, L1, upto=8)
    # trick 9: seat 2 leads QH (trump); seat 3 must play a trump, TH counts as trump
    state.apply({"seat": 2, "type": "play", "card": "QH"})
    assert sorted(a["card"] for a in state.legal_actions()) == ["JS", "KD", "TH"]
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 3, "type": "play", "card": "9H"})
    assert "must follow trump" in err.value.reason


# ---- announcements --------------------------------------------------------------------------
def test_announcement_thresholds_normal_game():
    state = new(L1)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    seen = {}

    def before(st, trick, seat):
        seen.setdefault(trick, {})[seat] = announcement_now(st)
    play_layout(state, L1, before)
    assert seen[1] == {0: "re", 1: "kontra", 2: "re", 3: "kontra"}      # 12 cards
    assert seen[2] == {0: "re", 1: "kontra", 2: "re", 3: "kontra"}      # 11 cards
    assert all(v is None for t in range(3, 13) for v in seen[t].values())


def test_reply_thresholds_and_order():
    state = new(L1)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    play_layout(state, L1, upto=1)
    announce(state, "re")                       # seat 0, 11 cards
    assert announcement_now(state) == "no_90"
    with pytest.raises(IllegalActionError) as err:
        announce(state, "no_60")
    assert "one level at a time" in err.value.reason and "no_90" in err.value.reason
    announce(state, "no_90")
    play_layout(state, L1, upto=2)
    # trick 3, 10 cards: Kontra may still reply to no_90 (needs 10 - 1 = 9)
    assert state.to_act() == 0 and announcement_now(state) == "no_60"
    state.apply({"seat": 0, "type": "play", "card": "AS"})
    assert announcement_now(state) == "kontra"
    play_layout(state, L1, upto=3)
    play_layout(state, L1, upto=4)
    # trick 5, 8 cards: a reply to no_90 needs 9
    state.apply({"seat": 0, "type": "play", "card": "9D"})
    assert state.to_act() == 1 and announcement_now(state) is None
    with pytest.raises(IllegalActionError) as err:
        announce(state, "kontra")
    assert "needs at least 9 cards" in err.value.reason and "you hold 8" in err.value.reason


def test_reply_to_re_at_ten_cards():
    state = new(L1)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    play_layout(state, L1, upto=1)
    announce(state, "re")
    play_layout(state, L1, upto=2)
    state.apply({"seat": 0, "type": "play", "card": "AS"})
    assert announcement_now(state) == "kontra"       # 10 cards: reply to re
    announce(state, "kontra")
    assert announcement_now(state) == "no_90"        # 10 cards: no_90 needs 10
    announce(state, "no_90")
    assert announcement_now(state) == "no_60"        # needs 9


LEVELS = ["re", "no_90", "no_60", "no_30", "schwarz"]


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_each_level_needs_12_minus_level_cards(level):
    """no_90 / no_60 / no_30 / schwarz need 10 / 9 / 8 / 7 cards: seat 0 holds 13 - t cards
    in trick t, so the call stays open up to trick level + 1."""
    state = new(L1)
    bid(state, *["healthy"] * 4)
    seen = {}

    def before(st, trick, seat):
        if seat != 0:
            return
        if trick == 1:
            announce(st, *LEVELS[:level - 1])
        seen[trick] = announcement_now(st)
    play_layout(state, L1, before)
    assert [t for t in range(1, 13) if seen[t] == LEVELS[level - 1]] == list(range(1, level + 2))
    assert all(seen[t] is None for t in range(level + 2, 13))


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_reply_needs_one_card_fewer_than_the_highest_opposing_announcement(level):
    """Kontra's reply after Re's re / no_90 / no_60 / no_30 / schwarz needs 10/9/8/7/6 cards."""
    state = new(L1)
    bid(state, *["healthy"] * 4)
    seen = {}

    def before(st, trick, seat):
        if seat == 0 and trick == 1:
            announce(st, *LEVELS[:level])
        if seat == 1:
            seen[trick] = announcement_now(st)
    play_layout(state, L1, before)
    last = 12 - (12 - level - 1) + 1          # seat 1 holds 13 - t cards in trick t
    assert [t for t in range(1, 13) if seen[t] == "kontra"] == list(range(1, last + 1))


def test_kontra_keeps_schwarz_announced():
    bids = ("healthy", "solo_diamonds", "healthy", "healthy")
    r = scored(L1, bids, {(1, 0): ("kontra", "no_90", "no_60", "no_30", "schwarz")})
    assert items(r) == [("won", 1, 1), ("kontra_announced", 1, 2),
                        ("below_90", 1, 1), ("no_90_announced", 1, 1),
                        ("below_60", 1, 1), ("no_60_announced", 1, 1),
                        ("below_30", 1, 1), ("no_30_announced", 1, 1),
                        ("schwarz", 1, 1), ("schwarz_announced", 1, 1)]
    assert r["scores"] == [11, -33, 11, 11]


def test_every_failed_level_counts_two_for_the_winners():
    bids = ("healthy", "solo_diamonds", "healthy", "healthy")
    r = scored(L1, bids, {(1, 1): ("re", "no_90", "no_60", "no_30", "schwarz")})
    assert items(r) == [("won", 1, 1), ("re_announced", 1, 2),
                        ("below_90", 1, 1), ("no_90_failed_by_losers", 1, 2),
                        ("below_60", 1, 1), ("no_60_failed_by_losers", 1, 2),
                        ("below_30", 1, 1), ("no_30_failed_by_losers", 1, 2),
                        ("schwarz", 1, 1), ("schwarz_failed_by_losers", 1, 2)]
    assert r["scores"] == [15, -45, 15, 15]


def test_announcing_for_the_other_team_is_refused_and_state_kept():
    state = new(L1)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    before = state.core.legal_codes()
    with pytest.raises(IllegalActionError) as err:
        announce(state, "kontra")
    assert "play for Re" in err.value.reason
    assert state.core.legal_codes() == before and len(state.actions) == 4


# ---- scoring ------------------------------------------------------------------------------
def scored(rows, bids=("healthy",) * 4, announcements=None, dealer=3, **options):
    state = new(rows, dealer, **options)
    bid(state, *bids)

    def before(st, trick, seat):
        for call in (announcements or {}).get((trick, seat), ()):
            announce(st, call)
    play_layout(state, rows, before)
    r = state.result()
    assert sum(r["scores"]) == 0 and sum(r["card_points"]) == 240
    assert records.replay(state.record()).result() == r
    return r


def test_s1_fox_and_karlchen():
    r = scored(L1)
    assert r["card_points"] == [93, 0, 120, 27] and r["scores"] == [6, -6, 6, -6]
    assert items(r) == [("won", 0, 1), ("below_90", 0, 1), ("below_60", 0, 1), ("below_30", 0, 1),
                        ("fox_caught", 0, 1), ("karlchen", 0, 1)]


def test_s2_announced_levels_kept():
    r = scored(L1, announcements={(1, 0): ("re", "no_90", "no_60", "no_30")})
    assert r["scores"] == [11, -11, 11, -11]
    assert ("no_30_announced", 0, 1) in items(r) and ("re_announced", 0, 2) in items(r)


def test_s3_nobody_wins():
    r = scored(L1, announcements={(1, 0): ("re", "no_90", "no_60", "no_30", "schwarz"),
                                  (1, 1): ("kontra", "no_90")})
    assert r["winner"] is None and r["scores"] == [2, -2, 2, -2]
    assert items(r) == [("fox_caught", 0, 1), ("karlchen", 0, 1)]


def test_s4_against_the_old():
    r = scored(L6)
    assert r["teams"] == [[1, 3], [0, 2]] and r["card_points"] == [84, 9, 96, 51]
    assert items(r) == [("won", 1, 1), ("against_the_old", 1, 1), ("below_90", 1, 1), ("karlchen", 1, 1)]
    assert r["scores"] == [4, -4, 4, -4]


def test_s5_failed_announcement_counts_two():
    r = scored(L6, announcements={(1, 1): ("re", "no_90")})
    assert ("no_90_failed_by_losers", 1, 2) in items(r) and r["scores"] == [8, -8, 8, -8]


def test_s6_solo_120_thresholds():
    bids = ("healthy", "healthy", "solo_diamonds", "healthy")
    assert scored(L1, bids)["scores"] == [1, 1, -3, 1]
    assert scored(L1, bids, {(1, 1): ("kontra",)})["scores"] == [-3, -3, 9, -3]
    r = scored(L1, bids, {(1, 0): ("kontra",), (1, 2): ("re",)})
    assert r["scores"] == [5, 5, -15, 5] and r["winner"] == "kontra"


def test_s7_solo_schwarz_no_extras():
    r = scored(L1, ("healthy", "solo_diamonds", "healthy", "healthy"))
    assert r["scores"] == [5, -15, 5, 5]
    assert [i[0] for i in items(r)] == ["won", "below_90", "below_60", "below_30", "schwarz"]


def test_s12_karlchen_caught_and_option():
    assert scored(L1C)["scores"] == [7, -7, 7, -7]
    assert ("karlchen_caught", 0, 1) in items(scored(L1C))
    r = scored(L1C, charlie_only_when_winning=True)
    assert r["scores"] == [6, -6, 6, -6] and "karlchen_caught" not in [i[0] for i in items(r)]


def test_s13_doppelkopf_trick():
    r = scored(L1D)
    assert r["card_points"] == [110, 0, 103, 27] and ("doppelkopf", 0, 1) in items(r)
    assert r["scores"] == [7, -7, 7, -7]


def test_seed_example_no_90():
    assert scored(L1, announcements={(1, 0): ("re", "no_90")})["scores"] == [9, -9, 9, -9]


@pytest.mark.parametrize("lr,lk,re_points,re_tricks,winner", [
    (0, 0, 121, 6, "re"), (0, 0, 120, 6, "kontra"),
    (0, 1, 120, 6, "re"), (0, 1, 119, 6, "kontra"), (1, 1, 120, 6, "kontra"),
    (0, 2, 90, 6, "re"), (0, 2, 89, 6, "kontra"),
    (5, 0, 230, 11, "kontra"), (5, 0, 240, 12, "re"),
    (3, 2, 170, 6, None), (3, 2, 100, 6, None), (3, 2, 181, 6, "re"), (3, 2, 89, 6, "kontra"),
    (2, 0, 151, 6, "re"), (2, 0, 150, 6, "kontra"),
])
def test_winner_table_s18_s19(lr, lk, re_points, re_tricks, winner):
    assert rules.winner_of(lr, lk, re_points, re_tricks) == winner


@pytest.mark.parametrize("calls,re_needs,kontra_needs", [
    ({}, 121, 120),                                       # the base targets
    ({(1, 1): ("kontra",)}, 120, 121),                    # only Kontra announced (S19)
    ({(1, 0): ("re",), (1, 1): ("kontra",)}, 121, 120),
    ({(1, 0): ("re", "no_90")}, 151, 90),                 # S18: Re needs 151, Kontra wins from 90
    ({(1, 1): ("kontra", "no_90")}, 90, 151),             # S19: Re wins with 90
    ({(1, 0): ("re", "no_90", "no_60"), (1, 1): ("kontra", "no_90")}, 181, 151),   # S19 (170:70 nobody)
    ({(1, 0): ("re", "no_90", "no_60", "no_30", "schwarz")}, 240, 1),
])
def test_win_points_follow_the_announcements(calls, re_needs, kontra_needs):
    """The points each team needs to win as the announcements stand (what the hard level plays
    for): the winner table of rules 5.2 read off the scoring's own function. L1's Re team is
    seats 0 and 2."""
    state = new(L1)
    bid(state, "healthy", "healthy", "healthy", "healthy")

    def before(state, trick, seat):
        announce(state, *calls.get((trick, seat), ()))
    play_layout(state, L1, before, upto=1)
    assert [rules.win_points(state.core, s) for s in range(4)] == [re_needs, kontra_needs, re_needs, kontra_needs]
    levels = (len(calls.get((1, 0), ())), len(calls.get((1, 1), ())))

    def winner(re_points):                 # a team without points is taken to have no trick
        return rules.winner_of(*levels, re_points, 0 if re_points == 0 else 12 if re_points == 240 else 6)
    for s in range(4):                     # the least such points: one fewer does not win
        team = "re" if s % 2 == 0 else "kontra"
        p = rules.win_points(state.core, s)
        assert winner(p if team == "re" else 240 - p) == team
        assert winner(p - 1 if team == "re" else 241 - p) != team


def _turn_of(rows, calls, tricks, seat):
    """A normal game on the layout: the calls announced at (trick, seat), `tricks` tricks
    played, then the layout's cards until `seat` is to play."""
    state = new(rows)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    play_layout(state, rows, lambda state, trick, s: announce(state, *calls.get((trick, s), ())), upto=tricks)
    while state.to_act() != seat:
        trick, s = len(state.core.public(0)["tricks"]), state.to_act()
        state.apply({"seat": s, "type": "play", "card": rows[trick][s]})
    return state


def test_hard_announces_by_the_share_of_worlds_its_side_reaches_its_target():
    """The hard level announces when its side reaches its target, as the targets stand after
    the announcement, in at least announce_share of the searched worlds. L6: Kontra (seats 0
    and 2) wins 180:60 after Re's re. Seat 0 may reply kontra with 10 cards; Re's seat 1 may
    promise no 90, which no world lets it keep."""
    from engine_core import bots
    state = _turn_of(L6, {(1, 1): ("re",)}, 2, 0)
    bot = bots.get("doppelkopf", "hard", seed=1)
    bot.announce_nodes = 300_000            # ten cards a hand: enough for these worlds' questions
    [kontra] = [e for e in bot.evaluate(state.view(0)) if e["action"]["type"] == "announce"]
    share = kontra["win"]
    assert kontra["action"]["call"] == "kontra" and 0 < share < 1
    assert (share * bot.announce_worlds).is_integer()       # counted over the searched worlds
    bot.announce_share = share
    assert bot.choose(state.view(0)) == kontra["action"]
    bot.announce_share = share + 1 / bot.announce_worlds
    assert bot.choose(state.view(0))["type"] == "play"
    state = _turn_of(L6, {(1, 1): ("re",)}, 2, 1)
    bot = bots.get("doppelkopf", "hard", seed=1)
    [no_90] = [e for e in bot.evaluate(state.view(1)) if e["action"]["type"] == "announce"]
    assert no_90["action"]["call"] == "no_90" and no_90["win"] == 0.0
    assert bot.choose(state.view(1))["type"] == "play"


def test_breakdown_explains_every_point():
    for rows, ann in ((L1, {(1, 0): ("re", "no_90")}), (L6, {(1, 1): ("re", "no_90")}), (L1C, None)):
        r = scored(rows, announcements=ann)
        net = sum(b["value"] * (1 if b["team"] == 0 else -1) for b in r["breakdown"])
        n_re = len(r["teams"][0])
        assert [r["scores"][s] for s in r["teams"][0]] == [net * (4 - n_re) // n_re] * n_re
        assert [r["scores"][s] for s in r["teams"][1]] == [-net] * (4 - n_re)


# ---- views and hidden information ----------------------------------------------------------
def test_normal_game_teams_revealed_by_play_and_announcement():
    state = new(L1)
    bid(state, "healthy", "healthy", "healthy", "healthy")
    assert state.view(1)["teams"] == {"re": [], "kontra": [1], "complete": False}
    assert state.view(0)["teams"] == {"re": [0], "kontra": [], "complete": False}
    state.apply({"seat": 0, "type": "play", "card": "QC"})
    assert state.view(1)["teams"]["re"] == [0]
    announce(state, "kontra")                        # seat 1 reveals himself
    assert state.view(3)["teams"] == {"re": [0], "kontra": [1, 3], "complete": False}
    play_layout(state, L1, upto=5)
    # both club queens have been played by 0 and 2: everybody knows the teams
    assert state.view(3)["teams"] == {"re": [0, 2], "kontra": [1, 3], "complete": True}


def test_view_hand_sorted_trumps_first_for_the_contract():
    state = new(L1)
    v = state.view(1)
    assert v["hand"] == ["QD", "JC", "JS", "JD", "AD", "TD", "9D", "9C", "9C", "TS", "9S", "KH"]
    assert v["legal"] == [] and state.view(0)["legal"]
    bid(state, "healthy", "solo_hearts", "healthy", "healthy")
    assert state.view(1)["hand"] == ["QD", "JC", "JS", "JD", "KH", "9C", "9C", "TS", "9S",
                                     "AD", "TD", "9D"]
    assert state.view(1)["contract"]["solo"] == "hearts"


# ---- beyond the common fields ---------------------------------------------------------------
def test_conformance_results_agree_on_every_field():
    """Extra keys (winner, team_card_points, announcements), the contract details and the
    breakdown (items, teams, values and their order) agree with the reference too."""
    from conftest import conformance_lines
    for kind in ("scenarios", "random"):
        for line in conformance_lines("doppelkopf", kind):
            ours, theirs = records.replay(line["record"]).result(), line["result"]
            for key, value in theirs.items():
                if key == "contract":
                    assert {k: ours[key].get(k) for k in value} == value, line["id"]
                else:
                    assert ours[key] == value, (line["id"], key)


def test_random_playouts_are_deterministic():
    base = games.get("doppelkopf").deal(42, 1).core

    def run(seed):
        return [base.copy().random_playout(seed + k) for k in range(200)]
    first = run(1000)
    assert first == run(1000) and any(any(s) for s in first) and all(sum(s) == 0 for s in first)


# ---- hidden cards: the Armut exchange -------------------------------------------------------
SEATS_AND_SPECTATOR = (0, 1, 2, 3, None)


def exchanged_state(accept=True):
    """armut_deal: seat 1 gives TH AC AD; seat 2 declines; seat 3 accepts and returns QC AD TH
    (or: all three decline)."""
    hands, dealer = armut_deal()
    state = games.get("doppelkopf").new_deal(hands, dealer)
    bid(state, "armut", "healthy", "healthy", "healthy")
    state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["TH", "AC", "AD"]})
    if not accept:
        bid(state, "decline", "decline", "decline")
        return state
    bid(state, "decline")
    # the offer: the give is face down to everyone but the poor player, also to seat 3 until he accepts
    assert [state.view(s)["actions"][4]["cards"] for s in SEATS_AND_SPECTATOR] == \
        [["??"] * 3, ["TH", "AC", "AD"], ["??"] * 3, ["??"] * 3, ["??"] * 3]
    assert [state.view(s)["contract"]["given"] for s in SEATS_AND_SPECTATOR] == \
        [["??"] * 3, ["AC", "AD", "TH"], ["??"] * 3, ["??"] * 3, ["??"] * 3]
    bid(state, "accept")
    state.apply({"seat": 3, "type": "exchange", "call": "armut_return", "cards": ["QC", "AD", "TH"]})
    return state


def test_armut_cards_seen_only_by_the_poor_player_and_the_acceptor():
    state = exchanged_state()
    give, ret = ["TH", "AC", "AD"], ["QC", "AD", "TH"]
    for during in (True, False):
        if not during:
            while not state.is_over():
                state.apply(state.legal_actions()[-1])
        for seat in SEATS_AND_SPECTATOR:
            sees = seat in (1, 3)
            v = state.view(seat)
            assert v["actions"][4]["cards"] == (give if sees else ["??"] * 3), (seat, during)
            assert v["actions"][7]["cards"] == (ret if sees else ["??"] * 3), (seat, during)
            assert all(a == b for i, (a, b) in enumerate(zip(v["actions"], state.actions)) if i not in (4, 7))
            c = v["contract"]
            assert c["given"] == (["AC", "AD", "TH"] if sees else ["??"] * 3)
            assert c["returned"] == (["AD", "QC", "TH"] if sees else ["??"] * 3)
            if not during:
                r = state.result_for(seat)
                assert v["result"] == r
                assert r["contract"]["given"] == c["given"] and r["contract"]["returned"] == c["returned"]
                assert {k: x for k, x in r.items() if k != "contract"} == \
                    {k: x for k, x in state.result().items() if k != "contract"}
    # the record and the full result keep the real cards
    assert state.result()["contract"]["given"] == ["AC", "AD", "TH"]
    assert state.record()["actions"][4]["cards"] == give


def test_void_armut_cards_stay_the_poor_players():
    state = exchanged_state(accept=False)
    assert state.is_over()
    for seat in SEATS_AND_SPECTATOR:
        sees = seat == 1
        assert state.view(seat)["actions"][4]["cards"] == (["TH", "AC", "AD"] if sees else ["??"] * 3)
        r = state.result_for(seat)
        assert r["contract"]["given"] == (["AC", "AD", "TH"] if sees else ["??"] * 3)
        assert r["redeal"] is True and r["contract"]["returned"] is None


def test_spectator_view_is_public_information_only():
    state = new(L2)                                # seat 0 holds both QC: a silent solo
    bid(state, "healthy", "healthy", "healthy", "healthy")
    v = state.view(None)
    assert v["seat"] is None and v["hand"] == [] and v["legal"] == []
    assert v["contract"] == {"type": "normal", "declarer": None, "trumps": "normal", "scored_as_solo": None}
    assert v["teams"] == {"re": [], "kontra": [], "complete": False}
    assert v["bids"] == ["healthy"] * 4 and v["hand_sizes"] == [12] * 4
    state.apply({"seat": 0, "type": "play", "card": "QC"})
    assert state.view(None)["teams"] == {"re": [0], "kontra": [], "complete": False}
    play_layout(state, L2)
    v = state.view(None)
    assert v["contract"]["type"] == "silent_solo" and v["teams"]["complete"]
    assert v["result"] == state.result()


# ---- options, errors, between deals -----------------------------------------------------------
def test_option_ranges():
    for value in (1, 8, 1000):
        assert games.get("doppelkopf", {"deals_per_match": value}).options.deals_per_match == value
    for value in (0, 1001):
        with pytest.raises(OptionError) as err:
            games.get("doppelkopf", {"deals_per_match": value})
        assert err.value.field == "options.deals_per_match" and "1..1000" in err.value.reason
    with pytest.raises(OptionError) as err:
        games.get("doppelkopf", {"solo_player_leads": 1})
    assert err.value.field == "options.solo_player_leads"
    with pytest.raises(OptionError):
        games.get("doppelkopf", {"armut_allowed": True})


def test_malformed_actions_are_invalid_not_illegal():
    state = new(L1)
    malformed = (({"seat": 0, "type": "bid", "call": "ramsch"}, "UNKNOWN_CALL"),
                 ({"seat": 0, "type": "bid", "call": "healthy", "suit": "H"}, "CALL_TAKES_NO_SUIT"),
                 ({"seat": 0, "type": "announce"}, "MISSING_FIELD"),
                 ({"seat": 4, "type": "bid", "call": "healthy"}, "BAD_SEAT"),
                 ("healthy", "NOT_AN_OBJECT"))
    for action, reason_id in malformed:
        with pytest.raises(InvalidActionError) as err:
            state.apply(action)
        assert err.value.reason_id == reason_id
    assert state.actions == []
    bid(state, *["healthy"] * 4)
    for action, reason_id in (({"seat": 0, "type": "play", "card": "8C"}, "BAD_CARD"),
                              ({"seat": 0, "type": "announce", "call": "no_100"}, "UNKNOWN_CALL")):
        with pytest.raises(InvalidActionError) as err:
            state.apply(action)
        assert err.value.reason_id == reason_id
    hands, dealer = armut_deal()
    state = games.get("doppelkopf").new_deal(hands, dealer)
    bid(state, "armut", "healthy", "healthy", "healthy")
    for action, reason_id in (({"seat": 1, "type": "exchange", "call": "armut_swap", "cards": []}, "UNKNOWN_CALL"),
                              ({"seat": 1, "type": "exchange", "call": "armut_give", "cards": "AD"}, "BAD_CARDS"),
                              ({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["AD", "1X", "AC"]}, "BAD_CARD")):
        with pytest.raises(InvalidActionError) as err:
            state.apply(action)
        assert err.value.reason_id == reason_id
    assert len(state.actions) == 4


def refusal(state, action):
    with pytest.raises(IllegalActionError) as err:
        state.apply(action)
    return err.value.reason_id


def test_refusals_carry_the_rules_reason_ids():
    state = new(L1)
    assert refusal(state, {"seat": 0, "type": "bid", "call": "hochzeit"}) == "HOCHZEIT_NEEDS_BOTH_QUEENS"
    assert refusal(state, {"seat": 0, "type": "bid", "call": "armut"}) == "ARMUT_NEEDS_FEW_TRUMPS"
    assert refusal(state, {"seat": 0, "type": "bid", "call": "accept"}) == "ANSWERS_AN_ARMUT"
    assert refusal(state, {"seat": 0, "type": "announce", "call": "re"}) == "WRONG_PHASE"
    bid(state, "healthy", "healthy", "healthy", "healthy")
    assert refusal(state, {"seat": 0, "type": "announce", "call": "kontra"}) == "OTHER_TEAMS_CALL"
    assert refusal(state, {"seat": 0, "type": "announce", "call": "no_60"}) == "ONE_LEVEL_AT_A_TIME"
    announce(state, "re")
    assert refusal(state, {"seat": 0, "type": "announce", "call": "re"}) == "ALREADY_ANNOUNCED"
    state.apply({"seat": 0, "type": "play", "card": "QC"})
    assert refusal(state, {"seat": 1, "type": "play", "card": "9C"}) == "MUST_FOLLOW_SUIT"
    play_layout(state, L1, upto=5)
    assert refusal(state, {"seat": state.to_act(), "type": "announce",
                           "call": "kontra" if state.to_act() in (1, 3) else "no_90"}) == "TOO_FEW_CARDS"
    hands, dealer = armut_deal()
    state = games.get("doppelkopf").new_deal(hands, dealer)
    bid(state, "armut", "healthy", "healthy", "healthy")
    assert refusal(state, {"seat": 1, "type": "exchange", "call": "armut_give",
                           "cards": ["AD", "AC", "AC"]}) == "MUST_GIVE_ALL_TRUMPS"
    assert refusal(state, {"seat": 1, "type": "exchange", "call": "armut_give",
                           "cards": ["AD", "TH"]}) == "THREE_CARDS"
    assert refusal(state, {"seat": 1, "type": "exchange", "call": "armut_return",
                           "cards": ["AD", "TH", "AC"]}) == "WRONG_EXCHANGE"
    state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["TH", "AC", "AD"]})
    assert refusal(state, {"seat": 2, "type": "bid", "call": "healthy"}) == "ANSWER_THE_ARMUT"
    state = new(L2)
    bid(state, "hochzeit", "healthy", "healthy", "healthy")
    assert refusal(state, {"seat": 0, "type": "announce", "call": "re"}) == "HOCHZEIT_UNDECIDED"


def test_every_reason_id_is_documented():
    assert set(rules.REASONS) == set(games.spec_of("doppelkopf").reasons)
    assert all(r.isupper() for r in rules.REASONS)


def test_void_armut_is_redealt_by_the_same_dealer_and_does_not_count():
    spec = games.spec_of("doppelkopf")
    void = exchanged_state(accept=False)
    nxt = spec.next_deal(void.result(), void.dealer, void.game.options)
    assert (nxt.dealer, nxt.counts) == (void.dealer, False) == (void.result()["next_dealer"], False)
    played = new(L1)
    bid(played, *["healthy"] * 4)
    play_layout(played, L1)
    nxt = spec.next_deal(played.result(), played.dealer, played.game.options)
    assert (nxt.dealer, nxt.counts) == ((played.dealer + 1) % 4, True)
    assert played.result()["next_dealer"] == nxt.dealer and played.result()["counts_toward_match"]


def test_match_redeals_a_void_armut():
    from engine_core.match import Match
    game = games.get("doppelkopf")
    for seed in range(500):                       # a first deal whose first seat can bid armut
        state = game.deal(seed, 0)
        if any(a["call"] == "armut" for a in state.legal_actions()):
            break
    match = Match(game, seed, first_dealer=0, deals_per_match=2)
    deal = match.deal()
    assert deal.hands == state.hands
    match.apply({"seat": 1, "type": "bid", "call": "armut"})
    for _ in range(3):
        match.apply({"seat": deal.to_act(), "type": "bid", "call": "healthy"})
    match.apply(deal.legal_actions()[0])
    for _ in range(3):
        result = match.apply({"seat": deal.to_act(), "type": "bid", "call": "decline"})
    assert result["redeal"] and match.dealer == 0 and match.counted == 0 and match.dealt == 1
    assert match.deal().dealer == 0


def test_result_extra_keys():
    r = scored(L1, announcements={(1, 0): ("re",)})
    assert list(r)[:6] == ["contract", "teams", "tricks", "card_points", "scores", "breakdown"]
    assert {k: r[k] for k in ("winner", "team_card_points", "game_value", "extra_points",
                              "next_dealer", "counts_toward_match")} == {
        "winner": "re", "team_card_points": {"re": 213, "kontra": 27}, "game_value": 6,
        "extra_points": {"re": 2, "kontra": 0}, "next_dealer": 0, "counts_toward_match": True}
    assert r["announcements"] == [{"seat": 0, "team": "re", "call": "re", "hand_size": 12, "trick": 1}]
    assert "redeal" not in r


def test_presets_are_the_three_pagat_alternatives_each_on_its_own():
    """Each preset turns on one rule alternative and leaves the others at their defaults
    (docs/rules/doppelkopf.md, "Presets")."""
    alternatives = ("second_heart_ten_beats_first", "solo_player_leads", "charlie_only_when_winning")
    on = []
    # house: the house rules; ddv: the DDV's timing (tests/test_doppelkopf_any_time.py)
    for name in set(games.spec_of("doppelkopf").presets) - {"house", "ddv"}:
        options = games.get("doppelkopf", games.preset("doppelkopf", name)).options.as_dict()
        on.append([a for a in alternatives if options[a]])
    assert sorted(on) == sorted([a] for a in alternatives)
