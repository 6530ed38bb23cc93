"""The PettingZoo environment (PettingZoo's own api_test and seed test) and the OpenSpiel games
(pyspiel's random simulation checks, resample_from_infostate by stich's sampler) of every game."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

import numpy as np                                                   # noqa: E402
from pettingzoo.test import api_test, seed_test                      # noqa: E402

from engine_core.rl import openspiel, pettingzoo as pz               # noqa: E402

from conftest import GAMES                                           # noqa: E402


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api(name):
    api_test(pz.env(name), num_cycles=300)
    seed_test(lambda: pz.env(name), num_cycles=100)


def test_pettingzoo_options_rewards_and_rendering():
    env = pz.env("schafkopf", {"ramsch": True, "tariff_rufspiel": 20}, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "Your hand" in text and "Schafkopf" in text
    rng = random.Random(0)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    scores = env.deal.state.core.scores()
    assert [total[a] for a in env.possible_agents] == scores and any(scores)
    assert "Scores" in env.render()
    with pytest.raises(ValueError, match="render_mode must be one of"):
        pz.env("schafkopf", render_mode="rgb")


def test_pettingzoo_refuses_an_illegal_action():
    env = pz.env("klaverjas")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.deal.state.record()
    with pytest.raises(ValueError, match="not legal now"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.deal.state.record() == before


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulations(name):
    openspiel.register()
    game = pyspiel.load_game(openspiel.short_name(name))
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_openspiel_parameters_are_the_options():
    openspiel.register()
    game = pyspiel.load_game(openspiel.short_name("schafkopf"), {"kontra": True, "dealer": 2})
    assert game.stich.options.as_dict()["kontra"] is True and game.dealer == 2
    with pytest.raises(Exception, match="unknown parameters|dealer"):
        pyspiel.load_game(openspiel.short_name("schafkopf"), {"dealer": 7})


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_resample_keeps_the_information_state(name):
    openspiel.register()
    game = pyspiel.load_game(openspiel.short_name(name))
    rng = random.Random(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for _ in range(9):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    changed = 0
    for player in range(game.num_players()):
        for _ in range(3):
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.information_state_tensor(player) == state.information_state_tensor(player)
            assert world.legal_actions() == state.legal_actions() or state.current_player() != player
            changed += world.dealt != state.dealt
    assert changed > 0


def test_openspiel_ismcts_runs_on_a_stich_game():
    """OpenSpiel's IS-MCTS (Python) searches a decision of a stich game, its worlds drawn by
    resample_from_infostate (stich's sampler)."""
    from open_spiel.python.algorithms import ismcts, mcts
    openspiel.register()
    game = pyspiel.load_game(openspiel.short_name("klaverjas"))
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=12,
                           random_state=rng)
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
