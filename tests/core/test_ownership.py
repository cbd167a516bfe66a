"""Each rule clause has one home group, and a test is charged only for the clauses its group owns."""

from __future__ import annotations

from dataclasses import dataclass

from grader.core.ownership import home_groups, own_clauses
from grader.games import get


@dataclass(frozen=True)
class S:
    group: str
    rules: tuple[str, ...]
    weight: float = 1.0


def test_the_home_is_the_group_whose_scenarios_list_the_clause_with_the_most_weight() -> None:
    suite = [S("matching", ("R5",)), S("matching", ("R5", "A19")), S("declare", ("R9", "R5")),
             S("declare", ("R9",)), S("declare", ("R9", "R5"), weight=0.5)]
    homes = home_groups(suite)
    # R5: matching 2, declare 1.5; R9: declare only; A19: matching only
    assert homes == {"R5": "matching", "A19": "matching", "R9": "declare"}
    assert own_clauses("declare", ("R9", "R5"), homes) == ("R9",)
    assert own_clauses("matching", ("R5", "A19"), homes) == ("R5", "A19")


def test_a_tie_goes_to_the_group_of_the_scenario_that_leads_with_the_clause() -> None:
    # A1: one scenario in each group; draw_two's comes first in the suite, but turns' leads with A1
    homes = home_groups([S("draw_two", ("R7", "A1")), S("turns", ("A1", "R6"))])
    assert homes["A1"] == "turns"
    assert homes["R7"] == "draw_two" and homes["R6"] == "turns"
    # the same place in both lists: the fewer clauses, then the first in the suite
    assert home_groups([S("b", ("X", "Y")), S("a", ("X",))])["X"] == "a"
    assert home_groups([S("b", ("X",)), S("a", ("X",))])["X"] == "b"


def test_a_test_whose_group_owns_none_of_its_clauses_keeps_them_all() -> None:
    homes = home_groups([S("matching", ("R5",)), S("matching", ("R5",)), S("skip", ("R5",))])
    assert own_clauses("skip", ("R5",), homes) == ("R5",)  # else it would judge nothing
    assert own_clauses("skip", ("R8", "R5"), homes) == ("R8",)  # R8: no scenario lists it, so no other group owns it


def test_in_the_shipped_suites_the_play_after_a_draw_is_the_turns_group_s() -> None:
    """rules.md's A1 (no play after a draw) is led by turns/no_play_after_drawing; draw_two lists it second."""
    homes = home_groups(get("fcd18s2").load_scenarios())
    assert homes["A1"] == "turns"
    assert homes["R5"] == "matching" and homes["R9"] == "declare" and homes["R10"] == "initial"
    # every test of the 2018 suite is charged for at least one clause, and only its group's where it has one
    for s in get("fcd18s2").load_scenarios():
        own = own_clauses(s.group, s.rules, homes)
        assert own and set(own) <= set(s.rules)
        assert all(homes[c] == s.group for c in own) or own == s.rules
