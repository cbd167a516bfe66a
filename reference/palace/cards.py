"""Palace cards and deals: ``Card`` (PalaceCard.h), a one-token card notation and ``Setup`` (newGame's input).

Card notation: rank then suit, two characters -- rank ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``;
suit ``H`` ``D`` ``C`` ``S`` -- so ``TH`` is the ten of hearts, ``3S`` the three of spades.  A card
token may carry its identity, the deck index newGame gave it: ``5H@12``.

Setup notation: ``<N>p <options>: <deck>``, options ``basic``, ``mirror``, ``seven`` or
``mirror+seven`` (RULE_MIRROR_THREE, RULE_SEVEN_LOWER), the deck top first.  ``CARD*k`` stands for
k copies in a row; the canonical text writes every run of two or more that way, so

    >>> format_cards(parse_cards("5H 5H 5H 9S KD KD"))
    '5H*3 9S KD*2'

and ``str(Setup.parse(t)) == t`` for every canonical ``t`` (``Setup.parse(str(s)) == s`` always).

Cards compare by identity, as Card pointers do in C (C4): equality and hashing use ``ident``, the
card's index in the deck, so the twins of a two-deck game are different cards.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from .errors import DeckError, NotationError
from .header import (
    DEALT_PER_SEAT,
    HAND_DEAL,
    MAX_PLAYERS,
    MAX_SET,
    MIN_PLAYERS,
    RULE_MIRROR_THREE,
    RULE_SEVEN_LOWER,
    TABLE_CARDS,
    Rank,
    Suit,
    min_deck,
)

RANK_LETTERS = "23456789TJQKA"  # index + 2 = rank
SUIT_LETTERS = "HDCS"  # index = suit
RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
SUIT_NAMES = ("hearts", "diamonds", "clubs", "spades")
NO_IDENT = -1  # the identity of a card no game made (a newCard of the tester's own, C4)

CardKey = tuple[int, int]
"""(rank, suit): what a card looks like, without its identity."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card: rank, suit and ``ident``, its index in the deck newGame was given (C4)."""

    rank: Rank
    suit: Suit
    ident: int = NO_IDENT

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.ident == self.ident

    def __hash__(self) -> int:
        return hash(self.ident)

    @property
    def key(self) -> CardKey:
        return (int(self.rank), int(self.suit))

    @classmethod
    def parse(cls, token: str) -> Card:
        """``"5H"`` (no identity) or ``"5H@12"``."""
        text, at, ident = token.strip().partition("@")
        rank, suit = parse_key(text)
        if not at:
            return cls(rank, suit)
        if not ident.isdigit():
            raise NotationError(f"card {token!r}: the identity after @ must be a deck index")
        return cls(rank, suit, int(ident))

    def __str__(self) -> str:
        return format_key(self.key)

    def __repr__(self) -> str:
        return format_key(self.key) + (f"@{self.ident}" if self.ident != NO_IDENT else "")

    def describe(self) -> str:
        """Plain words: ``ten of hearts``."""
        return describe_key(self.key)


def parse_key(token: str) -> tuple[Rank, Suit]:
    """``"TH"`` -> ``(Rank.TEN, Suit.HEARTS)``; lower case is read too."""
    t = token.strip().upper()
    if len(t) != 2 or t[0] not in RANK_LETTERS or t[1] not in SUIT_LETTERS:
        raise NotationError(f"card {token!r}: expected a rank {RANK_LETTERS} and a suit {SUIT_LETTERS}, like TH")
    return Rank(RANK_LETTERS.index(t[0]) + 2), Suit(SUIT_LETTERS.index(t[1]))


def format_key(key: Iterable[int]) -> str:
    rank, suit = key
    return RANK_LETTERS[rank - 2] + SUIT_LETTERS[suit]


def describe_key(key: Iterable[int]) -> str:
    rank, suit = key
    return f"{RANK_NAMES[rank - 2]} of {SUIT_NAMES[suit]}"


