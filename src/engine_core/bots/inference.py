"""The inference: hidden worlds consistent with everything one seat has seen (docs/bots.md).

`Inference(view, options).sample(n, seed)` returns up to n worlds; `states(n, seed)` the same
worlds as States replayed to the view's position (for the solver). Only the view and the
game's declaration are read: the seat's own hand, the public history (with face-down cards as
"??"), and the face-down piles as the game describes them (view["hidden"]: the piles this
seat cannot see, who gave them, who holds them, how many cards, from which action, among which
faces). No game is known by name: the sampler draws from that description.

What a world respects:
- the cards played and the seat's own hand and exchanges (they are not in the pool); in the
  game's sight phase (a knocking round on the first packet) the seat holds the cards it has
  seen and is dealt the rest of its hand from the pool, like any other seat;
- voids shown by not following suit (trump voids included): a seat that did not follow an
  effective suit holds none of its unseen cards;
- everything the rules imply: each world is replayed through the game's own rules and kept
  only if every public action was legal for its seat in it (a Rufspiel call without the called
  ace and the called-suit rules, Re/Kontra and Hochzeit by the club queens, Armut by the trump
  count, Klaverjas's obligation to overtrump, the Sheepshead bury and partner calls, ...);
- the public state the seat sees after the replay (to act, sides, teams, the parties of the
  announcements): an action legal for two parties reveals which one made it.

Sampling is uniform over those worlds (rejection from a uniform deal of the unseen cards), with
one documented weighting: a pile that moved between two seats unseen (an Armut gift and
return) is drawn uniform among the receiving seat's cards (and the pile's `among` faces), the
later pile first; a blind taken unseen is uniform among its taker's cards, which keeps the
sample uniform. The hot loop is `engine_core._infer` (Cython).
"""
from __future__ import annotations

from collections import Counter

