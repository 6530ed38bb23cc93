"""Schafkopf (Bavarian): 4 players, 32 cards, 8 each. The declaration; the rules are the hooks
of `rules.pyx` and are described in docs/rules/schafkopf.md."""
from ...errors import OptionError
from ...options import Options, OptionSpec
from .. import MAX_DEALS_PER_MATCH, GameSpec, NextDeal, Target
from . import rules
from .words import WORDS

TARIFF = dict(minimum=1, maximum=1_000_000)   # no score can reach 2^40 within these ranges
# The Stock grows by four stakes a thrown-in deal and is emptied whole, so a match holds at most
# 4 x 1000 stakes: 4 x 10^7 at the largest stake, so that a deal's scores with the pot stay
# inside the 32-bit integers of the service's messages, as every other score does.
STOCK_MAX = 10_000
STOCK_POT_MAX = 4 * MAX_DEALS_PER_MATCH * STOCK_MAX
SCORE_MAX = 2 ** 31 - 1             # the service's messages carry scores as 32-bit integers

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
    OptionSpec("stock", "int", 0,
               "the Stock: when all pass (no Ramsch, no Leaster) each player pays this stake into a pot "
               f"that the playing side of the next game won takes; 0 = off, else 1..{STOCK_MAX}",
               minimum=0, maximum=STOCK_MAX),
    OptionSpec("stock_pot", "int", 0,
               f"the Stock's pot carried into this deal (match state set by the match), a multiple of "
               f"4 x stock, 0..{STOCK_POT_MAX}", minimum=0, maximum=STOCK_POT_MAX, status="match_state"),
    OptionSpec("klopfen", "bool", False, "a knocking round on the first four cards before the auction: "
               "each knock (klopfen) doubles the deal's value"),
)

# well-known rule sets (games.preset("schafkopf", name)); docs/rules/schafkopf.md 11
PRESETS = {
    # the Bayerischer Schafkopf-Verein / Schafkopfschule rules: Sauspiel, Wenz, Farbsolo (and
    # Tout, Sie), Kontra/Re, the official schneider line
    "schafkopfschule": {"kontra": True, "schneider_rule": "official"},
    # a private table at an online club with every house contract on: 10/50 tariffs, Ramsch
    # when all pass, Kontra/Re, Klopfen, Geier, Farbwenz, Farbgeier, Bettel and Bettel ouvert
    "club": {"kontra": True, "ramsch": True, "geier": True, "farbwenz": True, "farbgeier": True,
             "bettel": True, "bettel_ouvert": True, "klopfen": True},
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


def validate(options: Options) -> Options:
    """The Stock (rules 7.9) is paid only when all pass and the deal is thrown in: not with a
    Ramsch or a Leaster; its pot is whole stakes of four players. With knocking (rules 3.2)
    the tariffs must keep a deal with four knocks inside the scores a message carries."""
    stock, pot = options.stock, options.stock_pot
    if stock and (options.ramsch or options.leaster):
        raise OptionError("options.stock", "the Stock is paid when all pass and the deal is thrown in: "
                          "it cannot go with ramsch or leaster (each plays the passed deal)")
    if pot and not stock:
        raise OptionError("options.stock_pot", "a pot needs the Stock: set stock to its stake")
    if stock and pot % (4 * stock):
        raise OptionError("options.stock_pot", f"the pot holds whole stakes of the four players: a "
                          f"multiple of 4 x stock = {4 * stock}, got {pot}")
    if options.klopfen and _largest_score(options) > SCORE_MAX:
        raise OptionError("options.klopfen", f"with four knocks (x16) these tariffs could score "
                          f"{_largest_score(options)}, beyond the {SCORE_MAX} a deal's score may reach: "
                          f"lower tariff_solo, tariff_rufspiel or tariff_increment")
    return options


def _largest_score(options) -> int:
    """A bound on any seat's score in a deal with four knocks (rules 3.2): the largest value of
    a game (a Tout with 14 Laufende, a Sie, a Ramsch with three Jungfrauen x 3 payers, ...) x
    Kontra and Re x 2^4, x 3 for a soloist, plus the Stock's pot."""
    solo, ruf, inc = options.tariff_solo, options.tariff_rufspiel, options.tariff_increment
    game = max(2 * (solo + 14 * inc), 4 * solo, solo + 16 * inc, ruf + 16 * inc, 8 * ruf, solo)
    return 3 * 4 * 16 * game + options.stock_pot


def between_deals(result, dealer, options):
    """The deal passes to the left and counts (rules 10); with the Stock the next deal carries
    the pot: four stakes more after a thrown-in deal, empty once a won game took it, the same
    after a lost one (rules 7.9)."""
    nxt = NextDeal((dealer + 1) % 4)
    if not options.stock:
        return nxt
    items = {b["item"]: b["value"] for b in result["breakdown"] if b["item"] in ("stock_in", "stock_out")}
    pot = options.stock_pot + 4 * items.get("stock_in", 0)
    if "stock_out" in items:
        pot = 0
    return NextDeal(nxt.dealer, carry={"stock_pot": pot})


GAME = GameSpec(
    name="schafkopf",
    rules=rules,
    options=OPTIONS,
    packets=packets,
    presets=PRESETS,
    validate=validate,
    between_deals=between_deals,
    bid_families=BID_FAMILIES,
    targets={"win": Target(61), "schneider": Target(91), "schwarz": Target(None, "tricks")},
    description="Bavarian Schafkopf: Rufspiel, Wenz, Farbsolo, Tout, Sie; optional Ramsch, Leaster, Kontra/Re, "
                "Klopfen, Geier, Farbwenz, Farbgeier, Bettel and Bettel ouvert",
    words=WORDS,
    # contracts differ in kind and stakes, so the normal level plays the bid rollouts (random
    # defenders make every solo look good); many worlds for the card play
    hard_budget={"worlds": 128, "playout_worlds": 48, "playouts": 192, "rollout_worlds": 16,
                 "exact_nodes": 12_000_000, "exact_worlds": 16},
)
