"""The one result model every report is derived from, and which marks group a test counts in.

Three families, as check50 has them: a test passed; the submission failed it
(wrong result, crash, timeout, ...); or the grader itself broke (``ERROR``:
a bug of ours, never the student's fault and never marked as theirs).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from grader.core.marks import rounded
from grader.core.suite.judge import SuiteJSON, SuiteResult

if TYPE_CHECKING:
    from grader.core.arena.match import MatchJSON

# The pipeline's fixed stages: the marks group of each kind of test that is not a scenario, and
# where the group stands among the scenario groups (which all rank 1) in reports.
STAGE_GROUPS = {"build": "build", "api": "build", "random": "random_games", "memory": "memory"}
STAGE_RANK = {"build": 0, "random_games": 2, "memory": 3}


def mark_group(kind: str, group: str) -> str:
    """The marks group a test counts in: its stage's (build, random_games, memory), or its scenario group."""
    return STAGE_GROUPS.get(kind, group)


def group_rank(group: str) -> int:
    """Where a marks group stands in reports: build first, scenario groups, then random games and memory."""
    return STAGE_RANK.get(group, 1)


REFUSED = "refused"  # a submission's status when its library calls outside the C library (never loaded)
# A hand-in that was not read, by why (``SubmissionResult.not_read``): each is its own status.
UNREADABLE = "unreadable"  # a broken archive, too big, too many files
UNSUPPORTED_ARCHIVE = "unsupported archive"  # a .rar or .7z: an archive the grader does not unpack
NOTHING_HANDED_IN = "nothing handed in"  # an empty folder
NOT_READ = (UNREADABLE, UNSUPPORTED_ARCHIVE, NOTHING_HANDED_IN)


@dataclass(frozen=True)
class Student:
    """Who handed a submission in, as the learning-management system's export says (``grader.core.batch.exports``):
    the CSV's and the dashboard's columns, and what a grade file for the LMS is matched by."""

    name: str = ""
    student_id: str = ""  # the LMS's own: Moodle's participant number, Canvas's user id, Gradescope's SID
    email: str = ""
    lms: str = ""  # "moodle", "canvas", "gradescope"
    late: bool = False  # the export marks it late (Canvas's LATE)
    submitted_at: str = ""  # when, as the export gives it ('' when it does not)

    def to_json(self) -> dict[str, str | bool]:
        return {k: v for k, v in asdict(self).items() if v}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Student:
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


class Verdict(Enum):
    """What became of one test, and why (its value says it in a word); ``family`` is pass / fail /
    skip / error.  The reference's ``Outcome`` is something else: how a game ended."""

    PASSED = "passed"
    WRONG = "wrong result"
    CRASHED = "crashed"
    TIMED_OUT = "timed out"
    EXITED = "exited early"
    MEMORY = "memory limit"
    OUTPUT = "output limit"
    PROTOCOL = "unreadable result"
    WORKER_LOST = "worker lost"
    NOT_RUN = "not run"
    NOT_SHOWN = "not shown"  # its rule could not be seen, hidden by a difference another test owns: no charge, no pay
    ERROR = "grader error"

    @property
    def passed(self) -> bool:
        return self is Verdict.PASSED

    @property
    def family(self) -> str:
        """pass / fail / skip / error, for JUnit and summaries."""
        if self is Verdict.PASSED:
            return "pass"
        if self in (Verdict.NOT_RUN, Verdict.NOT_SHOWN):
            return "skip"
        if self is Verdict.ERROR:
            return "error"
        return "fail"


class DifferenceRow(TypedDict):
    """What differed at one step of a game, as the replay shows it (step 0: after newGame)."""

    step: int
    what: str  # the call a student recognises: "currentPlayer()"
    expected: object  # in words (or a number): shown as text
    got: object


