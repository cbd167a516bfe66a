"""Palace's repro programs reproduce (issue #34, item 1): each failing scenario test's C program, built with the
submission it failed on, fails exactly where the grader failed -- ``FAILED after move N`` with N the test's
``failed_after`` (and the grader's words for what differed), ``CRASHED`` for a crash, ``DID NOT RETURN`` for a
time-out -- and, built with the model or with any accepted reading, passes.  It also passes on a mutant wherever
the grader passed that scenario there.

Each submission's scenario tests are run as the grader runs them (a ``PalaceSession`` per folder, two at a time),
``write_repros`` writes the programs, and the shared harness (``tests/reproducing.py``) compiles each program once
(one program per scenario: the program depends on the scenario only) and links them once per submission.

In CI: every mutant on the scenarios that name one of its rules (every mutant but the two only the memory stage
sees fails some of them), and a hang and a crash built from the model; every mutant on every scenario is
``-m slow``.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from broken import edited
from reproducing import CFLAGS, Outcome, compile_programs, link_with, run_program

from grader.core.results import TestResult as Judged  # a name pytest does not collect
from grader.core.results import Verdict
from grader.games import get
from grader.games.palace.repro import reproducible, write_repros
from grader.games.palace.sandbox.interface import INCLUDE_DIR
from grader.games.palace.session import PalaceSession

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "palace" / "submissions"
MODEL = SUBMISSIONS / "model"
SCENARIOS = {f"{s.group}/{s.id}": s for s in get("palace").load_scenarios()}
SAID = " * The grader said: "  # the one line of a program that depends on the result, not on the scenario


def _table(name: str) -> tuple[Any, ...]:
    """The mutants' or the readings' table (fixtures/palace/submissions/<name>.py)."""
    spec = importlib.util.spec_from_file_location(f"palace_{name}_repro_table", SUBMISSIONS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(getattr(module, name.upper()))


MUTANTS = {m.name: m for m in _table("mutants")}
READINGS = sorted(r.name for r in _table("readings"))


def _own(rules: tuple[str, ...]) -> list[str]:
    """The scenario tests that name one of these rules."""
    return [tid for tid, s in SCENARIOS.items() if set(rules) & set(s.rules)]


def _judged(folder: str, ids: list[str]) -> list[Judged]:
    """These scenario tests of one submission, played and judged by its Palace session (as ``grade`` runs them)."""
    with PalaceSession.open(Path(folder)) as session:
        return [session.run_scenario(SCENARIOS[tid]) for tid in ids]


def _sources(folder: Path) -> list[Path]:
    """A submission's Palace.c, with its own PalaceCard.c or the course's."""
    card = folder / "PalaceCard.c"
    return [folder / "Palace.c", card if card.is_file() else INCLUDE_DIR / "PalaceCard.c"]


def _expected(t: Judged, outcome: Outcome) -> str:
    """'' when the program's run shows what the grader's test result shows; else what it should have shown."""
    if t.verdict is Verdict.PASSED:
        return "" if outcome.passed else "passed"
    if t.verdict is Verdict.CRASHED:
        return "" if outcome.crashed else "CRASHED"
    if t.verdict is Verdict.TIMED_OUT:
        return "" if outcome.hung else "DID NOT RETURN"
    if t.verdict is Verdict.EXITED:
        return "" if "EXITED" in outcome.text else "EXITED"
    what = str(t.difference["what"]) if t.difference is not None else ""
    call = re.search(r"(\w+)\(", what)  # the C function the difference names (the words around it may change)
    if outcome.failed_after == t.failed_after and (call is None or f"{call.group(1)}(" in outcome.text):
        return ""
    return f"FAILED after move {t.failed_after}: {what}"


def check_repros(scope: str, tmp_path: Path) -> dict[str, int]:
    """Every mutant's scenario tests (``scope``: "own", those naming one of its rules; "all": every one), its failing
    ones' programs written; each program run on every mutant the grader judged its scenario on (failing where the
    grader failed, passing where it passed), on the model and on every reading (passing).  Some numbers back."""
    jobs = {name: _own(m.rules) if scope == "own" else sorted(SCENARIOS) for name, m in MUTANTS.items()}
    with ProcessPoolExecutor(max_workers=2) as pool:
        judged = dict(zip(jobs, pool.map(_judged, [str(SUBMISSIONS / "mutants" / n) for n in jobs], jobs.values())))

    # the programs: one per scenario test that failed somewhere (the same program for every submission)
    written: dict[str, Path] = {}
    repros = 0
    for name, results in judged.items():
        folder = tmp_path / "repro" / name
        files = write_repros(SimpleNamespace(tests=results), folder)
        failing = [t for t in results if reproducible(t, SCENARIOS[t.id])]
        assert sorted(files) == sorted(t.id for t in failing), name
        repros += len(files)
        for tid, file in files.items():
            text = "\n".join(line for line in (folder / file).read_text().splitlines() if not line.startswith(SAID))
            if tid in written:
                assert text == written[tid].read_text(), f"{tid}: its program differs between submissions"
            else:
                written[tid] = tmp_path / "programs" / file
                written[tid].parent.mkdir(parents=True, exist_ok=True)
                written[tid].write_text(text)
    assert written, "no scenario test failed on any mutant"
    ids = sorted(written)
    index = {tid: i for i, tid in enumerate(ids)}
    objects = compile_programs([written[tid] for tid in ids], INCLUDE_DIR, tmp_path / "objects")

    # what each submission's run must show: the grader's verdict there (a test whose rule was not shown, NOT_SHOWN,
    # and a failure no program shows claim nothing); the model and the readings pass every scenario
    claims: dict[Path, list[Judged]] = {}
    for name, results in judged.items():
        mine = [t for t in results  # (a test played on a rearranged deck has its own program: test_deal_map_palace)
                if t.id in index and not t.dealt_as
                and (t.verdict is Verdict.PASSED or reproducible(t, SCENARIOS[t.id]))]
        if mine:
            claims[SUBMISSIONS / "mutants" / name] = mine
    for folder in [MODEL, *(SUBMISSIONS / "readings" / n for n in READINGS)]:
        claims[folder] = [Judged(tid, "", (), 1.0, Verdict.PASSED) for tid in ids]

    def link(folder: Path) -> Path:
        exe = tmp_path / "exe" / f"{folder.parent.name}_{folder.name}"
        exe.parent.mkdir(parents=True, exist_ok=True)
        return link_with(objects, _sources(folder), INCLUDE_DIR, exe)

    with ThreadPoolExecutor(2) as pool:
        exes = dict(zip(claims, pool.map(link, claims)))
    runs = [(folder, t) for folder, ts in claims.items() for t in ts]
    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(lambda run: run_program(exes[run[0]], index[run[1].id]), runs))
    wrong = [f"{folder.parent.name}/{folder.name} {t.id}: expected {want}, the program said:\n{outcome.text}"
             for (folder, t), outcome in zip(runs, outcomes) if (want := _expected(t, outcome))]
    assert not wrong, f"{len(wrong)} of {len(runs)} runs do not show what the grader showed:\n" + "\n".join(wrong[:12])
    failing = sum(t.verdict is not Verdict.PASSED for _f, t in runs)
    mutants_failing = {f.name for f, t in runs if t.verdict is not Verdict.PASSED}
    return {"repros": repros, "programs": len(ids), "runs": len(runs), "failing runs": failing,
            "mutants failing": len(mutants_failing)}


def test_every_failing_test_of_a_mutant_reproduces_where_the_grader_failed(tmp_path: Path) -> None:
    """Every mutant, on the scenarios of its own rules: each failing test's program fails where its test failed,
    passes where the grader passed, and passes on the model and on every reading."""
    numbers = check_repros("own", tmp_path)
    seen_only_by_memory = {n for n, m in MUTANTS.items() if m.caught_by == "memory"}
    assert numbers["mutants failing"] == len(MUTANTS) - len(seen_only_by_memory), numbers
    # 135 programs once Palace judged around another test's difference (at least 150 before: fewer failures are charged)
    assert numbers["repros"] >= 130, numbers


@pytest.mark.slow
def test_every_failing_test_of_every_scenario_reproduces(tmp_path: Path) -> None:
    """The same for every scenario on every mutant (probes included)."""
    numbers = check_repros("all", tmp_path)
    assert numbers["repros"] >= 200, numbers


# ---- a hang and a crash, built from the model ----------------------------------------------------------------------
LIMITS = {"cpu": 1, "wall": 2.0}


def _edited(dest: Path, edits: list[tuple[str, str]]) -> Path:
    """The C model copied to ``dest`` with C inserted after each of these exact lines of its Palace.c."""
    return edited(MODEL, dest, edits, "Palace.c")


def _run_alone(folder: Path, t: Judged, out: Path) -> Outcome:
    """The test's program written, built (with HANG_SECONDS=1) with the folder's sources, and run."""
    files = write_repros(SimpleNamespace(tests=[t]), out)
    exe = out / "repro"
    subprocess.run(["gcc", *CFLAGS, "-DHANG_SECONDS=1", "-I", str(out), "-o", str(exe), str(out / files[t.id]),
                    *map(str, _sources(folder))], check=True, capture_output=True, timeout=120)
    return run_program(exe, 0, timeout=30)


def test_a_hang_and_a_crash_stop_the_program_and_name_the_call(tmp_path: Path) -> None:
    """A library that loops in its third playMove times out in the grader: its program stops itself (the alarm)
    and names that call.  One that crashes in currentTurn() once two moves were made: its program crashes there
    and names currentTurn()."""
    s = next(s for s in SCENARIOS.values() if s.probe is None and len(s.moves) >= 4)
    tid = f"{s.group}/{s.id}"
    hang = _edited(tmp_path / "hang", [("void playMove(Game game, playerMove move) {\n",
                                        "    static int calls;\n"
                                        "    if (++calls == 3) { for (volatile unsigned i = 0; ; i++) {} }\n")])
    crash = _edited(tmp_path / "crash", [
        ('#include "Palace.h"\n', "static int fcdMoves;\n"),
        ("void playMove(Game game, playerMove move) {\n", "    fcdMoves++;\n"),
        ("int currentTurn(Game game) {\n", "    if (fcdMoves >= 2) { volatile int *p = 0; *p = 1; }\n")])
    with PalaceSession.open(hang, limits=LIMITS) as session:
        hung = session.run_scenario(s)
    with PalaceSession.open(crash, limits=LIMITS) as session:
        crashed = session.run_scenario(s)
    assert (hung.id, hung.verdict, crashed.verdict) == (tid, Verdict.TIMED_OUT, Verdict.CRASHED)
    outcome = _run_alone(hang, hung, tmp_path / "hang_repro")
    assert outcome.hung and outcome.code == 3, outcome
    assert f"DID NOT RETURN within 1 seconds: playMove({s.moves[2]}), move 3" in outcome.text, outcome
    outcome = _run_alone(crash, crashed, tmp_path / "crash_repro")
    assert outcome.crashed and outcome.code == 2, outcome
    assert "CRASHED (signal 11) in currentTurn(), after move 2" in outcome.text, outcome


def test_which_failures_get_a_program() -> None:
    """A probe failed only beside another probe's reading, a limit and the grader's own trouble get none; a probe
    that failed on its own values, a crash and a hang do."""
    probe = next(tid for tid, s in SCENARIOS.items() if s.probe is not None)
    plain = next(tid for tid, s in SCENARIOS.items() if s.probe is None)

    def result(tid: str, verdict: Verdict, failed_on: str = "") -> Judged:
        return Judged(tid, tid.split("/")[0], (), 1.0, verdict, failed_on=failed_on)

    assert reproducible(result(probe, Verdict.WRONG, "hand_counts"), SCENARIOS[probe])
    assert not reproducible(result(probe, Verdict.WRONG, "readings"), SCENARIOS[probe])
    for verdict in (Verdict.CRASHED, Verdict.TIMED_OUT, Verdict.WRONG):
        assert reproducible(result(plain, verdict), SCENARIOS[plain])
    for verdict in (Verdict.PASSED, Verdict.NOT_SHOWN, Verdict.OUTPUT, Verdict.MEMORY, Verdict.WORKER_LOST):
        assert not reproducible(result(plain, verdict), SCENARIOS[plain])
