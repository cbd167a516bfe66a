"""The dashboard of a real batch (``fcd-grade batch``), in headless Chromium: the plots render, the table
sorts, the links open the students' reports at the right step, nothing is fetched and nothing a student
named or printed runs.  On a failure a screenshot is saved beside the test's files."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from headless import CHROMIUM, browser_page

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium (.ci/run installs the apt package)")
SUBMISSIONS = Path(__file__).resolve().parents[2] / "fixtures" / "submissions"
HOSTILE_NAME = "eve <img src=x onerror=window.pwned=1>"


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A class of five: the model, two mutants (one under a hostile folder name), one that crashes in
    newGame and one that does not compile."""
    root = tmp_path_factory.mktemp("class")
    shutil.copytree(SUBMISSIONS / "model", root / "alice")
    shutil.copytree(SUBMISSIONS / "mutants" / "skip_ignored", root / "bob")
    shutil.copytree(SUBMISSIONS / "hostile" / "crash_in_new_game", root / "carol")
    (root / "dave").mkdir()
    (root / "dave" / "Game.c").write_text('#include "Game.h"\nint numCards(Game g) { return 1 }\n')
    shutil.copytree(SUBMISSIONS / "mutants" / "d_is_wild", root / HOSTILE_NAME)
    out = tmp_path_factory.mktemp("out")
    proc = subprocess.run([sys.executable, "-m", "grader.core.cli", "batch", str(root), "--out", str(out),
                           "--random-games", "2", "--no-memory"], capture_output=True, text=True, timeout=600,
                          check=False)
    assert proc.returncode == 1, proc.stderr  # some failed; no grader error
    return out


def test_the_plots_and_the_table_render_and_the_table_sorts(batch: Path, tmp_path: Path) -> None:
    with browser_page(tmp_path) as (page, errors):
        page.goto((batch / "dashboard.html").as_uri())
        images = page.locator("figure img")
        assert images.count() == 3
        for i in range(3):
            assert images.nth(i).evaluate("img => img.complete && img.naturalWidth > 100 && img.naturalHeight > 50")
        rows = page.locator("table.students tbody tr")
        assert rows.count() == 5
        names = rows.locator("td:first-child").all_text_contents()
        assert names == ["alice", "bob", "carol", "dave", HOSTILE_NAME]  # as folders sort
        marks = page.locator("table.students th", has_text="marks")
        marks.click()
        assert marks.get_attribute("aria-sort") == "ascending"
        ascending = [float(x) for x in rows.evaluate_all("rs => rs.map(r => r.cells[1].dataset.sort)")]
        assert ascending == sorted(ascending) and ascending[0] == 0 and len(set(ascending)) > 2
        marks.click()
        descending = [float(x) for x in rows.evaluate_all("rs => rs.map(r => r.cells[1].dataset.sort)")]
        assert descending == sorted(ascending, reverse=True)
        assert rows.first.locator("td").first.text_content() == "alice"  # the model: full marks
        assert page.locator("p.problem-list", has_text="build failed (1): dave").count() == 1
        assert page.locator("p.problem-list", has_text="crashed (1): carol").count() == 1
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert errors == []


def test_a_first_failure_opens_that_students_replay_at_the_difference(batch: Path, tmp_path: Path) -> None:
    bob = json.loads((batch / "reports" / "bob" / "result.json").read_text())
    first = next(t for t in bob["tests"] if t["verdict"] != "passed")
    with browser_page(tmp_path) as (page, errors):
        page.goto((batch / "dashboard.html").as_uri())
        row = page.locator("table.students tbody tr", has_text="bob")
        row.locator("td:nth-child(5) a").click()
        page.wait_for_load_state()
        assert page.url.endswith(f"reports/bob/report.html#{first['id']}/step-{first['difference']['step']}")
        box = page.locator(f"div.replay[data-test='{first['id']}']")
        assert box.locator(".where").text_content().startswith(f"step {first['difference']['step']} of")
        assert box.locator(".diff .expected").text_content() == f"expected: {first['difference']['expected']}"
        assert errors == []


def test_the_hostile_name_opens_its_own_report(batch: Path, tmp_path: Path) -> None:
    with browser_page(tmp_path) as (page, errors):
        page.goto((batch / "dashboard.html").as_uri())
        page.locator("table.students tbody a", has_text=HOSTILE_NAME).click()
        page.wait_for_load_state()
        assert page.locator("h1").text_content() == f"Final Card-Down (2018): {HOSTILE_NAME}"
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert errors == []


def test_the_student_table_fits_a_1400_px_screen_with_an_lms_classs_long_names(tmp_path: Path) -> None:
    """Issue 45: the students' table ran off a 1400 px screen; Moodle's names are long, and so are test ids."""
    from grader.core.report.dashboard import write_dashboard  # noqa: PLC0415
    from grader.core.results import Student  # noqa: PLC0415
    from tests.core.test_dashboard import C, P, W, student  # noqa: PLC0415

    long_test = "play/a_long_test_name_that_names_its_rule_and_its_reading_in_full"
    results = []
    for i in range(6):
        name = f"Maximilian Alexander Papadopoulos-Worthington_10000{i}_assignsubmission_file_"
        r = student(name, {"build/compiles": P, long_test: W, "play/b": C, "end/c": P}, 3.0,
                    **{long_test: {"deck": "5RH", "moves": "draw", "difference": {
                        "step": 1, "what": "currentPlayer()", "expected": "1", "got": "2"}}})
        results.append(dataclasses.replace(r, student=Student(
            name="Maximilian Alexander Papadopoulos-Worthington", student_id=f"10000{i}", lms="moodle")))
    path = write_dashboard(results, tmp_path, "Final Card-Down (2018)")
    with browser_page(tmp_path, width=1400) as (page, errors):
        page.goto(path.as_uri())
        right = page.evaluate("document.querySelector('table.students').getBoundingClientRect().right")
        assert right <= 1400 and page.evaluate("document.documentElement.scrollWidth") <= 1400
        assert page.locator("table.students td", has_text="(100003)").count() == 1
        assert errors == []
