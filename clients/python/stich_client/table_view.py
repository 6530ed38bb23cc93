"""What `stich play` shows, rendered with rich: cards in their game's pattern (German suits
for Schafkopf, French for the others, as the game's words say), the hand with its legal cards
numbered, the trick in play, the auction and announcements in words, the itemised payout of a
deal and the match totals.

Every word of a game comes from the words the game declares and ListGames serves
(GameInfo.words; docs/adding-a-game.md, "Words"): `learn(game, words)` keeps them, and nothing
here knows a game by name, so a new game reads in words without a new client. A game whose
words are unknown (an older server) shows the engine's names.

Pure functions of the client's view, action and score dicts (client.py): no I/O besides the
rich Console they are printed on, so tests render concrete views into a recording Console.
Everything fits an 80-column terminal.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

# ---- the game's words -------------------------------------------------------------------------
LANGUAGE = "en"
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
SUIT_STYLES = {"french": {"C": "bold", "S": "bold", "H": "bold red", "D": "bold red"},
               "german": {"C": "bold yellow", "S": "bold green", "H": "bold red", "D": "bold bright_yellow"}}


def _raw(name: str) -> str:
    return str(name).replace("_", " ")


class Words:
    """One game's words in the client's language, English word by word where it has none."""

    def __init__(self, by_language: dict):
        self.chain = [w for w in (by_language.get(LANGUAGE), by_language.get("en")) if w]

    def get(self, *path: str) -> Any:
        for words in self.chain:
            node: Any = words
            for key in path:
                node = node.get(key) if isinstance(node, dict) else None
            if node is not None:
                return node
        return None

    # ---- cards ----------------------------------------------------------------------------------
    @property
    def pattern(self) -> str:
        return self.get("cards", "pattern") or ""

    def suit(self, suit: str | None, form: str = "name") -> str:
        if suit is None:
            return ""
        found = self.get("cards", "suits", suit, form)
        return found if isinstance(found, str) else str(suit)

    def card(self, card: str) -> str:
        """The card as a player reads it (`Ei-O`, `Q♣`); a face-down card `??` stays `??`."""
        if len(card) != 2 or card == "??":
            return card
        rank, suit = card[0], card[1]
        label = self.get("cards", "label")
        if not label:
            return card
        return label.replace("{rank}", self.get("cards", "ranks", rank) or rank) \
                    .replace("{suit}", self.suit(suit, "symbol"))

    def cards(self, cards: list[str]) -> str:
        """The cards' labels, or how many when the viewer may not see them (`3 cards`)."""
        if cards and not any(c == "??" for c in cards):
            return " ".join(self.card(c) for c in cards)
        n = len(cards)
        count = self.get("cards", "count", "one" if n == 1 else "other") or "{n}"
        return count.replace("{n}", str(n))

    # ---- templates ------------------------------------------------------------------------------
    def fill(self, template: str, values: dict, me: int | None) -> str:
        """`{field}` is the value as it is; `{field:seat}`, `{field:card}`, `{field:cards}` name
        seats and cards; any other form is that form of the suit the field holds."""
        def one(m: re.Match) -> str:
            value, form = values.get(m.group(1)), m.group(2)
            if value is None:
                return ""
            if form == "seat":
                return seat_name(value, me)
            if form == "card":
                return self.card(value)
            if form == "cards":
                return self.cards(list(value))
            if form:
                return self.suit(value, form)
            return str(value)
        return PLACEHOLDER.sub(one, template)

    # ---- calls, contracts, items, phases, teams -------------------------------------------------
    def call(self, action: dict, form: str, me: int | None = None) -> str:
        """A call or exchange in one of its forms: `name`, `said` (after a seat), `you`."""
        template = self.get("calls", action.get("type") or "", action.get("call") or "", form)
        if template is None:
            text = _raw(action.get("call", ""))
            if action.get("suit"):
                text += " " + self.suit(action["suit"])
            if action.get("type") == "exchange" and form != "name":
                text += " " + self.cards(list(action.get("cards") or []))
            return text
        return self.fill(template, action, me)

    def contract(self, contract: dict, me: int | None) -> str:
        """The contract as the game's words put it: its type's template, then each declared
        field the contract holds, in the declared order."""
        kind = contract.get("type", "")
        template = self.get("contracts", kind)
        out = self.fill(template, contract, me) if template is not None else _raw(kind)
        for field in self.get("contract_fields") or []:
            value = contract.get(field.get("field"))
            if value is None or value is False or value == "" or value == []:
                continue
            key = "true" if value is True else str(value)
            text = (field.get("values") or {}).get(key, field.get("text", ""))
            if text:
                text = self.fill(text, contract, me)
                out = out + field.get("join", "; ") + text if out else text
        return out

    def item(self, item: str) -> str:
        return self.get("items", item) or _raw(item)

    def phase(self, phase: str) -> str:
        return self.get("phases", phase) or _raw(phase)

    def team(self, team: str) -> str:
        return self.get("teams", team) or str(team).capitalize()


