"""The report writers, fed hand-built results: every format, hostile student text, hidden tests.

Expected numbers are worked out by hand from the objects below (and the marks
are checked against ``grade.mark`` with a stub configuration, so the objects
are ones the pipeline could have produced).
"""

from __future__ import annotations

import csv
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from markupsafe import escape

from grader.core.cli import print_summary
from grader.core.grade import mark
from grader.core.report import clean_text, render_html, write_class_csv, write_gradescope, write_html, write_junit
from grader.core.report.csv_report import group_order
from grader.core.report.dashboard import dashboard
from grader.core.report.escape import CAP
from grader.core.report.gradescope import gradescope_json
from grader.core.report.junit import junit_string
from grader.core.results import GroupMarks, SubmissionResult, Verdict
from grader.core.results import TestResult as Result  # (a Test* name would be collected)
from grader.games import get

xmlschema = pytest.importorskip("xmlschema")

ROOT = Path(__file__).resolve().parents[2]
XSD = ROOT / "grader" / "core" / "schemas" / "junit.xsd"

HOSTILE = "\x00\x1b[31m</system-out><![CDATA[ ]]> &amp; \ud800 <script>alert(1)</script>\x07"
FLOOD = "x" * 200_000
SECRET = "SECRET-do-not-show"

# Max marks per group, as a marking configuration would give them.
MAX_MARKS = {"build": 2.0, "play": 6.0, "end": 4.0, "queries": 2.0, "hidden": 4.0, "random_games": 3.0,
             "memory": 1.0}


def T(test_id: str, verdict: Verdict, *, weight: float = 1.0, kind: str = "scenario", **kw) -> Result:
    group = test_id.split("/")[0]
    return Result(test_id, group, kw.pop("rules", ("R1",)), weight, verdict, kind=kind, **kw)


def stub_config(max_marks: dict[str, float], random_scoring: str = "weighted") -> SimpleNamespace:
    return SimpleNamespace(marks=max_marks.__getitem__, group_marks=max_marks.__getitem__,
                           random_scoring=random_scoring)


# --- alice: a bit of everything ------------------------------------------------------------------

WRONG_MESSAGE = ("After playCard(g, 3S) numCards(g) should be 5, but your code returned 4.\n"
                 "  deck: 3S 4H 5D ...\n"
                 "  moves: play 3S")
CRASH_MESSAGE = "Your code crashed (SIGSEGV) in getWinner.\x07\nThe last call was getWinner(g)."


def alice() -> SubmissionResult:
    tests = [
        T("build/compiles", Verdict.PASSED, kind="build", rules=("R17",), seconds=1.25),
        T("build/all_functions_defined", Verdict.PASSED, kind="api", rules=("R17",)),
        T("play/follow_suit", Verdict.PASSED, seconds=0.0004),
        T("play/draw_two", Verdict.WRONG, weight=2.0, rules=("R3", "R4"), message=WRONG_MESSAGE,
          notes=["Lenient ruling A3 applied: a draw ends the turn."], stdout="<script>alert(1)</script>"),
        T("end/winner", Verdict.CRASHED, message=CRASH_MESSAGE, stdout=HOSTILE + FLOOD,
          stderr="\x1b[31mSegmentation fault\x1b[0m"),
        T("end/no_moves", Verdict.NOT_RUN, message="Not run: an earlier step crashed."),
        T("queries/top_card", Verdict.ERROR, message="grader error: the worker sent an unreadable reply\n(details)"),
        T("hidden/secret", Verdict.WRONG, hidden=True, message=f"{SECRET} expected 3, got 4",
          stdout=f"{SECRET} stdout", stderr=f"{SECRET} stderr", notes=[f"{SECRET} note"], rules=("R9",)),
        T("hidden/secret_pass", Verdict.PASSED, hidden=True, stdout=f"{SECRET} passed stdout"),
        T("random/game_1", Verdict.PASSED, kind="random", notes=["100 random games agreed with the reference"]),
        T("memory/no_leaks", Verdict.PASSED, kind="memory", rules=("R18",)),
    ]
    groups = [  # by hand: marks = max_marks * passed weight / total weight
        GroupMarks("build", 2, 2, 2.0, 2.0),
        GroupMarks("play", 1, 2, 2.0, 6.0, failed=1),  # weights 1 (passed) + 2 (failed): 6 * 1/3
        GroupMarks("end", 0, 2, 0.0, 4.0, failed=1),  # one crashed, one not run
        GroupMarks("queries", 0, 1, 0.0, 2.0),
        GroupMarks("hidden", 1, 2, 2.0, 4.0, failed=1),
        GroupMarks("random_games", 1, 1, 3.0, 3.0),
        GroupMarks("memory", 1, 1, 1.0, 1.0),
    ]
    return SubmissionResult("alice", "a1b2c3", True, "Game.c:10:5: warning: unused variable 'x'", [],
                            ["gcc", "-std=gnu11", "-shared"], tests, groups=groups, profile="lenient",
                            sandbox="bwrap: user namespaces available", seconds=12.34, seed=7)


