# cython: language_level=3
"""Sheepshead six-handed: 6 players, 32 cards, 5 each and a blind of 2; the picker calls a partner as five-handed (option partner) or goes alone. The sizes only: the rules are those of the five-handed game, written once
in `_rules.pxi` (rules.pyx's docstring describes them; docs/rules/sheepshead.md 13 the seat
variants), compiled here for 6 seats.
"""
from engine_core.cards import PIQUET

DECK = PIQUET

cdef enum:
    G_SEATS = 6
    G_HAND = 5
    G_BLIND = 2
    G_DECK = 32
    G_FACES = 32
    G_COPIES = 1
    G_MAX_ACTIONS = 56          # 6 picks, bury, call, unknown, 6+1 blitz-round calls, 6 crack-round calls, 30 cards
    G_BIDS = 1                  # uniform only
    SS_LEGAL = 24               # the most legal actions: the bury's 21 pairs of 7 cards
    # the `multiplier` option's maximum, where a run of doublers stops doubling: no score of a
    # deal exceeds 480 x 2^20 (5 shares x no trick 3 x bump 2 x blitz 2 x red blitz 2 x crack 2 x re-crack 2 x M)
    MULTIPLIER_CAP = 1048576

include "_rules.pxi"
