"""Hypothesis property tests: invariants that hold for every deal of every game."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_core import games, records

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
GAMES = st.sampled_from(games.available())
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# the seed ruleset's Schafkopf options (test_schafkopf_variants adds the club contracts)
SCHAFKOPF_FIELDS = {
    "ramsch": st.booleans(), "kontra": st.booleans(),
    "schneider_rule": st.sampled_from(["seed", "official"]),
    "tariff_rufspiel": st.integers(1, 50), "tariff_solo": st.integers(1, 100),
    "tariff_increment": st.integers(1, 20), "klopfen": st.booleans(),
}
SCHAFKOPF_OPTIONS = st.fixed_dictionaries(SCHAFKOPF_FIELDS)


def play_out(state, rng):
    """Random legal actions to the end, checking on the way that a seat to act always has one."""
    while not state.is_over():
        seat = state.to_act()
        legal = state.legal_actions()
        assert seat is not None and legal, "a seat to act must have a legal action"
        assert all(a["seat"] == seat for a in legal)
        state.apply(rng.choice(legal))
    assert state.to_act() is None and state.legal_actions() == []
    return state.result()


@SETTINGS
@given(game=GAMES, seed=SEEDS, dealer=st.integers(0, 4))
def test_replay_reproduces_and_zero_sum(game, seed, dealer):
    g = games.get(game)
    state = g.deal(seed, dealer % g.seats)
    result = play_out(state, random.Random(seed))
    assert records.replay(state.record()).result() == result
    if game != "klaverjas":
        assert sum(result["scores"]) == 0


@SETTINGS
@given(options=SCHAFKOPF_OPTIONS, seed=SEEDS, dealer=st.integers(0, 3))
def test_schafkopf_cards_and_points(options, seed, dealer):
    state = games.get("schafkopf", options).deal(seed, dealer)
    result = play_out(state, random.Random(seed ^ 0x5EED))
    played = [c for _, cards, _ in result["tricks"] for c in cards]
    assert len(played) == len(set(played))                   # every card at most once
    assert sum(result["scores"]) == 0
    if len(result["tricks"]) == 8:
        assert sorted(played) == sorted(c for h in state.hands for c in h)
        assert sum(result["card_points"]) == 120
    for leader, cards, winner in result["tricks"]:
        assert 0 <= leader < 4 and 0 <= winner < 4 and len(cards) == 4
    kind = result["contract"]["type"]
    if kind in ("wenz_tout", "solo_tout") and len(result["tricks"]) < 8:
        assert result["tricks"][-1][2] != result["contract"]["declarer"]   # a Tout stops at the lost trick


@SETTINGS
@given(game=GAMES, seed=SEEDS, steps=st.integers(0, 60))
def test_copy_and_undo_restore_the_core(game, seed, steps):
    g = games.get(game)
    state = g.deal(seed, 0)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    core = state.core
    if core.is_over():
        return
    snapshot = core.copy()
    before = (core.to_act(), core.legal_codes(), [core.hand(s) for s in range(g.seats)])
    core.apply(rng.choice(core.legal_codes()))
    core.undo()
    assert (core.to_act(), core.legal_codes(), [core.hand(s) for s in range(g.seats)]) == before
    assert snapshot.legal_codes() == before[1]


@SETTINGS
@given(game=GAMES, seed=SEEDS)
def test_illegal_actions_never_change_state(game, seed):
    g = games.get(game)
    state = g.deal(seed, 0)
    rng = random.Random(seed)
    junk = [{"seat": 9, "type": "play", "card": "QC"}, {"seat": 0, "type": "bid", "call": "nope"}, [],
            {"seat": 0, "type": "play", "card": "ZZ"}, None, {"seat": 1, "type": "announce", "call": "re"}]
    while not state.is_over():
        before = state.view(state.to_act())
        for action in junk + [dict(a, seat=(a["seat"] + 1) % g.seats) for a in state.legal_actions()[:2]]:
            reason = state.why_illegal(action)
            if reason is not None:
                try:
                    state.apply(action)
                except Exception as err:                      # noqa: BLE001 - checking the type below
                    assert type(err).__name__ in ("IllegalActionError", "InvalidActionError")
                else:
                    raise AssertionError(f"{action} applied although {reason}")
        assert state.view(state.to_act()) == before
        state.apply(rng.choice(state.legal_actions()))
