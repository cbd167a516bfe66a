"""2017 edition: every mutant of the model disagrees with the reference engine; the model never does.

A mutant (fixtures/fcd17s2/submissions/mutants.py) is the 2017 model with one
realistic student bug.  Each is built from its folder and played through the
seeded games of test_model17_agreement.py, comparing every query of Game.h
after every move, until the first difference: an AssertionError of
``Pair.check``, or a crash.  Each comparison runs in a forked child of a
ProcessPoolExecutor worker, so a mutant that segfaults or loops fails only its
own check.  A mutant marked ``caught_by="memory"`` (a leak, a copied card: the
queries cannot see it) is shown by the model's own C tests failing under
AddressSanitizer's leak check, as the grader's 2017 memory stage does (tests/games/fcd17s2/test_memory17.py).
"""

from __future__ import annotations

import filecmp
import importlib.util
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

import cffi
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_model17_agreement import INCLUDE, Pair, _declarations, chosen, in_forked_child, seeded_game  # noqa: E402, E501

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "fcd17s2" / "submissions"
GAMES = 60  # seeds 0..59 of the agreement test, each game played until its end or the first difference
TIME_LIMIT = 20  # seconds for one submission's games (a mutant may loop)


def _load(name: str, path: Path) -> object:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_mutants = _load("fcd17s2_make_mutants", SUBMISSIONS / "make_mutants.py")
MUTANTS = make_mutants.load_mutants()
SEEN = [m for m in MUTANTS if m.caught_by != "memory"]


def first_difference(folder: Path, workdir: Path) -> str | None:
    """Build the submission, play the seeded games on it and on the engine: the first difference, or None."""
    library = workdir / f"lib{folder.name}.so"
    subprocess.run(["gcc", "-std=gnu11", "-O1", "-g", "-shared", "-fPIC", "-I", str(INCLUDE), "-o", str(library),
                    str(folder / "Game.c"), str(folder / "Card.c")], check=True, capture_output=True)
    ffi = cffi.FFI()
    ffi.cdef(_declarations())
    lib = ffi.dlopen(str(library))
    try:
        for seed in range(GAMES):
            deck, choices = seeded_game(seed)
            pair = Pair(ffi, lib, deck)
            assert (lib.numCards(pair.c), [lib.numOfValue(pair.c, v) for v in range(16)]) == \
                (pair.ref.num_cards(), [pair.ref.num_of_value(v) for v in range(16)]), f"seed {seed}: counts"
            pair.check(f"seed {seed}, after newGame")
            for k, choice in enumerate(choices):
                legal = pair.ref.legal_moves()
                if not legal:
                    break
                move = chosen(legal, choice)
                pair.play(move)
                pair.check(f"seed {seed}, after move {k + 1} ({move})")
            lib.destroyGame(pair.c)
    except AssertionError as difference:
        return f"difference: {difference}"
    return None


def verdict(folder: str, workdir: str) -> str:
    """In a forked child: "agrees", "difference: ...", "crashed: ..." or "error: ..." (a harness failure)."""
    return in_forked_child(lambda: first_difference(Path(folder), Path(workdir)) or "agrees", TIME_LIMIT)


@cache
def verdicts(workdir: Path) -> dict[str, str]:
    """The model's verdict and every mutant's, two at a time."""
    folders = {"model": SUBMISSIONS / "model"} | {m.name: SUBMISSIONS / "mutants" / m.name for m in SEEN}
    with ProcessPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(verdict, str(folder), str(workdir)) for name, folder in folders.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return verdicts(tmp_path_factory.mktemp("mutants17"))


def test_the_model_agrees_over_the_same_games(found: dict[str, str]) -> None:
    assert found["model"] == "agrees"


@pytest.mark.parametrize("mutant", SEEN, ids=lambda m: m.name)
def test_the_seeded_games_catch_the_mutant(found: dict[str, str], mutant) -> None:  # noqa: ANN001
    assert found[mutant.name].startswith(("difference:", "crashed:")), \
        f"{mutant.name} ({', '.join(mutant.rules)}: {mutant.says}): {found[mutant.name]}"


def test_the_table_is_realistic_and_large_enough() -> None:
    names = [m.name for m in MUTANTS]
    assert len(MUTANTS) >= 28 and len(set(names)) == len(names)
    for m in MUTANTS:
        assert m.says and m.rules and all(r[0] in "SB" for r in m.rules if m.caught_by != "memory"), m.name


def test_the_mutant_folders_are_what_the_table_makes(tmp_path: Path) -> None:
    made = make_mutants.write_all(tmp_path / "mutants")
    committed = SUBMISSIONS / "mutants"
    assert sorted(p.name for p in committed.iterdir()) == sorted(p.name for p in made)
    for folder in made:
        comparison = filecmp.dircmp(folder, committed / folder.name)
        assert sorted(comparison.left_list) == sorted(comparison.right_list) == sorted(make_mutants.SOURCES)
        assert sorted(filecmp.cmpfiles(folder, committed / folder.name, make_mutants.SOURCES, shallow=False)[0]) == \
            sorted(make_mutants.SOURCES), folder.name


@pytest.mark.parametrize("mutant", [m for m in MUTANTS if m.caught_by == "memory"], ids=lambda m: m.name)
def test_a_memory_mutant_fails_the_model_c_tests_under_the_leak_checker(mutant, tmp_path: Path) -> None:  # noqa: ANN001
    folder = SUBMISSIONS / "mutants" / mutant.name
    program = tmp_path / "testGame"
    subprocess.run(["gcc", "-std=gnu11", "-O1", "-g", "-fsanitize=address", "-I", str(INCLUDE), "-o", str(program),
                    str(SUBMISSIONS / "model" / "testGame.c"), str(folder / "Game.c"), str(folder / "Card.c")],
                   check=True)
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "ASAN_OPTIONS": "detect_leaks=1"})
    assert done.returncode != 0 and ("leak" in done.stderr.lower() or "Assertion" in done.stderr), done.stderr[-1500:]
