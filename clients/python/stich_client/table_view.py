"""What `stich play` shows, rendered with rich: cards with their game's suits (German for
Schafkopf, French for the others), the hand with its legal cards numbered, the trick in play,
the auction and announcements in words, the itemised payout of a deal and the match totals.

Pure functions of the client's view, action and score dicts (client.py): no I/O besides the
rich Console they are printed on, so tests render concrete views into a recording Console.
Everything fits an 80-column terminal.
"""
from __future__ import annotations

from typing import Any, Iterable

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

# ---- cards ------------------------------------------------------------------------------------
FRENCH_SUITS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
FRENCH_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
FRENCH_RANKS = {"T": "10"}
GERMAN_SUITS = {"C": "Ei", "S": "Gr", "H": "He", "D": "Sch"}            # card labels: Ei-O, Sch-10
GERMAN_NAMES = {"C": "Eichel", "S": "Gras", "H": "Herz", "D": "Schellen"}
GERMAN_RANKS = {"A": "A", "T": "10", "K": "K", "Q": "O", "J": "U"}      # Sau, Zehn, König, Ober, Unter
SUIT_STYLES = {"french": {"C": "bold", "S": "bold", "H": "bold red", "D": "bold red"},
               "german": {"C": "bold yellow", "S": "bold green", "H": "bold red", "D": "bold bright_yellow"}}


def german(game: str) -> bool:
    """Schafkopf is played with German suits (Eichel, Gras, Herz, Schellen); the rest French."""
    return game == "schafkopf"


def card_label(game: str, card: str) -> str:
    """The card as a player reads it: `Ei-O` (Eichel-Ober) in Schafkopf, `Q♣` elsewhere; a
    face-down card `??` stays `??`."""
    if len(card) != 2 or card == "??":
        return card
    rank, suit = card[0], card[1]
    if german(game):
        return f"{GERMAN_SUITS.get(suit, suit)}-{GERMAN_RANKS.get(rank, rank)}"
    return f"{FRENCH_RANKS.get(rank, rank)}{FRENCH_SUITS.get(suit, suit)}"


def card_text(game: str, card: str, dim: bool = False) -> Text:
    style = SUIT_STYLES["german" if german(game) else "french"].get(card[-1:], "")
    return Text(card_label(game, card), style="dim" if dim else style)


def cards_text(game: str, cards: Iterable[str]) -> str:
    return " ".join(card_label(game, c) for c in cards)


def suit_name(game: str, suit: str) -> str:
    return (GERMAN_NAMES if german(game) else FRENCH_NAMES).get(suit, suit)


# ---- seats ------------------------------------------------------------------------------------
def seat_name(seat: int | None, me: int | None) -> str:
    if seat is None:
        return "nobody"
    return "you" if seat == me else f"seat {seat}"


def seats_words(seats: Iterable[int], me: int | None) -> str:
    names = [seat_name(s, me) for s in seats]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ---- calls and contracts in words -------------------------------------------------------------
def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _german_ace(suit: str) -> str:
    return f"the {GERMAN_NAMES.get(suit, suit)}-Sau"


