"""Gradescope's ``results.json`` (https://gradescope-autograders.readthedocs.io/en/latest/specs/).

Top level: ``score`` (it overrides the sum of the tests on Gradescope),
``max_score``, ``execution_time`` (whole seconds), a short ``output``, and one
entry per ``TestResult``.  A test's ``max_score`` is its share by weight of its
marks group's ``max_marks``; its ``score`` is its share by weight of the marks
the group actually got, among the group's passed tests -- so the tests of a
group always add up to the group's marks, whatever the scoring rule (weighted,
all-or-nothing random games, rounding), and the tests add up to ``score``.  The
parts marked apart add theirs: the student's own tests (a case per part) and
their player (a case per mark of ``[players.marks]``).

On Gradescope this file is all a student sees: no ``report.html``, no repro
folder.  So each output is complete on its own and links nowhere: the failure
message (the rule, the moves, expected against got), the notes, a random game
in the scenario format, and the C program that replays the game on the
student's own code, to save beside their ``Game.c``.

Every text is Markdown (``md``), which Gradescope renders.  Words go through
``md_text``, which escapes whatever could become markup; text whose layout
matters (a message after its first line, compiler output, programs) goes in a
fenced code block whose fence is longer than any run of backticks inside
(``md_block``), where nothing is markup.  So student output never becomes HTML
or Markdown.  A hidden test's output is just "hidden test", and it is
``after_published``.  The top-level output opens with the game graded against and, where tests did not pass,
says once how to read the game's moves (``GameSpec.notation``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TypedDict

from ..marks import mark_text, rounded, shares
from ..replay import replay_address
from ..results import SubmissionResult, TestResult
from .escape import CAP, clean_text
from .notes import folded
from .own_tests import own_test_cases
from .players import player_cases

FORMAT = "md"  # of every output in the file
PROGRAMS_BUDGET = 96 * 1024  # characters of C repro programs in one results.json: the first failures get theirs

# Characters that can start markup anywhere in a line, and what can start a block at the start of one
# (a heading, quote, list, thematic break or setext underline; an ordered list item "1." or "1)").
_INLINE = re.compile(r"([\\`*_\[\]<>&~|])")
_LINE_START = re.compile(r"^([#>+=-])|^(\d+)([.)])")


def md_text(text: str) -> str:
    """One line of words as Markdown that shows exactly those words (CommonMark backslash escapes)."""
    line = " ".join(text.split())  # no line break, no indentation (four spaces would make a code block)
    line = _INLINE.sub(r"\\\1", line)
    return _LINE_START.sub(lambda m: f"\\{m.group(1)}" if m.group(1) else f"{m.group(2)}\\{m.group(3)}", line)


def md_block(text: str, info: str = "") -> str:
    """``text`` shown verbatim: a fenced code block no line of ``text`` can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text.rstrip(chr(10))}\n{fence}"