def parse_cards(text: str) -> list[CardKey]:
    """``"5H 9S*3"`` -> ``[(5, 0), (9, 3), (9, 3), (9, 3)]`` (the repeat shorthand expanded)."""
    out: list[CardKey] = []
    for tok in text.split():
        card, star, count = tok.partition("*")
        if star and not (count.isdigit() and int(count) >= 1):
            raise NotationError(f"{tok!r}: a repeat is CARD*k with k a positive number")
        rank, suit = parse_key(card)
        out.extend([(int(rank), int(suit))] * (int(count) if star else 1))
    return out


def format_cards(keys: Iterable[CardKey]) -> str:
    """The canonical text: runs of two or more equal cards written ``CARD*k``."""
    words: list[str] = []
    run: CardKey | None = None
    length = 0
    for key in keys:
        if key == run:
            length += 1
            continue
        if run is not None:
            words.append(format_key(run) + (f"*{length}" if length > 1 else ""))
        run, length = key, 1
    if run is not None:
        words.append(format_key(run) + (f"*{length}" if length > 1 else ""))
    return " ".join(words)


# ---- the rules word of a setup -------------------------------------------------------------
OPTION_WORDS = {RULE_MIRROR_THREE: "mirror", RULE_SEVEN_LOWER: "seven"}
FLAG_OF_WORD = {w: f for f, w in OPTION_WORDS.items()}


def format_rules(rules: int) -> str:
    """``0`` -> ``basic``; ``3`` -> ``mirror+seven``."""
    words = [w for f, w in OPTION_WORDS.items() if rules & f]
    return "+".join(words) or "basic"


def parse_rules(text: str) -> int:
    word = text.strip().lower()
    if word == "basic":
        return 0
    rules = 0
    for part in word.split("+"):
        flag = FLAG_OF_WORD.get(part)
        if flag is None or rules & flag:
            raise NotationError(f"rules {text!r}: expected basic, mirror, seven or mirror+seven")
        rules |= flag
    return rules


