"""Which group owns each rule clause: one bug, one group's deduction.

A scenario lists every clause its expectations rest on: a declaration test lists the matching rule R5 too,
because what it checks is a match.  Charging a difference to every test that lists the clause the reference
named would charge a matching bug in the declaration group as well, and in each group whose scenarios play a
card on the way.  So each clause has one home, the group whose scenarios are about it, and a test is charged
only for the clauses its own group owns (``own_clauses``); for the others it judges around a difference, as
for any clause it does not list.  The home is derived from the suite, never written down twice:
the group whose scenarios list the clause with the greatest weight; a tie goes to the group of the scenario
that leads with it (the clause earliest in its list, then the fewest clauses, then the first in the suite).

A scenario whose group owns none of its clauses keeps them all (it is then the only test of them in its
group, and judging nothing would let it pass on no evidence).  Every game uses this: its session takes
the clauses it charges a test for from ``own_clauses``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Iterable, Mapping

if TYPE_CHECKING:
    from grader.core.gamespec import Scenario


Homes = Mapping[str, str]  # rule clause -> the group that owns it


def home_groups(scenarios: Iterable[Scenario]) -> dict[str, str]:
    """Each clause the scenarios list -> its home group (see the module's docstring)."""
    weight: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    leading: dict[str, tuple[int, int, int, str]] = {}  # clause -> (place, clauses, order, group) of the scenario
    # that leads with it
    for order, s in enumerate(scenarios):
        for place, clause in enumerate(dict.fromkeys(s.rules)):
            weight[clause][s.group] += s.weight
            rank = (place, len(s.rules), order, s.group)
            if clause not in leading or rank < leading[clause]:
                leading[clause] = rank
    homes: dict[str, str] = {}
    for clause, by_group in weight.items():
        most = max(by_group.values())
        tied = [g for g, w in by_group.items() if w == most]
        lead = leading[clause][3]
        homes[clause] = tied[0] if len(tied) == 1 else lead if lead in tied else sorted(tied)[0]
    return homes


def own_clauses(group: str, rules: Iterable[str], homes: Homes) -> tuple[str, ...]:
    """The clauses of a test in ``group`` listing ``rules`` that it is charged for: those its group owns (a
    clause no scenario lists, e.g. a random game's, stays); all of them where its group owns none."""
    rules = tuple(rules)
    own = tuple(r for r in rules if homes.get(r, group) == group)
    return own or rules
