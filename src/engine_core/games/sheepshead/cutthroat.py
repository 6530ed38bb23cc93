"""Four-handed cutthroat Sheepshead (docs/rules/sheepshead.md 13): all 32 cards, 7 each and a
blind of 4, dealt 2 to each seat, 2 to the blind, 3 to each, 2 to the blind, 2 to each; the
picker buries four and always plays alone against the other three (sheepshead101.com's form)."""
from . import rules4c, seat_variant

# from the dealer's left: 2 each, 2 to the blind, 3 each, 2 to the blind, 2 each
PACKETS = ([(k, 2) for k in range(4)] + [(None, 2)] + [(k, 3) for k in range(4)] + [(None, 2)]
           + [(k, 2) for k in range(4)])

GAME = seat_variant(
    "sheepshead4c", rules4c, (2, 3, 2),
    "Four-handed cutthroat Sheepshead: all 32 cards, 7 each and a blind of 4; the picker buries "
    "four and plays alone against three; leaster, doubler, forced pick or schwanzer; optional "
    "blitzing, cracking and spitz",
    partner=False, packets=lambda options: PACKETS)
