"""Doppelkopf: 4 players, 48 cards (every card twice), 12 each. The declaration; the rules are
the hooks of `rules.pyx` and are described in docs/rules/doppelkopf.md."""
from ...options import OptionSpec
from .. import GameSpec, Target, NextDeal
from . import rules
from .words import WORDS

# No option sets a stake: a deal's score is at most a few dozen points (the game value items
# and extra points of rules 5.3/5.4, x3 for a lone player), far from any 64-bit limit.
OPTIONS = (
    OptionSpec("second_heart_ten_beats_first", "bool", False,
               "of two heart tens in a trick the second wins, except in the last trick"),
    OptionSpec("solo_player_leads", "bool", False, "in a declared solo the soloist leads trick 1"),
    OptionSpec("charlie_only_when_winning", "bool", False,
               "only winning the last trick with JC scores (no karlchen_caught)"),
    OptionSpec("deals_per_match", "int", 8, "match length in completed deals, 1..1000",
               minimum=1, maximum=1000, status="informational"),
    OptionSpec("schweinchen", "choice", "off",
               "'schweinchen': both AD in one hand are the highest trumps wherever diamonds are "
               "trumps; 'superschweinchen': also both 9D in one hand above them; 'off'",
               allowed=rules.SCHWEINCHEN),
    OptionSpec("hochzeit_partner", "choice", "first_trick",
               "the tricks (of the first three) that find the bride's partner: any, "
               "led with a trump, or led with a plain suit",
               allowed=rules.HOCHZEIT_PARTNER),
    OptionSpec("throw_in", "bool", False,
               "a hand with five nines, five kings or no trump above the jacks may throw in: "
               "the deal is dealt again by the same dealer and does not count"),
)

# the three rule alternatives pagat lists, each on its own, and a house table with the house rules
# (docs/rules/doppelkopf.md, "Presets")
PRESETS = {
    "second_heart_ten": {"second_heart_ten_beats_first": True},
    "soloist_leads": {"solo_player_leads": True},
    "karlchen_only_winning": {"charlie_only_when_winning": True},
    # a typical private table: the second heart ten, Schweinchen and Superschweinchen, throwing in
    "house": {"second_heart_ten_beats_first": True, "schweinchen": "superschweinchen", "throw_in": True},
}


def packets(options):
    """Packets of 3, four rounds, from the dealer's left (rules 1.2)."""
    return [(k % 4, 3) for k in range(16)]


def between_deals(result, dealer, options):
    """A void Armut (nobody accepts) or a thrown-in deal is redealt by the same dealer and does
    not count toward the match; otherwise the deal passes to the left (rules 9)."""
    if result.get("redeal"):
        return NextDeal(dealer, counts=False)
    return NextDeal((dealer + 1) % 4)


GAME = GameSpec(
    name="doppelkopf",
    rules=rules,
    options=OPTIONS,
    packets=packets,
    presets=PRESETS,
    targets={"win": Target(121), "no_90": Target(151), "no_60": Target(181), "no_30": Target(211),
             "schwarz": Target(None, "tricks")},
    between_deals=between_deals,
    declaring_team="re",
    win_points=rules.win_points,
    description="Doppelkopf: normal game, silent solo, Hochzeit, Armut and seven solos; "
                "re/kontra and no_90 .. schwarz announcements; optional Schweinchen, "
                "Superschweinchen, Hochzeit partner rules and throwing in",
    words=WORDS,
    # twelve tricks: each search costs more, so fewer worlds; the normal level plays the bid
    # rollouts (solos, Hochzeit and Armut differ in kind)
    hard_budget={"worlds": 64, "playout_worlds": 32, "playouts": 128, "rollout_worlds": 8},
)
