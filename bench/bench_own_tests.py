"""How long grading one student's own tests takes: testGame.c against the model, every accepted reading and
every mutant (the model twice), each linked and run in the sandbox.

    python bench/bench_own_tests.py [--rounds 3] [--tests fixtures/student_tests/good]

Printed: a cold run (the implementations' objects compiled, as for the first submission of a batch: an empty
cache), warm runs with 2 jobs (every later submission; the target of issue 19 is 10 s on 2 cores) and, as the
baseline measured in the same run, warm runs with 1 job.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.config import MarkingConfig  # noqa: E402
from grader.core.suite.stage import grade_tests  # noqa: E402
from grader.games import get  # noqa: E402


def timed(folder: Path, jobs: int) -> tuple[float, object]:
    game = get("fcd18s2")
    start = time.monotonic()
    result = grade_tests(folder, game, MarkingConfig.load(game=game), jobs=jobs)
    return time.monotonic() - start, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tests", type=Path, default=ROOT / "fixtures" / "student_tests" / "good")
    args = ap.parse_args()
    os.environ["FCD_CACHE_DIR"] = tempfile.mkdtemp(prefix="fcd-bench-cache-")
    cold, result = timed(args.tests, 2)
    pairings = len(get("fcd18s2").suite_targets().all()) + 1  # and the model again (no Game.c of the student's here)
    print(f"{args.tests.name}: valid {result.valid}, caught {result.caught} of {len(result.mutants)} mutants")
    print(f"cold (objects compiled), 2 jobs: {cold:6.2f} s")
    warm2 = [timed(args.tests, 2)[0] for _ in range(args.rounds)]
    warm1 = [timed(args.tests, 1)[0] for _ in range(args.rounds)]
    print(f"warm, 2 jobs:                   {statistics.median(warm2):6.2f} s (median of {args.rounds}; "
          f"{1000 * statistics.median(warm2) / pairings:.0f} ms a pairing)   target: 10 s")
    print(f"warm, 1 job (baseline):         {statistics.median(warm1):6.2f} s")
    print(f"2 jobs / 1 job: {statistics.median(warm2) / statistics.median(warm1):.2f}x the time; "
          f"cold / warm: {cold / statistics.median(warm2):.1f}x")


if __name__ == "__main__":
    main()
