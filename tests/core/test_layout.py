"""The layout's rules: the core knows no game, no game knows another, the trusted side never imports the
sandbox side, no import circle; the reference knows no grader; one place per fact."""

from __future__ import annotations

import ast
from pathlib import Path

from grader.core import gamespec
from grader.games import GAMES, get

ROOT = Path(__file__).resolve().parents[2]
GRADER = ROOT / "grader"
FAMILIES = {"fcd": ("fcd18s2", "fcd17s2")}  # a family package under grader/games/ -> the games that stand on it


def _under_type_checking(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Is ``node`` inside ``if TYPE_CHECKING:`` (an import for the annotations only, never run)?"""
    while node in parents:
        node, child = parents[node], node
        if isinstance(node, ast.If) and child in node.body:
            test = node.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
                    (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
                return True
    return False


def imported_modules(path: Path, module: str = "", modules: frozenset[str] = frozenset()) -> set[str]:
    """Every module a file imports, at its top or inside a function (``from a import b`` counts as
    ``a`` and ``a.b``, or as ``a.b`` alone when it is one of ``modules``: a parent package is not an
    edge, whichever way its module is named); not what it imports under ``TYPE_CHECKING``.
    ``module``: the file's dotted name, for its relative imports."""
    tree = ast.parse(path.read_text())
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and _under_type_checking(node, parents):
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base:
                named = {f"{base}.{a.name}" for a in node.names}
                found |= named
                if not named <= modules:
                    found.add(base)
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same tree it imports (a package's ``__init__`` by the package's name)."""
    files = {module_name(p): p for p in root.rglob("*.py")}
    names = frozenset(files)
    return {m: {i for i in imported_modules(p, m, names) if i in files and i != m} for m, p in files.items()}


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan): each holds an import circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def game_of(module: str) -> str | None:
    """The game package (or family) a module of ``grader.games`` belongs to."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["grader", "games"] else None


def sandbox_side() -> set[str]:
    """The modules of a ``sandbox/`` folder that run with a student's library loaded: each game's job and its
    players' job (named by string to the worker), what loads a library (``load_symbols``), and what drives a
    loaded library (imports a loader).  The rest of a sandbox folder (frames, notation, the observer, the
    table's rows, limits) is what both sides agree on, and the trusted side may import it."""
    jobs = {get(name).sandbox_job for name in GAMES}
    loaders = set()
    for path in GRADER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "WorkerClient" and len(node.args) > 1 \
                    and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                jobs.add(node.args[1].value)
            if isinstance(node, ast.ImportFrom) and node.module == "grader.core.sandbox.native" \
                    and any(a.name == "load_symbols" for a in node.names):
                loaders.add(module_name(path))
    drivers = {m for m, imports in import_graph(GRADER).items() if imports & loaders}
    return jobs | loaders | drivers


def in_a_sandbox_folder(module: str) -> bool:
    return ".sandbox." in f"{module}."


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
    sneaky.write_text("def f():\n    from grader.games.fcd18s2.sandbox.observe import Observer\n")
    assert "grader.games.fcd18s2.sandbox.observe" in imported_modules(sneaky)


def test_no_game_imports_another_game() -> None:
    """The games stand side by side above the core (issue 33): a game may import the core, the reference
    and its family (``grader.games.fcd`` for the two Final Card-Down editions), never another game; a
    family imports none of its games."""
    offenders = {}
    for module, imports in import_graph(GRADER).items():
        mine = game_of(module)
        if mine is None:
            continue
        allowed = {mine} | {f for f, members in FAMILIES.items() if mine in members}
        bad = sorted(i for i in imports if game_of(i) not in (None, *allowed))
        if bad:
            offenders[module] = bad
    assert offenders == {}


def test_the_trusted_side_imports_nothing_of_the_sandbox_side() -> None:
    """What loads a student's library runs only in the worker: no module outside a ``sandbox/`` folder imports a
    game's job or its library loader, or what drives a loaded library (they share frames, notation and
    constants through the sandbox folders' other modules, e.g. ``grader.games.fcd.sandbox.frames``); and every
    such module is in a sandbox folder."""
    inside = sandbox_side()
    assert {"grader.games.fcd18s2.sandbox.play", "grader.games.fcd17s2.sandbox.play",
            "grader.games.fcd18s2.sandbox.decide", "grader.games.fcd.sandbox.loader",
            "grader.games.palace.sandbox.play", "grader.games.palace.sandbox.decide",
            "grader.games.palace.sandbox.library"} <= inside
    assert sorted(m for m in inside if not in_a_sandbox_folder(m)) == []
    offenders = {m: sorted(imports & inside) for m, imports in import_graph(GRADER).items()
                 if not in_a_sandbox_folder(m) and m not in inside and imports & inside}
    assert offenders == {}


def test_there_is_no_import_circle_in_the_grader() -> None:
    assert import_circles(import_graph(GRADER)) == []


def test_the_circle_check_finds_a_planted_circle(tmp_path: Path) -> None:
    """A circle closed by an import inside a function is found; one closed only under TYPE_CHECKING is not."""
    pkg = tmp_path / "grader" / "planted"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from grader.planted import b\n")
    (pkg / "b.py").write_text("def late():\n    from grader.planted.c import x\n    return x\n")
    (pkg / "c.py").write_text("from grader.planted.a import b\nx = 1\n")
    (pkg / "d.py").write_text("from typing import TYPE_CHECKING\nfrom grader.planted import a\n"
                              "if TYPE_CHECKING:\n    from grader.planted import d2\n")
    (pkg / "d2.py").write_text("from . import d\n")
    global ROOT  # module_name is relative to the tree checked
    saved, ROOT = ROOT, tmp_path
    try:
        graph = import_graph(tmp_path / "grader")
    finally:
        ROOT = saved
    assert graph["grader.planted.d2"] == {"grader.planted.d"}  # the relative import, resolved
    assert import_circles(graph) == [["grader.planted.a", "grader.planted.b", "grader.planted.c"]]


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
    assert palace.sandbox_job == "grader.games.palace.sandbox.play" and palace.sandbox_packages == ()


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
    from grader.games.fcd18s2.sandbox.interface import API, API_FUNCTIONS

    declared = {k.split(" ", 1)[1] for k in API.ffi()._parser._declarations if k.startswith("function ")}
    assert set(API_FUNCTIONS) == declared and len(API_FUNCTIONS) == 31


def test_the_observation_schema_is_the_table() -> None:
    """The shape a worker must send for each observation comes from its row of the table."""
    from grader.games.fcd.schema import SHAPES, schemas, valid_observation
    from grader.games.fcd18s2.observations import OBSERVATIONS, TABLE

    FIRST_STEP, EVERY_STEP = schemas(TABLE)

    assert set(FIRST_STEP) == {o.name for o in OBSERVATIONS}
    assert set(FIRST_STEP) - set(EVERY_STEP) == {"num_cards", "num_of_suit", "num_of_color", "num_of_value"}
    assert all(o.shape in SHAPES for o in OBSERVATIONS)
    good = {"current_player": 0, "hand": [[1, 2, 3, 4]], "card_counts": [7, 7, "missing", 7], "points": [0, 1, 2, 3]}
    obs = {n: "missing" for n in EVERY_STEP} | good
    assert valid_observation(obs, TABLE) is None
    wrong = "observation field 'card_counts' has the wrong shape"
    assert valid_observation({**obs, "card_counts": "missing"}, TABLE) == wrong
    assert valid_observation({**obs, "hand": [[1, 2, 3]]}, TABLE) == "observation field 'hand' has the wrong shape"
    assert "num_cards" in valid_observation(obs, TABLE, first=True)


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


def test_the_sandbox_gets_the_sandbox_folders_of_its_one_game_only() -> None:
    """The worker's read-only runtime holds the core's sandbox folder, the one of the game its job belongs to,
    and its family's; no other game, no marking configuration, no templates, no reference
    (``tests/core/test_sandbox_layout.py`` lists every file)."""
    from grader.core.isolation import runtime_dir

    game = get()
    root = runtime_dir(game.sandbox_job, game.sandbox_packages)
    assert (root / "grader" / "core" / "sandbox" / "worker.py").is_file()
    assert (root / "grader" / "games" / game.name / "sandbox" / "play.py").is_file()
    assert (root / "grader" / "games" / game.name / "sandbox" / "include" / "Game.h").is_file()
    assert not (root / "reference").exists()
    shared = {game_of(p) for p in game.sandbox_packages if game_of(p)}  # its family: ``grader.games.fcd``
    assert {p.name for p in (root / "grader" / "games").iterdir() if p.is_dir()} == {game.name, *shared} == \
        {"fcd18s2", "fcd"}
    assert {p.name for p in (root / "grader" / "core").iterdir()} == {"__init__.py", "sandbox"}
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
