"""Schafkopf rules with concrete deals (../shared/rules/schafkopf.md, scenarios W7-W24 and
the rule sections they exercise). The conformance files cover W1-W19 as full records."""
import pytest

from engine_core import games
from engine_core.errors import IllegalActionError, OptionError
from conftest import without_rule_tables

W20 = [["AS", "KS", "9S", "8S", "AC", "TC", "KC", "9C"], ["7S", "QC", "QS", "QH", "QD", "JC", "JS", "JH"],
       ["TS", "JD", "AH", "TH", "KH", "9H", "8H", "7H"], ["8C", "7C", "AD", "TD", "KD", "9D", "8D", "7D"]]
W21 = [["AS", "KS", "9S", "AC", "TC", "KC", "9C", "8C"], W20[1], W20[2],
       ["8S", "7C", "AD", "TD", "KD", "9D", "8D", "7D"]]


def bid(seat, call, suit=None):
    a = {"seat": seat, "type": "bid", "call": call}
    if suit:
        a["suit"] = suit
    return a


def play(seat, card):
    return {"seat": seat, "type": "play", "card": card}


def ann(seat, call):
    return {"seat": seat, "type": "announce", "call": call}


def deal(hands, options=None, dealer=3, actions=()):
    state = games.get("schafkopf", options).new_deal(hands, dealer)
    for a in actions:
        state.apply(a)
    return state


def cards(state):
    return sorted(a["card"] for a in state.legal_actions())


def calls(state):
    return sorted((a["call"], a.get("suit")) for a in state.legal_actions())


# ---- auction (2.2, 2.3, W23) ----------------------------------------------------------------
def test_rufspiel_call_conditions_w23():
    state = deal(W20)
    # s0 holds AS and AC and no Schellen card: no Rufspiel at all
    assert not any(c == "rufspiel" for c, _ in calls(state))
    state.apply(bid(0, "pass"))
    # s1 holds 7S (a plain Gras card) and no Gras ace: only Gras; hearts never
    assert [s for c, s in calls(state) if c == "rufspiel"] == ["S"]
    reason = state.why_illegal(bid(1, "rufspiel", "H"))
    assert "hearts are trumps" in reason


def test_strict_overbidding_w23():
    state = deal(W20, actions=[bid(0, "farbsolo", "C")])
    assert calls(state) == [("pass", None), ("solo_tout", "C"), ("solo_tout", "D"), ("solo_tout", "H"),
                            ("solo_tout", "S"), ("wenz_tout", None)]
    assert "does not outbid" in state.why_illegal(bid(1, "farbsolo", "H"))
    state.apply(bid(1, "wenz_tout"))
    state.apply(bid(2, "pass"))
    state.apply(bid(3, "pass"))
    assert state.phase() == "play" and state.to_act() == 0      # forehand leads
    assert state.view(0)["contract"] == {"type": "wenz_tout", "declarer": 1, "kontra": None, "re": None}


