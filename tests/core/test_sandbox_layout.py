"""The sandbox holds nothing that knows the answers (issue 44): what runs next to student code is a folder,
``sandbox/``, in the core and in each game package, and the worker is given those folders and nothing else.

(a) what a job's runtime copy holds, listed; (b) in a real runtime copy, the reference and the trusted
side's trace and cache code cannot be imported; (c) no module of a ``sandbox/`` folder imports a module
outside the sandbox zone; the notation the sandbox keeps agrees with the reference's, both ways.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from grader.core.isolation import runtime_dir, sandbox_folders
from grader.games import get
from tests.core.test_layout import GRADER, ROOT, imported_modules, module_name

THIRD_PARTY = ("cffi", "pycparser", "orjson")
ALLOWED = set(sys.stdlib_module_names) | {"cffi", "_cffi_backend", "orjson"}
FOLDER_JOBS = ("fcd18s2", "fcd17s2", "palace")  # every game: its sandbox side is a folder
FAMILY = {"fcd18s2": "fcd", "fcd17s2": "fcd"}  # a game's family package, whose sandbox folder it is given too
SANDBOX_FILES = {  # the modules of each game's sandbox folder
    "fcd18s2": ["__init__.py", "decide.py", "interface.py", "observations.py", "observe.py", "play.py"],
    "fcd17s2": ["__init__.py", "decide.py", "interface.py", "observations.py", "observe.py", "play.py"],
    "palace": ["__init__.py", "decide.py", "frames.py", "interface.py", "library.py", "notation.py",
               "observations.py", "observe.py", "observer_call.py", "play.py", "playing.py"],
}
ANSWERS = {  # modules of each game that know the answers (the reference, the trusted side's trace and cache code)
    "fcd18s2": ("reference", "reference.game", "grader.games.fcd.reference_trace", "grader.core.cache",
                "grader.games.fcd.packed", "grader.games.fcd18s2.edition", "grader.games.fcd.spec"),
    "fcd17s2": ("reference", "reference.game", "grader.games.fcd.reference_trace", "grader.core.cache",
                "grader.games.fcd.packed", "grader.games.fcd17s2.edition", "grader.games.fcd.spec"),
    "palace": ("reference", "reference.palace", "reference.palace.game", "grader.core.cache",
               "grader.games.palace.engine", "grader.games.palace.session", "grader.games.palace.c_observer",
               "grader.games.palace.scenarios"),
}


def _sandbox_modules() -> dict[str, Path]:
    return {module_name(p): p for p in GRADER.rglob("*.py") if "sandbox" in p.relative_to(GRADER).parts[:-1]}


def _in_zone(module: str) -> bool:
    return ".sandbox." in f"{module}." and module.startswith("grader.")


def _shipped(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()
            and p.parts[len(root.parts)] in ("grader",) and "__pycache__" not in p.parts}


@pytest.mark.parametrize("name", FOLDER_JOBS)
@pytest.mark.parametrize("job", ["sandbox_job", "decide"])
def test_a_job_is_given_its_sandbox_folders_stub_parents_and_third_party_only(name: str, job: str) -> None:
    game = get(name)
    module = game.sandbox_job if job == "sandbox_job" else f"grader.games.{name}.sandbox.decide"
    root = runtime_dir(module, game.sandbox_packages)
    family = FAMILY.get(name)  # Palace has none: the core's folder and its own
    families = [family] if family else []
    assert sandbox_folders(module, game.sandbox_packages) == (
        "grader.core.sandbox", f"grader.games.{name}.sandbox", *(f"grader.games.{f}.sandbox" for f in families))
    stubs = {"grader/__init__.py", "grader/core/__init__.py", "grader/games/__init__.py",
             f"grader/games/{name}/__init__.py", *(f"grader/games/{f}/__init__.py" for f in families)}
    for stub in stubs:
        assert (root / stub).read_text() == "", stub
    folders = ("grader/core/sandbox", f"grader/games/{name}/sandbox", *(f"grader/games/{f}/sandbox" for f in families))
    expected = stubs | {str(Path(f) / p.relative_to(ROOT / f)) for f in folders for p in (ROOT / f).rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts}
    assert _shipped(root) == expected
    assert {p.name for p in root.iterdir()} == {"grader", *THIRD_PARTY, *(p.name for p in root.glob("_cffi_backend*"))}
    assert sorted(p.name for p in (root / "grader/core/sandbox").glob("*.py")) == [
        "__init__.py", "clocks.py", "limits.py", "native.py", "protocol.py", "values.py", "worker.py"]
    if family:
        assert sorted(p.name for p in (root / f"grader/games/{family}/sandbox").glob("*.py")) == [
            "__init__.py", "decide.py", "frames.py", "loader.py", "notation.py", "observations.py", "observe.py",
            "play.py"]
    assert sorted(p.name for p in (root / f"grader/games/{name}/sandbox").glob("*.py")) == SANDBOX_FILES[name]


def test_only_sandbox_folders_may_be_given() -> None:
    with pytest.raises(ValueError, match="sandbox folders only"):
        sandbox_folders("grader.games.fcd18s2.sandbox.play", ("grader.games.fcd",))


def _try_import(root: Path, module: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Import ``module`` with the runtime copy on the path, and nothing of the project (-E: not a PYTHONPATH
    that names the checkout; -S: not the editable install)."""
    code = (f"import sys; sys.path[:0] = [{str(root)!r}]; import grader.core.sandbox.worker, importlib; "
            f"m = importlib.import_module({module!r}); getattr(m, 'warm_up', lambda: None)()")
    return subprocess.run([sys.executable, "-E", "-S", "-B", "-c", code], capture_output=True, text=True, cwd=cwd,
                          timeout=60, check=False)


