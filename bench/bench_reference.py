"""Moves per second of the reference engine on the 800-card deck (one core, pure Python).

    python bench/bench_reference.py [--games N] [--seed S] [--repeat R]

Plays N random games on shuffles of the traditional 800-card deck (R1), each
move chosen with a seeded ``random.Random`` among ``legal_moves()`` -- so the
figure includes working out what is legal, as a random game generator must --
and prints games, moves per game and moves per second.  The process is pinned
to one CPU where the OS allows it.  Shuffling happens before the clock starts;
building each Game is timed.  With --repeat the best of R runs is reported.

Target: at least 50,000 moves/s.  This is a script, not a test: it prints a
figure and exits 0 (or 1 with --check when the target is missed).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference import NO_WINNER, NOT_FINISHED, Deck, Game, traditional_deck  # noqa: E402

TARGET = 50_000


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        try:
            cpu = min(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {cpu})
            return f"pinned to CPU {cpu}"
        except OSError:
            pass
    return "not pinned"


def play_games(decks: list[Deck], rng: random.Random) -> tuple[float, list[int], int]:
    """Play every deck to the end; return (seconds, moves per game, NO_WINNER games)."""
    lengths = []
    no_winner = 0
    start = time.perf_counter()
    for deck in decks:
        game = Game(deck)
        moves = 0
        while game.game_winner() == NOT_FINISHED:
            game.play_move(rng.choice(game.legal_moves()))
            moves += 1
        lengths.append(moves)
        no_winner += game.game_winner() == NO_WINNER
    return time.perf_counter() - start, lengths, no_winner


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="report the best of this many runs")
    parser.add_argument("--check", action="store_true", help=f"exit 1 below {TARGET:,} moves/s")
    args = parser.parse_args()

    pinned = pin_to_one_core()
    rng = random.Random(args.seed)
    keys = traditional_deck().keys
    decks = []
    for _ in range(args.games):
        rng.shuffle(keys)
        decks.append(Deck.from_keys(keys))

    best = None
    for run in range(args.repeat):
        elapsed, lengths, no_winner = play_games(decks, random.Random(args.seed + run))
        rate = sum(lengths) / elapsed
        if best is None or rate > best[0]:
            best = (rate, elapsed, lengths, no_winner)
    assert best is not None
    rate, elapsed, lengths, no_winner = best
    total = sum(lengths)
    print(f"python {platform.python_version()} ({platform.python_implementation()}), {pinned}, "
          f"seed {args.seed}, best of {args.repeat}")
    print(f"{args.games} games on the 800-card deck, {total:,} moves in {elapsed:.2f} s; "
          f"moves/game mean {total / len(lengths):.0f}, median {statistics.median(lengths):.0f}, "
          f"max {max(lengths)}; {no_winner} ended with NO_WINNER")
    verdict = "meets" if rate >= TARGET else "MISSES"
    print(f"reference engine: {rate:,.0f} moves/s on one core ({verdict} the target of {TARGET:,})")
    return 1 if args.check and rate < TARGET else 0


if __name__ == "__main__":
    raise SystemExit(main())
