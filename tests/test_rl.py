"""engine_core.rl: the tensors (hidden cards cannot leak into them), the vectorised environment
(deterministic, in agreement with the step API, bad actions refused with nothing changed)."""
from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from engine_core import games, rl                                    # noqa: E402
from engine_core._codes import CALL_BASE, EXCHANGE_BASE             # noqa: E402
from engine_core._rng import deal_seed                               # noqa: E402
from engine_core.bots.inference import Inference                     # noqa: E402

from conftest import GAMES                                           # noqa: E402


def tensors(deal, seat):
    mod = rl.compiled(deal.game)
    obs = np.zeros(mod.OBS_SIZE, np.uint8)
    info = np.zeros(mod.INFO_SIZE, np.uint8)
    deal.tracker.observation_into(seat, obs)
    deal.tracker.information_state_into(seat, info)
    return obs, info


def random_deal(game, seed, steps):
    """Seeded deal `seed` after up to `steps` uniformly random legal actions."""
    deal = rl.Deal.new(game, seed, seed % game.seats)
    rng = random.Random(seed)
    for _ in range(steps):
        if deal.to_act() is None:
            break
        deal.apply_index(rng.choice(deal.legal_indices()))
    return deal


@pytest.mark.parametrize("name", GAMES)
def test_layout_is_the_declarations(name):
    game = games.get(name)
    lay = rl.Layout(game)
    d, s = len(game.deck.faces), game.seats
    assert lay.observation["hand"] == (0, (d,))
    assert lay.observation["trick"][1] == (s, d)
    assert lay.observation["calls"][1] == (s, len(game.spec.calls))
    assert lay.observation["phase"][1] == (len(game.spec.phases),)
    assert lay.observation["sides"][1] == (2, s)
    assert lay.observation_size == sum(np.prod(shape) for _, shape in lay.observation.values())
    assert lay.actions["card"] == (0, d)
    assert lay.actions["call"] == (d, len(game.spec.calls))
    assert lay.num_actions == d + len(game.spec.calls) + (1024 if game.spec.exchanges else 0)


@pytest.mark.parametrize("name", GAMES)
def test_hidden_hands_do_not_change_the_seats_tensors(name):
    """Worlds that differ only in what `seat` cannot see (other hands, the blind, face-down
    cards: stich's sampler of hidden worlds) give `seat` identical tensors; the seat whose
    cards differ sees a difference (so the comparison can fail)."""
    game = games.get(name)
    checked = differed = 0
    for seed in range(60):
        deal = random_deal(game, 100 + seed, steps=3 + 5 * (seed % 7))
        if deal.to_act() is None:
            continue
        if checked >= 40:
            break
        for seat in range(game.seats):
            view = deal.state.view(seat)
            worlds = Inference(view, game.options.as_dict()).sample(4, seed=seed)
            assert worlds, "the true deal is one of the worlds"
            obs, info = tensors(deal, seat)
            for w in worlds:
                other = rl.Deal.of_masks(game, w["masks"], w["blind_mask"], deal.state.dealer,
                                         _filled(view["actions"], w["hidden"]))
                o2, i2 = tensors(other, seat)
                assert np.array_equal(obs, o2) and np.array_equal(info, i2)
                checked += 1
                for k in range(game.seats):
                    if k != seat and other.state.core.hand(k) != deal.state.core.hand(k):
                        differed += not np.array_equal(tensors(other, k)[0], tensors(deal, k)[0])
    assert checked >= 40 and differed > 0


@pytest.mark.parametrize("name", GAMES)
def test_sides_block_is_the_sides_hook(name):
    """The `sides` part is the game's g_sides hook (what the seat views carry as "sides"),
    relative to the observer, at every position of random deals; some seats know a partner
    besides themselves and some know fewer than all seats (the block is not constant)."""
    game = games.get(name)
    lay = rl.Layout(game)
    s = game.seats
    partial = partner = 0
    for seed in range(40):
        deal = rl.Deal.new(game, 300 + seed, seed % s)
        rng = random.Random(seed)
        while deal.to_act() is not None:
            for seat in range(s):
                obs, _ = tensors(deal, seat)
                block = lay.part(obs, "sides")
                view = deal.state.view(seat)["sides"]
                rel = lambda seats: sorted((k - seat) % s for k in seats)       # noqa: E731
                assert np.flatnonzero(block[0]).tolist() == rel(view["partners"])
                assert np.flatnonzero(block[1]).tolist() == rel(view["opponents"])
                partial += block.sum() < s
                partner += block[0].sum() > 1
            deal.apply_index(rng.choice(deal.legal_indices()))
    assert partner > 0 and (partial > 0 or name == "klaverjas")


