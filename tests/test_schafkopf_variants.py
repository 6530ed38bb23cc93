"""Schafkopf's club contracts and options (docs/rules/schafkopf.md 3.1, 6, 7, 9, 11): the
project's own conformance lines (tests/conformance/schafkopf/own-*.jsonl), concrete deals, the
solver's Bettel objective, the bots' auction rules read from the declared bid families, and
property tests over random option sets that include the club options."""
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_core import bots, games, records, solver
from engine_core.errors import ActionError, OptionError

from conftest import conformance_lines
from test_conformance import common
from test_properties import SCHAFKOPF_FIELDS
from moves import play

CLUB = ("geier", "farbwenz", "farbgeier", "bettel", "bettel_ouvert")
GEIER = ["QC QS QH AC TC AS AH 7D", "QD TH 8D AD JD JH TS 7S", "8S KS KC JS JC KD 7H KH",
         "9D 9H 8H 8C 9S 9C TD 7C"]
BETTEL_WON = ["7C 9C 8S TS 7H 8H 8D 9D", "AS JH QD KH TC 8C TD 9S", "JS TH 7D AH QC QS KD JD",
              "AC KC QH 7S JC 9H AD KS"]
OUVERT = ["7C 8C 7S 8S 9S 7H 7D 8D", "9D JS KD QH AH TC 9H 9C", "JD KH QD TD AD KS AS AC",
          "8H KC JC JH TH QC QS TS"]


def deal(options, hands, dealer=3):
    return games.get("schafkopf", options).new_deal([h.split() for h in hands], dealer)


def bids(state, *calls):
    for call in calls:
        name, _, suit = call.partition(" ")
        kind = "bid" if state.view(None)["phase"] == "auction" else "announce"
        action = {"seat": state.to_act(), "type": kind, "call": name}
        if suit:
            action["suit"] = suit
        state.apply(action)


# ---- the project's own conformance lines ----

def own(kind):
    return [pytest.param(line, id=line["id"]) for line in conformance_lines("schafkopf", f"own-{kind}")]


@pytest.mark.parametrize("line", own("scenarios"))
def test_own_scenario(line):
    assert "independent reference" in line["provenance"]
    state = records.replay(line["record"])
    assert state.is_over()
    result = state.result()
    assert common(result) == common(line["result"])
    assert result["contract"] == line["result"]["contract"]
    assert result["breakdown"] == line["result"]["breakdown"]
    stock = {b["item"]: b["value"] for b in result["breakdown"] if b["item"].startswith("stock_")}
    # zero-sum but for the Stock: four stakes paid into the pot, or the pot paid out of it
    assert sum(result["scores"]) == stock.get("stock_out", 0) - 4 * stock.get("stock_in", 0)




def test_own_lines_cover_every_club_contract():
    kinds = {line["result"]["contract"]["type"] for line in conformance_lines("schafkopf", "own-scenarios")}
    assert set(CLUB) | {"leaster"} <= kinds
    ids = {line["id"] for line in conformance_lines("schafkopf", "own-illegal")}
    assert any("caller_keeps" in i for i in ids)
    items = {b["item"] for line in conformance_lines("schafkopf", "own-scenarios") for b in line["result"]["breakdown"]}
    assert {"stock_in", "stock_out", "klopfen"} <= items
    assert {"own-illegal-klopfen_out_of_turn", "own-illegal-klopfen_after_the_round"} <= ids


# ---- options ----

def test_club_options_are_declared_and_checked():
    spec = games.spec_of("schafkopf")
    by_name = {o.name: o for o in spec.options}
    for name in CLUB + ("caller_keeps_called_suit", "leaster"):
        assert by_name[name].status == "supported" and by_name[name].default is False
        with pytest.raises(OptionError, match=f"options.{name}: must be true or false"):
            games.get("schafkopf", {name: 1})
    assert by_name["klopfen"].status == "supported" and by_name["klopfen"].default is False
    for ramsch in (False, True):                    # all pass: a Leaster, with or without ramsch
        state = games.get("schafkopf", {"leaster": True, "ramsch": ramsch}).deal(1, 3)
        bids(state, "pass", "pass", "pass", "pass")
        assert state.view(None)["contract"]["type"] == "leaster"
    assert games.get("schafkopf", games.preset("schafkopf", "club")).options.bettel_ouvert is True
    assert games.preset("schafkopf", "schafkopfschule") == {"kontra": True, "schneider_rule": "official"}
    with pytest.raises(OptionError, match="unknown preset"):
        games.preset("schafkopf", "sauspiel-de")


