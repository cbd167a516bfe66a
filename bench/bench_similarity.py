"""The similarity check on a generated class: N submissions, on 2 cores; then the rerun with one more.

    python bench/bench_similarity.py [--n 1000] [--jobs 2] [--copydetect 150] [--keep DIR]

The class is made of the bundled submissions of the three games (the 2018 model, the independent 2018
implementation, the mutants and readings of each game; the students' test programs and players), each
disguised as a copier would (``grader.core.similarity.disguise``: renamed names, reordered functions, other
comments, each or not by chance), and a twentieth are near copies of another student of the class.  It is
a hard class: most of it descends from three models, so most pairs share code and are scored (a real
class shares far less).  Printed: the time of the check from an empty store (target: 5 minutes for 1,000
on 2 cores), the time of the same check with one new submission (target: 10 s), what each did, and with
``--copydetect N`` the time copydetect's own ``CopyDetector`` (every pair) takes for N files, and what
that makes for the class.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.similarity.disguise import declared, disguise  # noqa: E402
from grader.games import get  # noqa: E402

FIXTURES = ROOT / "fixtures"
NEAR_COPIES = 0.05  # the share of the class that copies another student


def sources() -> tuple[list[Path], list[Path], list[Path]]:
    """The implementations (Game.c or Palace.c), test programs and players to make students from."""
    impl = [FIXTURES / "submissions" / "model" / "Game.c", FIXTURES / "submissions" / "independent" / "Game.c"]
    for kind in ("mutants", "readings"):
        impl += sorted((FIXTURES / "submissions" / kind).glob("*/Game.c"))
        impl += sorted((FIXTURES / "fcd17s2" / "submissions" / kind).glob("*/Game.c"))
        impl += sorted((FIXTURES / "palace" / "submissions" / kind).glob("*/Palace.c"))
    impl += [FIXTURES / "fcd17s2" / "submissions" / "model" / "Game.c", FIXTURES / "palace" / "submissions" / "model"
             / "Palace.c"]
    tests = sorted(FIXTURES.glob("**/student_tests/*/test*.c")) + [
        FIXTURES / "fcd17s2" / "submissions" / "model" / "testGame.c"]
    players = sorted(FIXTURES.glob("**/players/*/player.c"))
    return impl, tests, players


def make_student(folder: Path, rng: random.Random, pools: tuple[list[Path], list[Path], list[Path]],
                 keep: frozenset[str], class_so_far: list[Path]) -> None:
    folder.mkdir(parents=True)
    seed = rng.randrange(1 << 30)
    ways = {"rename": rng.random() < 0.8, "reorder": rng.random() < 0.6, "comments": rng.random() < 0.7}
    if class_so_far and rng.random() < NEAR_COPIES:  # a near copy of another student of the class
        other = rng.choice(class_so_far)
        for f in other.iterdir():
            (folder / f.name).write_text(disguise(f.read_text(), seed, keep, **ways))
        return
    impl, tests, players = pools
    (folder / "Game.c").write_text(disguise(rng.choice(impl).read_text(), seed, keep, **ways))
    if rng.random() < 0.7:
        (folder / "testGame.c").write_text(disguise(rng.choice(tests).read_text(), seed + 1, keep, **ways))
    if rng.random() < 0.5:
        (folder / "player.c").write_text(disguise(rng.choice(players).read_text(), seed + 2, keep, **ways))


def generate(root: Path, n: int, seed: int = 2018) -> list[Path]:
    rng = random.Random(seed)
    keep = frozenset().union(*(declared((g.include_dir / h).read_text() for h in g.course_headers)
                               for g in map(get, ("fcd18s2", "fcd17s2", "palace"))))
    made: list[Path] = []
    pools = sources()
    for i in range(n):
        folder = root / f"student{i:04d}"
        make_student(folder, rng, pools, keep, made)
        made.append(folder)
    return made


def copydetect_baseline(folders: list[Path], count: int, noise: int, guarantee: int, n: int) -> str:
    """copydetect's own every-pair ``CopyDetector`` on the implementations of ``count`` students."""
    from copydetect import CopyDetector

    files = [str(f / "Game.c") for f in folders[:count]]
    detector = CopyDetector(extensions=["c"], silent=True, autoopen=False, noise_t=noise, guarantee_t=guarantee)
    for f in files:
        detector.add_file(f)
    start = time.monotonic()
    detector._preprocess_code(detector.test_files)  # its fingerprinting, apart from its comparing
    middle = time.monotonic()
    detector.run()
    end = time.monotonic()
    per_pair = (end - middle) / (count * (count - 1) / 2)
    return (f"copydetect CopyDetector, {count} implementations: fingerprints {middle - start:.1f} s, every pair "
            f"{end - middle:.1f} s ({per_pair * 1000:.2f} ms a pair): for {n} students, the implementations' "
            f"pairs alone would take {per_pair * n * (n - 1) / 2 / 60:.0f} minutes on one core")


def main() -> None:
    from grader.core.config import MarkingConfig
    from grader.core.similarity.report import summary
    from grader.core.similarity.run import run_check
    from grader.core.similarity.settings import SimilaritySettings

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1000, help="students in the generated class")
    ap.add_argument("--jobs", type=int, default=2, help="processes of the check")
    ap.add_argument("--copydetect", type=int, default=0, metavar="N",
                    help="also time copydetect's CopyDetector (every pair) on N implementations")
    ap.add_argument("--keep", type=Path, default=None, help="leave the class and the output here")
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="fcd-bench-similarity-"))
    root, out = work / "class", work / "out"
    shutil.rmtree(work, ignore_errors=True)
    game = get("fcd18s2")
    settings = SimilaritySettings.of(MarkingConfig.load(game=game))
    start = time.monotonic()
    folders = generate(root, args.n)
    print(f"generated {args.n} students in {time.monotonic() - start:.1f} s ({root})")

    def timed(what: str) -> None:
        subs = [(f.name, f) for f in sorted(root.iterdir())]
        start = time.monotonic()
        report, section = run_check(subs, game, settings, out, args.jobs, "../similarity.html")
        seconds = time.monotonic() - start
        print(f"{what}: {seconds:.1f} s on {args.jobs} processes -- {summary(report)}; "
              f"{len(section.rows)} pages")

    timed(f"{args.n} students, an empty store")
    make_student(root / "zz-new-student", random.Random(7), sources(), frozenset(), folders)
    timed(f"{args.n + 1} students, one new")
    if args.copydetect:
        print(copydetect_baseline(folders, args.copydetect, settings.winnowing.noise,
                                  settings.winnowing.guarantee, args.n))
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
