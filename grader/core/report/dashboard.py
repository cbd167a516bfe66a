"""The class dashboard (``dashboard.html`` of ``fcd-grade batch``): the class at a glance, for staff.

The distribution of marks, the pass rate of every marks group and every test,
the most common first failures (each with one example to open), who crashed,
timed out, failed to build or hit a grader error, how long each submission
took, and a sortable table of students linking to their reports (with the marks of
their own tests and of their player, marked apart, when any were graded; with the students'
names and IDs when the class is an LMS's export).  A submission that could not be read
(``results.NOT_READ``: unreadable, an unsupported archive, nothing handed in) is listed first
among the problems, with its reason.  With ``fcd-grade batch --similarity``, the similar pairs
(``grader.core.similarity.report``), each linking to its side-by-side page.

A pure function of the batch's results, like every report.  The plots are
drawn by matplotlib into SVG and put in the page as ``data:`` images, so the
page fetches nothing, runs no plotting script and no text inside a plot can
become markup; the one inline script sorts the table.  Submission names come
from the class's folder names: they go through ``clean_text`` and Jinja's
autoescape, and into links only URL-quoted under ``reports/``.  The colours
are the Okabe-Ito palette, which stays distinct under the common colour-vision
deficiencies, and no fact is told by colour alone.
"""

from __future__ import annotations

import base64
import io
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence
from urllib.parse import quote

from ..replay import replay_address
from ..results import NOT_READ, REFUSED, SubmissionResult, TestResult, Verdict, group_rank
from .escape import clean_text
from .html import JINJA, TEMPLATES, num

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..similarity.report import SimilaritySection

# Okabe & Ito (2008), "Color Universal Design": distinct for protanopia, deuteranopia and tritanopia.
BLUE, VERMILION = "#0072B2", "#D55E00"
PROBLEMS = (  # what a staff member looks for first: (heading, the verdict a test got, or a status)
    *((status, "status") for status in NOT_READ), (REFUSED, "status"), ("build failed", "status"),
    ("grader error", "status"),
    (Verdict.CRASHED.value, "verdict"), (Verdict.TIMED_OUT.value, "verdict"),
    (Verdict.MEMORY.value, "verdict"), (Verdict.OUTPUT.value, "verdict"), (Verdict.EXITED.value, "verdict"),
)
COMMON_FAILURES = 10  # first failures listed


@dataclass
class Plot:
    """One chart: an SVG as a ``data:`` address, and words saying what it shows (its alt text)."""

    src: str
    alt: str


@dataclass
class Student:
    name: str
    href: str  # their report, relative to the dashboard ('' when grading made none)
    score: float
    score_text: str
    status: str
    passed: int
    total: int
    first_failure: str
    first_failure_href: str
    problems: str  # "crashed 2, timed out 1", or why it could not be read
    seconds: float
    tests: float | None = None  # the marks of their own tests (None: none graded)
    tests_text: str = ""
    player: float | None = None  # the marks of their player (None: none graded)
    player_text: str = ""
    who: str = ""  # the student's name and ID, as the class's LMS export gives them ('' for a plain class)


@dataclass
class TestRate:
    id: str
    group: str
    rules: str
    passed: int
    total: int

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0


@dataclass
class FirstFailure:
    id: str
    rules: str
    count: int
    example: str  # a submission's name
    href: str


@dataclass
class Dashboard:
    title: str
    students: list[Student]
    mean: str
    median: str
    max_score: str
    statuses: list[tuple[str, int]]
    marks_plot: Plot
    time_plot: Plot
    groups_plot: Plot
    groups: list[TestRate]
    tests: list[TestRate]
    first_failures: list[FirstFailure]
    problems: list[tuple[str, list[Student]]]  # those someone had, in PROBLEMS' order
    clear: list[str]  # the PROBLEMS no one had
    total_seconds: str
    median_seconds: str
    compiled: int
    any_tests: bool  # did any student's own tests get graded (then the table shows their marks)
    any_player: bool  # did any student's player get graded (likewise)
    any_who: bool = False  # does the class's export name its students (a column for their names and IDs)
    not_read: tuple[str, ...] = NOT_READ  # the statuses whose list says why for each (the template's)
    sortable: str = field(repr=False, default="")
    similarity: SimilaritySection | None = None  # the similar pairs, when the batch checked them


def report_href(result: SubmissionResult, out: Path) -> str:
    """The student's report from ``OUT/dashboard.html``: ``reports/<name>/report.html`` if grading wrote one."""
    if not (out / "reports" / result.submission / "report.html").is_file():
        return ""
    return f"reports/{quote(result.submission, safe='')}/report.html"


