"""Random games per second against the model submission, through the sandboxed worker.

    python bench/bench_random_games.py [--games N] [--processes P]

Mid-sized decks (41-120 random cards), games as Hypothesis generates them
(legal moves of the reference, 2s, A and D preferred, up to 300 moves); each
game is played on the reference and in the worker and compared move by move,
exactly as grading does.  P processes each run their own worker.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ["FCD_CACHE_DIR"] = "off"  # every game's reference trace computed, as for a game never seen
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from grader.games.fcd18s2.random_games import FAMILIES  # noqa: E402
from grader.games.fcd18s2.random_generation import games  # noqa: E402
from grader.games.fcd18s2.session import FcdSession  # noqa: E402

MID = next(f for f in FAMILIES if f.name == "mid_decks")


def sample(n: int, seed: int) -> list:
    found = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(games(MID))
    def collect(game) -> None:  # noqa: ANN001
        found.append(game)

    collect()
    return found[:n]


def play(args: tuple[int, int]) -> tuple[int, int, float]:
    n, seed = args
    batch = sample(n, seed)
    moves = sum(len(g.moves) for g in batch)
    with FcdSession.open(ROOT / "fixtures" / "submissions" / "model") as session:
        session.run_game("warm/up", "", (), batch[0].deck, batch[0].moves[:1])
        start = time.perf_counter()
        for g in batch:
            assert session.run_game("random/bench", "", (), g.deck, g.moves).passed
        return len(batch), moves, time.perf_counter() - start


def engine_alone(games: list) -> tuple[int, float]:  # noqa: ANN001
    """The same games' moves on the reference engine alone (no observation, no comparison)."""
    from reference import Game  # noqa: PLC0415

    start = time.perf_counter()
    moves = 0
    for g in games:
        game = Game(g.deck)
        for spec in g.moves:
            game.play_move(game.resolve(spec))
            moves += 1
    return moves, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per process")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    one = play((args.games, 0))
    print(f"1 process : {one[0]} games ({one[1] / one[0]:.0f} moves each) in {one[2]:.2f} s -> "
          f"{one[0] / one[2]:.1f} games/s, {one[1] / one[2]:,.0f} moves/s")
    engine_moves, engine_seconds = engine_alone(sample(args.games, 0))
    engine_rate, differential_rate = engine_moves / engine_seconds, one[1] / one[2]
    print(f"reference engine alone, same games, same run: {engine_rate:,.0f} moves/s; the differential runs at "
          f"{differential_rate / engine_rate:.3f}x the engine (target 0.3x)")
    start = time.perf_counter()
    with Pool(args.processes) as pool:
        results = pool.map(play, [(args.games, i) for i in range(args.processes)])
    wall = time.perf_counter() - start
    total = sum(r[0] for r in results)
    moves = sum(r[1] for r in results)
    busy = max(r[2] for r in results)
    print(f"{args.processes} processes: {total} games in {busy:.2f} s of play ({wall:.1f} s with start-up) -> "
          f"{total / busy:.1f} games/s, {moves / busy:,.0f} moves/s  (target: 200 games/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
