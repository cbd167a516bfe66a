"""The Palace reference engine (``reference.palace``) behind the core's engine contract (``grader.core.engine``).

A deck is a ``Setup`` (players, rules flags, deck top first; notation ``2p mirror: 5H 6D ...``); a state
is the reference ``Game``; moves are the written kind (``MoveSpec``: ``up:5H,6D,KS``, ``5H,5D``,
``blind:1``, ``pickup``), so a move list is its notation.  A written card carries its identity
(``5H@12``, its deck index) exactly when the mover's zone holds a twin of it (two decks): then the
move names one physical card however the zone is ordered (C37), and a plain card is the only one of
its look there, so any resolution rule finds it.

The core hands a deck, a state and a move back to the engine that made them, as ``object``
(``grader.core.engine.Engine``): ``as_setup``, ``as_game``, ``as_move`` and ``as_written`` take them back as
Palace's own.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence, cast

from grader.games.palace.sandbox import notation
from reference.palace import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULE_MIRROR_THREE,
    RULE_SEVEN_LOWER,
    Action,
    Card,
    CardRef,
    Game,
    MoveSpec,
    Outcome,
    PlayerMove,
    Rank,
    Setup,
    format_moves,
    min_deck,
    parse_moves,
    standard_deck,
)
from reference.palace.header import DEALT_PER_SEAT

TWO_DECKS = 0.5  # chance of a two-deck (104-card) game: MAX_SET = 8 copies of each rank at most
SHORT_DECK = 0.3  # chance of cutting the deck short (down to 9N + 1 cards): the later stages come sooner


def as_setup(deck: object) -> Setup:
    """A deck the core hands back: a ``Setup``."""
    if not isinstance(deck, Setup):
        raise TypeError(f"not a Palace deck: {deck!r}")
    return deck


def as_game(state: object) -> Game:
    """A state the core hands back: the reference ``Game``."""
    if not isinstance(state, Game):
        raise TypeError(f"not a Palace game: {state!r}")
    return state


def as_move(move: object) -> MoveSpec | str:
    """A move the core hands back to be made: written (``MoveSpec``), or its notation."""
    if not isinstance(move, (MoveSpec, str)):
        raise TypeError(f"not a Palace move: {move!r}")
    return move


def as_written(move: object) -> MoveSpec | PlayerMove:
    """A move the core hands back to be written: a ``MoveSpec`` (or a ``PlayerMove``: both have a notation)."""
    if not isinstance(move, (MoveSpec, PlayerMove)):
        raise TypeError(f"not a Palace move: {move!r}")
    return move


def as_player_move(move: notation.PlayerMove) -> PlayerMove:
    """A move of the isValidMove battery (``sandbox.observe``: the sandbox's ``PlayerMove``, made of the reference's
    cards when the battery is asked of the reference) as the reference's own, for the trusted side to reason on."""
    return PlayerMove(move.action, cast("tuple[Card | None, ...]", move.cards), move.face_down_index, move.num_cards)


def spec_of(game: Game, move: PlayerMove) -> MoveSpec:
    """The written form of a move of ``game`` now: identities only on cards with a twin in the mover's zone."""
    if move.action not in (Action.CHOOSE_FACE_UP, Action.PLAY_CARDS):
        return move.spec()
    seat = game.current_player()
    zone = game.hand(seat) if move.action == Action.CHOOSE_FACE_UP or game.hand(seat) else game.face_up(seat)
    looks = Counter(c.key for c in zone)
    return MoveSpec(Action(move.action), tuple(CardRef.of(c, explicit=looks[c.key] > 1) for c in move.cards
                                               if c is not None))  # a move of the game names no NULL entry


def forbidden_start(rank: int, rules: int) -> bool:
    """C31: the grader's decks never turn up a TEN, nor a SEVEN under RULE_SEVEN_LOWER, as the starting card."""
    return rank == Rank.TEN or (rank == Rank.SEVEN and bool(rules & RULE_SEVEN_LOWER))


