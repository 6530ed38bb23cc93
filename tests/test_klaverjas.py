"""Klaverjas unit tests: every worked scenario of ../shared/rules/klaverjas.md (S1-S19), every
trumping situation of rules 4.2 in both rulesets, every roem combination, nat, ties and pit,
bidding, options and bad input. Property tests are in test_klaverjas_properties.py."""
import pytest

from engine_core import _rng, games, records
from engine_core.errors import IllegalActionError, InvalidActionError, OptionError
from engine_core.games.klaverjas import GAME, PIT_BONUS_MAX
from engine_core.games.klaverjas.rules import (card_value, legal_cards, position, trick_roem,
                                               trick_winner)
from conftest import without_rule_tables

DEFAULTS = {"ruleset": "amsterdam", "trump_choice": "free", "tie_rule": "nat", "roem": True,
            "nat_roem": "all", "pit_bonus": 100, "deal_packets": [3, 2, 3], "deals_per_match": 16,
            "match_target": 0, "bidding": "none", "stuk": "same_trick", "roem_claim": False}

SUITED = [[r + s for r in "J9ATKQ87"] for s in "HCSD"]          # S10: one suit per seat


def holder(hands, card):
    return next(i for i, h in enumerate(hands) if card in h)


def record(hands, plays, bids=(("trump", "H"),), dealer=3, **options):
    """A record from hands, bids (from eldest on) and the cards in play order."""
    actions, seat = [], (dealer + 1) % 4
    for bid in bids:
        a = {"seat": seat, "type": "bid", "call": bid[0]}
        if bid[0] == "trump":
            a["suit"] = bid[1]
        actions.append(a)
        seat = (seat + 1) % 4
        if len(actions) == 4 and bid[0] == "pass":
            seat = (dealer + 1) % 4
    actions += [{"seat": holder(hands, c), "type": "play", "card": c} for c in plays]
    return {"game": "klaverjas", "options": {**DEFAULTS, **options}, "dealer": dealer,
            "hands": hands, "actions": actions}


def result(hands, plays, **kw):
    state = records.replay(record(hands, plays, **kw))
    assert state.is_over()
    return state.result()


def items(res, name):
    return [b for b in res["breakdown"] if b["item"] == name]


# ---- S1, S2: card points and trick winners -----------------------------------------------
def test_s1_card_points_per_contract():
    for trump in "CSHD":
        deck = [r + s for s in "CSHD" for r in "ATKQJ987"]
        assert sum(card_value(c, trump) for c in deck) == 152
        assert sum(card_value(r + trump, trump) for r in "ATKQJ987") == 62
        assert card_value("J" + trump, trump) + card_value("9" + trump, trump) == 34
    assert [card_value(r + "H", "H") for r in "J9ATKQ87"] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [card_value(r + "C", "H") for r in "ATKQJ987"] == [11, 10, 4, 3, 2, 0, 0, 0]
    assert card_value("JC", "H") + card_value("9C", "H") == 2


def test_s2_trick_winners():
    assert trick_winner(["AH", "9H", "TH", "JS"], "H", 0) == 1      # 9 outranks A in trumps
    assert trick_winner(["KS", "TS", "AC", "QS"], "H", 2) == 3
    assert trick_winner(["KS", "TS", "AC", "7H"], "H", 2) == 1      # the 7 of trumps wins
    assert trick_winner(["9S", "AC", "AD", "TC"], "H", 1) == 1


@pytest.mark.parametrize("trump", "CSHD")
def test_trump_order_is_not_the_natural_order(trump):
    order = [r + trump for r in "J9ATKQ87"]
    for hi in range(8):
        for lo in range(hi + 1, 8):
            assert trick_winner([order[lo], order[hi]], trump, 0) == 1
            assert trick_winner([order[hi], order[lo]], trump, 0) == 0
    plain = next(s for s in "CSHD" if s != trump)
    natural = [r + plain for r in "ATKQJ987"]
    for hi in range(8):
        for lo in range(hi + 1, 8):
            assert trick_winner([natural[lo], natural[hi]], trump, 0) == 1
    assert trick_winner(["A" + plain, "7" + trump], trump, 0) == 1


# ---- S3, S4: roem of one trick ------------------------------------------------------------
@pytest.mark.parametrize("cards,expected", [
    ("KS QS JS 7D", [("roem_run3", 20)]),
    ("TS 9S 8S 7S", [("roem_run4", 50)]),
    ("TS JS 9S 7D", [("roem_run3", 20)]),                 # J-T-9: the ten sits between J and 9
    ("KS QS TS 9S", []),                                   # K-Q and T-9
    ("AS TS KS 7D", []),                                   # A-T-K is not consecutive
    ("9H 8H 7H AC", [("roem_run3", 20)]),                  # trumps use the sequence order too
    ("KC KS KH KD", [("roem_four_of_a_kind", 100)]),
    ("TC TS TH TD", [("roem_four_of_a_kind", 100)]),
    ("AC AS AH AD", [("roem_four_of_a_kind", 100)]),
    ("QC QS QH QD", [("roem_four_of_a_kind", 100)]),       # QH without KH: no stuk
    ("JC JS JH JD", [("roem_four_jacks", 200)]),
    ("9C 9S 9H 9D", []), ("8C 8S 8H 8D", []), ("7C 7S 7H 7D", []),
    ("KH QH 7C 8D", [("roem_stuk", 20)]),
    ("QH 7C KH 8D", [("roem_stuk", 20)]),                  # order in the trick is irrelevant
    ("KH QH JH 7C", [("roem_run3", 20), ("roem_stuk", 20)]),
    ("AH KH QH JH", [("roem_run4", 50), ("roem_stuk", 20)]),
    ("KH QH JH TH", [("roem_run4", 50), ("roem_stuk", 20)]),
    ("AH KH QH 7C", [("roem_run3", 20), ("roem_stuk", 20)]),
    ("KS QS 7C 8D", []),                                   # K-Q of a plain suit
    ("AS KS QS JS", [("roem_run4", 50)]),                  # plain run of 4: no stuk
    ("QS JS TS 7D", [("roem_run3", 20)]),
    ("TS 9S 8S AD", [("roem_run3", 20)]),
    ("AS KS QS 9S", [("roem_run3", 20)]),                  # longest run only
    ("JH 9H AH 7C", []),                                   # the top trumps are no run
    ("JH 9H AH TH", [("roem_run3", 20)]),                  # ... but J-T-9 is
    ("AH TH KH QH", [("roem_run3", 20), ("roem_stuk", 20)]),   # A-K-Q run (T apart) + stuk
    ("7S 8S 9S TS", [("roem_run4", 50)]),
    ("AC KD QH JS", []),                                   # a run needs one suit
])
def test_s3_roem_of_a_trick(cards, expected):
    assert trick_roem(cards.split(), "H") == expected


