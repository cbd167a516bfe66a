"""Grade one submission of one game: build, API check, scenarios, the game's later stages -- then marks.

This is the whole pipeline for one folder; ``fcd-grade`` and the batch mode
call it, and every report is written from the ``SubmissionResult`` it returns.
What is particular to a game comes from its ``GameSpec`` (its scenarios, its
session, its later stages such as random games and the memory stage).
A failed compile skips (NOT_RUN) everything that needs the library.  The
student's own tests and their ``player.c`` are marked apart (``result.suite``,
``result.players``); the player is built with the course's model, so it plays
whether or not the student's own library compiles.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import traceback
from functools import partial
from pathlib import Path
from typing import Callable, Iterable, Sequence

from grader.core.build import find_sources
from grader.core.config import MarkingConfig
from grader.core.digest import digest
from grader.core.gamespec import GameSpec, Scenario, Session
from grader.core.isolation import detect_mode
from grader.core.marks import rounded
from grader.core.ownership import home_groups
from grader.core.results import STAGE_RANK, GroupMarks, PlayersResult, SubmissionResult, TestResult, Verdict
from grader.core.submission import read_sources

Progress = Callable[[TestResult], None]


def source_hash(folder: Path, game: GameSpec | None = None) -> str:
    """A hash of what gets compiled and graded: a re-run with the same sources is the same submission.
    Each file enters as its role, name and length before its bytes (``grader.core.digest``): two different
    file sets never give one key."""
    game = game or _default_game()
    try:
        sources = find_sources(folder, game)
    except OSError:
        return "unreadable"
    parts: list[tuple[str, bytes]] = [("game", game.name.encode())]
    # The compiled files and the .c files they #include (a new Card.c inside Game.c is a new submission).
    for p in sorted([*sources.compiled, *(folder / n for n in sources.part_of)], key=lambda p: p.name):
        parts.append((f"compiled/{p.name}", p.read_bytes()))
    targets = game.suite_targets() if game.suite_targets is not None else None
    tests = folder / targets.test_file if targets is not None else None
    if tests is not None and tests.is_file():  # graded too: a new test program is a new submission
        parts.append((f"tests/{tests.name}", tests.read_bytes()))
    player = folder / "player.c"
    if game.arena is not None and player.is_file():  # graded too (``arena.qualify``): a new player, a new submission
        parts.append((f"player/{player.name}", player.read_bytes()))
    for p in sorted(folder.glob("*.h")):
        parts.append((f"header/{p.name}", p.read_bytes()))
    return digest(parts)


def _default_game() -> GameSpec:
    from grader.games import get  # noqa: PLC0415 - the registry, by name: no game is imported here

    return get()


def _build_tests(session: Session, game: GameSpec) -> list[TestResult]:
    b = session.build
    build = TestResult("build/compiles", "build", game.build_rules, 1.0, Verdict.PASSED, kind="build",
                       notes=list(b.notes), seconds=b.seconds)
    if not b.ok:
        build.verdict = Verdict.WRONG
        build.message = f"{b.problem}\n{b.output}".strip()
    api = TestResult("build/all_functions_defined", "build", game.build_rules, 1.0, Verdict.PASSED, kind="api")
    if not b.ok:
        api.verdict, api.message = Verdict.NOT_RUN, "Not run: the submission did not compile."
    elif b.missing:
        api.verdict = Verdict.WRONG
        api.message = (f"Your library does not define {len(b.missing)} of the {len(game.api_functions)} functions of "
                       f"{' and '.join(game.api_headers)}: {', '.join(b.missing)}.\n"
                       f"Check the spelling and the signature against "
                       f"the header; the tests that need these functions cannot pass.")
    return [build, api]


# What ``--only`` may name besides scenario groups and test ids: the later stages, by their groups' names.
ONLY_STAGES = {"random": "random", "random_games": "random", "memory": "memory"}


def test_id(s: Scenario) -> str:
    """The id of a scenario's test, ``group/name`` (Palace's scenarios are named without their group)."""
    return s.id if "/" in s.id else f"{s.group}/{s.id}"


def pick_only(only: Sequence[str], scenarios: Sequence[Scenario]) -> tuple[list[Scenario], bool, bool]:
    """``--only``'s choice: the scenarios to run, and whether the random games and the memory stage run.
    A name is a scenario group (``skip``), a test id (``skip/a_skips_player_1``) or a stage (``random``,
    ``memory``); a name that is none of them is a ``ValueError`` naming the nearest valid ones."""
    import difflib  # noqa: PLC0415

    names = {s.group for s in scenarios} | {s.id for s in scenarios} | {test_id(s) for s in scenarios} \
        | set(ONLY_STAGES)
    unknown = [o for o in only if o.rstrip("/") not in names]
    if unknown:
        hints = [f"{o!r} (did you mean {', '.join(repr(c) for c in close)}?)"
                 if (close := difflib.get_close_matches(o, sorted(names), n=3, cutoff=0.5)) else repr(o)
                 for o in unknown]
        raise ValueError(f"--only names no test group, test or stage: {'; '.join(hints)}")
    wanted = {o.rstrip("/") for o in only}
    return ([s for s in scenarios if s.group in wanted or s.id in wanted or test_id(s) in wanted],
            any(ONLY_STAGES.get(o) == "random" for o in wanted), "memory" in wanted)


def _kept(t: TestResult, chosen: set[str], stages: set[str]) -> bool:
    """Is ``t`` among the tests ``--only`` chose (the build's are always kept)?"""
    return t.group == "build" or t.id in chosen or t.group in stages


def grade(folder: Path, config: MarkingConfig | None = None, *, game: GameSpec | None = None,
          scenarios: Sequence[Scenario] | None = None, random_games: int | None = None, memory: bool = True,
          own_tests: bool = True, players: bool = True, progress: Progress | None = None,
          only: Sequence[str] = ()) -> SubmissionResult:
    """Everything about one submission folder, for ``game`` (the default game if none); with ``own_tests``, its
    own test program too (``grader.core.suite``), and with ``players`` its ``player.c`` against the game's
    baselines (``grader.core.arena.qualify``), each marked apart.  ``only``: just those tests (``pick_only``;
    the build is always checked): a partial mark, for a student re-checking one fix (neither part apart)."""
    game = game or _default_game()
    config = config or MarkingConfig.load(game=game)
    start = time.monotonic()
    folder = Path(folder).resolve()
    if any(entry.is_symlink() for entry in os.scandir(folder)):  # given directly, not through open_submission
        scratch = Path(tempfile.mkdtemp(prefix="fcd-unlinked-"))
        try:
            left_out = read_sources(folder, scratch / folder.name)  # its sources read, no link followed
            result = grade(scratch / folder.name, config, game=game, scenarios=scenarios, random_games=random_games,
                           memory=memory, own_tests=own_tests, players=players, progress=progress, only=only)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        result.build_notes = [*left_out, *result.build_notes]
        return result
    scenarios = game.load_scenarios() if scenarios is None else scenarios
    every_scenario, chosen, stages = scenarios, set[str](), set[str]()
    if only:
        picked, with_random, with_memory = pick_only(only, scenarios)
        chosen = {test_id(s) for s in picked}
        stages = {g for g, on in (("random", with_random), ("memory", with_memory)) if on}
        # The later stages judge around what the scenarios charged, and replay them: they need them all.
        scenarios = scenarios if stages else picked
        random_games, memory, own_tests, players = (random_games if with_random else 0), memory and with_memory, \
            False, False
    tests: list[TestResult] = []

    def add(t: TestResult) -> None:
        tests.append(t)
        if progress:
            progress(t)

    with game.open_session(folder, limits=config.limits, strict=config.strict_rulings,
                           compile_timeout=config.compile_seconds, policy=config.policy) as session:
        session.owners = game.owners(every_scenario)
        session.homes = home_groups(every_scenario)
        for t in _build_tests(session, game):
            add(t)
        played: list[tuple[Scenario, TestResult]] = []
        for s in scenarios:
            t = guarded(s.id, s.group, s.rules, "scenario", partial(session.run_scenario, s))
            t.hidden = t.hidden or config.hidden(s.group)
            add(t)
            played.append((s, t))
        for t in game.later_stages(session, config, played, random_games=random_games, memory=memory):
            add(t)
        if session.limits_note:
            tests[0].notes.append(session.limits_note)
        result = SubmissionResult(
            submission=folder.name, source_hash=source_hash(folder, game), build_ok=session.build.ok,
            build_output=session.build.output, build_notes=list(session.build.notes),
            build_command=session.build.command, tests=tests, profile=config.profile, game=game.title,
            build_sources=list(session.build.compiled_names), build_included=dict(session.build.sources.part_of),
            build_missing=list(session.build.missing),
            sandbox=f"{detect_mode().name}: {detect_mode().why}", refused=tuple(session.build.refused),
        )
    if only:
        result.tests = [t for t in result.tests if _kept(t, chosen, stages)]
        result.only = tuple(only)
    result.groups = mark(result.tests, config)
    if own_tests:
        from grader.core.suite.stage import grade_tests  # noqa: PLC0415 - only when asked

        result.suite = grade_tests(folder, game, config)
    if players:
        result.players = _players(folder, game, config)
    result.seconds = time.monotonic() - start
    return result


def _players(folder: Path, game: GameSpec, config: MarkingConfig) -> PlayersResult | None:
    """The player's qualification; a fault of ours in it is the grader's error, never the student's 0."""
    from grader.core.arena.qualify import not_qualified, qualify  # noqa: PLC0415 - only when asked

    try:
        return qualify(folder, game, config)
    except Exception:  # noqa: BLE001 - any fault of ours is reported as such
        return not_qualified(config, GRADER_FAULT + traceback.format_exc(limit=8))


GRADER_FAULT = ("The grader itself failed while running this test. This is a bug in the grader, not in your "
                "code: please tell the course staff, who will regrade once it is fixed.\n")


def _error(test_id: str, group: str, rules: Iterable[str], kind: str) -> TestResult:
    return TestResult(test_id, group, tuple(rules), 1.0, Verdict.ERROR, kind=kind,
                      message=GRADER_FAULT + traceback.format_exc(limit=8))


def guarded(test_id: str, group: str, rules: Iterable[str], kind: str, run: Callable[[], TestResult]) -> TestResult:
    """Run one test; an exception of the grader's own is that test's ERROR, never a FAIL."""
    try:
        return run()
    except Exception:  # noqa: BLE001 - any fault of ours is reported as such
        return _error(test_id, group, rules, kind)


def guarded_many(test_id: str, group: str, kind: str, run: Callable[[], list[TestResult]]) -> list[TestResult]:
    try:
        return run()
    except Exception:  # noqa: BLE001
        return [_error(test_id, group, (), kind)]


def mark(tests: list[TestResult], config: MarkingConfig) -> list[GroupMarks]:
    """Marks per group: a group's marks shared among its tests by weight.

    What each test earns is ``TestResult.earns_marks``."""
    groups: dict[str, list[TestResult]] = {}
    for t in tests:
        groups.setdefault(t.mark_group, []).append(t)
    out = []
    for name, ts in groups.items():
        if name in STAGE_RANK:
            max_marks = config.marks(name)
        else:
            max_marks = config.group_marks(name)
        total_w = sum(t.weight for t in ts) or 1.0
        passed_w = sum(t.weight * t.earns_marks for t in ts)
        if name == "random_games" and config.random_scoring == "all_or_nothing":
            marks = max_marks if passed_w == total_w else 0.0
        else:
            marks = max_marks * passed_w / total_w
        out.append(GroupMarks(name, sum(1 for t in ts if t.passed), len(ts), rounded(marks), max_marks,
                              not_shown=sum(1 for t in ts if t.verdict is Verdict.NOT_SHOWN),
                              failed=sum(1 for t in ts if t.verdict.family == "fail")))
    return out


def not_read(name: str, problem: str, status: str, config: MarkingConfig, *, game: GameSpec, random_games: int,
             memory: bool) -> SubmissionResult:
    """A hand-in the grader cannot read (``results.NOT_READ``: a broken archive, a .rar, an empty folder), for
    ``fcd-grade`` and its batch alike: graded as one that holds nothing (nothing of the student's runs), so it
    keeps the marks it could have earned as its maximum, with its status and the reason (what to hand in
    instead) where the compiler's messages would be: a complete report, whatever was handed in."""
    with tempfile.TemporaryDirectory(prefix="fcd-unreadable-") as empty:
        result = grade(Path(empty), config, game=game, random_games=random_games, memory=memory, own_tests=False)
    result.submission, result.source_hash, result.unreadable, result.not_read = name, "none", problem, status
    result.build_output, result.build_notes, result.build_command, result.build_sources = problem, [], [], []
    for i, t in enumerate(result.tests):  # the first is the build's: the reason, in the compiler's place
        t.notes = []
        t.message = problem if i == 0 else "Not run: the submission could not be read."
    return result