_WORDS: dict[str, Words] = {}                  # game -> its words, as learned from ListGames
_NO_WORDS = Words({})


def learn(game: str, words: dict | None) -> None:
    """Keep the words ListGames served for `game` (GameInfo.words, by language)."""
    _WORDS[game] = Words(words or {})


def words_of(game: str) -> Words:
    """The words of `game` (none learned: the engine's names)."""
    return _WORDS.get(game, _NO_WORDS)


# ---- cards ------------------------------------------------------------------------------------
def card_label(game: str, card: str) -> str:
    """The card as a player reads it: `Ei-O` (Eichel-Ober) in Schafkopf, `Q♣` elsewhere; a
    face-down card `??` stays `??`."""
    return words_of(game).card(card)


def card_text(game: str, card: str, dim: bool = False) -> Text:
    style = SUIT_STYLES.get(words_of(game).pattern, {}).get(card[-1:], "")
    return Text(card_label(game, card), style="dim" if dim else style)


def cards_text(game: str, cards: Iterable[str]) -> str:
    return " ".join(card_label(game, c) for c in cards)


def suit_name(game: str, suit: str) -> str:
    return words_of(game).suit(suit)


def suit_names(game: str, suit: str) -> set[str]:
    """Every way a suit may be typed: its code and each of its declared forms, lower case."""
    forms = words_of(game).get("cards", "suits", suit) or {}
    return {suit.lower()} | {v.lower() for v in forms.values() if isinstance(v, str)}


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
def call_words(game: str, action: dict) -> str:
    """A bid, announcement or exchange as a phrase (`calls the Gras-Sau`, `announces no 90`,
    `buries 2 cards`). The cards of an exchange are named only when the viewer may see them."""
    return words_of(game).call(action, "said")


def action_words(game: str, action: dict, me: int | None) -> str:
    """`seat 2 plays a Wenz`, `you play Ei-O`."""
    who = seat_name(action.get("seat"), me)
    if action.get("type") == "play":
        return f"{who} {'play' if who == 'you' else 'plays'} {card_label(game, action.get('card', '??'))}"
    return f"{who} {words_of(game).call(action, 'you' if who == 'you' else 'said', me)}"


def contract_words(game: str, contract: dict | None, me: int | None) -> str:
    """The contract of the deal as a sentence, with what is public of it (the called card, the
    partner once known, doublings); '' while nothing is decided."""
    if not contract:
        return ""
    return words_of(game).contract(contract, me)


def public_lines(view: dict) -> list[str]:
    """What the table knows besides the trick, for whichever of these the view holds:
    announcements, the teams, the blind while the viewer chooses what to put down, its buried
    cards, roem, a hand laid face up, tricks won."""
    game, me, pub = view["game"], view.get("seat"), view.get("public") or {}
    words = words_of(game)
    lines: list[str] = []
    said: dict[int, list[str]] = {}
    for a in pub.get("announcements") or []:
        said.setdefault(a["seat"], []).append(words.call({"type": "announce", "call": a["call"]}, "name", me))
    if said:
        lines.append("Announced: " + "; ".join(f"{seat_name(s, me)} {', '.join(c)}" for s, c in said.items()))
    teams = pub.get("teams")
    if isinstance(teams, dict) and teams.get("complete"):
        lines.append("; ".join(f"{words.team(k)}: {seats_words(v, me)}" for k, v in teams.items() if k != "complete"))
    elif isinstance(teams, list) and teams:
        lines.append("Teams: " + " vs ".join(seats_words(t, me) for t in teams))
    choosing = any(a.get("type") == "exchange" for a in view.get("legal") or [])
    if pub.get("blind") and choosing:
        lines.append("Blind picked up: " + cards_text(game, pub["blind"]))
    buried = pub.get("buried")
    if buried and not all(c == "??" for c in buried):
        lines.append("You buried: " + cards_text(game, buried))
    roem = pub.get("roem") or []
    if roem:
        lines.append("Roem: " + ", ".join(f"{words.item(r['item'])} {r['value']} "
                                         f"(trick {r.get('trick', 0) + 1})" for r in roem))
    shown = pub.get("shown")
    for hand in pub.get("shown_hands") or ([shown] if shown else []):   # several seats, or one
        lines.append(f"Face up, {seat_name(hand['seat'], me)}: " + cards_text(game, hand["cards"]))
    won = pub.get("tricks_won")
    if won and any(won):
        lines.append("Tricks won: " + ", ".join(f"{seat_name(s, me)} {n}" for s, n in enumerate(won)))
    return lines


