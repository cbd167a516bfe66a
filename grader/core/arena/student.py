"""A student's player at any game's table: built with the game's course model behind a guard, asked once.

A student's ``player.c`` is compiled with the course's model of the game ADT (never the student's own:
a player is judged on its decisions, not on its ADT) and the game's guard, which stands in for the
functions a player must not call; each decision runs in a fresh sandboxed child of the game's ``decide``
job, limited by the CPU time of its decideMove alone (``decision_clock``) and asked again before a forfeit
for time counts (``ask_player``).  Every game's ``StudentPlayer`` is a ``SandboxedPlayer``: what the
game gives (``PlayerKit``) built with these two, asked, and closed.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, NamedTuple, Sequence

from grader.core.arena.decision_clock import child_limits, overrun, with_budget
from grader.core.arena.players import Decision, Table
from grader.core.build import CC, CFLAGS, errors_first, foreign_symbols, refusal, trim
from grader.core.classify import classify
from grader.core.isolation import prepare_dir, run_limited
from grader.core.results import Verdict
from grader.core.sandbox.limits import Limits
from grader.core.worker_client import WorkerClient, WorkerLost


class Asked(NamedTuple):
    """One try at a decision (``ask_player``): the answer frame, or the forfeit it earned; the notes on what else
    it did; and whether the forfeit is for time (the decision clock's CPU budget, or the wall-clock backstop)."""

    answer: Mapping[str, Any] | None
    forfeit: Decision | None
    notes: tuple[str, ...]
    late: bool = False


def ask_player(client: WorkerClient, request: Mapping[str, object], limits: Limits, refused_names: Mapping[int, str],
               refusal: str) -> tuple[Mapping[str, Any] | None, Decision | None, tuple[str, ...]]:
    """One decideMove of a student's player, in a fresh sandboxed child (every game's ``decide`` job) under
    ``limits`` (a CPU budget for decideMove itself, ``decision_clock``; a wall-clock backstop for the child):
    its answer frame (the worker's JSON: the game checks it), or the forfeit it earned (it crashed, ran out
    of time, printed too much, gave no answer, called a function the guard refuses -- ``refused_names``, by
    the guard's bits, ``refusal`` says why not --, or changed the game), and the notes on what else it did.
    A decision that runs out of time is asked again, in a fresh process, before it counts: only a player
    that runs out again forfeits (one that answers the second time is noted), so that a moment's load on the
    machine never decides a game."""
    first = _ask_once(client, request, limits, refused_names, refusal)
    if not first.late or first.forfeit is None:
        return first.answer, first.forfeit, first.notes
    second = _ask_once(client, request, limits, refused_names, refusal)
    if second.late and second.forfeit is not None:
        again = f"{second.forfeit.forfeit}; asked again in a fresh process, it ran out of time again"
        return None, Decision(None, again, second.notes), second.notes
    retried = (f"its decideMove ran out of time once ({first.forfeit.forfeit}); asked again in a fresh process, "
               "it answered the second time",)
    if second.forfeit is not None:  # a forfeit for something else: it counts
        return None, Decision(None, second.forfeit.forfeit, retried + second.notes), retried + second.notes
    return second.answer, None, retried + second.notes


def _ask_once(client: WorkerClient, request: Mapping[str, object], limits: Limits, refused_names: Mapping[int, str],
              refusal: str) -> Asked:
    """``ask_player``'s one try, in one fresh child."""
    try:
        report = client.run(with_budget(request, limits), child_limits(limits), 4)
    except WorkerLost as lost:
        return Asked(None, Decision(None, f"its decideMove broke the sandbox's worker ({lost})"), ())
    decided = report.tagged("decided")
    notes = (f"printed {len(report.stdout)} bytes in decideMove",) if report.stdout else ()
    over = overrun(report, limits)
    if over is not None:
        return Asked(None, Decision(None, f"{Verdict.TIMED_OUT.value}: {over}", notes), notes, late=True)
    judged = classify(report, over=bool(decided))
    if judged is not None and judged[0] is Verdict.OUTPUT:
        return Asked(None, Decision(None, f"printed more than {limits.output_kb} KiB in one decideMove", notes), notes)
    if judged is not None and judged[0] is not Verdict.PASSED:
        return Asked(None, Decision(None, f"{judged[0].value}: {judged[1]}", notes), notes,
                     late=judged[0] is Verdict.TIMED_OUT)
    if not decided:
        return Asked(None, Decision(None, "decideMove gave no answer", notes), notes)
    answer = decided[0]
    refused = int(answer.get("refused_what", 0))
    if refused:
        calls = ", ".join(name for bit, name in refused_names.items() if refused & bit)
        return Asked(None, Decision(None, f"called {calls} inside decideMove ({refusal})", notes), notes)
    if answer.get("changed"):
        return Asked(None, Decision(None, "changed the game inside decideMove (what the API shows was not the same "
                                    "after)", notes), notes)
    return Asked(answer, None, notes)


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
    if refused := foreign_symbols(stage / name):  # loaded into the sandbox's Python: C library calls only
        return None, "player.c was refused", refusal(refused)
    lib_dir = prepare_dir(work / "lib")
    shutil.copyfile(stage / name, lib_dir / name)
    return lib_dir / name, "", ""


COMPILER_LINES = 12  # lines of the compiler's message shown for a player.c that does not compile


def compiler_lines(output: str, source: str, keep: int = COMPILER_LINES) -> list[str]:
    """The first ``keep`` lines of what the compiler said of a player that does not compile (``build_player``'s
    third value), its errors first, each ``player.c:LINE`` naming ``source``: the file the student edits, not the
    copy the build compiled.  A last line says how many more there were."""
    lines = [line.rstrip() for line in errors_first(output).rstrip("\n").splitlines()]
    named = [source + line.removeprefix("player.c") if line.startswith("player.c:") else line for line in lines]
    if len(named) > keep:
        return [*named[:keep], f"... ({len(named) - keep} more lines: fix the first error, then compile again)"]
    return named


@dataclass(frozen=True)
class PlayerKit:
    """What a game builds its students' players with (``build_player``'s course files) and asks them through:
    its ``decide`` job and the packages that job imports (``WorkerClient``), the guard's refusals
    (``ask_player``), and the prefix of a player's work folder."""

    headers: tuple[Path, ...]
    model: Path
    support: tuple[Path, ...]
    guard: Path
    renamed: tuple[str, ...]
    prefix: str
    job: str
    packages: tuple[str, ...]
    refused: Mapping[int, str]
    refusal: str
    work_prefix: str


class SandboxedPlayer:
    """A student's ``player.c`` at a game's table: built with the game's kit (``build_player``) into a work folder
    of its own, asked in the sandbox (``ask_player``); a game says what to ask (``request``) and judges the answer
    (``judge``).  ``problem``: why it could not be built ('' when it was), ``build_output``: what the compiler said
    (``fcd-play`` builds every player before the first game and says so there: the forfeit ``decide`` gives
    for a player that was not built is for a caller that did not)."""

    kind = "student"
    kit: PlayerKit

    def __init__(self, folder: str | Path, name: str, limits: Limits) -> None:
        self.folder = Path(folder)
        self.name = name or self.folder.name
        self.limits = limits
        kit = self.kit
        self.work = Path(tempfile.mkdtemp(prefix=kit.work_prefix))
        self.work.chmod(0o755)
        library, self.problem, self.build_output = build_player(
            self.folder, self.work, headers=kit.headers, model=kit.model, support=kit.support, guard=kit.guard,
            renamed=kit.renamed, prefix=kit.prefix)
        self.client = WorkerClient(library, kit.job, kit.packages) if library is not None else None

    def request(self, state: object, table: Table) -> Mapping[str, object]:
        """What the game's ``decide`` job is asked: the game so far."""
        raise NotImplementedError

    def judge(self, state: object, legal: Sequence[str], answer: Mapping[str, Any], notes: tuple[str, ...]) -> Decision:
        """The decision of the job's answer (it neither crashed nor broke the guard's rules): the game checks it."""
        raise NotImplementedError

    def decide(self, state: object, legal: Sequence[str], table: Table) -> Decision:
        if self.client is None:
            error = next((line for line in compiler_lines(self.build_output, "player.c") if "error" in line), "")
            return Decision(None, f"could not play: {self.problem}" + (f" ({error})" if error else ""))
        answer, forfeit, notes = ask_player(self.client, self.request(state, table), self.limits, self.kit.refused,
                                            self.kit.refusal)
        if answer is None:
            return forfeit or Decision(None, "gave no answer", notes)
        return self.judge(state, legal, answer, notes)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        shutil.rmtree(self.work, ignore_errors=True)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001, S110 - at interpreter exit, nothing more to do
            pass
