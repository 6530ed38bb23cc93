# cython: language_level=3
"""Sheepshead six-handed: 6 players, 32 cards, 5 each and a blind of 2; the picker calls a partner as five-handed (option partner) or goes alone. The sizes only: the rules are those of the five-handed game, written once
in `_rules.pxi` (rules.pyx's docstring describes them; docs/rules/sheepshead.md 13 the seat
variants), compiled here for 6 seats.

With option dealer_sits_out the dealer is dealt nothing and the five others play the
five-handed game, 6 cards each (DealPlan.idle, set by g_opts): G_HAND is therefore the larger
hand, 6, and the cards dealt per hand (5 or 6) and the tricks of a deal are the deal plan's
`hand` at run time.
"""
from engine_core.cards import PIQUET

DECK = PIQUET

cdef enum:
    G_SEATS = 6
    G_HAND = 6                  # the most cards a hand is dealt (dealer_sits_out); 5 otherwise
    G_BLIND = 2
    G_DECK = 32
    G_FACES = 32
    G_COPIES = 1
    G_MAX_ACTIONS = 57          # 6 picks, bury, call, unknown, 6+1 blitz-round calls, 6 crack-round calls, re-crack, 30 cards
    G_BIDS = 1                  # uniform only
    SS_LEGAL = 32               # the most legal actions: the bury's 28 pairs of 8 cards (dealer_sits_out; 21 of 7 else)
    # the `multiplier` option's maximum, where a run of doublers stops doubling: no score of a
    # deal exceeds 480 x 2^20 (5 shares x no trick 3 x bump 2 x blitz 2 x red blitz 2 x crack 2 x re-crack 2 x M)
    MULTIPLIER_CAP = 1048576

include "_rules.pxi"
