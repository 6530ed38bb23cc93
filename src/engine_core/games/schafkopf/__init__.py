"""Schafkopf (Bavarian): 4 players, 32 cards, 8 each. The declaration; the rules are the hooks
of `rules.pyx` and are described in docs/rules/schafkopf.md."""
from ...options import OptionSpec
from .. import GameSpec, Target
from . import rules
from .words import WORDS

TARIFF = dict(minimum=1, maximum=1_000_000)   # no score can reach 2^40 within these ranges

OPTIONS = (
    OptionSpec("tariff_rufspiel", "int", 10, "base of a Rufspiel; also the Ramsch base", **TARIFF),
    OptionSpec("tariff_solo", "int", 50, "base of Wenz, Farbsolo, Tout and the club solos (Geier, "
               "Farbwenz, Farbgeier, Bettel; Bettel ouvert 2x); Sie = 4x; Durchmarsch", **TARIFF),
    OptionSpec("tariff_increment", "int", 10, "per Laufender, schneider and schwarz", **TARIFF),
    OptionSpec("ramsch", "bool", False, "all pass: Ramsch instead of a thrown-in deal"),
    OptionSpec("kontra", "bool", False, "Kontra/Re announcement rounds, x2 each"),
    OptionSpec("schneider_rule", "choice", "seed",
               "'seed': losers with 30 or fewer; 'official': 91 / 90 asymmetric", allowed=("seed", "official")),
    OptionSpec("deals_per_match", "int", 32, "match length in deals", minimum=1, maximum=1000,
               status="informational"),
    OptionSpec("geier", "bool", False, "offer the Geier: a solo with the four Obers as the only trumps"),
    OptionSpec("farbwenz", "bool", False, "offer the Farbwenz: the four Unters and a named suit are trumps"),
    OptionSpec("farbgeier", "bool", False, "offer the Farbgeier: the four Obers and a named suit are trumps"),
    OptionSpec("bettel", "bool", False, "offer the Bettel: the declarer must take no trick, no trumps"),
    OptionSpec("bettel_ouvert", "bool", False,
               "offer the Bettel ouvert: a Bettel with the declarer's hand shown after the first trick, 2x"),
    OptionSpec("caller_keeps_called_suit", "bool", False,
               "the caller may not discard his last card of the called suit before it is led"),
    OptionSpec("leaster", "bool", False, "all pass: a Leaster (the Ramsch played for fewest card points)"),
    OptionSpec("klopfen", "bool", False, "doubling by knocking (not part of this ruleset)", status="listed_only"),
)

# well-known rule sets (games.preset("schafkopf", name)); docs/rules/schafkopf.md 11
PRESETS = {
    # the Bayerischer Schafkopf-Verein / Schafkopfschule rules: Sauspiel, Wenz, Farbsolo (and
    # Tout, Sie), Kontra/Re, the official schneider line
    "schafkopfschule": {"kontra": True, "schneider_rule": "official"},
    # a private table at an online club with every house contract on: 10/50 tariffs, Ramsch
    # when all pass, Kontra/Re, Geier, Farbwenz, Farbgeier, Bettel and Bettel ouvert
    "club": {"kontra": True, "ramsch": True, "geier": True, "farbwenz": True, "farbgeier": True,
             "bettel": True, "bettel_ouvert": True},
}

# what each bid's contract asks of a hand (GameSpec.bid_families: the bots' auction rules)
BID_FAMILIES = {
    "rufspiel": {"trump_ranks": "QJ", "trump_suit": "H"},
    "bettel": {"aim": "no_trick"},
    "farbgeier": {"trump_ranks": "Q", "trump_suit": "named"},
    "farbwenz": {"trump_ranks": "J", "trump_suit": "named"},
    "geier": {"trump_ranks": "Q"},
    "wenz": {"trump_ranks": "J"},
    "farbsolo": {"trump_ranks": "QJ", "trump_suit": "named"},
    "bettel_ouvert": {"aim": "no_trick", "ouvert": True},
    "wenz_tout": {"trump_ranks": "J", "tout": True},
    "solo_tout": {"trump_ranks": "QJ", "trump_suit": "named", "tout": True},
}


def packets(options):
    """Eight packets of four, round from the dealer's left twice (rules 1.2)."""
    return [(k % 4, 4) for k in range(8)]


GAME = GameSpec(
    name="schafkopf",
    rules=rules,
    options=OPTIONS,
    packets=packets,
    presets=PRESETS,
    bid_families=BID_FAMILIES,
    targets={"win": Target(61), "schneider": Target(91), "schwarz": Target(None, "tricks")},
    description="Bavarian Schafkopf: Rufspiel, Wenz, Farbsolo, Tout, Sie; optional Ramsch, Leaster, Kontra/Re, "
                "Geier, Farbwenz, Farbgeier, Bettel and Bettel ouvert",
    words=WORDS,
    # contracts differ in kind and stakes, so the normal level plays the bid rollouts (random
    # defenders make every solo look good); many worlds for the card play
    hard_budget={"worlds": 128, "playout_worlds": 48, "playouts": 192, "rollout_worlds": 16},
)
