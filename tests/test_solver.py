"""The perfect-information solver against plain minimax (written here, no pruning), for every
game and contract kind: exact values, values of every card, null-window answers, and budgets
that return bounds containing the exact value; partition keys (transposition entries shared by
positions that differ only in which equivalent cards were played) against exact-card keys on
deeper random endgames, and the growing table against a small fixed one; enhanced transposition
cutoffs against the search without them."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine_core import batch, games, records, solver
from engine_core.solver import SolverError

from conftest import GAMES

# option sets that reach every contract kind of each game in random deals (a game not listed:
# its defaults)
OPTIONS = {
    "schafkopf": [{}, {"ramsch": True}, {"kontra": True}],
    "doppelkopf": [{}, {"second_heart_ten_beats_first": True}, {"nines": False},
                   {"pflichtsolo": 4, "pflicht_played": [0, 0, 1, 1], "pflicht_round_deals": 4}],
    "sheepshead": [{}, {"partner": "jack_of_diamonds"}, {"no_pick": "leaster"},
                   {"spitz": True, "partner": "jack_of_diamonds", "call_up": True},
                   # a Schwanzer has no card play: its deals are skipped, the picked deals solved
                   {"no_pick": "schwanzer", "spitz": True}],
    "klaverjas": [{}, {"roem": False}, {"ruleset": "rotterdam"},
                  {"bidding": "drents", "stuk": "declared", "roem_claim": True}],
    "sheepshead3": [{}, {"leaster_blind": "last_trick"}],
    "sheepshead4": [{}, {"partner": "jack_of_diamonds"}],
    "sheepshead4c": [{}, {"blitz": True, "red_blitz": True, "leaster_blind": "last_trick"}],
    "sheepshead6": [{}, {"partner": "none"}, {"dealer_sits_out": True}],
}


def option_sets(game: str) -> list[dict]:
    return OPTIONS.get(game, [{}])


def points_of(state, core, side):
    """The side's final total, as the result counts it (Klaverjas: with roem and pit)."""
    result = core.result()
    if state.game.name == "klaverjas":
        team = 0 if min(side) % 2 == result["teams"][0][0] % 2 else 1
        return raw_klaverjas_total(result, team)
    return sum(result["card_points"][i] for i in side)


def raw_klaverjas_total(result, team):
    """A Klaverjas team's total before the nat rule: its cards, last trick, roem and pit items."""
    return sum(item["value"] for item in result["breakdown"]
               if item.get("team") == team and item["item"] not in ("total", "nat", "half_nat", "score"))


def minimax(state, core, side, count="points", maximize=True):
    """Best play over the cards; the free calls a perfect player always makes (the declared
    free_calls: Klaverjas's roem claims and stuk) are made, as the solver's search makes them."""
    if core.is_over():
        if count == "tricks":
            return sum(1 for _, _, w in core.result()["tricks"] if w in side)
        return points_of(state, core, side)
    seat = core.to_act()
    legal = core.legal_list()
    free = [code for code in legal if code >= 64 and
            state.game.rules.CALL_TABLE[code - 64][1] in state.game.spec.free_calls]
    if free and not any(code < 64 for code in legal):      # a claim: make it
        core.apply(free[0])
        value = minimax(state, core, side, count, maximize)
        core.undo()
        return value
    said = None                                             # the card a stuk goes with
    if free:
        core.apply(free[0])
        said = core.legal_list()[0]
        core.undo()
    values = []
    for code in legal:
        if code >= 64:
            continue
        if code == said:
            core.apply(free[0])
        core.apply(code)
        values.append(minimax(state, core, side, count, maximize))
        core.undo()
        if code == said:
            core.undo()
    return max(values) if (seat in side) == maximize else min(values)


def positions(game, options, tricks_left, n, seed):
    """Card-play positions of random deals with `tricks_left` tricks (or fewer) to go, some
    in the middle of a trick."""
    g = games.get(game, options)
    bids = "cheapest" if "cheapest" in g.rules.BIDS else "uniform"
    rng = random.Random(seed)
    found = 0
    for k in range(n * 20):
        record = batch.playout_record(game, options, seed=seed, k=k, bids=bids)
        state = records.new_state(record)
        keep = (g.hand_size - tricks_left) * g.seats + rng.randrange(g.seats)
        cards = 0
        for action in record["actions"]:
            if action["type"] == "play":
                if cards == keep:
                    break
                cards += 1
            state.apply(action)
        if state.is_over() or not state.core.legal_mask():
            continue
        yield state
        found += 1
        if found == n:
            return


