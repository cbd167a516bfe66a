"""Which mutants does each stage kill?  Prints a table; the numbers for the closing notes.

    python bench/kill_matrix.py [--random-games N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.random_games import run_random_games  # noqa: E402
from grader.scenarios import load_scenarios  # noqa: E402
from grader.session import SubmissionSession  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=0, help="random games per submission (0: scenarios only)")
    args = parser.parse_args()
    scenarios = load_scenarios()
    subs = ROOT / "fixtures" / "submissions"
    rows = []
    start = time.monotonic()
    for kind in ("mutants", "readings"):
        for folder in sorted((subs / kind).iterdir()):
            with SubmissionSession.open(folder) as session:
                t0 = time.monotonic()
                failed = [s.id for s in scenarios if not session.run_scenario(s).passed]
                t_scen = time.monotonic() - t0
                random_failed, shrunk = [], []
                if args.random_games:
                    for r in run_random_games(session, args.random_games):
                        if not r.passed:
                            random_failed.append(r.id)
                            shrunk.append(r.message.split("shrank it to ")[1].split(" moves")[0]
                                          if "shrank it to" in r.message else "?")
            rows.append((kind, folder.name, len(failed), failed[:2], random_failed, shrunk, t_scen))
            print(f"{kind:9} {folder.name:34} scenarios failed {len(failed):3}  random failed {len(random_failed)} "
                  f"(shrunk to {', '.join(shrunk) or '-'} moves)  {t_scen:.1f} s", flush=True)
    mutants = [r for r in rows if r[0] == "mutants"]
    killed = sum(1 for r in mutants if r[2])
    killed_any = sum(1 for r in mutants if r[2] or r[4])
    only_random = [r[1] for r in mutants if not r[2] and r[4]]
    readings_ok = all(r[2] == 0 and not r[4] for r in rows if r[0] == "readings")
    print(f"\nscenario suite kills {killed}/{len(mutants)} mutants; with random games {killed_any}/{len(mutants)}")
    print(f"killed only by random games: {only_random or 'none'}")
    print(f"accepted readings all pass: {readings_ok}")
    print(f"{len(scenarios)} scenarios; {time.monotonic() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
