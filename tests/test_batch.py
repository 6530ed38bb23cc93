"""engine_core.batch (seeded GIL-free playouts of every game) and the step API of every game's
Core: determinism, one deal function, statistics that match replays of the deals."""
import random

import pytest

from engine_core import _rng, batch, games, records
from engine_core.errors import OptionError

from conftest import GAMES

TIMING = {"seconds", "thread_seconds", "deals_per_s", "ns_per_card", "ns_per_card_per_thread",
          "threads", "phase_ns_per_deal", "play_ns_per_card", "clock_read_ns", "timed_deals"}
# a few option sets per game that change what the playouts do (a game not listed: its defaults)
OPTIONS = {
    "schafkopf": [{}, {"kontra": True}, {"ramsch": True, "schneider_rule": "official"}],
    "doppelkopf": [{}, {"second_heart_ten_beats_first": True, "solo_player_leads": True}],
    "sheepshead": [{}, {"no_pick": "doubler", "cracking": True}, {"partner": "jack_of_diamonds"}],
    "klaverjas": [{}, {"ruleset": "rotterdam", "tie_rule": "half_nat"}, {"deal_packets": [4, 4]}],
}


def option_sets(game: str) -> list[dict]:
    return OPTIONS.get(game, [{}])


def bids_of(game):
    return games.get(game).rules.BIDS


def figures(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if k not in TIMING}


@pytest.mark.parametrize("game", GAMES)
def test_playouts_deterministic_across_thread_counts(game):
    for bids in bids_of(game):
        one = batch.playouts(game, n=3000, seed=7, threads=1, bids=bids)
        two = batch.playouts(game, n=3000, seed=7, threads=2, bids=bids)
        three = batch.playouts(game, n=3000, seed=7, threads=3, bids=bids)
        assert figures(one) == figures(two) == figures(three)
        assert figures(batch.playouts(game, n=3000, seed=8, bids=bids)) != figures(one)


@pytest.mark.parametrize("game", GAMES)
def test_timed_playouts_play_the_same_deals(game):
    """timed=True only reads a clock at the phase boundaries: the same figures, plus a split
    of the time into the four phases (no figure of it is asserted: timings are not)."""
    for bids in bids_of(game):
        plain = batch.playouts(game, n=2000, seed=5, bids=bids)
        timed = batch.playouts(game, n=2000, seed=5, bids=bids, timed=True)
        assert figures(plain) == figures(timed) and "phase_ns_per_deal" not in plain
        assert list(timed["phase_ns_per_deal"]) == list(batch.PHASES)
        assert all(v >= 0 for v in timed["phase_ns_per_deal"].values())
        assert timed["play_ns_per_card"] >= 0 and 0 < timed["timed_deals"] <= 2000


@pytest.mark.parametrize("game", GAMES)
def test_playout_record_deals_exactly_the_seeded_deal(game):
    """Deal k of a batch is Game.deal(deal_seed(seed, k)): one deal function everywhere."""
    for options in option_sets(game):
        g = games.get(game, options)
        for k in range(0, 60, 7):
            for seed in (0, 12345, 2**64 - 3):
                dealer = k % g.seats
                rec = batch.playout_record(game, options, seed=seed, k=k)
                dealt = g.deal(_rng.deal_seed(seed, k), dealer)
                assert rec["dealer"] == dealer
                assert rec["hands"] == dealt.hands and rec.get("blind", []) == dealt.blind
                assert g.deal_k(seed, k, dealer).hands == dealt.hands


@pytest.mark.parametrize("game", GAMES)
def test_playout_statistics_match_replays_of_the_deals(game):
    """Score sums, contract counts and card-point histograms of a batch equal those of its deals
    rebuilt as records and replayed through the generic engine."""
    for options in option_sets(game):
        for bids in bids_of(game):
            n = 120
            st = batch.playouts(game, options, n=n, seed=3, bids=bids)
            g = games.get(game, options)
            names = g.spec.stat_contracts or g.spec.contracts
            sums = [0] * g.seats
            points = [0] * 256
            deals_played = 0
            for k in range(n):
                result = records.replay(batch.playout_record(game, options, seed=3, k=k, bids=bids)).result()
                sums = [a + b for a, b in zip(sums, result["scores"])]
                if result["tricks"]:
                    deals_played += 1
                    for p in result["card_points"]:
                        points[min(max(p, 0), 255)] += 1
            assert st["score_sums"] == sums
            assert st["n"] == n and st["played"] == deals_played
            hist = st["card_points_hist"]
            assert hist == points[:len(hist)] and not any(points[len(hist):])
            assert sum(st["contracts"].values()) <= n and set(st["contracts"]) <= set(names)