def test_defaults_offer_only_the_seed_contracts():
    state = deal(None, GEIER)
    calls = {a["call"] for a in state.legal_actions()}
    assert calls == {"pass", "rufspiel", "wenz", "farbsolo", "wenz_tout", "solo_tout"}
    assert state.why_illegal({"seat": 0, "type": "bid", "call": "bettel"}).startswith(
        "bettel is not played at this table: option bettel is off")


def test_each_option_offers_exactly_its_contract():
    for name in CLUB:
        calls = {a["call"] for a in deal({name: True}, GEIER).legal_actions()}
        assert calls - {"pass", "rufspiel", "wenz", "farbsolo", "wenz_tout", "solo_tout"} == {name}


def test_auction_order_of_all_contracts():
    order = ["rufspiel", "bettel", "farbgeier", "farbwenz", "geier", "wenz", "farbsolo", "bettel_ouvert",
             "wenz_tout", "solo_tout"]
    state = deal(games.preset("schafkopf", "club"), GEIER)
    assert state.phase() == "klopfen"                       # the club table knocks first
    bids(state, "pass", "pass", "pass", "pass")
    seen = [a["call"] for a in state.legal_actions()][1:]
    assert [k for k, _ in itertools.groupby(seen)] == order
    # each contract is outbid exactly by the ones after it
    for i, kind in enumerate(order[1:], 1):
        st_ = deal(games.preset("schafkopf", "club"), GEIER)
        bids(st_, "pass", "pass", "pass", "pass")
        suit = {"farbgeier": " C", "farbwenz": " C", "farbsolo": " C", "solo_tout": " C"}.get(kind, "")
        bids(st_, kind + suit)
        above = [k for k, _ in itertools.groupby(a["call"] for a in st_.legal_actions()[1:])]
        assert above == order[i + 1:], kind


# ---- card orders, scoring, the shown hand ----

def test_geier_laufende_from_two_and_ohne():
    # declarer seat 1 holds QD only: the defence holds QC QS QH, ohne 3
    state = deal({"geier": True}, GEIER)
    bids(state, "pass", "geier", "pass", "pass")
    assert state.view(1)["order"]["C"] == ["AC", "TC", "KC", "JC", "9C", "8C", "7C"]
    rng = random.Random(3)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    items = {i["item"]: i for i in state.result()["breakdown"]}
    assert items["laufende"]["count"] == 3


def test_farbwenz_two_runners_do_not_count():
    hands = ["JC JS AC TC KC 9C AS 7D", "JH QD 8S QC QH 8H TS KS", "TD JD 9H AD 9D TH KD 7H",
             "9S 7S AH QS KH 8D 7C 8C"]
    state = deal({"farbwenz": True}, hands)
    bids(state, "farbwenz C", "pass", "pass", "pass")
    rng = random.Random(5)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert "laufende" not in {i["item"] for i in state.result()["breakdown"]}     # mit 2 < 3


def test_bettel_ends_at_the_declarers_first_trick_and_pays_the_solo_tariff():
    state = deal({"bettel": True, "tariff_solo": 30}, BETTEL_WON)
    bids(state, "bettel", "pass", "pass", "pass")
    assert state.view(2)["order"]["trump"] == []
    assert set(state.view(2)["points"].values()) == {0}
    play(state, "7C 8C QC JC")
    assert state.to_act() == 2                        # the QC won: Q above J, no trumps
    result = deal({"bettel": True, "tariff_solo": 30}, BETTEL_WON)
    bids(result, "bettel", "pass", "pass", "pass")
    play(result, "7C 8C QC JC | 7D AD 9D TD | 7S 8S 9S JS | TH 9H 8H JH | TC AH KC 9C |"
                 " QH 7H KH JD | QD KD AC 8D | QS KS TS AS")
    assert result.result()["scores"] == [90, -30, -30, -30]