def random_setup(rng: random.Random, *, players: int | None = None, rules: int | None = None) -> Setup:
    """2-5 players, a random option combination, one or two shuffled standard decks (sometimes cut short,
    never below 9N + 1 cards), and a starting card C31 allows (swapped in from elsewhere in the deck)."""
    n = rng.randint(MIN_PLAYERS, MAX_PLAYERS) if players is None else players
    flags = rng.randrange(RULE_MIRROR_THREE + RULE_SEVEN_LOWER + 1) if rules is None else rules
    decks = 2 if rng.random() < TWO_DECKS else 1
    keys = standard_deck() * decks  # 4 (one deck) or 8 (two decks) of each rank: never over MAX_SET
    rng.shuffle(keys)
    if rng.random() < SHORT_DECK:
        keys = keys[:rng.randint(min_deck(n), len(keys))]
    start = DEALT_PER_SEAT * n
    if forbidden_start(keys[start][0], flags):
        allowed = [i for i, (r, _s) in enumerate(keys) if i != start and not forbidden_start(r, flags)]
        j = rng.choice(allowed)
        keys[start], keys[j] = keys[j], keys[start]
    return Setup(n, flags, tuple(keys))


class _PalaceRules:
    """What both of Palace's engines share: the reference game, its outcome, its notation."""

    title = "Palace"
    seats = MAX_PLAYERS  # the most a game of it seats (a state's own count: ``num_players``)

    def new_game(self, deck: object) -> Game:
        return Game(as_setup(deck))

    def to_move(self, state: object) -> int:
        return as_game(state).current_player()

    def apply(self, state: object, move: object) -> None:
        game = as_game(state)
        game.play_move(game.resolve(as_move(move)))  # IllegalMoveError (a ValueError) for a move not valid now

    def outcome(self, state: object) -> Outcome | None:
        return as_game(state).outcome()

    def winner(self, state: object) -> int | None:
        outcome = as_game(state).outcome()
        return outcome.winner if outcome is not None else None

    def scores(self, state: object) -> list[int]:
        """The cards each seat still holds, in hand, face up and face down: fewer is better."""
        game = as_game(state)
        return [game.player_card_count(p) + game.face_up_count(p) + game.face_down_count(p)
                for p in range(game.num_players())]

    def format_deck(self, deck: object) -> str:
        return str(as_setup(deck))

    def parse_deck(self, text: str) -> Setup:
        return Setup.parse(text)

    def format_move(self, move: object) -> str:
        return str(as_written(move))

    def format_moves(self, moves: Sequence[object]) -> str:
        return format_moves(as_written(m) for m in moves)

    def parse_moves(self, text: str) -> list[object]:
        return list[object](parse_moves(text))  # MoveSpecs (the core's list of its own values)


class PalaceEngine(_PalaceRules):
    """Palace as generic algorithms take it: random games of 2-5 seats, under any combination of the rules'
    options, written in the notation of the scenarios (identities only where a twin is in the zone)."""

    def legal_moves(self, state: object) -> list[MoveSpec]:
        game = as_game(state)
        return [spec_of(game, m) for m in game.legal_moves()]

    def parse_move(self, text: str) -> MoveSpec:
        (move,) = parse_moves(text)
        return move

    def random_deck(self, rng: random.Random) -> Setup:
        return random_setup(rng)


class PalaceTable(_PalaceRules):
    """The variant the arena plays, bound once: ``seats`` players from one standard deck under ``rules``, the
    moves written as the reference's ``PlayerMove`` writes them (every card with its identity: what a
    student's player answers, and what the game resolves itself)."""

    def __init__(self, seats: int, rules: int) -> None:
        self.seats, self.rules = seats, rules

    def legal_moves(self, state: object) -> list[PlayerMove]:
        return list(as_game(state).legal_moves())

    def parse_move(self, text: str) -> str:
        return text

    def random_deck(self, rng: random.Random) -> Setup:
        deck = standard_deck()
        while True:
            rng.shuffle(deck)
            if not forbidden_start(deck[DEALT_PER_SEAT * self.seats][0], self.rules):  # C2: card 9N starts the pile
                return Setup(self.seats, self.rules, tuple(deck))


ENGINE = PalaceEngine()

__all__ = ["ENGINE", "PalaceEngine", "PalaceTable", "as_game", "as_move", "as_setup", "as_written", "forbidden_start",
           "random_setup", "spec_of"]
