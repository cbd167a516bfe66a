"""Per-scenario cost of three ways to run student code (issue: isolation costs).

    python bench/bench_isolation.py [--rounds N]

1. fork per scenario inside the bubblewrap sandbox (what the grader does);
2. a fresh Python process per scenario (the usual grader design), unsandboxed
   so the comparison flatters it;
3. the same moves replayed in one process with no isolation at all.
Each plays every scenario of fixtures/scenarios on the model submission and
observes every step, exactly as grading does.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader import protocol  # noqa: E402
from grader.loader import CLibrary  # noqa: E402
from grader.observe import deck_counts, observe  # noqa: E402
from grader.sandbox import detect_mode  # noqa: E402
from grader.scenarios import load_scenarios  # noqa: E402
from grader.session import SubmissionSession  # noqa: E402
from grader.worker import _resolve  # noqa: E402


def requests(scenarios, library: Path) -> list[dict]:  # noqa: ANN001
    return [{"op": "run", "id": i, "lib": str(library), "deck": [list(k) for k in s.deck.keys],
             "moves": [str(m) for m in s.moves]} for i, s in enumerate(scenarios)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    scenarios = load_scenarios()
    n = len(scenarios) * args.rounds
    with SubmissionSession.open(ROOT / "fixtures" / "submissions" / "model") as session:
        library = session.build.library
        client = session.client
        client.run([list(k) for k in scenarios[0].deck.keys], [])  # start the worker first
        start = time.perf_counter()
        for _ in range(args.rounds):
            for s in scenarios:
                client.run([list(k) for k in s.deck.keys], [str(m) for m in s.moves])
        forked = (time.perf_counter() - start) / n

        env = dict(os.environ, PYTHONPATH=str(ROOT))
        reqs = requests(scenarios, library)
        start = time.perf_counter()
        for _ in range(args.rounds):
            for req in reqs:
                proc = subprocess.run([sys.executable, "-m", "grader.worker"], input=protocol.encode(req)
                                      + protocol.encode({"op": "exit"}), capture_output=True, env=env, check=True)
                assert proc.stdout
        fresh = (time.perf_counter() - start) / n

        lib = CLibrary(library)
        start = time.perf_counter()
        for _ in range(args.rounds):
            for s in scenarios:
                game = lib.new_game(*zip(*s.deck.keys))
                obs = [observe(game, len(s.deck), full_piles=True)]
                obs[0].update(deck_counts(game))
                for i, m in enumerate(s.moves):
                    game.play_move(_resolve(game, m, len(s.deck) + 1))
                    obs.append(observe(game, len(s.deck), full_piles=i == len(s.moves) - 1))
                game.destroy_game()
        inproc = (time.perf_counter() - start) / n
    print(f"{len(scenarios)} scenarios x {args.rounds} rounds on the model submission; sandbox: {detect_mode().name}")
    print(f"  fork per scenario, sandboxed worker : {forked * 1000:7.2f} ms per scenario")
    print(f"  fresh process per scenario          : {fresh * 1000:7.2f} ms per scenario  "
          f"({fresh / forked:.1f}x the fork server)")
    print(f"  one process, no isolation           : {inproc * 1000:7.2f} ms per scenario  "
          f"(the fork server costs {forked / inproc:.1f}x this)")
    print(f"  cost of isolation (above the work itself): fork server {1000 * (forked - inproc):.2f} ms, "
          f"fresh process {1000 * (fresh - inproc):.2f} ms -> {(fresh - inproc) / (forked - inproc):.1f}x less")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