def test_rufspiel_partner_stays_hidden_in_the_sides_block():
    """A Schafkopf Rufspiel before the called ace is played: a defender's worlds place the
    called ace (the partner) elsewhere, yet its tensors, the sides block included, are the
    same in all of them; the partner himself knows his side."""
    game = games.get("schafkopf")
    lay = rl.Layout(game)
    for seed in range(200):
        deal = rl.Deal.new(game, seed, 0)
        rng = random.Random(seed)
        while deal.to_act() is not None and deal.state.phase() == "auction":
            legal = deal.legal_indices()
            ruf = [i for i in legal if "rufspiel" in str(game.spec.calls[i - lay.actions["call"][0]]).lower()]
            deal.apply_index(ruf[0] if ruf and deal.to_act() == 1 else legal[0])
        contract = deal.state.view(0)["contract"]
        if deal.to_act() is None or not contract or contract.get("type") != "rufspiel":
            continue
        for _ in range(rng.randrange(0, 4)):
            deal.apply_index(rng.choice(deal.legal_indices()))
        declarer = contract["declarer"]
        partner = next(k for k in range(4) if k != declarer and declarer in deal.state.view(k)["sides"]["partners"])
        if len(deal.state.view(declarer)["sides"]["partners"]) > 1:
            continue                                    # the ace was played already
        assert lay.part(tensors(deal, partner)[0], "sides")[0].sum() == 2
        defender = next(k for k in range(4) if k not in (declarer, partner))
        view = deal.state.view(defender)
        obs, info = tensors(deal, defender)
        assert lay.part(obs, "sides")[0].sum() == 1 and lay.part(obs, "sides")[1].sum() == 1
        moved = 0
        for w in Inference(view, game.options.as_dict()).sample(12, seed=seed):
            other = rl.Deal.of_masks(game, w["masks"], w["blind_mask"], deal.state.dealer,
                                     _filled(view["actions"], w["hidden"]))
            holder = next(k for k in range(4) if k != declarer and declarer in other.state.view(k)["sides"]["partners"])
            moved += holder != partner
            o2, i2 = tensors(other, defender)
            assert np.array_equal(obs, o2) and np.array_equal(info, i2)
        assert moved > 0, "some world gives the called ace to another seat"
        return
    pytest.fail("no Rufspiel before its ace was played")


def _reaches_exchange(state, depth):
    """Whether calls alone can lead to an exchange within `depth` actions."""
    if any(c >= EXCHANGE_BASE for c in state.core.legal_codes()):
        return True
    if depth == 0 or state.is_over():
        return False
    for c in state.core.legal_codes():
        if c < CALL_BASE:
            return False
        nxt = state.copy()
        nxt.apply_code(c)
        if _reaches_exchange(nxt, depth - 1):
            return True
    return False


def _check_worlds(deal, seeds):
    """Every seat's tensors are the same in worlds drawn from its view; returns the count."""
    game = deal.game
    checked = 0
    for seat in range(game.seats):
        view = deal.state.view(seat)
        obs, info = tensors(deal, seat)
        for w in Inference(view, game.options.as_dict()).sample(seeds, seed=seat):
            other = rl.Deal.of_masks(game, w["masks"], w["blind_mask"], deal.state.dealer,
                                     _filled(view["actions"], w["hidden"]))
            o2, i2 = tensors(other, seat)
            assert np.array_equal(obs, o2) and np.array_equal(info, i2), (seat, view["actions"])
            checked += 1
    return checked