def _svg(fig: Figure) -> str:
    from matplotlib import rc_context  # noqa: PLC0415 - only a batch draws plots

    buf = io.BytesIO()
    with rc_context({"svg.hashsalt": "fcd-dashboard", "svg.fonttype": "none"}):  # the same page every run
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure  # noqa: PLC0415 - no pyplot: no global state, no display

    fig = Figure(figsize=(width, height), dpi=96)
    ax = fig.subplots()
    ax.spines[["top", "right"]].set_visible(False)
    return fig, ax


def marks_histogram(scores: list[float], max_score: float) -> Plot:
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415 - only a batch draws plots

    fig, ax = _figure(6.4, 2.8)
    top = max_score or max(scores, default=1.0) or 1.0
    bins = [top * i / 20 for i in range(21)]
    ax.hist(scores, bins=bins, color=BLUE, edgecolor="white")
    ax.set_xlim(0, top)
    ax.set_xlabel(f"marks (out of {num(top)})")
    ax.set_ylabel("submissions")
    locator = ax.yaxis.get_major_locator()  # matplotlib's default, AutoLocator: a MaxNLocator
    if isinstance(locator, MaxNLocator):
        locator.set_params(integer=True)
    mean = statistics.fmean(scores) if scores else 0.0
    if scores:
        ax.axvline(mean, color=VERMILION, linestyle="--", linewidth=1.5, label=f"mean {num(mean)}")
        ax.legend(frameon=False)
    alt = (f"Histogram of the marks of {len(scores)} submissions out of {num(top)}, in 20 bins; "
           f"mean {num(mean)}, lowest {num(min(scores, default=0))}, highest {num(max(scores, default=0))}.")
    return Plot(_svg(fig), alt)


def group_rates(groups: list[TestRate]) -> Plot:
    fig, ax = _figure(6.4, 0.45 * max(len(groups), 1) + 0.9)
    names = [g.group for g in groups][::-1]
    rates = [100 * g.rate for g in groups][::-1]
    bars = ax.barh(names, rates, color=BLUE)
    ax.bar_label(bars, labels=[f"{r:.0f}%" for r in rates], padding=3)
    ax.set_xlim(0, 112)
    ax.set_xlabel("tests passed, % (submissions that compiled)")
    alt = "Pass rate per marks group: " + "; ".join(f"{g.group} {100 * g.rate:.0f}%" for g in groups) + "."
    return Plot(_svg(fig), alt)


def grading_times(results: Sequence[SubmissionResult]) -> Plot:
    fig, ax = _figure(6.4, 2.8)
    ordered = sorted(results, key=lambda r: r.seconds)
    seconds = [r.seconds for r in ordered]
    broken = ("build failed", "grader error", *NOT_READ, REFUSED)
    colours = [VERMILION if r.status in broken else BLUE for r in ordered]
    hatches = ["//" if r.status in broken else "" for r in ordered]
    ax.bar(range(len(seconds)), seconds, color=colours, hatch=hatches, edgecolor="white", linewidth=0.3)
    ax.set_xticks([])
    ax.set_xlabel(f"{len(seconds)} submissions, quickest first (hatched: unreadable, build failed or grader error)")
    ax.set_ylabel("seconds")
    alt = (f"Grading time of each of {len(seconds)} submissions, sorted: median "
           f"{statistics.median(seconds) if seconds else 0:.1f} s, longest {max(seconds, default=0):.1f} s.")
    return Plot(_svg(fig), alt)


def _problem_words(result: SubmissionResult) -> str:
    """What went wrong in a student's tests, counted: crashes, timeouts, ... and the grader's own errors (the
    tests it could not judge; the student's other results stand, and the submission is graded again); for a
    hand-in that could not be read, why."""
    if getattr(result, "unreadable", ""):
        return clean_text(result.unreadable, 512)
    counts = Counter(t.verdict.value for t in result.tests)
    words = [f"{what} {counts[what]}" for what, kind in PROBLEMS if kind == "verdict" and counts[what]]
    if counts[Verdict.ERROR.value]:
        words.append(f"{Verdict.ERROR.value} {counts[Verdict.ERROR.value]}")
    return ", ".join(words)


def _student(result: SubmissionResult, out: Path) -> Student:
    href = report_href(result, out)
    first = result.first_failure()
    address = replay_address(first) if first is not None else None
    first_href = (f"{href}#{quote(address or first.id, safe='/')}" if href and first is not None else "")
    return Student(
        name=clean_text(result.submission, 256), href=href, score=result.score, score_text=num(result.score),
        status=result.status, passed=sum(1 for t in result.tests if t.passed), total=len(result.tests),
        first_failure=clean_text(first.id, 256) if first is not None else "",
        first_failure_href=first_href, problems=_problem_words(result), seconds=round(result.seconds, 1),
        tests=result.suite.score if result.suite is not None else None,
        tests_text=f"{num(result.suite.score)} / {num(result.suite.max_score)}" if result.suite is not None else "",
        player=result.players.score if result.players is not None else None,
        player_text=f"{num(result.players.score)} / {num(result.players.max_score)}" if result.players is not None
        else "", who=_who(result))


