"""The layout's rules: the core knows no game, the reference knows no grader, one place per fact."""

from __future__ import annotations

import ast
from pathlib import Path

from grader.core import gamespec
from grader.games import GAMES, get

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_the_core_imports_no_game() -> None:
    """Games are found by name through the registry (``grader.games.get``), never imported by the core."""
    offenders = {}
    for path in sorted((ROOT / "grader" / "core").rglob("*.py")):
        bad = sorted(m for m in imported_modules(path)
                     if any(m == f"grader.games.{g}" or m.startswith(f"grader.games.{g}.") for g in GAMES))
        if bad:
            offenders[str(path.relative_to(ROOT))] = bad
    assert offenders == {}


def test_the_import_rule_would_catch_a_game_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def f():\n    from grader.games.fcd18s2.observe import Observer\n")
    assert "grader.games.fcd18s2.observe" in imported_modules(sneaky)


def test_palace_imports_nothing_of_final_card_down() -> None:
    """Palace stands on the core only (issue 33): what it shared with Final Card-Down (the cffi module, the
    memory stage, a student's player, the C string helper) is the core's.  (The 2017 edition still stands on
    the 2018 package until the Final Card-Down family is one package of values.)"""
    offenders = {}
    for path in sorted((ROOT / "grader" / "games" / "palace").rglob("*.py")):
        bad = sorted(m for m in imported_modules(path) if m.startswith(("grader.games.fcd", "reference.fcd")))
        if bad:
            offenders[str(path.relative_to(ROOT))] = bad
    assert offenders == {}
    palace = get("palace")
    assert palace.sandbox_packages == ("reference",)


def test_the_reference_imports_nothing_of_the_grader() -> None:
    for path in sorted((ROOT / "reference").rglob("*.py")):
        assert not [m for m in imported_modules(path) if m.split(".")[0] == "grader"], path


def test_every_registered_game_is_a_gamespec_named_as_registered() -> None:
    for name in GAMES:
        game = get(name)
        assert isinstance(game, gamespec.GameSpec) and game.name == name
        assert game.marking_file.is_file()
        for header in game.course_headers:
            assert (game.include_dir / header).is_file()


def test_the_api_list_is_what_the_headers_declare() -> None:
    """API_FUNCTIONS is read from the headers: cffi's own parse of them names the same functions."""
    from grader.games.fcd18s2.loader import API_FUNCTIONS, ffi

    declared = {k.split(" ", 1)[1] for k in ffi()._parser._declarations if k.startswith("function ")}
    assert set(API_FUNCTIONS) == declared and len(API_FUNCTIONS) == 31


def test_the_observation_schema_is_the_table() -> None:
    """The shape a worker must send for each observation comes from its row of the table."""
    from grader.games.fcd18s2.observations import OBSERVATIONS
    from grader.games.fcd18s2.schema import EVERY_STEP, FIRST_STEP, SHAPES, valid_observation

    assert set(FIRST_STEP) == {o.name for o in OBSERVATIONS}
    assert set(FIRST_STEP) - set(EVERY_STEP) == {"num_cards", "num_of_suit", "num_of_color", "num_of_value"}
    assert all(o.shape in SHAPES for o in OBSERVATIONS)
    good = {"current_player": 0, "hand": [[1, 2, 3, 4]], "card_counts": [7, 7, "missing", 7], "points": [0, 1, 2, 3]}
    obs = {n: "missing" for n in EVERY_STEP} | good
    assert valid_observation(obs) is None
    assert valid_observation({**obs, "card_counts": "missing"}) == "observation field 'card_counts' has the wrong shape"
    assert valid_observation({**obs, "hand": [[1, 2, 3]]}) == "observation field 'hand' has the wrong shape"
    assert "num_cards" in valid_observation(obs, first=True)


def test_one_place_for_the_default_limits_and_the_marks_group_rule() -> None:
    """grep finds the default limits only in each game's marking.toml, and the stage groups only in results.py."""
    places = {}
    for path in (ROOT / "grader").rglob("*"):
        if path.suffix in (".py", ".toml") and path.is_file():
            text = path.read_text()
            if "cpu_seconds = " in text or '"cpu": 5' in text:
                places.setdefault("limits", []).append(path.name)
            if '"random": "random_games"' in text or '"random_games": 2' in text:
                places.setdefault("groups", []).append(path.name)
    from grader.games import GAMES  # noqa: PLC0415

    assert places == {"limits": ["marking.toml"] * len(GAMES), "groups": ["results.py"]}


def test_the_sandbox_gets_the_core_and_its_one_game_only() -> None:
    """The worker's read-only runtime holds the core without its reports, the game its job belongs
    to, and the game's engine; no other game, no marking configuration, no templates."""
    from grader.core.sandbox import runtime_dir

    game = get()
    root = runtime_dir(game.sandbox_job, game.sandbox_packages)
    assert (root / "grader" / "core" / "worker.py").is_file()
    assert (root / "grader" / "games" / game.name / "play.py").is_file()
    assert (root / "grader" / "games" / game.name / "include" / "Game.h").is_file()
    assert (root / "reference" / "game.py").is_file()
    assert [p.name for p in (root / "grader" / "games").iterdir() if p.is_dir()] == [game.name]
    assert not (root / "grader" / "core" / "report").exists()
    assert not (root / "grader" / "core" / "templates").exists()
    assert not list(root.rglob("*.toml"))


def test_the_rulings_name_only_observations_of_the_table() -> None:
    """The observation names are listed once, in the table; a ruling only refers to them."""
    from grader.games.fcd18s2.observations import ORDER  # noqa: PLC0415
    from reference.rulings import EVERY_OBSERVATION, RULINGS  # noqa: PLC0415

    named = {n for r in RULINGS for n in (*r.affects, *r.unaffected)} - {EVERY_OBSERVATION}
    assert named <= set(ORDER), sorted(named - set(ORDER))
    after_the_end = next(r for r in RULINGS if r.id == "A29")
    assert after_the_end.touches("hand") and after_the_end.touches("valid_play")
    assert not after_the_end.touches("winner") and not after_the_end.touches("num_of_suit")