def md_code(text: str) -> str:
    """``text`` as inline code (a file name, a command)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _message(text: str) -> list[str]:
    """A message as Markdown: its first line as words, the rest verbatim (its layout is the point)."""
    first, _, rest = text.partition("\n")
    if not first.strip() or first[:1].isspace():  # no sentence to start with: all of it as it is
        return [md_block(text)] if text.strip() else []
    return [md_text(first)] + ([md_block(rest.strip("\n"))] if rest.strip() else [])


def _program(result: SubmissionResult, t: TestResult, base: Path | None) -> tuple[str, str] | None:
    """(file name, text) of the C repro program written for ``t`` beside this file, if any."""
    rel = getattr(result, "repro_files", {}).get(t.id)
    if base is None or not rel:
        return None
    path = (base / rel).resolve()
    if not path.is_relative_to(base.resolve()) or not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    return (path.name, text) if len(text.encode("utf-8")) < CAP else None  # a cut program would not compile


def output_of(t: TestResult, program: tuple[str, str] | None = None, program_left_out: str = "") -> str:
    """What a student reads under a test on Gradescope (Markdown): everything, with no link."""
    if t.hidden:
        return "hidden test"
    parts = _message(clean_text(t.message) or ("" if t.passed else t.verdict.value))
    if t.notes:
        parts.append("Notes:\n\n" + "\n".join(f"- {md_text(clean_text(n, 4096))}" for n in folded(t.notes)))
    if t.repro:
        parts += ["The game, in the scenario format:", md_block(clean_text(t.repro), "toml")]
    if program is not None:
        name, text = program
        parts += [f"To replay this game on your own code, save this program as {md_code(name)} in the folder of "
                  "your .c files (with the course's headers), then build and run it as its first lines say: it "
                  "stops at the first difference.",
                  md_block(clean_text(text), "c")]
    elif program_left_out:
        parts.append(f"The C program that replays this game ({md_code(program_left_out)}) is left out here to keep "
                     "this page short: run `fcd-grade .` on your own computer and it is in fcd-report/repro/.")
    if replay_address(t) is not None:
        parts.append("To step through this game move by move, run `fcd-grade .` on your own computer and open the "
                     "report it writes.")
    return "\n\n".join(parts)


def test_marks(result: SubmissionResult) -> dict[int, tuple[float, float]]:
    """Each test's (score, max_score), keyed by its index in ``result.tests``."""
    groups = {g.group: g for g in result.groups}
    members: dict[str, list[int]] = {}
    for i, t in enumerate(result.tests):
        members.setdefault(t.mark_group, []).append(i)
    out: dict[int, tuple[float, float]] = {}
    for name, idx in members.items():
        g = groups.get(name)
        if g is None:  # a test outside every marks group earns nothing and can earn nothing
            out.update({i: (0.0, 0.0) for i in idx})
            continue
        weights = [max(result.tests[i].weight, 0.0) for i in idx]
        if not any(weights):  # weightless tests: equal shares of max_marks (grade.mark gives them 0 marks)
            weights = [1.0] * len(idx)
        maxima = shares(g.max_marks, weights)
        passed = [w * result.tests[i].earns_marks for i, w in zip(idx, weights)]
        scores = shares(g.marks, passed)
        out.update({i: (s, m) for i, s, m in zip(idx, scores, maxima)})
    return out


def _summary(result: SubmissionResult) -> str:
    n = len(result.tests)
    passed = sum(1 for t in result.tests if t.passed)
    failed = sum(1 for t in result.tests if t.verdict.family == "fail")
    hidden = sum(1 for t in result.tests if t.verdict.value == "not shown")
    lines = [f"Graded as {clean_text(result.game, 256)}."] if result.game else []
    lines += [f"Score {mark_text(result.score)} / {mark_text(result.max_score)}: {passed} of {n} tests passed, "
              f"{failed} failed"
             + (f", {hidden} not shown (a difference another test owns hid their rule: they earn only what "
                f"was seen)." if hidden else ".")]
    if getattr(result, "only", ()):
        lines.append(f"Partial: only {clean_text(' '.join(result.only), 1024)} ran (--only); this is not the mark.")
    if getattr(result, "unreadable", ""):
        lines.append(f"Your hand-in could not be read, so nothing of it was compiled or run: "
                     f"{clean_text(result.unreadable, 1024)}.")
    elif not result.build_ok:
        lines.append("Your code did not compile, so the tests that need it were not run: "
                     "see the build test for the compiler's messages.")
    errors = sum(1 for t in result.tests if t.verdict.family == "error")
    if errors:
        lines.append(f"The grader itself failed on {errors} test(s). That is not your fault; "
                     "staff have been told and will look at it.")
    suite = getattr(result, "suite", None)
    if suite is not None:
        lines.append(f"Implementation {mark_text(result.score)} / {mark_text(result.max_score)}; your tests "
                     f"({suite.test_file}) {mark_text(suite.score)} / {mark_text(suite.max_score)}, marked apart: "
                     f"valid {'yes' if suite.valid else 'no'}, "
                     f"{suite.caught} of {len(suite.mutants)} buggy implementations caught.")
        if suite.rules_never_checked():
            lines.append(f"No test of yours checks {', '.join(suite.rules_never_checked())}.")
    players = getattr(result, "players", None)
    if players is not None:
        lines.append(f"Your player ({players.player}) {mark_text(players.score)} / {mark_text(players.max_score)}, "
                     "marked apart: " + ", ".join(f"{m.what} {mark_text(m.earned)}/{mark_text(m.max)}"
                                                  for m in players.marks)
                     + (f" ({clean_text(players.problem, 1024)})." if players.problem else "."))
        if players.error:
            lines.append("The grader itself failed while your player played. That is not your fault; it will be "
                         "played again.")
    first = result.first_failure()
    if first is not None and not first.hidden:
        lines.append(f"Start with the first failure: {clean_text(first.id, 1024)}.")
    if result.profile:
        lines.append(f"Rulings profile: {clean_text(result.profile, 256)}.")
    parts = [md_text(line) for line in lines]
    from grader.games import titled  # noqa: PLC0415 - the registry: no game is imported here

    game = titled(result.game)
    notation = game.notation.splitlines() if game is not None else []
    if notation and result.build_ok and any(not t.passed and not t.hidden for t in result.tests):
        parts.append("How to read the moves:\n\n" + "\n".join(f"- {md_text(line)}" for line in notation))
    return "\n\n".join(parts)


