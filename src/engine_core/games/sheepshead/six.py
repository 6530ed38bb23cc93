"""Six-handed Sheepshead (docs/rules/sheepshead.md 13): 32 cards, 5 each in packets 3-2-2 (the
2 to the blind); the picker calls a partner as in the five-handed game (option partner) or goes
alone, against four. With option dealer_sits_out (13, "Six-handed with the dealer sitting out")
the dealer is dealt nothing and the other five play the five-handed game (6 each in packets 3-3,
the blind of 2 after the first round)."""
from ...errors import OptionError
from ...options import Options, OptionSpec
from . import packet_plan, rules6, seat_variant
from . import validate as validate_sheepshead

SITS_OUT = OptionSpec(
    "dealer_sits_out", "bool", False,
    "the dealer is dealt no cards and sits the deal out; the other five play the five-handed game "
    "(6 cards each, blind of 2, shares as five-handed); the deal passes to the left, so each seat "
    "sits out in turn")

_six = packet_plan(6, (3, 2))
_five = packet_plan(5, (3, 3))      # offsets 0..4 from the dealer's left: the dealer gets nothing


def packets(options: Options):
    """3 to each seat, 2 to the blind, 2 more to each; with dealer_sits_out the five-handed
    packets (3, the blind, 3) to the five seats from the dealer's left, none to the dealer."""
    return (_five if options.dealer_sits_out else _six)(options)


def validate(options: Options) -> Options:
    """The five-handed checks, and: a dealer who sits out cannot lead (first_leader "dealer"
    needs every seat at play)."""
    options = validate_sheepshead(options)
    if options.dealer_sits_out and options.first_leader == "dealer":
        raise OptionError("options.first_leader", "'dealer' cannot be played with dealer_sits_out: "
                          "the dealer sits out and plays no card (set first_leader to 'eldest')")
    return options


GAME = seat_variant(
    "sheepshead6", rules6, (3, 2),
    "Six-handed Sheepshead: 5 cards each; pick, bury, call an ace or the jack of diamonds, or go "
    "alone, against four; leaster, doubler, forced pick or schwanzer; the five-handed options; "
    "or the dealer sits out and five play the five-handed game",
    extra_options=(SITS_OUT,), packets=packets, validate=validate)
