"""The random and easy levels.

easy plays the way a casual player does: it bids on sensible thresholds (enough trumps and
high trumps for the contract; see the `_bid_*` rules of each game), announces only with a
clearly strong hand, and in the card play plays high to win a trick it can win and low
otherwise (smearing points on a trick its known partner wins)."""
from __future__ import annotations

from . import Bot
from .knowledge import Order, by_kind, current_trick, find, legal_cards, rng_for, sides, spec_of


class RandomBot(Bot):
    """A uniformly random legal action, from a stream seeded by (seed, decision)."""

    level = "random"

    def _choose(self, view, legal):
        return rng_for(self.seed, view, "random").choice(legal)


# ---- hand evaluation in the auction (no order in force yet) ----

def _rank(card):
    return card[0]


def _suit(card):
    return card[1]


def family_trumps(hand, family, suit=None):
    """The trumps of a hand in a bid's contract as the game declares it (GameSpec.bid_families:
    the trump ranks, and the trump suit, fixed or the one the bid names, and single trump cards
    beside them, `trump_cards`: Doppelkopf's heart ten)."""
    ranks = family.get("trump_ranks", "")
    trump_suit = suit if family.get("trump_suit") == "named" else family.get("trump_suit")
    extra = family.get("trump_cards", ())
    return [c for c in hand if _rank(c) in ranks or (trump_suit is not None and _suit(c) == trump_suit)
            or c in extra]


def misere_hand(hand, ouvert=False):
    """A hand for a contract that aims at taking no trick (a Bettel): no ace and no king, and
    a low card (7 or 8) in every suit it holds; shown (ouvert): nothing above the ten either."""
    if any(_rank(c) in ("AK" if not ouvert else "AKQJ") for c in hand):
        return False
    return all(any(_rank(c) in "78" for c in hand if _suit(c) == s) for s in {_suit(c) for c in hand})


def _family_of(view, kind):
    return spec_of(view).bid_families.get(kind) or {}


def misere_card(view, plays, order, trick):
    """The card play of a contract that aims at taking no trick, if the contract in force is
    one (None otherwise): the declarer ducks with the highest card that does not win the trick
    (his lowest when he leads or cannot duck); a defender plays his lowest card, so that the
    declarer's cards stay above the trick."""
    contract = view.get("contract") or {}
    if _family_of(view, contract.get("type")).get("aim") != "no_trick":
        return None
    if contract.get("declarer") != view["seat"] or not trick.cards:
        return min(plays, key=lambda c: (order.strength(c, trick.led or order.suit_of[c]), c))
    best = order.strength(trick.cards[trick.winner_pos], trick.led)
    ducks = [c for c in plays if order.strength(c, trick.led) < best]
    if ducks:
        return max(ducks, key=lambda c: (order.power.get(c, 0), c))
    return min(plays, key=lambda c: (order.strength(c, trick.led), c))


def solo_worth_playing(hand, suit, trumps, obers, unters):
    """A Schafkopf Farbsolo in `suit`: seven trumps, or six with two side tricks (side aces and
    void suits, at most three) and 2 x Ober + Unter + side tricks >= 8. Played out by the normal
    level, hands that pass won more than they lost in every class with a few dozen deals
    (tools/schafkopf_solo_table.py, 6,000 deals); the rule it replaced (six trumps and three
    Ober or Unter) won 19 of 70 six-trump solos against a PIMC player (issue 25)."""
    if trumps >= 7:
        return True
    side = [c for c in hand if _suit(c) != suit and _rank(c) not in "QJ"]
    tricks = min(3, sum(_rank(c) == "A" for c in side) + 3 - len({_suit(c) for c in side}))
    return trumps == 6 and tricks >= 2 and 2 * obers + unters + tricks >= 8


def default_trumps(view, cards):
    """The trumps among `cards` in the order before any contract (the game's declared
    default_order: Doppelkopf's normal game, Sheepshead's fixed trumps)."""
    trumps = set(spec_of(view).default_order["trump"])
    return [c for c in cards if c in trumps]


