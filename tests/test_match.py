"""The match layer: dealer rotation, counted deals, totals, carried stakes."""
import random

import pytest

from engine_core import games
from engine_core.match import MAX_DEALS_PER_MATCH, Match, MatchEnd


def play_match(match, seed=0):
    rng = random.Random(seed)
    while not match.is_over():
        state = match.deal()
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        match.finish_deal()
    return match


@pytest.mark.parametrize("game", games.available())
def test_match_runs_to_its_length_with_zero_sum_totals(game):
    g = games.get(game, {"deals_per_match": 5})
    match = play_match(Match(g, seed=11))
    assert match.counted == 5 and match.dealt >= 5 and len(match.results) == match.dealt
    assert match.totals == [sum(r["scores"][s] for r in match.results) for s in range(g.seats)]
    if game != "klaverjas":
        assert sum(match.totals) == 0
    with pytest.raises(ValueError, match="match is over"):
        match.deal()


def test_dealer_rotates_left_and_thrown_in_deals_count():
    match = Match(games.get("schafkopf", {"deals_per_match": 4}), seed=3)
    dealers = []
    rng = random.Random(1)
    while not match.is_over():
        state = match.deal()
        dealers.append(state.dealer)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        match.finish_deal()
    assert dealers == [0, 1, 2, 3]


def test_deal_before_finishing_is_refused():
    match = Match(games.get("schafkopf"), seed=1)
    match.deal()
    with pytest.raises(ValueError, match="not finished"):
        match.deal()


def test_sheepshead_doubler_redeals_with_the_same_dealer_at_double_stake():
    g = games.get("sheepshead", {"no_pick": "doubler", "deals_per_match": 1})
    match = Match(g, seed=5)
    state = match.deal()
    while not state.is_over():
        passes = [a for a in state.legal_actions() if a.get("call") == "pass"]
        state.apply(passes[0] if passes else state.legal_actions()[0])
    result = match.finish_deal()
    assert result["contract"]["type"] == "doubler"
    assert match.counted == 0 and match.dealer == 0
    assert match.game.options.multiplier == 2


def _random_to_end(match, rng):
    while not match.is_over():
        state = match.deal()
        while not state.is_over():
            match.apply(rng.choice(state.legal_actions()))
        yield match


@pytest.mark.parametrize("game", games.available())
def test_resume_from_progress_continues_the_same_match(game):
    """progress() after any deal and Match.resume give the same deals, dealers, carried options
    and totals as the match played straight through; keep_results=False keeps one result."""
    g = games.get(game, {"deals_per_match": 4})
    straight = Match(g, seed=21)
    rng = random.Random(4)
    seen = []
    for m in _random_to_end(straight, rng):
        seen.append((m.progress(), m.current.record(), m.current))
    for k, (progress, _, last) in enumerate(seen[:-1]):
        resumed = Match.resume(g, 21, progress, last=last)
        assert resumed.view(0) == Match.resume(g, 21, progress, last=last).view(0)
        assert resumed.results == [last.result()] and resumed.status == "waiting_for_deal"
        state = resumed.deal()
        record = seen[k + 1][1]
        assert state.record()["hands"] == record["hands"] and state.dealer == record["dealer"]
        assert state.game.options == games.get(game, record["options"]).options
        for action in record["actions"]:
            resumed.apply(action)
        assert resumed.progress() == seen[k + 1][0] and len(resumed.results) == 1
    assert straight.keep_results and len(straight.results) == straight.dealt


def test_progress_is_refused_mid_deal_and_resume_checks_its_input():
    g = games.get("schafkopf", {"deals_per_match": 2})
    match = Match(g, seed=1)
    match.deal()
    with pytest.raises(ValueError, match="in progress"):
        match.progress()
    for bad in ({}, {"dealt": 1, "counted": 2, "dealer": 0, "totals": [0] * 4, "carry": {}},
                {"dealt": 1, "counted": 0, "dealer": 4, "totals": [0] * 4, "carry": {}},
                {"dealt": 1, "counted": 0, "dealer": 0, "totals": [0] * 3, "carry": {}},
                {"dealt": True, "counted": 0, "dealer": 0, "totals": [0] * 4, "carry": {}}):
        with pytest.raises(ValueError):
            Match.resume(g, 1, bad)


def test_copy_is_independent():
    g = games.get("schafkopf", {"deals_per_match": 1})
    match = Match(g, seed=2)
    state = match.deal()
    other = match.copy()
    other.apply(other.current.legal_actions()[0])
    assert len(state.actions) == 0 and len(other.current.actions) == 1
    assert match.current is state and other.current is not state


# ---- a match to a target score (Klaverjas's match_target; docs/rules/klaverjas.md 8.1) ---------
def test_match_end_rule_comes_from_the_declaration():
    """The plain rule is `deals_per_match` deals; Klaverjas's `match_target` replaces it with a
    target for the fixed partners {0, 2} and {1, 3}."""
    assert Match(games.get("schafkopf"), 1, deals_per_match=7).end == MatchEnd(deals=7)
    assert Match(games.get("klaverjas"), 1).end == MatchEnd(deals=16)
    end = Match(games.get("klaverjas", games.preset("klaverjas", "to_1500")), 1).end
    assert end == MatchEnd(target=1500, sides=((0, 2), (1, 3)))


