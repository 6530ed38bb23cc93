"""Doppelkopf: 4 players, 48 cards (every card twice), 12 each; option nines off: 40 cards
without the nines, 10 each (rules 1.1). The declaration; the rules are
the hooks of `rules.pyx` and are described in docs/rules/doppelkopf.md."""
from ...errors import OptionError
from ...options import Options, OptionSpec
from .. import GameSpec, Target, NextDeal, MAX_DEALS_PER_MATCH
from . import rules
from .words import WORDS

# No option sets a stake: a deal's score is at most a few dozen points (the game value items
# and extra points of rules 5.3/5.4, x3 for a lone player), far from any 64-bit limit; Bockrunden
# multiply it by at most 2^4 = 16 (rules 9.1: a bock round lasts four deals and a deal starts at
# most one, so at most four overlap).
BOCK_DEALS = 4          # a bock round: one deal per player
MAX_BOCK = rules.MAX_BOCK
OPTIONS = (
    OptionSpec("nines", "bool", True,
               "play with the nines (48 cards, 12 each); false: the 40-card deck without them, "
               "10 cards each, 10 tricks, announcement deadlines counted from 10 (rules 1.1)"),
    OptionSpec("second_heart_ten_beats_first", "bool", False,
               "of two heart tens in a trick the second wins, except in the last trick"),
    OptionSpec("solo_player_leads", "bool", False, "in a declared solo the soloist leads trick 1"),
    OptionSpec("charlie_only_when_winning", "bool", False,
               "only winning the last trick with JC scores (no karlchen_caught)"),
    OptionSpec("announcements", "choice", "own_turn",
               "when a player may announce (rules 4.5.1): 'own_turn', before playing his card; "
               "'any_time', also while another player is to act, as the DDV allows (the deadline "
               "counted by the cards the announcer holds)",
               allowed=rules.ANNOUNCEMENTS),
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
    OptionSpec("picture_solos", "bool", False,
               "two more solos may be bid (rules 3.7.1): the Damen-Buben-Solo (queens above jacks "
               "the only trumps) and the Koenigssolo (kings the only trumps)"),
    OptionSpec("bockrunden", "choice", "off",
               "bock rounds (rules 9.1): after a deal that triggers one, the next four deals score "
               "double, overlapping rounds doubling again; 'tie': a deal ending 120:120 triggers; "
               "'tie_or_lost_kontra': also a deal whose Kontra team announced kontra and did not win; 'off'",
               allowed=rules.BOCKRUNDEN),
    OptionSpec("bock", "int", 0,
               f"bock rounds on this deal (match state set by the match): its scores x 2^bock, "
               f"0..{MAX_BOCK}", minimum=0, maximum=MAX_BOCK, status="match_state"),
    OptionSpec("bock_next", "int_list", (0, 0, 0),
               "bock rounds already due on each of the three deals after this one (match state set "
               "by the match): three integers, none above bock nor the one before it, at most 3, 2, 1",
               minimum=0, maximum=MAX_BOCK - 1, status="match_state"),
    OptionSpec("pflichtsolo", "int", 0,
               f"Pflichtsolo (rules 9.2): every player owes one solo per round of this many regular "
               f"deals; a solo by a seat that owes one is its Pflichtsolo (before any Lustsolo, the "
               f"soloist leads, the same dealer deals again and the deal does not count); a seat still "
               f"owing when the round's regular deals are used up must play one (Vorfuehrung); "
               f"0: off, 1..{MAX_DEALS_PER_MATCH}", minimum=0, maximum=MAX_DEALS_PER_MATCH),
    OptionSpec("pflicht_played", "int_list", (0, 0, 0, 0),
               "the seats that have played their Pflichtsolo in the current round (match state set "
               "by the match): four entries, 1 played, 0 still owed", minimum=0, maximum=1,
               status="match_state"),
    OptionSpec("pflicht_round_deals", "int", 0,
               f"the regular deals of the current round played so far (match state set by the "
               f"match), 0..pflichtsolo; at pflichtsolo the seats still owing must play (Vorfuehrung)",
               minimum=0, maximum=MAX_DEALS_PER_MATCH, status="match_state"),
)