def test_bettel_ouvert_hand_is_public_after_the_first_trick():
    state = deal({"bettel_ouvert": True}, OUVERT)
    bids(state, "bettel_ouvert", "pass", "pass", "pass")
    play(state, "7C 9C AC")
    assert all(state.view(s)["shown"] is None for s in (None, 0, 1, 2, 3))
    play(state, "JC")
    for seat in (None, 1, 2, 3):
        view = state.view(seat)
        assert view["shown"] == {"seat": 0, "cards": state.view(0)["hand"]}
    # every other contract never shows a hand
    other = deal({"bettel": True}, OUVERT)
    bids(other, "bettel", "pass", "pass", "pass")
    play(other, "7C 9C AC JC")
    assert other.view(1)["shown"] is None


def test_the_shown_hand_is_every_sampled_worlds_hand():
    """The bots' worlds hold a Bettel ouvert declarer's shown hand exactly (it is public
    information once shown), and a defender's own hand; before it is shown, worlds differ."""
    from engine_core.bots.inference import Inference
    state = deal({"bettel_ouvert": True}, OUVERT)
    bids(state, "bettel_ouvert", "pass", "pass", "pass")
    play(state, "7C 9C AC")
    early = Inference(state.view(2), {"bettel_ouvert": True}).sample(20, 1)
    assert len({tuple(w["hands"][0]) for w in early}) > 1
    play(state, "JC")
    view = state.view(2)
    worlds = Inference(view, {"bettel_ouvert": True}).sample(20, 1)
    assert len(worlds) == 20
    for w in worlds:
        assert sorted(w["hands"][0]) == sorted(view["shown"]["cards"] + ["7C"])
        assert sorted(w["hands"][2]) == sorted(view["hand"] + ["AC"])


def test_caller_keeps_called_suit_only_with_the_option():
    hands = ["QC QS JC JS AH TH 9S 7D", "AD AC TC 8S KS QH 7H 8H", "8D KC AS TS QD JD 9H KH",
             "9D 7C 8C 9C TD KD JH 7S"]
    for keeps in (False, True):
        state = deal({"caller_keeps_called_suit": keeps}, hands)
        bids(state, "rufspiel S", "pass", "pass", "pass")
        play(state, "7D AD 8D 9D | AC KC 7C")
        cards = {a["card"] for a in state.legal_actions()}
        assert ("9S" in cards) is not keeps
        if keeps:
            assert "CALLER_KEEPS_CALLED_SUIT" in games.spec_of("schafkopf").reasons
            with pytest.raises(ActionError) as err:
                state.apply({"seat": 0, "type": "play", "card": "9S"})
            assert err.value.reason_id == "CALLER_KEEPS_CALLED_SUIT"


# ---- the solver: a Bettel's aim is to take no trick ----

def _brute(state, declarer):
    """Whether the declarer takes no trick with best play on both sides (exhaustive)."""
    if state.is_over():
        return state.result()["winners"] == [declarer]
    outcomes = []
    for a in state.legal_actions():
        s = state.copy()
        s.apply(a)
        outcomes.append(_brute(s, declarer))
    return any(outcomes) if state.to_act() == declarer else all(outcomes)


@pytest.mark.parametrize("seed", range(6))
def test_bettel_solver_matches_exhaustive_search(seed):
    """From the 5th trick on, the solver's value for the declarer (120: no trick, 0: he takes
    one) and "win" agree with an exhaustive search of the remaining play."""
    rng = random.Random(seed)
    options = {"bettel": True, "bettel_ouvert": True}
    for attempt in range(200):
        state = games.get("schafkopf", options).deal(rng.randrange(1 << 30), 3)
        legal = [a for a in state.legal_actions() if a["call"] in ("bettel", "bettel_ouvert")]
        state.apply(rng.choice(legal))
        while state.view(None)["phase"] == "auction":
            state.apply(state.legal_actions()[0])
        while not state.is_over() and len(state.view(None)["tricks"]) < 4:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over():
            break
    declarer = state.view(None)["contract"]["declarer"]
    expected = _brute(state.copy(), declarer)
    solution = solver.solve(state)
    assert list(solution.objective.side) == [declarer]
    assert solution.exact and solution.value == (120 if expected else 0)
    assert solver.reaches(state, "win") is expected
    margin = solver.solve(state, {"side": [declarer], "count": "margin"}).value
    assert margin == (120 if expected else -120)


# ---- the bots read the declared bid families ----

def test_bid_families_are_declared_for_every_bid():
    spec = games.spec_of("schafkopf")
    bid_calls = {call for kind, call, _ in spec.calls if kind == "bid" and call not in ("pass", "sie")}
    assert bid_calls == set(spec.bid_families)


