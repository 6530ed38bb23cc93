"""engine_core.batch: seeded GIL-free playouts (determinism, consistency with the generic
engine) and batch evaluation (identical to records.evaluate, line for line)."""
import copy
import json

import pytest

from engine_core import batch, games, records
from engine_core.errors import OptionError

from conftest import conformance_lines

TIMING = {"seconds", "thread_seconds", "deals_per_s", "ns_per_card", "ns_per_card_per_thread",
          "threads"}


def figures(stats: dict) -> dict:
    """The statistics without the timing fields: what must not depend on the thread count."""
    return {k: v for k, v in stats.items() if k not in TIMING}


@pytest.mark.parametrize("bids", batch.BIDS)
def test_playouts_deterministic_across_thread_counts(bids):
    one = batch.playouts("schafkopf", None, 3001, seed=7, threads=1, bids=bids)
    for threads in (2, 3, 8):
        assert figures(batch.playouts("schafkopf", None, 3001, seed=7, threads=threads, bids=bids)) \
            == figures(one)
    assert one["n"] == 3001 and one["threads"] == 1
    assert figures(batch.playouts("schafkopf", None, 3001, seed=8, bids=bids)) != figures(one)


@pytest.mark.parametrize("options", [{}, {"ramsch": True}, {"kontra": True},
                                     {"ramsch": True, "kontra": True, "schneider_rule": "official"}])
@pytest.mark.parametrize("bids", batch.BIDS)
def test_playout_statistics_are_consistent(options, bids):
    n = 4000
    st = batch.playouts("schafkopf", options, n, seed=11, threads=2, bids=bids)
    assert st["n"] == n == sum(st["contracts"].values())
    assert sum(st["score_sums"]) == 0                           # Schafkopf is zero-sum
    assert abs(sum(st["mean_scores"])) < 1e-9
    hist = st["card_points_hist"]
    assert sum(hist) == 4 * st["played"]
    assert sum(p * c for p, c in enumerate(hist)) <= 120 * st["played"]   # a Tout may end early
    assert len(hist) <= 121
    assert sum(st["side_points_hist"]) <= st["played"]
    assert st["cards"] <= 32 * st["played"] and st["cards"] % 4 == 0
    assert st["calls"] >= 4 * n - st["contracts"].get("sie", 0) * 3
    all_pass = "ramsch" if options.get("ramsch") else "thrown_in"
    assert {"ramsch", "thrown_in"} - {all_pass} - set(st["contracts"]) == {"ramsch", "thrown_in"} - {all_pass}
    if bids == "cheapest":                  # everybody passes in 1 of 16 deals
        assert st["contracts"][all_pass] > 0
    if options.get("kontra"):
        assert st["calls"] > 4 * n
    assert 0 <= st["declarer_win_rate"] <= 1
    assert st["deals_per_s"] > 0 and st["ns_per_card"] > 0


@pytest.mark.parametrize("options,bids", [({}, "uniform"), ({"kontra": True}, "cheapest"),
                                          ({"ramsch": True}, "cheapest")])
def test_playouts_agree_with_the_generic_engine(options, bids):
    """Every batch deal, rebuilt as a record and replayed through State, scores the same."""
    n = 300
    st = batch.playouts("schafkopf", options, n, seed=3, bids=bids)
    sums = [0, 0, 0, 0]
    contracts: dict = {}
    points = [0] * 121
    for k in range(n):
        rec = batch.playout_record("schafkopf", options, seed=3, k=k, bids=bids)
        assert rec["dealer"] == k % 4
        res = records.evaluate(rec)["result"]
        sums = [a + b for a, b in zip(sums, res["scores"])]
        kind = res["contract"]["type"]
        contracts[kind] = contracts.get(kind, 0) + 1
        if res["tricks"]:
            for p in res["card_points"]:
                points[p] += 1
    assert sums == st["score_sums"]
    assert contracts == st["contracts"]
    assert points[:len(st["card_points_hist"])] == st["card_points_hist"]


