"""Palace moves: ``PlayerMove`` (the C ``playerMove``, cards by identity) and ``MoveSpec`` (a move as written).

One token per move, tokens separated by white space in a move list:

- ``up:5H,6D,KS`` -- CHOOSE_FACE_UP with those three hand cards
- ``5H`` or ``5H,5D`` -- PLAY_CARDS with that set (from the hand, or from the face-up row once the hand is empty)
- ``blind:1`` -- PLAY_FACE_DOWN at face-down position 1
- ``pickup`` -- PICK_UP_PILE

A card may carry its identity (its deck index, C4): ``5H@12``.  ``Game.resolve`` turns a written move into
a ``PlayerMove``: a card with an identity is that card of the game, wherever it lies; a plain card is the
lowest deck index of that rank and suit in the mover's zone that the same move has not named already.
``str(MoveSpec.parse(t)) == t`` for every canonical token (upper-case cards, lower-case words);
``str(PlayerMove)`` names every card with its identity, and ``Game.written`` drops the identities a plain
token would resolve to anyway.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, NamedTuple

from .cards import Card, format_key, parse_key
from .errors import NotationError
from .header import Action

WORDS = {Action.PICK_UP_PILE: "pickup"}
CHOOSE_PREFIX = "up:"
BLIND_PREFIX = "blind:"
_BLIND = re.compile(r"^blind:(-?\d+)$", re.IGNORECASE)
_REF = re.compile(r"^([2-9TJQKA][HDCS])(?:@(\d+))?$", re.IGNORECASE)


class CardRef(NamedTuple):
    """A card as written in a move: rank, suit and, optionally, its identity."""

    rank: int
    suit: int
    ident: int | None = None

    @classmethod
    def parse(cls, text: str) -> CardRef:
        m = _REF.match(text.strip())
        if m is None:
            raise NotationError(f"card {text!r} in a move: expected a card like 5H or 5H@12")
        rank, suit = parse_key(m.group(1))
        return cls(int(rank), int(suit), None if m.group(2) is None else int(m.group(2)))

    @classmethod
    def of(cls, card: Card, *, explicit: bool = True) -> CardRef:
        return cls(int(card.rank), int(card.suit), card.ident if explicit else None)

    def __str__(self) -> str:
        return format_key((self.rank, self.suit)) + ("" if self.ident is None else f"@{self.ident}")


def _card_list(refs: Iterable[object]) -> str:
    return ",".join("NULL" if r is None else repr(r) for r in refs)


@dataclass(frozen=True, slots=True)
class PlayerMove:
    """``playerMove``: an action (any int, C40), cards by identity, a face-down position.

    ``numCards`` is ``len(cards)`` unless ``num_cards`` says otherwise: a malformed move (C40) may claim
    more cards than it names (the missing entries are NULL) or a count of zero or less.  ``None`` in
    ``cards`` is a NULL entry.  Fields the action ignores are ignored (§1.2).
    """

    action: int
    cards: tuple[Card | None, ...] = ()
    face_down_index: int = 0
    num_cards: int | None = None

    @classmethod
    def choose(cls, *cards: Card) -> PlayerMove:
        return cls(Action.CHOOSE_FACE_UP, tuple(cards))

    @classmethod
    def play(cls, *cards: Card) -> PlayerMove:
        return cls(Action.PLAY_CARDS, tuple(cards))

    @classmethod
    def blind(cls, index: int) -> PlayerMove:
        return cls(Action.PLAY_FACE_DOWN, (), index)

    @classmethod
    def pick_up(cls) -> PlayerMove:
        return cls(Action.PICK_UP_PILE)

    @property
    def count(self) -> int:
        """``numCards`` as the C struct would hold it."""
        return len(self.cards) if self.num_cards is None else self.num_cards

    def entries(self) -> tuple[Card | None, ...]:
        """The first ``numCards`` entries of ``cards`` (NULL beyond what was given); () for a count ≤ 0."""
        n = self.count
        given = self.cards[:n] if n > 0 else ()
        return given + (None,) * max(0, n - len(given))

    def spec(self, *, explicit: bool = True) -> MoveSpec:
        """The move as written; with ``explicit`` every card carries its identity."""
        if self.action == Action.CHOOSE_FACE_UP or self.action == Action.PLAY_CARDS:
            if not all(isinstance(c, Card) for c in self.cards) or self.num_cards is not None:
                raise NotationError("a malformed move (NULL entries or a numCards of its own) has no token")
            return MoveSpec(Action(self.action), tuple(CardRef.of(c, explicit=explicit) for c in self.cards
                                                       if c is not None))
        if self.action == Action.PLAY_FACE_DOWN:
            return MoveSpec(Action.PLAY_FACE_DOWN, (), self.face_down_index)
        if self.action == Action.PICK_UP_PILE:
            return MoveSpec(Action.PICK_UP_PILE)
        raise NotationError(f"action {self.action!r} is outside the enum: no token")

    def __str__(self) -> str:
        """The token with identities, or a description of a malformed move."""
        try:
            return str(self.spec())
        except NotationError:
            count = "" if self.num_cards is None else f" numCards={self.num_cards}"
            return f"<action {self.action}{count} cards [{_card_list(self.cards)}] index {self.face_down_index}>"


@dataclass(frozen=True, slots=True)
class MoveSpec:
    """A move as written: the action, the cards as written, the face-down position."""

    action: Action
    cards: tuple[CardRef, ...] = ()
    face_down_index: int = 0

    @classmethod
    def parse(cls, token: str) -> MoveSpec:
        t = token.strip()
        low = t.lower()
        if low == WORDS[Action.PICK_UP_PILE]:
            return cls(Action.PICK_UP_PILE)
        m = _BLIND.match(t)
        if m is not None:
            return cls(Action.PLAY_FACE_DOWN, (), int(m.group(1)))
        action = Action.PLAY_CARDS
        if low.startswith(CHOOSE_PREFIX):
            action, t = Action.CHOOSE_FACE_UP, t[len(CHOOSE_PREFIX):]
        if not t or " " in t:
            raise NotationError(f"move {token!r}: expected pickup, blind:N, up:CARDS or CARDS (cards joined by ,)")
        return cls(action, tuple(CardRef.parse(part) for part in t.split(",")))

    def __str__(self) -> str:
        if self.action == Action.PICK_UP_PILE:
            return WORDS[Action.PICK_UP_PILE]
        if self.action == Action.PLAY_FACE_DOWN:
            return f"{BLIND_PREFIX}{self.face_down_index}"
        cards = ",".join(str(r) for r in self.cards)
        return CHOOSE_PREFIX + cards if self.action == Action.CHOOSE_FACE_UP else cards

    def describe(self) -> str:
        """Plain words: ``plays 5H,5D``, ``turns face-down card 1``."""
        if self.action == Action.PICK_UP_PILE:
            return "takes the pile"
        if self.action == Action.PLAY_FACE_DOWN:
            return f"turns face-down card {self.face_down_index}"
        verb = "lays face up" if self.action == Action.CHOOSE_FACE_UP else "plays"
        return f"{verb} {','.join(str(r) for r in self.cards)}"


def parse_moves(text: str) -> list[MoveSpec]:
    """``"up:5H,6D,KS 5H,5D pickup blind:0"`` -> four MoveSpecs."""
    return [MoveSpec.parse(tok) for tok in text.split()]


def format_moves(moves: Iterable[MoveSpec | PlayerMove]) -> str:
    return " ".join(str(m) for m in moves)


Move = PlayerMove  # the name the brief and the grader use

__all__ = ["CardRef", "Move", "MoveSpec", "PlayerMove", "format_moves", "parse_moves"]