@pytest.mark.parametrize("hand,options,want", [
    ("QC QS QH QD AC AS AH 7D", {"geier": True}, "geier"),          # a Wenz hand with Obers
    ("JC JS JH JD AC AS AH 7D", {"geier": True}, "wenz"),
    ("JC JS AC TC KC 9C AS 7D", {"farbwenz": True}, "farbwenz"),     # six trumps: no Farbsolo
    ("QC QS AD TD KD 9D AS 7C", {"farbgeier": True}, "farbgeier"),
    ("JC JS JH AC TC KC 9C 8C", {"farbwenz": True}, "farbsolo"),     # the higher contract first
    ("7C 8C 9C 7S 8S 7H 8H 7D", {"bettel": True}, "bettel"),        # very weak low cards
    ("7C 8C 9C 7S 8S 7H 8H 7D", {"bettel_ouvert": True, "bettel": True}, "bettel_ouvert"),
    ("7C 8C 9C 7S 8S 7H 8H 7D", {}, "pass"),
    ("AC 8C 9C 7S 8S 7H 8H 7D", {"bettel": True}, "pass"),          # an ace: no Bettel
])
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_easy_and_normal_bid_the_club_contracts(hand, options, want, level):
    rest = [c for c in games.get("schafkopf").deck.faces if c not in hand.split()]
    hands = [hand] + [" ".join(rest[8 * i:8 * i + 8]) for i in range(3)]
    state = deal(options, hands)
    choice = bots.get("schafkopf", level, seed=1, options=options).choose(state.view(0))
    assert choice["call"] == want


def test_bettel_card_play_of_the_normal_bot():
    """The declarer ducks with his highest card under the trick; a defender plays his lowest
    card (in a Bettel the ten ranks below the Unter and the Ober)."""
    state = deal({"bettel": True}, BETTEL_WON)
    bids(state, "bettel", "pass", "pass", "pass")
    play(state, "7C 8C QC JC | 7D AD")
    normal = [bots.get("schafkopf", "normal", seed=s, options={"bettel": True}) for s in range(4)]
    assert normal[0].choose(state.view(0))["card"] == "9D"      # 8D and 9D both duck under AD
    play(state, "9D")
    assert normal[1].choose(state.view(1))["card"] == "TD"      # QD and TD: TD is the lower


# ---- properties over random option sets that include the club options ----

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLUB_OPTIONS = st.fixed_dictionaries({
    **SCHAFKOPF_FIELDS,
    **{name: st.booleans() for name in CLUB + ("caller_keeps_called_suit", "leaster")},
})


def random_deal(options, seed, dealer):
    """A deal played to the end by random legal actions; in the auction a seat names a contract
    (rather than passing) half the time, so that every contract is reached."""
    state = games.get("schafkopf", options).deal(seed, dealer)
    rng = random.Random(seed ^ 0xC1B)
    while not state.is_over():
        seat, legal = state.to_act(), state.legal_actions()
        assert legal and all(a["seat"] == seat for a in legal)
        named = [a for a in legal if a["type"] == "bid" and a["call"] != "pass"]
        state.apply(rng.choice(named) if named and rng.random() < 0.5 else rng.choice(legal))
        view = state.view(None)
        shown = view["shown"]
        contract = view["contract"] or {}
        if contract.get("type") == "bettel_ouvert" and view["tricks"]:
            assert shown == {"seat": contract["declarer"], "cards": state.view(contract["declarer"])["hand"]}
        else:
            assert shown is None
    return state