# ---- the table --------------------------------------------------------------------------------
def trick_text(game: str, leader: int, cards: list[str], me: int | None, winner: int | None = None,
               seats: int = 4, by: list[int] | None = None) -> Text:
    """`seat 1 K♠  seat 2 A♠  you 9♠  → seat 2`: in play order (the first was led), then who
    took the trick. `by`: the seat of each card where it is known (`trick_seats`); else the
    leader and the seats to his left."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append("  ")
        seat = by[i] if by and i < len(by) else (leader + i) % seats
        text.append(f"{seat_name(seat, me)} ")
        text.append_text(card_text(game, card))
    if winner is not None:
        text.append(f"  → {seat_name(winner, me)}", style="bold")
    return text


def trick_seats(view: dict, n: int, after: int = 0) -> list[int] | None:
    """The seats that played a trick's `n` cards, read from the view's play actions (`after`:
    the plays that came after that trick); None without the actions. A seat that sits out the
    deal (six-handed Sheepshead's dealer_sits_out) plays no card, so these are not always the
    leader and the seats to his left."""
    plays = [a["seat"] for a in view.get("actions") or [] if a.get("type") == "play"]
    if len(plays) < n + after:
        return None
    return plays[len(plays) - after - n:len(plays) - after]


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
    parts.append(Text(f"{game.capitalize()} · deal {view['deal_number']} {match_length(view)} · "
                      f"dealer {dealer} · {words_of(game).phase(view['phase'])}", style="bold"))
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
    current = len(trick["cards"]) if trick and trick.get("cards") else 0
    if tricks and view.get("phase") == "play":
        leader, cards, winner = tricks[-1]
        line = Text(f"Trick {len(tricks)}: ")
        line.append_text(trick_text(game, leader, cards, me, winner, seats=n,
                                    by=trick_seats(view, len(cards), current)))
        parts.append(line)
    if current:
        line = Text(f"Trick {len(tricks) + 1}: ", style="bold")
        line.append_text(trick_text(game, trick["leader"], trick["cards"], me, seats=n,
                                    by=trick_seats(view, current)))
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
    trick = view.get("trick")
    current = len(trick["cards"]) if trick and trick.get("cards") else 0
    line = Text(f"Last trick (trick {len(tricks)}): ", style="bold")
    line.append_text(trick_text(view["game"], leader, cards, view.get("seat"), winner, seats_of(view),
                                by=trick_seats(view, len(cards), current)))
    return line


def item_words(game: str, item: str) -> str:
    """A breakdown item's name as the game words it: `no_90_failed_by_losers` -> `no 90 failed by losers`."""
    return words_of(game).item(item)


def _team_name(result: dict, team: Any, me: int | None) -> str:
    teams = result.get("teams") or []
    if isinstance(team, int) and 0 <= team < len(teams):
        return seats_words(teams[team], me)
    return "" if team is None else str(team)


def breakdown_table(game: str, result: dict, me: int | None) -> Table:
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
        cells = [item_words(game, r["item"])]
        if has_team:
            cells.append(_team_name(result, r.get("team"), me))
        cells += [count, "" if value is None else str(value)]
        table.add_row(*cells, style="bold" if r["item"] in ("total", "score") else "")
    return table


def match_length(match: dict) -> str:
    """How long the match runs, from a view or a score: "of 16" deals, or "(first to 1500)"
    when its game's options play to a target score (the server's `match_target`)."""
    if match.get("match_target"):
        return f"(first to {match['match_target']})"
    return f"of {match.get('deals_per_match')}"


def scores_table(result: dict | None, match_scores: list[int], me: int | None,
                 deals_finished: int | None = None, deals_per_match: int | None = None,
                 match_target: int = 0) -> Table:
    """Per seat: card points and score of this deal (when given) and the match total."""
    title = "Match totals"
    if deals_finished is not None:
        if match_target:
            title += f" after {deals_finished} deals, first to {match_target}"
        else:
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
        n = len(score["match_scores"])
        # the seats in a team play; one in none sat the deal out (dealer_sits_out)
        playing = set().union(*map(set, r.get("teams") or [])) or set(range(n))
        by = [s for s in ((leader + i) % n for i in range(n)) if s in playing]
        line = Text(f"Last trick (trick {len(tricks)}): ", style="bold")
        line.append_text(trick_text(game, leader, cards, me, winner, n,
                                    by=by if len(by) == len(cards) else None))
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
        parts.append(Text(f"Won by the {words_of(game).team(r['winner'])} side"))
    parts.append(breakdown_table(game, r, me))
    parts.append(scores_table(r, score["match_scores"], me, score.get("deals_finished"), score.get("deals_per_match"),
                              score.get("match_target", 0)))
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
