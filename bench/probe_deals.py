"""The deals the C solver probe (../shared/reference/solver_probe.c) solves, rebuilt as stich
states, so that both solvers are timed on the same deals in the same run.

The probe deals with SplitMix64 seeded `seed * 0x2545F4914F6CDD1D + 12345`, shuffles a deck
numbered in its own layout (`rnd() % (i + 1)` Fisher-Yates), gives 8 consecutive cards per
seat, seat 0 leads; for a Rufspiel the seat with the most trumps among those that can call an
ace declares (the first such seat on a tie), calling a random callable suit; for a Wenz the
seat with the most Unters (then aces) plays. Here the same deals are dealt with dealer 3, the
declarer bids the contract and everyone else passes.
"""
from __future__ import annotations

M64 = (1 << 64) - 1

# the probe's card layout, lowest bit first (its setup_game), as record codes
RUF_LAYOUT = ([r + s for s in "CSD" for r in "789KTA"]
              + ["7H", "8H", "9H", "KH", "TH", "AH", "JD", "JH", "JS", "JC", "QD", "QH", "QS", "QC"])
WENZ_LAYOUT = [r + s for s in "CSHD" for r in "789QKTA"] + ["JD", "JH", "JS", "JC"]


class ProbeRng:
    def __init__(self, seed: int):
        self.s = (seed * 0x2545F4914F6CDD1D + 12345) & M64

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)


def _shuffled_hands(rng: ProbeRng, layout: list[str]) -> list[list[str]]:
    perm = list(range(len(layout)))
    for i in range(len(perm) - 1, 0, -1):
        j = rng.next() % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return [[layout[perm[p * 8 + i]] for i in range(8)] for p in range(4)]


def _trumps_ruf(hand):
    return sum(1 for c in hand if c[0] in "QJ" or c[1] == "H")


def probe_deals(game: str, n: int, seed: int = 1):
    """(hands, declarer, bid action) of the probe's first n deals of `game` ("ruf" or "wenz")."""
    rng = ProbeRng(seed)
    out = []
    while len(out) < n:
        if game == "ruf":
            hands = _shuffled_hands(rng, RUF_LAYOUT)
            best, best_t, calls = -1, -1, {}
            for p, hand in enumerate(hands):
                calls[p] = [s for s in "CSD" if "A" + s not in hand and any(c[1] == s and c[0] not in "QJ" for c in hand)]
                t = _trumps_ruf(hand)
                if calls[p] and t > best_t:
                    best_t, best = t, p
            if best < 0:
                continue
            suit = calls[best][rng.next() % len(calls[best])]
            out.append((hands, best, {"call": "rufspiel", "suit": suit}))
        elif game == "wenz":
            hands = _shuffled_hands(rng, WENZ_LAYOUT)
            scores = [10 * sum(c[0] == "J" for c in h) + sum(c[0] == "A" for c in h) for h in hands]
            best = max(range(4), key=lambda p: (scores[p], -p))
            out.append((hands, best, {"call": "wenz"}))
        else:
            raise ValueError(game)
    return out


def states(game: str, n: int, seed: int = 1):
    """stich states at the first card of the probe's deals (dealer 3: seat 0 leads)."""
    from engine_core import games
    g = games.get("schafkopf")
    for hands, declarer, bid in probe_deals(game, n, seed):
        state = g.new_deal(hands, 3)
        for seat in range(4):
            if seat == declarer:
                state.apply({"seat": seat, "type": "bid", **bid})
            else:
                state.apply({"seat": seat, "type": "bid", "call": "pass"})
        yield state