@dataclass
class TestResult:
    id: str  # "group/name"
    group: str
    rules: tuple[str, ...]
    weight: float
    verdict: Verdict
    message: str = ""  # the student-facing explanation ('' when passed)
    notes: list[str] = field(default_factory=list)  # lenient rulings applied, and similar
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0
    hidden: bool = False
    kind: str = "scenario"  # scenario | random | api | build | memory
    repro: str | None = None  # a scenario-format reproduction (random games)
    deck: str = ""  # the game played, in card notation (for C repro programs)
    # The deck the submission's newGame was given when not ``deck``: a submission that deals another way than the
    # rules plays ``deck`` rearranged so that its deal puts every card where the rules put it (A test not of the deal).
    dealt_as: str = ""
    moves: str = ""
    failed_after: int | None = None  # moves made when the failure showed (for shortening a game)
    earned: float = 1.0  # the share of its weight earned: the part of its rule seen to hold (PASSED, NOT_SHOWN)
    charged_to: str = ""  # what hid this test's rule, already charged by this other test (no second deduction)
    rule_family: str = ""  # the family of what differed (grader.games.fcd.sandbox.observations.FAMILIES)
    failed_on: str = ""  # the observation (or probe) the test failed on
    skipped_probes: list[str] = field(default_factory=list)  # probes left out because they crashed or hung
    # The moves made before the submission's game stopped (a crash, a hang, a card not in the hand); None: every
    # move.  ``forced_at``: the first move its own isValidMove refused, made anyway; nothing from it on is charged.
    played_moves: int | None = None
    forced_at: int | None = None
    # What differed, for the replay
    difference: DifferenceRow | None = None
    # Where the submission differed from the reference before (and beside) this test's failure, in what the
    # test did not hold against it (another test's rule, a value judged by what a move changed): observation
    # (or ``valid_play 5RH``, one answer) -> steps, ``"0-3,7"``.  Its repro program leaves them unchecked there.
    differed: dict[str, str] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.verdict.passed

    @property
    def earns_marks(self) -> float:
        """The share of this test's weight that counts towards the marks: what was seen to hold.

        A mark is earned by evidence: a passed test earns ``earned`` (all of it, or the part of its rule
        that was judged and agreed); a test whose rule was hidden at some of its steps by a difference
        another test owns (NOT_SHOWN) earns the part that was seen, often none; a failure earns nothing,
        and so does a grader error (provisional: the exit code says regrade)."""
        if self.verdict in (Verdict.PASSED, Verdict.NOT_SHOWN):
            return max(0.0, min(1.0, self.earned))
        # A failure a game excuses as another test's (Palace, until its random games judge rule families one
        # by one, as Final Card-Down's do): not charged twice.  Final Card-Down judges around instead.
        return 1.0 if self.charged_to and self.verdict.family == "fail" else 0.0

    @property
    def mark_group(self) -> str:
        return mark_group(self.kind, self.group)

    def to_json(self) -> OneTestJSON:
        data = asdict(self)
        data["verdict"] = self.verdict.value
        data["rules"] = list(self.rules)
        return cast(OneTestJSON, data)  # every field, by its name: ``OneTestJSON`` (with its base) is the same list


class _TestResultFields(TypedDict):
    """The fields ``OneTestJSON`` and ``_TestFields`` share (all but the verdict and the rules).  A result stored
    before a field existed lacks it (``NotRequired``): read back, it takes the field's default."""

    id: str
    group: str
    weight: float
    message: NotRequired[str]
    notes: NotRequired[list[str]]
    stdout: NotRequired[str]
    stderr: NotRequired[str]
    seconds: NotRequired[float]
    hidden: NotRequired[bool]
    kind: NotRequired[str]
    repro: NotRequired[str | None]
    deck: NotRequired[str]
    dealt_as: NotRequired[str]
    moves: NotRequired[str]
    failed_after: NotRequired[int | None]
    earned: NotRequired[float]
    charged_to: NotRequired[str]
    rule_family: NotRequired[str]
    failed_on: NotRequired[str]
    skipped_probes: NotRequired[list[str]]
    played_moves: NotRequired[int | None]
    forced_at: NotRequired[int | None]
    difference: NotRequired[DifferenceRow | None]
    differed: NotRequired[dict[str, str]]


class OneTestJSON(_TestResultFields):
    """``TestResult.to_json``: the fields by name, the verdict by its value."""

    rules: list[str]
    verdict: str


class _TestFields(_TestResultFields):
    """``OneTestJSON`` as ``TestResult`` takes it: the verdict and the rules made what they are."""

    rules: tuple[str, ...]
    verdict: Verdict


