"""Random games per second against the model submission, through the sandboxed worker.

    python bench/bench_random_games.py [--games N] [--processes P]

Mid-sized decks (41-120 random cards), games as the seeded generator makes them
(legal moves of the reference, 2s, A and D preferred, up to 300 moves); each
game is played on the reference and in the worker and compared move by move,
exactly as grading does: the random-games stage's path (several games to a child,
``grader.core.batched_games``), and one game per child three ways (reference traces
computed, cached, and cached with the C observer off), next to the reference engine
alone on the same games.  P processes each run their own worker.
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

from grader.core.batched_games import BATCH_GAMES, BatchedGames  # noqa: E402
from grader.games.fcd.random_games import FAMILIES, InBatches, Numbered  # noqa: E402
from grader.games.fcd.random_generation import random_game  # noqa: E402
from grader.games.fcd18s2.edition import FCD18  # noqa: E402
from grader.games.fcd18s2.session import Fcd18Session as FcdSession  # noqa: E402

MID = next(f for f in FAMILIES if f.name == "mid_decks")
ROUNDS = 5  # the batched differential and the engine are each timed this many times, in turns: the best counts


def sample(n: int, seed: int) -> list:
    return [random_game(MID, i, FCD18, seed) for i in range(n)]


def play(args: tuple[int, int]) -> dict[str, float]:
    """Seconds to grade the games four ways, one after the other in one session: one game per child cold
    (each reference trace computed, as for a game never seen), warm (the traces cached, as every grade
    after the first), and warm through the Python observer alone (the C observer switched off: the path
    before it); and warm in batches, as the random-games stage plays them (every game must be proven
    by its batch: the model keeps no state between games)."""
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
        session.observer = observer
        numbered = [Numbered(i, MID, g) for i, g in enumerate(batch, 1)]
        seconds["batched"] = seconds["engine"] = float("inf")
        for _round in range(ROUNDS):  # in turns with the engine: the best of each, on a machine others share
            batched = BatchedGames(InBatches(session, set(), {}))
            start = time.perf_counter()
            assert all(result.passed for _game, result in batched.play(numbered))
            seconds["batched"] = min(seconds["batched"], time.perf_counter() - start)
            assert batched.alone == 0 and not batched.kept_state, "the model's games must all be proven in batches"
            seconds["engine"] = min(seconds["engine"], engine_alone(batch))
    return seconds


def native_in_process(games: list) -> float:  # noqa: ANN001
    """Seconds for the C observer to play the games on the model loaded in this process: no sandbox, no
    worker, no comparison -- what the model's own answers to every step's observation cost."""
    import mmap  # noqa: PLC0415

    from grader.core.build import build  # noqa: PLC0415
    from grader.games.fcd.reference_trace import cached_packed_trace  # noqa: PLC0415
    from grader.games.fcd.sandbox.frames import PACKED_CAPACITY  # noqa: PLC0415
    from grader.games.fcd.sandbox.loader import CLibrary  # noqa: PLC0415
    from grader.games.fcd18s2 import GAME, c_observer  # noqa: PLC0415
    from grader.games.fcd18s2.sandbox.interface import API  # noqa: PLC0415

    built = build(ROOT / "fixtures" / "submissions" / "model", GAME)
    lib, observer, slot = CLibrary(built.library, API), str(c_observer.library()), mmap.mmap(-1, 4096)
    packed = [cached_packed_trace(g.deck, g.moves, FCD18) for g in games]
    args = [(p.cards, p.codes, p.depths) for p in packed]
    start = time.perf_counter()
    for deck, moves, depths in args:
        lib.play_packed(observer, deck, moves, depths, memoryview(slot)[:20], PACKED_CAPACITY, True)
    seconds = time.perf_counter() - start
    built.cleanup()
    return seconds


def engine_alone(games: list) -> float:  # noqa: ANN001
    """Seconds for the same games' moves on the reference engine alone (no observation, no comparison)."""
    from reference import Game  # noqa: PLC0415

    start = time.perf_counter()
    for g in games:
        game = Game(g.deck)
        for spec in g.moves:
            game.play_move(game.resolve(spec))
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per process")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    one = play((args.games, 0))
    engine_rate = one["moves"] / one["engine"]
    print(f"{one['games']:.0f} games, {one['moves'] / one['games']:.0f} moves each; reference engine alone on the "
          f"same games, same run: {engine_rate:,.0f} moves/s (the best of {ROUNDS} rounds, in turns with the batched "
          f"differential's)")
    for label, words in (("batched", f"differential, {BATCH_GAMES} games a child, traces cached (random games)"),
                         ("warm", "differential, a child per game, C observer, traces cached"),
                         ("cold", "differential, a child per game, C observer, every reference trace computed"),
                         ("warm_python", "differential, a child per game, Python observer, traces cached")):
        rate = one["moves"] / one[label]
        print(f"  {words:<72} {rate:>9,.0f} moves/s  {one['games'] / one[label]:6.1f} games/s  "
              f"{rate / engine_rate:.3f}x the engine")
    native = native_in_process(sample(args.games, 0))
    print(f"  {'C observer on the model in this process (no sandbox, no comparison): the floor':<72} "
          f"{one['moves'] / native:>9,.0f} moves/s  {one['games'] / native:6.1f} games/s  "
          f"{one['moves'] / native / engine_rate:.3f}x the engine")
    print(f"  C observer vs Python observer, traces cached: {one['warm_python'] / one['warm']:.1f}x as fast; "
          f"{BATCH_GAMES} games a child vs one: {one['warm'] / one['batched']:.1f}x as fast")
    print(f"random games (batched) {one['moves'] / one['batched']:,.0f} moves/s vs the reference engine "
          f"{engine_rate:,.0f} moves/s: {one['moves'] / one['batched'] / engine_rate:.3f}x (target: 0.3x)")
    start = time.perf_counter()
    with Pool(args.processes) as pool:
        results = pool.map(play, [(args.games, i) for i in range(args.processes)])
    wall = time.perf_counter() - start
    total = sum(r["games"] for r in results)
    moves = sum(r["moves"] for r in results)
    busy = max(r["batched"] for r in results)
    print(f"{args.processes} processes, batched, traces cached: {total:.0f} games in {busy:.2f} s of play "
          f"({wall:.1f} s with start-up and the other passes) -> {total / busy:.1f} games/s, "
          f"{moves / busy:,.0f} moves/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
