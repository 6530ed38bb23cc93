"""The inference: hidden worlds consistent with everything one seat has seen (docs/bots.md).

`Inference(view, options).sample(n, seed)` returns up to n worlds; `states(n, seed)` the same
worlds as States replayed to the view's position (for the solver). Only the view is read: the
seat's own hand, the public history (with face-down cards as "??") and what the seat itself
handled (its exchange, the Sheepshead picker's blind and bury).

What a world respects:
- the cards played and the seat's own hand and exchanges (they are not in the pool);
- voids shown by not following suit (trump voids included): a seat that did not follow an
  effective suit holds none of its unseen cards;
- everything the rules imply: each world is replayed through the game's own rules and kept
  only if every public action was legal for its seat in it (a Rufspiel call without the called
  ace and the called-suit rules, Re/Kontra and Hochzeit by the club queens, Armut by the trump
  count, Klaverjas's obligation to overtrump, the Sheepshead bury and partner calls, ...).

Sampling is uniform over those worlds (rejection from a uniform deal of the unseen cards), with
one documented weighting: an Armut exchange that the seat did not see is drawn as the returned
cards uniform among the poor player's cards, then the given trumps uniform among the
acceptor's trumps; a Sheepshead blind that the seat did not see is uniform among the picker's
cards, which keeps the sample uniform. The hot loop is `engine_core._infer` (Cython).
"""
from __future__ import annotations

from collections import Counter

from .. import games
from .._infer import Sampler
from .._codes import CALL_BASE, exchange_code, exchange_mask
from .knowledge import HIDDEN, Order, SEATS, voids

# placeholder kinds (engine_core._infer)
K_PLAIN, K_EXCHANGE_HOLDER, K_EXCHANGE_SLOT, K_PLAY_SLOT = 0, 1, 2, 3
OP_MERGE, OP_SPLIT, OP_ADD, OP_CHOOSE = 0, 1, 2, 3


class InferenceError(ValueError):
    """The view cannot be a view of this game (inconsistent cards or history)."""


def _sub(a: Counter, b: Counter) -> Counter:
    out = Counter(a)
    out.subtract(b)
    return +out