# games with one exchange a deal at most: the three-handed Sheepshead picker is always alone,
# so he buries but never sets an unknown card aside
ONE_EXCHANGE = {"sheepshead3", "sheepshead4c"}


@pytest.mark.parametrize("name", [g for g in GAMES if games.spec_of(g).exchanges])
def test_exchanged_cards_stay_hidden(name):
    """Deals steered into the game's exchanges (Armut gift and return, bury, the unknown card
    set aside and played face down), then played on: the tensors still hide what others
    cannot see, at every later position checked."""
    game = games.get(name)
    deals = checked = twice = 0
    want_twice = name not in ONE_EXCHANGE
    for seed in range(300):
        deal = rl.Deal.new(game, seed, seed % game.seats)
        rng = random.Random(seed)
        exchanged = 0
        while deal.to_act() is not None:
            legal = deal.state.core.legal_codes()
            steer = [c for c in legal if c >= EXCHANGE_BASE]
            if not steer:
                steer = [c for c in legal if c >= CALL_BASE and _steered(deal.state, c)]
            if exchanged and not steer:
                break
            code = rng.choice(steer or legal)
            exchanged += code >= EXCHANGE_BASE
            deal.apply_code(code)
        if not exchanged or (want_twice and deals >= 4 and exchanged < 2):
            continue
        deals += 1
        twice += exchanged >= 2
        while deal.to_act() is not None:       # to the end of the deal, checking on the way
            checked += _check_worlds(deal, 2)
            for _ in range(rng.randrange(1, 9)):
                if deal.to_act() is not None:
                    deal.apply_index(rng.choice(deal.legal_indices()))
        if deals >= 4 and (twice or not want_twice):
            break
    # two exchanges: Doppelkopf's Armut gift and return; Sheepshead's bury and the unknown card
    assert deals >= 4 and (twice or not want_twice) and checked >= 30


def _steered(state, code):
    nxt = state.copy()
    nxt.apply_code(code)
    return _reaches_exchange(nxt, 3)


def _filled(actions, hidden):
    out = []
    for i, a in enumerate(actions):
        if i in hidden:
            a = dict(a, **({"card": hidden[i]} if a["type"] == "play" else {"cards": hidden[i]}))
        out.append(a)
    return out


def _policy_run(name, n, seed, steps, learners=None, threads=None, cards_only=False):
    env = rl.VecEnv(name, n, seed=seed, learners=learners, cards_only=cards_only)
    rng = np.random.default_rng(seed)
    frames = [(env.obs.copy(), env.mask.copy(), env.seat.copy())]
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.mask])
        obs, mask, reward, done, seat = env.step(actions)
        frames.append((obs.copy(), mask.copy(), seat.copy(), reward.copy(), done.copy()))
    return frames


@pytest.mark.parametrize("name", GAMES)
def test_vec_env_is_deterministic(name):
    a = _policy_run(name, 5, 7, 60, learners=[0])
    b = _policy_run(name, 5, 7, 60, learners=[0])
    c = _policy_run(name, 5, 8, 60, learners=[0])
    assert all(all(np.array_equal(x, y) for x, y in zip(fa, fb)) for fa, fb in zip(a, b))
    assert not all(np.array_equal(fa[0], fc[0]) for fa, fc in zip(a, c))
    assert any(f[4].any() for f in a[1:]), "some deals finished"


@pytest.mark.parametrize("name", GAMES)
def test_vec_env_agrees_with_the_step_api(name):
    """Every seat played by the caller: each observation and mask is the Tracker's of the same
    actions, and each finished deal's rewards are the State's scores of those actions."""
    game = games.get(name)
    n, seed = 3, 11
    env = rl.VecEnv(game, n, seed=seed)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        before = [env.history(i) for i in range(n)]
        for i in range(n):
            k, dealer, codes = before[i]
            deal = rl.Deal.new(game, deal_seed(seed, k), dealer)
            for code in codes:
                deal.apply_code(code)
            seat = int(env.seat[i])
            assert deal.to_act() == seat
            obs, _ = tensors(deal, seat)
            assert np.array_equal(obs, env.obs[i])
            assert np.flatnonzero(env.mask[i]).tolist() == deal.legal_indices()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.mask])
        codes_now = [rl.Deal.new(game, deal_seed(seed, b[0]), b[1]) for b in before]
        for i, (deal, b) in enumerate(zip(codes_now, before)):
            for code in b[2]:
                deal.apply_code(code)
            deal.apply_index(int(actions[i]))
            codes_now[i] = deal
        _, _, reward, done, _ = env.step(actions)
        for i in range(n):
            deal = codes_now[i]
            if done[i]:
                finished += 1
                assert deal.to_act() is None
                assert reward[i].tolist() == deal.state.core.scores() == deal.tracker.scores()
            else:
                assert deal.to_act() is not None and not reward[i].any()
    assert finished >= 3