def test_sie_needs_all_obers_and_unters_and_ends_the_deal():
    hands = [["AC", "TC", "KC", "9C", "8C", "7C", "AS", "TS"], ["KS", "9S", "8S", "7S", "AH", "TH", "KH", "9H"],
             ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD"], ["8H", "7H", "AD", "TD", "KD", "9D", "8D", "7D"]]
    state = deal(hands)
    assert "Sie needs" in state.why_illegal(bid(0, "sie"))
    state.apply(bid(0, "solo_tout", "C"))
    state.apply(bid(1, "pass"))
    state.apply(bid(2, "sie"))
    assert state.is_over()
    assert state.result()["scores"] == [-200, -200, 600, -200]


def test_all_pass_thrown_in_or_ramsch():
    passes = [bid(s, "pass") for s in range(4)]
    assert deal(W20, actions=passes).result()["contract"]["type"] == "thrown_in"
    ramsch = deal(W20, {"ramsch": True}, actions=passes)
    assert ramsch.phase() == "play" and ramsch.to_act() == 0


# ---- the called ace (4.3, W20-W22) ----------------------------------------------------------
def test_davonlaufen_with_four_w20():
    state = deal(W20, actions=[bid(0, "pass"), bid(1, "rufspiel", "S"), bid(2, "pass"), bid(3, "pass")])
    assert cards(state) == sorted(W20[0])                 # 4 Gras cards: may run away
    for a in [play(0, "KS"), play(1, "7S"), play(2, "TS"), play(3, "7D")]:
        state.apply(a)
    assert state.result() is None and state.to_act() == 2
    state.apply(play(2, "7H"))
    state.apply(play(3, "8C"))
    # the suit has been led: s0 (no trump) may now discard the ace
    assert "AS" in cards(state)
    state.apply(play(0, "AS"))


def test_fewer_than_four_lead_only_the_ace_w21():
    state = deal(W21, actions=[bid(0, "pass"), bid(1, "rufspiel", "S"), bid(2, "pass"), bid(3, "pass")])
    assert cards(state) == sorted(["AS", "AC", "TC", "KC", "9C", "8C"])
    assert "only with AS" in state.why_illegal(play(0, "KS"))
    for a in [play(0, "AC"), play(1, "QC"), play(2, "JD"), play(3, "7C"),
              play(1, "JC"), play(2, "7H"), play(3, "7D")]:
        state.apply(a)
    assert cards(state) == sorted(["KS", "9S", "TC", "KC", "9C", "8C"])   # no early discard
    assert "may not be discarded" in state.why_illegal(play(0, "AS"))
    state.apply(play(0, "9C"))
    state.apply(play(1, "7S"))                               # the caller searches
    state.apply(play(2, "TS"))
    state.apply(play(3, "8S"))
    assert cards(state) == ["AS"]
    assert "must play the called ace" in state.why_illegal(play(0, "KS"))
    state.apply(play(0, "AS"))
    assert state.view(0)["tricks"][-1] == [1, ["7S", "TS", "8S", "AS"], 0]


def test_defender_searches_caller_has_no_keep_rule_w22():
    state = deal(W21, actions=[bid(0, "pass"), bid(1, "rufspiel", "S"), bid(2, "pass"), bid(3, "pass"),
                               play(0, "TC")])
    assert "7S" in cards(state)                              # the caller may throw his last Gras
    for a in [play(1, "7S"), play(2, "JD"), play(3, "7C"), play(2, "TS"), play(3, "8S")]:
        state.apply(a)
    assert cards(state) == ["AS"]
    state.apply(play(0, "AS"))
    state.apply(play(1, "QC"))
    assert state.view(1)["tricks"][-1] == [2, ["TS", "8S", "AS", "QC"], 1]


def test_partner_stays_hidden_until_the_ace_falls():
    state = deal(W21, actions=[bid(0, "pass"), bid(1, "rufspiel", "S"), bid(2, "pass"), bid(3, "pass")])
    assert state.view(2)["contract"]["partner"] is None
    assert state.view(0)["contract"]["partner"] == 0         # the partner knows himself
    for a in [play(0, "AC"), play(1, "QC"), play(2, "JD"), play(3, "7C"), play(1, "JC"), play(2, "7H"),
              play(3, "7D"), play(0, "9C"), play(1, "7S"), play(2, "TS"), play(3, "8S"), play(0, "AS")]:
        state.apply(a)
    assert state.view(2)["contract"]["partner"] == 0


# ---- card orders (3, W6) --------------------------------------------------------------------
@pytest.mark.parametrize("contract,expected", [
    (bid(0, "farbsolo", "C"), ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AC", "TC", "KC", "9C", "8C", "7C"]),
    (bid(0, "wenz"), ["JC", "JS", "JH", "JD"]),
])
def test_hand_sorted_trumps_first(contract, expected):
    hands = [["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD"], ["AC", "TC", "KC", "9C", "8C", "7C", "AS", "TS"],
             ["KS", "9S", "8S", "7S", "AH", "TH", "KH", "9H"], ["8H", "7H", "AD", "TD", "KD", "9D", "8D", "7D"]]
    state = deal(hands, dealer=3, actions=[contract, bid(1, "pass"), bid(2, "pass"), bid(3, "pass")])
    order = state.view(0)["hand"] + state.view(1)["hand"]
    assert [c for c in order if c in expected] == expected


def test_wenz_queen_is_a_plain_card_w6():
    # trick 2 of W6: s1 holds no Unter, so QS (a plain Gras card in a Wenz) follows the Unter lead
    hands = [["JC", "JS", "AC", "TS", "9S", "7H", "7S", "9H"], ["JH", "8C", "QS", "7C", "KD", "8H", "7D", "AD"],
             ["QC", "TH", "AS", "8S", "9C", "JD", "TC", "KH"], ["8D", "QH", "9D", "KS", "AH", "TD", "KC", "QD"]]
    state = deal(hands, actions=[bid(0, "wenz"), bid(1, "pass"), bid(2, "pass"), bid(3, "pass")])
    for c in ["JS", "JH", "JD", "KC", "JC", "QS", "AS", "9D"]:
        state.apply(play(state.to_act(), c))
    assert state.view(0)["tricks"][1] == [0, ["JC", "QS", "AS", "9D"], 0]


# ---- Laufende (5.3, W7, W8) -----------------------------------------------------------------
W8 = [["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD"], ["KH", "AC", "TC", "KC", "9C", "8C", "7C", "AS"],
      ["AH", "TH", "TS", "KS", "9S", "8S", "7S", "AD"], ["9H", "8H", "7H", "TD", "KD", "9D", "8D", "7D"]]


def laufende_of(hands, bids, options=None):
    state = deal(hands, options, actions=bids)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    items = {b["item"]: b for b in state.result()["breakdown"]}
    return items.get("laufende", {}).get("count", 0)


def test_laufende_run_into_the_trump_suit_w8():
    # (W8's Rufspiel {0, 2} is hypothetical: s0 holds no callable suit) Herz solo: AH is with s2
    assert laufende_of(W8, [bid(0, "farbsolo", "H"), bid(1, "pass"), bid(2, "pass"), bid(3, "pass")]) == 8
    assert laufende_of(W8, [bid(0, "farbsolo", "S"), bid(1, "pass"), bid(2, "pass"), bid(3, "pass")]) == 8
    assert laufende_of(W8, [bid(0, "pass"), bid(1, "pass"), bid(2, "farbsolo", "S"), bid(3, "pass")]) == 9
    assert laufende_of(W8, [bid(0, "pass"), bid(1, "pass"), bid(2, "pass"), bid(3, "wenz")]) == 4


# ---- scoring (5.4-5.8, W9, W24) -------------------------------------------------------------
def test_kontra_round_only_defenders_then_re_round_w18():
    hands = [["KS", "9S", "8D", "AC", "JD", "AH", "TH", "KC"], ["9C", "QD", "QH", "7H", "TC", "8H", "TS", "KH"],
             ["9H", "AD", "KD", "9D", "8C", "7C", "8S", "JH"], ["7D", "AS", "JS", "QS", "7S", "TD", "QC", "JC"]]
    state = deal(hands, {"kontra": True}, actions=[bid(0, "rufspiel", "S"), bid(1, "pass"), bid(2, "pass"),
                                                   bid(3, "pass")])
    assert state.phase() == "kontra"
    assert calls(state) == [("pass", None)]                  # the declarer may not kontra
    assert "only a defender" in state.why_illegal(ann(0, "kontra"))
    state.apply(ann(0, "pass"))
    assert calls(state) == [("kontra", None), ("pass", None)]
    state.apply(ann(1, "kontra"))
    state.apply(ann(2, "pass"))
    assert calls(state) == [("pass", None)]                  # the hidden partner: only pass
    state.apply(ann(3, "pass"))
    assert state.phase() == "re"
    assert calls(state) == [("pass", None), ("re", None)]


def test_no_kontra_round_without_the_option():
    state = deal(W20, actions=[bid(0, "pass"), bid(1, "rufspiel", "S"), bid(2, "pass"), bid(3, "pass")])
    assert state.phase() == "play"
    with pytest.raises(IllegalActionError) as err:
        state.apply(ann(0, "kontra"))
    assert "not allowed in the play phase" in err.value.reason


def _schneider(options, side_points_target):
    """Find a random deal of a Rufspiel ending with the side holding `side_points_target`."""
    game = games.get("schafkopf", options)
    import random
    for seed in range(20000):
        state = game.deal(seed, 3)
        rng = random.Random(seed)
        while not state.is_over():
            legal = state.legal_actions()
            rufs = [a for a in legal if a.get("call") == "rufspiel"]
            state.apply(rufs[0] if rufs else (legal[0] if legal[0]["type"] == "bid" else rng.choice(legal)))
        res = state.result()
        if res["contract"]["type"] != "rufspiel":
            continue
        side = sum(res["card_points"][s] for s in res["teams"][0])
        if side == side_points_target:
            return res
    pytest.fail(f"no seeded Rufspiel with the side on {side_points_target} points")


@pytest.mark.parametrize("rule,side,schneider", [
    ("seed", 90, True), ("official", 90, False), ("seed", 30, True), ("official", 30, True),
    ("seed", 31, False), ("official", 31, False), ("official", 91, True),
])
def test_schneider_boundaries_w24(rule, side, schneider):
    res = _schneider({"schneider_rule": rule}, side)
    items = [b["item"] for b in res["breakdown"]]
    assert ("schneider" in items) == schneider


# ---- options ---------------------------------------------------------------------------------
def test_options_resolved_and_refused():
    game = games.get("schafkopf", {"tariff_solo": 20})
    assert game.options.as_dict()["tariff_solo"] == 20
    assert str(game.options) == "schafkopf(tariff_solo=20)"
    assert game.options.as_dict()["klopfen"] is False        # supported: stored resolved
    with pytest.raises(OptionError, match="options.klopfen: must be true or false"):
        games.get("schafkopf", {"klopfen": "yes"})
    with pytest.raises(OptionError, match="options.klopfen: with four knocks"):
        games.get("schafkopf", {"klopfen": True, "tariff_solo": 1_000_000, "tariff_increment": 1_000_000})
    with pytest.raises(OptionError, match="unknown option"):
        games.get("schafkopf", {"doppeln": True})
    with pytest.raises(OptionError, match="one of"):
        games.get("schafkopf", {"schneider_rule": "strict"})
    with pytest.raises(OptionError, match="1..1000000"):
        games.get("schafkopf", {"tariff_rufspiel": 0})
    with pytest.raises(OptionError, match="true or false"):
        games.get("schafkopf", {"ramsch": "yes"})


def test_tariff_options_scale_the_value():
    line = [bid(0, "rufspiel", "D"), bid(1, "pass"), bid(2, "pass"), bid(3, "pass")]
    plays = ["QC", "8H", "TH", "7H", "8D", "9D", "AD", "TD", "KD", "JD", "QH", "9S", "AS", "KS", "8S", "7S",
             "TS", "QS", "7D", "8C", "AC", "9C", "7C", "JS", "AH", "JH", "QD", "KH", "JC", "KC", "9H", "TC"]
    hands = [["QC", "QH", "JS", "AH", "9H", "8D", "AS", "TS"], ["QS", "JH", "8H", "AC", "TC", "KS", "9S", "9D"],
             ["QD", "JC", "TH", "AD", "KD", "7D", "9C", "8S"], ["JD", "KH", "7H", "KC", "8C", "7C", "7S", "TD"]]
    for opts, expected in [({}, 20), ({"tariff_rufspiel": 20, "tariff_increment": 5}, 25)]:
        state = deal(hands, opts, actions=line)
        for c in plays:
            state.apply(play(state.to_act(), c))
        assert state.result()["scores"] == [expected, -expected, expected, -expected]


# ---- hidden information ---------------------------------------------------------------------
from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), stop=st.integers(0, 44))
def test_views_show_only_own_hand_and_played_cards(seed, stop):
    import json
    import random
    import re
    state = games.get("schafkopf", {"kontra": True}).deal(seed, seed % 4)
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    played = {a["card"] for a in state.actions if a["type"] == "play"}
    for seat in range(4):
        view = state.view(seat)
        shown = set(re.findall(r'"([ATKQJ987][CSHD])"', json.dumps(without_rule_tables(view))))
        assert shown <= set(state.hands[seat]) | played
