"""Sheepshead (five-handed Milwaukee called-ace game): 5 players, 32 cards, 6 each and a blind
of 2. The declaration; the rules are the hooks of `rules.pyx` (../shared/rules/sheepshead.md).

Between deals (rules 1.4, 2.6): a doubler is redealt by the same dealer, does not count toward
`deals_per_match`, and carries its stake into the next deal (`multiplier` = its
`next_multiplier`); a played deal passes the deal to the left at multiplier 1.
"""
from ...options import OptionSpec
from .. import GameSpec, Target, NextDeal
from . import rules
from .words import WORDS

OPTIONS = (
    OptionSpec("partner", "choice", "called_ace",
               "how the picker finds a partner: called fail ace (ten, unknown), the holder of JD, or none",
               allowed=("called_ace", "jack_of_diamonds", "none")),
    OptionSpec("no_pick", "choice", "leaster", "when all five pass: leaster, doubler, or the dealer must pick",
               allowed=("leaster", "doubler", "forced_pick")),
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
    OptionSpec("multiplier", "int", 1,
               f"stake multiplier carried in from doublers (deal state set by the match), "
               f"1..{rules.MAX_MULTIPLIER} (2^20): a run of doublers stops doubling at "
               f"{rules.MAX_MULTIPLIER} (next_multiplier stays there; breakdown item doubler_cap), "
               f"so no score of a deal exceeds 192 x 2^20 (96 without blitzing)",
               minimum=1, maximum=rules.MAX_MULTIPLIER, status="match_state"),
    OptionSpec("deals_per_match", "int", 10, "match length in played deals (doublers do not count), 1..1000",
               minimum=1, maximum=1000, status="informational"),
)

# The second source's scoring (rules 5.3, 6); `seed004_literal` adds its dealer lead.
PRESETS = {
    "seed004": {"double_on_the_bump": False, "no_trick_partner_exempt": True},
    "seed004_literal": {"double_on_the_bump": False, "no_trick_partner_exempt": True,
                        "first_leader": "dealer"},
}


def packets(options):
    """From the dealer's left 3 cards to each seat, 2 to the blind, 3 more to each (rules 1.2):
    seat dealer+1+k gets deck[3k:3k+3] + deck[17+3k:20+3k], the blind deck[15:17]."""
    return [(k, 3) for k in range(5)] + [(None, 2)] + [(k, 3) for k in range(5)]


def between_deals(result, dealer, options):
    """A doubler is redealt by the same dealer, does not count and carries its stake; a played
    deal passes the deal to the left and the next deal is at multiplier 1 (rules 1.4, 2.6)."""
    contract = result["contract"]
    carry = {"multiplier": contract["next_multiplier"]}
    if contract["type"] == "doubler":
        return NextDeal(dealer, counts=False, carry=carry)
    return NextDeal((dealer + 1) % 5, counts=True, carry=carry)


GAME = GameSpec(
    name="sheepshead",
    rules=rules,
    options=OPTIONS,
    packets=packets,
    targets={"win": Target(61), "schneider": Target(91), "schwarz": Target(None, "tricks")},
    presets=PRESETS,
    between_deals=between_deals,
    description="Five-handed Milwaukee Sheepshead: pick, bury, call an ace (ten, unknown) or go alone; "
                "leaster, doubler or forced pick; optional blitzing, cracking, calling up a jack and spitz",
    words=WORDS,
    # as Schafkopf: the normal level plays the bid rollouts; many worlds for the card play
    hard_budget={"worlds": 128, "playout_worlds": 48, "playouts": 192, "rollout_worlds": 16},
)
