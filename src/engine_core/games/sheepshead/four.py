"""Four-handed Sheepshead (docs/rules/sheepshead.md 13): 30 cards (the black sevens 7C and 7S
out), 7 each in packets 3-2-4 (the 2 to the blind); the picker calls a partner as in the
five-handed game (option partner) or goes alone."""
from . import rules4, seat_variant

GAME = seat_variant(
    "sheepshead4", rules4, (3, 4),
    "Four-handed Sheepshead: 30 cards without the black sevens, 7 each; pick, bury, call an ace "
    "or the jack of diamonds, or go alone; leaster, doubler, forced pick or schwanzer; the five-handed options")