def test_roem_runs_in_every_suit_and_stuk_only_in_trumps():
    for trump in "CSHD":
        for s in "CSHD":
            got = trick_roem([f"K{s}", f"Q{s}", f"J{s}", "7" + ("C" if s != "C" else "D")], trump)
            want = [("roem_run3", 20)] + ([("roem_stuk", 20)] if s == trump else [])
            assert got == want


def test_s4_roem_off_scores_nothing():
    res = result(SUITED, [c for i in range(8) for c in (SUITED[0][i], SUITED[1][i], SUITED[2][i], SUITED[3][i])],
                 roem=False)
    assert not [b for b in res["breakdown"] if b["item"].startswith("roem")]
    assert res["scores"] == [262, 0, 262, 0]


# ---- S5-S8: legal moves (rules 4.2) ------------------------------------------------------
def legal(hand, trick, leader, ruleset="amsterdam", trump="H"):
    return set(legal_cards(hand.split(), trick.split(), trump, ruleset, leader))


@pytest.mark.parametrize("ruleset", ["amsterdam", "utrecht"])
def test_s5_amsterdam_partner_winning(ruleset):
    assert legal("JH 7H KC 8D", "AS 7S", 0, ruleset) == {"JH", "7H", "KC", "8D"}      # (a)
    assert legal("JH KH QC 8D", "AS TH 7S", 1, ruleset) == {"JH", "QC", "8D"}        # (b)
    assert legal("KH 8H", "AS TH 7S", 1, ruleset) == {"KH", "8H"}                    # (c)
    assert legal("JH KH", "AS TH 7S", 1, ruleset) == {"JH"}                          # (d)


@pytest.mark.parametrize("ruleset", ["amsterdam", "utrecht"])
def test_s6_amsterdam_opponent_winning(ruleset):
    assert legal("JH 7H KC 8D", "AS", 0, ruleset) == {"JH", "7H"}                    # (a)
    assert legal("JH 7H KC 8D", "AS 9H", 0, ruleset) == {"JH"}                       # (b)
    assert legal("9H 7H KC 8D", "AS JH", 0, ruleset) == {"KC", "8D"}                 # (c)
    assert legal("9H 7H", "AS JH", 0, ruleset) == {"9H", "7H"}                       # (d)
    assert legal("KC 8D", "AS JH", 0, ruleset) == {"KC", "8D"}                       # (e)
    assert legal("JH QC", "AS 8H 9H", 3, ruleset) == {"JH"}                          # (f)


def test_s7_rotterdam():
    assert legal("JH 7H KC 8D", "AS 7S", 0, "rotterdam") == {"JH", "7H"}             # (a)
    assert legal("JH KH QC 8D", "AS TH 7S", 1, "rotterdam") == {"JH"}                # (b)
    assert legal("9H 7H KC 8D", "AS JH", 0, "rotterdam") == {"9H", "7H"}             # (c)
    assert legal("KH 8H QC", "AS TH 7S", 1, "rotterdam") == {"KH", "8H"}             # (d)
    assert legal("KC 8D QC", "AS TH 7S", 1, "rotterdam") == {"KC", "8D", "QC"}       # (e)


@pytest.mark.parametrize("ruleset", ["amsterdam", "rotterdam", "utrecht"])
def test_s8_trump_lead_and_following_suit(ruleset):
    assert legal("JH KH AS", "TH 7H", 0, ruleset) == {"JH"}          # beat partner's TH
    assert legal("KH 8H AS", "TH 7H", 0, ruleset) == {"KH", "8H"}    # can't beat: any trump
    assert legal("AS KD", "TH 7H", 0, ruleset) == {"AS", "KD"}       # no trump: anything
    assert legal("7S KS JH", "AS 9H", 0, ruleset) == {"7S", "KS"}    # follow, need not win


@pytest.mark.parametrize("ruleset", ["amsterdam", "rotterdam", "utrecht"])
def test_trump_order_in_overtrumping(ruleset):
    """The ace and ten of trumps are below the 9: a classic source of bugs."""
    assert legal("AH TH 8D", "AS 9H", 0, ruleset) == ({"AH", "TH"} if ruleset == "rotterdam" else {"8D"})
    assert legal("AH 9H 8D", "AS TH", 0, ruleset) == {"AH", "9H"}
    assert legal("JH AH 8D", "AS 9H", 0, ruleset) == {"JH"}
    assert legal("AH KH QH", "9H", 0, ruleset) == {"AH", "KH", "QH"}    # trump led: can't beat 9
    assert legal("JH AH 7C", "9H", 0, ruleset) == {"JH"}
    assert legal("8H 7H", "QH", 0, ruleset) == {"8H", "7H"}
    assert legal("8H AH", "QH", 0, ruleset) == {"AH"}
    assert legal("7H AC", "8H", 0, ruleset) == {"7H"}                    # 8 beats 7: follow with 7


@pytest.mark.parametrize("ruleset", ["amsterdam", "utrecht"])
def test_amsterdam_more_situations(ruleset):
    # leads anything
    assert legal("JH 7C 8D", "", 2, ruleset) == {"JH", "7C", "8D"}
    # plain led, a trump already in, you can follow: any card of the suit (decision 7)
    assert legal("7S AS JH", "KS 7H", 0, ruleset) == {"7S", "AS"}
    # partner winning with a plain card, opponent discarded: anything (decision 5)
    assert legal("JH 7H KC", "AS 7D", 0, ruleset) == {"JH", "7H", "KC"}
    # partner winning with a trump, whole hand trumps, some higher: only the higher (decision 6)
    assert legal("JH 8H 7H", "AS TH 7S", 1, ruleset) == {"JH"}
    # opponent winning with a trump, whole hand trumps, some higher: must overtrump
    assert legal("JH 8H 7H", "AS TH", 0, ruleset) == {"JH"}
    # opponent overtrumped partner: must overtrump the opponent's trump
    assert legal("JH 8H QC", "AS TH 9H", 3, ruleset) == {"JH"}
    # opponent overtrumped partner, can't beat it: discard (no undertrumping)
    assert legal("AH QC", "AS TH 9H", 3, ruleset) == {"QC"}
    # last hand: partner (seat 1) trumped, the opponent after him overtrumped
    assert legal("AH KH QC", "AS 8H 9H", 0, ruleset) == {"QC"}
    assert legal("JH KH QC", "AS 8H 9H", 0, ruleset) == {"JH"}
    # last hand: partner trumped and the opponent after him could not overtrump (S5 b)
    assert legal("JH KH QC", "AS 9H TH", 0, ruleset) == {"JH", "QC"}
    assert legal("AH KH QC", "AS 9H 8D", 0, ruleset) == {"QC"}
    # opponent winning with a plain card after partner discarded: any trump, no discard
    assert legal("7H 8H KC", "7S AS", 1, ruleset) == {"7H", "8H"}
    # second hand with no trump in the trick, opponent (leader) winning: any trump
    assert legal("JH 7H 8H AD", "KS", 0, ruleset) == {"JH", "7H", "8H"}
    # void and no trumps: anything
    assert legal("KC 8D", "AS TH", 0, ruleset) == {"KC", "8D"}
    # last hand, partner (second seat) winning with a trump, hand only lower trumps
    assert legal("8H 7H", "AS QH 7S", 2, ruleset) == {"8H", "7H"}


