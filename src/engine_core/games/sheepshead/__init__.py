"""Sheepshead (five-handed Milwaukee called-ace game): 5 players, 32 cards, 6 each and a blind
of 2. The declaration; the rules are the hooks of `rules.pyx` (../shared/rules/sheepshead.md).

The seat variants (docs/rules/sheepshead.md 13) are declared by `seat_variant` from this
declaration: `sheepshead3` (three.py: 10 cards each, the picker always alone), `sheepshead4`
(four.py: 30 cards without the black sevens, 7 each), `sheepshead4c` (cutthroat.py: 32 cards, 7
each and a blind of 4, the picker always alone) and `sheepshead6` (six.py: 5 each), each
over the same rules compiled for its seat count (rules3/rules4/rules4c/rules6.pyx include `_rules.pxi`,
as rules.pyx does). They share the options below but those about a partner where there is none,
and the presets (the second source's, five-handed).

Between deals (rules 1.4, 2.6): a doubler is redealt by the same dealer, does not count toward
`deals_per_match`, and carries its stake into the next deal (`multiplier` = its
`next_multiplier`); a played deal (a schwanzer too, as a leaster) passes the deal to the left at
multiplier 1.
"""
from dataclasses import replace

from ...errors import OptionError
from ...options import OptionSpec
from .. import GameSpec, Target, NextDeal
from . import rules
from .words import WORDS

OPTIONS = (
    OptionSpec("partner", "choice", "called_ace",
               "how the picker finds a partner: called fail ace (ten, unknown), the holder of JD, or none",
               allowed=("called_ace", "jack_of_diamonds", "none")),
    OptionSpec("no_pick", "choice", "leaster",
               "when all pass: leaster, doubler, the dealer must pick, or schwanzer (no card is played: "
               "the hand with the most Schwanzer points, queen 3, jack 2, other diamond 1, pays each other seat)",
               allowed=("leaster", "doubler", "forced_pick", "schwanzer")),
    OptionSpec("leaster_blind", "choice", "set_aside", "leaster: the blind belongs to nobody or to the last trick",
               allowed=("set_aside", "last_trick")),
    OptionSpec("double_on_the_bump", "bool", True, "the picker's team pays double when it loses"),
    OptionSpec("no_trick_partner_exempt", "bool", False,
               "a trickless loss with a partner: the picker pays the partner's share too"),
    OptionSpec("unknown_broad", "bool", False, "the unknown ace may be called whenever no ace is callable"),
    OptionSpec("first_leader", "choice", "eldest", "who leads trick 1: left of the dealer, or the dealer",
               allowed=("eldest", "dealer")),
    OptionSpec("cracking", "bool", False, "crack / re-crack round after the call, x2 each"),
    OptionSpec("call_own_ace", "bool", False,
               "the picker may call a fail ace in his own hand and play secretly alone (scored as alone)"),
    OptionSpec("call_up", "bool", False,
               "jack-of-diamonds game: a picker holding JD may call up the next highest jack he lacks "
               "(JH, JS, JC) as his secret partner; ignored with the other partner modes"),
    OptionSpec("spitz", "bool", False, "the 7 of diamonds is the second-highest trump, below QC"),
    OptionSpec("blitz", "bool", False,
               "blitz round after the call: a seat holding both black queens may show them, x2"),
    OptionSpec("red_blitz", "bool", False,
               "with blitz: a seat holding both red queens may also show them in the blitz round, "
               "x2 (x4 with a black blitz too); needs blitz: true"),
    OptionSpec("multiplier", "int", 1, "", minimum=1, maximum=rules.MAX_MULTIPLIER, status="match_state"),
    OptionSpec("deals_per_match", "int", 10, "match length in played deals (doublers do not count), 1..1000",
               minimum=1, maximum=1000, status="informational"),
)

# The second source's scoring (rules 5.3, 6); `seed004_literal` adds its dealer lead; then two
# common Wisconsin tables.
PRESETS = {
    "seed004": {"double_on_the_bump": False, "no_trick_partner_exempt": True},
    "seed004_literal": {"double_on_the_bump": False, "no_trick_partner_exempt": True,
                        "first_leader": "dealer"},
    # Wisconsin's common house rules on top of the called-ace core (docs/rules/sheepshead.md 10)
    "tavern": {"cracking": True, "blitz": True},
    "jd_house": {"partner": "jack_of_diamonds", "double_on_the_bump": False},
}


# the options a game without a partner does not declare (g_opts plays them as "none" / off)
PARTNER_OPTIONS = ("partner", "no_trick_partner_exempt", "unknown_broad", "call_own_ace", "call_up")


