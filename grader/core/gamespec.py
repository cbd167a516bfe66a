"""GameSpec: everything the core needs to know of one gradable game, as one value.

The core (build, sandbox, worker, grading pipeline, reports, batch, cli) takes
a ``GameSpec`` and imports no game: a game is a package under
``grader/games/`` whose ``GAME`` is one of these, found by name through
``grader.games.get``.  The fields are what the pipeline asks of a game:

- its rules: the reference engine behind the engine contract (``grader.core.engine``);
- its C interface: the headers students include (the first ones declare the
  API, read by the game's cffi module) and the functions the build checks for;
- its marking: the default ``marking.toml`` and the rulings a course may make
  strict;
- its tests: the scenarios, a session that plays one of them on the reference
  and on the submission, and the later stages (random games, memory);
- its sandbox side: the module the worker imports to run a job in a child;
- its C repro programs, written beside the reports;
- its replay: the game as dealt and after each move (``grader.core.replay``), for the HTML report;
- what a student's own test program is run against: the model, the accepted readings, the mutants
  (``grader.core.suite``);
- the game at the table, with its baseline players (``grader.core.arena``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from grader.core.engine import Engine
from grader.core.results import TestResult


@dataclass(frozen=True)
class GameSpec:
    name: str  # short name, used on the command line (--game) and in reports
    title: str  # what the report calls it
    engine: Engine  # the reference rules, for generic algorithms (random play, tournaments)
    include_dir: Path  # the course's headers (and any file the build compiles with every submission)
    api_headers: tuple[str, ...]  # the headers that declare the API (the cffi declarations are read from them)
    course_headers: tuple[str, ...]  # every header the course gave students: a submission may include any
    api_functions: tuple[str, ...]  # every function the API declares: the build checks each is defined
    course_sources: Mapping[str, tuple[str, str]]  # file the course handed out -> (function, regex of its definition)
    build_rules: tuple[str, ...]  # the clauses the build tests are marked under
    marking_file: Path  # the default marking configuration
    rulings: Mapping[str, Any]  # ruling id -> ruling: what a course may make strict
    sandbox_job: str  # module the worker imports: ``warm_up()`` before forking, ``run(request, results)`` in a child
    sandbox_packages: tuple[str, ...]  # top-level packages the worker needs besides ``grader``
    load_scenarios: Callable[[], Sequence[Any]]
    open_session: Callable[..., Any]  # (folder, *, limits, strict, compile_timeout) -> a session (see grade.py)
    owners: Callable[[Sequence[Any]], Any]  # which scenario owns each observation (for notes)
    later_stages: Callable[..., list[TestResult]]  # random games, memory: (session, config, scenarios, ...) -> tests
    write_repros: Callable[..., dict[str, str]]  # (result, folder, sources) -> test id -> repro file name
    replay_frames: Callable[[str, str], Sequence[Any]]  # (deck, moves) as a test wrote them -> replay.Frame each step
    # What a student's own test program is run against (grader.core.suite.targets.Targets, or None when the
    # game has none to offer); None: the game does not grade students' tests
    suite_targets: Callable[[], Any] | None = None
    # The game at the table, for the runner and tournaments (grader.core.arena.game.ArenaGame); None: no arena
    arena: Callable[[], Any] | None = None

    def __str__(self) -> str:
        return self.name
