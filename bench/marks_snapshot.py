"""Grade every bundled submission and keep, for each, its score, its marks per group and every verdict.

    python bench/marks_snapshot.py --write FILE [--random-games N] [--no-memory] [--jobs N] [--only NAME ...]
    python bench/marks_snapshot.py --check FILE          # grade again, print every difference, exit 1 on one

A refactor must not change a mark: write a snapshot before, check it after.
``bench/marks_baseline.json`` is the snapshot of the model, every mutant and every reading
at the commit that wrote it (full profile; the hostile submissions are left out of it because
their hangs take minutes): ``--check bench/marks_baseline.json`` compares with it.  The
other games' bundled submissions are named ``GAME:kind/name`` (``fcd17s2:mutants/...``,
``palace:readings/...``, from ``fixtures/GAME/submissions``) and graded for that game with
its own default marking; ``bench/marks_baseline_games.json`` is their snapshot.
The profile used (random games, memory stage) is stored in the file, and
``--check`` grades with the same one.  ``bench/kill_matrix.py --from FILE``
prints the kill matrix from a snapshot without grading again.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fixtures" / "submissions"))

from mutants import MUTANTS, READINGS  # noqa: E402
from variants import HOSTILE  # noqa: E402

from grader.core.config import MarkingConfig  # noqa: E402
from grader.core.grade import grade  # noqa: E402
from grader.games import DEFAULT_GAME  # noqa: E402
from grader.games import get as get_game  # noqa: E402

SUBMISSIONS = ROOT / "fixtures" / "submissions"
OTHER_GAMES = {"fcd17s2": ROOT / "fixtures" / "fcd17s2" / "submissions",
               "palace": ROOT / "fixtures" / "palace" / "submissions"}


def bundled() -> list[str]:
    """Every bundled submission of the default game, as ``kind/name`` under fixtures/submissions."""
    return (["model"] + [f"mutants/{m.name}" for m in MUTANTS] + [f"readings/{r.name}" for r in READINGS]
            + [f"hostile/{h.name}" for h in HOSTILE])


def bundled_elsewhere() -> list[str]:
    """Every bundled submission of the other games, as ``GAME:kind/name``: the model, mutants and readings."""
    return [f"{game}:{rel}" for game, base in OTHER_GAMES.items()
            for rel in ["model"] + [f"{kind}/{p.name}" for kind in ("mutants", "readings")
                                    for p in sorted((base / kind).iterdir()) if p.is_dir()]]


def located(name: str) -> tuple[str, Path]:
    """The game and folder of a snapshot's submission name."""
    game, _, rel = name.rpartition(":")
    return (game, OTHER_GAMES[game] / rel) if game else (DEFAULT_GAME, SUBMISSIONS / rel)


def grade_one(job: tuple[str, int, bool]) -> tuple[str, dict[str, Any]]:
    """One submission's marks and verdicts (what must not change), and how long it took (what may).  The
    random games: ``games`` for the default game; each other game plays its own default number."""
    name, games, memory = job
    start = time.monotonic()
    game_name, folder = located(name)
    game = get_game(game_name)
    config = MarkingConfig.load(game=game)
    # The implementation's marks only: a model folder that holds its author's test program is not graded on it
    result = grade(folder, config, game=game, random_games=games if game_name == DEFAULT_GAME else None,
                   memory=memory, own_tests=False)
    return name, {
        "score": result.score,
        "lost": {g.group: round(g.max_marks - g.marks, 2) for g in result.groups if g.marks < g.max_marks},
        "tests": {t.id: t.verdict.value for t in result.tests},
        "failed": sum(1 for t in result.tests if t.verdict.family == "fail"),
        "not_shown": result.marks_not_shown(),
        "seconds": round(time.monotonic() - start, 2),
    }


def grade_all(names: list[str], games: int, memory: bool, jobs: int, quiet: bool = False) -> dict[str, dict[str, Any]]:
    """Each named submission graded with this profile, ``jobs`` at a time."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        done = {}
        for name, entry in pool.map(grade_one, [(n, games, memory) for n in names]):
            if not quiet:
                print(f"  {name:55} {entry['score']:6.2f}  ({entry['seconds']:.1f} s)", flush=True)
            done[name] = entry
        return done


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed in marks or verdicts, one line each (times are not compared)."""
    lines = []
    for name in sorted(set(before) | set(after)):
        b, a = before.get(name), after.get(name)
        if b is None or a is None:
            lines.append(f"{name}: {'new' if b is None else 'gone'}")
            continue
        if b["score"] != a["score"] or b["lost"] != a["lost"]:
            lines.append(f"{name}: score {b['score']} -> {a['score']}, lost {b['lost']} -> {a['lost']}")
        for test in sorted(set(b["tests"]) | set(a["tests"])):
            if b["tests"].get(test) != a["tests"].get(test):
                lines.append(f"{name}: {test}: {b['tests'].get(test)} -> {a['tests'].get(test)}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", type=Path, help="grade and save the snapshot here")
    what.add_argument("--check", type=Path, help="grade again with the saved profile and compare")
    parser.add_argument("--random-games", type=int, default=MarkingConfig.load().random_games)
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="kind/name of submissions to grade")
    parser.add_argument("--games", action="store_true",
                        help="the other games' submissions (GAME:kind/name) instead of the default game's")
    args = parser.parse_args()
    start = time.monotonic()
    if args.check:
        saved = json.loads(args.check.read_text())
        names = [n for n in saved["submissions"] if not args.only or n in args.only]
        now = grade_all(names, saved["random_games"], saved["memory"], args.jobs)
        diff = differences({n: saved["submissions"][n] for n in names}, now)
        before_s = sum(saved["submissions"][n]["seconds"] for n in names)
        after_s = sum(e["seconds"] for e in now.values())
        print("\n".join(diff) if diff else f"no difference in marks or verdicts over {len(names)} submissions")
        print(f"grading time summed over submissions: {before_s:.0f} s before, {after_s:.0f} s now; "
              f"{time.monotonic() - start:.0f} s wall")
        return 1 if diff else 0
    names = [n for n in (bundled_elsewhere() if args.games else bundled()) if not args.only or n in args.only]
    now = grade_all(names, args.random_games, not args.no_memory, args.jobs)
    args.write.write_text(json.dumps({"random_games": args.random_games, "memory": not args.no_memory,
                                      "submissions": now}, indent=1, sort_keys=True) + "\n")
    print(f"{len(now)} submissions in {time.monotonic() - start:.0f} s -> {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
