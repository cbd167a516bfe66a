"""Moves: the ``action`` enum, ``playerMove``, and a one-token move notation.

Notation (used by scenario files, failure messages and repro programs):

- ``draw`` -- DRAW_CARD
- ``end``  -- END_TURN
- ``3RH``  -- PLAY_CARD with the card 3RH from the current hand
- ``DRQ/G`` -- PLAY_CARD with the D, declaring the colour G (green)

A played card is named by what it looks like; it is found in the current
player's hand when the move is made.  Twins in one hand are interchangeable.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .cards import COLOR_LETTERS, COLOR_NAMES, Card, Color, NotationError, Value, parse_key


class Action(IntEnum):
    DRAW_CARD = 0
    PLAY_CARD = 1
    END_TURN = 2


@dataclass(frozen=True, slots=True)
class PlayerMove:
    """``playerMove``: an action, a card for PLAY_CARD, a colour for a D."""

    action: Action
    card: Card | None = None
    next_color: Color | None = None

    def __str__(self) -> str:
        if self.action == Action.DRAW_CARD:
            return "draw"
        if self.action == Action.END_TURN:
            return "end"
        text = str(self.card)
        if self.card is not None and self.card.value == Value.D and self.next_color is not None:
            text += "/" + COLOR_LETTERS[self.next_color]
        return text


@dataclass(frozen=True, slots=True)
class MoveSpec:
    """A move as written: the action, the look of the card, the declared colour."""

    action: Action
    card_key: tuple[int, int, int] | None = None
    next_color: Color | None = None

    @classmethod
    def parse(cls, token: str) -> MoveSpec:
        t = token.strip()
        low = t.lower()
        if low == "draw":
            return cls(Action.DRAW_CARD)
        if low == "end":
            return cls(Action.END_TURN)
        key, declared = parse_card_move(t)
        return cls(Action.PLAY_CARD, key, declared)

    def __str__(self) -> str:
        if self.action == Action.DRAW_CARD:
            return "draw"
        if self.action == Action.END_TURN:
            return "end"
        from .cards import format_key

        assert self.card_key is not None
        text = format_key(self.card_key)
        if self.next_color is not None:
            text += "/" + COLOR_LETTERS[self.next_color]
        return text

    def describe(self) -> str:
        """Plain words: ``plays 2 red hearts``, ``draws a card``."""
        if self.action == Action.DRAW_CARD:
            return "draws a card"
        if self.action == Action.END_TURN:
            return "ends the turn"
        from .cards import describe_key

        assert self.card_key is not None
        text = f"plays {describe_key(self.card_key)}"
        if self.next_color is not None:
            text += f" declaring {COLOR_NAMES[self.next_color]}"
        return text


def parse_card_move(token: str, d_name: str = "D") -> tuple[tuple[int, int, int], Color | None]:
    """A played card as written (``3RH``, ``DRQ/G``): its look and the colour declared, which a D (value 13,
    called ``d_name`` in the messages) must carry and no other card may.  Every edition's notation."""
    card_part, _, colour_part = token.partition("/")
    v, c, s = parse_key(card_part)
    declared: Color | None = None
    if colour_part:
        letter = colour_part.strip().upper()
        if len(letter) != 1 or letter not in COLOR_LETTERS:
            raise NotationError(f"move {token!r}: declared colour must be one of {COLOR_LETTERS}")
        declared = Color(COLOR_LETTERS.index(letter))
    if v == Value.D and declared is None:
        raise NotationError(f"move {token!r}: a {d_name} needs a declared colour, like {card_part}/G")
    if v != Value.D and declared is not None:
        raise NotationError(f"move {token!r}: only a {d_name} declares a colour")
    return (int(v), int(c), int(s)), declared


def parse_moves(text: str) -> list[MoveSpec]:
    """``"3RH end draw end"`` -> four MoveSpecs."""
    return [MoveSpec.parse(tok) for tok in text.split()]


def format_moves(moves: list[MoveSpec]) -> str:
    return " ".join(str(m) for m in moves)
