"""Marks for evidence: does a submission with two bugs lose what its two bugs lose apart?  And what do stubs get?

    python bench/additivity.py [--game fcd17s2|palace] [--random-games N] [--no-memory] [--jobs N] [--only PAIR ...]

For every pair of fixtures/submissions/pairs/ (PAIRS in fixtures/submissions/mutants.py: the model with
two single-bug mutants' edits) it grades the pair and its two mutants, and prints lost(a), lost(b),
their sum, lost(pair) and the difference (lost = 100 - score of the implementation's marks); then the
marks of the stubs of fixtures/submissions/stubs/ (a Game.c that does nothing, and Card.c alone), with
what they earn in the build, random games and memory groups.  The figures are for closing notes;
tests/games/fcd18s2/test_additivity.py asserts them (additivity within 2 marks; the stubs at most the build marks).

``--game fcd17s2`` or ``--game palace`` prints the same table for that game's pairs
(fixtures/GAME/submissions/pairs/, PAIRS of its mutants.py, written by its make_mutants.py), graded for
that game with its own marking and its own default number of random games unless ``--random-games`` is
given (no stubs there); tests/games/test_additivity_games.py asserts them.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fixtures" / "submissions"))

from variants import STUBS, generator_of, pair_name, pairs  # noqa: E402

from grader.core.config import MarkingConfig  # noqa: E402
from grader.core.grade import grade  # noqa: E402
from grader.games import DEFAULT_GAME  # noqa: E402
from grader.games import get as get_game  # noqa: E402

SUBMISSIONS = ROOT / "fixtures" / "submissions"
OTHER_GAMES = {"fcd17s2": ROOT / "fixtures" / "fcd17s2" / "submissions",
               "palace": ROOT / "fixtures" / "palace" / "submissions"}
TOLERANCE = 2.0  # marks: what tests/games/fcd18s2/test_additivity.py allows between lost(pair) and lost(a) + lost(b)


def folder_of(game_name: str) -> Path:
    """Where a game's model, mutants and pairs are."""
    return SUBMISSIONS if game_name == DEFAULT_GAME else OTHER_GAMES[game_name]


def pairs_of(game_name: str) -> list[tuple[Any, Any]]:
    """The game's PAIRS as the two mutants of each (another game's table through its make_mutants.py)."""
    if game_name == DEFAULT_GAME:
        return pairs()
    return generator_of(game_name, OTHER_GAMES[game_name]).load_pairs()


def grade_one(job: tuple[str, str, int | None, bool]) -> tuple[str, dict[str, Any]]:
    """One submission's score and every group's marks (a group with no test is absent: it earned nothing).
    ``games`` None: the game's own default number of random games."""
    game_name, name, games, memory = job
    start = time.monotonic()
    if game_name == DEFAULT_GAME:
        result = grade(SUBMISSIONS / name, MarkingConfig.load(), random_games=games, memory=memory, own_tests=False)
    else:  # as bench/marks_snapshot.py grades another game's submission
        game = get_game(game_name)
        result = grade(folder_of(game_name) / name, MarkingConfig.load(game=game), game=game, random_games=games,
                       memory=memory, own_tests=False)
    return name, {
        "score": result.score,
        "marks": {g.group: g.marks for g in result.groups},
        "lost": {g.group: round(g.max_marks - g.marks, 2) for g in result.groups if g.marks < g.max_marks},
        "seconds": round(time.monotonic() - start, 2),
    }


def grade_all(game_name: str, names: list[str], games: int | None, memory: bool,
              jobs: int) -> dict[str, dict[str, Any]]:
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return dict(pool.map(grade_one, [(game_name, n, games, memory) for n in names]))


def where(lost: dict[str, float]) -> str:
    return ", ".join(f"{g}: {v:g}" for g, v in sorted(lost.items())) or "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[DEFAULT_GAME, *OTHER_GAMES], default=DEFAULT_GAME)
    parser.add_argument("--random-games", type=int, default=None,
                        help="random games per submission (default: the game's marking's own number)")
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="pairs (a+b) to grade")
    parser.add_argument("--groups", action="store_true", help="also print where each lost its marks")
    args = parser.parse_args()
    start = time.monotonic()
    default = args.game == DEFAULT_GAME
    config = MarkingConfig.load() if default else MarkingConfig.load(game=get_game(args.game))
    if default and args.random_games is None:
        args.random_games = config.random_games
    chosen = [(a, b) for a, b in pairs_of(args.game) if not args.only or pair_name(a, b) in args.only]
    singles = sorted({m.name for p in chosen for m in p})
    names = (["model"] + [f"mutants/{n}" for n in singles] + [f"pairs/{pair_name(a, b)}" for a, b in chosen]
             + ([f"stubs/{s}" for s in STUBS] if default else []))
    rows = grade_all(args.game, names, args.random_games, not args.no_memory, args.jobs)

    def lost(name: str) -> float:
        return round(100 - rows[name]["score"], 2)

    print(f"game {args.game}; model: {rows['model']['score']:g}/100")
    print(f"{'pair':62} {'lost(a)':>7} {'lost(b)':>7} {'sum':>7} {'pair':>7} {'diff':>7}")
    worst = 0.0
    for a, b in chosen:
        la, lb, lp = lost(f"mutants/{a.name}"), lost(f"mutants/{b.name}"), lost(f"pairs/{pair_name(a, b)}")
        diff = round(lp - (la + lb), 2)
        worst = max(worst, abs(diff))
        flag = "" if abs(diff) <= TOLERANCE else "  <-- over 2"
        print(f"{pair_name(a, b):62} {la:7.2f} {lb:7.2f} {la + lb:7.2f} {lp:7.2f} {diff:+7.2f}{flag}")
        if args.groups:
            for label, name in (("a", f"mutants/{a.name}"), ("b", f"mutants/{b.name}"),
                                ("pair", f"pairs/{pair_name(a, b)}")):
                print(f"    {label:5} {where(rows[name]['lost'])}")
    print(f"largest |lost(pair) - (lost(a) + lost(b))|: {worst:.2f} marks (tolerance {TOLERANCE:g})")
    if default:
        build = config.marks("build")
        for s in STUBS:
            row = rows[f"stubs/{s}"]
            earned = {g: row["marks"].get(g, 0.0) for g in ("build", "random_games", "memory")}
            print(f"stubs/{s}: {row['score']:g}/100 (at most {build:g}, the build marks); earned: "
                  + ", ".join(f"{g} {v:g}" for g, v in earned.items())
                  + f"; scenario groups {round(row['score'] - sum(earned.values()), 2):g}")
    games = args.random_games if args.random_games is not None else config.random_games
    print(f"random games {games}, memory stage {'on' if not args.no_memory else 'off'}; "
          f"{len(names)} submissions in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
