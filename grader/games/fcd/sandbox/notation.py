"""What the sandbox side knows of Final Card-Down's notation: a card's key (``5RH``), a move as written (``draw``,
``DRQ/G``, 2017's ``uno``), and the edition's actions, read from its Game.h (``actions``).

The reference (``reference.cards``, ``reference.moves``, ``reference.fcd17s2.moves``) is the notation's one
definition; the sandbox may not import it (it must hold nothing that knows the answers), so this is the least
of it the jobs need: spelling and parsing what the trusted side wrote.  ``tests/core/test_sandbox_layout.py``
proves it agrees with the reference on every card key and every move of both editions, both ways.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Callable

from grader.core.sandbox.native import Api

VALUE_DIGITS, COLOR_LETTERS, SUIT_LETTERS = "0123456789ABCDEF", "RBGYP", "HDCSQ"
D = 13  # the value that declares a colour (2018's D, 2017's DECLARE)
# The words of the notation, by the header's name of their action (a card is its key).
WORD_OF_ACTION = {"DRAW_CARD": "draw", "END_TURN": "end", "SAY_UNO": "uno", "SAY_DUO": "duo", "SAY_TRIO": "trio"}
# isValidMove of a move that is a word of the notation: drawing and ending the turn in both editions,
# the three calls of 2017 in one observation.
_VALIDITY_OF_WORD = {"draw": "valid_draw", "end": "valid_end", "uno": "valid_say", "duo": "valid_say",
                     "trio": "valid_say"}

CardKey = tuple[int, int, int]


def format_key(key: tuple[int, ...] | list[int]) -> str:
    """``(5, 0, 0)`` -> ``5RH``."""
    v, c, s = key[:3]
    return VALUE_DIGITS[v] + COLOR_LETTERS[c] + SUIT_LETTERS[s]


def parse_key(text: str) -> CardKey:
    """``5RH`` -> ``(5, 0, 0)`` (what the trusted side wrote: a key the reference made)."""
    t = text.strip().upper()
    if len(t) != 3:
        raise ValueError(f"no card {text!r}")
    return VALUE_DIGITS.index(t[0]), COLOR_LETTERS.index(t[1]), SUIT_LETTERS.index(t[2])


def validity_field(label: str) -> str:
    """Which observation holds isValidMove for a move written in the notation (``draw``, ``5RH``)."""
    return _VALIDITY_OF_WORD.get(label.lower(), "valid_play")


def actions(api: Api) -> Any:
    """The edition's ``action`` enum (an ``IntEnum``), as its Game.h declares it (made when the module is
    imported, so a type checker does not know its members: ``Any``)."""
    members = sorted(api.ffi().typeof("action").relements.items(), key=lambda kv: kv[1])
    return IntEnum("Action", members)


@dataclass(frozen=True, slots=True)
class WrittenMove:
    """A move as written: the action, the look of the card, the colour declared (the reference's ``MoveSpec``)."""

    action: int
    card_key: CardKey | None = None
    next_color: int | None = None
    word: str = ""  # the notation of a move that is no card

    def __str__(self) -> str:
        if self.card_key is None:
            return self.word
        return format_key(self.card_key) + ("" if self.next_color is None else "/" + COLOR_LETTERS[self.next_color])


@dataclass(frozen=True, slots=True)
class PlayerMove:
    """``playerMove`` as the observer and the loader make it: an action, a library's card, a declared colour."""

    action: int
    card: object = None
    next_color: int | None = None


def move_parser(action: type[IntEnum]) -> Callable[[str], WrittenMove]:
    """An edition's move notation, its actions being ``action`` (``actions``): a token -> its ``WrittenMove``."""
    by_word = {word: a for a in action if (word := WORD_OF_ACTION.get(a.name))}

    def parse(token: str) -> WrittenMove:
        t = token.strip()
        if t.lower() in by_word:
            return WrittenMove(by_word[t.lower()], word=t.lower())
        card, _, declared = t.partition("/")
        return WrittenMove(action["PLAY_CARD"], parse_key(card),
                           COLOR_LETTERS.index(declared.strip().upper()) if declared else None)

    return parse