def test_rotterdam_more_situations():
    # partner winning with a plain card: must still trump (any trump: none in the trick)
    assert legal("8H 7H KC", "AS 7D", 0, "rotterdam") == {"8H", "7H"}
    # partner winning with a trump: must overtrump, else undertrump (never discard)
    assert legal("AH QC", "AS 9H 7S", 1, "rotterdam") == {"AH"}
    assert legal("AH JH QC", "AS 9H 7S", 1, "rotterdam") == {"JH"}
    # opponent winning with a trump, only lower trumps + plain cards: undertrump
    assert legal("AH 7H QC 8D", "AS 9H", 0, "rotterdam") == {"AH", "7H"}
    # can follow: follow
    assert legal("AS 7S JH", "KS 9H", 0, "rotterdam") == {"AS", "7S"}
    # trump led, beat every trump in the trick
    assert legal("AH TH JS", "KH 9H", 0, "rotterdam") == {"AH", "TH"}
    assert legal("AH TH JS", "KH 9H JH", 0, "rotterdam") == {"AH", "TH"}      # can't beat JH


@pytest.mark.parametrize("trump", "CSHD")
def test_trumping_in_every_contract(trump):
    plain = next(s for s in "SCDH" if s != trump)
    other = next(s for s in "DHCS" if s not in (trump, plain))
    t = lambda r: r + trump  # noqa: E731
    assert legal(f"{t('J')} {t('A')} K{other}", f"A{plain} {t('9')}", 0, trump=trump) == {t("J")}
    assert legal(f"{t('T')} {t('A')} K{other}", f"A{plain} {t('9')}", 0, trump=trump) == {f"K{other}"}
    assert legal(f"{t('T')} {t('A')} K{other}", f"A{plain} {t('9')}", 0, "rotterdam", trump) == {t("T"), t("A")}


# ---- explanations ------------------------------------------------------------------------
def why(hand, trick, leader, card, ruleset="amsterdam"):
    core = position(hand.split(), trick.split(), "H", ruleset, leader)
    code = "ATKQJ987".index(card[0]) + 8 * "CSHD".index(card[1])
    assert not core.legal_mask() >> code & 1, f"{card} is legal"
    return core.explain(code)[1]


def test_explanations_name_the_rule_and_the_cards():
    assert "must overtrump: you hold JH" in why("JH 7H KC 8D", "AS 9H", 0, "7H")
    assert "must overtrump: you hold JH" in why("JH 7H KC 8D", "AS 9H", 0, "KC")
    assert "must trump" in why("JH 7H KC 8D", "AS", 0, "KC")
    assert "JH, 7H" in why("JH 7H KC 8D", "AS", 0, "KC")
    assert "undertrump" in why("9H 7H KC 8D", "AS JH", 0, "9H")
    assert "KC, 8D" in why("9H 7H KC 8D", "AS JH", 0, "9H")
    assert "undertrump your partner's TH" in why("JH KH QC 8D", "AS TH 7S", 1, "KH")
    assert "must follow spades: you hold" in why("7S KS JH", "AS 9H", 0, "JH")
    assert "trumps were led" in why("JH KH AS", "TH 7H", 0, "KH")
    assert "must overtrump: you hold JH" in why("JH KH AS", "TH 7H", 0, "AS")
    assert "trumps were led: you must play a trump" in why("KH 8H AS", "TH 7H", 0, "AS")
    text = why("JH KH QC 8D", "AS TH 7S", 1, "QC", "rotterdam")
    assert "Rotterdam" in text and "must overtrump: you hold JH" in text
    text = why("JH 7H KC 8D", "AS 7S", 0, "KC", "rotterdam")
    assert "Rotterdam" in text and "must trump" in text and "partner" in text
    assert "undertrump" in why("9H 7H KC 8D", "AS JH", 0, "KC", "rotterdam")


# ---- bidding: S9, S10, S10b --------------------------------------------------------------
def bids(state):
    return [(a["call"], a.get("suit")) for a in state.legal_actions()]


def test_s9_first_naming_ends_the_bidding_and_eldest_leads():
    state = games.get("klaverjas").new_deal(SUITED, dealer=3)
    assert state.to_act() == 0 and len(bids(state)) == 5
    state.apply({"seat": 0, "type": "bid", "call": "pass"})
    state.apply({"seat": 1, "type": "bid", "call": "trump", "suit": "S"})
    assert state.phase() == "play" and state.to_act() == 0
    with pytest.raises(IllegalActionError):
        state.apply({"seat": 0, "type": "bid", "call": "trump", "suit": "H"})
    view = state.view(2)
    assert view["contract"]["maker"] == 1 and view["teams"] == [[1, 3], [0, 2]]
    assert view["contract"]["forced"] is False


def test_s10_four_passes_force_eldest():
    state = games.get("klaverjas").new_deal(SUITED, dealer=3)
    for seat in range(4):
        state.apply({"seat": seat, "type": "bid", "call": "pass"})
    assert state.to_act() == 0
    assert bids(state) == [("trump", s) for s in "CSHD"]
    reason = state.why_illegal({"seat": 0, "type": "bid", "call": "pass"})
    assert "all four players passed" in reason and "must now name a trump suit" in reason
    state.apply({"seat": 0, "type": "bid", "call": "trump", "suit": "C"})   # a passed suit is fine
    assert state.view(0)["contract"]["forced"] is True


def test_s10_forced_contract_with_pit_and_600_roem():
    plays = [c for i in range(8) for c in (SUITED[0][i], SUITED[1][i], SUITED[2][i], SUITED[3][i])]
    res = result(SUITED, plays, bids=[("pass",)] * 4 + [("trump", "H")])
    assert res["contract"]["forced"] is True and res["contract"]["outcome"] == "made"
    assert res["card_points"] == [162, 0, 0, 0]
    assert [b["value"] for b in res["breakdown"] if b["item"].startswith("roem")] == [200, 100, 100, 100, 100]
    assert items(res, "pit") == [{"item": "pit", "team": 0, "value": 100}]
    assert res["team_totals"] == [862, 0] and res["scores"] == [862, 0, 862, 0]


