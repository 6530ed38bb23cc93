"""Six-handed Sheepshead (docs/rules/sheepshead.md 13): 32 cards, 5 each in packets 3-2-2 (the
2 to the blind); the picker calls a partner as in the five-handed game (option partner) or goes
alone, against four."""
from . import rules6, seat_variant

GAME = seat_variant(
    "sheepshead6", rules6, (3, 2),
    "Six-handed Sheepshead: 5 cards each; pick, bury, call an ace or the jack of diamonds, or go "
    "alone, against four; leaster, doubler, forced pick or schwanzer; the five-handed options")
