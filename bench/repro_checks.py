"""What the C repro programs of each Final Card-Down edition check, scenario by scenario.

    python bench/repro_checks.py

For every scenario it writes the program a fixed submission would run (the scenario's own focus, no
failure known) and counts its checks: the scenarios whose program checks nothing are listed (a program
that checks nothing prints "All checks passed" whatever the code does).  Whether each program fails where
the grader failed is a test: ``python -m pytest -m slow tests/games/fcd18s2/test_repros.py
tests/games/fcd17s2/test_repros17.py tests/games/palace/test_repro_palace.py``.
"""

from __future__ import annotations

import importlib

from grader.games.fcd.repro import ReproDialect, c_program

CHECKS = ("checkInt(", "checkBool(", "checkCards(", "checkHistory(", "checkPlayedIsTop(", "checkDrawnInHand(",
          "validityOf(seen")


def checks_of(dialect: ReproDialect) -> dict[str, int]:
    """Scenario id -> how many checks its program makes (counted in the C text after main)."""
    out = {}
    for s in dialect.scenarios():
        text = c_program(s.id, s.says, s.rules, s.deck, s.moves, focus=dialect.focus(s.rules), dialect=dialect)
        body = text.split("int main(", 1)[1]
        out[s.id] = sum(body.count(c) for c in CHECKS)
    return out


def main() -> None:
    for edition, name in (("fcd18s2", "FCD18_REPRO"), ("fcd17s2", "FCD17_REPRO")):
        dialect = getattr(importlib.import_module(f"grader.games.{edition}.repro"), name)
        counts = checks_of(dialect)
        empty = sorted(s for s, n in counts.items() if n == 0)
        print(f"{edition}: {len(counts)} scenarios, {sum(counts.values())} checks in all, "
              f"{len(empty)} programs check nothing{': ' + ', '.join(empty) if empty else ''}")


if __name__ == "__main__":
    main()
