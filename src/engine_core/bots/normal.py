"""The normal level: the easy auction rules, and a card play that counts cards the way a
good club player does.

- It knows which cards are still out (the deck minus its hand and every card played) and
  which suits each seat has shown void, so it knows its sure winners: the highest card still
  out of an effective suit, led where no opponent still to play can trump it.
- Leading: a sure winner; the declaring side draws trumps while opponents may hold some;
  otherwise a suit its partner is void in (the partner trumps it: the partner's signal of
  having discarded that suit), else its shortest plain suit's lowest card.
- Following: points onto a trick its side is sure to win (the partner's sure winner, or its
  own last-to-play win); the cheapest card that wins for sure; high to win when it can and
  nobody after it can beat the card; low otherwise.
Each decision reads only the view and takes well under 5 ms."""
from __future__ import annotations

from .knowledge import Order, current_trick, played_cards, sides, spec_of, trick_order, voids
from .simple import EasyBot, _declaring, misere_card


class NormalBot(EasyBot):
    level = "normal"

    def _card(self, view, plays):
        spec = spec_of(view)
        n = spec.seats
        idle = self._sits_out(view)
        order = Order.of(view, self.options)
        me = view["seat"]
        trick = current_trick(view, order, n, idle)
        misere = misere_card(view, plays, order, trick)
        if misere is not None:
            return misere
        mine, theirs = sides(view)
        points = view["points"]
        pts = {c: points[c] for c in plays}
        hand = view["hand"]
        # the cards still out: every face of the order minus what is seen (copies counted)
        seen = {}
        for _, c in played_cards(view):
            seen[c] = seen.get(c, 0) + 1
        for c in hand:
            seen[c] = seen.get(c, 0) + 1
        for c in view.get("buried") or []:
            if c != "??":
                seen[c] = seen.get(c, 0) + 1
        copies = spec.deck.copies
        out = {c for suit in order.lists.values() for c in suit if seen.get(c, 0) < copies}
        void = voids(view, order, n, idle)
        to_play = (trick_order(trick.leader, n, idle)[len(trick.cards) + 1:] if trick.cards
                   else trick_order(me, n, idle)[1:])
        opp_after = [s for s in to_play if s not in mine]
        trumps_out = [c for c in out if order.is_trump(c)]

        def beats_out(card, led):
            """Whether a seat still to play could beat `card` (by the cards out and voids)."""
            v = order.strength(card, led)
            for s in opp_after if opp_after or theirs else to_play:
                for c in out:
                    if order.suit_of[c] in void[s]:
                        continue
                    follows = order.suit_of[c] == led
                    if not follows and led != "trump" and led not in void[s]:
                        continue        # it must follow the led suit while it has one
                    if order.strength(c, led) > v:
                        return True
            return False

        def low_key(c):
            return (pts[c], order.is_trump(c), order.power.get(c, 0))

        if not trick.cards:
            sure = [c for c in plays if not beats_out(c, order.suit_of[c])]
            if sure:
                return max(sure, key=lambda c: (not order.is_trump(c), pts[c]))
            trumps = [c for c in plays if order.is_trump(c)]
            if _declaring(view) and trumps and trumps_out:
                return max(trumps, key=lambda c: order.power[c]) if len(trumps) >= 3 else min(trumps, key=low_key)
            partners = mine - {me}
            for p in partners:
                for c in sorted(plays, key=low_key):
                    s = order.suit_of[c]
                    if s != "trump" and s in void[p] and "trump" not in void[p]:
                        return c
            plain = [c for c in plays if not order.is_trump(c)]
            if plain:
                def suit_len(c):
                    return sum(1 for h in hand if order.suit_of.get(h) == order.suit_of[c])
                return min(plain, key=lambda c: (suit_len(c), pts[c], order.power[c]))
            return min(plays, key=low_key)
        led = trick.led
        win_card = trick.cards[trick.winner_pos]
        win_seat = trick.seats[trick.winner_pos]
        last = not to_play
        if win_seat in mine and (last or not beats_out(win_card, led)):
            non_trump = [c for c in plays if not order.is_trump(c)] or plays
            return max(non_trump, key=lambda c: (pts[c], -order.power.get(c, 0)))
        best = order.strength(win_card, led)
        winners = [c for c in plays if order.strength(c, led) > best]
        if winners:
            if last:
                return min(winners, key=lambda c: (order.strength(c, led), -pts[c]))
            sure = [c for c in winners if not beats_out(c, led)]
            if sure:
                return min(sure, key=lambda c: (order.strength(c, led), -pts[c]))
            trick_points = sum(points[c] for c in trick.cards if c != "??")
            if trick_points >= 10:
                return max(winners, key=lambda c: order.strength(c, led))
        return min(plays, key=low_key)