# The kj_strength from which a seat names trumps rather than passing, by its turn in the free
# choice (eldest, the next two, the dealer), where naming gains over passing in
# tools/klaverjas_trump_table.py (40,000 deals, the normal level playing both ways; the rule
# was 52 at every turn, and the normal level made 65% of its contracts). The third seat is
# eldest's partner: if it and the dealer pass, eldest must name a suit on whatever it holds,
# so the third names on less. The dealer passing forces eldest, an opponent, to play: it
# names only on a strong hand.
KJ_NAMING = (56, 56, 40, 68)

# Sheepshead: the pick. Per shape of the auction (the seats in it, the blind's size), the
# hand's trumps plus its queens (a queen counts twice) from which a seat picks, by the seats
# still to decide after it (0: the last, the dealer, whose pass ends the auction). Read off
# tools/sheepshead_pick_table.py (the normal level playing each deal both ways, the default
# options: a leaster when all pass): a class picks where its mean gain is above zero.
# Five-handed (40,000 deals) picking gains from 6 for the first two seats, 5 for the next two
# and 4 for the dealer; the rule was four trumps, or three with two queens, at every turn, and
# four trumps without a queen lost 0.3 to 1.0 a pick before the dealer's turn. Read again with
# these thresholds in force, the table moves them up by one at some turns (a seat's pass is
# worth what the later seats make of it), and with every seat passing more the leaster grows
# from 17% of the deals to 36% (10% under the former rule); a duel shows no difference between
# any two of the three, so the first reading stands. A picker alone (three-handed, 10,000
# deals; cutthroat's blind of four, 10,000) or one of six (40,000) needs more: there the duel
# against the former rule shows gains of 0.28 to 0.56 a deal. Another shape scales the
# five-handed thresholds by the hand size.
SS_PICK = {(3, 2): (8, 9, 9), (4, 2): (4, 4, 4, 5), (4, 4): (4, 6, 6, 6), (5, 2): (4, 5, 5, 6, 6),
           (6, 2): (4, 6, 6, 7, 8, 6)}


def kj_strength(view, hand, suit):
    """Klaverjas: trump points of `suit` (the declared trump_points over the view's points)
    plus side aces (and tens behind them)."""
    points, trump_points = view["points"], spec_of(view).trump_points
    value = 0
    for c in hand:
        if _suit(c) == suit:
            value += trump_points.get(_rank(c), points[c]) + 3
        elif _rank(c) == "A":
            value += 11
        elif _rank(c) == "T" and (c[0] != "A") and ("A" + _suit(c)) in hand:
            value += 6
    return value


