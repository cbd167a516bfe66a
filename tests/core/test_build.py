"""The compile step on what students really hand in (issue: build and load)."""

from __future__ import annotations

import re
from pathlib import Path

from grader.core.build import build, find_sources, trim
from grader.core.grade import grade
from grader.core.results import Verdict
from grader.games.fcd18s2 import GAME


def test_model_builds_with_a_unique_library_name(model_copy: Path) -> None:
    first = build(model_copy, GAME)
    assert first.ok, first.output
    assert first.missing == []
    assert re.fullmatch(r"libgame-[0-9a-f]{16}\.so", first.library.name)
    (model_copy / "Game.c").write_text((model_copy / "Game.c").read_text() + "\n/* changed */\n")
    second = build(model_copy, GAME)
    assert second.ok and second.library.name != first.library.name


def test_test_drivers_and_programs_are_never_compiled(model_copy: Path) -> None:
    (model_copy / "testGame.c").write_text('#include "Game.h"\nint main(void) { return 0; }\n')
    (model_copy / "player.c").write_text("int decideMove;\n")
    (model_copy / "runner.c").write_text("#include <stdio.h>\nint main(void) { puts(\"hi\"); }\n")
    sources = find_sources(model_copy, GAME)
    assert sorted(p.name for p in sources.compiled) == ["Card.c", "Game.c"]
    assert set(sources.ignored) == {"testGame.c", "player.c", "runner.c"}


def test_a_syntax_error_is_a_readable_build_failure(model_copy: Path) -> None:
    game = model_copy / "Game.c"
    game.write_text(game.read_text() + "\nint broken(void) { return 1 }\n")
    result = build(model_copy, GAME)
    assert not result.ok and result.library is None
    assert result.problem.startswith("Your code did not compile")
    assert "expected ';'" in result.output
    assert "Traceback" not in result.output


def test_a_failed_compile_skips_everything_that_needs_the_library(model_copy: Path) -> None:
    game = model_copy / "Game.c"
    game.write_text(game.read_text() + "\nint broken(void) { return 1 }\n")
    result = grade(model_copy, random_games=0, memory=False)
    assert result.status == "build failed"
    outcomes = {t.id: t.verdict for t in result.tests}
    assert outcomes["build/compiles"] is Verdict.WRONG
    assert all(o is Verdict.NOT_RUN for tid, o in outcomes.items() if tid != "build/compiles")
    assert result.score == 0


def test_game_c_including_card_c_compiles_only_the_including_file(model_copy: Path) -> None:
    game = model_copy / "Game.c"
    game.write_text('#include "Card.c"\n' + game.read_text())
    result = build(model_copy, GAME)
    assert result.ok, result.output
    assert [p.name for p in result.sources.compiled] == ["Game.c"]
    assert any("Card.c (#included by Game.c, which is compiled)" in n for n in result.notes)


def test_missing_card_c_builds_with_the_course_card_c(model_copy: Path) -> None:
    (model_copy / "Card.c").unlink()
    result = build(model_copy, GAME)
    assert result.ok, result.output
    assert result.sources.course_sources_used == ["Card.c"]
    assert any("course's Card.c" in n for n in result.notes)
    assert result.missing == []


def test_a_misspelled_function_loads_and_is_reported_once(model_copy: Path) -> None:
    game = model_copy / "Game.c"
    text = game.read_text()
    assert "getActiveDrawTwos(" in text
    game.write_text(text.replace("getActiveDrawTwos(", "getActiveDrawTwo("))
    result = build(model_copy, GAME)
    assert result.ok
    assert result.missing == ["getActiveDrawTwos"]


def test_the_students_own_game_h_is_replaced_by_the_course_header(model_copy: Path) -> None:
    (model_copy / "Game.h").write_text("/* my own version */\n")
    notes = find_sources(model_copy, GAME).notes
    assert any("Game.h differs" in n for n in notes)


def test_long_compiler_output_keeps_head_and_tail() -> None:
    text = "HEAD" + "x" * 10000 + "TAIL"
    cut = trim(text, keep=100)
    assert cut.startswith("HEAD") and cut.endswith("TAIL") and "characters cut" in cut
    assert trim("\x1b[31merror\x1b[0m") == "error"
