"""The legal actions of a view as choices a player can make by number or by typing.

Cards get the numbers under the hand (legal ones only; every card of the hand when a set of
cards is to be chosen, for a Sheepshead bury or a Doppelkopf Armut return); calls and single
exchanges are numbered after them. A set of cards is typed in any order, by numbers or names
(`3 7`, `KS AH`, `Ei-O Gr-O`), matched as a multiset against the legal exchanges, so no menu
of every pair is ever listed.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rich.text import Text

from .table_view import call_words, card_label, suit_names, words_of

COMMANDS = ("help", "hint", "last", "quit")


@dataclass
class Choice:
    number: int
    label: str
    action: dict


@dataclass
class Menu:
    """The choices of one view. `card_numbers`: hand index -> number; `picks`: the exchange
    call whose cards are chosen from the hand, with how many (None when there is none)."""
    game: str
    hand: list[str]
    legal: list[dict]
    choices: list[Choice] = field(default_factory=list)
    card_numbers: dict[int, int] = field(default_factory=dict)
    picks: tuple[str, int] | None = None

    @classmethod
    def of(cls, view: dict) -> "Menu":
        menu = cls(view["game"], list(view["hand"]), list(view["legal"]))
        exchanges = [a for a in menu.legal if a.get("type") == "exchange"]
        sets = {(a["call"], len(a["cards"])) for a in exchanges}
        number = 0
        if len(exchanges) > 1 and len(sets) == 1:
            menu.picks = next(iter(sets))
            for i in range(len(menu.hand)):
                number += 1
                menu.card_numbers[i] = number
        else:
            legal_cards = {a["card"]: a for a in menu.legal if a.get("type") == "play"}
            numbered: dict[str, int] = {}
            for i, card in enumerate(menu.hand):
                if card in legal_cards:
                    if card not in numbered:               # a Doppelkopf twin gets its twin's number
                        number += 1
                        numbered[card] = number
                        menu.choices.append(Choice(number, card_label(menu.game, card), legal_cards[card]))
                    menu.card_numbers[i] = numbered[card]
        for a in menu.legal:
            if a.get("type") == "play" or (menu.picks and a.get("type") == "exchange"):
                continue
            number += 1
            menu.choices.append(Choice(number, call_words(menu.game, a), a))
        return menu

    def verb(self, call: str) -> str:
        """What choosing cards for an exchange does (`bury`, `give back`): the exchange's name."""
        return words_of(self.game).call({"type": "exchange", "call": call}, "name").strip()

    # ---- what the player reads ----------------------------------------------------------------
    def prompt(self) -> str:
        if self.picks:
            call, k = self.picks
            return f"{self.verb(call)} {k} card{'s' if k != 1 else ''}> "
        return "your choice> "

    def render(self) -> Text:
        text = Text()
        cards = [c for c in self.choices if c.action.get("type") == "play"]
        if cards:
            text.append("Play a card: its number under the hand, or its name\n")
        for c in self.choices:
            if c.action.get("type") == "play":
                continue
            text.append(f"  [{c.number}] ", style="cyan")
            text.append(c.label + "\n")
        if self.picks:
            call, k = self.picks
            text.append(f"Choose {k} card{'s' if k != 1 else ''} to {self.verb(call)}: their numbers under "
                        f"the hand or their names, in any order (e.g. {' '.join(str(i + 1) for i in range(k))})\n")
        text.append("(help, hint, last, quit)", style="dim")
        return text

    # ---- what the player typed ----------------------------------------------------------------
    def parse(self, typed: str) -> dict | str | tuple[str, str]:
        """The action chosen, a command name (`help`, `last`, ...), or ("error", what is wrong
        and what is allowed)."""
        text = typed.strip()
        low = text.lower()
        if low in COMMANDS:
            return low
        if not text:
            return ("error", self.usage())
        by_number = {c.number: c for c in self.choices}
        tokens = text.replace(",", " ").split()
        if self.picks:
            call, k = self.picks
            words = [t for t in tokens if t.lower() not in (call.lower(), call.replace("_", "").lower())]
            if len(words) == 1 and words[0].isdigit() and int(words[0]) in by_number and k != 1:
                return by_number[int(words[0])].action
            if len(words) == k or (k == 1 and len(words) == 1):
                cards = [self.card_of(w, any_card=True) for w in words]
                if all(cards):
                    for a in self.legal:
                        if a.get("type") == "exchange" and Counter(a["cards"]) == Counter(cards):
                            return a
                    return ("error", f"you cannot {self.verb(call)} {' '.join(card_label(self.game, c) for c in cards)}"
                                     f"{self._exchange_reason(cards)}")
            return ("error", f"choose {k} cards of your hand by number (1..{len(self.hand)}) or name, e.g. "
                             f"{' '.join(str(i + 1) for i in range(k))}")
        if len(tokens) == 1 and tokens[0].isdigit():
            n = int(tokens[0])
            if n in by_number:
                return by_number[n].action
            return ("error", self.usage())
        card = self.card_of(text) if len(tokens) == 1 else None
        if card:
            for c in self.choices:
                if c.action.get("card") == card:
                    return c.action
            if card in self.hand:
                return ("error", f"{card_label(self.game, card)} is not allowed now; " + self.usage())
        for c in self.choices:
            if self._matches(c, low):
                return c.action
        return ("error", f"{text!r} is not one of your choices; " + self.usage())

    def usage(self) -> str:
        numbers = [c.number for c in self.choices]
        span = f"1..{max(numbers)}" if numbers else "none"
        return f"choose a number ({span}), type a card or call as shown, or help"

    def card_of(self, word: str, any_card: bool = False) -> str | None:
        """The card a typed word names: a number under the hand (in a card choice), the engine
        code (QC, TH), the label (Q♣, 10♥, Ei-O, Sch-10)."""
        if word.isdigit():
            if not any_card:
                return None
            n = int(word)
            for i, number in self.card_numbers.items():
                if number == n:
                    return self.hand[i]
            return None
        w = word.strip().upper().replace("-", "")
        for card in set(self.hand):
            label = card_label(self.game, card).upper().replace("-", "")
            if w in (card.upper(), label, label.replace("10", "T")) or (w.startswith("10") and card == "T" + w[2:]):
                return card
        return None

    def _exchange_reason(self, cards: list[str]) -> str:
        missing = Counter(cards) - Counter(self.hand)
        if missing:
            return f": you hold only {', '.join(card_label(self.game, c) for c in self.hand)}"
        return ""

    def _matches(self, choice: Choice, low: str) -> bool:
        """A call typed by name: `pass`, `wenz`, `no 90`, `rufspiel gras`, `farbsolo herz`,
        `trump hearts`, or the words shown."""
        a = choice.action
        if choice.label.lower() == low:
            return True
        call = a.get("call", "").lower()
        words = low.replace("-", " ").split()
        suit = a.get("suit")
        if suit is None:
            return "_".join(words) == call
        return len(words) >= 2 and "_".join(words[:-1]) == call and words[-1] in suit_names(self.game, suit)