@pytest.mark.parametrize("game", GAMES)
def test_solve_and_values_equal_plain_minimax(game):
    checked = 0
    for options in option_sets(game):
        for state in positions(game, options, 3, 60, seed=7):
            solution = solver.solve(state)
            side = solution.objective.side
            exact = minimax(state, state.core.copy(), side)
            assert solution.exact and solution.value == exact, (state.record(), solution)
            for entry in solver.values(state):
                child = state.copy()
                child.apply(entry["action"])
                assert entry["value"] == minimax(child, child.core.copy(), side), entry
                for other in entry["equivalent"]:
                    twin = state.copy()
                    twin.apply({**entry["action"], "card": other})
                    assert minimax(twin, twin.core.copy(), side) == entry["value"]
            assert max(e["value"] for e in solver.values(state)) == exact or state.to_act() not in side
            checked += 1
    assert checked >= 100


@pytest.mark.parametrize("game", GAMES)
def test_reaches_and_other_objectives_equal_minimax(game):
    for state in positions(game, option_sets(game)[0], 3, 40, seed=3):
        side = tuple(solver.objective_of(state).side)
        exact = minimax(state, state.core.copy(), side)
        for target in (exact - 1, exact, exact + 1):
            assert solver.reaches(state, target) == (exact >= target)
        other = tuple(s for s in range(state.game.seats) if s not in side)[:1]
        low = minimax(state, state.core.copy(), other, maximize=False)
        assert solver.solve(state, {"side": list(other), "maximize": False}).value == low
        tricks = minimax(state, state.core.copy(), side, count="tricks")
        assert solver.solve(state, {"side": list(side), "count": "tricks"}).value == tricks


@pytest.mark.parametrize("game", GAMES)
def test_budgets_return_bounds_that_hold_the_exact_value(game):
    for state in positions(game, option_sets(game)[0], 5, 8, seed=5):
        exact = solver.solve(state)
        for budget in (1, 10, 100, 1000):
            bounded = solver.solve(state, budget=budget)
            assert bounded.lower <= exact.value <= bounded.upper
            assert bounded.exact == (bounded.lower == bounded.upper)
            assert bounded.nodes <= budget + 1 or bounded.exact


def test_bad_arguments_name_the_field():
    state = games.get("schafkopf").deal(1, 0)
    with pytest.raises(SolverError, match="card play"):
        solver.solve(state)
    state.apply({"seat": 1, "type": "bid", "call": "pass"})
    for bad in (0, -5, 1.5, "many", True):
        with pytest.raises(SolverError, match="budget"):
            solver.solve(state, budget=bad)
    with pytest.raises(SolverError, match="objective"):
        solver.solve(state, objective={"side": [0, 0]})
    with pytest.raises(SolverError, match="objective"):
        solver.solve(state, objective={"team": 1})
    with pytest.raises(SolverError, match="threads"):
        solver.solve_many([], threads=0)


def test_a_finished_deal_has_its_final_totals():
    record = batch.playout_record("schafkopf", None, seed=2, k=4, bids="cheapest")
    state = records.replay(record)
    result = state.result()
    solution = solver.solve(state)
    assert solution.exact and solution.nodes == 0
    assert solution.value == sum(result["card_points"][s] for s in solution.objective.side)
    assert solver.values(state) == []


def test_solve_many_is_deterministic_across_threads():
    states = list(positions("schafkopf", {}, 6, 12, seed=9))
    one = [s.as_dict() for s in solver.solve_many(states, threads=1)]
    two = [s.as_dict() for s in solver.solve_many(states, threads=2)]
    assert one == two


def one_position(game, options, tricks_left, seed):
    return next(positions(game, options, tricks_left, 1, seed), None)


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), which=st.integers(0, 2), seed=st.integers(0, 10**6),
       tricks_left=st.integers(3, 5))
