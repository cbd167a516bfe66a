"""The random games' families (small, mid-sized and full decks) and a random game as a value: what the
stage (``random_games``) and the seeded generator (``random_generation``) share."""

from __future__ import annotations

from dataclasses import dataclass

from grader.games.fcd.edition import WrittenMove
from grader.games.fcd.scenarios import SMALLEST_DECK
from reference import Deck


@dataclass(frozen=True)
class Family:
    name: str
    says: str
    min_cards: int
    max_cards: int
    max_moves: int


FAMILIES = (
    Family("small_decks", "Random games on small decks (30-40 cards), where the draw pile runs out: "
           "recycling and the no-winner end come up often.", SMALLEST_DECK, 40, 250),
    Family("mid_decks", "Random games on mid-sized decks (41-120 cards) of random cards.", 41, 120, 300),
    Family("full_deck", "Random games on the traditional 800-card deck, shuffled.", 800, 800, 150),
)

@dataclass(frozen=True)
class RandomGame:
    deck: Deck
    moves: tuple[WrittenMove, ...]  # the edition's MoveSpecs

    def __repr__(self) -> str:
        return f"RandomGame({len(self.deck)} cards, {len(self.moves)} moves)"