def from_test_json(data: OneTestJSON) -> TestResult:
    """Read back what ``TestResult.to_json`` wrote."""
    fields: _TestFields = {**data, "verdict": Verdict(data["verdict"]), "rules": tuple(data["rules"])}
    return TestResult(**fields)


class GroupMarksJSON(TypedDict):
    """``GroupMarks`` as a result's JSON holds it (``not_shown`` and ``failed`` came later)."""

    group: str
    passed: int
    total: int
    marks: float
    max_marks: float
    not_shown: NotRequired[int]
    failed: NotRequired[int]


@dataclass
class GroupMarks:
    group: str
    passed: int
    total: int
    marks: float
    max_marks: float
    not_shown: int = 0  # tests whose rule a difference owned elsewhere hid (neither charged nor paid)
    failed: int = 0  # tests the submission failed (wrong, crashed, timed out, ...)


# ---- the student's player (``grader.core.arena.qualify``), marked apart ------------------------------------

PLAYER_GAMES = "players/games"  # where, in a submission's report folder, the replay pages of its player's games go

@dataclass
class PlayerMark:
    """One line of ``[players.marks]``: what it is for, what the player earned of it, and why."""

    what: str  # legal, beats_random, beats_greedy
    earned: float
    max: float
    why: str


@dataclass
class PlayerStanding:
    """One player's line of the qualification's standings."""

    name: str
    kind: str  # "student" or "bot"
    games: int
    wins: int
    forfeits: int
    mean_place: float  # 1 is best


@dataclass
class PlayerForfeit:
    """A game the student's player forfeited: where (its replay's step) and why."""

    game: int  # the game's number in the tournament (from 1): its replay page is ``PLAYER_GAMES/<game>.html``
    seat: int
    step: int  # the move it was asked for (0: the first of the game)
    why: str


@dataclass
class PlayerGame:
    """A game with a forfeit, kept whole: what its replay page is written from (``arena.cli.write_game``)."""

    number: int
    record: MatchJSON  # ``MatchRecord.to_json``


class PlayerGameJSON(TypedDict):
    number: int
    record: MatchJSON


class _PlayersFields(TypedDict):
    """The fields ``PlayersJSON`` and ``_PlayersValues`` share (all but the lists of records)."""

    player: str
    compiled: bool
    problem: NotRequired[str]
    compiler_output: NotRequired[str]
    games_played: NotRequired[int]
    rounds: NotRequired[int]
    stopped_early: NotRequired[bool]
    seed: NotRequired[int]
    seconds: NotRequired[float]
    notes: NotRequired[list[str]]
    error: NotRequired[str]


class PlayerMarkJSON(TypedDict):
    what: str
    earned: float
    max: float
    why: str


class PlayerStandingJSON(TypedDict):
    name: str
    kind: str
    games: int
    wins: int
    forfeits: int
    mean_place: float


class PlayerForfeitJSON(TypedDict):
    game: int
    seat: int
    step: int
    why: str


class PlayersJSON(_PlayersFields):
    """``PlayersResult.to_json``: its fields by name (those with a default may be missing from an older result)."""

    marks: list[PlayerMarkJSON]
    standings: NotRequired[list[PlayerStandingJSON]]
    forfeits: NotRequired[list[PlayerForfeitJSON]]
    games: NotRequired[list[PlayerGameJSON]]


class _PlayersValues(_PlayersFields):
    """``PlayersJSON`` as ``PlayersResult`` takes it: its lists made of what they hold."""

    marks: list[PlayerMark]
    standings: list[PlayerStanding]
    forfeits: list[PlayerForfeit]
    games: list[PlayerGame]