ALICE_SCORE, ALICE_MAX = 10.0, 22.0  # 2+2+0+0+2+3+1, 2+6+4+2+4+3+1
ALICE_TESTS = {  # name -> (score, max_score): the group's marks shared by weight
    "build/compiles": (1, 1), "build/all_functions_defined": (1, 1),
    "play/follow_suit": (2, 2), "play/draw_two": (0, 4),
    "end/winner": (0, 2), "end/no_moves": (0, 2),
    "queries/top_card": (0, 2),
    "hidden/secret": (0, 2), "hidden/secret_pass": (2, 2),
    "random/game_1": (3, 3), "memory/no_leaks": (1, 1),
}


# --- bob: did not compile ---------------------------------------------------------------------------

COMPILER = "Game.c:2:40: error: expected ';' before '}' token\n<b>not bold</b>\n" + "note: line\n" * 200


NOT_COMPILED = "Not run: the submission did not compile."


def bob() -> SubmissionResult:
    tests = [
        T("build/compiles", Verdict.WRONG, kind="build", message="Your code did not compile.\n" + COMPILER),
        T("build/all_functions_defined", Verdict.NOT_RUN, kind="api", message=NOT_COMPILED),
        T("play/follow_suit", Verdict.NOT_RUN, message=NOT_COMPILED),
        T("memory/no_leaks", Verdict.NOT_RUN, kind="memory", message=NOT_COMPILED),
    ]
    groups = [GroupMarks("build", 0, 2, 0.0, 2.0, failed=1), GroupMarks("play", 0, 1, 0.0, 6.0),
              GroupMarks("memory", 0, 1, 0.0, 1.0)]
    return SubmissionResult("bob", "d4e5f6", False, COMPILER, ["Card.c was missing: the grader's own was used."],
                            ["gcc"], tests, groups=groups, profile="lenient", sandbox="bwrap", seconds=2.0)


BOB_SCORE, BOB_MAX = 0.0, 9.0


# --- carol: rounding, and all-or-nothing random games ------------------------------------------------

def carol() -> SubmissionResult:
    tests = [
        T("build/compiles", Verdict.PASSED, kind="build"),
        T("build/all_functions_defined", Verdict.PASSED, kind="api"),
        T("queries/a", Verdict.PASSED),
        T("queries/b", Verdict.WRONG, message="wrong b"),
        T("queries/c", Verdict.TIMED_OUT, message="timed out after 2 s"),
        T("random/game_1", Verdict.PASSED, kind="random"),
        T("random/game_2", Verdict.WRONG, kind="random", message="game 2 differs", repro="deck 3S\nplay 3S"),
    ]
    groups = [GroupMarks("build", 2, 2, 2.0, 2.0),
              GroupMarks("queries", 1, 3, 3.33, 10.0, failed=2),  # round(10/3, 2)
              GroupMarks("random_games", 1, 2, 0.0, 3.0, failed=1)]  # all or nothing
    return SubmissionResult("carol", "0a0b0c", True, "", [], ["gcc"], tests, groups=groups, profile="lenient",
                            sandbox="bwrap", seconds=3.0)


CAROL_SCORE, CAROL_MAX = 5.33, 15.0


def test_the_hand_built_marks_are_what_grade_mark_gives() -> None:
    assert mark(alice().tests, stub_config(MAX_MARKS)) == alice().groups
    assert mark(bob().tests, stub_config(MAX_MARKS)) == bob().groups
    carol_cfg = stub_config({"build": 2.0, "queries": 10.0, "random_games": 3.0}, random_scoring="all_or_nothing")
    assert mark(carol().tests, carol_cfg) == carol().groups
    assert (alice().score, alice().max_score) == (ALICE_SCORE, ALICE_MAX)
    assert (bob().score, bob().max_score) == (BOB_SCORE, BOB_MAX)
    assert (carol().score, carol().max_score) == (CAROL_SCORE, CAROL_MAX)