def call_words(game: str, action: dict) -> str:
    """A bid, announcement or exchange as a phrase (`calls the Gras-Sau`, `announces no 90`,
    `buries 2 cards`). The cards of an exchange are named only when the viewer may see them."""
    call, suit, kind = action.get("call", ""), action.get("suit"), action.get("type")
    if kind == "exchange":
        cards = action.get("cards") or []
        hidden = not cards or any(c == "??" for c in cards)
        what = f"{len(cards)} card{'s' if len(cards) != 1 else ''}" if hidden else cards_text(game, cards)
        verb = {"bury": "buries", "unknown": "puts under as the unknown card",
                "armut_give": "gives the Armut partner", "armut_return": "returns"}.get(call, call.replace("_", " "))
        return f"{verb} {what}"
    if game == "schafkopf":
        if call == "pass":
            return "passes (weiter)" if kind == "bid" else "says no more"
        if call == "rufspiel":
            return f"plays a Sauspiel with {_german_ace(suit)}"
        if call == "farbsolo":
            return f"plays {_a(GERMAN_NAMES.get(suit, suit))}-Solo"
        if call == "solo_tout":
            return f"plays {_a(GERMAN_NAMES.get(suit, suit))}-Solo Tout"
        words = {"wenz": "plays a Wenz", "wenz_tout": "plays a Wenz Tout", "sie": "plays Sie",
                 "kontra": "says Kontra", "re": "says Re"}
        return words.get(call, call.replace("_", " "))
    if game == "doppelkopf":
        if call.startswith("solo_"):
            what = call[len("solo_"):]
            return f"plays {_a(what)} solo" + {"queens": " (Damensolo)", "jacks": " (Bubensolo)",
                                                 "aces": " (Fleischloser)"}.get(what, "")
        words = {"healthy": "is healthy (gesund)", "hochzeit": "has a Hochzeit (marriage)",
                 "armut": "has an Armut (poverty)", "accept": "takes the Armut", "decline": "declines the Armut",
                 "re": "announces Re", "kontra": "announces Kontra", "no_90": "announces no 90",
                 "no_60": "announces no 60", "no_30": "announces no 30", "schwarz": "announces schwarz"}
        return words.get(call, call.replace("_", " "))
    if game == "sheepshead":
        if call in ("ace", "ten", "unknown_ace"):
            rank = "ace" if call != "ten" else "ten"
            extra = " (playing an unknown card)" if call == "unknown_ace" else ""
            return f"calls the {rank} of {FRENCH_NAMES.get(suit, suit)}{extra}"
        words = {"pick": "picks up the blind", "pass": "passes" if kind == "bid" else "does not crack",
                 "jack_of_diamonds": "plays with the jack of diamonds as partner", "alone": "goes alone",
                 "crack": "cracks (doubles)", "recrack": "re-cracks (doubles again)"}
        return words.get(call, call.replace("_", " "))
    if game == "klaverjas":
        if call == "trump":
            return f"plays with {FRENCH_NAMES.get(suit, suit)} as trump"
        if call == "pass":
            return "passes"
    text = call.replace("_", " ")
    return f"{text} {suit_name(game, suit)}" if suit else text


def action_words(game: str, action: dict, me: int | None) -> str:
    """`seat 2 plays a Wenz`, `you play Ei-O`."""
    who = seat_name(action.get("seat"), me)
    if action.get("type") == "play":
        return f"{who} {'play' if who == 'you' else 'plays'} {card_label(game, action.get('card', '??'))}"
    words = call_words(game, action)
    if who == "you":                    # "you is healthy" -> "you are healthy", "plays" -> "play"
        first, _, rest = words.partition(" ")
        first = {"is": "are", "has": "have", "goes": "go", "buries": "bury", "passes": "pass",
                 "does": "do", "says": "say", "cracks": "crack"}.get(first, first[:-1] if first.endswith("s") else first)
        words = f"{first} {rest}".strip()
    return f"{who} {words}"


_SK_CONTRACTS = {"rufspiel": "Sauspiel", "wenz": "Wenz", "farbsolo": "Solo", "wenz_tout": "Wenz Tout",
                 "solo_tout": "Solo Tout", "sie": "Sie", "ramsch": "Ramsch", "none": "no game"}


