"""What the sandbox side knows of Palace's notation: a card's key (``5H``), a setup as written (``2p mirror: 5H
6D ...``), a move as written (``up:5H,6D,KS``, ``5H,5D@12``, ``blind:1``, ``pickup``), the ``playerMove`` the
jobs make, and the header's values they count with (``MAX_SET``, ``TABLE_CARDS``, ``HAND_DEAL``, ``action``).

The reference (``reference.palace``: ``header``, ``cards``, ``moves``) is the notation's one definition; the
sandbox may not import it (it must hold nothing that knows the answers), so this is the least of it the jobs
need: reading what the trusted side wrote (a setup the reference checked, moves it made) and spelling a move a
player chose.  No contract checks (a setup here was checked where it was written), no rules.
``tests/core/test_sandbox_layout.py`` proves it agrees with the reference on every card key, on setups and on
every kind of move, both ways.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple, Protocol

# Palace.h's macros (rules-palace.md §1.2)
HAND_DEAL = 6  # cards dealt to each hand
TABLE_CARDS = 3  # face-down cards per seat, and face-up cards chosen
MAX_SET = 8  # the most cards one move may name

RANK_LETTERS = "23456789TJQKA"  # index + 2 = rank
SUIT_LETTERS = "HDCS"  # index = suit
RULE_WORDS = {"mirror": 1, "seven": 2}  # RULE_MIRROR_THREE, RULE_SEVEN_LOWER; "basic" is none of them
PICK_UP, CHOOSE_PREFIX, BLIND_PREFIX = "pickup", "up:", "blind:"

CardKey = tuple[int, int]  # (rank, suit): what a card looks like


class Action(IntEnum):
    """Palace.h's ``action`` of a ``playerMove``."""

    CHOOSE_FACE_UP = 0
    PLAY_CARDS = 1
    PLAY_FACE_DOWN = 2
    PICK_UP_PILE = 3


def format_key(key: tuple[int, int]) -> str:
    """``(10, 0)`` -> ``TH``."""
    rank, suit = key
    return RANK_LETTERS[rank - 2] + SUIT_LETTERS[suit]


def parse_key(text: str) -> CardKey:
    """``TH`` (or ``th``) -> ``(10, 0)``."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in RANK_LETTERS or t[1] not in SUIT_LETTERS:
        raise ValueError(f"no card {text!r}")
    return RANK_LETTERS.index(t[0]) + 2, SUIT_LETTERS.index(t[1])


def _parse_cards(text: str) -> tuple[CardKey, ...]:
    """``5H 9S*3`` -> the keys, a repeat ``CARD*k`` expanded."""
    out: list[CardKey] = []
    for token in text.split():
        card, star, count = token.partition("*")
        out.extend([parse_key(card)] * (int(count) if star else 1))
    return tuple(out)


def _parse_rules(text: str) -> int:
    word = text.strip().lower()
    return 0 if word == "basic" else sum(RULE_WORDS[part] for part in set(word.split("+")))


_SETUP = re.compile(r"^\s*(\d+)p\s+([a-z+]+)\s*:(.*)$", re.IGNORECASE | re.DOTALL)


class Dealt(Protocol):
    """What the jobs read of a setup (this module's ``Setup``, or the reference's on the trusted side)."""

    @property
    def n_players(self) -> int: ...

    @property
    def deck(self) -> tuple[CardKey, ...]: ...

    @property
    def n_cards(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Setup:
    """What newGame is given, as the trusted side wrote it (the reference's ``Setup``): players, rules, deck."""

    n_players: int
    rules: int
    deck: tuple[CardKey, ...]

    @classmethod
    def parse(cls, text: str) -> Setup:
        m = _SETUP.match(text)
        if m is None:
            raise ValueError(f"no setup {text[:40]!r}")
        return cls(int(m.group(1)), _parse_rules(m.group(2)), _parse_cards(m.group(3)))

    @property
    def n_cards(self) -> int:
        return len(self.deck)

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(r for r, _s in self.deck)

    @property
    def suits(self) -> tuple[int, ...]:
        return tuple(s for _r, s in self.deck)


class CardRef(NamedTuple):
    """A card as written in a move: rank, suit and, optionally, its identity (its deck index, ``5H@12``)."""

    rank: int
    suit: int
    ident: int | None = None

    @classmethod
    def parse(cls, text: str) -> CardRef:
        key, at, ident = text.strip().partition("@")
        rank, suit = parse_key(key)
        return cls(rank, suit, int(ident) if at else None)

    def __str__(self) -> str:
        return format_key((self.rank, self.suit)) + ("" if self.ident is None else f"@{self.ident}")


@dataclass(frozen=True, slots=True)
class MoveSpec:
    """A move as written (the reference's ``MoveSpec``): the action, its cards as written, a face-down position."""

    action: Action
    cards: tuple[CardRef, ...] = ()
    face_down_index: int = 0

    @classmethod
    def parse(cls, token: str) -> MoveSpec:
        t = token.strip()
        if t.lower() == PICK_UP:
            return cls(Action.PICK_UP_PILE)
        if t.lower().startswith(BLIND_PREFIX):
            return cls(Action.PLAY_FACE_DOWN, (), int(t[len(BLIND_PREFIX):]))
        action = Action.PLAY_CARDS
        if t.lower().startswith(CHOOSE_PREFIX):
            action, t = Action.CHOOSE_FACE_UP, t[len(CHOOSE_PREFIX):]
        return cls(action, tuple(CardRef.parse(part) for part in t.split(",")))

    def __str__(self) -> str:
        if self.action == Action.PICK_UP_PILE:
            return PICK_UP
        if self.action == Action.PLAY_FACE_DOWN:
            return f"{BLIND_PREFIX}{self.face_down_index}"
        cards = ",".join(str(r) for r in self.cards)
        return CHOOSE_PREFIX + cards if self.action == Action.CHOOSE_FACE_UP else cards


@dataclass(frozen=True, slots=True)
class PlayerMove:
    """``playerMove`` as the jobs make it (the reference's ``PlayerMove``, which reads it the same way): an action
    (any int, C40), cards -- a library's, or the reference's on the trusted side; None for NULL --, a face-down
    position, and ``numCards`` when it is not ``len(cards)``."""

    action: int
    cards: tuple[object, ...] = ()
    face_down_index: int = 0
    num_cards: int | None = None

    @property
    def count(self) -> int:
        """``numCards`` as the C struct holds it."""
        return len(self.cards) if self.num_cards is None else self.num_cards

    def entries(self) -> tuple[object, ...]:
        """The first ``numCards`` entries (NULL, None, past the cards given); () for a count of 0 or less."""
        n = self.count
        given = self.cards[:n] if n > 0 else ()
        return given + (None,) * max(0, n - len(given))


__all__ = ["HAND_DEAL", "MAX_SET", "TABLE_CARDS", "Action", "CardKey", "CardRef", "Dealt", "MoveSpec", "PlayerMove",
           "Setup", "format_key", "parse_key"]