# --- escaping ----------------------------------------------------------------------------------------

def test_clean_text_shows_illegal_characters_and_caps_bytes() -> None:
    assert clean_text("a\x00b\x1b[31m\ud800\x7f\ufffe\U0001ffff é 😀 <x> &amp; ]]>") == \
        "a#x00b#x1B[31m#xD800#x7F#xFFFE#x1FFFF é 😀 <x> &amp; ]]>"
    assert clean_text(None) == "" and clean_text("") == ""
    assert clean_text("tab\tnl\ncr\r") == "tab\tnl\ncr\r"
    for big in ("y" * 200_000, "é" * 100_000, "\x00" * 100_000, "😀" * 50_000):
        out = clean_text(big)
        assert len(out.encode("utf-8")) <= CAP
        assert "cut" in out.splitlines()[-1] and str(len(big)) in out.splitlines()[-1]
        out.encode("utf-8")  # no surrogates left


# --- JUnit ---------------------------------------------------------------------------------------------

def junit_schema(*, error_element: bool = True) -> xmlschema.XMLSchema:
    """The JUnit schema shipped with the grader (the consumers' format: <failure>, <error>, <skipped>)."""
    return xmlschema.XMLSchema(XSD)


def cases(suite: ET.Element) -> dict[str, ET.Element]:
    return {c.get("name"): c for c in suite.findall("testcase")}


