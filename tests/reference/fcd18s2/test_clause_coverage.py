"""Every 18s2 rule (R1-R15, R18) and every STRICT ruling of rules.md is named by some test here.

A test names the clauses it checks in its name or docstring (``test_R7_A7_...``).
R16 (the player AI) and R17 (how students test) describe programs other than
the engine and have nothing to check here; A40-A45 are 17s2-only.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent

RULES = [f"R{i}" for i in range(1, 16)] + ["R18"]
# STRICT in rules.md section 3 (wholly or in part) for 18s2.
STRICT = ["A2", "A4", "A5", "A6", "A7", "A9", "A10", "A11", "A12", "A13", "A14", "A15", "A16",
          "A18", "A19", "A21", "A23", "A25", "A27", "A29", "A31", "A32", "A33", "A34", "A35",
          "A36", "A37", "A39", "A46", "A47"]
CLAUSE = re.compile(r"(?<![A-Za-z0-9])([RA]\d+)(?!\d)")
RULE_GROUP_MODULES = ["test_deal.py", "test_matching.py", "test_draw_two.py", "test_skip.py",
                      "test_declare.py", "test_initial_special.py", "test_turn_structure.py",
                      "test_recycling.py", "test_end_of_game.py", "test_queries.py",
                      "test_properties.py"]


def clauses_by_test() -> dict[str, set[str]]:
    """``module::test`` -> the clause ids its name and docstring mention."""
    out: dict[str, set[str]] = {}
    for name in RULE_GROUP_MODULES:
        for node in ast.walk(ast.parse((HERE / name).read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                text = node.name.replace("_", " ") + " " + (ast.get_docstring(node) or "")
                out[f"{name}::{node.name}"] = set(CLAUSE.findall(text))
    return out


def named_clauses() -> set[str]:
    return set().union(*clauses_by_test().values())


def test_every_test_names_the_clauses_it_checks() -> None:
    """Each test of the rule-group modules names at least one R or A clause.

    Tests of the project's own card/move notation check no rule and are exempt.
    """
    assert [t for t, ids in clauses_by_test().items() if not ids and "notation" not in t] == []


def test_every_rule_and_strict_ruling_is_named_by_a_test() -> None:
    """R1-R15, R18 and the STRICT rulings each appear in at least one test name or docstring."""
    missing = [c for c in RULES + STRICT if c not in named_clauses()]
    assert missing == []
