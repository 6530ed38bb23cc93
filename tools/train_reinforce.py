"""Train a small policy on stich's vectorised environment and evaluate it in the tournament
(docs/rl.md, "Training example").

REINFORCE with a mean baseline, written in numpy: a two-layer network (observation tensor ->
hidden -> action logits, illegal actions masked out) plays the `--seats` learner seats of
`--games` deals at a time against uniformly random opponents (VecEnv, in C); each decision's
return is the learner seat's score of its deal, normalised per batch. Then the policy plays
the duplicate tournament (engine_core.bots.tournament) against the random bot: the policy
sees only its seat's view; its tensors are built from one world of stich's sampler of hidden
worlds (the tensors are the same in every world consistent with the view).

    .venv/bin/python tools/train_reinforce.py --game klaverjas --minutes 3 --deals 300
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from engine_core import games, rl
from engine_core.bots import Bot, get as get_bot, tournament
from engine_core.bots.inference import Inference


class Policy:
    """obs -> relu(hidden) -> logits, with Adam."""

    def __init__(self, n_in, n_hidden, n_out, seed=0, lr=3e-3):
        rng = np.random.default_rng(seed)
        self.p = {"w1": rng.normal(0, 1 / np.sqrt(n_in), (n_in, n_hidden)).astype(np.float32),
                  "b1": np.zeros(n_hidden, np.float32),
                  "w2": rng.normal(0, 1 / np.sqrt(n_hidden), (n_hidden, n_out)).astype(np.float32) * 0.1,
                  "b2": np.zeros(n_out, np.float32)}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.lr, self.t = lr, 0

    def logits(self, x, mask):
        h = np.maximum(x @ self.p["w1"] + self.p["b1"], 0)
        z = h @ self.p["w2"] + self.p["b2"]
        z = np.where(mask > 0, z, -1e9)
        return h, z

    def probs(self, x, mask):
        h, z = self.logits(x, mask)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z) * (mask > 0)
        return h, e / e.sum(axis=1, keepdims=True)

    def update(self, x, mask, actions, adv):
        """One gradient step of -mean(adv * log pi(action))."""
        h, pr = self.probs(x, mask)
        g = pr.copy()
        g[np.arange(len(actions)), actions] -= 1.0          # d(-log pi)/dz
        g *= adv[:, None] / len(actions)
        grads = {"w2": h.T @ g, "b2": g.sum(0)}
        dh = (g @ self.p["w2"].T) * (h > 0)
        grads["w1"] = x.T @ dh
        grads["b1"] = dh.sum(0)
        self.t += 1
        for k, gk in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * gk
            self.v[k] = 0.999 * self.v[k] + 0.001 * gk * gk
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def train(game_name, seats, n_games, horizon, minutes, seed, hidden):
    env = rl.VecEnv(game_name, n_games, seed=seed, learners=seats)
    lay = env.layout
    policy = Policy(lay.observation_size, hidden, lay.num_actions, seed)
    rng = np.random.default_rng(seed)
    t_end = time.perf_counter() + 60 * minutes
    it = 0
    history = []
    while time.perf_counter() < t_end:
        xs, masks, acts, seat_s, rewards, dones = [], [], [], [], [], []
        for _ in range(horizon):
            x = env.obs.astype(np.float32)
            mask = env.mask.copy()
            _, pr = policy.probs(x, mask)
            a = (pr.cumsum(1) > rng.random((n_games, 1))).argmax(1)
            xs.append(x)
            masks.append(mask)
            acts.append(a)
            seat_s.append(env.seat.astype(np.int64))
            _, _, reward, done, _ = env.step(a)
            rewards.append(reward.copy())
            dones.append(done.copy())
        # each decision's return: its seat's score of the deal it was made in
        ret = np.full((horizon, n_games), np.nan)
        future = np.full((n_games, env.game.seats), np.nan)
        for t in range(horizon - 1, -1, -1):
            future[dones[t]] = rewards[t][dones[t]]
            ret[t] = future[np.arange(n_games), seat_s[t]]
        ok = ~np.isnan(ret)
        r = ret[ok]
        finished = [rewards[t][dones[t]] for t in range(horizon)]
        deal_scores = np.concatenate(finished)[:, list(seats)].mean() if any(len(f) for f in finished) else 0.0
        adv = (r - r.mean()) / (r.std() + 1e-6)
        policy.update(np.concatenate(xs)[ok.ravel()], np.concatenate(masks)[ok.ravel()],
                      np.concatenate(acts)[ok.ravel()], adv.astype(np.float32))
        it += 1
        history.append(float(deal_scores))
        if it % 20 == 0:
            print(f"iteration {it}: learner seats' mean score {np.mean(history[-20:]):8.2f}", file=sys.stderr)
    return policy, it, history


class PolicyBot(Bot):
    """The trained policy as a bot: its seat's tensors from one sampled world of its view,
    the most probable legal action."""

    level = "policy"

    def __init__(self, game, policy, seed=0, options=None):
        super().__init__(game, seed, options)
        self.policy = policy
        self.g = games.get(game, options)
        self.layout = rl.Layout(self.g)

    def _choose(self, view, legal):
        world = Inference(view, self.options).sample(1, seed=self.seed)[0]
        deal = rl.Deal.of_masks(self.g, world["masks"], world["blind_mask"], view["dealer"],
                                [dict(a, **{("card" if a["type"] == "play" else "cards"): world["hidden"][i]})
                                 if i in world["hidden"] else a for i, a in enumerate(view["actions"])])
        seat = view["seat"]
        obs = np.zeros(self.layout.observation_size, np.uint8)
        mask = np.zeros(self.layout.num_actions, np.uint8)
        deal.tracker.observation_into(seat, obs)
        deal.tracker.mask_into(mask)
        _, z = self.policy.logits(obs[None].astype(np.float32), mask[None])
        code = deal.tracker.code_of(int(z[0].argmax()))
        return deal.state.decode(code)


def evaluate(game_name, policy, deals, seed):
    """The duplicate tournament, the policy (bot A) against the random bot (B)."""
    real_get = tournament.get

    def get(game, name, seed=0, options=None, **budget):
        if name == "policy":
            return PolicyBot(game, policy, seed=seed, options=options)
        return real_get(game, name, seed=seed, options=options, **budget)
    tournament.get = get
    try:
        return tournament.run(game_name, ["policy", "random"], deals, seed=seed)
    finally:
        tournament.get = real_get


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="klaverjas", choices=games.available())
    ap.add_argument("--seats", default="0,2", help="the learner seats (comma-separated)")
    ap.add_argument("--games", type=int, default=256, help="deals stepped at once")
    ap.add_argument("--horizon", type=int, default=48, help="steps per update")
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--deals", type=int, default=300, help="tournament deals")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    seats = [int(s) for s in args.seats.split(",")]
    get_bot(args.game, "random")        # the game exists
    t0 = time.perf_counter()
    policy, iterations, history = train(args.game, seats, args.games, args.horizon, args.minutes,
                                        args.seed, args.hidden)
    trained = time.perf_counter() - t0
    report = evaluate(args.game, policy, args.deals, args.seed + 1000)
    print(tournament.table(report))
    print(json.dumps({"iterations": iterations, "train_seconds": round(trained, 1),
                      "first_scores": round(float(np.mean(history[:20])), 2),
                      "last_scores": round(float(np.mean(history[-20:])), 2),
                      "difference": report["difference"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