def test_playouts_fixed_dealer_and_bad_arguments():
    st = batch.playouts("schafkopf", None, 500, seed=1, dealer=2)
    assert batch.playout_record("schafkopf", None, seed=1, k=5, dealer=2)["dealer"] == 2
    assert st["n"] == 500
    assert batch.playouts("schafkopf", None, 0)["n"] == 0
    with pytest.raises(ValueError):
        batch.playouts("schafkopf", None, 10, threads=0)
    with pytest.raises(ValueError):
        batch.playouts("schafkopf", None, 10, bids="greedy")
    with pytest.raises(ValueError):
        batch.playouts("schafkopf", None, 10, dealer=4)
    with pytest.raises(OptionError):
        batch.playouts("skat", None, 10)
    with pytest.raises(OptionError):
        batch.playouts("schafkopf", {"ramsch": "yes"}, 10)


# ---- the step API ----------------------------------------------------------------------------
def test_step_api_matches_apply_and_undo():
    game = games.get("schafkopf", {"kontra": True})
    for seed in range(20):
        state = game.deal(seed, seed % 4)
        core, twin = state.core, state.core.copy()
        seat = core.to_act()
        import random
        rng = random.Random(seed)
        steps = 0
        while seat >= 0:
            legal = core.legal_list()
            assert legal == core.legal_codes()
            assert all(core.is_legal(c) for c in legal)
            code = rng.choice(legal)
            twin.apply(code)
            seat = core.step(code)
            assert seat == twin.to_act()
            steps += 1
        assert core.is_over() and core.scores() == core.result()["scores"]
        with pytest.raises(ValueError):
            core.step(0)
        for _ in range(steps):
            core.undo()
        assert core.legal_list() == game.deal(seed, seed % 4).core.legal_list()


def test_advance_returns_the_next_legal_codes():
    game = games.get("schafkopf", {"ramsch": True, "kontra": True})
    import random
    for seed in range(20):
        core, twin = game.deal(seed, 1).core, game.deal(seed, 1).core
        rng = random.Random(seed)
        legal = core.legal_list()
        while legal:
            code = rng.choice(legal)
            twin.step(code)
            legal = core.advance(code)
            assert legal == twin.legal_list()
        assert core.is_over() and twin.is_over() and core.scores() == twin.scores()
        with pytest.raises(ValueError):
            core.advance(0)


def test_random_playout_and_apply_unchecked():
    game = games.get("schafkopf")
    state = game.deal(42, 1)
    core = state.core
    scores = core.random_playout(99)
    assert core.is_over() and sum(scores) == 0 and scores == core.result()["scores"]
    again = game.deal(42, 1).core
    assert again.random_playout(99) == scores                   # seeded
    fresh = game.deal(42, 1).core
    seat = fresh.to_act()
    while seat >= 0:
        seat = fresh.apply_unchecked(fresh.legal_list()[-1])
    assert fresh.is_over() and sum(fresh.scores()) == 0
    assert game.deal(42, 1).core.scores() is None
    with pytest.raises(ValueError):
        game.deal(42, 1).core.step(200)


# ---- batch evaluation ------------------------------------------------------------------------
ALL_LINES = [line["record"] for kind in ("scenarios", "random", "legal", "illegal")
             for line in conformance_lines("schafkopf", kind)]


def test_evaluate_agrees_with_records_on_every_conformance_line():
    expected = [records.evaluate(r) for r in ALL_LINES]
    assert batch.evaluate(ALL_LINES) == expected
    assert batch.evaluate([json.dumps(r) for r in ALL_LINES]) == expected
    assert batch.evaluate(ALL_LINES, with_legal=True) == [records.evaluate(r, True) for r in ALL_LINES]
    errors = [out["error"]["index"] for out in expected if "error" in out]
    assert len(errors) >= 100                                   # the illegal lines are covered


