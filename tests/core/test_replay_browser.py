"""The HTML replay in a real browser (Playwright with the system Chromium, headless).

A failing mutant's report opens each failed game at its first difference with the expected and got
values; the keyboard steps through the moves and the state shown is the reference's at each step; a
deep link (#<test>/step-<n>) opens that step; a game the submission hung in opens at the step that call was
made on, the call in progress shown; and text a hostile submission printed, or put in a game, never runs as
script.  On a failure the page is saved as a screenshot beside the test's files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from headless import CHROMIUM, browser_page

from grader.core import results
from grader.core.replay import Difference, Frame, Pile, Replay, Seat
from grader.core.report.html import write_html
from grader.games import get

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium (.ci/run installs the apt package)")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def mutant_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    subprocess.run([sys.executable, "-m", "grader.core.cli", str(ROOT / "fixtures" / "submissions" / "mutants" /
                    "skip_ignored"), "--out", str(out), "--random-games", "0", "--no-memory", "--quiet"],
                   check=False, capture_output=True, timeout=300)
    return out


HANG_TEST = "declare/declaration_lasts_while_d_on_top"  # five moves: the fifth playMove never returns


@pytest.fixture(scope="module")
def hang_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """fixtures/submissions/hostile/hang_on_fifth_play_move graded on one scenario of five moves, under limits of
    1 CPU second and 2 s (a marking configuration of its own: the shipped one waits 10 s for a hang)."""
    out = tmp_path_factory.mktemp("hang")
    shipped = (ROOT / "grader" / "games" / "fcd18s2" / "marking.toml").read_text()
    assert "cpu_seconds = 5 " in shipped and "wall_seconds = 10 " in shipped
    config = out / "marking.toml"
    config.write_text(shipped.replace("cpu_seconds = 5 ", "cpu_seconds = 1 ").replace("wall_seconds = 10 ",
                                                                                      "wall_seconds = 2 "))
    subprocess.run([sys.executable, "-m", "grader.core.cli", str(ROOT / "fixtures" / "submissions" / "hostile" /
                    "hang_on_fifth_play_move"), "--out", str(out / "report"), "--config", str(config),
                    "--only", HANG_TEST, "--random-games", "0", "--no-memory", "--quiet"],
                   check=False, capture_output=True, timeout=300)
    return out / "report"


def _seats_shown(box: object) -> list[list[str]]:
    return [row.locator(".card").all_text_contents() for row in box.locator(".seat").all()]


def test_a_failed_game_opens_at_its_first_difference_and_steps_through_the_reference(mutant_report: Path,
                                                                                     tmp_path: Path) -> None:
    result = json.loads((mutant_report / "result.json").read_text())
    test = next(t for t in result["tests"] if t["id"] == "skip/a_skips_player_1")
    diff = test["difference"]
    frames = get("fcd18s2").replay_frames(test["deck"], test["moves"])
    with browser_page(tmp_path) as (page, errors):
        page.goto((mutant_report / "report.html").as_uri())
        box = page.locator("div.replay[data-test='skip/a_skips_player_1']")
        assert box.locator(".where").text_content().startswith(f"step {diff['step']} of {len(frames) - 1}")
        assert box.locator(".diff .what").text_content() == f"First difference: {diff['what']}"
        assert box.locator(".diff .expected").text_content() == f"expected: {diff['expected']}"
        assert box.locator(".diff .got").text_content() == f"got: {diff['got']}"
        box.focus()
        page.keyboard.press("Home")
        for k, frame in enumerate(frames):
            assert _seats_shown(box) == [list(s.cards) for s in frame.seats], f"step {k}"
            assert box.locator(".seat.current .name").text_content().startswith(next(
                s.name for s in frame.seats if s.current))
            assert page.url.endswith(f"#skip/a_skips_player_1/step-{k}") or k == 0
            page.keyboard.press("ArrowRight")
        page.keyboard.press("End")
        assert box.locator(".where").text_content().startswith(f"step {len(frames) - 1}")
        # Colour is never the only sign: each card writes its colour letter in bold and spells it in its title.
        cards = box.locator(".card:not(.plain)").evaluate_all(
            "cs => cs.map(c => [c.className, c.querySelector('b').textContent, c.title])")
        words = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "P": "purple"}
        assert cards and all(cls == f"card {letter}" and title.endswith(": " + words[letter])
                             for cls, letter, title in cards)
        assert errors == []


def test_a_deep_link_opens_that_step(mutant_report: Path, tmp_path: Path) -> None:
    with browser_page(tmp_path) as (page, errors):
        page.goto((mutant_report / "report.html").as_uri() + "#skip/a_skips_player_1/step-1")
        box = page.locator("div.replay[data-test='skip/a_skips_player_1']")
        assert box.locator(".where").text_content().startswith("step 1 of")
        assert box.locator(".diff").count() == 0  # the difference is at another step
        assert errors == []


def test_the_link_in_junit_opens_the_first_difference(mutant_report: Path, tmp_path: Path) -> None:
    test = next(t for t in json.loads((mutant_report / "result.json").read_text())["tests"]
                if t["id"] == "skip/a_skips_player_1")
    link = f"report.html#skip/a_skips_player_1/step-{test['difference']['step']}"
    scored = next(t for t in json.loads((mutant_report / "results.json").read_text())["tests"]
                  if t["name"] == "skip/a_skips_player_1")
    assert "report.html" not in scored["output"]  # on Gradescope students cannot open it (issue 32)
    assert scored["output"].endswith("run `fcd-grade .` on your own computer and open the report it writes.")
    assert f"See the game step by step: {link}" in (mutant_report / "junit.xml").read_text()
    with browser_page(tmp_path) as (page, errors):
        page.goto((mutant_report / link.split("#")[0]).as_uri() + "#" + link.split("#")[1])
        box = page.locator("div.replay[data-test='skip/a_skips_player_1']")
        assert box.locator(".where").text_content().startswith(f"step {test['difference']['step']} of")
        assert box.locator(".diff .got").text_content() == f"got: {test['difference']['got']}"
        assert errors == []


def test_a_game_that_hung_opens_at_the_step_of_the_call_in_progress_and_shows_that_call(hang_report: Path,
                                                                                       tmp_path: Path) -> None:
    """The fifth playMove (move 5, 6PS) never returns: the replay opens at step 4, the reference's game that move
    was made on (6PS among its valid moves), with the call in progress and what became of it; the step after
    shows no call; and the link the JUnit message ends with opens the same step."""
    test = next(t for t in json.loads((hang_report / "result.json").read_text())["tests"] if t["id"] == HANG_TEST)
    assert test["verdict"] == "timed out"
    frames = get("fcd18s2").replay_frames(test["deck"], test["moves"])
    assert len(frames) == 6 and frames[5].move == "6PS"
    link = f"report.html#{HANG_TEST}/step-4"
    assert f"See the game step by step: {link}" in (hang_report / "junit.xml").read_text()
    for address in ("report.html", link):
        with browser_page(tmp_path) as (page, errors):
            page.goto((hang_report / address.split("#")[0]).as_uri() + address[len("report.html"):])
            box = page.locator(f"div.replay[data-test='{HANG_TEST}']")
            assert box.locator(".where").text_content() == f"step 4 of 5 (after {frames[4].move})"
            call = box.locator(".diff.call")
            assert call.locator(".what").text_content() == "The call in progress: playMove(6PS) at move 5"
            assert call.locator(".expected").text_content() == "expected: to return"
            assert call.locator(".got").text_content().startswith("got: did not return")
            assert call.locator(".stopped").text_content() == "The game below is the one that call was made on."
            assert _seats_shown(box) == [list(s.cards) for s in frames[4].seats]
            assert "6PS" in box.locator(".valid .card").all_text_contents()
            box.focus()
            page.keyboard.press("ArrowRight")
            assert box.locator(".where").text_content().startswith("step 5 of 5 (after 6PS)")
            assert box.locator(".diff").count() == 0
            assert errors == []


def test_a_submission_that_prints_markup_leaves_the_page_whole_and_runs_nothing(tmp_path: Path) -> None:
    """fixtures/submissions/hostile/prints_markup prints </script><script>, </textarea></pre>, a javascript:
    link, an <img onerror> and a line of 100,000 '<' in every test: none of it runs, every test is still on
    the page, and what it printed is shown as text."""
    out = tmp_path / "report"
    subprocess.run([sys.executable, "-m", "grader.core.cli", str(ROOT / "fixtures" / "submissions" / "hostile" /
                    "prints_markup"), "--out", str(out), "--random-games", "0", "--no-memory", "--quiet"],
                   check=False, capture_output=True, timeout=300)
    tests = json.loads((out / "result.json").read_text())["tests"]
    assert any("window.pwned = 1" in t["stdout"] for t in tests)
    with browser_page(tmp_path) as (page, errors):
        page.goto((out / "report.html").as_uri())
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert page.locator("div.test").count() == len(tests)
        assert page.locator("a[href^='javascript']").count() == 0 and page.locator("img").count() == 0
        assert page.locator("p.footer").count() == 1
        printed = page.locator("div.test pre").all_text_contents()
        assert any("</script><script>window.pwned = 1</script></textarea>" in text for text in printed)
        assert errors == []


PAYLOAD = "</script><script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\">"


def test_what_a_submission_printed_or_put_in_a_game_never_runs_as_script(tmp_path: Path) -> None:
    frame = Frame(0, "", (Seat("player 0", ("5RH", PAYLOAD), True),), (Pile(PAYLOAD, (PAYLOAD,), 1),),
                  ((PAYLOAD, PAYLOAD),), (PAYLOAD,))
    test = results.TestResult("group/" + PAYLOAD, "group", ("R1",), 1.0, results.Verdict.WRONG, message=PAYLOAD,
                              stdout=PAYLOAD, deck="5RH", moves="")
    result = results.SubmissionResult(PAYLOAD, "hash", True, PAYLOAD, [PAYLOAD], ["gcc"], [test], profile=PAYLOAD)
    replay = Replay(PAYLOAD, (frame,), (Difference(0, PAYLOAD, PAYLOAD, PAYLOAD),))
    write_html(result, tmp_path / "report.html", {test.id: replay})
    with browser_page(tmp_path) as (page, errors):
        page.goto((tmp_path / "report.html").as_uri())
        assert page.evaluate("typeof window.pwned") == "undefined"
        box = page.locator("div.replay")
        assert PAYLOAD in box.locator(".seat").first.text_content()
        assert box.locator(".diff .got").text_content() == f"got: {PAYLOAD}"
        assert errors == []
