"""Moves per second of the reference engine on the 800-card deck (one core, pure Python).

    python bench/bench_reference.py [--games N] [--seed S]

Each move is chosen at random among ``legal_moves()``, so the figure includes
working out what is legal -- what a random game generator pays.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference import NOT_FINISHED, Deck, Game, traditional_deck  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    keys = traditional_deck().keys
    decks = []
    for _ in range(args.games):
        rng.shuffle(keys)
        decks.append(Deck.from_keys(keys))
    moves = 0
    start = time.perf_counter()
    for deck in decks:
        game = Game(deck)
        while game.game_winner() == NOT_FINISHED:
            game.play_move(rng.choice(game.legal_moves()))
            moves += 1
    elapsed = time.perf_counter() - start
    print(f"{args.games} games, {moves} moves ({moves / args.games:.0f} per game) in {elapsed:.2f} s")
    print(f"reference engine: {moves / elapsed:,.0f} moves/s on one core (target 50,000)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