def _mutations():
    base = conformance_lines("schafkopf", "scenarios")[1]["record"]
    yield base
    for key, value in [("dealer", True), ("dealer", 1.0), ("dealer", None), ("options", None),
                       ("options", {"ramsch": 1}), ("options", {"kontra": "no"}), ("blind", []),
                       ("blind", None), ("blind", ["AC"]), ("game", "doppelkopf"), ("extra", 1),
                       ("actions", None), ("hands", None)]:
        rec = copy.deepcopy(base)
        rec[key] = value
        yield rec
    for i, change in [(0, {"seat": True}), (0, {"suit": None}), (1, {"suit": None}),
                      (1, {"suit": "C"}), (1, {"type": "announce"}), (4, {"card": "jc"}),
                      (4, {"card": "JC "}), (4, {"extra": 1}), (4, {"seat": 0.0}),
                      (4, {"type": "bid"}), (5, {"card": ["QD"]}), (0, {"call": {"x": 1}}),
                      (4, {"sext": 1}), (4, {"séat": 0}), (4, {"\ud800abc": 1}), (4, {"call": "pass"}),
                      (0, {"card": "QC"}), (2, {"type": "announce", "suit": "C"})]:
        rec = copy.deepcopy(base)
        rec["actions"][i].update(change)
        yield rec
    rec = copy.deepcopy(base)
    rec["actions"] = rec["actions"][:10]
    yield rec
    rec = copy.deepcopy(base)
    rec["actions"].append({"seat": 0, "type": "play", "card": "AC"})
    yield rec
    rec = copy.deepcopy(base)
    rec["hands"][0][0] = rec["hands"][1][0]
    yield rec
    yield ["not a record"]
    yield None


def test_evaluate_agrees_on_malformed_and_odd_records():
    recs = list(_mutations())
    assert batch.evaluate(recs) == [records.evaluate(r) for r in recs]
    assert batch.evaluate([json.dumps(r) for r in recs]) == [records.evaluate(r) for r in recs]
    assert batch.evaluate(['{"game": ', b'"text"'])[0]["error"]["reason"].startswith("malformed JSON")
    assert batch.evaluate([b'"text"']) == [records.evaluate("text")]


def test_evaluate_agrees_on_random_playout_records():
    recs = [batch.playout_record("schafkopf", opts, seed=5, k=k, bids=bids)
            for k in range(40) for opts in ({}, {"kontra": True}, {"ramsch": True})
            for bids in batch.BIDS]
    assert batch.evaluate(recs) == [records.evaluate(r) for r in recs]


# ---- the CLI's text path ---------------------------------------------------------------------
def _reference_line(line, number):
    from engine_core import cli
    return json.dumps(cli.evaluate_line(line, number, False), separators=(",", ":"))


def _text_variants():
    for kind in ("scenarios", "random", "legal", "illegal"):
        for line in conformance_lines("schafkopf", kind):
            rec = line["record"]
            yield json.dumps(rec)
            yield json.dumps({"id": line["id"], "record": rec})
            yield json.dumps({"record": rec, "id": -0}, indent=2).replace("\n", "\r\n\t") + "\n"
    base = conformance_lines("schafkopf", "scenarios")[1]["record"]
    text = json.dumps(base, separators=(",", ":"))
    yield text
    for old, new in [('"dealer":3', '"dealer":3.0'), ('"dealer":3', '"dealer":03'),
                     ('"dealer":3', '"dealer":true'), ('"dealer":3', '"dealer":3,"dealer":3'),
                     ('"game":"schafkopf"', '"game":"schafkop\\u0066"'),
                     ('"game":"schafkopf"', '"game":"skat"'), ('"KD"', '"K\\u0044"'),
                     ('"KD"', '"KÐ"'), ('"options":{', '"options":{"ramsch":true,'),
                     ('"options":{', '"options":{"ramsch":1,'), ('"options":{', '"options":{"x":[1],'),
                     ('"options":{', '"options":null,"o":{'), ('"seat":1', '"seat":1.0'),
                     ('"seat":1,', '"seat":1,"seat":1,'), ('"call":"pass"', '"call":"pass","suit":null'),
                     ('"call":"pass"', '"call":"pass","suit":"C"'), ('"type":"play"', '"type":"bid"'),
                     ('"actions":[', '"blind":[],"actions":['), ('"actions":[', '"blind":null,"actions":['),
                     ('"actions":[', '"blind":["AC"],"actions":['), ('"actions":[', '"actions":[[],'),
                     ('"rufspiel","suit":"D"', '"rufspiel","suit":"H"'), ('"card":"JC"', '"card":"jc"'),
                     ('"card":"JC"', '"card":"JC","extra":1')]:
        assert old in text, old
        yield text.replace(old, new, 1)
    yield text + " x"
    yield text[:-10]
    yield '{"id": 5}'
    yield '{"id": 5, "record": ' + text + ', "note": 1}'
    yield '{"id": 123456789012345678901, "record": ' + text + '}'
    yield '{"id": "a\\"b", "record": ' + text + '}'
    yield '{"id": "ü", "record": ' + text + '}'
    yield '{"id": null, "record": ' + text + '}'
    yield '{"record": ' + text + ', "id": "x", "id": "y"}'
    yield '[]'
    yield '"text"'


