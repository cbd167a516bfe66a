"""Cards: the Card.h enums with their exact C values, and a one-token notation.

A card is written as three characters: value (hex digit ``0``-``F``), colour
(``R B G Y P``) and suit (``H D C S Q``).  ``"2RH"`` is the red 2 of hearts,
``"DPQ"`` the purple D of questions.  A deck is those tokens separated by
white space.  ``Card.parse(str(card))`` rebuilds an equal-looking card.

Cards compare by identity, as ``Card`` pointers do in C: the traditional deck
holds two of every card, and the twins are different cards.  ``card.key`` is
the (value, colour, suit) triple for comparing hands as multisets.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable


class Color(IntEnum):
    RED = 0
    BLUE = 1
    GREEN = 2
    YELLOW = 3
    PURPLE = 4


class Suit(IntEnum):
    HEARTS = 0
    DIAMONDS = 1
    CLUBS = 2
    SPADES = 3
    QUESTIONS = 4


class Value(IntEnum):
    ZERO = 0
    ONE = 1
    DRAW_TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    A = 10
    B = 11
    C = 12
    D = 13
    E = 14
    F = 15


COLOR_LETTERS = "RBGYP"
SUIT_LETTERS = "HDCSQ"
VALUE_DIGITS = "0123456789ABCDEF"

COLOR_NAMES = ("red", "blue", "green", "yellow", "purple")
SUIT_NAMES = ("hearts", "diamonds", "clubs", "spades", "questions")

CardKey = tuple[int, int, int]
"""(value, colour, suit): what a card looks like, without its identity."""


class NotationError(ValueError):
    """A card or deck written in a notation this module cannot read."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card.  Equality is identity: twins are different cards."""

    value: Value
    color: Color
    suit: Suit

    @property
    def key(self) -> CardKey:
        return (int(self.value), int(self.color), int(self.suit))

    @classmethod
    def parse(cls, token: str) -> Card:
        return cls(*parse_key(token))

    def __str__(self) -> str:
        return format_key(self.key)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def describe(self) -> str:
        """Plain words for a failure message: ``2 red hearts``."""
        return describe_key(self.key)


def parse_key(token: str) -> tuple[Value, Color, Suit]:
    """``"2RH"`` -> ``(Value.DRAW_TWO, Color.RED, Suit.HEARTS)``."""
    t = token.strip().upper()
    if len(t) != 3:
        raise NotationError(f"card {token!r}: expected 3 characters, value colour suit, like 2RH")
    v, c, s = t[0], t[1], t[2]
    if v not in VALUE_DIGITS:
        raise NotationError(f"card {token!r}: value must be a hex digit 0-F")
    if c not in COLOR_LETTERS:
        raise NotationError(f"card {token!r}: colour must be one of {COLOR_LETTERS}")
    if s not in SUIT_LETTERS:
        raise NotationError(f"card {token!r}: suit must be one of {SUIT_LETTERS}")
    return Value(VALUE_DIGITS.index(v)), Color(COLOR_LETTERS.index(c)), Suit(SUIT_LETTERS.index(s))


def format_key(key: Iterable[int]) -> str:
    v, c, s = key
    return VALUE_DIGITS[v] + COLOR_LETTERS[c] + SUIT_LETTERS[s]


def describe_key(key: Iterable[int]) -> str:
    v, c, s = key
    return f"{VALUE_DIGITS[v]} {COLOR_NAMES[c]} {SUIT_NAMES[s]}"


@dataclass(frozen=True, slots=True)
class Deck:
    """The three parallel arrays ``newGame`` takes; index 0 is the top."""

    values: tuple[Value, ...]
    colors: tuple[Color, ...]
    suits: tuple[Suit, ...]

    def __post_init__(self) -> None:
        if not len(self.values) == len(self.colors) == len(self.suits):
            raise ValueError("values, colors and suits must have the same length")

    def __len__(self) -> int:
        return len(self.values)

    @property
    def keys(self) -> list[CardKey]:
        return [(int(v), int(c), int(s)) for v, c, s in zip(self.values, self.colors, self.suits)]

    @classmethod
    def from_keys(cls, keys: Iterable[Iterable[int]]) -> Deck:
        triples = [tuple(k) for k in keys]
        return cls(
            tuple(Value(t[0]) for t in triples),
            tuple(Color(t[1]) for t in triples),
            tuple(Suit(t[2]) for t in triples),
        )

    @classmethod
    def parse(cls, text: str) -> Deck:
        return cls.from_keys(parse_key(tok) for tok in text.split())

    def __str__(self) -> str:
        return " ".join(format_key(k) for k in self.keys)


def traditional_deck() -> Deck:
    """The 800-card deck of the rules (R1): 16 values x 5 suits x 5 colours x 2."""
    return Deck.from_keys(
        (v, c, s) for _copy in range(2) for v in Value for c in Color for s in Suit
    )