def contract_words(game: str, contract: dict | None, me: int | None) -> str:
    """The contract of the deal as a sentence, with what is public of it (the called card, the
    partner once known, doublings); '' while nothing is decided."""
    if not contract:
        return ""
    c = contract
    kind = c.get("type", "")
    by = f" by {seat_name(c['declarer'], me)}" if c.get("declarer") is not None else ""
    parts: list[str] = []
    if game == "schafkopf":
        name = _SK_CONTRACTS.get(kind, kind.replace("_", " "))
        if kind in ("farbsolo", "solo_tout") and c.get("suit"):
            name = f"{GERMAN_NAMES.get(c['suit'], c['suit'])}-{name}"
        if kind == "rufspiel" and c.get("suit"):
            name += f" with {_german_ace(c['suit'])}"
        parts.append(name + by)
        if c.get("partner") is not None:
            parts.append(f"partner {seat_name(c['partner'], me)}")
        if c.get("kontra") is not None:
            parts.append(f"Kontra by {seat_name(c['kontra'], me)}")
        if c.get("re") is not None:
            parts.append(f"Re by {seat_name(c['re'], me)}")
    elif game == "doppelkopf":
        if kind == "solo":
            parts.append(f"{c.get('solo', '')} solo{by}".strip())
        elif kind == "normal":
            parts.append("normal game")
        elif kind == "armut":
            parts.append(f"Armut{by}")
            if c.get("acceptor") is not None:
                parts.append(f"taken by {seat_name(c['acceptor'], me)}")
        elif kind == "hochzeit":
            parts.append(f"Hochzeit{by}")
            if c.get("partner") is not None:
                parts.append(f"partner {seat_name(c['partner'], me)}")
        else:
            parts.append(kind.replace("_", " ") + by)
        if c.get("redeal"):
            parts.append("dealt again")
    elif game == "sheepshead":
        names = {"ace": "called ace", "ten": "called ten", "unknown_ace": "called ace (unknown card)",
                 "jack_of_diamonds": "jack of diamonds partner", "alone": "alone", "leaster": "Leaster",
                 "doubler": "doubler (no picker)", "none": "no game"}
        picker = c.get("picker")
        parts.append(names.get(kind, kind.replace("_", " ")) +
                     (f", {seat_name(picker, me)} picked" if picker is not None else ""))
        if c.get("called_card"):
            parts.append(f"called card {card_label(game, c['called_card'])}")
        if c.get("partner") is not None:
            parts.append(f"partner {seat_name(c['partner'], me)}")
        if c.get("forced_alone"):
            parts.append("forced alone")
        if c.get("cracked_by") is not None:
            parts.append(f"cracked by {seat_name(c['cracked_by'], me)}" + (", re-cracked" if c.get("recracked") else ""))
        if (c.get("multiplier") or 1) > 1:
            parts.append(f"stakes ×{c['multiplier']}")
    elif game == "klaverjas":
        trump = c.get("trump")
        parts.append(f"{FRENCH_NAMES.get(trump, trump)} trump{by}" if trump else kind + by)
        if c.get("forced"):
            parts.append("forced to play")
        if c.get("outcome"):
            parts.append({"nat": "the makers went wet (nat)", "pit": "pit (all tricks)"}.get(
                c["outcome"], c["outcome"].replace("_", " ")))
    else:
        parts.append(kind.replace("_", " ") + by)
    return "; ".join(p for p in parts if p)


def public_lines(view: dict) -> list[str]:
    """What the table knows besides the trick: announcements and doublings, the blind and the
    buried cards where the viewer may see them, roem, tricks won."""
    game, me, pub = view["game"], view.get("seat"), view.get("public") or {}
    lines: list[str] = []
    if game == "doppelkopf":
        said: dict[int, list[str]] = {}
        for a in pub.get("announcements") or []:
            call = a["call"]
            said.setdefault(a["seat"], []).append(call.capitalize() if call in ("re", "kontra") else call.replace("_", " "))
        if said:
            lines.append("Announced: " + "; ".join(f"{seat_name(s, me)} {', '.join(c)}" for s, c in said.items()))
        teams = pub.get("teams") or {}
        if teams.get("complete"):
            lines.append(f"Re: {seats_words(teams.get('re', []), me)}; Kontra: {seats_words(teams.get('kontra', []), me)}")
    if game == "sheepshead":
        if pub.get("blind") and view.get("phase") in ("bury",):
            lines.append("Blind picked up: " + cards_text(game, pub["blind"]))
        buried = pub.get("buried")
        if buried and not all(c == "??" for c in buried):
            lines.append("You buried: " + cards_text(game, buried))
    if game == "klaverjas":
        teams = pub.get("teams")
        if teams:
            lines.append("Teams: " + " vs ".join(seats_words(t, me) for t in teams))
        roem = pub.get("roem") or []
        if roem:
            lines.append("Roem: " + ", ".join(f"{item_words(r['item'])} {r['value']} "
                                             f"(trick {r.get('trick', 0) + 1})" for r in roem))
    won = pub.get("tricks_won")
    if won and any(won):
        lines.append("Tricks won: " + ", ".join(f"{seat_name(s, me)} {n}" for s, n in enumerate(won)))
    return lines


