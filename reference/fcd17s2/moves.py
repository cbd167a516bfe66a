"""Moves of 2017: the ``action`` enum (0..5), ``playerMove``, and a one-token notation.

Notation, as for 2018 (``reference.moves``) plus one word per call:

- ``draw`` -- DRAW_CARD;  ``end`` -- END_TURN
- ``uno`` / ``duo`` / ``trio`` -- SAY_UNO / SAY_DUO / SAY_TRIO
- ``3RH`` -- PLAY_CARD with the card 3RH from the current hand
- ``DRQ/G`` -- PLAY_CARD with the DECLARE, declaring green

Words are read in any case and written in lower case, so ``str(MoveSpec.parse(t)) == t``
for every canonical token.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..cards import COLOR_LETTERS, COLOR_NAMES, Card, Color, Value, describe_key, format_key
from ..moves import parse_card_move


class Action(IntEnum):
    DRAW_CARD = 0
    PLAY_CARD = 1
    SAY_UNO = 2
    SAY_DUO = 3
    SAY_TRIO = 4
    END_TURN = 5


SAYS = (Action.SAY_UNO, Action.SAY_DUO, Action.SAY_TRIO)
SAID_COUNT = {Action.SAY_UNO: 1, Action.SAY_DUO: 2, Action.SAY_TRIO: 3}  # the hand size each word claims (S16)
SAY_FOR_COUNT = {n: a for a, n in SAID_COUNT.items()}
WORDS = {Action.DRAW_CARD: "draw", Action.END_TURN: "end",
         Action.SAY_UNO: "uno", Action.SAY_DUO: "duo", Action.SAY_TRIO: "trio"}
ACTION_OF_WORD = {w: a for a, w in WORDS.items()}
PLAIN_WORDS = {Action.DRAW_CARD: "draws a card", Action.END_TURN: "ends the turn",
               Action.SAY_UNO: "says UNO", Action.SAY_DUO: "says DUO", Action.SAY_TRIO: "says TRIO"}


def _card_text(key: tuple[int, int, int], next_color: Color | None) -> str:
    text = format_key(key)
    if key[0] == Value.D and next_color is not None:
        text += "/" + COLOR_LETTERS[next_color]
    return text


@dataclass(frozen=True, slots=True)
class PlayerMove:
    """``playerMove``: an action, a card for PLAY_CARD, a colour for a DECLARE."""

    action: Action
    card: Card | None = None
    next_color: Color | None = None

    def __str__(self) -> str:
        if self.action != Action.PLAY_CARD:
            return WORDS[self.action]
        if self.card is None:
            return "?"
        return _card_text(self.card.key, self.next_color)

    def spec(self) -> MoveSpec:
        """The move as written (what the card looks like, not which card it is)."""
        if self.action != Action.PLAY_CARD:
            return MoveSpec(self.action)
        assert self.card is not None
        colour = self.next_color if self.card.value == Value.D else None
        return MoveSpec(Action.PLAY_CARD, self.card.key, colour)


@dataclass(frozen=True, slots=True)
class MoveSpec:
    """A move as written: the action, the look of the card, the declared colour."""

    action: Action
    card_key: tuple[int, int, int] | None = None
    next_color: Color | None = None

    @classmethod
    def parse(cls, token: str) -> MoveSpec:
        t = token.strip()
        word = ACTION_OF_WORD.get(t.lower())
        if word is not None:
            return cls(word)
        key, declared = parse_card_move(t, d_name="DECLARE")
        return cls(Action.PLAY_CARD, key, declared)

    def __str__(self) -> str:
        if self.action != Action.PLAY_CARD:
            return WORDS[self.action]
        assert self.card_key is not None
        return _card_text(self.card_key, self.next_color)

    def describe(self) -> str:
        """Plain words: ``plays D red hearts declaring green``, ``says UNO``."""
        if self.action != Action.PLAY_CARD:
            return PLAIN_WORDS[self.action]
        assert self.card_key is not None
        text = f"plays {describe_key(self.card_key)}"
        if self.next_color is not None:
            text += f" declaring {COLOR_NAMES[self.next_color]}"
        return text


def parse_moves(text: str) -> list[MoveSpec]:
    """``"CRH uno 5RH end"`` -> four MoveSpecs."""
    return [MoveSpec.parse(tok) for tok in text.split()]


def format_moves(moves: list[MoveSpec]) -> str:
    return " ".join(str(m) for m in moves)
