# cython: language_level=3
"""Sheepshead four-handed cutthroat (`sheepshead4c`): 4 players, all 32 cards, 7 each and a blind
of 4; the picker takes the blind, buries four and always plays alone against three (the form of
sheepshead101.com). The sizes only: the rules are those of the five-handed game, written once
in `_rules.pxi` (rules.pyx's docstring describes them; docs/rules/sheepshead.md 13 the seat
variants), compiled here for 4 seats and a 4-card blind.
"""
from engine_core.cards import PIQUET

DECK = PIQUET

cdef enum:
    G_SEATS = 4
    G_HAND = 7
    G_BLIND = 4
    G_DECK = 32
    G_FACES = 32
    G_COPIES = 1
    G_MAX_ACTIONS = 48          # 4 picks, bury, call, unknown, 4+1 blitz-round calls, 4 crack-round calls, 28 cards
    G_BIDS = 1                  # uniform only
    SS_LEGAL = 330              # the most legal actions: the bury's 330 fours of 11 cards
    # the `multiplier` option's maximum, where a run of doublers stops doubling: no score of a
    # deal exceeds 288 x 2^20 (3 shares x no trick 3 x bump 2 x blitz 2 x red blitz 2 x crack 2 x re-crack 2 x M)
    MULTIPLIER_CAP = 1048576

include "_rules.pxi"