@SETTINGS
@given(options=CLUB_OPTIONS, seed=SEEDS, dealer=st.integers(0, 3))
def test_club_deals_score_by_the_rules(options, seed, dealer):
    state = random_deal(options, seed, dealer)
    result = state.result()
    assert records.replay(state.record()).result() == result
    assert sum(result["scores"]) == 0
    played = [c for _, cards, _ in result["tricks"] for c in cards]
    assert len(played) == len(set(played))
    if len(result["tricks"]) == 8:
        assert sum(result["card_points"]) == 120
    contract = result["contract"]
    kind, declarer = contract["type"], contract["declarer"]
    if kind in CLUB:
        assert options[kind], f"{kind} played with its option off"
    items = {i["item"]: i for i in result["breakdown"]}
    knocks = sum(a["call"] == "klopfen" for a in state.actions if a["type"] == "announce")
    assert items.get("klopfen", {}).get("count", 0) == (knocks if kind != "thrown_in" else 0)
    factor = (2 if contract.get("kontra") is not None else 1) * (2 if contract.get("re") is not None else 1)
    factor *= 2 ** knocks                          # each knock doubles (rules 3.2)
    if kind in ("bettel", "bettel_ouvert"):
        took = [w for _, _, w in result["tricks"] if w == declarer]
        assert result["winners"] == ([declarer] if not took else sorted({0, 1, 2, 3} - {declarer}))
        assert len(took) <= 1 and (not took or result["tricks"][-1][2] == declarer)   # ends at his trick
        assert len(result["tricks"]) == 8 or took
        value = options["tariff_solo"] * (2 if kind == "bettel_ouvert" else 1) * factor
        assert items["total"]["value"] == value and "game" not in items and "laufende" not in items
        assert "schneider" not in items and "schwarz" not in items
        assert result["scores"][declarer] == (3 * value if not took else -3 * value)
    elif kind in ("geier", "farbwenz", "farbgeier"):
        side = result["card_points"][declarer]
        assert (result["winners"] == [declarer]) is (side >= 61)
        if "laufende" in items:
            assert items["laufende"]["count"] >= (2 if kind == "geier" else 3)
            assert items["laufende"]["count"] <= (4 if kind == "geier" else 11)
        assert abs(result["scores"][declarer]) == 3 * items["total"]["value"]
    if kind in ("farbwenz", "farbgeier"):
        assert contract["suit"] in "CSHD"
    assert kind != "ramsch" or not options["leaster"]
    assert kind != "leaster" or options["leaster"]
    if kind == "leaster":
        took = {w for _, _, w in result["tricks"]}
        fewest = min(result["card_points"][s] for s in took)
        assert result["winners"] == sorted(s for s in took if result["card_points"][s] == fewest)
        v = options["tariff_rufspiel"] * factor
        for s in range(4):
            n_win = len(result["winners"])
            assert result["scores"][s] == (v * (4 - n_win) if s in result["winners"] else -v * n_win)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, tricks=st.integers(4, 6))
def test_bettel_solver_property(seed, tricks):
    """From random Bettel positions late in the deal the solver's verdict equals an exhaustive
    search of the rest of the play."""
    rng = random.Random(seed)
    state = games.get("schafkopf", {"bettel": True}).deal(seed, 3)
    state.apply({"seat": 0, "type": "bid", "call": "bettel"})
    while state.view(None)["phase"] == "auction":
        state.apply({"seat": state.to_act(), "type": "bid", "call": "pass"})
    while not state.is_over() and len(state.view(None)["tricks"]) < tricks:
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over():
        return
    assert solver.reaches(state, "win") is _brute(state.copy(), 0)


@SETTINGS
@given(options=CLUB_OPTIONS, seed=SEEDS)
def test_club_illegal_actions_are_refused_and_explained(options, seed):
    state = games.get("schafkopf", options).deal(seed, 0)
    rng = random.Random(seed)
    spec = games.spec_of("schafkopf")
    every_bid = [{"type": "bid", "call": call, **({"suit": suit} if suit else {})}
                 for kind, call, suit in spec.calls if kind == "bid"]
    while not state.is_over():
        seat = state.to_act()
        legal = state.legal_actions()
        view = state.view(seat)
        for action in rng.sample(every_bid, 4) + [{"type": "play", "card": c} for c in view["hand"][:3]]:
            action = dict(action, seat=seat)
            reason = state.why_illegal(action)
            assert (reason is None) is (action in legal)
            if reason is not None:
                with pytest.raises(ActionError) as err:
                    state.apply(action)
                assert err.value.reason_id in spec.reasons or err.value.reason_id.isupper()
        assert state.view(seat) == view
        state.apply(rng.choice(legal))


