"""Which mutants are killed, what each costs, and how much of that falls outside its own rule.

    python bench/kill_matrix.py [--random-games N] [--no-memory] [--jobs N] [--only NAME ...]
    python bench/kill_matrix.py --from SNAPSHOT      # marks saved by bench/marks_snapshot.py --write
    python bench/kill_matrix.py --games [--from SNAPSHOT]   # the other games: 2017 and Palace, each alone

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
the rules on a few of them.  With ``--games`` the same table is printed for each other game
(fixtures/GAME/submissions/: a mutant's clauses are those its ``/* MUTANT name (clauses): ...`` line names,
the memory stage owns the clauses of the game's memory dialect).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fixtures" / "submissions"))

from marks_snapshot import OTHER_GAMES, grade_all  # noqa: E402
from mutants import MUTANTS, READINGS  # noqa: E402

from grader.core.config import MarkingConfig  # noqa: E402
from grader.games import get as get_game  # noqa: E402
from grader.games.fcd17s2.memcheck import FCD17  # noqa: E402
from grader.games.fcd18s2.memcheck import FCD18  # noqa: E402
from grader.games.palace.memcheck import PALACE  # noqa: E402

MEMORY_RULES = {"fcd18s2": FCD18.rules, "fcd17s2": FCD17.rules, "palace": PALACE.rules}
HEADER = re.compile(r"/\* MUTANT (\w+) \(([^)]*)\)")


@dataclass(frozen=True)
class Entry:
    """A bundled mutant or reading as the matrix reads it: its snapshot name and the clauses it breaks."""
    kind: str  # mutants | readings
    name: str
    rules: tuple[str, ...]
    caught_by: str = ""
    prefix: str = ""  # "GAME:" for another game's submission in a games snapshot

    @property
    def key(self) -> str:
        return f"{self.prefix}{self.kind}/{self.name}"


def header_rules(folder: Path) -> tuple[str, ...]:
    """The clauses a mutant's ``/* MUTANT name (S12, B27): ...`` line names (its C files, first match)."""
    for source in sorted(folder.glob("*.c")):
        found = HEADER.search(source.read_text(errors="replace"))
        if found:
            return tuple(r.strip() for r in found.group(2).split(",") if r.strip())
    return ()


def entries_of(game: str) -> list[Entry]:
    """The bundled mutants and readings of another game, from its fixtures folder."""
    base = OTHER_GAMES[game]
    return [Entry(kind, p.name, header_rules(p) if kind == "mutants" else (), prefix=f"{game}:")
            for kind in ("mutants", "readings") for p in sorted((base / kind).iterdir()) if p.is_dir()]


@cache
def scenarios_of(game: str) -> tuple[Any, ...]:
    return tuple(get_game(game).load_scenarios())


def owning_groups(rules: tuple[str, ...], game: str = "fcd18s2") -> set[str]:
    """The marks groups that own any of these clauses (the game's scenarios, and its memory stage)."""
    scenarios = scenarios_of(game)
    owned = {s.group for s in scenarios if set(rules) & set(s.rules)}
    if set(rules) & set(MEMORY_RULES[game]):
        owned.add("memory")
    return owned


def table(entries: list[Entry], rows: dict[str, dict], game: str) -> None:
    """One game's matrix: a row per mutant and reading, then the totals and the groups-hit distribution."""
    print(f"{'':9} {'submission':40} {'killed':6} {'lost':>6} {'collateral':>10} {'not shown':>9} {'outside':>7}  "
          f"where (group: marks lost)")
    worst_single = worst_hidden = 0.0
    unkilled, readings_short = [], []
    groups_hit: list[int] = []  # per mutant: in how many groups it lost marks (the random games' counted)
    for m in entries:
        if m.key not in rows:
            print(f"{m.kind:9} {m.name:40} (not in the snapshot)")
            continue
        row = rows[m.key]
        lost, score, seconds = row["lost"], row["score"], row["seconds"]
        owned = owning_groups(m.rules, game) | ({"memory"} if m.caught_by == "memory" else set())
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
        if m.kind == "mutants":
            worst_single, worst_hidden = max(worst_single, collateral), max(worst_hidden, outside)
            if not killed:
                unkilled.append(m.name)
            groups_hit.append(sum(1 for v in lost.values() if v > 0))
            print(f"{m.kind:9} {m.name:40} {'yes' if killed else 'NO':6} {total:6.2f} {collateral:10.2f} "
                  f"{shown_off:9.2f} {outside:7.2f}  {where} ({seconds:.1f} s)")
        else:
            if killed:  # a test failed or marks were lost (a stage left out is neither)
                readings_short.append(m.name)
            print(f"{m.kind:9} {m.name:40} {'':6} {total:6.2f} {'':10} {shown_off:9.2f} {'':7}  "
                  f"score {score:g}/100 {where} ({seconds:.1f} s)")
    n_mut = sum(1 for m in entries if m.kind == "mutants")
    print(f"\n{game}: killed {n_mut - len(unkilled)}/{n_mut} mutants; not killed: {unkilled or 'none'}")
    print(f"largest collateral of a mutant: {worst_single:.2f} marks charged outside its rules "
          f"(* marks a group outside the mutant's rules)")
    print(f"largest not shown outside its rules: {worst_hidden:.2f} marks (hidden steps: earned by no one, "
          f"charged to no one)")
    print(f"readings that lost marks: {readings_short or 'none'}")
    if groups_hit:
        spread = ", ".join(f"{n} group{'s' if n != 1 else ''}: {c}" for n, c in sorted(Counter(groups_hit).items()))
        print(f"groups a mutant lost marks in: {spread}; median {statistics.median(groups_hit):g}, "
              f"largest {max(groups_hit)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=MarkingConfig.load().random_games)
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="names of mutants or readings")
    parser.add_argument("--from", dest="snapshot", type=Path, default=None,
                        help="read the marks from a bench/marks_snapshot.py file instead of grading")
    parser.add_argument("--games", action="store_true",
                        help="the other games (2017, Palace); --from then reads a marks_snapshot.py --games file")
    args = parser.parse_args()
    if args.games:
        by_game = {game: entries_of(game) for game in OTHER_GAMES}
    else:
        by_game = {"fcd18s2": [Entry("mutants", m.name, m.rules, m.caught_by) for m in MUTANTS]
                   + [Entry("readings", r.name, ()) for r in READINGS]}
    if args.only:
        by_game = {g: [m for m in es if m.name in args.only] for g, es in by_game.items()}
    start = time.monotonic()
    if args.snapshot:
        saved = json.loads(args.snapshot.read_text())
        rows, games, memory = saved["submissions"], saved["random_games"], saved["memory"]
    else:
        games, memory = args.random_games, not args.no_memory
        rows = grade_all([m.key for es in by_game.values() for m in es], games, memory, args.jobs, quiet=True)
    for game, entries in by_game.items():
        if args.games:
            print(f"\n== {game}")
        table(entries, rows, game)
    print(f"random games {games}{' (the default game; each other plays its own)' if args.games else ''}, "
          f"memory stage {'on' if memory else 'off'}; {time.monotonic() - start:.0f} s in all"
          + (f" (marks read from {args.snapshot})" if args.snapshot else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