def test_cli_text_path_is_identical_to_the_generic_line_path():
    from engine_core import cli
    fast = 0
    for number, line in enumerate(_text_variants(), 1):
        assert cli.evaluate_line_text(line, number, False) == _reference_line(line, number), line[:120]
        fast += batch.evaluate_text(line, number) is not None
    assert fast > 900                         # the valid lines do take the fast path


def test_fastjson_dumps_matches_json():
    from engine_core import fastjson
    samples = [None, True, False, 0, -7, 2**63, -2**63, -2**63 - 1, 2**63 - 1, 10, -10, 10**40, 1.5, float("inf"), "", "aé\n\"\\\x7f",
               [], (), {}, {"a": [1, (2, None)], "b": {"c": "d"}}, {1: 2}, {"x": {None: 1}},
               [{"k": "v"}] * 3]
    for obj in samples:
        assert fastjson.dumps(obj) == json.dumps(obj, separators=(",", ":")), obj
    for line in conformance_lines("schafkopf", "random"):
        assert fastjson.dumps(line) == json.dumps(line, separators=(",", ":"))


@pytest.mark.parametrize("options", [{}, {"kontra": True}, {"ramsch": True},
                                     {"ramsch": True, "kontra": True, "schneider_rule": "official"},
                                     {"tariff_rufspiel": 20, "tariff_solo": 70, "tariff_increment": 5,
                                      "kontra": True}])
def test_result_json_is_json_dumps_of_result(options):
    """The CLI writes results from the C state: character for character json.dumps(result())."""
    from engine_core import cli, schafkopf_records
    for bids in batch.BIDS:
        for k in range(150):
            rec = batch.playout_record("schafkopf", options, seed=9, k=k, bids=bids)
            state = records.replay(rec)
            assert schafkopf_records.result_json(state.core) == json.dumps(state.result(), separators=(",", ":"))
            line = json.dumps({"id": k, "record": rec})
            assert cli.evaluate_line_text(line, 1, False) == _reference_line(line, 1)


# ---- the other games, through their generic nogil APIs ----------------------------------------
TOTAL_POINTS = {"doppelkopf": 240, "sheepshead": 120, "klaverjas": 162}
OTHER_OPTIONS = {
    "doppelkopf": [{}, {"second_heart_ten_beats_first": True, "solo_player_leads": True,
                        "charlie_only_when_winning": True}],
    "sheepshead": [{}, {"partner": "jack_of_diamonds", "no_pick": "doubler", "cracking": True,
                        "double_on_the_bump": False, "first_leader": "dealer", "multiplier": 2},
                   {"partner": "none", "no_pick": "forced_pick", "unknown_broad": True,
                    "no_trick_partner_exempt": True},
                   {"leaster_blind": "last_trick"}],
    "klaverjas": [{}, {"ruleset": "rotterdam", "roem": False, "pit_bonus": 50, "deal_packets": [4, 4]},
                  {"ruleset": "utrecht", "tie_rule": "half_nat", "nat_roem": "own"}],
}


