"""Which mutants are killed, what each costs, and how much of that falls outside its own rule.

    python bench/kill_matrix.py [--random-games N] [--no-memory] [--jobs N] [--only NAME ...]

Every mutant and accepted reading of fixtures/submissions/ is graded as a course
would grade it (scenarios, random games, memory stage, the default marking).
For a mutant it prints: killed or not, marks lost, and *collateral* -- marks
lost in groups that do not own any of the mutant's clauses.  A scenario group
owns the clauses its scenarios name; the memory stage owns R18; the random
games check every rule, and a rule family that a scenario already failed costs
them nothing.  Readings must get full marks.  The figures are for closing notes,
not a test: tests/test_fair_marks.py asserts the rules on a few of them.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fixtures" / "submissions"))

from grader.config import MarkingConfig  # noqa: E402
from grader.grade import grade  # noqa: E402
from grader.scenarios import load_scenarios  # noqa: E402
from mutants import MUTANTS, READINGS  # noqa: E402

SUBMISSIONS = ROOT / "fixtures" / "submissions"


def owning_groups(rules: tuple[str, ...]) -> set[str]:
    """The marks groups that own any of these clauses."""
    owned = {"random_games"}
    for s in load_scenarios():
        if set(rules) & set(s.rules):
            owned.add(s.group)
    if "R18" in rules:
        owned.add("memory")
    return owned


def grade_one(job: tuple[str, str, int, bool]) -> tuple[str, str, float, dict[str, float], int, float]:
    kind, name, games, memory = job
    start = time.monotonic()
    result = grade(SUBMISSIONS / kind / name, MarkingConfig.load(), random_games=games, memory=memory)
    lost = {g.group: round(g.max_marks - g.marks, 2) for g in result.groups if g.marks < g.max_marks}
    failed = sum(1 for t in result.tests if t.outcome.family == "fail")
    return kind, name, result.score, lost, failed, time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=MarkingConfig.load().random_games)
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="names of mutants or readings")
    args = parser.parse_args()
    entries = [("mutants", m) for m in MUTANTS] + [("readings", r) for r in READINGS]
    if args.only:
        entries = [(k, m) for k, m in entries if m.name in args.only]
    by_name = {m.name: m for _k, m in entries}
    jobs = [(k, m.name, args.random_games, not args.no_memory) for k, m in entries]
    start = time.monotonic()
    print(f"{'':9} {'submission':40} {'killed':6} {'lost':>6} {'collateral':>10}  where (group: marks lost)")
    worst_single = 0.0
    unkilled, readings_short = [], []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for kind, name, score, lost, failed, seconds in pool.map(grade_one, jobs):
            m = by_name[name]
            owned = owning_groups(m.rules) | ({"memory"} if m.caught_by == "memory" else set())
            collateral = round(sum(v for g, v in lost.items() if g not in owned), 2)
            total = round(sum(lost.values()), 2)
            killed = total > 0 or failed > 0
            where = ", ".join(f"{g}{'' if g in owned else '*'}: {v:g}" for g, v in sorted(lost.items()))
            if kind == "mutants":
                worst_single = max(worst_single, collateral)
                if not killed:
                    unkilled.append(name)
                print(f"{kind:9} {name:40} {'yes' if killed else 'NO':6} {total:6.2f} {collateral:10.2f}  {where} "
                      f"({seconds:.1f} s)", flush=True)
            else:
                if score < 100:
                    readings_short.append(name)
                print(f"{kind:9} {name:40} {'':6} {total:6.2f} {'':10}  score {score:g}/100 {where} ({seconds:.1f} s)",
                      flush=True)
    n_mut = sum(1 for k, _ in entries if k == "mutants")
    print(f"\nkilled {n_mut - len(unkilled)}/{n_mut} mutants; not killed: {unkilled or 'none'}")
    print(f"largest collateral of a mutant: {worst_single:.2f} marks (* marks a group outside the mutant's rules)")
    print(f"readings below 100: {readings_short or 'none'}")
    print(f"random games {args.random_games}, memory stage {'off' if args.no_memory else 'on'}; "
          f"{time.monotonic() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
