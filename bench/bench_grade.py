"""How long a student waits: full grades (``fcd-grade``, every stage) of three kinds of submission.

    python bench/bench_grade.py [--rounds N] [--against TREE] [--only CASE ...]

The cases: the model (everything passes), a failing single-bug mutant
(``skip_ignored``: a third of the tests fail), and a submission that hangs on
its fifth ``playMove`` (every game past that point waits out a time limit);
the 2017 edition's model and a failing mutant (``advance_ignored``, the
2017 skip bug), graded with ``--game fcd17s2``, with the ratio of each 2017
figure to its 2018 counterpart measured in the same run; Palace's model and a
failing mutant (``seven_lasts_two_plays``); and a whole 2018 submission as a
student hands it in -- the model's ``Game.c`` with the bundled ``good``
``testGame.c`` and ``simple`` ``player.c`` -- with its implementation, its tests
and its player graded, and what that makes for a class of 1,000 graded two at
a time on 2 cores.
Each grade is ``fcd-grade`` in a fresh process, as a student runs it, with the
shipped profile (60 random games, memory stage on); the figure is the median
of the rounds, with the seconds each stage took (from results.json).

``--against TREE`` (repeatable) grades the same cases with another checkout of
the grader (``git worktree add /tmp/before <commit>``), interleaved round by
round so a slow spell of the machine hits all, and prints how many times as
fast the current tree is.  Each tree uses its own reference cache as it would
(warm after the first round: ``--rounds 1`` times a cold cache).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CASES = {  # name: (submission under fixtures/, the target the issue sets in seconds, game)
    "model": ("submissions/model", 5.0, "fcd18s2"),
    "failing_mutant": ("submissions/mutants/skip_ignored", 10.0, "fcd18s2"),
    "hangs_on_fifth_play_move": ("submissions/hostile/hang_on_fifth_play_move", 30.0, "fcd18s2"),
    "model_2017": ("fcd17s2/submissions/model", 7.5, "fcd17s2"),
    "failing_mutant_2017": ("fcd17s2/submissions/mutants/advance_ignored", 15.0, "fcd17s2"),
    "palace_model": ("palace/submissions/model", 5.0, "palace"),
    "palace_failing_mutant": ("palace/submissions/mutants/seven_lasts_two_plays", 10.0, "palace"),
    "whole_submission": ("", 12.0, "fcd18s2"),  # made by ``whole_submission``: Game.c, testGame.c, player.c
}
WHOLE = {"Game.c": "submissions/model", "Card.c": "submissions/model", "testGame.c": "student_tests/good",
         "player.c": "players/simple"}  # file -> the fixture folder it comes from
CLASS = 1000  # the class the whole submission's figure is projected to
CLASS_JOBS = 2  # submissions graded at once on 2 cores (``fcd-grade batch --jobs 2``)
COUNTERPARTS = {"model_2017": "model", "failing_mutant_2017": "failing_mutant"}  # 2017 within 1.5x of 2018


def whole_submission(folder: Path) -> Path:
    """A submission as a student hands it in (``WHOLE``), written into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in WHOLE.items():
        (folder / name).write_bytes((FIXTURES / source / name).read_bytes())
    return folder


def grade_once(tree: Path, submission: Path, game: str) -> tuple[float, dict[str, float], float]:
    """Wall seconds of one ``fcd-grade``, the seconds per stage, and the score."""
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, PYTHONPATH=str(tree))
        start = time.perf_counter()
        cli = "grader.core.cli" if (tree / "grader" / "core" / "cli.py").exists() else "grader.cli"  # older trees
        extra = ["--game", game] if game != "fcd18s2" else []  # older trees know only the default
        if not (submission / "player.c").is_file():  # the implementation only (a model may hold its author's tests)
            extra.append("--no-tests")
        subprocess.run([sys.executable, "-m", cli, str(submission), "--out", out, "--quiet", *extra],
                       cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - start
        score = json.loads((Path(out) / "results.json").read_text())["score"]  # Gradescope's, in every version
        ours = Path(out) / "result.json"  # the grader's own result, with each test's kind and seconds
        result = json.loads(ours.read_text()) if ours.exists() else {}
    stages: dict[str, float] = {}
    for t in result.get("tests", []):
        stages[t["kind"]] = stages.get(t["kind"], 0.0) + t.get("seconds", 0.0)
    for part in ("suite", "players"):  # the parts marked apart: the student's tests, the player
        if result.get(part):
            stages[part] = result[part].get("seconds", 0.0)
    return wall, stages, score


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--against", type=Path, action="append", default=[],
                    help="another checkout of the grader, timed in the same run (may be given again)")
    ap.add_argument("--only", nargs="*", choices=sorted(CASES), default=sorted(CASES))
    args = ap.parse_args()
    trees = {"now": ROOT} | {tree.name: tree.resolve() for tree in args.against}
    whole = whole_submission(Path(tempfile.mkdtemp(prefix="bench-whole-")) / "whole")
    walls: dict[tuple[str, str], list[float]] = {}
    stages: dict[tuple[str, str], dict[str, list[float]]] = {}
    scores: dict[tuple[str, str], float] = {}
    for _ in range(args.rounds):
        for case in args.only:
            for label, tree in trees.items():
                folder = whole if case == "whole_submission" else FIXTURES / CASES[case][0]
                wall, per_stage, score = grade_once(tree, folder, CASES[case][2])
                walls.setdefault((case, label), []).append(wall)
                for kind, s in per_stage.items():
                    stages.setdefault((case, label), {}).setdefault(kind, []).append(s)
                scores[(case, label)] = score
    print(f"fcd-grade, full profile, median of {args.rounds} round(s), {os.cpu_count()} cores")
    for case in args.only:
        _sub, target, _game = CASES[case]
        for label in trees:
            w = statistics.median(walls[(case, label)])
            per = ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in sorted(stages[(case, label)].items())
                            if statistics.median(v) >= 0.05)
            ratio = statistics.median(walls[(case, label)]) / statistics.median(walls[(case, "now")])
            print(f"  {case:26s} {label:10s} {w:6.1f} s  (target {target:.0f} s)  score {scores[(case, label)]:6.2f}"
                  + (f"  now is {ratio:.2f}x as fast" if label != "now" else "") + (f"  [{per}]" if per else ""))
    for case, base in COUNTERPARTS.items():
        if case in args.only and base in args.only:
            ratio = statistics.median(walls[(case, "now")]) / statistics.median(walls[(base, "now")])
            print(f"  {case} takes {ratio:.2f}x the time of {base} (target: at most 1.5x)")
    if "whole_submission" in args.only:
        w = statistics.median(walls[("whole_submission", "now")])
        hours = CLASS * w / CLASS_JOBS / 3600
        print(f"  a class of {CLASS:,} whole submissions, {CLASS_JOBS} at a time: {CLASS:,} x {w:.1f} s / {CLASS_JOBS} "
              f"= {hours:.2f} h (target: under 2 h)")


if __name__ == "__main__":
    main()