@pytest.mark.parametrize("options,dealer,chooser", [
    ({"ruleset": "utrecht"}, 3, 0),
    ({"ruleset": "utrecht", "trump_choice": None}, 0, 1),
    ({"ruleset": "utrecht", "trump_choice": "compulsory"}, 2, 3),
    ({"ruleset": "rotterdam", "trump_choice": "compulsory"}, 1, 2),
    ({"trump_choice": "compulsory"}, 1, 2),
])
def test_s10b_compulsory_choice(options, dealer, chooser):
    game = games.get("klaverjas", options)
    assert game.options.trump_choice == "compulsory"
    state = game.new_deal(SUITED, dealer=dealer)
    assert state.to_act() == chooser and bids(state) == [("trump", s) for s in "CSHD"]
    reason = state.why_illegal({"seat": chooser, "type": "bid", "call": "pass"})
    assert "compulsory" in reason and "legal: trump C, trump S, trump H, trump D" in reason
    state.apply({"seat": chooser, "type": "bid", "call": "trump", "suit": "D"})
    assert state.to_act() == (dealer + 1) % 4 and state.view(0)["contract"]["forced"] is True
    assert state.record()["options"]["trump_choice"] == "compulsory"


# ---- scoring: S11-S18 --------------------------------------------------------------------
S11_HANDS = [["JH", "AH", "9C", "7C", "JS", "KS", "TD", "JD"],
             ["8H", "9H", "KC", "QC", "8S", "7S", "7D", "9D"],
             ["QH", "KH", "AC", "JC", "AS", "9S", "KD", "8D"],
             ["7H", "TH", "TC", "8C", "QS", "TS", "QD", "AD"]]
S11_PLAYS = ("JH 8H QH 7H 9C KC AC TC AS QS JS 8S KD QD TD 7D AH 9H KH TH "
             "QC JC 8C 7C 7S 9S TS KS AD JD 9D 8D").split()


def test_s11_tie_is_nat():
    res = result(S11_HANDS, S11_PLAYS)
    assert [t[2] for t in res["tricks"]] == [0, 2, 2, 0, 1, 1, 3, 3]
    assert res["card_points"] == [40, 44, 41, 37]
    assert res["team_totals"] == [81, 81]
    assert res["contract"]["outcome"] == "nat" and res["scores"] == [0, 162, 0, 162]
    assert items(res, "nat") == [{"item": "nat", "team": 1, "value": 162}]


def test_s12_tie_half_nat():
    res = result(S11_HANDS, S11_PLAYS, tie_rule="half_nat")
    assert res["contract"]["outcome"] == "half_nat" and res["scores"] == [0, 81, 0, 81]


def test_s10b_utrecht_replays_s11_the_same():
    res = result(S11_HANDS, S11_PLAYS, ruleset="utrecht", trump_choice="compulsory")
    assert res["scores"] == [0, 162, 0, 162] and res["contract"]["forced"] is True


def test_s13_made():
    hands = [list(h) for h in S11_HANDS]
    hands[0][hands[0].index("7C")] = "QC"
    hands[1][hands[1].index("QC")] = "7C"
    plays = S11_PLAYS[:20] + "7C JC 8C QC KS 7S 9S TS AD JD 9D 8D".split()
    res = result(hands, plays)
    assert res["card_points"] == [45, 39, 41, 37]
    assert res["team_totals"] == [86, 76] and res["scores"] == [86, 76, 86, 76]
    assert res["contract"]["outcome"] == "made" and not items(res, "nat")
    # half_nat only matters for ties
    assert result(hands, plays, tie_rule="half_nat")["scores"] == [86, 76, 86, 76]


def test_s14_pit_by_the_maker():
    plays = [c for i in range(8) for c in (SUITED[0][i], SUITED[1][i], SUITED[2][i], SUITED[3][i])]
    res = result(SUITED, plays)
    assert res["team_totals"] == [862, 0] and res["scores"] == [862, 0, 862, 0]
    assert items(res, "pit")[0]["value"] == 100


def test_s15_nat_with_the_defenders_pit():
    plays = [c for i in range(8) for c in (SUITED[0][i], SUITED[1][i], SUITED[2][i], SUITED[3][i])]
    res = result(SUITED, plays, bids=[("pass",), ("pass",), ("pass",), ("trump", "H")])
    assert res["teams"] == [[1, 3], [0, 2]] and res["contract"]["maker"] == 3
    assert res["contract"]["outcome"] == "nat"
    assert res["team_totals"] == [0, 862] and res["scores"] == [862, 0, 862, 0]
    assert items(res, "pit") == [{"item": "pit", "team": 1, "value": 100}]


@pytest.mark.parametrize("options,score", [({"roem": False}, 262), ({"roem": False, "pit_bonus": 0}, 162),
                                           ({"pit_bonus": 0}, 762), ({"pit_bonus": 37}, 799)])
def test_s16_roem_off_and_pit_bonus(options, score):
    plays = [c for i in range(8) for c in (SUITED[0][i], SUITED[1][i], SUITED[2][i], SUITED[3][i])]
    res = result(SUITED, plays, **options)
    assert res["scores"] == [score, 0, score, 0]
    assert bool(items(res, "pit")) == (options.get("pit_bonus", 100) > 0)


S17_HANDS = [["JH", "AH", "AS", "7S", "QC", "9C", "QD", "JD"],
             ["QH", "9H", "KS", "TS", "JC", "AC", "7D", "9D"],
             ["8H", "KH", "QS", "JS", "8C", "KC", "KD", "8D"],
             ["7H", "TH", "9S", "8S", "7C", "TC", "TD", "AD"]]
S17_PLAYS = ("JH QH 8H 7H AS KS QS 9S QC JC 8C 7C AH 9H KH TH AC KC TC 9C "
             "TS JS 8S 7S 7D KD TD QD AD JD 9D 8D").split()


@pytest.mark.parametrize("options,scores", [
    ({}, [0, 182, 0, 182]),
    ({"nat_roem": "own"}, [0, 162, 0, 162]),
    ({"tie_rule": "half_nat"}, [0, 182, 0, 182]),            # not a tie: plain nat
    ({"roem": False}, [0, 162, 0, 162]),
])
def test_s17_the_nat_teams_roem_goes_to_the_defenders(options, scores):
    res = result(S17_HANDS, S17_PLAYS, **options)
    assert res["scores"] == scores and res["contract"]["outcome"] == "nat"
    if options.get("roem", True):
        assert items(res, "roem_run3") == [{"item": "roem_run3", "team": 0, "trick": 1, "value": 20}]
        assert res["team_totals"] == [66, 116]