def test_partition_keys_give_the_values_of_exact_keys(game, which, seed, tricks_left):
    """Every position's value (and its null-window answers) is the same whether the table keys
    positions by the exact cards in play or by their partition key: merging positions that
    differ in which equivalent cards were played never changes a value."""
    options = option_sets(game)[which % len(option_sets(game))]
    state = one_position(game, options, tricks_left, seed)
    if state is None:
        return
    rules = state.game.rules
    mask = solver.objective_of(state).mask
    exact_keys = rules.Solver(partition=False)
    partition = rules.Solver(partition=True, min_bits=10)     # small: growth is exercised too
    lo, hi, _ = rules.solve_core(state.core, exact_keys, mask, 0, True, 0)
    assert lo == hi
    assert rules.solve_core(state.core, partition, mask, 0, True, 0)[:2] == (lo, hi)
    for target in (lo, lo + 1):
        assert rules.reaches_core(state.core, partition, mask, 0, True, target, 0)[0] == (lo >= target)
    tricks = rules.solve_core(state.core, exact_keys, mask, 1, True, 0)[:2]
    assert rules.solve_core(state.core, partition, mask, 1, True, 0)[:2] == tricks
    if tricks_left == 3:        # small enough for plain minimax
        assert lo == minimax(state, state.core.copy(), solver.objective_of(state).side)


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), which=st.integers(0, 2), seed=st.integers(0, 10**6),
       tricks_left=st.integers(3, 5), partition=st.booleans())
def test_transposition_cutoffs_give_the_plain_values(game, which, seed, tricks_left, partition):
    """Enhanced transposition cutoffs (a trick's last card looks its children up before
    searching any) never change a value or a null-window answer: the same as without them, in
    points and in tricks, and as plain minimax on the smallest endgames."""
    options = option_sets(game)[which % len(option_sets(game))]
    state = one_position(game, options, tricks_left, seed)
    if state is None:
        return
    rules = state.game.rules
    plain = rules.Solver(etc=False, partition=partition)
    cutoffs = rules.Solver(etc=True, partition=partition, min_bits=10)
    assert cutoffs.etc and not plain.etc
    _same_as_plain(state, plain, cutoffs, tricks_left, counts=(0, 1))


def _same_as_plain(state, plain, other, tricks_left, counts):
    """`other` finds `plain`'s values and null-window answers (in points, maximizing and
    minimizing; each count in `counts` maximizing) and plain minimax's on three tricks."""
    rules = state.game.rules
    mask = solver.objective_of(state).mask
    lo, hi, _ = rules.solve_core(state.core, plain, mask, 0, True, 0)
    assert lo == hi
    assert rules.solve_core(state.core, other, mask, 0, True, 0)[:2] == (lo, hi)
    for target in (lo - 1, lo, lo + 1):
        assert rules.reaches_core(state.core, other, mask, 0, True, target, 0)[0] == (lo >= target)
    low = rules.solve_core(state.core, plain, mask, 0, False, 0)[:2]
    assert rules.solve_core(state.core, other, mask, 0, False, 0)[:2] == low
    for count in counts[1:]:
        values = rules.solve_core(state.core, plain, mask, count, True, 0)[:2]
        assert rules.solve_core(state.core, other, mask, count, True, 0)[:2] == values
    if tricks_left == 3:        # small enough for plain minimax
        assert lo == minimax(state, state.core.copy(), solver.objective_of(state).side)


def test_transposition_cutoffs_save_nodes():
    """The cutoffs do happen: deeper positions of every game need fewer nodes in all with them
    (so the test above compares two different searches), for the same values."""
    for game in GAMES:
        on_nodes = off_nodes = 0
        for state in positions(game, {}, min(6, games.spec_of(game).hand_size), 3, seed=13):
            rules = state.game.rules
            mask = solver.objective_of(state).mask
            on = rules.solve_core(state.core, rules.Solver(etc=True), mask, 0, True, 0)
            off = rules.solve_core(state.core, rules.Solver(etc=False), mask, 0, True, 0)
            assert on[:2] == off[:2]
            on_nodes += on[2]
            off_nodes += off[2]
        assert on_nodes < off_nodes, game


