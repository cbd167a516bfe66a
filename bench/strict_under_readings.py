"""Every STRICT clause judged under every reading: the full cross of readings and planted bugs.

    python bench/strict_under_readings.py [--jobs N] [--readings NAME ...] [--mutants NAME ...]
                                          [--json FILE] [--keep DIR]

Each accepted reading of fixtures/submissions/readings (combined included) gets each
scenario mutant's bug planted in it (fixtures/submissions/planted.py), and is graded on
the scenarios of the mutant's STRICT clauses only.  The same bug planted in the model is
the baseline: every clause it is charged on there (a scenario naming the clause fails)
must be charged under every reading too.  Printed, per reading: the pairs whose bug
escapes (the clauses no longer charged, and the scenarios that caught it on the model
but not here), then a matrix (reading x mutant):

    +  charged on every clause the model charges
    E  escapes: some clause charged on the model is not charged here
    B  the planted folder does not build (a planting to fix)
    -  not applicable (planted.NOT_APPLICABLE says why)
    ?  unplanted: the mutant's text does not occur in the reading and no planting is written

The full cross takes 10-13 minutes on 2 cores; tests/games/fcd18s2/test_strict_under_readings.py runs
a chosen part of it in CI (planted.default_pairs).  A table, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fixtures" / "submissions"))

import planted  # noqa: E402


def _judge(args: tuple[str, str, str]) -> tuple[str, str, dict | None]:
    reading, mutant, root = args
    found, readings = planted.mutants_and_readings()
    r = planted.MODEL_ROW if reading == "model" else next(x for x in readings if x.name == reading)
    p = planted.Pair(r, next(m for m in found if m.name == mutant))
    j = planted.judge_pair(p, Path(root))
    return reading, mutant, None if j is None else {
        "verdicts": j.verdicts, "clauses": j.clauses, "built": j.built, "seconds": j.seconds}


def _elsewhere(folder: str) -> list[str]:
    """The scenarios (all of them) a planted folder fails: none suggests the planting changed nothing."""
    from grader.core.grade import grade  # noqa: PLC0415

    result = grade(Path(folder), random_games=0, memory=False, own_tests=False)
    return [t.id for t in result.tests if t.verdict.family == "fail"]


def run(readings: list[str], mutants: list[str], jobs: int, root: Path) -> dict[tuple[str, str], dict | None]:
    work = [(r, m, str(root)) for r in ["model", *readings] for m in mutants]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return {(r, m): out for r, m, out in pool.map(_judge, work, chunksize=1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--readings", nargs="*", default=None)
    parser.add_argument("--mutants", nargs="*", default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the verdicts here")
    parser.add_argument("--keep", type=Path, default=None, help="write the planted folders here (kept)")
    args = parser.parse_args()

    from grader.core.results import Verdict  # noqa: PLC0415

    def fails(out: dict) -> set[str]:
        return {s for s, v in out["verdicts"].items() if Verdict(v).family == "fail"}

    def charged(out: dict) -> set[str]:
        """The clauses charged: a scenario naming the clause failed."""
        f = fails(out)
        return {c for c, ids in out["clauses"].items() if f & set(ids)}

    _, all_readings = planted.mutants_and_readings()
    readings = args.readings or [r.name for r in all_readings]
    mutants = args.mutants or [m.name for m in planted.scenario_mutants()]
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fcd-planted-") as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        results = run(readings, mutants, args.jobs, root)
        took = time.monotonic() - start
        escaped = [(r, m) for r in readings for m in mutants if results[(r, m)] and results[(r, m)]["built"]
                   and (planted.required_clauses(m) - charged(results[(r, m)]))]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            elsewhere = dict(zip(escaped, pool.map(_elsewhere, [str(root / f"{r}+{m}") for r, m in escaped])))

    codes: dict[tuple[str, str], str] = {}
    lines: dict[str, list[str]] = {}
    for r in readings:
        for m in mutants:
            p = planted.pair(r, m)
            out, base = results[(r, m)], results[("model", m)]
            if p.status() == "not applicable":
                codes[(r, m)] = "-"
                lines.setdefault(r, []).append(f"    -  {m}: not applicable: {p.not_applicable}")
                continue
            if out is None:
                codes[(r, m)] = "?"
                lines.setdefault(r, []).append(f"    ?  {m}: unplanted (its text does not occur in the reading)")
                continue
            if not out["built"]:
                codes[(r, m)] = "B"
                lines.setdefault(r, []).append(f"    B  {m}: the planted folder does not build")
                continue
            want = planted.required_clauses(m)
            missing = sorted(want - charged(out))
            if missing:
                codes[(r, m)] = "E"
                lost = sorted(fails(base) - fails(out)) if base else []
                shown = {s: out["verdicts"][s] for s in lost}
                lines.setdefault(r, []).append(
                    f"    E  {m} ({', '.join(planted.strict_clauses_of(p.mutant))}): not charged on "
                    f"{', '.join(missing)}; caught on the model by {', '.join(lost) or '-'}; here: "
                    + ", ".join(f"{s.split('/')[-1]} {v}" for s, v in shown.items())
                    + f"; of all {len(planted._scenarios())} scenarios it fails "
                    + (f"{len(elsewhere[(r, m)])}: {', '.join(elsewhere[(r, m)][:6])}"
                       + (" ..." if len(elsewhere[(r, m)]) > 6 else "") if elsewhere[(r, m)]
                       else "none (did the planting change anything?)"))
            else:
                codes[(r, m)] = "+"

    print(f"Planted bugs under every reading: {len(readings)} readings x {len(mutants)} mutants, "
          f"{time.monotonic() - start:.0f} s ({took:.0f} s grading, {args.jobs} jobs)\n")
    print("Baseline (planted in the model): clauses charged; each reading is held to those required "
          "(planted.required_clauses)")
    for m in mutants:
        base = results[("model", m)]
        got = sorted(charged(base)) if base else []
        required = planted.required_clauses(m)
        odd = "" if set(got) == required else f"  !! required {', '.join(sorted(required))} (planted.MODEL_MISSES)"
        not_ch = sorted(set(planted.strict_clauses_of(planted.MODEL_PAIR(m).mutant)) - set(got))
        missed = f"  (not charged: {', '.join(not_ch)})" if not_ch else ""
        print(f"    {m}: {', '.join(got) or 'NONE'}{missed}{odd}")
    print()
    for r in readings:
        esc = [ln for ln in lines.get(r, []) if ln.lstrip().startswith("E")]
        other = [ln for ln in lines.get(r, []) if not ln.lstrip().startswith("E")]
        n_ok = sum(1 for m in mutants if codes[(r, m)] == "+")
        print(f"{r}: {n_ok} charged, {len(esc)} escape(s)" + (f", {len(other)} other" if other else ""))
        for ln in esc + other:
            print(ln)
    print("\nMatrix (+ charged, E escapes, B does not build, - not applicable, ? unplanted)")
    width = max(len(r) for r in readings)
    for i, m in enumerate(mutants):
        print(f"    {i:2d} {m}")
    print(" " * (width + 1) + "".join(f"{i % 100:>3d}" for i in range(len(mutants))))
    for r in readings:
        print(f"{r:<{width}} " + "".join(f"{codes[(r, m)]:>3s}" for m in mutants))
    if args.json:
        args.json.write_text(json.dumps({f"{r}+{m}": out for (r, m), out in results.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