# ---- the table --------------------------------------------------------------------------------
def trick_text(game: str, leader: int, cards: list[str], me: int | None, winner: int | None = None,
               seats: int = 4) -> Text:
    """`seat 1 K♠  seat 2 A♠  you 9♠  → seat 2`: in play order (the first was led), then who
    took the trick."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append("  ")
        text.append(f"{seat_name((leader + i) % seats, me)} ")
        text.append_text(card_text(game, card))
    if winner is not None:
        text.append(f"  → {seat_name(winner, me)}", style="bold")
    return text


def seats_of(view: dict) -> int:
    return len(view.get("seats") or []) or len(view.get("match_scores") or []) or 4


def hand_table(view: dict, numbers: dict[int, int]) -> Table:
    """The hand (the engine sorts it trumps first) over the numbers that choose each card;
    cards without a number (not legal now) are dimmed and marked with a dot."""
    game = view["game"]
    table = Table(box=None, show_header=False, padding=(0, 1, 0, 0), pad_edge=False)
    for _ in view["hand"]:
        table.add_column(justify="center", no_wrap=True)
    table.add_row(*[card_text(game, c, dim=bool(numbers) and i not in numbers) for i, c in enumerate(view["hand"])])
    if numbers:
        table.add_row(*[Text(str(numbers[i]) if i in numbers else "·", style="cyan" if i in numbers else "dim")
                        for i in range(len(view["hand"]))])
    return table


def render_view(view: dict, menu=None, news: list[dict] | None = None) -> RenderableType:
    """The table for the seat to act: header, what happened since its last turn, contract,
    public information, the trick in play, its hand and its choices (menu.py's Menu)."""
    game, me = view["game"], view.get("seat")
    n = seats_of(view)
    parts: list[RenderableType] = []
    dealer = seat_name(view.get("dealer"), me)
    parts.append(Text(f"{game.capitalize()} · deal {view['deal_number']} of {view['deals_per_match']} · "
                      f"dealer {dealer} · {view['phase'].replace('_', ' ')}", style="bold"))
    for action in news or []:
        if action.get("type") != "play":
            parts.append(Text("  " + action_words(game, action, me)))
    calls = [a for a in view.get("actions", []) if a.get("type") in ("bid", "exchange")]
    if calls and view.get("phase") not in ("play",) and not news:
        parts.append(Text("Calls: " + "; ".join(action_words(game, a, me) for a in calls)))
    contract = contract_words(game, view.get("contract"), me)
    if contract:
        parts.append(Text("Contract: " + contract))
    for line in public_lines(view):
        parts.append(Text(line))
    tricks = view.get("tricks") or []
    trick = view.get("trick")
    if tricks and view.get("phase") == "play":
        leader, cards, winner = tricks[-1]
        line = Text(f"Trick {len(tricks)}: ")
        line.append_text(trick_text(game, leader, cards, me, winner, seats=n))
        parts.append(line)
    if trick and trick.get("cards"):
        line = Text(f"Trick {len(tricks) + 1}: ", style="bold")
        line.append_text(trick_text(game, trick["leader"], trick["cards"], me, seats=n))
        parts.append(line)
    elif view.get("phase") == "play" and view.get("to_act") is not None:
        parts.append(Text(f"Trick {len(tricks) + 1}: {seat_name(view['to_act'], me)} to lead", style="bold"))
    if view.get("hand"):
        parts.append(Text(f"Your hand (seat {me}, trumps first):"))
        parts.append(hand_table(view, menu.card_numbers if menu else {}))
    if menu is not None:
        parts.append(menu.render())
    return Group(*parts)


def render_last_trick(view: dict) -> Text:
    """The last finished trick (`last`), or a note that none is finished yet."""
    tricks = view.get("tricks") or []
    if not tricks:
        return Text("No trick finished yet.")
    leader, cards, winner = tricks[-1]
    line = Text(f"Last trick (trick {len(tricks)}): ", style="bold")
    line.append_text(trick_text(view["game"], leader, cards, view.get("seat"), winner, seats_of(view)))
    return line


ITEM_WORDS = {"roem_run3": "roem: run of three", "roem_run4": "roem: run of four",
              "roem_four_of_a_kind": "roem: four of a kind", "roem_four_jacks": "roem: four jacks",
              "roem_stuk": "roem: stuk (K+Q of trump)", "half_nat": "half nat"}


def item_words(item: str) -> str:
    """A breakdown item's name as words: `no_90_failed_by_losers` -> `no 90 failed by losers`."""
    return ITEM_WORDS.get(item, item.replace("_", " "))


def _team_name(result: dict, team: Any, me: int | None) -> str:
    teams = result.get("teams") or []
    if isinstance(team, int) and 0 <= team < len(teams):
        return seats_words(teams[team], me)
    return "" if team is None else str(team)


def breakdown_table(result: dict, me: int | None) -> Table:
    """The itemised payout: one row per item with its team, count or factor and value."""
    table = Table(box=box.SIMPLE_HEAD, title="Scoring", title_justify="left", pad_edge=False)
    rows = result.get("breakdown") or []
    has_team = any("team" in r for r in rows)
    table.add_column("item", no_wrap=True)
    if has_team:
        table.add_column("for", max_width=24)
    table.add_column("count", justify="right")
    table.add_column("value", justify="right")
    for r in rows:
        count = ""
        if "count" in r:
            count = str(r["count"])
        elif "factor" in r:
            count = f"×{r['factor']}"
        elif "trick" in r:
            count = f"trick {r['trick'] + 1}"
        value = r.get("value")
        cells = [item_words(r["item"])]
        if has_team:
            cells.append(_team_name(result, r.get("team"), me))
        cells += [count, "" if value is None else str(value)]
        table.add_row(*cells, style="bold" if r["item"] in ("total", "score") else "")
    return table


def scores_table(result: dict | None, match_scores: list[int], me: int | None,
                 deals_finished: int | None = None, deals_per_match: int | None = None) -> Table:
    """Per seat: card points and score of this deal (when given) and the match total."""
    title = "Match totals"
    if deals_finished is not None:
        title += f" after {deals_finished} of {deals_per_match} deals"
    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False)
    table.add_column("")
    for s in range(len(match_scores)):
        table.add_column(seat_name(s, me), justify="right")
    if result is not None:
        table.add_row("card points", *[str(p) for p in result.get("card_points", [])])
        table.add_row("this deal", *[f"{p:+d}" for p in result.get("scores", [])])
    table.add_row("match", *[str(p) for p in match_scores], style="bold")
    return table