@pytest.mark.parametrize("game", sorted(OTHER_OPTIONS))
def test_other_games_playouts_deterministic_and_consistent(game):
    one = batch.playouts(game, None, 1501, seed=4, threads=1)
    assert figures(batch.playouts(game, None, 1501, seed=4, threads=3)) == figures(one)
    assert one["n"] == 1501 == sum(one["contracts"].values())
    if game != "klaverjas":                      # Klaverjas scores are points, not payments
        assert sum(one["score_sums"]) == 0
    hist = one["card_points_hist"]
    assert sum(hist) == len(one["score_sums"]) * one["played"]
    assert sum(p * c for p, c in enumerate(hist)) <= TOTAL_POINTS[game] * one["played"]
    if game != "doppelkopf":
        with pytest.raises(ValueError):
            batch.playouts(game, None, 10, bids="cheapest")


@pytest.mark.parametrize("game,options", [(g, o) for g in sorted(OTHER_OPTIONS) for o in OTHER_OPTIONS[g]])
def test_other_games_playouts_agree_with_the_generic_engine(game, options):
    n = 100
    st = batch.playouts(game, options, n, seed=6)
    seats = len(st["score_sums"])
    sums, points = [0] * seats, [0] * 256
    for k in range(n):
        rec = batch.playout_record(game, options, seed=6, k=k)
        assert rec["dealer"] == k % seats
        res = records.evaluate(rec)["result"]
        sums = [a + b for a, b in zip(sums, res["scores"])]
        if res["tricks"]:
            for p in res["card_points"]:
                points[p] += 1
    assert sums == st["score_sums"]
    assert points[:len(st["card_points_hist"])] == st["card_points_hist"]


@pytest.mark.parametrize("options", OTHER_OPTIONS["doppelkopf"])
@pytest.mark.parametrize("bids", batch.BIDS)
def test_doppelkopf_playouts_agree_with_the_generic_engine(options, bids):
    """Doppelkopf's in-module loop (dk_playout) against replays of its deals: contracts, scores,
    Re's wins and both histograms; "cheapest" brings Hochzeit, Armut (void ones too), normal
    games and silent solos in numbers, with their announcements and extra points."""
    n = 300
    st = batch.playouts("doppelkopf", options, n, seed=12, bids=bids)
    assert figures(batch.playouts("doppelkopf", options, n, seed=12, bids=bids, threads=2)) == figures(st)
    sums, seat_points, side_points = [0] * 4, [0] * 256, [0] * 256
    contracts: dict = {}
    re_won = played = calls = cards = 0
    for k in range(n):
        rec = batch.playout_record("doppelkopf", options, seed=12, k=k, bids=bids)
        res = records.evaluate(rec)["result"]
        sums = [a + b for a, b in zip(sums, res["scores"])]
        kind = res["contract"]["type"]
        contracts[kind] = contracts.get(kind, 0) + 1
        kinds = [a["type"] for a in rec["actions"]]
        cards += kinds.count("play")
        calls += len(kinds) - kinds.count("play")
        if res["tricks"]:
            played += 1
            re_won += res["winner"] == "re"
            for p in res["card_points"]:
                seat_points[p] += 1
            side_points[res["team_card_points"]["re"]] += 1
    assert sums == st["score_sums"] and sum(sums) == 0
    assert contracts == st["contracts"]
    assert (cards, calls, played) == (st["cards"], st["calls"], st["played"])
    assert re_won == round(st["declarer_win_rate"] * played)
    assert seat_points[:len(st["card_points_hist"])] == st["card_points_hist"]
    assert side_points[:len(st["side_points_hist"])] == st["side_points_hist"]
    if bids == "cheapest":
        assert min(contracts.get(k, 0) for k in ("normal", "silent_solo", "hochzeit", "armut")) >= 5
        assert calls > 4 * n + 300                       # Armut exchanges and announcements
    else:
        assert contracts["solo"] > 0.9 * n