from .. import games
from .._infer import Sampler
from .._codes import CALL_BASE, exchange_code, exchange_mask
from ..state import _seats_of
from .knowledge import HIDDEN, Order, voids

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

    # sample(): rounds of draws that replace the worlds the view rules out
    ROUNDS = 4

    def __init__(self, view: dict, options: dict | None = None, use_voids: bool = True):
        self.view = view
        self.game = games.get(view["game"], options)
        game = self.game
        spec, deck = game.spec, game.deck
        self.deck = deck
        n = game.seats
        me = view["seat"]
        self.me = me
        self.faces = len(deck.faces)
        calls = {(k, c, s): i for i, (k, c, s) in enumerate(spec.calls)}
        played: list[Counter] = [Counter() for _ in range(n)]
        hidden_plays: list[int] = [0] * n
        acts = []              # [seat, code, kind, ref, twice] per action
        for a in view["actions"]:
            seat, kind = a["seat"], a["type"]
            if kind == "play":
                if a["card"] == HIDDEN:
                    hidden_plays[seat] += 1
                    acts.append([seat, 0, K_PLAY_SLOT, -1, 0])
                else:
                    played[seat][a["card"]] += 1
                    acts.append([seat, deck.face_index(a["card"]), K_PLAIN, 0, 0])
            elif kind == "exchange":
                number = spec.exchanges.index(a["call"])
                if HIDDEN in a["cards"]:
                    acts.append([seat, exchange_code(number, 0), K_EXCHANGE_SLOT, -1, 0])
                else:
                    faces = 0
                    twice = 0
                    for c in a["cards"]:
                        f = deck.face_index(c)
                        if faces >> f & 1:
                            twice |= 1 << f
                        faces |= 1 << f
                    acts.append([seat, exchange_code(number, faces), K_PLAIN, 0, twice])
            else:
                acts.append([seat, CALL_BASE + calls[(kind, a["call"], a.get("suit"))], K_PLAIN, 0, 0])
        dealt = game.dealt_sizes(view["dealer"])
        piles = _piles(view, spec, played, hidden_plays, dealt)
        unseen = [p for p in piles if p["cards"] is None]
        moved = [p for p in piles if p["from_seat"] != p["to_seat"]]

        # what each seat was dealt that this seat knows, and the cards it knows a seat holds
        # now; the seat itself: its hand and plays, with what it gave, less what it received
        known_init: list[Counter] = [Counter() for _ in range(n)]
        known_held: list[Counter] = [Counter() for _ in range(n)]
        gave = sum((Counter(p["cards"]) for p in moved if p["from_seat"] == me), Counter())
        got = sum((Counter(p["cards"]) for p in moved if p["to_seat"] == me), Counter())
        known_init[me] = _sub(Counter(view["hand"]) + played[me] + gave, got)
        for p in moved:                          # the others: seen piles, in the order made
            if p["cards"] is None:
                continue
            cards = Counter(p["cards"])
            a, b = p["from_seat"], p["to_seat"]
            if a is not None and a != me:
                known_init[a] += _sub(cards, known_held[a])
                known_held[a] = _sub(known_held[a], cards)
            if b is not None and b != me:
                known_held[b] += cards
        for s in range(n):                       # then the cards played
            if s != me:
                known_init[s] += _sub(played[s], known_held[s])
                known_held[s] = _sub(known_held[s], played[s])
        # cards laid face up (Bettel ouvert, Sheepshead's blitzed queens): all known; where
        # several seats may show cards the view lists them all (shown_hands)
        shown = view.get("shown")
        for hand in view.get("shown_hands") or ([shown] if shown else []):
            if hand["seat"] != me:
                s = hand["seat"]
                extra = _sub(Counter(hand["cards"]), known_held[s])
                known_init[s] += extra
                known_held[s] += extra
        counts = _holdings(view, spec, played, hidden_plays, piles, dealt)
        # the game's sight phase (Schafkopf's knocking round): the seat has seen only part of
        # its own hand, and a world deals it the rest from the cards it has not seen, as it
        # deals the other seats' (docs/bots.md)
        own_unseen = counts[me] - len(view["hand"]) - hidden_plays[me]
        if own_unseen < 0:
            raise InferenceError(f"seat {me} shows {len(view['hand'])} cards in hand but holds {counts[me]}")
        if own_unseen and (played[me] or hidden_plays[me] or gave or got):
            raise InferenceError(f"seat {me} has seen {len(view['hand'])} of the {counts[me]} cards it "
                                 f"holds after it played or exchanged cards (phase {view.get('phase')!r})")
        known_blind = Counter()
        for p in piles:
            if p["from_seat"] is None and p["cards"] is not None:
                known_blind += Counter(p["cards"])

        # the unseen piles, undone from the latest: a pile set aside is a holder of its own
        # (merged back into the hand it left), a pile that moved is split off the hand that
        # holds it (and added back to the one it left), a pile kept is chosen among the
        # holder's cards; one dealt face down is the deal's blind
        aside = [p for p in unseen if p["to_seat"] is None]
        holder_of = {id(p): n + i for i, p in enumerate(aside)}
        ops = []
        blind_holder = blind_slot = -1
        slot_of = {}
        for p in reversed(unseen):
            a, b = p["from_seat"], p["to_seat"]
            mask = self._phys(self._face_mask(p["among"]))
            if b is None:
                ref, kind = holder_of[id(p)], K_EXCHANGE_HOLDER
                if a is None:
                    blind_holder = ref
                else:
                    ops.append((OP_MERGE, a, ref, 0, 0, 0))
            else:
                ref, kind = len(slot_of), K_EXCHANGE_SLOT
                slot_of[id(p)] = ref
                if a == b:
                    ops.append((OP_CHOOSE, b, 0, ref, p["count"], mask))
                else:
                    ops.append((OP_SPLIT, b, 0, ref, p["count"], mask))
                    if a is None:
                        blind_slot = ref
                    else:
                        ops.append((OP_ADD, a, 0, ref, 0, 0))
            if p["action"] is not None:
                acts[p["action"]][2:4] = [kind, ref]
        for act in acts:                         # a card played face down: its seat's kept pile
            if act[2] == K_PLAY_SLOT:
                kept = [p for p in unseen if p["from_seat"] == p["to_seat"] == act[0]]
                if not kept:
                    raise InferenceError(f"seat {act[0]} played a face-down card of no pile")
                act[3] = slot_of[id(kept[0])]
            elif act[2] != K_PLAIN and act[3] < 0:
                raise InferenceError("a face-down exchange that no pile of the view describes")
        # physical allocation of every known card of the deal
        taken = 0
        fixed = [0] * n
        for s in range(n):
            for card, times in known_init[s].items():
                for _ in range(times):
                    b = self._alloc(card, taken)
                    taken |= b
                    fixed[s] |= b
            if s != me:
                counts[s] -= sum(known_held[s].values())
        kb = 0
        for card, times in known_blind.items():
            for _ in range(times):
                b = self._alloc(card, taken)
                taken |= b
                kb |= b
        pool = deck_mask(deck) & ~taken & ~game.left_out      # cards the options leave out are nowhere
        counts[me] = own_unseen
        # a world that passes through the sight phase deals each seat a first packet: this
        # seat's is what it has seen (while it is in that phase), the others' a random part of
        # their hands (_first_packets)
        self._sight = game.sight_phase() is not None
        self._seen = fixed[me] if own_unseen else None
        # voids: the unseen cards of an effective suit a seat did not follow
        order = Order.of(view, options) if use_voids else None
        forbid = [0] * n
        if order is not None:
            for s, suits in voids(view, order, n, game.sits_out(view["dealer"])).items():
                for suit in suits:
                    for card in order.lists.get(suit, []):
                        forbid[s] |= self._phys_face(deck.face_index(card))
        hold_counts = list(counts) + [p["count"] for p in aside]
        hold_forbid = [f & pool for f in forbid] + [
            (pool & ~self._phys(self._face_mask(p["among"]))) if p["among"] is not None else 0 for p in aside]
        idle = game.sits_out(view["dealer"])     # a seat that sits out: dealt nothing
        self.sampler = Sampler(game.rules, game.rules.c_options(game.options, None), view["dealer"],
                               hold_counts, hold_forbid, pool, fixed, kb, blind_holder, blind_slot,
                               ops, [tuple(a) for a in acts], self.faces, deck.copies, game.hand_size,
                               -1 if idle is None else idle)
        self._acts = acts

    # -- helpers --
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

    def _face_mask(self, faces) -> int:
        """The face mask of a pile's `among` (every face when None)."""
        if faces is None:
            return (1 << self.faces) - 1
        return sum(1 << self.deck.face_index(c) for c in set(faces))

    # -- the API --
    def sample(self, n: int, seed: int = 0, max_tries: int = 0) -> list[dict]:
        """Up to n worlds {"hands": [[codes]] at the deal, "blind": [codes], "hidden": {action
        index: the hidden cards}}; deterministic per seed. Worlds the compiled check passes but
        the view rules out (_reaches_view) are replaced by further draws, a few rounds at most."""
        out = []
        rng_seed = seed & (2 ** 64 - 1)
        for round_ in range(self.ROUNDS):
            wanted = n - len(out)
            drawn = self.sampler.sample(wanted, rng_seed, max_tries)
            out += [w for w in map(self._world, drawn) if self._reaches_view(w)]
            if len(out) >= n or len(drawn) < wanted:   # done, or the draws themselves run out
                break
            rng_seed = (rng_seed * 6364136223846793005 + 1442695040888963407 + round_) & (2 ** 64 - 1)
        return out

    def _world(self, drawn) -> dict:
        hands, blind, hidden = drawn
        deck = self.deck
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
        return {"hands": [deck.codes(h) for h in hands], "masks": hands, "blind": deck.codes(blind),
                "blind_mask": blind, "hidden": fill, "hidden_codes": hidden}

    def _reaches_view(self, world: dict) -> bool:
        """Whether the world, replayed, gives this seat its view: the same seat to act and the
        same public state as the seat sees it. The sampler checks that every action was legal
        for its seat, which is not all a seat sees: who acts after a trick may depend on cards
        the view does not place (Doppelkopf's Schweinchen rank by who holds both AD), and an
        action legal for two parties can reveal which one made it (a no 90 by a seat that
        holds no club queen is Kontra's, or a silent solo's opponents'; the view shows Re's)."""
        try:
            state = self.state_of(world)
        except InferenceError:
            return False
        view = self.view
        if state.to_act() != view.get("to_act"):
            return False
        core = state.core
        if _seats_of(core.sides(self.me), self.game.seats) != view.get("sides"):
            return False
        return all(view.get(k) == v for k, v in core.public(self.me).items())

    def state_of(self, world: dict):
        """The world as a State at the view's position: the actions replayed by the engine's
        compiled replay (Core.replay, the loop the sampler checked the world with), so a world
        costs no Python per action but the record's action objects, which are shared with the
        view where nothing was hidden (recorded actions are never mutated)."""
        return next(self.before(world, [len(self._acts)]))

    def before(self, world: dict, indices: list[int]):
        """The world as a State just before each action index in `indices` (ascending; the
        number of actions is the view's position), by the compiled replay: what the seat that
        acted there saw, to weigh the world by how likely that seat's action was in it. One
        State, advanced in place."""
        first = self._first_packets(world["masks"]) if self._sight else None
        state = self.game._state(list(world["masks"]), self.view["dealer"], world["blind_mask"], first)
        acts, hidden = self._acts, world["hidden_codes"]
        filled = [dict(a, **{"card" if a["type"] == "play" else "cards": world["hidden"][i]})
                  if i in world["hidden"] else a for i, a in enumerate(self.view["actions"])]
        done = 0
        for i in indices:
            part = range(done, i)
            codes = [hidden[j][0] if j in hidden else acts[j][1] for j in part]
            twice = [hidden[j][1] if j in hidden else acts[j][4] for j in part]
            applied = state.core.replay([acts[j][0] for j in part], codes, twice)
            if applied != len(part):   # the sampler replayed the same codes: cannot happen
                raise InferenceError(f"a sampled world does not replay at action {done + applied}")
            done = i
            state.actions = filled[:i]
            yield state

    def _first_packets(self, masks) -> list[int]:
        """Each seat's first packet in a world: the cards this seat has seen while it is in the
        sight phase; otherwise a uniformly random part of the hand of the declared size, drawn
        from a generator seeded by the world (the same world, the same packets)."""
        import random
        rng = random.Random(hash(tuple(masks)))
        sizes = self.game.first_sizes(self.view["dealer"])
        out = []
        for seat, (mask, size) in enumerate(zip(masks, sizes)):
            if seat == self.me and self._seen is not None:
                out.append(self._seen)
                continue
            cards = [c for c in range(mask.bit_length()) if mask >> c & 1]
            out.append(sum(1 << c for c in rng.sample(cards, min(size, len(cards)))))
        return out

    def states(self, n: int, seed: int = 0, max_tries: int = 0) -> list:
        return [self.state_of(w) for w in self.sample(n, seed, max_tries)]