class EasyBot(Bot):
    """Rules of thumb for every phase of every game."""

    level = "easy"
    # Klaverjas: the strength from which a seat names trumps, by its turn (KJ_NAMING)
    kj_naming = KJ_NAMING
    # Sheepshead: the trumps plus queens from which a seat picks, per shape of the auction by
    # the seats after it (SS_PICK)
    ss_pick = SS_PICK

    def _choose(self, view, legal):
        plays = legal_cards(legal)
        others = [a for a in legal if a["type"] != "play"]
        free = free_call(view, others)
        if free is not None:
            return free
        if plays:
            if others:                                     # an announcement is possible
                pick = self._announce(view, others)
                if pick is not None:
                    return pick
            return next(a for a in legal if a["type"] == "play" and a["card"] == self._card(view, plays))
        auction = AUCTIONS.get(view["phase"])
        return getattr(self, auction)(view, legal) if auction else legal[0]

    def _choose_ranked_exchanges(self, view, legal):
        """The exchange actions, the easy level's favourite first (hard narrows to these)."""
        first = self._choose(view, legal)
        rest = [a for a in legal if a != first and a["type"] == "exchange"]
        rng = rng_for(self.seed, view, "exchanges")
        rng.shuffle(rest)
        return [first] + rest

    # -- announcements during the play (Doppelkopf Re/Kontra) --
    def _announce(self, view, others):
        hand = view["hand"]
        order = Order.of(view, self.options)
        trumps = [c for c in hand if order.is_trump(c)]
        high = sum(1 for c in trumps if c in ("TH", "QC", "QS"))
        dealt = self._hand_dealt()      # the rule of thumb is for 12 cards: 7 trumps, scaled
        for a in others:
            if (a["call"] in ("re", "kontra") and len(hand) >= dealt - 2
                    and len(trumps) >= -(-7 * dealt // 12) and high >= 2):
                return a
        return None

    # -- card play --
    def _card(self, view, plays):
        seats = spec_of(view).seats
        idle = self._sits_out(view)
        n = seats - (idle is not None)            # the seats that play a trick
        order = Order.of(view, self.options)
        trick = current_trick(view, order, seats, idle)
        misere = misere_card(view, plays, order, trick)
        if misere is not None:
            return misere
        mine, theirs = sides(view)
        pts = {c: view["points"][c] for c in plays}
        low = min(plays, key=lambda c: (pts[c], order.is_trump(c), order.power.get(c, 0)))
        if not trick.cards:                       # leading: an ace, else (declarer) trumps, else low
            aces = [c for c in plays if not order.is_trump(c) and order.power.get(c) == len(order.lists[order.suit_of[c]])]
            if aces:
                return max(aces, key=lambda c: pts[c])
            declaring = _declaring(view)
            trumps = [c for c in plays if order.is_trump(c)]
            if declaring and trumps:
                return max(trumps, key=lambda c: order.power[c])
            return low
        led = trick.led
        win_card = trick.cards[trick.winner_pos]
        win_seat = trick.seats[trick.winner_pos]
        best = order.strength(win_card, led)
        last = len(trick.cards) == n - 1
        if win_seat in mine and (last or best >= 100 + len(order.lists["trump"]) - 2 or
                                 (not order.is_trump(win_card) and order.power.get(win_card) == len(order.lists[led]))):
            # the partner takes it: smear the highest points that are not a trump
            non_trump = [c for c in plays if not order.is_trump(c)] or plays
            return max(non_trump, key=lambda c: (pts[c], -order.power.get(c, 0)))
        winners = [c for c in plays if order.strength(c, led) > best]
        if winners:
            if last:
                return min(winners, key=lambda c: (order.strength(c, led), -pts[c]))
            return max(winners, key=lambda c: (order.strength(c, led), pts[c]))
        return low

    # -- the auctions, by the phases they answer (AUCTIONS) --
    def _auction_and_kontra(self, view, legal):
        """Schafkopf's auction (Rufspiel, Farbsolo, Wenz) and its Kontra/Re rounds."""
        hand = view["hand"]
        phase = view["phase"]
        if phase in ("kontra", "re"):
            contract = view.get("contract") or {}
            family = _family_of(view, contract.get("type", "rufspiel"))
            one_rank = len(family.get("trump_ranks", "")) == 1 and "trump_suit" not in family
            trumps = family_trumps(hand, family, contract.get("suit"))
            strong = (family.get("aim") != "no_trick" and len(trumps) >= (3 if one_rank else 5)
                      and sum(_rank(c) == "Q" for c in hand) >= 2)
            for a in legal:
                if a["call"] in ("kontra", "re") and strong:
                    return a
            return find(legal, "pass") or legal[0]
        if find(legal, "sie"):
            return find(legal, "sie")
        # the highest contract (the legal bids come in auction order) whose rule the hand meets
        seen = set()
        for a in reversed(legal):
            kind = a.get("call")
            if kind in seen or a["type"] != "bid":
                continue
            seen.add(kind)
            pick = self._bid_family(view, legal, kind, _family_of(view, kind))
            if pick is not None:
                return pick
        return find(legal, "pass") or legal[0]

    @staticmethod
    def _bid_family(view, legal, kind, family):
        """The easy level's rule for one contract, by what the game declares it asks of a hand:
        a misère (no trick) on a hand of low cards; one trump rank (Wenz, Geier) on three of it
        with the top one or two aces, five of it and aces together; one rank and a named suit
        (Farbwenz, Farbgeier) on six trumps with two of the rank; two ranks and a named suit
        (Farbsolo) by `solo_worth_playing`; the fixed-suit partnership call
        (Rufspiel) on five trumps, or four with two of the top rank, calling the shortest
        suit's ace. Touts are never bid."""
        hand = view["hand"]
        calls = [a for a in legal if a.get("call") == kind]
        if not family or family.get("tout"):
            return None
        if family.get("aim") == "no_trick":
            return calls[0] if misere_hand(hand, family.get("ouvert", False)) else None
        ranks = family.get("trump_ranks", "")
        tops = [c for c in hand if _rank(c) in ranks]
        top_rank = sum(_rank(c) == ranks[0] for c in hand) if ranks else 0
        if family.get("trump_suit") == "named":
            best = None
            for a in calls:
                n = len(family_trumps(hand, family, a["suit"]))
                if len(ranks) > 1:
                    worth = solo_worth_playing(hand, a["suit"], n, top_rank,
                                               sum(_rank(c) == ranks[1] for c in hand))
                else:
                    worth = n >= 6 and len(tops) >= 2
                if worth and (best is None or n > best[0]):
                    best = (n, a)
            return best[1] if best else None
        if family.get("trump_suit") is None:
            aces = [c for c in hand if _rank(c) == "A"]
            if (calls and len(tops) >= 3 and (ranks + "C" in hand or len(aces) >= 2)
                    and len(tops) + len(aces) >= 5):
                return calls[0]
            return None
        trumps = family_trumps(hand, family)
        if calls and (len(trumps) >= 5 or (len(trumps) >= 4 and top_rank >= 2)):
            # call the ace of the suit in which the hand is shortest
            return min(calls, key=lambda a: (sum(1 for c in hand if _suit(c) == a["suit"] and _rank(c) not in ranks),
                                              a["suit"]))
        return None

    def _reservations(self, view, legal):
        """Doppelkopf's reservations and the Armut (offer, give, return)."""
        hand = view["hand"]
        phase = view["phase"]
        if phase == "reservation":
            # a picture solo the game declares (bid_families: trump ranks, no trump suit), the
            # first in the legal order the hand meets: six of its one rank (Damen-, Buben-,
            # Koenigssolo), or eight of its two ranks with four of the upper (Damen-Buben-Solo)
            for a in legal:
                family = _family_of(view, a.get("call"))
                ranks = family.get("trump_ranks", "")
                if a["type"] != "bid" or not ranks or "trump_suit" in family or family.get("tout"):
                    continue
                n = sum(_rank(c) in ranks for c in hand)
                if n >= 6 if len(ranks) == 1 else (n >= 8 and sum(_rank(c) == ranks[0] for c in hand) >= 4):
                    return a
            # a hand bad enough to throw in (only offered where the table allows it) is thrown in
            for call in ("throw_in", "hochzeit", "armut"):
                if find(legal, call):
                    return find(legal, call)
            if find(legal, "healthy"):
                return find(legal, "healthy")
            # a solo the seat must play (a forced reservation, e.g. Doppelkopf's Vorfuehrung): the
            # declared contract that gives the hand the most trumps, the first of equals
            return max(legal, key=lambda a: (len(family_trumps(hand, _family_of(view, a.get("call")))),
                                             -legal.index(a)))
        if phase == "armut_offer":
            trumps = default_trumps(view, hand)
            if len(trumps) >= 7 and sum(c in ("TH", "QC") for c in hand) >= 1 and find(legal, "accept"):
                return find(legal, "accept")
            return find(legal, "decline") or legal[0]
        exchanges = by_kind(legal, "exchange")
        if exchanges:
            # give: the legal set with the fewest points; return: keep trumps, give low cards
            return min(exchanges, key=lambda a: (len(default_trumps(view, a["cards"])),
                                                 sum(view["points"][c] for c in a["cards"]),
                                                 tuple(a["cards"])))
        return legal[0]

    def _pickers_after(self, view) -> tuple[int, int]:
        """The seats in the auction and how many may still pick after the seat to act: the
        pick goes once round from the dealer's left to the dealer, past a seat that sits out."""
        n = spec_of(view).seats
        idle = self._sits_out(view)
        order = [(view["dealer"] + i) % n for i in range(1, n + 1) if (view["dealer"] + i) % n != idle]
        return len(order), len(order) - 1 - order.index(view["seat"])

    def _pick_and_call(self, view, legal):
        """Sheepshead's pick, bury, partner call, unknown card, blitzing and cracking."""
        hand = view["hand"]
        phase = view["phase"]
        trumps = default_trumps(view, hand)
        queens = sum(_rank(c) == "Q" for c in hand)
        # the trump counts below are for the five-handed game's 6-card hand; another hand size
        # (the seat variants: 10, 7 or 5 cards) scales them, so a hand picks as often
        scale = lambda n: max(1, round(n * len(hand) / 6 + 0.01))
        if phase == "pick":
            # trumps plus queens against the threshold of the seat's turn (SS_PICK)
            pickers, after = self._pickers_after(view)
            shape = (pickers, spec_of(view).blind_size)
            if shape in self.ss_pick:
                row, size = self.ss_pick[shape], 1.0
            else:
                row, size = self.ss_pick[(5, 2)], len(hand) / 6
            need = max(1, round(row[min(after, len(row) - 1)] * size + 0.01))
            strong = len(trumps) + queens >= need
            if find(legal, "pick") and (strong or not find(legal, "pass")):
                return find(legal, "pick")
            return find(legal, "pass") or legal[0]
        if phase in ("bury", "unknown"):
            exchanges = by_kind(legal, "exchange")
            # bury the points of the plain suits, keep the trumps
            return max(exchanges, key=lambda a: (-len(default_trumps(view, a["cards"])),
                                                 sum(view["points"][c] for c in a["cards"]) if phase == "bury"
                                                 else -sum(view["points"][c] for c in a["cards"]),
                                                 tuple(a["cards"])))
        if phase == "call":
            if len(trumps) >= scale(7) and find(legal, "alone"):
                return find(legal, "alone")
            calls = [a for a in legal if a["call"] in ("ace", "ten", "unknown_ace", "jack_of_diamonds", "call_up")]
            # a called card in the own hand (call_own_ace) means playing secretly alone: only
            # with a hand that would nearly go alone
            own = [a for a in calls if a["call"] == "ace" and "A" + a["suit"] in hand]
            if own and len(trumps) >= scale(6):
                return own[0]
            calls = [a for a in calls if a not in own] or calls
            if calls:
                order = {"ace": 0, "jack_of_diamonds": 1, "call_up": 1, "ten": 2, "unknown_ace": 3}
                return min(calls, key=lambda a: (order[a["call"]], a.get("suit", "")))
            return legal[0]
        if phase == "blitz":
            # the legal actions offer a blitz only to the holder of the two highest trumps
            # (red_blitz: of the next two): show them when on the picker's side (the picker,
            # or holding the called card), or as a defender with two more trumps behind them
            # (the red queens, which the black ones beat, with three more)
            contract = view.get("contract") or {}
            ours = contract.get("declarer") == view["seat"] or contract.get("called_card") in hand
            if find(legal, "blitz") and (ours or len(trumps) >= scale(4)):
                return find(legal, "blitz")
            if find(legal, "red_blitz") and (ours or len(trumps) >= scale(5)):
                return find(legal, "red_blitz")
            return find(legal, "pass") or legal[0]
        if phase in ("crack", "recrack"):
            want = "crack" if phase == "crack" else "recrack"
            if len(trumps) >= scale(4) and queens >= 2 and find(legal, want):
                return find(legal, want)
            return find(legal, "pass") or legal[0]
        return legal[0]

    def _knock(self, view, legal):
        """A doubling said on the first packet alone (Schafkopf's klopfen), on the cards seen:
        two of the normal game's four highest trumps (two Obers), or one of them with two more
        trumps (Ober and Unter or hearts). About one seat in six knocks (docs/bots.md)."""
        seen = view["hand"]
        top = set(spec_of(view).default_order["trump"][:4])
        high = sum(c in top for c in seen)
        strong = high >= 2 or (high >= 1 and len(default_trumps(view, seen)) >= 3)
        double = [a for a in legal if a["call"] != "pass"]
        if strong and double:
            return double[0]
        return find(legal, "pass") or legal[0]

    def _point_auction(self, view, legal):
        """A point auction (the bids' declared `points`, bid_families): the hand's best trump
        suit by kj_strength, 52 (the easy level's naming threshold) worth 80 and every 7 more
        10 more, up to 130; the pit only with every trump that matters and side aces (strength
        110). Never over the partner's bid: it passes then."""
        hand = view["hand"]
        families = spec_of(view).bid_families
        bids = [a for a in legal if "points" in families.get(a.get("call"), {})]
        spoken = [(families[c]["points"], seat) for seat, c in enumerate(view.get("bids") or [])
                  if c in families and "points" in families[c]]
        bidder = max(spoken)[1] if spoken else None
        if not bids or (bidder is not None and bidder in sides(view)[0]):
            return find(legal, "pass") or legal[0]
        suits = {_suit(c) for c in hand}
        strength = max(kj_strength(view, hand, s) for s in suits)
        worth = 0 if strength < 52 else min(130, 80 + 10 * ((strength - 52) // 7))
        if strength >= 110:
            worth = 162
        fitting = [a for a in bids if families[a["call"]]["points"] <= worth]
        if fitting:
            return min(fitting, key=lambda a: families[a["call"]]["points"])
        return find(legal, "pass") or legal[0]

    def _trump_bidding(self, view, legal):
        """Klaverjas's bidding: name the strongest suit when its kj_strength reaches the
        seat's threshold for its turn (KJ_NAMING), else pass."""
        hand = view["hand"]
        calls = [a for a in legal if a.get("call") == "trump"]
        if not calls:
            return legal[0]
        best = max(calls, key=lambda a: (kj_strength(view, hand, a["suit"]), a["suit"]))
        passing = find(legal, "pass")
        turn = min(view.get("passes") or 0, len(self.kj_naming) - 1)
        if passing is None or kj_strength(view, hand, best["suit"]) >= self.kj_naming[turn]:
            return best
        return passing


# the auction rules of the easy level by the phase they answer (the phases a game declares)
AUCTIONS = {
    **dict.fromkeys(("auction", "kontra", "re"), "_auction_and_kontra"),
    **dict.fromkeys(("reservation", "armut_give", "armut_offer", "armut_return"), "_reservations"),
    **dict.fromkeys(("pick", "bury", "call", "unknown", "blitz", "crack", "recrack"), "_pick_and_call"),
    "bidding": "_trump_bidding",
    "point_auction": "_point_auction",
    "klopfen": "_knock",
}


def free_call(view, others):
    """A call that only adds to the caller's side (the declared free_calls: Klaverjas's stuk),
    when one is legal: every level makes it."""
    free = spec_of(view).free_calls
    return next((a for a in others if a.get("call") in free), None)


def _declaring(view) -> bool:
    """Whether the seat is on the declaring side as far as it knows: the declarer's side, or
    where the contract names no declarer the team the game declares as declaring (its
    `declaring_team` of the view's "teams")."""
    declarer = (view.get("contract") or {}).get("declarer")
    if declarer is not None:
        return declarer in sides(view)[0]
    team = spec_of(view).declaring_team
    return team is not None and view["seat"] in ((view.get("teams") or {}).get(team) or [])