def _multiplier(seats: int) -> OptionSpec:
    """The multiplier option, with the most a deal can score at this seat count: the picker's
    share alone (seats - 1) x no trick 3 x bump 2 x blitz 2 x red blitz 2 x crack 2 x re-crack 2."""
    most = (seats - 1) * 96
    return OptionSpec("multiplier", "int", 1,
                      f"stake multiplier carried in from doublers (deal state set by the match), "
                      f"1..{rules.MAX_MULTIPLIER} (2^20): a run of doublers stops doubling at "
                      f"{rules.MAX_MULTIPLIER} (next_multiplier stays there; breakdown item doubler_cap), "
                      f"so no score of a deal exceeds {most} x 2^20 ({most // 2} without red blitzing, "
                      f"{most // 4} without blitzing)",
                      minimum=1, maximum=rules.MAX_MULTIPLIER, status="match_state")


def _options(seats: int, partner: bool) -> tuple[OptionSpec, ...]:
    return tuple(_multiplier(seats) if o.name == "multiplier" else o for o in OPTIONS
                 if partner or o.name not in PARTNER_OPTIONS)


def validate(options):
    """Red blitzing is a form of the blitz round (docs/rules/sheepshead.md 3.8): it needs it."""
    if options.red_blitz and not options.blitz:
        raise OptionError("options.red_blitz", "red blitzing is played in the blitz round: "
                                               "it needs blitz: true")
    return options


def packet_plan(seats: int, rounds: tuple[int, ...]):
    """The packets from the dealer's left: `rounds[0]` cards to each seat, 2 to the blind, then
    each further round to each seat."""
    plan = [(k, rounds[0]) for k in range(seats)] + [(None, 2)]
    for size in rounds[1:]:
        plan += [(k, size) for k in range(seats)]
    return lambda options: plan


# From the dealer's left 3 cards to each seat, 2 to the blind, 3 more to each (rules 1.2): seat
# dealer+1+k gets deck[3k:3k+3] + deck[17+3k:20+3k], the blind deck[15:17].
packets = packet_plan(5, (3, 3))


def between_deals(result, dealer, options, seats=5):
    """A doubler is redealt by the same dealer, does not count and carries its stake; a played
    deal passes the deal to the left and the next deal is at multiplier 1 (rules 1.4, 2.6)."""
    contract = result["contract"]
    carry = {"multiplier": contract["next_multiplier"]}
    if contract["type"] == "doubler":
        return NextDeal(dealer, counts=False, carry=carry)
    return NextDeal((dealer + 1) % seats, counts=True, carry=carry)


GAME = GameSpec(
    name="sheepshead",
    rules=rules,
    options=_options(5, True),
    packets=packets,
    targets={"win": Target(61), "schneider": Target(91), "schwarz": Target(None, "tricks")},
    presets=PRESETS,
    between_deals=between_deals,
    validate=validate,
    description="Five-handed Milwaukee Sheepshead: pick, bury, call an ace (ten, unknown) or go alone; "
                "leaster, doubler, forced pick or schwanzer; optional blitzing (black, and red), cracking, calling up a jack and spitz",
    words=WORDS,
    # as Schafkopf: the normal level plays the bid rollouts; many worlds for the card play
    hard_budget={"worlds": 128, "playout_worlds": 48, "playouts": 192, "rollout_worlds": 16},
)


def seat_variant(name: str, seat_rules, rounds: tuple[int, ...], description: str,
                 partner: bool | None = None, extra_options: tuple[OptionSpec, ...] = (), packets=None,
                 **changes) -> GameSpec:
    """A seat variant of this declaration (docs/rules/sheepshead.md 13): the same rules compiled
    for its seats (`seat_rules`), its packets (`rounds`, as `packet_plan`, unless `packets`
    chooses them by the options, as where the blind comes in more than one packet), its options
    (those about a partner only where the picker can have one: more than three seats unless
    `partner` says otherwise; then `extra_options`) and no presets."""
    seats = seat_rules.SEATS
    if partner is None:
        partner = seats > 3
    words = {lang: {k: v for k, v in w.items() if k != "presets"} for lang, w in GAME.words.items()}
    return replace(GAME, name=name, rules=seat_rules, options=_options(seats, partner) + tuple(extra_options),
                   packets=packets or packet_plan(seats, rounds), presets={}, words=words,
                   between_deals=lambda result, dealer, options: between_deals(result, dealer, options, seats),
                   description=description, **changes)