@pytest.mark.parametrize("bids", ["uniform", "cheapest"])
def test_random_opponents_and_cards_only(bids):
    env = rl.VecEnv("schafkopf", 8, seed=3, learners=[2], cards_only=True, bids=bids)
    lay = env.layout
    card_end = lay.actions["card"][1]
    for _ in range(40):
        assert (env.seat == 2).all()
        assert env.mask[:, card_end:].sum() == 0 and (env.mask[:, :card_end].sum(1) > 0).all()
        env.step(np.array([np.flatnonzero(m)[0] for m in env.mask]))
    assert env._env.counts()["deals"] > 0


def test_illegal_action_changes_nothing():
    env = rl.VecEnv("klaverjas", 4, seed=5)
    before = [env.history(i) for i in range(4)]
    obs = env.obs.copy()
    actions = np.array([np.flatnonzero(m)[0] for m in env.mask])
    actions[2] = np.flatnonzero(env.mask[2] == 0)[0]
    with pytest.raises(ValueError, match=r"game 2: action \d+ is not legal for seat \d \(legal: \["):
        env.step(actions)
    with pytest.raises(ValueError, match="must be 4 action indices"):
        env.step(actions[:3])
    assert [env.history(i) for i in range(4)] == before and np.array_equal(obs, env.obs)
    with pytest.raises(ValueError, match="learners must be seats 0..3"):
        rl.VecEnv("klaverjas", 1, learners=[4])
    with pytest.raises(ValueError, match="bids must be one of uniform for this game"):
        rl.VecEnv("klaverjas", 1, bids="cheapest")


def test_random_steps_do_not_depend_on_threads():
    a = rl.VecEnv("doppelkopf", 6, seed=9)
    b = rl.VecEnv("doppelkopf", 6, seed=9)
    ra = a.random_steps(50, threads=1)
    rb = b.random_steps(50, threads=3)
    assert ra["steps"] == rb["steps"] == 300 and ra["deals"] == rb["deals"]
    assert np.array_equal(a.obs, b.obs) and np.array_equal(a.mask, b.mask)
    assert [a.history(i) for i in range(6)] == [b.history(i) for i in range(6)]


def test_bots_as_opponents():
    env = rl.VecEnv("schafkopf", 2, seed=4, bots={1: "random", 2: "easy", 3: "random"})
    assert env.learners == (0,)
    done = 0
    for _ in range(30):
        assert (env.seat == 0).all()
        _, _, reward, d, _ = env.step(np.array([np.flatnonzero(m)[-1] for m in env.mask]))
        done += int(d.sum())
    assert done > 0
    with pytest.raises(ValueError, match="both learners and bots"):
        rl.VecEnv("schafkopf", 1, learners=[0, 1], bots={1: "random"})


def test_bench_smoke():
    """bench/rl_bench.py at a tiny size: every row is measured (the bench is a command)."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "bench" / "rl_bench.py"
    spec = importlib.util.spec_from_file_location("rl_bench", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = bench.run("schafkopf", seconds=0.02, reps=1, threads=2, sizes=(1, 8))
    assert set(rows) >= {"vec.cards_only.n1", "vec.cards_only.n8", "vec.cards_only.n8.threads2",
                         "vec.all_decisions.n64", "engine_playout.actions"}
    assert all(rate is None or rate > 0 for rate in rows.values())