S18_HANDS = [["7H", "9H", "8S", "QS", "JC", "9C", "9D", "TD"],
             ["JH", "AH", "TS", "7S", "8C", "TC", "JD", "QD"],
             ["QH", "KH", "9S", "KS", "7C", "AC", "8D", "KD"],
             ["8H", "TH", "JS", "AS", "QC", "KC", "AD", "7D"]]
S18_PLAYS = ("7H JH QH 8H TS 9S JS 8S 7S KS AS QS QC JC 8C 7C AD 9D JD 8D "
             "TH 9H AH KH 9C TC AC KC KD 7D TD QD").split()


def test_s18_roem_overturns_a_card_point_majority():
    res = result(S18_HANDS, S18_PLAYS)
    assert res["card_points"] == [66, 35, 25, 36]
    assert [(b["item"], b["trick"], b["team"]) for b in res["breakdown"] if "trick" in b] == \
        [("roem_run4", 1, 1), ("roem_run3", 2, 1)]
    assert res["team_totals"] == [91, 141] and res["scores"] == [0, 232, 0, 232]
    assert result(S18_HANDS, S18_PLAYS, roem=False)["scores"] == [91, 71, 91, 71]
    assert result(S18_HANDS, S18_PLAYS, nat_roem="own")["scores"] == [0, 232, 0, 232]


def test_tie_with_roem_on_both_sides_and_half_nat():
    """A constructed tie where both teams hold roem: nat hands everything to the defenders,
    half_nat leaves them their own total."""
    res = result(S18_HANDS, S18_PLAYS)
    assert res["team_totals"][0] != res["team_totals"][1]
    # the S11 deal is the tie: with nat_roem own nothing changes (no roem)
    assert result(S11_HANDS, S11_PLAYS, nat_roem="own")["scores"] == [0, 162, 0, 162]


def test_breakdown_order_and_sums():
    res = result(S18_HANDS, S18_PLAYS)
    names = [b["item"] for b in res["breakdown"]]
    assert names == ["cards", "last_trick", "cards", "roem_run4", "roem_run3", "total", "total",
                     "nat", "score", "score"]
    for team in range(2):
        parts = sum(b["value"] for b in res["breakdown"]
                    if b["team"] == team and b["item"] not in ("total", "score", "nat", "half_nat"))
        assert parts == res["team_totals"][team]


# ---- S19 and bad input: precise reasons, legal alternatives, state unchanged ----------------
def started(trump="H", dealer=3):
    state = games.get("klaverjas").new_deal(S11_HANDS, dealer=dealer)
    state.apply({"seat": (dealer + 1) % 4, "type": "bid", "call": "trump", "suit": trump})
    return state


@pytest.mark.parametrize("action,error,fragment", [
    ({"seat": 1, "type": "play", "card": "8H"}, IllegalActionError, "seat 1 is not to act: seat 0 is"),
    ({"seat": 0, "type": "play", "card": "QH"}, IllegalActionError, "QH is not in seat 0's hand"),
    ({"seat": 0, "type": "play", "card": "10H"}, InvalidActionError, "bad card code"),
    ({"seat": 0, "type": "bid", "call": "pass"}, IllegalActionError,
     "a bid action is not allowed in the play phase"),
    ({"seat": 0, "type": "play"}, InvalidActionError, "missing field 'card'"),
    ({"seat": 0, "type": "discard", "card": "JH"}, InvalidActionError, "unknown action type"),
    ("JH", InvalidActionError, "must be a JSON object"),
])
def test_bad_actions_in_play(action, error, fragment):
    """Malformed actions are InvalidActionError, well-formed ones the rules refuse
    IllegalActionError; neither changes anything."""
    state = started()
    before = (state.record(), state.view(0), state.legal_actions())
    with pytest.raises(error) as err:
        state.apply(action)
    assert fragment in err.value.reason
    assert (state.record(), state.view(0), state.legal_actions()) == before


def test_s19_trump_lead_answered_with_a_plain_card():
    state = started()
    state.apply({"seat": 0, "type": "play", "card": "JH"})
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 1, "type": "play", "card": "KC"})
    assert "trumps were led" in err.value.reason and "legal: 9H, 8H" in err.value.reason
    assert err.value.reason_id == "MUST_FOLLOW_SUIT"
    assert {a["card"] for a in err.value.legal} == {"9H", "8H"}


@pytest.mark.parametrize("action,error,fragment", [
    ({"seat": 0, "type": "bid", "call": "trump", "suit": "X"}, InvalidActionError, "bad suit"),
    ({"seat": 0, "type": "bid", "call": "trump"}, InvalidActionError, "needs a 'suit'"),
    ({"seat": 0, "type": "bid", "call": "pass", "suit": "H"}, InvalidActionError, "takes no suit"),
    ({"seat": 0, "type": "bid", "call": "no_trump"}, InvalidActionError, "unknown bid call"),
    ({"seat": 2, "type": "bid", "call": "pass"}, IllegalActionError, "seat 2 is not to act: seat 0 is"),
    ({"seat": 0, "type": "play", "card": "JH"}, IllegalActionError,
     "a play action is not allowed in the bidding phase"),
])
def test_bad_bids(action, error, fragment):
    state = games.get("klaverjas").new_deal(S11_HANDS, dealer=3)
    with pytest.raises(error) as err:
        state.apply(action)
    assert fragment in err.value.reason
    assert state.actions == [] and state.to_act() == 0


def test_replay_rejects_at_the_first_illegal_action():
    rec = record(S11_HANDS, S11_PLAYS)
    rec["actions"][2]["card"] = "KC"          # seat 1 answers JH with a club holding trumps
    with pytest.raises(IllegalActionError) as err:
        records.replay(rec)
    assert err.value.index == 2
    out = records.evaluate(rec)
    assert out["error"]["index"] == 2 and "actions[2]" in out["error"]["reason"]
    rec = record(S11_HANDS, S11_PLAYS)
    rec["actions"].append({"seat": 3, "type": "play", "card": "AD"})
    assert records.evaluate(rec)["error"] == {"index": 33, "reason": "actions[33]: the deal is over",
                                              "reason_id": "DEAL_OVER"}