def test_partition_keys_merge_positions():
    """The partition keys do merge: deeper Schafkopf and Doppelkopf positions need fewer nodes
    in all with them than with exact-card keys (so the test above compares two different
    searches), for the same values."""
    for game, tricks_left in (("schafkopf", 8), ("doppelkopf", 6)):
        on_nodes = off_nodes = 0
        for state in positions(game, {}, tricks_left, 3, seed=11):
            rules = state.game.rules
            mask = solver.objective_of(state).mask
            on = rules.solve_core(state.core, rules.Solver(partition=True), mask, 0, True, 0)
            off = rules.solve_core(state.core, rules.Solver(partition=False), mask, 0, True, 0)
            assert on[:2] == off[:2]
            on_nodes += on[2]
            off_nodes += off[2]
        assert on_nodes < off_nodes, game


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), which=st.integers(0, 2), seed=st.integers(0, 10**6),
       tricks_left=st.integers(2, 8), n=st.integers(1, 5), playout_seed=st.integers(0, 2**64 - 1),
       count=st.sampled_from(["points", "margin", "tricks"]))
def test_playout_values_are_the_sum_of_the_playouts_replayed(game, which, seed, tricks_left, n,
                                                             playout_seed, count):
    """The hard level's flat Monte Carlo in C (playout_values): after each legal card, the sum
    over n random playouts (playout k seeded with seed + k, the same streams as Core.playouts
    and random_actions) of the side's final value as the solver counts it at the end of the
    deal, and how many reached `win_at`: replayed here action by action and counted by solving
    the finished deal."""
    options = option_sets(game)[which % len(option_sets(game))]
    state = one_position(game, options, tricks_left, seed)
    if state is None:
        return
    rules = state.game.rules
    obj = solver.objective_of(state, {"count": count})
    kind = solver.COUNTS[obj.count]
    codes = [c for c in state.core.legal_list() if c < 64]
    before = state.core.legal_list(), state.core.to_act()
    win_at = random.Random(seed).randrange(-40, 60)
    sums = rules.playout_values(state.core, codes, n, playout_seed, obj.mask, kind, obj.maximize, win_at)
    assert (state.core.legal_list(), state.core.to_act()) == before      # unchanged
    for code, (total, wins) in zip(codes, sums):
        expected = reached = 0
        for k in range(n):
            end = state.core.copy()
            end.apply(code)
            for step in end.random_actions((playout_seed + k) % 2**64):
                end.apply(step)
            assert end.is_over()
            value = rules.solve_core(end, rules.Solver(), obj.mask, kind, obj.maximize, 0)[0]
            expected += value
            reached += value >= win_at
        assert (total, wins) == (expected, reached), code


def test_playout_values_refuse_what_is_not_a_legal_card():
    state = one_position("schafkopf", {}, 4, 3)
    rules = state.game.rules
    mask = solver.objective_of(state).mask
    illegal = next(c for c in range(32) if not state.core.is_legal(c))
    with pytest.raises(ValueError, match=f"action code {illegal} is not legal here"):
        rules.playout_values(state.core, [illegal], 4, 1, mask, 0, True, 61)
    with pytest.raises(ValueError, match="positive number of playouts"):
        rules.playout_values(state.core, state.core.legal_list()[:1], 0, 1, mask, 0, True, 61)


def boundary_positions(game, options, tricks_left, n, seed):
    """Positions at a trick boundary with `tricks_left` tricks to go, from random deals."""
    g = games.get(game, options)
    bids = "cheapest" if "cheapest" in g.rules.BIDS else "uniform"
    found = 0
    for k in range(n * 20):
        record = batch.playout_record(game, options, seed=seed, k=k, bids=bids)
        state = records.new_state(record)
        keep, cards = (g.hand_size - tricks_left) * g.seats, 0
        for action in record["actions"]:
            if action["type"] == "play":
                if cards == keep:
                    break
                cards += 1
            state.apply(action)
        if state.is_over() or not state.core.legal_mask():
            continue
        yield state
        found += 1
        if found == n:
            return