def render_result(game: str, score: dict, me: int | None) -> RenderableType:
    """After a deal: the last trick, who played what and won, the payout and the totals."""
    r = score["result"]
    parts: list[RenderableType] = [Text(f"Deal {score['deal_number']} is over", style="bold reverse")]
    tricks = r.get("tricks") or []
    if tricks:
        leader, cards, winner = tricks[-1]
        line = Text(f"Last trick (trick {len(tricks)}): ", style="bold")
        line.append_text(trick_text(game, leader, cards, me, winner, len(score["match_scores"])))
        parts.append(line)
    contract = contract_words(game, r.get("contract"), me)
    if contract:
        parts.append(Text("Contract: " + contract))
    teams = r.get("teams") or []
    if teams:
        parts.append(Text("Sides: " + " vs ".join(seats_words(t, me) for t in teams)))
    winners = r.get("winners")
    if isinstance(winners, list) and winners:
        parts.append(Text(f"Won by {seats_words(winners, me)}"))
    elif isinstance(r.get("winner"), str):
        parts.append(Text(f"Won by the {r['winner'].capitalize()} side"))
    parts.append(breakdown_table(r, me))
    parts.append(scores_table(r, score["match_scores"], me, score.get("deals_finished"), score.get("deals_per_match")))
    return Group(*parts)


def render_match_over(match_scores: list[int], me: int | None) -> RenderableType:
    best = max(match_scores)
    leaders = [s for s, p in enumerate(match_scores) if p == best]
    return Group(Text("Match over", style="bold reverse"), scores_table(None, match_scores, me),
                 Text(f"Best: {seats_words(leaders, me)} with {best}"))


HELP = """\
Choose an action by its number, or type it:
  a card       its number under the hand, or its name as shown or as a code:
               Q♣ or QC, 10♥ or TH (Schafkopf: Ei-O or QC, Sch-10 or TD)
  a call       its number, or its name: pass, wenz, rufspiel gras, trump hearts
  card sets    to bury or exchange: numbers or names in any order (3 7, KS AH)
  last         the last finished trick
  hint         a suggestion from the server's bot, where the server has hints
  help         this text
  quit         leave the match (the table stays on the server)
The first card of a trick was led; → names who took it."""


def render_help() -> Text:
    return Text(HELP)