# ---- options -------------------------------------------------------------------------------
@pytest.mark.parametrize("options,field", [
    ({"ruleset": "utrecht", "trump_choice": "free"}, "options.trump_choice"),
    ({"ruleset": "berlin"}, "options.ruleset"),
    ({"trump_choice": "auction"}, "options.trump_choice"),
    ({"deal_packets": [3, 3]}, "options.deal_packets"),
    ({"deal_packets": [0, 8]}, "options.deal_packets"),
    ({"deal_packets": "3-2-3"}, "options.deal_packets"),
    ({"deal_packets": []}, "options.deal_packets"),
    ({"pit_bonus": -1}, "options.pit_bonus"),
    ({"pit_bonus": PIT_BONUS_MAX + 1}, "options.pit_bonus"),
    ({"pit_bonus": 2**31 - 1}, "options.pit_bonus"),
    ({"deal_packets": [9, -1]}, "options.deal_packets"),
    ({"deals_per_match": 0}, "options.deals_per_match"),
    ({"deals_per_match": 1001}, "options.deals_per_match"),
    ({"match_target": -1}, "options.match_target"),
    ({"match_target": 10_001}, "options.match_target"),
    ({"match_target": "1500"}, "options.match_target"),
    ({"match_target": True}, "options.match_target"),
    ({"roem": "yes"}, "options.roem"),
    ({"tie_rule": "replay"}, "options.tie_rule"),
    ({"nat_roem": "none"}, "options.nat_roem"),
    ({"kontra": True}, "options.kontra"),
])
def test_bad_options(options, field):
    with pytest.raises(OptionError) as err:
        games.get("klaverjas", options)
    assert err.value.field == field


def test_utrecht_free_is_a_record_error():
    rec = record(S11_HANDS, S11_PLAYS, ruleset="utrecht")
    out = records.evaluate(rec)
    assert out["error"]["index"] is None and "utrecht" in out["error"]["reason"]


def test_options_are_stored_resolved():
    state = games.get("klaverjas", {"ruleset": "utrecht"}).new_deal(S11_HANDS, 3)
    assert state.record()["options"] == {**DEFAULTS, "ruleset": "utrecht", "trump_choice": "compulsory"}
    state = games.get("klaverjas").new_deal(S11_HANDS, 3)
    assert state.record()["options"] == DEFAULTS
    state = games.get("klaverjas", {"deal_packets": [4, 4], "deals_per_match": 8}).new_deal(S11_HANDS, 3)
    assert state.record()["options"]["deal_packets"] == [4, 4]


def test_deal_packets():
    """Packets as data: each size in turn to dealer+1, dealer+2, dealer+3 and the dealer; the
    one deal function hands them out from the shuffled deck."""
    game = games.get("klaverjas")
    assert GAME.packets(game.options) == [(0, 3), (1, 3), (2, 3), (3, 3), (0, 2), (1, 2), (2, 2), (3, 2),
                                          (0, 3), (1, 3), (2, 3), (3, 3)]
    four = games.get("klaverjas", {"deal_packets": [4, 4]})
    assert GAME.packets(four.options) == [(0, 4), (1, 4), (2, 4), (3, 4)] * 2
    for g, sizes in ((game, (3, 2, 3)), (four, (4, 4))):
        for dealer in range(4):
            order, pos = _rng.shuffle(11, 32), 0
            want = [set() for _ in range(4)]
            for size in sizes:
                for k in range(1, 5):
                    want[(dealer + k) % 4] |= set(order[pos:pos + size])
                    pos += size
            hands = g.deal(seed=11, dealer=dealer).hands
            assert [{g.deck.face_index(c) for c in h} for h in hands] == want
    a = games.get("klaverjas").deal(seed=7, dealer=1)
    b = games.get("klaverjas", {"deal_packets": [4, 4]}).deal(seed=7, dealer=1)
    assert sorted(sum(a.hands, [])) == sorted(sum(b.hands, [])) and a.hands != b.hands


# ---- views, hidden information, the Core step API ------------------------------------------
def test_view_hides_other_hands_and_sorts_trumps_first():
    state = started()
    view = state.view(1)
    assert view["hand"] == ["9H", "8H", "KC", "QC", "8S", "7S", "9D", "7D"]
    assert view["legal"] == []
    text = repr(without_rule_tables(view))
    for seat in (0, 2, 3):
        for card in S11_HANDS[seat]:
            assert f"'{card}'" not in text
    assert state.view(0)["legal"] and state.view(0)["hand"][:2] == ["JH", "AH"]
    bidding = games.get("klaverjas").new_deal(S11_HANDS, 3)
    assert bidding.view(0)["hand"] == ["9C", "7C", "KS", "JS", "AH", "JH", "TD", "JD"]


def test_public_roem_and_undo_copy():
    state = games.get("klaverjas").new_deal(S18_HANDS, dealer=3)
    state.apply({"seat": 0, "type": "bid", "call": "trump", "suit": "H"})
    for c in S18_PLAYS[:8]:
        state.apply({"seat": holder(S18_HANDS, c), "type": "play", "card": c})
    assert state.view(2)["roem"] == [{"item": "roem_run4", "team": 1, "trick": 1, "value": 50}]
    core = state.core.copy()
    code = core.legal_codes()[0]
    core.apply(code)
    core.undo()
    assert core.legal_codes() == state.core.legal_codes()
    with pytest.raises(ValueError):
        core.apply(63)


def test_record_replay_roundtrip():
    rec = record(S17_HANDS, S17_PLAYS)
    state = records.replay(rec)
    assert state.record() == rec
    again = records.replay(state.record())
    assert again.result() == state.result() and again.record() == state.record()


def test_canonical_option_strings():
    assert str(games.get("klaverjas").options) == "klaverjas()"
    assert str(games.get("klaverjas", {"ruleset": "utrecht"}).options) == \
        "klaverjas(ruleset=utrecht,trump_choice=compulsory)"
    assert str(games.get("klaverjas", {"deal_packets": [4, 4]}).options) == "klaverjas(deal_packets=4-4)"
    assert hash(games.get("klaverjas", {"deal_packets": [4, 4]}).options)


# ---- option ranges: no score can overflow ----------------------------------------------------
@pytest.mark.parametrize("name,value,text", [
    ("pit_bonus", -1, f"0..{PIT_BONUS_MAX}"),
    ("pit_bonus", PIT_BONUS_MAX + 1, f"0..{PIT_BONUS_MAX}"),
    ("deals_per_match", 0, "1..1000"),
    ("deals_per_match", 1001, "1..1000"),
    ("match_target", -1, "0..10000"),
    ("match_target", 10_001, "0..10000"),
    ("deal_packets", [9], "1..8"),
    ("deal_packets", [0, 8], "1..8"),
])
def test_option_just_outside_its_range_is_refused(name, value, text):
    with pytest.raises(OptionError) as err:
        games.get("klaverjas", {name: value})
    assert err.value.field == f"options.{name}" and text in str(err.value)


def test_every_integer_option_has_a_range():
    for spec in GAME.options:
        if spec.kind in ("int", "int_list"):
            assert spec.minimum is not None and spec.maximum is not None, spec.name