def test_shown_hand_crosses_the_typed_protocol_and_the_terminal():
    """The Bettel ouvert hand travels in TableView.shown (a viewer's typed view) and the
    terminal game prints it."""
    from service.convert import view_msg
    from stich_client.convert import view_dict
    from stich_client.table_view import public_lines
    state = deal({"bettel_ouvert": True}, OUVERT)
    bids(state, "bettel_ouvert", "pass", "pass", "pass")
    play(state, "7C 9C AC JC")
    table = {"table_id": "t", "version": 1, "game": "schafkopf", "seats": ["human"] * 4, "status": "in_deal",
             "deal_number": 1, "deals_counted": 0, "deals_per_match": 1, "match_scores": [0] * 4,
             "options": {}, "seat": 1, "deal": state.view(1)}
    back = view_dict(view_msg(table))
    assert back["public"]["shown"] == {"seat": 0, "cards": ["8C", "9S", "8S", "7S", "7H", "8D", "7D"]}
    assert any(line.startswith("Face up, seat 0: ") for line in public_lines(back))


# ---- the tools: smoke runs (the long runs are commands, docs/rules/schafkopf.md 3.1) ----

def test_farbwenz_values_agree_with_the_reference_probe():
    """The first OpenSchafkopf Eichel-Farbwenz deals, solved exactly: the declarer's card
    points with best play are the values the independent C probe (../shared/reference/
    solver_probe.c, `fwenz` mode) prints for them (71, 56, 68)."""
    import importlib.util
    from conftest import ROOT
    spec = importlib.util.spec_from_file_location("fwenz_bench", ROOT / "bench" / "farbwenz_openschafkopf.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    if not bench.DEFAULT.exists():
        pytest.skip("../shared/reference is not beside this checkout")
    lines = bench.DEFAULT.read_text().splitlines()[:3]
    values = [solver.solve(bench.position(bench.parse(line)[1])).value for line in lines]
    assert values == [71, 56, 68]


def test_contract_duel_smoke(capsys):
    import importlib.util
    import json
    from conftest import ROOT
    spec = importlib.util.spec_from_file_location("contract_duel", ROOT / "tools" / "contract_duel.py")
    duel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(duel)
    assert duel.main(["--game", "schafkopf", "--options", '{"bettel": true}', "--call", "bettel",
                      "--deals", "1", "--seed", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 1 and out["call"] == "bettel"
    assert set(out["declarer_mean"]) == {"hard_vs_normal", "normal_vs_normal", "normal_vs_hard"}


def test_analysis_finds_the_decisive_mistake_of_a_bettel():
    """With every hand open the defence beats this Bettel; seat 2's 7D in the second trick
    lets the declarer through (analysis reads the Bettel aim through the solver hooks)."""
    from engine_core import analysis
    state = deal({"bettel": True}, BETTEL_WON)
    bids(state, "bettel", "pass", "pass", "pass")
    play(state, "7C 8C QC JC | 7D AD 9D TD | 7S 8S 9S JS | TH 9H 8H JH | TC AH KC 9C |"
                " QH 7H KH JD | QD KD AC 8D | QS KS TS AS")
    out = analysis.analyze(state.record())
    assert out["side"] == [0] and out["target"] == 61 and out["perfect"] == 0 and out["won"] is True
    mistake = out["first_decisive_mistake"]
    assert (mistake["index"], mistake["seat"], mistake["action"]["card"]) == (8, 2, "7D")


# ---- the Stock (option stock, docs/rules/schafkopf.md 7.9) ----

RUF = ["KD 7D 7H JC TS QH KC KS", "7S AS 8C QD KH JS TC JH", "AC AH AD 9C QS 8H 9H TD",
       "JD 9S 8D 8S 9D QC 7C TH"]
RUF_PLAY = ("JC QD AH JD | JH 9H QC 7H | 7C KC 8C AC | QS TH QH KH | 9C 9D KD TC | 7S TD 9S KS |"
            " TS AS 8H 8S | AD 8D 7D JS")


@pytest.mark.parametrize("options, field, text", [
    ({"stock": -1}, "stock", "0..10000"),
    ({"stock": 10_001}, "stock", "0..10000"),
    ({"stock": True}, "stock", "integer"),
    ({"stock": 10, "ramsch": True}, "stock", "ramsch or leaster"),
    ({"stock": 10, "leaster": True}, "stock", "ramsch or leaster"),
    ({"stock_pot": 40}, "stock_pot", "needs the Stock"),
    ({"stock": 10, "stock_pot": 30}, "stock_pot", "multiple of 4 x stock = 40"),
    ({"stock": 10, "stock_pot": -40}, "stock_pot", "0..40000000"),
])
def test_stock_options_are_checked(options, field, text):
    with pytest.raises(OptionError) as err:
        games.get("schafkopf", options)
    assert err.value.field == f"options.{field}" and text in str(err.value)


def test_without_the_stock_a_thrown_in_deal_scores_nothing():
    state = deal({"stock_pot": 0}, RUF)
    bids(state, "pass", "pass", "pass", "pass")
    assert state.result()["breakdown"] == [] and state.result()["scores"] == [0] * 4


def test_the_pot_goes_only_to_a_playing_side_that_wins():
    won = deal({"stock": 10, "stock_pot": 120}, RUF)
    bids(won, "rufspiel D", "pass", "pass", "pass")
    play(won, RUF_PLAY)
    assert won.result()["scores"] == [10 + 60, -10, 10 + 60, -10]
    lost = deal({"stock": 10, "stock_pot": 120}, RUF)       # the defenders win a Wenz: no pot
    bids(lost, "wenz", "pass", "pass", "pass")
    while not lost.is_over():
        lost.apply(lost.legal_actions()[0])
    result = lost.result()
    assert 0 not in result["winners"] and not [b for b in result["breakdown"] if b["item"].startswith("stock")]
    assert sum(result["scores"]) == 0


def test_a_match_carries_the_pot_between_deals():
    """Thrown in: four stakes into the pot, carried as the next deal's stock_pot; a lost game
    leaves it; a won game empties it; the totals are the scores' sums, short of the pot."""
    from engine_core.match import Match
    match = Match(games.get("schafkopf", {"stock": 5, "deals_per_match": 40}), seed=3)
    pots = []
    rng = random.Random(5)
    while not match.is_over():
        state = match.deal()
        pot = state.game.options.stock_pot
        everybody_passes = match.dealt % 3 == 1
        while not state.is_over():
            legal = state.legal_actions()
            bids_ = [a for a in legal if a["type"] == "bid"]
            if bids_:      # forehand names the lowest contract he may, or everybody passes
                forehand = state.to_act() == (state.dealer + 1) % 4 and not everybody_passes
                match.apply(bids_[min(1, len(bids_) - 1)] if forehand else bids_[0])
            else:
                match.apply(rng.choice(legal))
        result = match.results[-1]
        items = {b["item"]: b.get("value") for b in result["breakdown"]}
        contract = result["contract"]["type"]
        if contract == "thrown_in":
            assert items == {"stock_in": 5} and match.game.options.stock_pot == pot + 20
        elif pot and set(result["winners"]) == set(result["teams"][0]):
            assert items["stock_out"] == pot and match.game.options.stock_pot == 0
        else:
            assert "stock_out" not in items and match.game.options.stock_pot == pot
        pots.append((contract, pot))
    assert sum(match.totals) == -match.game.options.stock_pot
    assert [c for c, _ in pots].count("thrown_in") >= 10
    taken = [r for r in match.results if any(b["item"] == "stock_out" for b in r["breakdown"])]
    kept = [(c, p) for (c, p), r in zip(pots, match.results) if p and c != "thrown_in" and r not in taken]
    assert len(taken) >= 2 and kept, pots


@SETTINGS
@given(options=CLUB_OPTIONS, seed=SEEDS, dealer=st.integers(0, 3), stake=st.integers(1, 10_000),
       stakes=st.integers(0, 1000))
def test_the_stock_adds_only_its_own_payments(options, seed, dealer, stake, stakes):
    """Any deal with the Stock scores as the same deal without it, plus four stakes paid in
    when it is thrown in, or the pot shared by the playing side when it wins (rules 7.9)."""
    options = {**options, "ramsch": False, "leaster": False}
    state = random_deal({**options, "stock": stake, "stock_pot": 4 * stake * stakes}, seed, dealer)
    result = state.result()
    plain = dict(state.record(), options={**state.record()["options"], "stock": 0, "stock_pot": 0})
    expected = records.replay(plain).result()["scores"]
    kind = result["contract"]["type"]
    if kind == "thrown_in":
        expected = [s - stake for s in expected]
    elif stakes and set(result["winners"]) == set(result["teams"][0]):
        side = result["teams"][0]
        expected = [s + (4 * stake * stakes // len(side) if i in side else 0) for i, s in enumerate(expected)]
    assert result["scores"] == expected
