# cython: language_level=3
"""Sheepshead four-handed: 4 players, 30 cards (the black sevens 7C 7S out), 7 each and a blind of 2; the picker calls a partner as five-handed (option partner) or goes alone. The sizes only: the rules are those of the five-handed game, written once
in `_rules.pxi` (rules.pyx's docstring describes them; docs/rules/sheepshead.md 13 the seat
variants), compiled here for 4 seats.
"""
from engine_core.cards import PIQUET_30

DECK = PIQUET_30

cdef enum:
    G_SEATS = 4
    G_HAND = 7
    G_BLIND = 2
    G_DECK = 30
    G_FACES = 30
    G_COPIES = 1
    G_MAX_ACTIONS = 48          # 4 picks, bury, call, unknown, 4+1 blitz-round calls, 4 crack-round calls, 28 cards
    G_BIDS = 1                  # uniform only
    SS_LEGAL = 40               # the most legal actions: the bury's 36 pairs of 9 cards
    # the `multiplier` option's maximum, where a run of doublers stops doubling: no score of a
    # deal exceeds 288 x 2^20 (3 shares x no trick 3 x bump 2 x blitz 2 x red blitz 2 x crack 2 x re-crack 2 x M)
    MULTIPLIER_CAP = 1048576

include "_rules.pxi"