def deck_mask(deck) -> int:
    return (1 << deck.size) - 1


def _piles(view: dict, spec, played: list[Counter], hidden_plays: list[int], dealt: list[int]) -> list[dict]:
    """Every face-down pile of the deal so far, in the order made (the blind first), each with
    its "cards" as this seat saw them (None: unseen). The unseen ones are the view's "hidden";
    the seen ones are what a seat sees because it gave or received them (view-spec): an
    exchange whose cards it sees went to it unless it made it, the blind it saw it took, and
    an exchange it made went to the seat whose hand size shows the cards (view "hand_sizes"),
    else was set aside as far as its own hand size says (the rest it kept, marked, in hand)."""
    n, me = spec.seats, view["seat"]
    unseen = [dict(p, cards=None) for p in view.get("hidden") or []]
    by_action = {p["action"] for p in unseen if p["action"] is not None}
    seen = []
    if spec.blind_size and not any(p["from_seat"] is None for p in unseen):
        blind = view.get("blind")
        if blind is None or len(blind) != spec.blind_size:
            raise InferenceError("the view neither shows the blind nor says it is hidden")
        seen.append({"pile": "blind", "from_seat": None, "to_seat": me, "count": len(blind),
                     "action": None, "among": None, "cards": list(blind)})
    own = []
    for i, a in enumerate(view["actions"]):
        if a["type"] != "exchange" or i in by_action:
            continue
        pile = {"pile": a["call"], "from_seat": a["seat"], "to_seat": me, "count": len(a["cards"]),
                "action": i, "among": None, "cards": list(a["cards"])}
        seen.append(pile)
        if a["seat"] == me:
            own.append(pile)
    if own:
        mine = {id(p) for p in own}

        def balance(s):
            """Cards a seat holds beyond its deal, its plays and the piles placed so far."""
            placed = [p for p in unseen + seen if id(p) not in mine and p["from_seat"] != p["to_seat"]]
            gone = sum(p["count"] for p in placed if p["from_seat"] == s)
            come = sum(p["count"] for p in placed if p["to_seat"] == s)
            plays = sum(played[s].values()) + hidden_plays[s]
            return dealt[s] - plays - gone + come

        sizes = view.get("hand_sizes")
        surplus = {s: sizes[s] - balance(s) for s in range(n) if s != me} if sizes else {}
        left = balance(me) - len(view["hand"])
        for pile in own:
            to = next((s for s in sorted(surplus) if surplus[s] >= pile["count"]), None)
            if to is not None:
                surplus[to] -= pile["count"]
                left -= pile["count"]
            elif pile["count"] <= left:
                left -= pile["count"]
            else:
                to = me
            pile["to_seat"] = to
        if left or any(surplus.values()):
            raise InferenceError("the seat's exchanges do not account for the hand sizes")
    return sorted(unseen + seen, key=lambda p: -1 if p["action"] is None else p["action"])


def _holdings(view: dict, spec, played: list[Counter], hidden_plays: list[int], piles,
              dealt: list[int]) -> list[int]:
    """How many cards each seat holds now, its face-down plays included (they are drawn with
    its hand): the view's hand sizes, or the deal (`dealt`: each seat's cards, Game.dealt_sizes)
    less the plays and the piles that moved."""
    n = spec.seats
    if "hand_sizes" in view:
        return [view["hand_sizes"][s] + hidden_plays[s] for s in range(n)]
    out = [dealt[s] - sum(played[s].values()) for s in range(n)]
    for p in piles:
        if p["from_seat"] != p["to_seat"]:
            if p["from_seat"] is not None:
                out[p["from_seat"]] -= p["count"]
            if p["to_seat"] is not None:
                out[p["to_seat"]] += p["count"]
    return out