@pytest.mark.parametrize("game", GAMES)
def test_sure_point_bounds_hold_the_minimax_value(game):
    """The sure-point bounds of a trick boundary (the top trumps a group holds, the leader's
    quick tricks) contain the exact value, for the default side and for one seat of the other
    side (Klaverjas: counted with its team), each maximizing and minimizing; and they do bound: some lie inside the range of
    what is still open."""
    checked = inside = 0
    for options in option_sets(game):
        for tricks_left in (2, 3):
            for state in boundary_positions(game, options, tricks_left, 8, seed=21 + tricks_left):
                rules = state.game.rules
                side = tuple(solver.objective_of(state).side)
                other = tuple(s for s in range(state.game.seats) if s not in side)[:1]
                for seats, maximize in ((side, True), (other, True), (side, False), (other, False)):
                    mask = sum(1 << s for s in seats)
                    bounds = rules.sure_bounds(state.core, mask, maximize)
                    if bounds is None:
                        continue
                    exact = minimax(state, state.core.copy(), seats, maximize=maximize)
                    assert bounds[0] <= exact <= bounds[1], (state.record(), seats, bounds, exact)
                    checked += 1
                    inside += bounds[:2] != bounds[2:]
    assert checked >= 40
    assert inside > 0


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), which=st.integers(0, 2), seed=st.integers(0, 10**6),
       tricks_left=st.integers(3, 5), partition=st.booleans())
def test_sure_point_bounds_give_the_plain_values(game, which, seed, tricks_left, partition):
    """The search with the sure-point bounds finds the values and null-window answers of the
    search without them, maximizing and minimizing, and plain minimax's on the smallest
    endgames."""
    options = option_sets(game)[which % len(option_sets(game))]
    state = one_position(game, options, tricks_left, seed)
    if state is None:
        return
    rules = state.game.rules
    plain = rules.Solver(sure=False, partition=partition)
    bounded = rules.Solver(sure=True, partition=partition, min_bits=10)
    assert bounded.sure and not plain.sure
    _same_as_plain(state, plain, bounded, tricks_left, counts=(0,))


def test_sure_point_bounds_save_nodes():
    """The bounds cut: Schafkopf deals from their first trick need fewer nodes in all with them
    (so the test above compares two different searches), for the same values."""
    with_bounds = without = 0
    for state in positions("schafkopf", {}, 8, 6, seed=17):
        rules = state.game.rules
        mask = solver.objective_of(state).mask
        on = rules.solve_core(state.core, rules.Solver(sure=True), mask, 0, True, 0)
        off = rules.solve_core(state.core, rules.Solver(sure=False), mask, 0, True, 0)
        assert on[:2] == off[:2]
        with_bounds += on[2]
        without += off[2]
    assert with_bounds < without


def _most_added(state, core):
    """Both Klaverjas teams' raw totals at the end of the line of play that makes them largest."""
    if core.is_over():
        result = core.result()
        return raw_klaverjas_total(result, 0) + raw_klaverjas_total(result, 1)
    best = None
    for code in core.legal_list():
        core.apply(code)
        value = _most_added(state, core)
        core.undo()
        best = value if best is None or value > best else best
    return best


def test_klaverjas_future_bound_holds_what_any_play_adds():
    """Klaverjas' bound of what is still open (card points, the last trick, the roem the cards
    left can still make, the pit) is at least what both teams together add on the line of play
    that adds the most, at trick boundaries with roem on; the search's value ranges and the
    sure-point bounds stand on it."""
    checked = 0
    for tricks_left, n in ((2, 16), (3, 8)):
        for state in boundary_positions("klaverjas", {}, tricks_left, n, seed=31 + tricks_left):
            rules = state.game.rules
            first = rules.sure_bounds(state.core, 0b0101, True)
            second = rules.sure_bounds(state.core, 0b1010, True)
            future = first[3] - first[2]
            assert future == second[3] - second[2]
            added = _most_added(state, state.core.copy()) - first[2] - second[2]
            assert added <= future, (state.record(), added, future)
            checked += 1
    assert checked >= 20


def test_klaverjas_merges_cards_that_can_no_longer_make_roem():
    """With roem on, cards that can no longer be part of a run, four of a kind or stuk (no three
    consecutive cards of their suit left in different seats, ...) are merged with an equal card
    (so the twin checks of test_solve_and_values_equal_plain_minimax meet them), and each such
    card has the value plain minimax gives it."""
    merged = 0
    for state in positions("klaverjas", {}, 3, 60, seed=1007):
        side = solver.objective_of(state).side
        for entry in solver.values(state):
            for other in entry["equivalent"]:
                twin = state.copy()
                twin.apply({**entry["action"], "card": other})
                assert minimax(twin, twin.core.copy(), side) == entry["value"], (state.record(), entry)
                merged += 1
    assert merged >= 3