def test_junit_validates_and_counts(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    write_junit([alice(), bob(), carol()], path)
    junit_schema(error_element=True).validate(str(path))
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("22", "7", "1")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert list(suites) == ["alice", "bob", "carol"]
    #            tests failures errors skipped
    expected = {"alice": ("11", "3", "1", "1"), "bob": ("4", "1", "0", "3"), "carol": ("7", "3", "0", "0")}
    for name, suite in suites.items():
        got = (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped"))
        assert got == expected[name], name
        assert len(suite.findall("testcase")) == int(expected[name][0])
        assert len(suite.findall("testcase/failure")) == int(expected[name][1])
        assert len(suite.findall("testcase/error")) == int(expected[name][2])
        assert len(suite.findall("testcase/skipped")) == int(expected[name][3])
    props = {p.get("name"): p.get("value") for p in suites["alice"].findall("properties/property")}
    assert props["score"] == "10" and props["max_score"] == "22"
    assert props["profile"] == "lenient" and props["sandbox"] == "bwrap: user namespaces available"
    assert props["source_hash"] == "a1b2c3"
    assert {p.get("name"): p.get("value") for p in suites["carol"].findall("properties/property")}["score"] == "5.33"

    alice_cases = cases(suites["alice"])
    assert list(alice_cases)[:3] == ["build.compiles", "build.all_functions_defined", "play.follow_suit"]
    assert {c.get("classname") for c in alice_cases.values()} >= {"fcd.build", "fcd.play", "fcd.hidden"}
    wrong = alice_cases["play.draw_two"].find("failure")
    assert wrong.get("message") == WRONG_MESSAGE.splitlines()[0]
    assert wrong.text == WRONG_MESSAGE and wrong.get("type") == "wrong result"
    assert alice_cases["play.draw_two"].find("system-out").text == "<script>alert(1)</script>"
    skipped = alice_cases["end.no_moves"].find("skipped")
    assert skipped.get("message") == "Not run: an earlier step crashed."
    error = alice_cases["queries.top_card"].find("error")
    assert error.get("message") == "grader error: the worker sent an unreadable reply"
    assert alice_cases["play.follow_suit"].get("time") == "0.000"  # three decimals at most, as the schema has it
    assert alice_cases["build.compiles"].get("time") == "1.250"
    assert suites["alice"].get("time") == "12.340" and root.get("time") == "17.340"  # 12.34 + 2 + 3
    assert list(alice_cases["build.compiles"]) == []  # a pass is a bare testcase


def test_junit_without_grader_errors_validates_against_the_schema_file_as_is(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    write_junit([bob(), carol()], path)
    junit_schema(error_element=False).validate(str(path))


def test_junit_escapes_and_caps_hostile_output(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    write_junit([alice()], path)
    raw = path.read_bytes()
    raw.decode("utf-8")
    assert b"\x00" not in raw and b"\x1b" not in raw and b"\x07" not in raw
    assert b"<![CDATA[" not in raw and b"<script>" not in raw
    assert raw.count(b"</system-out>") == len(re.findall(rb"<system-out>", raw))  # no forged closing tag
    assert len(raw) < 4 * CAP  # 200 KB of output did not make it in
    crash = cases(ET.parse(path).getroot().find("testsuite"))["end.winner"]
    out = crash.find("system-out").text
    assert out.startswith("#x00#x1B[31m</system-out><![CDATA[ ]]> &amp; #xD800 <script>alert(1)</script>#x07")
    assert len(out.encode("utf-8")) <= CAP and "cut" in out.splitlines()[-1]
    assert crash.find("system-err").text == "#x1B[31mSegmentation fault#x1B[0m"
    failure = crash.find("failure")
    assert failure.get("message") == "Your code crashed (SIGSEGV) in getWinner.#x07"
    assert failure.get("type") == "crashed"


def test_junit_hidden_tests_show_only_name_and_verdict(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    write_junit([alice()], path)
    assert SECRET not in path.read_text(encoding="utf-8")
    hidden = cases(ET.parse(path).getroot().find("testsuite"))
    failed, passed = hidden["hidden.secret"], hidden["hidden.secret_pass"]
    assert [c.tag for c in failed] == ["failure"]
    assert failed.find("failure").attrib == {} and not (failed.find("failure").text or "").strip()
    assert list(passed) == []


# --- Gradescope -------------------------------------------------------------------------------------------

def load_gradescope(result: SubmissionResult, tmp_path: Path) -> dict:
    path = tmp_path / f"{result.submission}.json"
    write_gradescope(result, path)
    return json.loads(path.read_text(encoding="utf-8"))


def test_gradescope_scores(tmp_path: Path) -> None:
    data = load_gradescope(alice(), tmp_path)
    assert (data["score"], data["max_score"]) == (ALICE_SCORE, ALICE_MAX)
    assert data["execution_time"] == 12
    got = {t["name"]: (t["score"], t["max_score"]) for t in data["tests"]}
    assert got.keys() == ALICE_TESTS.keys()  # (newer pytest's approx takes no dict of tuples)
    for name, marks in ALICE_TESTS.items():
        assert got[name] == pytest.approx(marks), name
    assert sum(t["score"] for t in data["tests"]) == pytest.approx(ALICE_SCORE)
    assert sum(t["max_score"] for t in data["tests"]) == pytest.approx(ALICE_MAX)
    status = {t["name"]: t["status"] for t in data["tests"]}
    assert status["play/follow_suit"] == "passed" and status["end/no_moves"] == "failed"
    assert status["queries/top_card"] == "failed" and status["hidden/secret"] == "failed"
    assert {t["name"]: t["tags"] for t in data["tests"]}["play/draw_two"] == ["R3", "R4"]
    assert "10 / 22" in data["output"] and "grader itself failed on 1 test" in data["output"]
    # Markdown, which Gradescope renders (issue 32: it was plain text, and ended with a link to report.html)
    assert data["output_format"] == data["test_output_format"] == "md"
    assert {t["output_format"] for t in data["tests"]} == {"md"}


def test_gradescope_rounding_and_all_or_nothing(tmp_path: Path) -> None:
    data = load_gradescope(carol(), tmp_path)
    assert (data["score"], data["max_score"]) == (CAROL_SCORE, CAROL_MAX)
    got = {t["name"]: (t["score"], t["max_score"]) for t in data["tests"]}
    # Every mark to two places (issue 45): 10 split three ways is 3.33 + 3.33 + 3.34, the residue on the last.
    assert got["queries/a"] == (3.33, 3.33) and got["queries/b"][1] == 3.33 and got["queries/c"][1] == 3.34
    assert got["queries/b"][0] == got["queries/c"][0] == 0
    assert got["random/game_1"] == (0, 1.5) and got["random/game_2"] == (0, 1.5)  # the group got nothing
    assert sum(t["score"] for t in data["tests"]) == pytest.approx(CAROL_SCORE)
    assert sum(t["max_score"] for t in data["tests"]) == pytest.approx(CAROL_MAX)
    bob_data = load_gradescope(bob(), tmp_path)
    assert (bob_data["score"], bob_data["max_score"]) == (BOB_SCORE, BOB_MAX)
    assert all(t["score"] == 0 for t in bob_data["tests"]) and "did not compile" in bob_data["output"]


def test_gradescope_hidden_and_hostile_text(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    write_gradescope(alice(), path)
    text = path.read_text(encoding="utf-8")
    assert SECRET not in text and "\\u0000" not in text and "\\ud800" not in text.lower()
    tests = {t["name"]: t for t in json.loads(text)["tests"]}
    for name in ("hidden/secret", "hidden/secret_pass"):
        assert tests[name]["output"] == "hidden test" and tests[name]["visibility"] == "after_published"
    # The first line as words, the rest verbatim in a code block, the notes as a list (issue 32: all of it
    # in Markdown, where it was the message as plain text)
    first, rest = WRONG_MESSAGE.split("\n", 1)
    assert tests["play/draw_two"]["output"] == (f"{first}\n\n```\n{rest}\n```\n\n"
                                                "Notes:\n\n- Lenient ruling A3 applied: a draw ends the turn.")
    assert tests["play/draw_two"]["visibility"] == "visible"
    first, rest = CRASH_MESSAGE.replace("\x07", "#x07").split("\n", 1)
    assert tests["end/winner"]["output"] == f"{first}\n\n```\n{rest}\n```"


MARKUP = "<script>alert(1)</script> **bold** _it_ [link](http://x.example) `code` &amp; ~~gone~~ | a | b |"


def rendered(markdown: str) -> str:
    """The HTML a CommonMark renderer (GitHub's flavour: tables, strikethrough) makes of ``markdown``."""
    from markdown_it import MarkdownIt  # noqa: PLC0415 - comes with rich

    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)


def test_gradescope_markdown_shows_student_text_as_text(tmp_path: Path) -> None:
    """A message's first line is words: nothing in it becomes markup; the rest is a code block that no
    backticks inside can close; a line that would start a list or heading stays a line of text."""
    body = "```\n</pre><script>x</script>\n```` four\n# not a heading"
    tests = [T("play/a", Verdict.WRONG, message=f"{MARKUP}\n{body}"),
             T("play/b", Verdict.WRONG, message="- 1. # > not a list"),
             T("play/c", Verdict.CRASHED, message="    indented: all of it verbatim\n<b>x</b>")]
    result = SubmissionResult("dave", "h", True, "", [], ["gcc"], tests,
                              groups=[GroupMarks("play", 0, 3, 0.0, 3.0, failed=3)], profile="<i>p</i> *x*")
    data = load_gradescope(result, tmp_path)
    out = {t["name"]: rendered(t["output"]) for t in data["tests"]}
    assert out["play/a"].count("<p>") == 1 and out["play/a"].count("<pre>") == 1
    assert "<script>" not in out["play/a"] and "<strong>" not in out["play/a"] and "<a " not in out["play/a"]
    assert "<em>" not in out["play/a"] and "<del>" not in out["play/a"] and "<table>" not in out["play/a"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; **bold** _it_ [link](http://x.example) `code` &amp;amp;" \
        in out["play/a"]
    assert "<code>" + body.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") + "\n</code>" \
        in out["play/a"]
    assert out["play/b"] == "<p>- 1. # &gt; not a list</p>\n"
    assert "<pre><code>    indented: all of it verbatim\n&lt;b&gt;x&lt;/b&gt;\n</code></pre>" in out["play/c"]
    summary = rendered(data["output"])
    assert "<i>" not in summary and "<em>" not in summary and "&lt;i&gt;p&lt;/i&gt; *x*" in summary


def test_gradescope_quotes_the_repro_program_and_the_game_and_links_nowhere(tmp_path: Path) -> None:
    """On Gradescope a student has results.json only: the C program that replays a failed game is in the
    test's output (the file written beside results.json), the random game in the scenario format too,
    and nothing points at report.html, which they cannot open there."""
    result = carol()
    wrong = next(t for t in result.tests if t.id == "random/game_2")
    wrong.deck, wrong.moves, wrong.difference = "3S 4H", "play 3S", {"step": 1, "what": "x", "expected": 1, "got": 2}
    (tmp_path / "repro").mkdir()
    program = '/* Build and run: gcc repro_random_game_2.c Game.c */\nint main(void) { puts("```"); }\n'
    (tmp_path / "repro" / "repro_random_game_2.c").write_text(program)
    result.repro_files = {"random/game_2": "repro/repro_random_game_2.c", "queries/b": "../outside.c"}
    (tmp_path / "outside.c").write_text("int secret;")
    write_gradescope(result, tmp_path / "results.json")
    text = (tmp_path / "results.json").read_text()
    assert "report.html" not in text and "See the game step by step" not in text
    tests = {t["name"]: t["output"] for t in json.loads(text)["tests"]}
    html = rendered(tests["random/game_2"])
    assert "<code class=\"language-c\">" + program.replace('"', "&quot;") + "</code>" in html
    assert "<code>repro_random_game_2.c</code>" in html
    assert "<code class=\"language-toml\">deck 3S\nplay 3S\n</code>" in html
    assert "run <code>fcd-grade .</code> on your own computer" in html  # the replay, where they can open it
    assert "secret" not in tests["queries/b"]  # only files inside the report folder are quoted


# --- HTML ------------------------------------------------------------------------------------------------

def test_html_escapes_student_output_and_shows_the_score(tmp_path: Path) -> None:
    result = alice()
    before = json.dumps(result.to_json())
    path = tmp_path / "report.html"
    write_html(result, path)
    assert json.dumps(result.to_json()) == before  # the writers never change the result
    html = path.read_text(encoding="utf-8")
    assert "<script" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "\x00" not in html and "\x1b" not in html and "#x00#x1B[31m" in html
    assert "&lt;/system-out&gt;&lt;![CDATA[ ]]&gt; &amp;amp; #xD800" in html
    assert len(html.encode("utf-8")) < 4 * CAP
    assert "10 / 22" in html and "lenient" in html and "bwrap: user namespaces available" in html
    assert SECRET not in html and "hidden/secret" in html
    # Tests that did not pass come first, and each message is in a <pre>.
    assert html.index("play/draw_two") < html.index("play/follow_suit")
    assert html.index("end/no_moves") < html.index("build/compiles")
    assert "<pre>" + WRONG_MESSAGE + "</pre>" in html
    assert re.search(r"<details><summary>Notes \(1\)</summary>\s*<ul>\s*<li>Lenient ruling A3", html)
    for label in ("build", "play", "random_games", "memory"):
        assert f"<td>{label}</td>" in html


def test_a_page_shows_at_most_half_a_megabyte_of_printing_and_the_failures_output_first() -> None:
    """A program that prints 64 KiB of markup in each of 100 passed tests and in one failed test (listed
    last): the failed test's output is shown whole (it comes first on the page), each passed test shows at
    most 4 KiB, and once 512 KiB of escaped output is on the page the rest say where their output is."""
    noisy = "<" * CAP
    tests = [T(f"play/t{i:03}", Verdict.PASSED, stdout=noisy) for i in range(100)]
    tests.append(T("play/broken", Verdict.WRONG, message="wrong", stdout="start " + "<" * (CAP // 2)))
    result = SubmissionResult("noisy", "h", True, "", [], [], tests)
    result.groups = mark(tests, stub_config({"play": 6.0}))
    page = render_html(result)
    assert "start " + "&lt;" * (CAP // 2) in page  # the failure's output, whole
    assert len(page.encode("utf-8")) < 512 * 1024 + 200 * 1024  # the budget and the page around it
    passed_shown = re.findall(r"<pre>((?:&lt;)+)\n\[\.\.\. cut: 65536 characters", page)
    assert passed_shown and all(4000 < len(run) // 4 < 4096 for run in passed_shown)  # 4 KiB, the cut note in it
    assert page.count("[not shown: this page already shows 512 KiB") > 50


def test_html_of_a_build_failure(tmp_path: Path) -> None:
    html = render_html(bob())
    assert "<b>" not in html and "&lt;b&gt;not bold&lt;/b&gt;" in html
    compiler = re.search(r"<details open>\s*<summary>Compiler output \(trimmed[^<]*</summary>\s*<pre>(.*?)</pre>",
                         html, re.S)
    assert compiler, "the compiler output is open and says it was trimmed"
    assert compiler.group(1).startswith("Game.c:2:40: error: expected &#39;;&#39; before &#39;}&#39; token")
    assert compiler.group(1).count("\n") < 100  # 202 lines, cut to the first ones
    assert "0 / 9" in html and "build failed" in html
    assert "Card.c was missing" in html


# --- CSV --------------------------------------------------------------------------------------------------

def test_class_csv(tmp_path: Path) -> None:
    path = tmp_path / "class.csv"
    write_class_csv([alice(), bob(), carol()], path)
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    with path.open(newline="", encoding="utf-8") as f:
        header = next(csv.reader(f))
    assert header == ["submission", "name", "student_id", "email", "source_hash", "status", "build",
                       "play", "end", "queries", "hidden",
                      "random_games", "memory", "total", "max", "passed", "failed", "not_shown",
                      "tests_valid", "tests_caught", "tests_mutants",
                      "tests_marks", "tests_max", "players_marks", "players_max", "seconds", "problem"]
    assert [r["submission"] for r in rows] == ["alice", "bob", "carol"]
    by = {r["submission"]: r for r in rows}
    assert (by["alice"]["total"], by["alice"]["max"]) == ("10", "22")
    assert (by["bob"]["total"], by["bob"]["max"]) == ("0", "9")
    assert (by["carol"]["total"], by["carol"]["max"]) == ("5.33", "15")
    assert by["alice"]["play"] == "2" and by["carol"]["queries"] == "3.33" and by["carol"]["play"] == ""
    assert [by[n]["status"] for n in ("alice", "bob", "carol")] == ["grader error", "build failed", "failed"]
    assert by["alice"]["source_hash"] == "a1b2c3" and by["alice"]["seconds"] == "12.3"
    # alice: passed 2 build, follow_suit, secret_pass, random, memory (6); failed draw_two, winner, secret (3)
    assert (by["alice"]["passed"], by["alice"]["failed"], by["alice"]["not_shown"]) == ("6", "3", "0")
    assert by["alice"]["tests_valid"] == by["alice"]["tests_marks"] == ""  # no test program graded
    assert by["alice"]["players_marks"] == by["alice"]["players_max"] == ""  # no player graded
    # The same columns whatever order the submissions come in.
    assert group_order([carol(), bob(), alice()]) == header[6:-14]


def test_class_csv_defuses_formulas(tmp_path: Path) -> None:
    result = carol()
    result.submission = "=HYPERLINK(\"http://x\")"
    path = tmp_path / "class.csv"
    write_class_csv([result], path)
    with path.open(newline="", encoding="utf-8") as f:
        row = list(csv.DictReader(f))[0]
    assert row["submission"] == "'=HYPERLINK(\"http://x\")"


# --- titles and notation: every report names its game ---------------------------------------------------

def test_every_report_is_titled_by_the_game_and_edition_graded_against(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """report.html (<title>, <h1>), the JUnit suite, Gradescope's output, the terminal, the dashboard: each
    from ``result.game``, never a game written into the code."""
    for game in ("Palace", "Final Card-Down (2017)"):
        result = replace(alice(), game=game)
        page = render_html(result)
        assert f"<title>{game}: alice (10 / 22)</title>" in page and f"<h1>{game}: alice</h1>" in page
        suites = ET.fromstring(junit_string([result]).split("\n", 1)[1]).findall("testsuite")
        assert [s.get("name") for s in suites] == [f"{game}: alice"]
        assert gradescope_json(result)["output"].startswith(f"Graded as {game}.")
        print_summary(result, None)
        assert capsys.readouterr().out.startswith(f"{game} grader -- alice\n")
        assert dashboard([result, replace(bob(), game=game)], tmp_path).title == game
        if game == "Palace":
            assert "Final Card-Down" not in page + junit_string([result]) + gradescope_json(result)["output"]


def test_the_report_says_once_how_to_read_the_games_moves() -> None:
    """``GameSpec.notation``, found by the result's game: once in report.html and in Gradescope's output where
    tests did not pass; not at all where every test passed, or for a result naming no game."""
    for name in ("palace", "fcd17s2", "fcd18s2"):
        game = get(name)
        failing = replace(alice(), game=game.title)
        page = render_html(failing)
        assert page.count("How to read the moves") == 1
        assert all(str(escape(line)) in page for line in game.notation.splitlines())
        output = gradescope_json(failing)["output"]
        assert output.count("How to read the moves:") == 1
        passing = replace(carol(), game=game.title, tests=[t for t in carol().tests if t.passed])
        assert "How to read the moves" not in render_html(passing) + gradescope_json(passing)["output"]
    assert "How to read the moves" not in render_html(alice())  # a result naming no game
