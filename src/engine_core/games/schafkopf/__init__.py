"""Schafkopf (Bavarian): 4 players, 32 cards, 8 each. The declaration; the rules are the hooks
of `rules.pyx` and are described in docs/rules/schafkopf.md."""
from ...options import OptionSpec
from .. import GameSpec, Target
from . import rules
from .words import WORDS

TARIFF = dict(minimum=1, maximum=1_000_000)   # no score can reach 2^40 within these ranges

OPTIONS = (
    OptionSpec("tariff_rufspiel", "int", 10, "base of a Rufspiel; also the Ramsch base", **TARIFF),
    OptionSpec("tariff_solo", "int", 50, "base of Wenz, Farbsolo and Tout; Sie = 4x; Durchmarsch", **TARIFF),
    OptionSpec("tariff_increment", "int", 10, "per Laufender, schneider and schwarz", **TARIFF),
    OptionSpec("ramsch", "bool", False, "all pass: Ramsch instead of a thrown-in deal"),
    OptionSpec("kontra", "bool", False, "Kontra/Re announcement rounds, x2 each"),
    OptionSpec("schneider_rule", "choice", "seed",
               "'seed': losers with 30 or fewer; 'official': 91 / 90 asymmetric", allowed=("seed", "official")),
    OptionSpec("deals_per_match", "int", 32, "match length in deals", minimum=1, maximum=1000,
               status="informational"),
    OptionSpec("klopfen", "bool", False, "doubling by knocking (not part of this ruleset)", status="listed_only"),
    OptionSpec("geier", "bool", False, "Ober-only solo (not part of this ruleset)", status="listed_only"),
    OptionSpec("farbwenz", "bool", False, "Wenz with a trump suit (not part of this ruleset)", status="listed_only"),
    OptionSpec("bettel", "bool", False, "misere contract (not part of this ruleset)", status="listed_only"),
    OptionSpec("leaster", "bool", False, "Ramsch variant (not part of this ruleset)", status="listed_only"),
    OptionSpec("caller_keeps_called_suit", "bool", False,
               "caller must keep a called-suit card (not part of this ruleset)", status="listed_only"),
)


def packets(options):
    """Eight packets of four, round from the dealer's left twice (rules 1.2)."""
    return [(k % 4, 4) for k in range(8)]


GAME = GameSpec(
    name="schafkopf",
    rules=rules,
    options=OPTIONS,
    packets=packets,
    targets={"win": Target(61), "schneider": Target(91), "schwarz": Target(None, "tricks")},
    description="Bavarian Schafkopf: Rufspiel, Wenz, Farbsolo, Tout, Sie; optional Ramsch and Kontra/Re",
    words=WORDS,
    # contracts differ in kind and stakes, so the normal level plays the bid rollouts (random
    # defenders make every solo look good); many worlds for the card play
    hard_budget={"worlds": 128, "playout_worlds": 48, "playouts": 192, "rollout_worlds": 16},
)
