"""The hand-strength bidding policy of `python -m engine_core demo` (and `make demo`): each
seat passes (or stays healthy) unless its hand justifies a contract, and then names the
contract that hand justifies, so the printed deals look like a table of sober players rather
than uniform random bids (which end in Touts and solos). Cards are then played uniformly at
random among the legal ones, from a seeded generator. When `engine_core.bots` exists (the
normal bot), the demo lets it choose every action instead.

The rules, per game (trumps as in the game's normal contract unless said otherwise):

Schafkopf (trumps of a Sauspiel: the 4 Ober, the 4 Unter and the Herz)
  - Sie when it is legal (all Ober and Unter);
  - a Farbsolo in suit X with at least 7 trumps of that solo (Ober, Unter, X) of which 3 are
    Ober or Unter, or 6 of which 4 are, choosing the X with the most (ties: Herz, Eichel, Gras,
    Schellen);
  - else a Wenz with at least 3 Unter and a Sau (ace), or the Eichel-Unter, another Unter and
    3 Sau;
  - else a Sauspiel with at least 4 trumps, 2 of them Ober or Unter, calling the first
    callable Sau the engine offers;
  - else (or when the auction no longer offers that contract) pass; never a Tout. The
    Kontra/Re rounds: Kontra with 5 trumps of the contract or more, Re never.
Doppelkopf (normal trumps: 10♥, queens, jacks, diamonds)
  - Hochzeit or Armut when the engine offers it (they are mandatory-looking hands);
  - a queens solo with at least 5 queens; a suit solo in X (X the suit with the most cards
    besides queens and jacks) with at least 7 queens and jacks together and 3 such cards of X;
    else healthy;
  - the Armut offer: accept with at least 7 normal trumps, else decline; the return: the
    legal three cards with the fewest trumps and card points;
  - Re/Kontra announced at the first chance with at least 8 trumps; nothing more.
Sheepshead (trumps: queens, jacks, diamonds)
  - pick with at least 4 trumps, or 3 of which 2 are queens or jacks; else pass;
  - bury: the legal pair with the most card points among non-trumps (the bury counts for
    the picker), else the pair with the most points;
  - call: go alone with at least 6 trumps, 3 of them queens; else the first ace (or ten)
    call the engine offers; blitz with 4 trumps, crack with 5, re-crack with 6;
  - the unknown card: the lowest card offered.
Klaverjas
  - name the suit X where the hand holds the trump jack or nine of X and 3 cards of X or
    more (the longest such suit, ties to the one with the jack); else pass; when the rules
    force a trump, the longest suit offered.
"""
from __future__ import annotations

import random
from collections import Counter

from . import games

POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}         # Schafkopf, Sheepshead, Doppelkopf


def _points(card: str) -> int:
    return POINTS.get(card[0], 0)


def _find(legal: list[dict], call: str, suit: str | None = None) -> dict | None:
    for a in legal:
        if a.get("call") == call and (suit is None or a.get("suit") == suit):
            return a
    return None


def _pass(legal: list[dict], *names: str) -> dict:
    for name in names:
        found = _find(legal, name)
        if found:
            return found
    return legal[0]