@dataclass
class PlayersResult:
    """A student's ``player.c`` against the game's baselines (``arena.qualify``): the marks of
    ``[players.marks]``, marked apart from the implementation, with the evidence they rest on."""

    player: str  # the file judged, as the student names it: "player.c"
    compiled: bool
    marks: list[PlayerMark]
    problem: str = ""  # why it played no game ('' when it played)
    compiler_output: str = ""  # the compiler's first lines, errors first ('' when it compiled)
    standings: list[PlayerStanding] = field(default_factory=list)
    forfeits: list[PlayerForfeit] = field(default_factory=list)  # the student's, every one
    games: list[PlayerGame] = field(default_factory=list)  # the first games with a forfeit, for their replay pages
    games_played: int = 0
    rounds: int = 0
    stopped_early: bool = False  # the sequential tests decided before the last round
    seed: int = 0  # of the decks: fixed, so the same player.c gets the same marks
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    error: str = ""  # the grader failed while qualifying: the marks are provisional ('' when it did not)

    @property
    def score(self) -> float:
        return rounded(sum(m.earned for m in self.marks))

    @property
    def max_score(self) -> float:
        return rounded(sum(m.max for m in self.marks))

    def page_of(self, game: int) -> str:
        """The replay page of game ``game``, from the report's folder ('' when none was kept)."""
        return f"{PLAYER_GAMES}/{game}.html" if any(g.number == game for g in self.games) else ""

    def to_json(self) -> PlayersJSON:
        return cast(PlayersJSON, asdict(self))  # every field by its name, the lists as their records' fields

    @classmethod
    def from_json(cls, data: PlayersJSON) -> PlayersResult:
        fields: _PlayersValues = {
            **data, "marks": [PlayerMark(**m) for m in data["marks"]],
            "standings": [PlayerStanding(**s) for s in data.get("standings", [])],
            "forfeits": [PlayerForfeit(**f) for f in data.get("forfeits", [])],
            "games": [PlayerGame(**g) for g in data.get("games", [])]}
        return cls(**fields)


@dataclass
class SubmissionResult:
    submission: str
    source_hash: str
    build_ok: bool
    build_output: str
    build_notes: list[str]
    build_command: list[str]
    tests: list[TestResult]
    build_sources: list[str] = field(default_factory=list)  # the .c files compiled, as named in the build
    build_included: dict[str, str] = field(default_factory=dict)  # a .c file #included by a compiled one -> that one
    build_missing: list[str] = field(default_factory=list)  # the API functions the library does not define
    groups: list[GroupMarks] = field(default_factory=list)
    profile: str = ""
    game: str = ""  # the game and edition graded against (``GameSpec.title``): "Final Card-Down (2017)"
    sandbox: str = ""
    seconds: float = 0.0
    seed: int = 0
    repro_files: dict[str, str] = field(default_factory=dict)  # test id -> file name
    suite: SuiteResult | None = None  # the student's own test program, marked apart (None: none graded)
    players: PlayersResult | None = None  # the student's player.c, marked apart (None: none graded)
    unreadable: str = ""  # why the hand-in could not be read (a broken archive, too big): '' when it was read
    not_read: str = ""  # which of ``NOT_READ`` that is ('' with ``unreadable`` set: UNREADABLE, as stored before)
    student: Student | None = None  # who handed it in, when the class's export says (a batch sets it)
    refused: tuple[str, ...] = ()  # what its library calls outside the C library: never loaded (build.foreign_symbols)
    only: tuple[str, ...] = ()  # ``--only``: just these tests ran, so the mark is partial (never stored)

    @property
    def score(self) -> float:
        return rounded(sum(g.marks for g in self.groups))

    @property
    def max_score(self) -> float:
        return rounded(sum(g.max_marks for g in self.groups))

    @property
    def all_passed(self) -> bool:
        return all(t.verdict.family in ("pass",) for t in self.tests)

    @property
    def grader_failed(self) -> bool:
        """Did the grader itself fail somewhere (a test's ERROR, or while qualifying the player): the result
        is provisional, graded again once the fault is fixed."""
        return any(t.verdict is Verdict.ERROR for t in self.tests) or bool(self.players and self.players.error)

    @property
    def status(self) -> str:
        if self.unreadable:
            return self.not_read or UNREADABLE
        if self.refused:
            return REFUSED
        if not self.build_ok:
            return "build failed"
        if self.grader_failed:
            return "grader error"
        return "passed" if self.all_passed else "failed"

    def marks_not_shown(self) -> dict[str, float]:
        """Per marks group, the marks not earned because a test's rule was not shown (hidden by a difference
        another test owns): what a bug cost outside its own tests, neither charged nor paid."""
        out = {}
        for g in self.groups:
            tests = [t for t in self.tests if t.mark_group == g.group]
            total = sum(t.weight for t in tests) or 1.0
            hidden = sum(t.weight * (1 - t.earns_marks) for t in tests if t.verdict is Verdict.NOT_SHOWN)
            if hidden:
                out[g.group] = rounded(g.max_marks * hidden / total)
        return out

    def first_failure(self) -> TestResult | None:
        """The test to start with: the first the submission failed (or the grader did); else the first not passed.
        A test another's difference hid (not shown) points at that other test, never the other way round."""
        return next((t for t in self.tests if t.verdict.family in ("fail", "error")), None) or \
            next((t for t in self.tests if not t.passed), None)

    def to_json(self) -> SubmissionJSON:
        return {
            "submission": self.submission, "source_hash": self.source_hash, "status": self.status,
            "score": self.score, "max_score": self.max_score, "build_ok": self.build_ok,
            "build_output": self.build_output, "build_notes": self.build_notes,
            "build_command": self.build_command, "profile": self.profile, "game": self.game, "sandbox": self.sandbox,
            "seconds": round(self.seconds, 3), "seed": self.seed,
            "groups": [_group_json(g) for g in self.groups], "tests": [t.to_json() for t in self.tests],
            "repro_files": self.repro_files, "build_sources": self.build_sources,
            "build_included": self.build_included, "build_missing": self.build_missing,
            "suite": self.suite.to_json() if self.suite is not None else None,
            "players": self.players.to_json() if self.players is not None else None,
            "unreadable": self.unreadable, "only": list(self.only), "refused": list(self.refused),
            "not_read": self.not_read, "student": self.student.to_json() if self.student is not None else None,
        }