@pytest.mark.parametrize("totals, counted, over", [
    ([1499, 1400, 1499, 1400], 30, False),       # nobody there yet, however many deals
    ([1500, 1400, 1500, 1400], 3, True),         # reaching it is enough
    ([1400, 1520, 1400, 1520], 3, True),
    ([1510, 1530, 1510, 1530], 3, True),         # both there: the higher total wins
    ([1530, 1530, 1530, 1530], 17, False),       # level at the top: play on
    ([0, 0, 0, 0], MAX_DEALS_PER_MATCH, True),   # the engine's bound on any match
])
def test_target_over(totals, counted, over):
    end = MatchEnd(target=1500, sides=((0, 2), (1, 3)))
    assert end.over(totals, counted) is over


def test_target_without_sides_counts_each_seat():
    end = MatchEnd(target=100)
    assert end.over([100, 40, 99, 0], 1) and not end.over([100, 100, 3, 0], 1)
    assert MatchEnd(deals=2).over([0] * 4, 2) and not MatchEnd(deals=2).over([10 ** 6] * 4, 1)


@pytest.mark.parametrize("seed", range(8))
def test_a_target_match_ends_after_the_deal_that_reaches_it(seed):
    """Played out at random: not over before a team reaches the target, over once one team is
    ahead at or past it, however many deals that takes (deals_per_match 2 is not used); the
    status, the view and the refusal to deal again agree."""
    g = games.get("klaverjas", {"match_target": 400, "deals_per_match": 2})
    match = Match(g, seed=seed)
    assert match.view(None)["match"]["target"] == 400
    rng = random.Random(seed)
    for m in _random_to_end(match, rng):
        a, b = m.totals[0], m.totals[1]
        assert m.totals == [a, b, a, b]
        assert m.is_over() == (max(a, b) >= 400 and a != b)
    assert match.view(0)["match"]["status"] == "match_over"
    with pytest.raises(ValueError, match="match is over: a total reached 400"):
        match.deal()
    assert match.counted == match.dealt and match.counted < 400 * 2 // 81 + 2


def test_a_target_match_resumes_past_deals_per_match_and_plays_on_from_a_tie():
    """progress() of a target match may count more deals than deals_per_match; level totals
    past the target leave it waiting for the deal that separates them, which ends it."""
    g = games.get("klaverjas", {"match_target": 300, "deals_per_match": 1})
    level = {"dealt": 5, "counted": 5, "dealer": 1, "totals": [310, 310, 310, 310], "carry": {}}
    match = Match.resume(g, 9, level)
    assert match.status == "waiting_for_deal"
    state = match.deal()
    rng = random.Random(0)
    while not state.is_over():
        match.apply(rng.choice(state.legal_actions()))
    assert match.is_over() and match.totals[0] != match.totals[1] and match.counted == 6
    plain = games.get("klaverjas", {"deals_per_match": 1})
    with pytest.raises(ValueError, match="does not fit"):
        Match.resume(plain, 9, level)


def test_match_lengths_tool_plays_target_matches_to_their_end():
    """tools/match_lengths.py (the figures of docs/rules/klaverjas.md 8.1): bot matches to 1500
    end after a number of deals that the 81-a-deal bound allows."""
    from conftest import tool
    found = tool("match_lengths").lengths("klaverjas", games.preset("klaverjas", "to_1500"), "easy", 3)
    assert len(found) == 3 and all(1 <= n <= 2 * 1500 // 81 + 1 for n in found), found


def test_match_duel_tool_plays_both_seatings_of_each_match():
    """tools/match_duel.py (docs/bots.md, the match rows): each match seed twice, the levels'
    seats swapped; easy against random to 300 is won by easy, the counts add up."""
    from conftest import tool
    out = tool("match_duel").duel("klaverjas", {"match_target": 300}, "easy", "random", 2)
    assert out["matches"] == 4 and out["a_won"] + out["b_won"] + out["level"] == 4
    assert out["a_won"] >= 3 and out["a_minus_b_per_match"] > 0, out


def _plain(value):
    return list(value) if isinstance(value, (list, tuple)) else value


# options under which each game's match carries state from deal to deal
CARRYING = {"schafkopf": {"stock": 10}, "doppelkopf": {"bockrunden": "tie_or_lost_kontra", "pflichtsolo": 4},
            "sheepshead": {"no_pick": "doubler"}, "klaverjas": {},
            "sheepshead3": {"no_pick": "doubler"}, "sheepshead4": {"no_pick": "doubler"},
            "sheepshead4c": {"no_pick": "doubler"}, "sheepshead6": {"no_pick": "doubler"}}


@pytest.mark.parametrize("game", games.available())
def test_what_a_match_carries_is_declared_match_state(game):
    """Every option a match carries into the next deal is declared `match_state`, and every
    declared one is carried by some match: the rules switches above the engine leave them out
    by their status alone (the web page names none of them)."""
    spec = games.spec_of(game)
    declared = {o.name for o in spec.options if o.status == "match_state"}
    defaults = {o.name: o.default for o in spec.options}
    carried: set[str] = set()
    for seed in range(12):
        match = Match(games.get(game, {**CARRYING[game], "deals_per_match": 8}), seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            state = match.deal()
            while not state.is_over():
                legal = state.legal_actions()
                passes = [a for a in legal if "pass" in str(a)]       # all passing: a Stock, a doubler
                state.apply(rng.choice(passes if passes and rng.random() < 0.7 else legal))
            match.finish_deal()
            carried |= {k for k, v in match.carry.items() if _plain(v) != _plain(defaults[k])}
    assert carried == declared