class HandStrengthPolicy:
    """Chooses one legal action for the seat to act of a `State`, as the module says."""

    name = "hand-strength bids, random legal cards"

    def __init__(self, game: str, seed: int):
        self.game = game
        self.rng = random.Random(seed)
        # "trumps" are those of the game's normal contract: its declared order before any bid
        self.trumps = frozenset(games.spec_of(game).default_order["trump"])

    def _trump(self, card: str) -> bool:
        return card in self.trumps

    def choose(self, state) -> dict:
        legal = state.legal_actions()
        seat = state.to_act()
        hand = state.view(seat)["hand"]
        calls = [a for a in legal if a["type"] != "play"]
        cards = [a for a in legal if a["type"] == "play"]
        if calls:
            if cards:                        # an announcement while playing (Re/Kontra)
                choice = self._announce(calls, hand)
            else:
                rules = PHASES.get(state.phase())
                choice = getattr(self, rules)(state, legal, calls, hand) if rules else None
            if choice is not None:
                return choice
            if not cards:
                return self.rng.choice(calls)
        return self.rng.choice(cards)

    # ---- Schafkopf's auction and Kontra/Re ------------------------------------------------------
    def _auction(self, state, legal, calls, hand):
        phase = state.phase()
        ou = sum(c[0] in "QJ" for c in hand)
        if phase == "auction":
            if _find(legal, "sie"):
                return _find(legal, "sie")
            best = max("HCSD", key=lambda x: sum(c[0] in "QJ" or c[1] == x for c in hand))
            solo_trumps = sum(c[0] in "QJ" or c[1] == best for c in hand)
            if (solo_trumps >= 7 and ou >= 3 or solo_trumps >= 6 and ou >= 4) and _find(legal, "farbsolo", best):
                return _find(legal, "farbsolo", best)
            unter = sum(c[0] == "J" for c in hand)
            aces = sum(c[0] == "A" for c in hand)
            if (unter >= 3 and aces >= 1 or unter >= 2 and "JC" in hand and aces >= 3) and _find(legal, "wenz"):
                return _find(legal, "wenz")
            trumps = sum(self._trump(c) for c in hand)
            if trumps >= 4 and ou >= 2 and _find(legal, "rufspiel"):
                return _find(legal, "rufspiel")
            return _pass(legal, "pass")
        if phase in ("kontra", "re"):
            if phase == "kontra" and _find(legal, "kontra") and sum(self._trump(c) for c in hand) >= 5:
                return _find(legal, "kontra")
            return _pass(legal, "pass")
        return None

    # ---- Doppelkopf's reservations and Armut -------------------------------------------------
    def _reservations(self, state, legal, calls, hand):
        phase = state.phase()
        trumps = sum(self._trump(c) for c in hand)
        if phase == "reservation":
            for call in ("hochzeit", "armut"):
                if _find(legal, call):
                    return _find(legal, call)
            queens, jacks = sum(c[0] == "Q" for c in hand), sum(c[0] == "J" for c in hand)
            if queens >= 5 and _find(legal, "solo_queens"):
                return _find(legal, "solo_queens")
            suits = {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs"}
            longest = max(suits, key=lambda s: sum(c[1] == s and c[0] not in "QJ" for c in hand))
            if queens + jacks >= 7 and sum(c[1] == longest and c[0] not in "QJ" for c in hand) >= 3:
                solo = _find(legal, "solo_" + suits[longest])
                if solo:
                    return solo
            return _pass(legal, "healthy")
        if phase == "armut_offer":
            return _pass(legal, "accept" if trumps >= 7 else "decline", "decline")
        if phase in ("armut_give", "armut_return"):
            exchanges = [a for a in legal if a["type"] == "exchange"]
            return min(exchanges, key=lambda a: (sum(self._trump(c) for c in a["cards"]),
                                                 sum(_points(c) for c in a["cards"])))
        return None

    def _announce(self, calls, hand):
        """Re/Kontra at the first chance with at least 8 trumps; nothing more (None: play)."""
        announce = [a for a in calls if a["call"] in ("re", "kontra")]
        if announce and sum(self._trump(c) for c in hand) >= 8:
            return announce[0]
        return None

    # ---- Sheepshead's pick, bury, call and cracking ----------------------------------------------
    def _pick_and_call(self, state, legal, calls, hand):
        phase = state.phase()
        trumps = sum(self._trump(c) for c in hand)
        high = sum(c[0] in "QJ" for c in hand)
        if phase == "pick":
            return _pass(legal, "pick" if trumps >= 4 or trumps >= 3 and high >= 2 else "pass", "pass")
        if phase == "bury":
            return max(legal, key=lambda a: (not any(self._trump(c) for c in a["cards"]),
                                             sum(_points(c) for c in a["cards"])))
        if phase == "call":
            if trumps >= 6 and sum(c[0] == "Q" for c in hand) >= 3 and _find(legal, "alone"):
                return _find(legal, "alone")
            # never an ace of its own hand (call_own_ace: secretly alone)
            partners = [a for a in legal if not (a.get("call") == "ace" and "A" + a["suit"] in hand)]
            for call in ("ace", "jack_of_diamonds", "call_up", "ten", "unknown_ace", "alone"):
                if _find(partners, call):
                    return _find(partners, call)
        if phase == "unknown":
            return min(legal, key=lambda a: sum(_points(c) for c in a["cards"]))
        if phase == "blitz":
            return _pass(legal, "blitz" if trumps >= 4 else "pass", "pass")
        if phase == "crack":
            return _pass(legal, "crack" if trumps >= 5 else "pass", "pass")
        if phase == "recrack":
            return _pass(legal, "recrack" if trumps >= 6 else "pass", "pass")
        return None

    # ---- Klaverjas's bidding --------------------------------------------------------------------
    def _trump_bidding(self, state, legal, calls, hand):
        counts = Counter(c[1] for c in hand)
        offered = [a for a in legal if a.get("call") == "trump"]
        good = [a for a in offered if counts[a["suit"]] >= 3
                and ("J" + a["suit"] in hand or "9" + a["suit"] in hand)]
        if good:
            return max(good, key=lambda a: (counts[a["suit"]], "J" + a["suit"] in hand))
        if _find(legal, "pass"):
            return _find(legal, "pass")
        return max(offered, key=lambda a: counts[a["suit"]]) if offered else None


# the policy's rules by the phase they answer (the phases a game declares)
PHASES = {
    **dict.fromkeys(("auction", "kontra", "re"), "_auction"),
    **dict.fromkeys(("reservation", "armut_give", "armut_offer", "armut_return"), "_reservations"),
    **dict.fromkeys(("pick", "bury", "call", "unknown", "blitz", "crack", "recrack"), "_pick_and_call"),
    "bidding": "_trump_bidding",
}


class BotPolicy:
    """The normal bot of `engine_core.bots`, choosing from the acting seat's view only."""

    name = "the normal bot"

    def __init__(self, game: str, seed: int, bots, options: dict | None = None):
        self.bot = bots.get(game, "normal", seed, options=options)

    def choose(self, state) -> dict:
        return self.bot.choose(state.view(state.to_act()))


def policy(game: str, seed: int, options: dict | None = None):
    """The normal bot when this build has one (engine_core.bots), else the hand-strength
    policy."""
    try:
        from . import bots
    except ImportError:
        return HandStrengthPolicy(game, seed)
    return BotPolicy(game, seed, bots, options)


def play_deal(game, seed: int, k: int, dealer: int, chooser):
    """Deal k of the demo's seed, played to the end by `chooser`; the finished State."""
    state = game.deal_k(seed, k, dealer)
    while not state.is_over():
        state.apply(chooser.choose(state))
    return state
