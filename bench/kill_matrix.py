"""Which mutants are killed, what each costs, and how much of that falls outside its own rule.

    python bench/kill_matrix.py [--random-games N] [--no-memory] [--jobs N] [--only NAME ...]
    python bench/kill_matrix.py --from SNAPSHOT      # marks saved by bench/marks_snapshot.py --write

Every mutant and accepted reading of fixtures/submissions/ is graded as a course
would grade it (scenarios, random games, memory stage, the default marking).
For a mutant it prints: killed or not, marks lost, *collateral* -- marks
charged in groups that do not own any of the mutant's clauses (a second
deduction for the same bug) -- and the marks *not shown* (tests whose rule a
difference owned elsewhere hid at some steps: they earn only what they saw;
no test was charged for them), with how many of those fall outside the
mutant's groups.  A scenario group owns the clauses its scenarios name; the
memory stage owns R18; the random games own what their failed rule families
lose, but a family a scenario already charged is judged around there, and
whatever it loses counts as collateral.  Readings must get full marks.  The
figures are for closing notes, not a test: tests/games/fcd18s2/test_fair_marks.py asserts
the rules on a few of them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fixtures" / "submissions"))

from marks_snapshot import grade_all  # noqa: E402
from mutants import MUTANTS, READINGS  # noqa: E402

from grader.core.config import MarkingConfig  # noqa: E402
from grader.games.fcd18s2.scenarios import load_scenarios  # noqa: E402


def owning_groups(rules: tuple[str, ...]) -> set[str]:
    """The marks groups that own any of these clauses."""
    owned = set()
    for s in load_scenarios():
        if set(rules) & set(s.rules):
            owned.add(s.group)
    if "R18" in rules:
        owned.add("memory")
    return owned


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=MarkingConfig.load().random_games)
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="names of mutants or readings")
    parser.add_argument("--from", dest="snapshot", type=Path, default=None,
                        help="read the marks from a bench/marks_snapshot.py file instead of grading")
    args = parser.parse_args()
    entries = [("mutants", m) for m in MUTANTS] + [("readings", r) for r in READINGS]
    if args.only:
        entries = [(k, m) for k, m in entries if m.name in args.only]
    start = time.monotonic()
    names = [f"{k}/{m.name}" for k, m in entries]
    if args.snapshot:
        saved = json.loads(args.snapshot.read_text())
        rows, games, memory = saved["submissions"], saved["random_games"], saved["memory"]
    else:
        games, memory = args.random_games, not args.no_memory
        rows = grade_all(names, games, memory, args.jobs, quiet=True)
    print(f"{'':9} {'submission':40} {'killed':6} {'lost':>6} {'collateral':>10} {'not shown':>9} {'outside':>7}  "
          f"where (group: marks lost)")
    worst_single = worst_hidden = 0.0
    unkilled, readings_short = [], []
    groups_hit: list[int] = []  # per mutant: in how many groups it lost marks (the random games' counted)
    for kind, m in entries:
        if f"{kind}/{m.name}" not in rows:
            print(f"{kind:9} {m.name:40} (not in the snapshot)")
            continue
        row = rows[f"{kind}/{m.name}"]
        lost, score, seconds = row["lost"], row["score"], row["seconds"]
        owned = owning_groups(m.rules) | ({"memory"} if m.caught_by == "memory" else set())
        hidden = row.get("not_shown", {})
        # Random games: what failed families lost is owned; what families judged around lost is collateral.
        random_hidden = min(hidden.get("random_games", 0.0), lost.get("random_games", 0.0))
        outside = round(sum(hidden.get(g, 0.0) for g in lost if g not in owned and g != "random_games"), 2)
        collateral = round(sum(v for g, v in lost.items() if g not in owned and g != "random_games")
                           - outside + random_hidden, 2)
        shown_off = round(sum(hidden.values()), 2)
        total = round(sum(lost.values()), 2)
        killed = total > 0 or row["failed"] > 0
        where = ", ".join(f"{g}{'' if g in owned else '*'}: {v:g}" for g, v in sorted(lost.items()))
        if kind == "mutants":
            worst_single, worst_hidden = max(worst_single, collateral), max(worst_hidden, outside)
            if not killed:
                unkilled.append(m.name)
            groups_hit.append(sum(1 for v in lost.values() if v > 0))
            print(f"{kind:9} {m.name:40} {'yes' if killed else 'NO':6} {total:6.2f} {collateral:10.2f} "
                  f"{shown_off:9.2f} {outside:7.2f}  {where} ({seconds:.1f} s)")
        else:
            if killed:  # a test failed or marks were lost (a stage left out is neither)
                readings_short.append(m.name)
            print(f"{kind:9} {m.name:40} {'':6} {total:6.2f} {'':10} {shown_off:9.2f} {'':7}  "
                  f"score {score:g}/100 {where} ({seconds:.1f} s)")
    n_mut = sum(1 for k, _ in entries if k == "mutants")
    print(f"\nkilled {n_mut - len(unkilled)}/{n_mut} mutants; not killed: {unkilled or 'none'}")
    print(f"largest collateral of a mutant: {worst_single:.2f} marks charged outside its rules "
          f"(* marks a group outside the mutant's rules)")
    print(f"largest not shown outside its rules: {worst_hidden:.2f} marks (hidden steps: earned by no one, "
          f"charged to no one)")
    print(f"readings that lost marks: {readings_short or 'none'}")
    if groups_hit:
        spread = ", ".join(f"{n} group{'s' if n != 1 else ''}: {c}" for n, c in sorted(Counter(groups_hit).items()))
        print(f"groups a mutant lost marks in: {spread}; median {statistics.median(groups_hit):g}, "
              f"largest {max(groups_hit)}")
    print(f"random games {games}, memory stage {'on' if memory else 'off'}; "
          f"{time.monotonic() - start:.0f} s in all" + (f" (marks read from {args.snapshot})" if args.snapshot else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
