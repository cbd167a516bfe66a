"""Every 2017 rule (S1-S26) and every STRICT ruling of the 2017 rulings table is named by some test here.

A test names the clauses it checks in its name or docstring (``test_S11_B22_...``).
S27 (the player AI) and S28 (course logistics) describe programs and pages other
than the engine and have nothing to check here.  The STRICT list is read from
``reference.fcd17s2.rulings`` (every row with a strict part), so a new STRICT row
needs a test before this passes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from reference.fcd17s2 import STRICT_IDS

HERE = Path(__file__).resolve().parent

RULES = [f"S{i}" for i in range(1, 27)]
CLAUSE = re.compile(r"(?<![A-Za-z0-9])([SB]\d+)(?!\d)")
RULE_GROUP_MODULES = ["test_deal17.py", "test_turn_structure17.py", "test_direction17.py", "test_continue17.py",
                      "test_declare17.py", "test_draw_two17.py", "test_calls17.py", "test_history17.py",
                      "test_end_of_game17.py", "test_recycling17.py", "test_first_discard17.py",
                      "test_engine17.py", "test_properties17.py"]
EXEMPT = ("notation", "describe")  # tests of the project's own notation and messages check no rule


def clauses_by_test(modules: list[str]) -> dict[str, set[str]]:
    """``module::test`` -> the clause ids its name and docstring mention."""
    out: dict[str, set[str]] = {}
    for name in modules:
        for node in ast.walk(ast.parse((HERE / name).read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                text = node.name.replace("_", " ") + " " + (ast.get_docstring(node) or "")
                out[f"{name}::{node.name}"] = set(CLAUSE.findall(text))
    return out


def test_every_test_of_the_rule_groups_names_the_clauses_it_checks() -> None:
    found = clauses_by_test(RULE_GROUP_MODULES)
    assert len(found) > 100
    assert [t for t, ids in found.items() if not ids and not any(w in t for w in EXEMPT)] == []


def test_every_rule_and_strict_ruling_is_named_by_a_test() -> None:
    """S1-S26 and every STRICT ruling (B-) appear in at least one test name or docstring of this folder."""
    modules = sorted(p.name for p in HERE.glob("test_*.py"))
    named = set().union(*clauses_by_test(modules).values())
    assert len(STRICT_IDS) == 45
    assert [c for c in RULES + list(STRICT_IDS) if c not in named] == []


def test_the_clause_pattern_reads_ids_and_not_cards() -> None:
    assert CLAUSE.findall("test S11 B22 two on 2BD, DBS/B and 9PQ*3; B5") == ["S11", "B22", "B5"]