class GradescopeTest(TypedDict):
    name: str
    score: float
    max_score: float
    status: str  # passed, failed
    output: str
    output_format: str
    visibility: str  # visible, after_published
    tags: list[str]


class GradescopeJSON(TypedDict):
    """What results.json holds (Gradescope's format)."""

    score: float
    max_score: float
    execution_time: int
    output: str
    output_format: str
    test_output_format: str
    test_name_format: str
    visibility: str
    stdout_visibility: str
    tests: list[GradescopeTest]


def gradescope_json(result: SubmissionResult, base: Path | None = None) -> GradescopeJSON:
    """The results.json of ``result``; ``base``: the folder of the reports, whose repro programs it quotes."""
    marks = test_marks(result)
    tests: list[GradescopeTest] = []
    budget = PROGRAMS_BUDGET
    for i, t in enumerate(result.tests):
        score, max_score = marks[i]
        program = None if t.hidden else _program(result, t, base)
        left_out = ""
        if program is not None and len(program[1]) > budget:
            left_out, program = program[0], None
        budget -= len(program[1]) if program is not None else 0
        tests.append({
            "name": clean_text(t.id, 1024),
            "score": score,  # (to two places, adding up to the group's marks: ``marks.shares``)
            "max_score": max_score,
            "status": "passed" if t.verdict.family == "pass" else "failed",
            "output": output_of(t, program, left_out),
            "output_format": FORMAT,
            "visibility": "after_published" if t.hidden else "visible",
            "tags": [clean_text(r, 256) for r in t.rules],
        })
    suite = getattr(result, "suite", None)
    for case, score, max_score in own_test_cases(suite) if suite is not None else ():
        tests.append({
            "name": clean_text(case.id, 1024), "score": score, "max_score": max_score,
            "status": "passed" if case.passed else "failed",
            "output": output_of(case),
            "output_format": FORMAT, "visibility": "after_published" if case.hidden else "visible",
            "tags": list(case.rules),
        })
    players = getattr(result, "players", None)
    for case, score, max_score in player_cases(players, pages=False) if players is not None else ():
        tests.append({
            "name": clean_text(case.id, 1024), "score": score, "max_score": max_score,
            "status": "passed" if case.passed else "failed", "output": output_of(case),
            "output_format": FORMAT, "visibility": "visible", "tags": [],
        })
    apart = [part for part in (suite, players) if part is not None]  # marked apart, but part of the one grade
    return {
        "score": rounded(result.score + sum(part.score for part in apart)),
        "max_score": rounded(result.max_score + sum(part.max_score for part in apart)),
        "execution_time": int(round(result.seconds)),
        "output": _summary(result),
        "output_format": FORMAT,
        "test_output_format": FORMAT,
        "test_name_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def write_gradescope(result: SubmissionResult, path: Path | str) -> None:
    """results.json at ``path``, quoting the repro programs written beside it (``result.repro_files``)."""
    path = Path(path)
    text = json.dumps(gradescope_json(result, path.parent), indent=1, ensure_ascii=False, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")
