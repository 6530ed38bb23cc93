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
# Doppelkopf: each face twice, in effective suits clubs, spades, hearts, trumps (weakest first)
DOKO_KINDS = (["9C", "KC", "TC", "AC"], ["9S", "KS", "TS", "AS"], ["9H", "KH", "AH"],
              ["9D", "KD", "TD", "AD", "JD", "JH", "JS", "JC", "QD", "QH", "QS", "QC", "TH"])
FACE_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
DOKO_LAYOUT = [(suit, kind, face) for suit, faces in enumerate(DOKO_KINDS)
               for kind, face in enumerate(faces) for _ in range(2)]


class ProbeRng:
    def __init__(self, seed: int):
        self.s = (seed * 0x2545F4914F6CDD1D + 12345) & M64

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)


def _shuffled_hands(rng: ProbeRng, layout: list, per: int = 8) -> list[list]:
    perm = list(range(len(layout)))
    for i in range(len(perm) - 1, 0, -1):
        j = rng.next() % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return [[perm[p * per + i] for i in range(per)] for p in range(4)]


def _trumps_ruf(hand):
    return sum(1 for c in hand if c[0] in "QJ" or c[1] == "H")


def probe_deals(game: str, n: int, seed: int = 1):
    """(hands, declarer, bid action) of the probe's first n deals of `game` ("ruf" or "wenz")."""
    rng = ProbeRng(seed)
    out = []
    while len(out) < n:
        if game == "ruf":
            hands = [[RUF_LAYOUT[c] for c in h] for h in _shuffled_hands(rng, RUF_LAYOUT)]
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
            hands = [[WENZ_LAYOUT[c] for c in h] for h in _shuffled_hands(rng, WENZ_LAYOUT)]
            scores = [10 * sum(c[0] == "J" for c in h) + sum(c[0] == "A" for c in h) for h in hands]
            best = max(range(4), key=lambda p: (scores[p], -p))
            out.append((hands, best, {"call": "wenz"}))
        else:
            raise ValueError(game)
    return out


def doko_deals(n: int, start_trick: int, seed: int = 1):
    """(hands, the cards of the first start_trick - 1 tricks in play order, the Re party's card
    points in them: the probe's values count only what is taken from start_trick on) of the probe's
    Doppelkopf deals: the club queens split between two seats (a normal game), seat 0 leads,
    the prefix tricks played by uniformly random legal cards as the probe draws them."""
    rng = ProbeRng(seed)
    out = []
    while len(out) < n:
        hands = _shuffled_hands(rng, DOKO_LAYOUT, 12)
        if sum(1 for h in hands if any(DOKO_LAYOUT[c][2] == "QC" for c in h)) != 2:
            continue
        held = [set(h) for h in hands]
        leader, played, re_points = 0, [], 0
        re = {p for p, h in enumerate(hands) if any(DOKO_LAYOUT[c][2] == "QC" for c in h)}
        for _ in range(start_trick - 1):
            trick = []
            for i in range(4):
                p = (leader + i) % 4
                legal = sorted(held[p])
                if trick:
                    follow = [c for c in legal if DOKO_LAYOUT[c][0] == DOKO_LAYOUT[trick[0]][0]]
                    legal = follow or legal
                c = legal[rng.next() % len(legal)]
                held[p].discard(c)
                trick.append(c)
            win = 0
            for i in range(1, 4):
                (sc, kc, _), (sw, kw, _) = DOKO_LAYOUT[trick[i]], DOKO_LAYOUT[trick[win]]
                if (kc > kw) if sc == sw else sc == 3:
                    win = i
            played.extend(DOKO_LAYOUT[c][2] for c in trick)
            leader = (leader + win) % 4
            if leader in re:
                re_points += sum(FACE_POINTS[DOKO_LAYOUT[c][2][0]] for c in trick)
        out.append(([[DOKO_LAYOUT[c][2] for c in h] for h in hands], played, re_points))
    return out


def doko_states(n: int, start_trick: int, seed: int = 1):
    """stich states of doko_deals: dealer 3, everyone healthy, the prefix replayed."""
    from engine_core import games
    g = games.get("doppelkopf")
    for hands, played, _ in doko_deals(n, start_trick, seed):
        state = g.new_deal(hands, 3)
        for seat in range(4):
            state.apply({"seat": seat, "type": "bid", "call": "healthy"})
        for card in played:
            state.apply({"seat": state.to_act(), "type": "play", "card": card})
        yield state


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
