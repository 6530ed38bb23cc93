"""The adversarial checks of issue 11 at CI size (tools/adversary.py runs them long): every
message of full matches of every game and option family checked for hidden cards; hostile
requests, each refused one leaving every table unchanged; SIGKILL and restart with no
acknowledged action lost; expected_version races with exactly one winner; idle streams that
do not slow an unrelated call."""
from __future__ import annotations

import random

import pytest

from engine_core import games
from stich_client import StichClient

from conftest import tool
from service.testing import ServerProcess

adversary = tool("adversary")

GAMES = games.available()


@pytest.mark.parametrize("game", GAMES)
def test_no_message_of_any_match_shows_a_hidden_card(server, game):
    stats = adversary.LeakStats()
    rng = random.Random(len(game))
    with StichClient(server.address, timeout=30) as client:
        families = adversary.option_families(game)
        for name, options in families.items():
            adversary.play_match_checked(client, game, options, 1, rng.randrange(2**32), stats, rng)
    assert stats.matches == len(families) and stats.messages > 100 * len(families)
    assert not stats.leaks, stats.leaks[:3]


def test_hostile_requests_never_change_a_table_or_fail_inside(server):
    out = adversary.fuzz(requests=1500, seed=11, address=server.address)
    assert out["problems"] == 0, out["first_problems"]
    assert out["state_comparisons"] > 500 and out["accepted_actions"] > 0
    assert "INTERNAL" not in out["status"] and "UNKNOWN" not in out["status"]


def test_sigkill_and_restart_lose_no_acknowledged_action(tmp_path):
    out = adversary.kills(kills=4, seed=5, tables=4, data_dir=str(tmp_path))
    assert out["kills"] == 4 and out["acknowledged_actions"] > 50
    assert out["lost"] == 0, out


def test_expected_version_races_have_exactly_one_winner(server):
    out = adversary.race(rounds=20, racers=8, seed=3, address=server.address)
    assert out["one_winner"] == 20 and out["bad_rounds"] == 0


def test_idle_streams_do_not_slow_an_unrelated_call():
    with ServerProcess(None) as srv:
        out = adversary.idle(streams=300, calls=300, address=srv.address)
    assert out["streams_open"] == 300
    base, loaded = out["getview_ms_no_streams"], out["getview_ms_with_streams"]
    assert loaded["p50"] < 2 * base["p50"] + 1.0, out
    assert loaded["p99"] < 3 * base["p99"] + 5.0, out
    assert out["health_ms_with_streams"]["p99"] < 3 * out["health_ms_no_streams"]["p99"] + 5.0, out


def test_analysis_load_does_not_stop_the_bots():
    """Issue 27, item 3 at CI size: Analyze callers over gRPC from one address and over Connect
    from two others, all the time; an all-bot table keeps moving and health stays quick."""
    out = adversary.analysis_load(callers=4, sources=2, seconds=3.0)
    moves = out["bot_moves_per_s"]
    assert moves["during"] >= max(2.0, moves["before"] / 5), out      # before the fix: 0
    # every call answered, stopped at its deadline, or refused over the pool's bounds: nothing else
    codes = {k.split(":")[1].upper() for k in out["analyze_answers"]}
    assert codes and codes <= {"OK", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"}, out
    for door in ("grpc", "http"):
        assert out["health_ms"][door]["failed"] == 0 and out["health_ms"][door]["p99"] < 1000, out


def test_the_daily_deal_cannot_be_learned_or_rehearsed():
    """Issue 27, item 4 at CI size: without the server's key the attacker computes no hand of
    today's deal, opens no practice table of today's or tomorrow's, gets at most 5 identities
    (so 5 daily tables) from one address, and no made-up player token is taken."""
    from service.daily import PLAYERS_PER_ADDRESS
    out = adversary.daily_rehearsal(identities=8)
    assert not out["hand_from_v1_seed"] and out["hands_from_guessed_keys"] == 0, out
    assert out["practice_tables"] == {"FAILED_PRECONDITION:DAILY_NOT_OVER": 2}, out
    assert out["new_identities"] == {"OK": PLAYERS_PER_ADDRESS - 1,
                                     "RESOURCE_EXHAUSTED:TOO_MANY_DAILY_PLAYERS": 8 - PLAYERS_PER_ADDRESS + 1}, out
    assert out["daily_tables_of_one_address"] == PLAYERS_PER_ADDRESS, out
    assert out["made_up_tokens"] == {"PERMISSION_DENIED:BAD_PLAYER_TOKEN": 4}, out
