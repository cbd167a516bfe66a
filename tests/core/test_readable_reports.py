"""Reports a first-year student reads once (issue 45, item 4): marks to two places, written by one function; a test
another test's difference hid says so in whole steps; a note said several times shown once; the implementation's
failures before the student's own tests, whose wrong checks count the correct implementations they fail on; and a
test that judged nothing never reads "passed", in any format.

Expected values are worked out by hand from the objects built here (and, for the graded submissions, from what
their code does: crash_in_new_game dereferences NULL at the start of every newGame).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from grader.core.cli import main, print_summary
from grader.core.grade import grade
from grader.core.marks import mark_text, shares
from grader.core.report.gradescope import gradescope_json
from grader.core.report.html import render_html
from grader.core.report.junit import junit_string
from grader.core.report.notes import folded
from grader.core.report.own_tests import own_test_cases
from grader.core.results import GroupMarks, SubmissionResult, Verdict
from grader.core.results import TestResult as Result  # (a Test* name would be collected)
from grader.core.suite.judge import InvalidCheck, MutantVerdict, SuiteResult
from grader.games.fcd.compare import Comparison
from grader.games.fcd.explain import not_shown

ROOT = Path(__file__).resolve().parents[2]
SUBMISSIONS = ROOT / "fixtures" / "submissions"
FRACTION_OF_STEPS = re.compile(r"\d\.\d+ of (the|its) \d+")  # "0.722222 of the 1 steps": never again


# --- 1. marks: two places, one function --------------------------------------------------------------------

def test_a_mark_is_written_to_two_places_and_a_split_adds_up_to_what_is_shown() -> None:
    assert [mark_text(m) for m in (4.75, 4.749999, 10.0, 10 / 3, 0.004, -0.001, 81.3333)] == \
        ["4.75", "4.75", "10", "3.33", "0", "0", "81.33"]
    assert shares(10.0, [1, 1, 1]) == [3.33, 3.33, 3.34]  # the residue on the last
    assert shares(2.94, [1, 0, 2]) == [0.98, 0.0, 1.96]
    assert shares(5.0, [0, 0]) == [0.0, 0.0]


def _draw_two_result() -> SubmissionResult:
    """draw_two worth 10, four tests of weight 1: passed (earns 1), wrong (0), not shown having seen 0.9 of its rule,
    not shown having seen none: 10 * (1 + 0 + 0.9 + 0) / 4 = 4.75."""
    tests = [Result("draw_two/a", "draw_two", ("R7",), 1.0, Verdict.PASSED),
             Result("draw_two/b", "draw_two", ("R7",), 1.0, Verdict.WRONG, message="wrong"),
             Result("draw_two/c", "draw_two", ("R7",), 1.0, Verdict.NOT_SHOWN, earned=0.9, message="hidden"),
             Result("draw_two/d", "draw_two", ("R7",), 1.0, Verdict.NOT_SHOWN, earned=0.0, message="hidden")]
    groups = [GroupMarks("draw_two", 1, 4, 4.75, 10.0, not_shown=2, failed=1)]
    return SubmissionResult("dora", "d0d0", True, "", [], ["gcc"], tests, groups=groups)


def test_every_report_writes_the_marks_to_two_places(capsys: pytest.CaptureFixture[str]) -> None:
    result = _draw_two_result()
    print_summary(result, None)
    console = capsys.readouterr().out
    assert "draw_two         1/4   passed    4.75 / 10   (1 failed, 2 not shown)" in console
    assert console.count("not shown: a test your game could not show all of") == 1  # what it means, said once
    suite = ET.fromstring(junit_string([result])).find("testsuite")
    assert suite is not None
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["marks.draw_two"] == "4.75/10" and props["score"] == "4.75"
    data = gradescope_json(result)
    # 4.75 shared by what each test earns (1, 0, 0.9, 0 of weight 1): 2.5, 0, 2.25, 0; each max 2.5.
    assert [(t["score"], t["max_score"]) for t in data["tests"]] == [(2.5, 2.5), (0, 2.5), (2.25, 2.5), (0, 2.5)]
    assert "Score 4.75 / 10:" in data["output"]
    assert "<td class=\"num\">4.75 / 10</td>" in render_html(result)


# --- 2. not shown, in whole steps ----------------------------------------------------------------------

REASON = ("after move 0: isValidMove(PLAY_CARD) could not be judged because gameWinner() differed before (the test "
          "end/nothing_to_draw_during_a_penalty judges it)")


def test_a_test_hidden_in_part_of_its_one_step_says_so_in_whole_steps() -> None:
    """One step that judges the rule, a battery of 18 answers of which 5 were hidden: agreed 13/18, hidden 5/18.
    Measured before: "it saw its rule hold in 0.722222 of the 1 steps"; now the step is counted whole, and the
    share is a percentage of the marks (13/18 = 72%)."""
    cmp = Comparison(None, agreed=13 / 18, hidden=5 / 18, hidden_steps=1, not_shown=[REASON] * 5)
    message = not_shown(cmp)
    assert message.startswith("Its one step could not be judged in full, because your game already differed in "
                              "something another test judges (not counted twice).")
    assert "72% of its marks" in message and not FRACTION_OF_STEPS.search(message)
    assert message.count(REASON) == 1 and f"{REASON} (x5)" in message


def test_a_test_hidden_at_some_of_its_steps_counts_them() -> None:
    """15 steps judge the rule: 12 agreed in full, 3 hidden in full: 3 of 15, and it earns 12/15 = 80%."""
    message = not_shown(Comparison(None, agreed=12.0, hidden=3.0, hidden_steps=3, not_shown=[REASON]))
    assert message.splitlines()[0] == (
        "3 of its 15 steps could not be judged in full, because your game already differed in something another "
        "test judges (not counted twice). This test earns the part of its rule it saw hold: 80% of its marks.")
    nothing = not_shown(Comparison(None))
    assert "could not judge its rule anywhere in your game" in nothing and "earns nothing here" in nothing


def test_a_share_never_reads_none_or_all_when_it_is_neither() -> None:
    def said(agreed: float, hidden: float) -> str:
        return not_shown(Comparison(None, agreed=agreed, hidden=hidden, hidden_steps=1)).splitlines()[0]

    assert said(0.002, 0.998).endswith(": 1% of its marks.") and said(99.8, 0.2).endswith(": 99% of its marks.")


@pytest.fixture(scope="module")
def winner_at_start() -> SubmissionResult:
    """winner_zero_at_start says gameWinner() is 0 right after newGame: the end tests own that, and every test that
    judges isValidMove at move 0 is hidden there (its battery of answers all hidden by the same cause)."""
    return grade(SUBMISSIONS / "mutants" / "winner_zero_at_start", random_games=0, memory=False, own_tests=False)


def test_a_graded_submission_s_not_shown_tests_speak_in_whole_steps(winner_at_start: SubmissionResult) -> None:
    hidden = [t for t in winner_at_start.tests if t.verdict is Verdict.NOT_SHOWN]
    assert hidden
    for t in hidden:
        assert not FRACTION_OF_STEPS.search(t.message), (t.id, t.message)
        assert "could not be judged in full" in t.message, (t.id, t.message)
        lines = t.message.splitlines()
        assert len(lines) == len(set(lines)), (t.id, t.message)  # each reason once
    # matching/same_colour: moves after 0 were judged and agreed, move 0 hidden: neither all nor nothing.
    same_colour = next(t for t in hidden if t.id == "matching/same_colour")
    assert re.search(r"^1 of its \d+ steps could not be judged in full", same_colour.message)


# --- 3. notes folded -----------------------------------------------------------------------------------

def test_a_note_said_several_times_is_shown_once_with_its_count() -> None:
    assert folded(["b", "a", "b", "c", "b"]) == ["b (x3)", "a", "c"]
    assert folded([]) == [] and folded(["a"]) == ["a"]
    note = "right after newGame: gameWinner() differs (NOT_FINISHED (-1) expected, 0 got)"
    result = _draw_two_result()
    result.tests[0].notes = [note] * 5 + ["another note"]
    page = render_html(result)
    assert page.count(note) == 1 and f"{note} (x5)" in page and "Notes (2)" in page
    output = gradescope_json(result)["tests"][0]["output"]
    assert output.count("gameWinner") == 1 and "(x5)" in output


# --- 4. the HTML: the implementation first; a wrong check of the student's counted, once ----------------

CORRECT = ["model", *(f"reading_{i}" for i in range(1, 18))]  # 18 correct implementations


def _suite() -> SuiteResult:
    """12 checks that fail on every one of the 18 correct implementations, and one that fails on 2 of them."""
    every = [InvalidCheck(f"testGame.c:{40 + i}", "assert", "testDraw", f"numCards(g) == {i}", list(CORRECT),
                          "the course's model fails it") for i in range(12)]
    some = InvalidCheck("testGame.c:90", "assert", "testPlay", "!isValidMove(g, play)", ["reading_3", "reading_7"],
                        "it assumes one answer to A1")
    return SuiteResult("testGame.c", True, invalid=[*every, some],
                       mutants=[MutantVerdict("skip_ignored", ["R8"], "an A does not skip anyone", False, True,
                                              ["testGame.c:12"], ["testSkip"], "failed checks")],
                       validity_max=5.0, thoroughness_marks=15.0, thoroughness_max=15.0, correct=len(CORRECT))


def test_the_page_shows_the_implementation_first_and_one_row_per_wrong_check() -> None:
    result = _draw_two_result()
    result.suite = _suite()
    page = render_html(result)
    assert page.index("<h2>Tests") < page.index('<h2 id="your-tests">')  # what the implementation failed, first
    assert page.index('<code>draw_two/b</code>') < page.index('<h2 id="your-tests">')
    assert '<a href="#your-tests">your tests</a> (15 / 20)' in page  # the marks table points down to them
    assert page.count("fails on 18 of 18 correct implementations") == 12  # a row per check, counted ...
    assert "reading_17" not in page  # ... never the 18 names on every row
    assert "fails on 2 of 18 correct implementations: reading_3, reading_7" in page  # some: named
    assert "3 more check(s) that fail on a correct implementation" in page  # ten open, the rest folded
    case = own_test_cases(result.suite)[0][0]  # JUnit's and Gradescope's validity case says it the same way
    assert case.message.count("fails on 18 of 18 correct implementations") == 12 and "reading_17" not in case.message


# --- 5. a test that judged nothing never reads "passed" --------------------------------------------------

@pytest.fixture(scope="module")
def crashing_new_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("crash_in_new_game")
    assert main([str(SUBMISSIONS / "hostile" / "crash_in_new_game"), "--out", str(out), "--random-games", "2",
                 "--no-memory", "--no-tests"]) == 1
    return out


def test_random_games_that_judged_nothing_are_not_shown_in_result_json(crashing_new_game: Path) -> None:
    """newGame crashes on every deck: every scenario is charged with the crash (the first, deal/state_at_the_start,
    owns it), and no random game starts. Measured before: random_games "7/8 passed", 0 marks, "0 of 0 random games
    agreed"; the marks do not change (0 of 15), the verdicts do."""
    data = json.loads((crashing_new_game / "result.json").read_text())
    randoms = [t for t in data["tests"] if t["kind"] == "random"]
    assert len(randoms) == 8
    for t in randoms:
        assert t["verdict"] == "not shown" and t["earned"] == 0, t
        assert t["message"].startswith("No random game could show ") and "0 of 0" not in t["message"], t
        assert "deal/state_at_the_start was already charged for that crash" in t["message"], t
    assert not any(t["verdict"] == "passed" and t["kind"] != "build" and t["kind"] != "api" for t in data["tests"])
    group = next(g for g in data["groups"] if g["group"] == "random_games")
    assert (group["passed"], group["not_shown"], group["marks"]) == (0, 8, 0.0)


def test_random_games_that_judged_nothing_are_not_passed_in_junit_or_gradescope(crashing_new_game: Path) -> None:
    root = ET.parse(crashing_new_game / "junit.xml").getroot()
    cases = [c for c in root.iter("testcase") if c.get("classname") == "fcd.random"]
    assert len(cases) == 8
    assert all(c.find("skipped") is not None or c.find("failure") is not None for c in cases)
    scored = json.loads((crashing_new_game / "results.json").read_text())
    randoms = [t for t in scored["tests"] if t["name"].startswith("random/")]
    assert len(randoms) == 8 and all(t["status"] == "failed" and t["score"] == 0 for t in randoms)
    page = (crashing_new_game / "report.html").read_text()
    assert '<span class="verdict pass">passed</span> <code>random/' not in page