@pytest.mark.parametrize("name", FOLDER_JOBS)
def test_in_a_runtime_copy_the_job_loads_and_the_answers_cannot_be_imported(name: str, tmp_path: Path) -> None:
    game = get(name)
    root = runtime_dir(game.sandbox_job, game.sandbox_packages)
    for job in (game.sandbox_job, f"grader.games.{name}.sandbox.decide"):
        ran = _try_import(root, job, tmp_path)
        assert ran.returncode == 0, ran.stderr
    for answers in ANSWERS[name]:
        ran = _try_import(root, answers, tmp_path)
        assert ran.returncode != 0 and "ModuleNotFoundError" in ran.stderr, (answers, ran.stderr)


def test_no_sandbox_module_imports_anything_outside_the_sandbox_zone() -> None:
    """Standard library, cffi and orjson, and the sandbox folders: nothing else (not under TYPE_CHECKING
    either, so a reader of a sandbox module sees all it stands on)."""
    modules = _sandbox_modules()
    assert {"grader.core.sandbox.worker", "grader.games.fcd.sandbox.play", "grader.games.fcd18s2.sandbox.play",
            "grader.games.fcd17s2.sandbox.decide", "grader.games.palace.sandbox.play",
            "grader.games.palace.sandbox.decide"} <= set(modules)
    offenders = {}
    for module, path in modules.items():
        bad = sorted(m for m in imported_modules(path, module)
                     if not _in_zone(m) and m.split(".")[0] not in ALLOWED
                     and m not in ("grader", "grader.core", "grader.games")
                     and not any(m == z.rsplit(".", 1)[0] for z in modules))
        if bad:
            offenders[module] = bad
    assert offenders == {}


def test_the_zone_rule_would_catch_a_reference_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def f():\n    from reference.cards import format_key\n")
    assert "reference.cards" in imported_modules(sneaky) and not _in_zone("reference.cards")


# ---- the sandbox's notation is the reference's ---------------------------------------------------------------

def test_every_card_key_is_written_and_read_as_the_reference_does() -> None:
    from grader.games.fcd.sandbox import notation
    from reference.cards import COLOR_LETTERS, Value, format_key, parse_key

    assert notation.COLOR_LETTERS == COLOR_LETTERS and notation.D == Value.D
    for v in range(16):
        for c in range(5):
            for s in range(5):
                text = format_key((v, c, s))
                assert notation.format_key((v, c, s)) == text
                assert notation.parse_key(text) == tuple(parse_key(text)) == (v, c, s)
                assert notation.parse_key(text.lower()) == (v, c, s)


def _every_move(edition: str) -> list[str]:
    from reference.cards import format_key

    words = ["draw", "end"] + (["uno", "duo", "trio"] if edition == "fcd17s2" else [])
    cards = [format_key((v, c, s)) + (f"/{d}" if v == 13 else "")
             for v in range(16) for c in range(5) for s in range(5) for d in ("RBGYP" if v == 13 else "R")]
    return words + cards


@pytest.mark.parametrize("edition", ["fcd18s2", "fcd17s2"])
def test_every_move_is_read_and_written_as_the_reference_does(edition: str) -> None:
    import importlib

    reference = importlib.import_module("reference" if edition == "fcd18s2" else "reference.fcd17s2")
    job = importlib.import_module(f"grader.games.{edition}.sandbox.play").JOB
    actions = importlib.import_module(f"grader.games.{edition}.sandbox.observe").Action
    assert {a.name: int(a) for a in actions} == {a.name: int(a) for a in reference.Action}
    for token in _every_move(edition):
        ours, theirs = job.parse_move(token), reference.MoveSpec.parse(token)
        assert (int(ours.action), ours.card_key, ours.next_color) == \
            (int(theirs.action), theirs.card_key, None if theirs.next_color is None else int(theirs.next_color))
        assert str(ours) == str(theirs) == token
        assert job.parse_move(token.upper()) == ours


