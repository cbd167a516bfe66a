"""A student's player at any game's table: built with the game's course model behind a guard, asked once.

A student's ``player.c`` is compiled with the course's model of the game ADT (never the student's own:
a player is judged on its decisions, not on its ADT) and the game's guard, which stands in for the
functions a player must not call; each decision runs in a fresh sandboxed child of the game's ``decide``
job, under a per-call limit (``ask_player``).  Every game's ``StudentPlayer`` is built on these two.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any, Mapping, Sequence

from grader.core.arena.players import Decision
from grader.core.build import CC, CFLAGS, trim
from grader.core.classify import classify
from grader.core.limits import Limits
from grader.core.results import Verdict
from grader.core.sandbox import prepare_dir, run_limited
from grader.core.worker_client import WorkerClient, WorkerLost


def ask_player(client: WorkerClient, request: Mapping[str, object], limits: Limits, refused_names: dict[int, str],
               refusal: str) -> tuple[Mapping[str, Any] | None, Decision | None, tuple[str, ...]]:
    """One decideMove of a student's player, in a fresh sandboxed child (every game's ``decide`` job):
    its answer frame (the worker's JSON: the game checks it), or the forfeit it earned (it crashed, hung,
    printed too much, gave no answer, called a function the guard refuses -- ``refused_names``, by the guard's
    bits, ``refusal`` says why not --, or changed the game), and the notes on what else it did."""
    try:
        report = client.run(request, limits, 4)
    except WorkerLost as lost:
        return None, Decision(None, f"its decideMove broke the sandbox's worker ({lost})"), ()
    decided = [f for f in report.frames if f.get("t") == "decided"]
    judged = classify(report, over=bool(decided))
    notes = (f"printed {len(report.stdout)} bytes in decideMove",) if report.stdout else ()
    if judged is not None and judged[0] is Verdict.OUTPUT:
        return None, Decision(None, f"printed more than {limits.output_kb} KiB in one decideMove", notes), notes
    if judged is not None and judged[0] is not Verdict.PASSED:
        return None, Decision(None, f"{judged[0].value}: {judged[1]}", notes), notes
    if not decided:
        return None, Decision(None, "decideMove gave no answer", notes), notes
    answer = decided[0]
    refused = int(answer.get("refused_what", 0))
    if refused:
        calls = ", ".join(name for bit, name in refused_names.items() if refused & bit)
        return None, Decision(None, f"called {calls} inside decideMove ({refusal})", notes), notes
    if answer.get("changed"):
        return None, Decision(None, "changed the game inside decideMove (what the API shows was not the same "
                              "after)", notes), notes
    return answer, None, notes


def build_player(folder: Path, work: Path, *, headers: Sequence[Path], model: Path, support: Sequence[Path],
                 guard: Path, renamed: Sequence[str], prefix: str) -> tuple[Path | None, str, str]:
    """A student's ``player.c`` built, in the sandbox, into a library with the course's ``model`` of the
    game ADT (its ``renamed`` functions compiled as ``prefix + name``, so the ``guard``'s stand in for them),
    the ``support`` sources (the card module) and the course's ``headers`` (over any of the student's).
    (the library, or None and why not and what the compiler said).  Every game's student player uses it."""
    source = folder / "player.c"
    if not source.is_file():
        return None, "no player.c", ""
    stage = work / "src"
    stage.mkdir()
    for p in folder.iterdir():
        if p.is_file() and p.suffix == ".h":
            shutil.copyfile(p, stage / p.name)
    for header in headers:
        shutil.copyfile(header, stage / header.name)
    shutil.copyfile(source, stage / "player.c")
    shutil.copyfile(model, stage / f"model_{model.name}")
    for extra in support:
        shutil.copyfile(extra, stage / f"model_{extra.name}")
    shutil.copyfile(guard, stage / guard.name)
    digest = hashlib.sha256(b"".join((stage / n).read_bytes() for n in sorted(p.name for p in stage.iterdir())))
    name = f"libplayer-{digest.hexdigest()[:16]}.so"
    prepare_dir(stage)
    renames = [f"-D{f}={prefix}{f}" for f in renamed]
    model_object = f"model_{model.stem}.o"
    steps = ([CC, *CFLAGS, "-w", "-fPIC", "-I.", *renames, "-c", f"model_{model.name}", "-o", model_object],
             [CC, *CFLAGS, "-w", "-fPIC", "-shared", "-I.", "-o", name, "player.c", guard.name, model_object,
              *(f"model_{extra.name}" for extra in support), "-lm"])
    for argv in steps:
        done = run_limited(argv, stage, 60.0, output_cap=1 << 20)
        if done.returncode != 0:
            return None, f"player.c does not compile with the course's {model.name}", trim(done.stdout + done.stderr)
    lib_dir = prepare_dir(work / "lib")
    shutil.copyfile(stage / name, lib_dir / name)
    return lib_dir / name, "", ""