# the three rule alternatives pagat lists, each on its own, and a house table with the house rules
# (docs/rules/doppelkopf.md, "Presets")
PRESETS = {
    "second_heart_ten": {"second_heart_ten_beats_first": True},
    "soloist_leads": {"solo_player_leads": True},
    "karlchen_only_winning": {"charlie_only_when_winning": True},
    # the DDV's tournament timing (docs/rules/doppelkopf.md, "Presets"): announcements whenever the
    # deadline allows and a Pflichtsolo in every 24 regular deals; the other defaults are the DDV's
    "ddv": {"announcements": "any_time", "pflichtsolo": 24},
    # a typical private table: the second heart ten, Schweinchen and Superschweinchen, throwing in,
    # bock rounds after a 120 : 120 tie, the picture solos
    "house": {"second_heart_ten_beats_first": True, "schweinchen": "superschweinchen", "throw_in": True,
              "bockrunden": "tie", "picture_solos": True},
}

# what the solos ask of a hand (GameSpec.bid_families: the bots' reservation rules); the suit
# solos (declared with their trump suit) and the Fleischloser are not bid by the easy and normal
# levels of their own accord, only where a solo is forced (option pflichtsolo's Vorfuehrung:
# the solo that gives the hand the most trumps)
BID_FAMILIES = {
    "solo_diamonds": {"trump_ranks": "QJ", "trump_suit": "D", "trump_cards": ("TH",)},
    "solo_hearts": {"trump_ranks": "QJ", "trump_suit": "H", "trump_cards": ("TH",)},
    "solo_spades": {"trump_ranks": "QJ", "trump_suit": "S", "trump_cards": ("TH",)},
    "solo_clubs": {"trump_ranks": "QJ", "trump_suit": "C", "trump_cards": ("TH",)},
    "solo_aces": {"trump_ranks": ""},
    "solo_queens": {"trump_ranks": "Q"},
    "solo_jacks": {"trump_ranks": "J"},
    "solo_queens_jacks": {"trump_ranks": "QJ"},
    "solo_kings": {"trump_ranks": "K"},
}


