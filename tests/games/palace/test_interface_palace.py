"""The Palace C interface as the grader reads it (``grader.games.palace.sandbox.interface``): the function list in
header order, and an FFI whose ``playerMove`` has the layout the C compiler gives it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from grader.games.palace.sandbox.interface import API, API_FUNCTIONS, COURSE_HEADERS, HEADERS, INCLUDE_DIR
from grader.games.palace.sandbox.library import warm_up
from reference.palace import CARD_H_FUNCTIONS, MAX_SET, PALACE_H_FUNCTIONS, Action, Phase, Rank, Suit
from reference.palace import header as reference_header


def test_api_functions_are_the_32_of_the_headers_in_order() -> None:
    assert HEADERS == ("PalaceCard.h", "Palace.h") and COURSE_HEADERS == HEADERS + ("player.h",)
    assert len(API_FUNCTIONS) == 32
    assert API_FUNCTIONS == CARD_H_FUNCTIONS + PALACE_H_FUNCTIONS
    assert API_FUNCTIONS[:4] == ("newCard", "destroyCard", "cardRank", "cardSuit")
    assert API_FUNCTIONS[4:6] == ("newGame", "destroyGame") and API_FUNCTIONS[-1] == "getDeckCard"
    for name in COURSE_HEADERS:
        assert (INCLUDE_DIR / name).is_file()


def test_the_declarations_keep_the_integer_macros_and_nothing_else_of_the_preprocessor() -> None:
    source = API.cdef_source()
    defines = re.findall(r"^#define (\w+) (-?\d+)$", source, re.M)
    assert dict((k, int(v)) for k, v in defines) == API.header_constants()
    assert {k: v for k, v in API.header_constants().items() if k != "RULES_BASIC"} == {
        k: getattr(reference_header, k) for k in ("MIN_PLAYERS", "MAX_PLAYERS", "HAND_DEAL", "TABLE_CARDS", "MAX_SET",
                                                 "NOT_FINISHED", "RULE_MIRROR_THREE", "RULE_SEVEN_LOWER", "FALSE",
                                                 "TRUE")}
    assert "#ifndef" not in source and "#include" not in source and "#endif" not in source
    assert "PALACE_H" not in source


def test_the_ffi_builds_with_the_player_move_struct_of_the_header() -> None:
    f = API.ffi()
    move = f.typeof("playerMove")
    assert [name for name, _field in move.fields] == ["action", "numCards", "cards", "faceDownIndex"]
    cards = dict(move.fields)["cards"].type
    assert cards.kind == "array" and cards.length == MAX_SET and cards.item is f.typeof("Card")
    assert f.sizeof("playerMove") == 4 + 4 + MAX_SET * f.sizeof("Card") + 4 + 4  # padded to 8 on 64-bit
    assert f.offsetof("playerMove", "cards") == 8 and f.offsetof("playerMove", "faceDownIndex") == 8 + 8 * 8
    assert f.typeof("action").relements == {a.name: int(a) for a in Action}  # the enums' values
    assert f.typeof("phase").relements == {p.name: int(p) for p in Phase}
    assert f.typeof("rank").relements == {r.name: int(r) for r in Rank}
    assert f.typeof("suit").relements == {s.name: int(s) for s in Suit}
    types = API.function_types()
    assert set(types) == set(API_FUNCTIONS)
    assert types["isValidMove"].args[1] is move and types["playMove"].result is f.typeof("void")
    assert types["currentPhase"].result.kind == "enum"
    warm_up()  # what the worker builds before forking: no error


def test_the_struct_layout_is_the_compilers(tmp_path: Path) -> None:
    """sizeof/offsetof as gcc sees them in a program including Palace.h."""
    program = tmp_path / "layout.c"
    program.write_text('#include <stdio.h>\n#include <stddef.h>\n#include "Palace.h"\n'
                       'int main(void) { printf("%zu %zu %zu %zu", sizeof(playerMove), offsetof(playerMove, numCards),'
                       ' offsetof(playerMove, cards), offsetof(playerMove, faceDownIndex)); return 0; }\n')
    exe = tmp_path / "layout"
    subprocess.run(["gcc", "-std=c99", "-I", str(INCLUDE_DIR), "-o", str(exe), str(program)], check=True,
                   capture_output=True, timeout=60)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True, timeout=10).stdout.split()
    f = API.ffi()
    assert [int(x) for x in out] == [f.sizeof("playerMove"), f.offsetof("playerMove", "numCards"),
                                     f.offsetof("playerMove", "cards"), f.offsetof("playerMove", "faceDownIndex")]