_SETUP = re.compile(r"^\s*(\d+)p\s+([a-z+]+)\s*:(.*)$", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class Setup:
    """What newGame is given: the number of players, the rules flags, the deck (top first) (§1.3).

    Construction checks the contract of newGame and raises ``DeckError`` naming C7 outside it.
    """

    n_players: int
    rules: int
    deck: tuple[CardKey, ...]

    def __post_init__(self) -> None:
        keys = tuple((int(r), int(s)) for r, s in self.deck)
        object.__setattr__(self, "deck", keys)
        n = self.n_players
        if not (isinstance(n, int) and MIN_PLAYERS <= n <= MAX_PLAYERS):
            raise DeckError(f"{n!r} players: newGame takes {MIN_PLAYERS} to {MAX_PLAYERS} (C7)")
        if not (isinstance(self.rules, int) and 0 <= self.rules <= RULE_MIRROR_THREE | RULE_SEVEN_LOWER):
            raise DeckError(f"rules {self.rules!r}: an OR of RULE_* flags, 0 to 3 (C7)")
        if len(keys) < min_deck(n):
            raise DeckError(f"{len(keys)} cards for {n} players: newGame needs at least {min_deck(n)} (C7)")
        for rank, suit in keys:
            if not (Rank.TWO <= rank <= Rank.ACE and Suit.HEARTS <= suit <= Suit.SPADES):
                raise DeckError(f"card ({rank}, {suit}): rank must be 2..14 and suit 0..3 (C7)")
        over = sorted(r for r, k in Counter(r for r, _s in keys).items() if k > MAX_SET)
        if over:
            names = ", ".join(RANK_LETTERS[r - 2] for r in over)
            raise DeckError(f"rank {names} occurs more than MAX_SET={MAX_SET} times (C7)")

    # ---- newGame's arrays --------------------------------------------------------------
    @classmethod
    def from_arrays(cls, n_players: int, ranks: Iterable[int], suits: Iterable[int], rules: int = 0) -> Setup:
        """``newGame(nPlayers, nCards, ranks, suits, rules)``'s arguments (nCards = the arrays' length)."""
        r, s = list(ranks), list(suits)
        if len(r) != len(s):
            raise DeckError(f"{len(r)} ranks but {len(s)} suits (C7)")
        return cls(n_players, rules, tuple(zip(r, s)))

    @classmethod
    def dealt(cls, n_players: int, rules: int, hands: Iterable[Iterable[CardKey]],
              face_down: Iterable[Iterable[CardKey]], start: CardKey, draw: Iterable[CardKey] = ()) -> Setup:
        """The deck whose deal (C2) gives these six-card hands, face-down rows, starting card and draw pile."""
        hs = [list(h) for h in hands]
        ds = [list(d) for d in face_down]
        n = n_players
        if len(hs) != n or len(ds) != n:
            raise DeckError(f"{n} players need {n} hands and {n} face-down rows (C7)")
        for seat, (h, d) in enumerate(zip(hs, ds)):
            if len(h) != HAND_DEAL or len(d) != TABLE_CARDS:
                raise DeckError(f"seat {seat}: {len(h)} hand and {len(d)} face-down cards, "
                                f"not {HAND_DEAL} and {TABLE_CARDS} (C2)")
        order = [hs[i % n][i // n] for i in range(HAND_DEAL * n)]  # C2: card i to seat i mod N
        order += [ds[j % n][j // n] for j in range(TABLE_CARDS * n)]  # C2: card 6N+j to seat j mod N
        return cls(n, rules, tuple(order + [start] + list(draw)))

    @property
    def n_cards(self) -> int:
        return len(self.deck)

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(r for r, _s in self.deck)

    @property
    def suits(self) -> tuple[int, ...]:
        return tuple(s for _r, s in self.deck)

    @property
    def mirror_three(self) -> bool:
        return bool(self.rules & RULE_MIRROR_THREE)

    @property
    def seven_lower(self) -> bool:
        return bool(self.rules & RULE_SEVEN_LOWER)

    def cards(self) -> list[Card]:
        """One new Card per deck entry, ``ident`` = its index (what newGame creates)."""
        return [Card(Rank(r), Suit(s), i) for i, (r, s) in enumerate(self.deck)]

    def hand_of(self, seat: int) -> tuple[CardKey, ...]:
        """The six cards C2 deals to that seat's hand, in deal order."""
        return self.deck[seat:HAND_DEAL * self.n_players:self.n_players]

    def face_down_of(self, seat: int) -> tuple[CardKey, ...]:
        """Face-down positions 0, 1, 2 of that seat (C2, C38)."""
        first = HAND_DEAL * self.n_players
        return self.deck[first + seat:DEALT_PER_SEAT * self.n_players:self.n_players]

    @property
    def start(self) -> CardKey:
        """Card 9N, the starting card (P4, C2)."""
        return self.deck[DEALT_PER_SEAT * self.n_players]

    @property
    def draw(self) -> tuple[CardKey, ...]:
        """Cards 9N+1.., next drawn first (C2)."""
        return self.deck[DEALT_PER_SEAT * self.n_players + 1:]

    # ---- notation -------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Setup:
        m = _SETUP.match(text)
        if m is None:
            raise NotationError(f"setup {text[:40]!r}: expected '<N>p <basic|mirror|seven|mirror+seven>: <cards>'")
        return cls(int(m.group(1)), parse_rules(m.group(2)), tuple(parse_cards(m.group(3))))

    def __str__(self) -> str:
        return f"{self.n_players}p {format_rules(self.rules)}: {format_cards(self.deck)}"


def standard_deck() -> list[CardKey]:
    """The 52 cards, ranks TWO..ACE within suits HEARTS..SPADES (a convenience for tests)."""
    return [(r, s) for s in Suit for r in Rank]


__all__ = [
    "NO_IDENT", "RANK_LETTERS", "SUIT_LETTERS", "Card", "CardKey", "Setup", "describe_key", "format_cards",
    "format_key", "format_rules", "parse_cards", "parse_key", "parse_rules", "standard_deck",
]