def test_pit_at_the_maximum_bonus_is_made():
    """At the largest pit_bonus a pit is still made (with 32-bit totals 2^31-1 turned it nat)."""
    plays = [c for i in range(8) for c in (SUITED[0][i], SUITED[1][i], SUITED[2][i], SUITED[3][i])]
    res = result(SUITED, plays, pit_bonus=PIT_BONUS_MAX)
    top = 162 + 600 + PIT_BONUS_MAX
    assert res["contract"]["outcome"] == "made"
    assert res["team_totals"] == [top, 0] and res["scores"] == [top, 0, top, 0]
    assert items(res, "pit") == [{"item": "pit", "team": 0, "value": PIT_BONUS_MAX}]
    # the defenders' pit at the maximum: nat, the whole deal to them
    res = result(SUITED, plays, bids=[("pass",), ("pass",), ("pass",), ("trump", "H")], pit_bonus=PIT_BONUS_MAX)
    assert res["contract"]["outcome"] == "nat" and res["scores"] == [top, 0, top, 0]


# ---- reason ids ---------------------------------------------------------------------------------
@pytest.mark.parametrize("hand,trick,leader,card,ruleset,reason_id", [
    ("JH 7H KC 8D", "AS 9H", 0, "7H", "amsterdam", "MUST_OVERTRUMP"),
    ("JH 7H KC 8D", "AS", 0, "KC", "amsterdam", "MUST_TRUMP"),
    ("9H 7H KC 8D", "AS JH", 0, "9H", "amsterdam", "NO_UNDERTRUMP"),
    ("JH KH QC 8D", "AS TH 7S", 1, "KH", "amsterdam", "NO_UNDERTRUMP_PARTNER"),
    ("7S KS JH", "AS 9H", 0, "JH", "amsterdam", "MUST_FOLLOW_SUIT"),
    ("KH 8H AS", "TH 7H", 0, "AS", "amsterdam", "MUST_FOLLOW_SUIT"),
    ("JH KH AS", "TH 7H", 0, "KH", "rotterdam", "MUST_OVERTRUMP"),
    ("JH KH QC 8D", "AS TH 7S", 1, "QC", "rotterdam", "MUST_OVERTRUMP"),
    ("9H 7H KC 8D", "AS JH", 0, "KC", "rotterdam", "MUST_UNDERTRUMP"),
    ("JH 7H KC 8D", "AS 7S", 0, "KC", "rotterdam", "MUST_TRUMP"),
])
def test_explanations_have_stable_reason_ids(hand, trick, leader, card, ruleset, reason_id):
    core = position(hand.split(), trick.split(), "H", ruleset, leader)
    code = "ATKQJ987".index(card[0]) + 8 * "CSHD".index(card[1])
    got, text = core.explain(code)
    assert got == reason_id and got in GAME.reasons and text


def test_refused_passes_carry_their_reason_id():
    state = games.get("klaverjas", {"ruleset": "utrecht"}).new_deal(SUITED, dealer=3)
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 0, "type": "bid", "call": "pass"})
    assert err.value.reason_id == "COMPULSORY_TRUMP_CHOICE" and "Utrecht rules" in err.value.reason
    state = games.get("klaverjas").new_deal(SUITED, dealer=3)
    for seat in range(4):
        state.apply({"seat": seat, "type": "bid", "call": "pass"})
    with pytest.raises(IllegalActionError) as err:
        state.apply({"seat": 0, "type": "bid", "call": "pass"})
    assert err.value.reason_id == "ALL_PASSED_MUST_NAME"


# ---- hidden information: only the hands are hidden, every played card is public ------------------
def _cards_in(obj):
    text = repr(without_rule_tables(obj))
    return {c for c in (r + s for s in "CSHD" for r in "ATKQJ987") if f"'{c}'" in text}


@pytest.mark.parametrize("steps", [0, 1, 3, 6, 18, 37])
def test_no_seat_or_spectator_sees_an_unplayed_card_of_another_hand(steps):
    rec = record(S17_HANDS, S17_PLAYS)
    state = games.get("klaverjas").new_deal(S17_HANDS, dealer=3)
    for action in rec["actions"][:steps]:
        state.apply(action)
    played = {a["card"] for a in state.actions if a["type"] == "play"}
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        own = set() if seat is None else set(S17_HANDS[seat])
        assert view["seat"] == seat
        assert set(view["hand"]) == own - played
        others = {c for s in range(4) if s != seat for c in S17_HANDS[s]} - played
        assert not _cards_in({k: v for k, v in view.items() if k != "hand"}) & others
        # every action is public: bids are spoken, cards are played face up
        assert view["actions"] == state.actions
        assert [state.core.redact(i, a, seat) for i, a in enumerate(state.actions)] == state.actions
    assert state.view(None)["legal"] == [] and state.view(None)["hand"] == []


def test_finished_result_is_the_same_for_every_seat_and_the_spectator():
    state = records.replay(record(S17_HANDS, S17_PLAYS))
    res = state.result()
    assert _cards_in(res["tricks"]) == set(S17_PLAYS)       # only played cards, face up
    for seat in (None, 0, 1, 2, 3):
        assert state.result_for(seat) == res
        assert state.view(seat)["result"] == res
    assert state.view(None)["tricks"] == res["tricks"]


def test_public_accepts_a_spectator_and_refuses_a_bad_seat():
    state = started()
    assert state.core.public(None) == state.core.public(0) == state.core.public(3)
    with pytest.raises(ValueError):
        state.core.public(4)
    with pytest.raises(ValueError):
        state.view(-1)


# ---- random playouts: uniform over the legal actions, the template's draw -----------------------
M64 = (1 << 64) - 1


