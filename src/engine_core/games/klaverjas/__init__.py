"""Klaverjas (Klaverjassen): 4 players in fixed pairs {0,2} v {1,3}, 32 cards, 8 each. The
declaration; the rules are the hooks of `rules.pyx` (../shared/rules/klaverjas.md)."""
from ...errors import OptionError
from ...options import Options, OptionSpec
from .. import GameSpec, MatchEnd, Target
from . import rules
from .words import WORDS

# With pit_bonus <= 10,000 a deal scores at most 162 + 810 roem + 10,000 < 2^14 and a match of
# at most 1000 deals stays below 2^24: far inside the 64-bit scores, and inside the 16-bit
# bounds the solver's transposition table keeps of a deal's remaining value.
PIT_BONUS_MAX = 10_000
# A target match: every deal adds at least 81 to the two teams' totals together (a made deal
# gives the makers more than half of 162 or more, a nat or half nat gives the defenders 81 or
# more), so a team reaches 10,000 within 247 deals, and a tie at the top is broken by the next
# deal (its scores are never equal): far inside MAX_DEALS_PER_MATCH.
MATCH_TARGET_MAX = 10_000

OPTIONS = (
    OptionSpec("ruleset", "choice", "amsterdam",
               "trumping rules: amsterdam, rotterdam (must trump and overtrump even over partner), "
               "utrecht (amsterdam trumping, compulsory trump choice)", allowed=rules.RULESETS),
    OptionSpec("trump_choice", "choice", None,
               "'free' (pass or name, forced after four passes) or 'compulsory' (eldest names at "
               "once); absent/null = compulsory for utrecht, else free",
               allowed=("free", "compulsory", None)),
    OptionSpec("tie_rule", "choice", "nat", "a tie is nat, or 'half_nat': defenders keep only their own points",
               allowed=("nat", "half_nat")),
    OptionSpec("roem", "bool", True, "count roem (runs, four of a kind, stuk)"),
    OptionSpec("nat_roem", "choice", "all",
               "on nat the defenders get 162 + all roem ('all') or only their own ('own')",
               allowed=("all", "own")),
    OptionSpec("pit_bonus", "int", 100,
               f"bonus for taking all eight tricks, 0..{PIT_BONUS_MAX} (a deal then scores below 2^14)",
               minimum=0, maximum=PIT_BONUS_MAX),
    OptionSpec("deal_packets", "int_list", (3, 2, 3), "packet sizes of the deal (each 1..8), summing to 8",
               minimum=1, maximum=8, status="informational"),
    OptionSpec("deals_per_match", "int", 16, "match length in deals, 1..1000 (not used with match_target)",
               minimum=1, maximum=1000, status="informational"),
    OptionSpec("match_target", "int", 0,
               f"play the match to this many points instead of deals_per_match deals: it ends after the "
               f"deal in which a team reaches it, the higher total winning (level totals play on); "
               f"0 = off, 1..{MATCH_TARGET_MAX}", minimum=0, maximum=MATCH_TARGET_MAX, status="informational"),
    OptionSpec("bidding", "choice", "none",
               "'none' (a trump suit is named: trump_choice) or 'drents' (an auction of points 80..160 in "
               "tens or pit; the highest bidder names trumps and his team must make the bid)",
               allowed=("none", "drents")),
    OptionSpec("stuk", "choice", "same_trick",
               "'same_trick' (trump K and Q in one trick count 20 for its winner) or 'declared' (the "
               "holder of both says stuk with the second: 20 for his team)",
               allowed=("same_trick", "declared")),
    OptionSpec("roem_claim", "bool", False,
               "roem counts only when the winner of the trick holding it claims it at once (roem not "
               "claimed is lost); a declared stuk is its own claim"),
)

# the other cities' rules (docs/rules/klaverjas.md, "Presets"); Amsterdam is the default
PRESETS = {
    "rotterdam": {"ruleset": "rotterdam"},
    "utrecht": {"ruleset": "utrecht"},
    # the home game to 1,500 points (BoardGameArena's default game length, Dutch Wikipedia)
    "to_1500": {"match_target": 1500},
}


def packets(options):
    """For each packet size of `deal_packets` in turn, a packet to dealer+1, dealer+2, dealer+3
    and the dealer (rules 1)."""
    return [(seat, size) for size in options.deal_packets for seat in range(4)]


def validate(options: Options) -> Options:
    """Resolve `trump_choice` from the ruleset and refuse what the rules forbid: Utrecht with a
    free trump choice, packets that do not deal 8 cards, the Drents auction with a compulsory
    trump choice."""
    values = options.as_dict()
    if sum(values["deal_packets"]) != 8:
        raise OptionError("options.deal_packets",
                          f"the packet sizes must add up to 8 cards, got {values['deal_packets']}")
    choice = values["trump_choice"]
    if values["bidding"] == "drents":
        if values["ruleset"] == "utrecht" or choice == "compulsory":
            raise OptionError("options.bidding",
                              "bidding 'drents' lets the auction's winner name trumps: it does not go with "
                              "a compulsory trump choice (ruleset 'utrecht' or trump_choice 'compulsory')")
    if values["stuk"] == "declared" and not values["roem"]:
        raise OptionError("options.stuk", "stuk 'declared' is roem: it needs roem true")
    if values["roem_claim"] and not values["roem"]:
        raise OptionError("options.roem_claim", "there is no roem to claim with roem false")
    if values["ruleset"] == "utrecht":
        if choice == "free":
            raise OptionError("options.trump_choice",
                              "ruleset 'utrecht' means a compulsory trump choice: 'free' is not "
                              "allowed with it (omit trump_choice or set it to 'compulsory')")
        choice = "compulsory"
    elif choice is None:
        choice = "free"
    return Options(options.game, tuple((k, choice if k == "trump_choice" else v)
                                       for k, v in options.values))


def match_end(options: Options, deals: int) -> MatchEnd:
    """`deals` deals, or with `match_target` the first team to reach it (section 8 of
    docs/rules/klaverjas.md): the partners {0, 2} and {1, 3} share a total."""
    if options.match_target:
        return MatchEnd(target=options.match_target, sides=((0, 2), (1, 3)))
    return MatchEnd(deals=deals)


GAME = GameSpec(
    name="klaverjas",
    rules=rules,
    options=OPTIONS,
    packets=packets,
    presets=PRESETS,
    targets={"win": Target(1, "margin"), "pit": Target(None, "tricks"), "schwarz": Target(None, "tricks")},
    stat_contracts=("trump_C", "trump_S", "trump_H", "trump_D"),
    validate=validate,
    match_end=match_end,
    trump_points={"J": 20, "9": 14},
    # the Drents auction's bids (rules 12) by call: the points each undertakes, for the bots'
    # auction rules (the pit promises every trick)
    bid_families={**{f"points_{n}": {"points": n} for n in range(80, 161, 10)},
                  "pit": {"points": 162, "tout": True}},
    free_calls=("stuk", "roem"),
    win_at=rules.win_at,
    description="Dutch Klaverjas: Amsterdam, Rotterdam or Utrecht rules; roem, pit and nat",
    words=WORDS,
    # every trump choice is the same game, so random playouts judge the bids (issue 25's flat
    # Monte Carlo chose trumps this way); the searches are cheap: many worlds, and from the
    # first lead (about 0.5M nodes a world) exact in the worlds 12M spare nodes reach
    hard_budget={"worlds": 128, "playout_worlds": 48, "playouts": 192, "rollout_worlds": 256,
                 "rollout_playouts": 8, "exact_nodes": 12_000_000, "exact_worlds": 16},
)
