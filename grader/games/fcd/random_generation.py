"""Random games from a seeded generator, through the reference's legal moves.

Every move of a game is one the reference says is legal, weighted so that the edition's special values (2s,
skips, declarations) come up often; small decks lean on the special values so recycling and the no-winner end
come up too.  Game ``i`` of a family is a function of the edition, the family, the seed and ``i`` alone
(``random.Random`` seeded by a string: the same on every machine and in every process, whatever ran before), so
the grading profile's games are the same for every submission and every run without a fresh interpreter.
Profiles: ``grading`` is seed 0; ``explore`` takes a fresh seed each time, for the team.
"""

from __future__ import annotations

import os
import random
from typing import Sequence

from grader.games.fcd.edition import Edition, G, LegalMove, WrittenMove
from grader.games.fcd.random_families import Family, RandomGame
from reference import Deck, Value, traditional_deck

# Card values that make the interesting rules come up often in small decks.
SPECIAL_VALUES = (Value.DRAW_TWO, Value.A, Value.D, Value.ZERO)
PROFILE_SEEDS = {"grading": 0}  # a profile not named here (``explore``) draws a fresh seed


def seed_of(profile: str) -> int:
    """The grading profile's fixed seed, or a fresh one."""
    return PROFILE_SEEDS[profile] if profile in PROFILE_SEEDS else int.from_bytes(os.urandom(8), "big")


def _rng(edition: Edition[G], family: Family, seed: int, index: int) -> random.Random:
    return random.Random(f"{edition.name}/{family.name}/{seed}/{index}")  # (a str seed: sha512 of its text)


def random_deck(family: Family, rng: random.Random) -> Deck:
    """A deck of the family: the traditional deck shuffled, or ``min_cards``-``max_cards`` random cards (the
    special values half the time in small decks)."""
    if family.min_cards == 800:
        keys = list(traditional_deck().keys)
        rng.shuffle(keys)
        return Deck.from_keys(keys)
    small = family.max_cards <= 40

    def value() -> int:
        return int(rng.choice(SPECIAL_VALUES)) if small and rng.random() < 0.5 else rng.randint(0, 15)

    size = rng.randint(family.min_cards, family.max_cards)
    return Deck.from_keys((value(), rng.randint(0, 4), rng.randint(0, 4)) for _ in range(size))


def _spec(move: LegalMove, edition: Edition[G]) -> WrittenMove:
    """The move as written (what its card looks like, not which card it is)."""
    return edition.parse_move(str(move))


def _choose(legal: Sequence[LegalMove], edition: Edition[G], rng: random.Random) -> LegalMove:
    """A legal move: a play 4 times in 5 where the edition prefers plays, a special card 2 times in 3 where one
    may be played, else any legal move."""
    plays = [m for m in legal if m.card is not None]
    if edition.random_prefers_plays and plays and rng.randint(0, 4) > 0:
        legal = plays
    special = [m for m in legal if m.card is not None and m.card.value in edition.random_specials]
    if special and rng.randint(0, 2) > 0:
        return rng.choice(special)
    return rng.choice(list(legal))


def random_game(family: Family, index: int, edition: Edition[G], seed: int = 0) -> RandomGame:
    """Game ``index`` of ``family``: a deck and up to ``max_moves`` moves the reference says are legal (fewer
    where the game ends)."""
    rng = _rng(edition, family, seed, index)
    deck = random_deck(family, rng)
    game = edition.new_game(deck)
    moves: list[WrittenMove] = []
    for _ in range(rng.randint(1, family.max_moves)):
        legal = game.legal_moves()
        if not legal:
            break
        move = _choose(legal, edition, rng)
        game.play_move(move)
        moves.append(_spec(move, edition))
    return RandomGame(deck, tuple(moves))


def generate(family: Family, count: int, edition: Edition[G], profile: str = "grading") -> list[RandomGame]:
    """The first ``count`` games of ``family`` under ``profile``, in order."""
    seed = seed_of(profile)
    return [random_game(family, i, edition, seed) for i in range(count)]
