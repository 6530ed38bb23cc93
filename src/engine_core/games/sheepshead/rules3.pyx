# cython: language_level=3
"""Sheepshead three-handed: 3 players, 32 cards, 10 each and a blind of 2; the picker always plays alone against two. The sizes only: the rules are those of the five-handed game, written once
in `_rules.pxi` (rules.pyx's docstring describes them; docs/rules/sheepshead.md 13 the seat
variants), compiled here for 3 seats.
"""
from engine_core.cards import PIQUET

DECK = PIQUET

cdef enum:
    G_SEATS = 3
    G_HAND = 10
    G_BLIND = 2
    G_DECK = 32
    G_FACES = 32
    G_COPIES = 1
    G_MAX_ACTIONS = 48          # 3 picks, bury, call, unknown, 3+1 blitz-round calls, 3 crack-round calls, 30 cards
    G_BIDS = 1                  # uniform only
    SS_LEGAL = 72               # the most legal actions: the bury's 66 pairs of 12 cards
    # the `multiplier` option's maximum, where a run of doublers stops doubling: no score of a
    # deal exceeds 192 x 2^20 (2 shares x no trick 3 x bump 2 x blitz 2 x red blitz 2 x crack 2 x re-crack 2 x M)
    MULTIPLIER_CAP = 1048576

include "_rules.pxi"