class Inference:
    """The worlds consistent with one seat's view."""

    def __init__(self, view: dict, options: dict | None = None, use_voids: bool = True):
        self.view = view
        self.game = games.get(view["game"], options)
        game = self.game
        spec, deck = game.spec, game.deck
        self.deck = deck
        n = game.seats
        me = view["seat"]
        self.me = me
        nf = len(deck.faces)
        self.faces = nf
        calls = {(k, c, s): i for i, (k, c, s) in enumerate(spec.calls)}
        played: list[Counter] = [Counter() for _ in range(n)]
        hidden_plays: list[int] = [0] * n
        acts = []              # (seat, code, kind, ref)
        exchanges = []         # (index, seat, call, cards)
        for i, a in enumerate(view["actions"]):
            seat, kind = a["seat"], a["type"]
            if kind == "play":
                if a["card"] == HIDDEN:
                    hidden_plays[seat] += 1
                    acts.append([seat, 0, K_PLAY_SLOT, -1])
                else:
                    played[seat][a["card"]] += 1
                    acts.append([seat, deck.face_index(a["card"]), K_PLAIN, 0])
            elif kind == "exchange":
                number = spec.exchanges.index(a["call"])
                exchanges.append((i, seat, a["call"], list(a["cards"])))
                if HIDDEN in a["cards"]:
                    acts.append([seat, exchange_code(number, 0), K_EXCHANGE_SLOT, -1])
                else:
                    faces = 0
                    twice = 0
                    for c in a["cards"]:
                        f = deck.face_index(c)
                        if faces >> f & 1:
                            twice |= 1 << f
                        faces |= 1 << f
                    acts.append([seat, exchange_code(number, faces), K_EXCHANGE_SLOT, -2, twice])
            else:
                acts.append([seat, CALL_BASE + calls[(kind, a["call"], a.get("suit"))], K_PLAIN, 0])
        hand_now = Counter(view["hand"])
        counts = self._hand_sizes(view, played, hidden_plays, exchanges)
        known_init: list[Counter] = [Counter(played[s]) for s in range(n)]
        known_held: list[Counter] = [Counter() for _ in range(n)]
        known_held[me] = Counter(hand_now)
        known_blind = Counter()
        piles = []             # (count, forbid-all-but mask of faces or None)
        ops = []
        blind_holder = blind_slot = -1
        n_slots = 0
        blind_size = spec.blind_size
        game_name = game.name

        if game_name == "sheepshead":
            picker = view.get("picker")
            bury = next((e for e in exchanges if e[2] == "bury"), None)
            unknown = next((e for e in exchanges if e[2] == "unknown"), None)
            if picker is None:
                # before the pick, or a leaster: the blind is face down
                if view.get("blind") is not None:
                    known_blind = Counter(view["blind"])
                else:
                    piles.append((blind_size, None))
                    blind_holder = n
            elif picker == me:
                known_blind = Counter(view.get("blind") or [])
                known_init[me] = _sub(Counter(hand_now) + played[me] + Counter(bury[3] if bury else []), known_blind)
                known_held[me] = Counter()
                if unknown is not None:
                    acts[unknown[0]][2:4] = [K_EXCHANGE_SLOT, -2]
            else:
                if bury is not None:
                    piles.append((len(bury[3]), None))
                    acts[bury[0]][2:4] = [K_EXCHANGE_HOLDER, n]
                    ops.append((OP_MERGE, picker, n, 0, 0, 0))
                if unknown is not None:
                    ops.insert(0, (OP_CHOOSE, picker, 0, n_slots, 1, deck_mask(deck)))
                    acts[unknown[0]][2:4] = [K_EXCHANGE_SLOT, n_slots]
                    for act in acts:
                        if act[2] == K_PLAY_SLOT:
                            act[3] = n_slots
                    n_slots += 1
                ops.append((OP_SPLIT, picker, 0, n_slots, blind_size, deck_mask(deck)))
                blind_slot = n_slots
                n_slots += 1
        elif game_name == "doppelkopf" and exchanges:
            give = next((e for e in exchanges if e[2] == "armut_give"), None)
            ret = next((e for e in exchanges if e[2] == "armut_return"), None)
            poor = give[1]
            acc = ret[1] if ret else next((a["seat"] for a in view["actions"] if a.get("call") == "accept"), None)
            G = Counter(give[3]) if HIDDEN not in give[3] else None
            R = Counter(ret[3]) if ret and HIDDEN not in ret[3] else None
            k = len(give[3])
            trumps = self._dk_trump_faces()
            if me == poor:
                known_held[me] = Counter()
                known_init[me] = _sub(hand_now + played[me] + G, R or Counter())
                if acc is not None:
                    if ret is None:                      # the acceptor holds what was given
                        known_held[acc] = Counter(G)
                    else:
                        known_held[acc] = _sub(_sub(G, R), played[acc])
                        known_init[acc] = _sub(played[acc] + known_held[acc] + R, G)
                        known_held[acc] = Counter()
                        counts[acc] -= sum(_sub(_sub(G, R), played[acc]).values())
                    if ret is None:
                        known_init[acc] = Counter()
                        counts[acc] -= sum(G.values())
                        known_held[acc] = Counter()
                acts[give[0]][2:4] = [K_EXCHANGE_SLOT, -2]
                if ret:
                    acts[ret[0]][2:4] = [K_EXCHANGE_SLOT, -2]
            elif me == acc:
                known_held[me] = Counter()
                known_init[me] = _sub(hand_now + played[me] + (R or Counter()), G)
                if ret is not None:
                    held_r = _sub(R, played[poor])
                    known_init[poor] = _sub(played[poor] + held_r + G, R)
                    counts[poor] -= sum(held_r.values())
                else:
                    known_init[poor] = played[poor] + G
                acts[give[0]][2:4] = [K_EXCHANGE_SLOT, -2]
                if ret:
                    acts[ret[0]][2:4] = [K_EXCHANGE_SLOT, -2]
            else:
                if acc is None:                          # the given trumps wait face down
                    piles.append((k, trumps))
                    ops.append((OP_MERGE, poor, n, 0, 0, 0))
                    acts[give[0]][2:4] = [K_EXCHANGE_HOLDER, n]
                elif ret is None:
                    ops.append((OP_SPLIT, acc, 0, 0, k, self._phys(trumps)))
                    ops.append((OP_ADD, poor, 0, 0, 0, 0))
                    acts[give[0]][2:4] = [K_EXCHANGE_SLOT, 0]
                else:
                    ops.append((OP_SPLIT, poor, 0, 1, len(ret[3]), deck_mask(deck)))
                    ops.append((OP_ADD, acc, 0, 1, 0, 0))
                    ops.append((OP_SPLIT, acc, 0, 0, k, self._phys(trumps)))
                    ops.append((OP_ADD, poor, 0, 0, 0, 0))
                    acts[give[0]][2:4] = [K_EXCHANGE_SLOT, 0]
                    acts[ret[0]][2:4] = [K_EXCHANGE_SLOT, 1]
        # visible exchanges keep their codes: mark them plain
        twice_of = {}
        for i, act in enumerate(acts):
            if act[2] == K_EXCHANGE_SLOT and act[3] == -2:
                act[2], act[3] = K_PLAIN, 0
                twice_of[i] = act[4]
        self._twice_plain = twice_of
        # physical allocation of every known card of the deal
        taken = 0
        fixed = [0] * n
        for s in range(n):
            for card, times in (known_init[s] + known_held[s]).items():
                for _ in range(times):
                    b = self._alloc(card, taken)
                    taken |= b
                    fixed[s] |= b
            counts[s] -= sum(known_held[s].values()) if s != me else 0
        kb = 0
        for card, times in known_blind.items():
            for _ in range(times):
                b = self._alloc(card, taken)
                taken |= b
                kb |= b
        pool = deck_mask(deck) & ~taken
        counts[me] = 0
        # voids: the unseen cards of an effective suit a seat did not follow
        order = Order.of(view, options) if use_voids else None
        forbid = [0] * n
        if order is not None:
            for s, suits in voids(view, order, SEATS[game_name]).items():
                for suit in suits:
                    for card in order.lists.get(suit, []):
                        forbid[s] |= self._phys_face(deck.face_index(card))
        hold_counts = list(counts) + [c for c, _ in piles]
        hold_forbid = [f & pool for f in forbid] + [(pool & ~self._phys(m)) if m is not None else 0
                                                    for _, m in piles]
        self.sampler = Sampler(game.rules, game.rules.c_options(game.options, None), view["dealer"],
                               hold_counts, hold_forbid, pool, fixed, kb, blind_holder, blind_slot,
                               [tuple(o) for o in ops], [tuple(a[:4]) for a in acts], nf, deck.copies)
        self._acts = acts

    # -- helpers --
    def _hand_sizes(self, view, played, hidden_plays, exchanges) -> list[int]:
        n = self.game.seats
        size = self.game.spec.hand_size
        if "hand_sizes" in view:
            return list(view["hand_sizes"])
        out = [size - sum(played[s].values()) - hidden_plays[s] for s in range(n)]
        picker = view.get("picker")
        if picker is not None and not any(e[2] == "bury" for e in exchanges):
            out[picker] += self.game.spec.blind_size
        if picker is not None:
            out[picker] += hidden_plays[picker]     # the face-down card is drawn with the hand
        return out

    def _alloc(self, card: str, taken: int) -> int:
        f = self.deck.face_index(card)
        for copy in range(self.deck.copies):
            b = 1 << (f + copy * self.faces)
            if not taken & b:
                return b
        raise InferenceError(f"{card} is seen more often than the deck holds it")

    def _phys_face(self, f: int) -> int:
        return sum(1 << (f + c * self.faces) for c in range(self.deck.copies))

    def _phys(self, face_mask: int) -> int:
        out = 0
        for f in range(self.faces):
            if face_mask >> f & 1:
                out |= self._phys_face(f)
        return out

    def _dk_trump_faces(self) -> int:
        """Doppelkopf's trumps in the normal game (the Armut is one): TH, queens, jacks, diamonds."""
        m = 0
        for f, code in enumerate(self.deck.faces):
            if code == "TH" or code[0] in "QJ" or code[1] == "D":
                m |= 1 << f
        return m

    # -- the API --
    def sample(self, n: int, seed: int = 0, max_tries: int = 0) -> list[dict]:
        """Up to n worlds {"hands": [[codes]] at the deal, "blind": [codes], "hidden": {action
        index: the hidden cards}}; deterministic per seed."""
        out = []
        deck = self.deck
        for hands, blind, hidden in self.sampler.sample(n, seed & (2 ** 64 - 1), max_tries):
            fill = {}
            for i, (code, twice) in hidden.items():
                if self._acts[i][2] == K_PLAY_SLOT:
                    fill[i] = deck.code(code)
                else:
                    faces = exchange_mask(code)
                    cards = []
                    for f in range(self.faces):
                        if faces >> f & 1:
                            cards += [deck.code(f)] * (2 if twice >> f & 1 else 1)
                    fill[i] = cards
            out.append({"hands": [[deck.code(b) for b in range(deck.size) if h >> b & 1] for h in hands],
                        "masks": hands, "blind": [deck.code(b) for b in range(deck.size) if blind >> b & 1],
                        "blind_mask": blind, "hidden": fill})
        return out

    def state_of(self, world: dict):
        """The world as a State at the view's position (every action replayed)."""
        state = self.game._state(list(world["masks"]), self.view["dealer"], world["blind_mask"])
        for i, a in enumerate(self.view["actions"]):
            if i in world["hidden"]:
                a = dict(a)
                if a["type"] == "play":
                    a["card"] = world["hidden"][i]
                else:
                    a["cards"] = world["hidden"][i]
            state.apply(a)
        return state

    def states(self, n: int, seed: int = 0, max_tries: int = 0) -> list:
        return [self.state_of(w) for w in self.sample(n, seed, max_tries)]


def deck_mask(deck) -> int:
    return (1 << deck.size) - 1
