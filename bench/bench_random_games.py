"""Random games per second against the model submission, through the sandboxed worker.

    python bench/bench_random_games.py [--games N] [--processes P]

Mid-sized decks (41-120 random cards), games as Hypothesis generates them
(legal moves of the reference, 2s, A and D preferred, up to 300 moves); each
game is played on the reference and in the worker and compared move by move,
exactly as grading does: three passes (reference traces computed, cached, and cached
with the C observer off) next to the reference engine alone on the same games.
P processes each run their own worker.
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

from grader.games.fcd.random_games import FAMILIES  # noqa: E402
from grader.games.fcd.random_generation import games  # noqa: E402
from grader.games.fcd18s2.edition import FCD18  # noqa: E402
from grader.games.fcd18s2.session import Fcd18Session as FcdSession  # noqa: E402

MID = next(f for f in FAMILIES if f.name == "mid_decks")


def sample(n: int, seed: int) -> list:
    found = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(games(MID, FCD18))
    def collect(game) -> None:  # noqa: ANN001
        found.append(game)

    collect()
    return found[:n]


def play(args: tuple[int, int]) -> dict[str, float]:
    """Seconds to grade the games three ways, one after the other in one session: cold (each reference
    trace computed, as for a game never seen), warm (the traces cached, as every grade after the first),
    and warm through the Python observer alone (the C observer switched off: the path before it)."""
    n, seed = args
    batch = sample(n, seed)
    seconds = {"moves": sum(len(g.moves) for g in batch), "games": len(batch)}
    with FcdSession.open(ROOT / "fixtures" / "submissions" / "model") as session:
        session.run_game("warm/up", "", (), batch[0].deck, batch[0].moves[:1])
        observer = session.observer
        for label, use_c in (("cold", True), ("warm", True), ("warm_python", False)):
            session.observer = observer if use_c else ""
            start = time.perf_counter()
            for g in batch:
                assert session.run_game("random/bench", "", (), g.deck, g.moves).passed
            seconds[label] = time.perf_counter() - start
    return seconds


def native_in_process(games: list) -> float:  # noqa: ANN001
    """Seconds for the C observer to play the games on the model loaded in this process: no sandbox, no
    worker, no comparison -- what the model's own answers to every step's observation cost."""
    import mmap  # noqa: PLC0415

    from grader.core.build import build  # noqa: PLC0415
    from grader.games.fcd.loader import CLibrary  # noqa: PLC0415
    from grader.games.fcd.play import PACKED_CAPACITY, move_ints  # noqa: PLC0415
    from grader.games.fcd.reference_trace import cached_packed_trace  # noqa: PLC0415
    from grader.games.fcd18s2 import GAME, c_observer  # noqa: PLC0415
    from grader.games.fcd18s2.interface import API  # noqa: PLC0415

    built = build(ROOT / "fixtures" / "submissions" / "model", GAME)
    lib, observer, slot = CLibrary(built.library, API), str(c_observer.library()), mmap.mmap(-1, 4096)
    args = [([list(k) for k in g.deck.keys], [move_ints(m) for m in g.moves],
             [list(d) for d in cached_packed_trace(g.deck, g.moves, FCD18).depths]) for g in games]
    start = time.perf_counter()
    for deck, moves, depths in args:
        lib.play_packed(observer, deck, moves, depths, memoryview(slot)[:20], PACKED_CAPACITY, True)
    seconds = time.perf_counter() - start
    built.cleanup()
    return seconds


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
    engine_moves, engine_seconds = engine_alone(sample(args.games, 0))
    engine_rate = engine_moves / engine_seconds
    print(f"{one['games']:.0f} games, {one['moves'] / one['games']:.0f} moves each; reference engine alone on the "
          f"same games, same run: {engine_rate:,.0f} moves/s")
    for label, words in (("warm", "differential, C observer, traces cached (every grade after the first)"),
                         ("cold", "differential, C observer, every reference trace computed"),
                         ("warm_python", "differential, Python observer, traces cached (the path before)")):
        rate = one["moves"] / one[label]
        print(f"  {words:<72} {rate:>9,.0f} moves/s  {one['games'] / one[label]:6.1f} games/s  "
              f"{rate / engine_rate:.3f}x the engine")
    native = native_in_process(sample(args.games, 0))
    print(f"  {'C observer on the model in this process (no sandbox, no comparison): the floor':<72} "
          f"{one['moves'] / native:>9,.0f} moves/s  {one['games'] / native:6.1f} games/s  "
          f"{one['moves'] / native / engine_rate:.3f}x the engine")
    print(f"  C observer vs Python observer, traces cached: {one['warm_python'] / one['warm']:.1f}x as fast "
          "(target for the differential: 0.3x the engine)")
    start = time.perf_counter()
    with Pool(args.processes) as pool:
        results = pool.map(play, [(args.games, i) for i in range(args.processes)])
    wall = time.perf_counter() - start
    total = sum(r["games"] for r in results)
    moves = sum(r["moves"] for r in results)
    busy = max(r["warm"] for r in results)
    print(f"{args.processes} processes, traces cached: {total:.0f} games in {busy:.2f} s of play ({wall:.1f} s with "
          f"start-up and the other passes) -> {total / busy:.1f} games/s, {moves / busy:,.0f} moves/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