def _group_json(g: GroupMarks) -> GroupMarksJSON:
    return {"group": g.group, "passed": g.passed, "total": g.total, "marks": g.marks, "max_marks": g.max_marks,
            "not_shown": g.not_shown, "failed": g.failed}


class SubmissionJSON(TypedDict):
    """``SubmissionResult.to_json``: what ``result.json`` and the batch's store hold.  The keys a result stored
    before they existed lacks are ``NotRequired``; ``status``, ``score`` and ``max_score`` are derived (not read)."""

    submission: str
    source_hash: str
    status: NotRequired[str]
    score: NotRequired[float]
    max_score: NotRequired[float]
    build_ok: bool
    build_output: str
    build_notes: list[str]
    build_command: list[str]
    profile: str
    game: NotRequired[str]
    sandbox: str
    seconds: float
    seed: NotRequired[int]
    groups: list[GroupMarksJSON]
    tests: list[OneTestJSON]
    repro_files: NotRequired[dict[str, str]]
    build_sources: NotRequired[list[str]]
    build_included: NotRequired[dict[str, str]]
    build_missing: NotRequired[list[str]]
    suite: NotRequired[SuiteJSON | None]
    players: NotRequired[PlayersJSON | None]
    unreadable: NotRequired[str]
    refused: NotRequired[list[str]]
    only: NotRequired[list[str]]
    not_read: NotRequired[str]
    student: NotRequired[dict[str, Any] | None]


def result_from_json(data: SubmissionJSON) -> SubmissionResult:
    """Read back what ``SubmissionResult.to_json`` wrote (the batch mode's store)."""
    tests = [from_test_json(t) for t in data["tests"]]
    suite = data.get("suite")
    players = data.get("players")
    result = SubmissionResult(
        submission=data["submission"], source_hash=data["source_hash"], build_ok=data["build_ok"],
        build_output=data["build_output"], build_notes=data["build_notes"], build_command=data["build_command"],
        tests=tests, profile=data["profile"], game=data.get("game", ""), sandbox=data["sandbox"],
        seconds=data["seconds"],
        seed=data.get("seed", 0), repro_files=data.get("repro_files", {}),
        build_sources=data.get("build_sources", []), build_included=data.get("build_included", {}),
        build_missing=data.get("build_missing", []),
        suite=SuiteResult.from_json(suite) if suite else None,
        players=PlayersResult.from_json(players) if players else None,
        unreadable=data.get("unreadable", ""), only=tuple(data.get("only", ())),
        refused=tuple(data.get("refused", ())), not_read=data.get("not_read", ""),
        student=Student.from_json(student) if (student := data.get("student")) else None,
    )
    result.groups = [GroupMarks(**g) for g in data["groups"]]
    return result