def _who(result: SubmissionResult) -> str:
    s = result.student
    if s is None:
        return ""
    return clean_text(" ".join(filter(None, [s.name, f"({s.student_id})" if s.student_id else ""])), 256)


def _rates(results: Sequence[SubmissionResult], per_group: bool) -> list[TestRate]:
    """How many submissions passed each test (or the tests of each marks group)."""
    rates: dict[str, TestRate] = {}
    for r in results:
        for t in r.tests:
            k = t.mark_group if per_group else t.id
            rate = rates.setdefault(k, TestRate(k, t.mark_group, "" if per_group else " ".join(t.rules), 0, 0))
            rate.total += 1
            rate.passed += t.verdict.family == "pass"
    return list(rates.values())


def class_title(results: Sequence[SubmissionResult]) -> str:
    """The game (and edition) a class was graded against, from its results: ``Palace``; every title found, in
    order, should results of several games be shown together."""
    return " / ".join(dict.fromkeys(r.game for r in results if r.game)) or "fcd-grade"


def dashboard(results: Sequence[SubmissionResult], out: Path, title: str | None = None,
              similarity: SimilaritySection | None = None) -> Dashboard:
    """Everything ``dashboard.html`` shows, from the batch's results (``out``: the batch's folder), under
    ``title`` (the game's title; by default the one the results name); ``similarity``: the similar pairs, when
    the batch checked them."""
    students = [_student(r, out) for r in results]
    by_name = dict(zip((r.submission for r in results), students))
    compiled = [r for r in results if r.build_ok]
    scores = [r.score for r in results]
    max_score = max((r.max_score for r in results), default=0.0)
    tests = sorted(_rates(compiled, per_group=False), key=lambda t: (t.rate, t.id))
    groups = sorted(_rates(compiled, per_group=True), key=lambda g: (group_rank(g.id), g.id))
    firsts: Counter[str] = Counter()
    example: dict[str, tuple[SubmissionResult, TestResult]] = {}
    for r in results:
        first = r.first_failure()
        if r.build_ok and first is not None:
            firsts[first.id] += 1
            example.setdefault(first.id, (r, first))
    first_failures = []
    for test_id, count in sorted(firsts.items(), key=lambda kv: (-kv[1], kv[0]))[:COMMON_FAILURES]:
        r, t = example[test_id]
        first_failures.append(FirstFailure(clean_text(test_id, 256), " ".join(t.rules), count,
                                           by_name[r.submission].name, by_name[r.submission].first_failure_href))
    problems = []
    for what, kind in PROBLEMS:
        hit = [by_name[r.submission] for r in results
               if (r.status == what if kind == "status" else any(t.verdict.value == what for t in r.tests))]
        problems.append((what, hit))
    clear = [what for what, hit in problems if not hit]
    problems = [(what, hit) for what, hit in problems if hit]
    seconds = [r.seconds for r in results]
    return Dashboard(
        title=clean_text(title or class_title(results), 256), students=students,
        mean=num(statistics.fmean(scores)) if scores else "-",
        median=num(statistics.median(scores)) if scores else "-", max_score=num(max_score),
        statuses=sorted(Counter(r.status for r in results).items()),
        marks_plot=marks_histogram(scores, max_score), time_plot=grading_times(results),
        groups_plot=group_rates(groups),
        groups=groups, tests=tests, first_failures=first_failures, problems=problems, clear=clear,
        total_seconds=f"{sum(seconds):.0f}", median_seconds=f"{statistics.median(seconds):.1f}" if seconds else "-",
        compiled=len(compiled), any_tests=any(st.tests is not None for st in students),
        any_player=any(st.player is not None for st in students), any_who=any(st.who for st in students),
        sortable=(TEMPLATES / "sortable.js").read_text(), similarity=similarity)


def render_dashboard(results: Sequence[SubmissionResult], out: Path, title: str | None = None,
                     similarity: SimilaritySection | None = None) -> str:
    return JINJA.get_template("dashboard.html").render(d=dashboard(results, out, title, similarity))


def write_dashboard(results: Sequence[SubmissionResult], out: Path, title: str | None = None,
                    similarity: SimilaritySection | None = None) -> Path:
    path = out / "dashboard.html"
    path.write_text(render_dashboard(results, out, title, similarity), encoding="utf-8")
    return path
