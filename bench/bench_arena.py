"""Games per second of the game runner (fcd-play): baselines only, and a student's player with three baselines.

    python bench/bench_arena.py [--rounds 5] [--jobs 2]

A round is one deck played once per rotation of the table (4 games).  Printed: games/s of each kind
(the baselines-only figure is the baseline, measured in the same run), the ratio, and what a class of
300 players would take for 40 games each at the student-with-baselines rate on these cores.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.arena.tournament import Entrant, Settings, run_tournament  # noqa: E402
from grader.core.config import MarkingConfig  # noqa: E402
from grader.games import get  # noqa: E402


def rate(entrants: list[Entrant], settings: Settings, rounds: int, jobs: int) -> tuple[float, int, float]:
    start = time.monotonic()
    t = run_tournament("fcd18s2", entrants, settings, rounds=rounds, seats=4, seed=11, jobs=jobs, batch=rounds)
    seconds = time.monotonic() - start
    moves = sum(len(r.moves) for r in t.records) / len(t.records)
    return len(t.records) / seconds, len(t.records), moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    game = get("fcd18s2")
    config = MarkingConfig.load(game=game)
    settings = Settings(int(config.players["max_moves"]), config.player_limits.as_dict(), "allowed")
    bots = [Entrant(n, "bot", n) for n in ("random", "greedy", "cautious")]
    student = Entrant("simple", "student", str(ROOT / "fixtures" / "players" / "simple"))
    base, n_base, m_base = rate([*bots, Entrant("greedy#2", "bot", "greedy")], settings, args.rounds, args.jobs)
    mixed, n_mixed, m_mixed = rate([student, *bots], settings, args.rounds, args.jobs)
    print(f"baselines only:             {base:7.1f} games/s ({n_base} games, {m_base:.0f} moves a game, "
          f"{args.jobs} jobs)")
    print(f"a student + three baselines: {mixed:6.1f} games/s ({n_mixed} games, {m_mixed:.0f} moves a game; "
          f"every decideMove a fresh sandboxed child)")
    print(f"student / baselines: {mixed / base:.2f}x the rate")
    games = 300 * 40 / 4  # 300 players, 40 games each, 4 at a table
    print(f"a class of 300 players x 40 games ({games:.0f} games, every seat a student): about "
          f"{games / (mixed / 4) / 60:.0f} min on these {args.jobs} cores (a seat's decisions cost as in the mixed "
          f"games; four students at a table make four times the student's share)")


if __name__ == "__main__":
    main()
