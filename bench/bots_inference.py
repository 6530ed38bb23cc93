"""Worlds per second of the bots' inference (engine_core.bots.inference), per game: positions
from seeded deals played by random legal moves to a random point, 500 worlds sampled from the
view of the seat to act (the Cython sampler alone, then with the worlds turned into dicts).

    .venv/bin/python bench/bots_inference.py
"""
import random
import time

from engine_core import games
from engine_core.bots.inference import Inference


def main(positions: int = 40, worlds: int = 500) -> None:
    for name in games.GAMES:
        game = games.get(name)
        raw = full = 0.0
        got = tries = 0
        for seed in range(positions):
            state = game.deal(seed, dealer=seed % game.seats)
            rng = random.Random(seed)
            for _ in range(rng.randrange(0, 45)):
                if state.is_over():
                    break
                state.apply(rng.choice(state.legal_actions()))
            if state.is_over():
                continue
            inf = Inference(state.view(state.to_act()))
            t = time.perf_counter()
            sample = inf.sampler.sample(worlds, seed, 100 * worlds)
            raw += time.perf_counter() - t
            got += len(sample)
            tries += inf.sampler.tries
            t = time.perf_counter()
            inf.sample(worlds // 5, seed)
            full += time.perf_counter() - t
        print(f"{name:<11} sampler {got / raw:>9.0f} worlds/s   with dicts {got / 5 / full:>8.0f} worlds/s   "
              f"acceptance {got / tries:.2f}")


if __name__ == "__main__":
    main()