class SplitMix:
    """SplitMix64 with Lemire's bounded integers, as _rng.pxd documents them."""

    def __init__(self, seed):
        self.s = seed

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n):
        m = (self.next() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            t = ((1 << 32) - n) % n
            while low < t:
                m = (self.next() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32


@pytest.mark.parametrize("options", [{}, {"ruleset": "rotterdam"}, {"ruleset": "utrecht"}])
@pytest.mark.parametrize("seed", [0, 5, 2**63 + 11])
def test_random_playout_draws_uniformly_from_the_legal_codes(options, seed):
    """Core.random_playout picks legal_codes()[below(n)] (no draw when one action is legal),
    exactly as the engine's uniform_action, and is undoable move by move."""
    start = games.get("klaverjas", options).deal(seed=seed, dealer=seed % 4).core
    core = start.copy()
    scores = core.random_playout(seed)
    assert core.is_over() and scores == core.scores() and core.result()["scores"] == scores
    mirror, rng, moves = start.copy(), SplitMix(seed), 0
    while not mirror.is_over():
        codes = mirror.legal_codes()
        mirror.apply(codes[rng.below(len(codes))] if len(codes) > 1 else codes[0])
        moves += 1
    assert mirror.result() == core.result()
    for _ in range(moves):
        core.undo()
    assert core.legal_codes() == start.legal_codes() and core.phase() == "bidding"
    with pytest.raises(ValueError):
        core.undo()


def test_random_playouts_keep_the_invariants():
    game = games.get("klaverjas", {"tie_rule": "half_nat"})
    outcomes = set()
    for k in range(300):
        core = game.deal_k(99, k, dealer=k % 4).core
        scores = core.random_playout(k)
        res = core.result()
        outcomes.add(res["contract"]["outcome"])
        assert sum(res["card_points"]) == 162 and scores[0] == scores[2] and scores[1] == scores[3]
        assert len(res["tricks"]) == 8 and res["teams"][0] == sorted([res["contract"]["maker"] % 2,
                                                                       res["contract"]["maker"] % 2 + 2])
    assert outcomes >= {"made", "nat"}


def test_an_analysis_position_plays_on_within_the_rules():
    """position() gives the other seats stand-in cards, so that stepping on never meets an
    empty hand."""
    core = position("JH 7H KC 8D".split(), "AS 9H".split(), "H", "amsterdam", 0)
    assert [bin(core.hand(s)).count("1") for s in range(4)] == [3, 3, 4, 4]
    assert set(legal_cards("JH 7H KC 8D".split(), "AS 9H".split(), "H")) == {"JH"}
    core.random_playout(3)
    assert core.is_over() and len(core.result()["tricks"]) == 8


# ---- the perfect-information solver over the rule hooks ----------------------------------------
def raw_total(result, team):
    """A team's total before the nat rule: its cards, last trick, roem and pit items."""
    return sum(b["value"] for b in result["breakdown"]
               if b["team"] == team and b["item"] not in ("total", "nat", "half_nat", "score"))


def minimax_total(core, side, margin=False):
    """Plain minimax (no pruning) of the side's team total (or its margin over the others)."""
    if core.is_over():
        res = core.result()
        team = 0 if side[0] % 2 == res["teams"][0][0] % 2 else 1
        return raw_total(res, team) - (raw_total(res, 1 - team) if margin else 0)
    values = []
    for code in core.legal_list():
        core.apply(code)
        values.append(minimax_total(core, side, margin))
        core.undo()
    return max(values) if core.to_act() in side else min(values)


def pit_positions(options, n, tricks_left=3):
    """Card-play positions where one team has won every trick so far (the pit still open),
    and others, from random deals."""
    import random
    game, rng, found = games.get("klaverjas", options), random.Random(4), 0
    for seed in range(4000):
        state = game.deal(seed=seed, dealer=seed % 4)
        while not state.is_over() and len(state.view(0)["tricks"]) < 8 - tricks_left:
            legal = state.legal_actions()
            # the first legal card is the lowest index: biased play gives one-sided deals
            state.apply(legal[0] if rng.random() < 0.7 else rng.choice(legal))
        won = state.view(None)["tricks_won"]
        if (won[0] + won[2]) * (won[1] + won[3]) == 0 or found % 3 == 2:
            yield state
            found += 1
            if found == n:
                return


@pytest.mark.parametrize("options", [{}, {"pit_bonus": 500}, {"roem": False, "pit_bonus": 250},
                                     {"ruleset": "rotterdam", "pit_bonus": PIT_BONUS_MAX}])
def test_solver_values_equal_minimax_with_roem_and_pit(options):
    from engine_core import solver
    checked = pits = 0
    for state in pit_positions(options, 12):
        solution = solver.solve(state)
        side = solution.objective.side
        maker = state.view(None)["contract"]["maker"]
        assert side == (maker % 2, maker % 2 + 2)
        assert solution.exact and solution.value == minimax_total(state.core.copy(), side)
        margin = minimax_total(state.core.copy(), side, margin=True)
        assert solver.reaches(state, "win") == (margin >= 1)
        for entry in solver.values(state):
            child = state.copy()
            child.apply(entry["action"])
            assert entry["value"] == minimax_total(child.core.copy(), side)
        won = state.view(None)["tricks_won"]
        pits += (won[0] + won[2]) * (won[1] + won[3]) == 0
        checked += 1
    assert checked == 12 and pits >= 6


def test_solver_on_the_s10_deal():
    """Seat 0 holds every trump and takes the pit; with best play the defenders never follow
    a rank with the same rank (no four of a kind after the jacks), so S10's 600 roem shrinks to
    the four jacks already taken: 162 + 200 + 100."""
    from engine_core import solver
    state = games.get("klaverjas").new_deal(SUITED, dealer=3)
    state.apply({"seat": 0, "type": "bid", "call": "trump", "suit": "H"})
    for card in ("JH", "JC", "JS", "JD", "9H"):
        state.apply({"seat": holder(SUITED, card), "type": "play", "card": card})
    assert solver.solve(state).value == 162 + 200 + 100
    assert solver.reaches(state, "win") is True and solver.reaches(state, 463) is False


# ---- batch playouts through the engine's entry table --------------------------------------------
def test_batch_counts_contracts_by_trump_suit_and_wins_by_made():
    from engine_core import batch
    n = 400
    stats = batch.playouts("klaverjas", {"tie_rule": "half_nat"}, n, seed=21)
    assert set(stats["contracts"]) <= set(GAME.stat_contracts) and sum(stats["contracts"].values()) == n
    trumps, made, sums = {}, 0, [0] * 4
    for k in range(n):
        res = records.evaluate(batch.playout_record("klaverjas", {"tie_rule": "half_nat"}, seed=21, k=k))["result"]
        name = "trump_" + res["contract"]["trump"]
        trumps[name] = trumps.get(name, 0) + 1
        made += res["contract"]["outcome"] == "made"
        sums = [a + b for a, b in zip(sums, res["scores"])]
    assert trumps == stats["contracts"] and sums == stats["score_sums"]
    assert stats["declarer_win_rate"] == made / n and stats["played"] == n
    assert batch.BIDS and GAME.rules.BIDS == ("uniform",)


def test_view_points_are_the_plain_values_until_trump_is_named():
    state = games.get("klaverjas").deal(3)
    plain = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    assert state.phase() == "bidding"
    assert state.view(0)["points"] == {c: plain[c[0]] for c in state.game.deck.faces}


def test_presets_are_the_other_cities_rules():
    """Rotterdam changes only the trumping; Utrecht is Amsterdam trumping with a compulsory trump
    choice (docs/rules/klaverjas.md, "Presets")."""
    rotterdam = games.get("klaverjas", games.preset("klaverjas", "rotterdam")).options
    utrecht = games.get("klaverjas", games.preset("klaverjas", "utrecht")).options
    assert (rotterdam.ruleset, rotterdam.trump_choice) == ("rotterdam", "free")
    assert (utrecht.ruleset, utrecht.trump_choice) == ("utrecht", "compulsory")