def test_playouts_refuse_bad_arguments():
    with pytest.raises(ValueError, match="bids"):
        batch.playouts("schafkopf", n=10, bids="greedy")
    with pytest.raises(ValueError, match="not defined for sheepshead"):
        batch.playouts("sheepshead", n=10, bids="cheapest")
    for bad in (dict(n=-1), dict(n=1.5), dict(threads=0), dict(seed=-1), dict(seed=2**64),
                dict(dealer=4), dict(dealer="0")):
        with pytest.raises(ValueError):
            batch.playouts("schafkopf", **{"n": 10, **bad})
    with pytest.raises(ValueError):
        batch.playout_record("schafkopf", k=-1)
    with pytest.raises(OptionError):
        batch.playouts("schafkopf", {"tariff_solo": 2**40}, n=1)
    fixed = batch.playouts("schafkopf", n=200, seed=1, dealer=2)
    assert fixed["n"] == 200


# ---- the step API, the same on every game's Core ----
@pytest.mark.parametrize("game", GAMES)
def test_step_api_matches_apply_and_undo(game):
    for options in option_sets(game):
        g = games.get(game, options)
        for seed in range(12):
            state = g.deal(seed, seed % g.seats)
            core, twin = state.core, state.core.copy()
            rng = random.Random(seed)
            seat = core.to_act()
            steps = 0
            while seat >= 0:
                legal = core.legal_list()
                assert legal == core.legal_codes() and legal
                assert all(core.is_legal(c) for c in legal)
                mask = core.legal_mask()
                assert mask == sum(1 << c for c in legal if c < 64)
                code = rng.choice(legal)
                twin.apply(code)
                seat = core.step(code)
                assert seat == twin.to_act()
                steps += 1
            assert core.is_over() and core.scores() == core.result()["scores"]
            assert core.legal_list() == [] and core.legal_mask() == 0
            with pytest.raises(ValueError):
                core.step(0)
            for _ in range(steps):
                core.undo()
            with pytest.raises(ValueError, match="nothing to undo"):
                core.undo()
            assert core.legal_list() == g.deal(seed, seed % g.seats).core.legal_list()


@pytest.mark.parametrize("game", GAMES)
def test_advance_and_random_playout(game):
    g = games.get(game)
    for seed in range(10):
        core, twin = g.deal(seed, 1).core, g.deal(seed, 1).core
        rng = random.Random(seed)
        legal = core.legal_list()
        while legal:
            code = rng.choice(legal)
            twin.step(code)
            legal = core.advance(code)
            assert legal == twin.legal_list()
        assert core.is_over() and core.scores() == twin.scores()
        fresh = g.deal(seed, 1).core
        scores = fresh.random_playout(99)
        assert fresh.is_over() and scores == fresh.result()["scores"]
        assert g.deal(seed, 1).core.random_playout(99) == scores          # seeded
        seat = (again := g.deal(seed, 1).core).to_act()
        while seat >= 0:
            seat = again.step(again.legal_list()[-1])
        assert again.is_over()


@pytest.mark.parametrize("game", GAMES)
def test_core_entry_points_check_their_arguments(game):
    """No Python call can read out of bounds or corrupt a deal."""
    g = games.get(game)
    state = g.deal(5, 0)
    core = state.core
    before = state.view(0)
    for seat in (-1, g.seats, 99, 2**31):
        with pytest.raises((ValueError, OverflowError)):
            core.hand(seat)
        with pytest.raises(ValueError):
            state.view(seat)
    for code in (-1, 63, 2**62, -2**63, 127, 128, 2**40):
        assert not core.is_legal(code)
        with pytest.raises(ValueError):
            core.apply(code)
        with pytest.raises(ValueError):
            core.step(code)
    assert state.view(0) == before
    hands = [core.hand(s) for s in range(g.seats)]
    Core = g.rules.Core
    for bad in (hands[:-1], hands + [0], [hands[0]] * g.seats, [-1] + hands[1:], [2**64 - 1] + hands[1:],
                [0] * g.seats):
        with pytest.raises((ValueError, OverflowError, TypeError)):
            Core(g.options, bad, 0, 0)
    with pytest.raises(ValueError):
        Core(g.options, hands, g.seats, 0)
