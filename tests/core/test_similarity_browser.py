"""The similar pairs of a real batch (``fcd-grade batch --similarity``) in headless Chromium: the dashboard's
section ranks them, a pair's page marks each matched region with one colour and one number on both sides, its
numbers lead to the other side, nothing is fetched, and what students named or wrote stays text.  On a failure
a screenshot is saved beside the test's files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from headless import CHROMIUM, browser_page

from grader.core.similarity.disguise import declared, disguise
from grader.games import get

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium (.ci/run installs the apt package)")
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "submissions"
HOSTILE = "eve <img src=x onerror=window.pwned=1>"
HOSTILE_FILE = "x<img src=y onerror=window.pwned=2>.c"
SCRIPT = "</pre></script><script>window.pwned=3</script>"
UNBUILT = "\n#error not built: this class is for the similarity check\n"  # the grading stops at the build: quick


def _batch(root: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "grader.core.cli", "batch", str(root), "--out", str(out),
                           "--random-games", "0", "--no-memory", "--jobs", "2", *extra],
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A class of four: alice (the model), bob (alice disguised), carol (the independent implementation), and eve,
    under a hostile name, alice disguised otherwise, with a hostile file and a comment closing tags."""
    game = get("fcd18s2")
    keep = declared((game.include_dir / h).read_text() for h in game.course_headers)
    model = (FIXTURES / "model" / "Game.c").read_text()
    root = tmp_path_factory.mktemp("class")
    for name, text in (("alice", model), ("bob", disguise(model, 1, keep)),
                       ("carol", (FIXTURES / "independent" / "Game.c").read_text()),
                       (HOSTILE, disguise(model, 2, keep) + f"\n/* {SCRIPT} */\n")):
        (root / name).mkdir()
        (root / name / "Game.c").write_text(text + UNBUILT)
    (root / HOSTILE / HOSTILE_FILE).write_text(f'static const char *said = "{SCRIPT}";\n')
    out = tmp_path_factory.mktemp("out")
    proc = _batch(root, out, "--similarity")
    assert proc.returncode == 1, proc.stderr  # none built; no grader error
    assert "similarity: 4 submissions, 6 pairs shared code (6 scored, 0 from the store" in proc.stdout
    return root, out


def test_the_section_ranks_the_pairs_and_opens_a_side_by_side_page(batch: tuple[Path, Path], tmp_path: Path) -> None:
    with browser_page(tmp_path) as (page, errors):
        page.goto((batch[1] / "dashboard.html").as_uri() + "#similar")
        rows = page.locator("table.similar tbody tr")
        pairs = [tuple(rows.nth(i).locator("td").all_text_contents()[2:4]) for i in range(rows.count())]
        assert sorted(pairs) == [("alice", "bob"), ("alice", HOSTILE), ("bob", HOSTILE)]  # carol: no pair
        assert page.locator("#similar").is_visible()
        rows.filter(has_text=HOSTILE).filter(has_text="alice").locator("a", has_text="compare").click()
        page.wait_for_load_state()
        assert page.url.split("/")[-2] == "similarity" and page.url.endswith(".html")
        assert page.locator("h1").text_content() == f"Similar implementation: alice and {HOSTILE}"
        a, b = page.locator("#side-a"), page.locator("#side-b")
        regions = a.locator("mark").evaluate_all("ms => [...new Set(ms.map(m => m.dataset.region))]")
        assert len(regions) > 5 and sorted(regions) == sorted(
            b.locator("mark").evaluate_all("ms => [...new Set(ms.map(m => m.dataset.region))]"))
        for n in regions:  # one colour a region, the same on both sides, and its number on each
            colours = {side.locator(f"mark[data-region='{n}']").first.evaluate(
                "m => getComputedStyle(m).backgroundColor") for side in (a, b)}
            assert len(colours) == 1 and colours != {"rgba(0, 0, 0, 0)"}
            assert a.locator(f"a#a{n}").text_content() == b.locator(f"a#b{n}").text_content() == n
        assert len({a.locator(f"mark[data-region='{n}']").first.evaluate("m => getComputedStyle(m).backgroundColor")
                    for n in regions[:8]}) == min(8, len(regions))  # neighbours told apart
        a.locator("a#a3").click()
        assert page.evaluate("location.hash") == "#b3"
        assert page.locator("a#b3").evaluate("e => { const r = e.getBoundingClientRect(), p = "
                                             "e.closest('pre').getBoundingClientRect(); "
                                             "return r.top >= p.top && r.bottom <= p.bottom; }")
        text = b.locator("pre").text_content()
        assert SCRIPT in text and b.locator(".file", has_text=HOSTILE_FILE).count() == 1
        assert page.evaluate("typeof window.pwned") == "undefined"
        page.locator("a", has_text="the similar pairs").click()
        page.wait_for_load_state()
        assert page.url.endswith("dashboard.html#similar")
        assert errors == []


def test_a_rerun_scores_nothing_and_regrades_nobody_for_a_new_threshold(batch: tuple[Path, Path],
                                                                         tmp_path: Path) -> None:
    """The store keeps the scores, and [similarity] is not part of the marking: a new threshold lists other
    pairs, grades nothing again and scores nothing again."""
    root, out = batch[0], tmp_path / "out"
    shutil.copytree(batch[1], out)
    (tmp_path / "course.toml").write_text("[similarity]\nthreshold = 0.1\n")
    proc = _batch(root, out, "--similarity", "--config", str(tmp_path / "course.toml"))
    assert proc.returncode == 1, proc.stderr
    assert "4 submissions: 0 graded, 4 from the store" in proc.stdout
    assert "6 pairs shared code (0 scored, 6 from the store; 0 files fingerprinted), 6 at or over 10%" in proc.stdout
    assert len((out / "similarity.csv").read_text().splitlines()) == 1 + 6
