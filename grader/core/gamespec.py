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
- the game at the table, with its baseline players (``grader.core.arena``);
- how it explains itself: what marks a submission as written for it (``Hallmarks``: the build hints at the
  right ``--game`` when a submission looks like another game's) and how to read its moves (``notation``).

Each field is typed by what the core does with it: ``Scenario``, ``Session`` and ``Ruling`` say what it reads
and calls, the callables' protocols what it passes.  A game's own values (its scenarios, its session) reach
the core as these and come back to the game as these: the game narrows them to its own types.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Protocol, Self, Sequence

from grader.core.engine import Engine

# Annotations only: the registry imports a game's package, which imports this module; so this module imports
# nothing that imports the registry (results -> suite.judge -> config does).
if TYPE_CHECKING:
    from grader.core.arena.game import ArenaGame, Seating
    from grader.core.build import BuildResult
    from grader.core.config import MarkingConfig
    from grader.core.policy import Policy
    from grader.core.replay import Frame
    from grader.core.results import SubmissionResult, TestResult
    from grader.core.sandbox.limits import Limits
    from grader.core.suite.targets import Targets


class Ruling(Protocol):
    """A ruling as the core reads it: the configuration takes its id (``[rulings] strict``); a student's test
    that assumes one reading is told the question and the other reading (``grader.core.suite.judge``)."""

    @property
    def id(self) -> str: ...

    @property
    def question(self) -> str: ...

    @property
    def readings(self) -> tuple[str, ...]: ...  # the reference's reading first


class Scenario(Protocol):
    """A scenario test as the core reads it: its id and group (``--only``, marks, visibility) and its rules.
    The core hands it back to its game (the session, the owners, the later stages), which knows the rest."""

    @property
    def id(self) -> str: ...  # "group/name"

    @property
    def group(self) -> str: ...

    @property
    def rules(self) -> tuple[str, ...]: ...

    @property
    def weight(self) -> float: ...


# Which test owns each observation: (observation, after a move?) -> test id.  The game makes it from the scenarios
# (``GameSpec.owners``), the core hands it to the session, and the game's comparison names the owner of a difference.
Owners = dict[tuple[str, bool], str]


class Session(Protocol):
    """One submission under test, as the core uses it (``grade.py``, ``memcheck.py``): built once, one worker,
    many games.  ``grader.core.session.SubmissionSession`` is all of it but ``run_scenario``, which a game adds."""

    owners: Owners  # set by the pipeline before the first scenario
    homes: Mapping[str, str]  # each rule clause's home group (``grader.core.ownership``), set with ``owners``

    @property
    def build(self) -> BuildResult: ...

    @property
    def limits(self) -> Limits: ...  # now: short ones after a game timed out

    @property
    def timeouts(self) -> int: ...  # games that timed out so far

    @property
    def limits_note(self) -> str: ...  # what the report says of the limits ('' when they never changed)

    def run_scenario(self, scenario: Scenario) -> TestResult: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


class OpenSession(Protocol):
    """``GameSpec.open_session``: build ``folder`` and start its worker, under the marking configuration's limits."""

    def __call__(self, folder: Path, *, limits: Limits, strict: frozenset[str],
                 compile_timeout: float, policy: Policy) -> Session: ...


class LaterStages(Protocol):
    """``GameSpec.later_stages``: the tests after the scenarios (random games, memory), from the scenarios played
    and their results; ``random_games``: how many (None: the configuration's), ``memory``: whether that stage runs."""

    def __call__(self, session: Session, config: MarkingConfig, played: Sequence[tuple[Scenario, TestResult]], *,
                 random_games: int | None, memory: bool) -> Iterable[TestResult]: ...  # as they come


@dataclass(frozen=True)
class Hallmarks:
    """What marks a submission as written for this game, so that one graded as another game is told which flag
    to use instead of being left with a wall of compile errors (``grader.core.build.lookalike``).  The game's API
    headers count too (a submission includes them); a mark another registered game shares counts for both."""

    flag: str = ""  # how a user chooses this game on the command line ("--edition 17s2"); "": never suggested
    words: tuple[str, ...] = ()  # identifiers its submissions use and other games' do not (functions, enum names)
    files: tuple[str, ...] = ()  # file names besides the API headers (its sources: "Palace.c")


@dataclass(frozen=True)
class GameSpec:
    name: str  # short name, used on the command line (--game) and in reports
    title: str  # what every report calls it, edition included: "Final Card-Down (2017)"
    engine: Engine  # the reference rules, for generic algorithms (random play, tournaments)
    include_dir: Path  # the course's headers (and any file the build compiles with every submission)
    api_headers: tuple[str, ...]  # the headers that declare the API (the cffi declarations are read from them)
    course_headers: tuple[str, ...]  # every header the course gave students: a submission may include any
    api_functions: tuple[str, ...]  # every function the API declares: the build checks each is defined
    course_sources: Mapping[str, tuple[str, str]]  # file the course handed out -> (function, regex of its definition)
    build_rules: tuple[str, ...]  # the clauses the build tests are marked under
    marking_file: Path  # the default marking configuration
    rulings: Mapping[str, Ruling]  # ruling id -> ruling: what a course may make strict
    sandbox_job: str  # module the worker imports: ``warm_up()`` before forking, ``run(request, results)`` in a child
    sandbox_packages: tuple[str, ...]  # top-level packages the worker needs besides ``grader``
    load_scenarios: Callable[[], Sequence[Scenario]]
    open_session: OpenSession  # (folder, *, limits, strict, compile_timeout, policy) -> a session (grade.py)
    owners: Callable[[Sequence[Scenario]], Owners]  # which scenario owns each observation (for notes)
    later_stages: LaterStages  # random games, memory: (session, config, played, *, random_games, memory) -> tests
    write_repros: Callable[[SubmissionResult, Path], dict[str, str]]  # (result, folder) -> test id -> repro file name
    replay_frames: Callable[[str, str], Sequence[Frame]]  # (deck, moves) as a test wrote them -> the frame of each step
    # What a student's own test program is run against (None from it when the game has none to offer here);
    # None: the game does not grade students' tests
    suite_targets: Callable[[], Targets | None] | None = None
    # The game's seating at the table (its baselines, its students' players), for the runner and tournaments;
    # None: no arena
    arena: Callable[[], Seating] | None = None
    # What marks a submission as this game's (for the hint to another game's flag); none: never suggested
    hallmarks: Hallmarks = Hallmarks()
    # How to read the cards, games and moves its messages write, one point a line: the reports print it once
    notation: str = ""
    # The fixture folders and files its marks are read from (its scenarios, the targets of students' tests): the
    # store's grader version hashes these, not every fixture (a test's fixture changes no mark)
    marking_fixtures: Callable[[], tuple[Path, ...]] = tuple

    def arena_game(self) -> ArenaGame:
        """The game at the table: its engine with its seating; asking a game that has none is a usage error
        (callers check ``arena`` first)."""
        if self.arena is None:
            raise ValueError(f"{self.title} has no game runner")
        from grader.core.arena.game import ArenaGame  # noqa: PLC0415 - the arena, only when it is asked for

        seating = self.arena()
        return ArenaGame(seating.engine, seating)

    def __str__(self) -> str:
        return self.name
