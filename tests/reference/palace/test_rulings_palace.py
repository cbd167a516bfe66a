"""The rulings table (rules-palace.md §3) as data, its agreement with the switches (§4.3), and that every
rule P1-P20 and every STRICT ruling is named by some test of this folder."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from decks_palace import play, seated

from reference.palace import (
    BY_ID,
    LENIENT_IDS,
    OBSERVATIONS,
    PALACE_H_FUNCTIONS,
    REFERENCE,
    RULINGS,
    STRICT_IDS,
    SWITCH_IDS,
    SWITCHES,
    Readings,
    switch_matters_now,
)
from reference.palace.rulings import KINDS

HERE = Path(__file__).resolve().parent
RULES = [f"P{i}" for i in range(1, 21)]
CLAUSE = re.compile(r"(?<![A-Za-z0-9])([PC]\d+)(?!\d)")
EXEMPT = ("notation", "legal_moves")  # tests of the project's own notation and move list check no rule


def test_every_ruling_C1_to_C47_once_in_order() -> None:
    assert [r.id for r in RULINGS] == [f"C{i}" for i in range(1, 48)]
    assert set(BY_ID) == {r.id for r in RULINGS} and BY_ID["C22"].title == "Does a ten give a free play?"
    assert all(r.kind in KINDS and r.readings and r.title for r in RULINGS)


def test_kinds_follow_the_spec() -> None:
    """§3: the header rulings, the LENIENT ones, the four switches, and everything else STRICT."""
    header = {r.id for r in RULINGS if r.kind == "STRICT (header)"}
    assert header == {"C1", "C2", "C3", "C5", "C6", "C40", "C43"}
    assert set(LENIENT_IDS) == {"C7", "C9", "C13", "C14", "C15", "C21", "C31", "C37", "C41"}
    assert SWITCH_IDS == ("C9", "C14", "C15", "C21") == tuple(SWITCHES)
    assert len(STRICT_IDS) == 47 - 9 and not set(STRICT_IDS) & set(LENIENT_IDS)
    for rid in ("C4", "C29", "C38", "C39", "C40", "C42"):
        assert BY_ID[rid].is_strict and BY_ID[rid].lenient_part  # STRICT with a part left open
    for rid in ("C9", "C14", "C15"):
        assert BY_ID[rid].strict_part


def test_switch_rows_match_the_readings() -> None:
    """§4.3: each LENIENT (switch) row names its Readings field; its readings are that field's choices, the
    reference's (the Readings default) first."""
    for rid in SWITCH_IDS:
        row = BY_ID[rid]
        field, choices = SWITCHES[rid]
        assert row.switch == field and row.readings == choices and row.reference == REFERENCE.of(rid)
    assert all(r.switch is None for r in RULINGS if not r.is_switch)


def test_rows_refer_to_rules_observations_and_functions_that_exist() -> None:
    for r in RULINGS:
        assert set(r.refines) <= set(RULES), r.id
        assert set(r.touches) <= set(OBSERVATIONS), r.id
        assert set(r.queries) <= set(PALACE_H_FUNCTIONS), r.id


def test_C9_C14_C15_C21_switch_matters_now() -> None:
    """The predicates say where a switch's readings can part: C9 a pair with cards to draw; C14 the face-down
    stage facing a pile; C15 twins of rank in the face-up row; C21 a run down to the starting card."""
    g = seated("6H 6D 9C", "7H 7D 7C", start="5S", draw="4H")
    assert switch_matters_now("C9", g) and not switch_matters_now("C14", g) and not switch_matters_now("C15", g)
    g = seated("8H 9C 9D", "8D JC JD", start="8S")
    assert switch_matters_now("C21", g)
    play(g, "8H")
    assert switch_matters_now("C21", g)
    play(g, "JC")
    assert not switch_matters_now("C21", g)
    g = seated("4H 4D 4C | 9H 9D 9C | 6H 6D 6C", "5S 2S 2C | JS",
               start="3S", readings=Readings(face_up_sets="singles"))
    play(g, "4H,4D,4C 5S")
    assert switch_matters_now("C15", g)
    play(g, "9H 2S 9D 2C 9C JS")
    assert g.stage(0) == "face_down" and switch_matters_now("C14", g)


def clauses_by_test() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                text = node.name.replace("_", " ") + " " + (ast.get_docstring(node) or "")
                out[f"{path.name}::{node.name}"] = set(CLAUSE.findall(text))
    return out


def test_every_rule_and_strict_ruling_is_named_by_a_test() -> None:
    """P1-P20 and every STRICT ruling appear in at least one test name or docstring of this folder."""
    named = set().union(*clauses_by_test().values())
    assert [c for c in RULES + list(STRICT_IDS) + list(SWITCH_IDS) if c not in named] == []


def test_every_rule_test_names_its_clauses() -> None:
    found = clauses_by_test()
    rule_modules = ("deal", "play", "specials", "end", "properties")
    unnamed = [t for t, ids in found.items()
               if not ids and any(f"test_{m}_" in t for m in rule_modules) and not any(w in t for w in EXEMPT)]
    assert unnamed == []