# ---- Palace's notation in the sandbox is the reference's -------------------------------------------------------

def test_every_palace_card_key_and_value_of_the_header_is_the_references() -> None:
    from grader.games.palace.sandbox import notation
    from reference.palace import HAND_DEAL, MAX_SET, TABLE_CARDS, Action, standard_deck
    from reference.palace.cards import format_key, parse_key

    assert (notation.HAND_DEAL, notation.TABLE_CARDS, notation.MAX_SET) == (HAND_DEAL, TABLE_CARDS, MAX_SET)
    assert {a.name: int(a) for a in notation.Action} == {a.name: int(a) for a in Action}
    deck = standard_deck()
    assert len(set(deck)) == 52
    for key in deck:
        text = format_key(key)
        assert notation.format_key(key) == text
        assert notation.parse_key(text) == tuple(parse_key(text)) == key
        assert notation.parse_key(text.lower()) == key


def test_a_palace_setup_read_in_the_sandbox_is_the_references() -> None:
    """Every rules word, repeats and two decks: the sandbox reads what the reference wrote, and what it read
    makes the reference's setup again (the sandbox writes no setup)."""
    from grader.games.palace.sandbox import notation
    from reference.palace import Setup, standard_deck

    deck = standard_deck()
    setups = [Setup(n, rules, tuple(cards)) for n in (2, 3, 5) for rules in range(4)
              for cards in (deck, deck + deck[:12], [(5, 0)] * 4 + [(9, 3)] * 4 + deck[:40])]
    setups.append(Setup.parse("2p mirror+seven: " + "5H 6D 7C " * 6 + "4C 9S*3"))
    for setup in setups:
        ours = notation.Setup.parse(str(setup))
        assert (ours.n_players, ours.rules, ours.deck) == (setup.n_players, setup.rules, setup.deck)
        assert (ours.n_cards, ours.ranks, ours.suits) == (setup.n_cards, setup.ranks, setup.suits)
        assert Setup(ours.n_players, ours.rules, ours.deck) == setup
        assert notation.Setup.parse(str(setup).upper()) == ours


def _every_palace_move() -> list[str]:
    from reference.palace import standard_deck
    from reference.palace.cards import format_key

    cards = [format_key(key) for key in standard_deck()]
    written = cards + [f"{c}@{i}" for i, c in enumerate(cards)]
    sets = [",".join(written[k:k + n]) for n in (2, 3, 8) for k in range(0, len(written) - n, 7)]
    return (["pickup"] + [f"blind:{i}" for i in (-1, 0, 1, 2, 3, 17)] + written + sets
            + [f"up:{s}" for s in written[:60] + sets])


def test_every_kind_of_palace_move_is_read_and_written_as_the_reference_does() -> None:
    from grader.games.palace.sandbox import notation
    from reference.palace import MoveSpec

    for token in _every_palace_move():
        ours, theirs = notation.MoveSpec.parse(token), MoveSpec.parse(token)
        assert (int(ours.action), ours.face_down_index) == (int(theirs.action), theirs.face_down_index)
        assert [tuple(r) for r in ours.cards] == [tuple(r) for r in theirs.cards]
        assert str(ours) == str(theirs) == token
        assert notation.MoveSpec.parse(token.upper()) == ours
        assert str(notation.MoveSpec(ours.action, ours.cards, ours.face_down_index)) == token


def test_a_palace_player_move_holds_what_the_references_does() -> None:
    """The reference reads a move the sandbox made (its own moves' fields: ``count``, ``entries``), as the
    battery's moves on the trusted side are."""
    from grader.games.palace.sandbox import notation
    from reference.palace import Card, PlayerMove

    a, b = Card.parse("5H@0"), Card.parse("5D@1")
    for cards in ((), (a,), (a, b), (a, None), (None,)):
        for count in (None, -1, 0, 1, 2, 3, 9):
            for action in (0, 1, 2, 3, 4, -1):
                ours, theirs = notation.PlayerMove(action, cards, 1, count), PlayerMove(action, cards, 1, count)
                assert (ours.action, ours.cards, ours.face_down_index, ours.num_cards) == \
                    (theirs.action, theirs.cards, theirs.face_down_index, theirs.num_cards)
                assert (ours.count, ours.entries()) == (theirs.count, theirs.entries())
