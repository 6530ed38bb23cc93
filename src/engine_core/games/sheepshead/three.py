"""Three-handed Sheepshead (docs/rules/sheepshead.md 13): 32 cards, 10 each in packets 3-2-4-3
(the 2 to the blind); the picker always plays alone against the other two."""
from . import rules3, seat_variant

GAME = seat_variant(
    "sheepshead3", rules3, (3, 4, 3),
    "Three-handed Sheepshead: 10 cards each, pick and bury, the picker alone against two; "
    "leaster, doubler, forced pick or schwanzer; optional blitzing, cracking and spitz")