def packets(options):
    """Packets of 3, four rounds, from the dealer's left (rules 1.2); without the nines three
    rounds of 3, 4 and 3 (rules 1.1)."""
    if not options.nines:
        return [(k % 4, (3, 4, 3)[k // 4]) for k in range(12)]
    return [(k % 4, 3) for k in range(16)]


def validate(options: Options) -> Options:
    """Bock rounds (rules 9.1) are match state of the rule `bockrunden`: a round covers four
    deals from the one after the deal that started it, so a round due on a later deal is on
    this one too (bock_next never rises and never exceeds bock), and at most 3, 2 and 1 rounds
    started before this deal reach one, two and three deals further."""
    if not options.nines and options.schweinchen == "superschweinchen":
        raise OptionError("options.schweinchen", "superschweinchen ranks both nines of diamonds: "
                          "it needs the nines (set nines to true, or schweinchen to 'schweinchen')")
    bock, due = options.bock, options.bock_next
    if options.bockrunden == "off":
        if bock:
            raise OptionError("options.bock", "bock rounds need the rule: set bockrunden to 'tie' or "
                              "'tie_or_lost_kontra'")
        if any(due):
            raise OptionError("options.bock_next", "bock rounds need the rule: set bockrunden to 'tie' or "
                              "'tie_or_lost_kontra'")
    if len(due) != BOCK_DEALS - 1:
        raise OptionError("options.bock_next", f"must list the {BOCK_DEALS - 1} deals after this one, "
                          f"got {len(due)} entries: {list(due)}")
    before = bock
    for k, n in enumerate(due):
        if n > before:
            raise OptionError("options.bock_next", f"a round due later is on the deals before it too: "
                              f"entry {k} is {n}, more than {before} (bock, then each entry) allows")
        if n > BOCK_DEALS - 1 - k:
            raise OptionError("options.bock_next", f"entry {k} is {n}: at most {BOCK_DEALS - 1 - k} rounds "
                              f"started before this deal reach {k + 1} deal(s) further")
        before = n
    played, done = options.pflicht_played, options.pflicht_round_deals
    if len(played) != 4:
        raise OptionError("options.pflicht_played", f"must list the 4 seats (1 played, 0 still owed), "
                          f"got {len(played)} entries: {list(played)}")
    if not options.pflichtsolo:
        if any(played):
            raise OptionError("options.pflicht_played", "Pflichtsolo state needs the rule: set pflichtsolo "
                              "to the regular deals of a round")
        if done:
            raise OptionError("options.pflicht_round_deals", "Pflichtsolo state needs the rule: set "
                              "pflichtsolo to the regular deals of a round")
    elif done > options.pflichtsolo:
        raise OptionError("options.pflicht_round_deals", f"a round has {options.pflichtsolo} regular deals "
                          f"(option pflichtsolo), got {done} played")
    elif done == options.pflichtsolo and all(played):
        raise OptionError("options.pflicht_round_deals", f"the round is complete ({done} deals, every "
                          f"Pflichtsolo played): the next round starts at 0")
    return options


def next_bock(options: Options, triggers) -> dict:
    """The bock state the next deal carries (rules 9.1): what was due on it, plus one new round
    over the next four deals when this deal triggered any."""
    new = 1 if triggers else 0
    due = options.bock_next
    return {"bock": due[0] + new, "bock_next": [due[1] + new, due[2] + new, new]}


def next_pflicht(result, options) -> dict:
    """The Pflichtsolo state the next deal carries (rules 9.2): a Pflichtsolo marks its soloist
    as played and does not use up a regular deal; any other counted deal does; a round whose
    regular deals are used up and whose Pflichtsoli are all played starts the next round."""
    played, done = list(options.pflicht_played), options.pflicht_round_deals
    contract = result.get("contract") or {}
    if contract.get("solo_kind") == "pflicht":
        played[contract["declarer"]] = 1
    elif not result.get("redeal"):
        done += 1
    if done >= options.pflichtsolo and all(played):
        played, done = [0, 0, 0, 0], 0
    return {"pflicht_played": played, "pflicht_round_deals": done}


def deal_owed(options: Options) -> bool:
    """The deal to come is a Vorfuehrung (rules 9.2): the match does not end before it."""
    return bool(options.pflichtsolo) and options.pflicht_round_deals >= options.pflichtsolo and not all(
        options.pflicht_played)


def between_deals(result, dealer, options):
    """A void Armut (nobody accepts) or a thrown-in deal is redealt by the same dealer and does
    not count toward the match; otherwise the deal passes to the left (rules 9). With
    Bockrunden the next deal carries the bock rounds: a redealt deal keeps this deal's, a
    counted one moves them on by a deal (rules 9.1)."""
    if options.bockrunden == "off":
        carry = {}
    elif result.get("redeal"):
        carry = {"bock": options.bock, "bock_next": list(options.bock_next)}
    else:
        carry = next_bock(options, result["bock_triggers"])
    if options.pflichtsolo:
        carry.update(next_pflicht(result, options))
    if result.get("redeal") or (result.get("contract") or {}).get("solo_kind") == "pflicht":
        return NextDeal(dealer, counts=False, carry=carry)
    return NextDeal((dealer + 1) % 4, carry=carry)


GAME = GameSpec(
    name="doppelkopf",
    rules=rules,
    options=OPTIONS,
    packets=packets,
    presets=PRESETS,
    targets={"win": Target(121), "no_90": Target(151), "no_60": Target(181), "no_30": Target(211),
             "schwarz": Target(None, "tricks")},
    validate=validate,
    between_deals=between_deals,
    deal_owed=deal_owed,
    declaring_team="re",
    win_at=rules.win_points,
    description="Doppelkopf (optionally without the nines: 40 cards, 10 each): normal game, silent solo, Hochzeit, Armut and seven solos; "
                "re/kontra and no_90 .. schwarz announcements; optional Schweinchen, "
                "Superschweinchen, Hochzeit partner rules, throwing in, Bockrunden, the "
                "picture solos (Damen-Buben-Solo, Koenigssolo) and the Pflichtsolo with its Vorfuehrung",
    words=WORDS,
    bid_families=BID_FAMILIES,
    # twelve tricks: each search costs more, so fewer worlds; the normal level plays the bid
    # rollouts (solos, Hochzeit and Armut differ in kind)
    hard_budget={"worlds": 64, "playout_worlds": 32, "playouts": 128, "rollout_worlds": 8},
)
