"""Cards as the records write them ("QC", "TH"), decks as index tables, and `CardSet`,
an immutable set of cards over one integer mask (python-chess's SquareSet, for cards).

A 32-card deck indexes card `rank + 8 * suit` (four-handed Sheepshead's 30 cards, without the
black sevens, in the same order with 7C and 7S left out); Doppelkopf's 24 faces index `rank + 6 * suit`
with the second copy 24 bits higher. Which copy a card is never leaves the engine: both
copies have the same code.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

SUITS = "CSHD"
RANKS = "ATKQJ987"
HIDDEN = "??"   # how a view shows a face-down card to a seat that may not see it
SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}


@dataclass(frozen=True)
class Deck:
    """A deck: the card code of every face, and how many copies of each face there are."""

    name: str
    faces: tuple[str, ...]
    copies: int = 1

    @property
    def size(self) -> int:
        return len(self.faces) * self.copies

    def code(self, index: int) -> str:
        return self.faces[index % len(self.faces)]

    def face_index(self, code: str) -> int:
        """The index of the first copy of a card code; ValueError for a bad code."""
        try:
            return self._index[code]
        except (KeyError, TypeError):
            shown = repr(code) if len(repr(code)) <= 40 else repr(code)[:37] + "..."
            raise ValueError(f"bad card code {shown}: a card is a rank of {RANKS} then a suit "
                             f"of {SUITS}, e.g. 'QC' or 'TH'") from None

    def copies_of(self, code: str) -> list[int]:
        first = self.face_index(code)
        return [first + k * len(self.faces) for k in range(self.copies)]

    def index_in(self, code: str, mask: int) -> int:
        """The index of a card with this code inside `mask` (the first copy held), or the first
        copy's index when none is held."""
        for i in self.copies_of(code):
            if mask >> i & 1:
                return i
        return self.face_index(code)

    def mask_of(self, codes: Iterable[str], within: int | None = None) -> int:
        """The mask of a multiset of codes; with `within`, copies are taken from that mask
        first. ValueError if a code is bad or a card is given more often than it exists."""
        mask = 0
        for code in codes:
            for i in self.copies_of(code):
                if not mask >> i & 1 and (within is None or within >> i & 1):
                    mask |= 1 << i
                    break
            else:
                for i in self.copies_of(code):
                    if not mask >> i & 1:
                        mask |= 1 << i
                        break
                else:
                    raise ValueError(f"card {code} given more often than the deck holds it")
        return mask

    def codes(self, mask: int) -> list[str]:
        """The codes of a mask's cards, lowest index first: a byte at a time from a table (a
        sampled world's hands are read this way, hundreds of times a decision)."""
        out: list[str] = []
        tables = self._byte_codes
        k = 0
        while mask:
            out += tables[k][mask & 255]
            mask >>= 8
            k += 1
        return out

    @property
    def full_mask(self) -> int:
        return (1 << self.size) - 1

    def __post_init__(self):
        object.__setattr__(self, "_index", {c: i for i, c in enumerate(self.faces)})
        # per byte k of a mask, the codes of each of its 256 values (Deck.codes)
        object.__setattr__(self, "_byte_codes", tuple(
            tuple(tuple(self.code(8 * k + i) for i in range(8) if byte >> i & 1 and 8 * k + i < self.size)
                  for byte in range(256))
            for k in range((self.size + 7) // 8)))


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


PIQUET = Deck("piquet32", tuple(r + s for s in SUITS for r in RANKS))
PIQUET_30 = Deck("piquet30", tuple(c for c in PIQUET.faces if c not in ("7C", "7S")))
DOPPELKOPF = Deck("doppelkopf48", tuple(r + s for s in SUITS for r in RANKS[:6]), copies=2)


class CardSet:
    """An immutable set (a multiset for Doppelkopf) of cards of one deck, stored as a mask."""

    __slots__ = ("mask", "deck")

    def __init__(self, cards: Iterable[str] | int = 0, deck: Deck = PIQUET):
        self.deck = deck
        self.mask = cards if isinstance(cards, int) else deck.mask_of(cards)

    def __iter__(self) -> Iterator[str]:
        return iter(self.deck.codes(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, code: str) -> bool:
        try:
            return any(self.mask >> i & 1 for i in self.deck.copies_of(code))
        except ValueError:
            return False

    def __eq__(self, other) -> bool:
        return isinstance(other, CardSet) and self.deck == other.deck and self.mask == other.mask

    def __hash__(self) -> int:
        return hash((self.deck.name, self.mask))

    def __or__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask | other.mask, self.deck)

    def __and__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask & other.mask, self.deck)

    def __sub__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask & ~other.mask, self.deck)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __int__(self) -> int:
        return self.mask

    def __repr__(self) -> str:
        return f"CardSet({list(self)!r})"
