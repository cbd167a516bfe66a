"""``fcd-grade`` grades a submission's ``player.c`` too (``grader.core.arena.qualify``): its marks of
``[players.marks]``, marked apart, in the result, its JSON, and every report.

Each submission here is the course's model with a fixture player beside it (``fixtures/players``, whose README
says what each does), graded without its scenarios, random games or memory stage: only the player matters.
The 2018 defaults: legal 4, beats_random 3, beats_greedy 3; four seats, so the student's player and the three
baselines (random, greedy, cautious) sit at one table, every deck played once per rotation: four games a round,
each with all four players.
"""

from __future__ import annotations

import csv
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from markupsafe import escape

from grader.core import cli
from grader.core.batch import run as batch_run
from grader.core.grade import grade, source_hash
from grader.core.report.csv_report import write_class_csv
from grader.core.report.dashboard import render_dashboard
from grader.core.report.write import write_reports
from grader.core.results import PLAYER_GAMES, SubmissionResult, result_from_json
from grader.games import get

xmlschema = pytest.importorskip("xmlschema")

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "fixtures" / "submissions" / "model"
PLAYERS = ROOT / "fixtures" / "players"
XSD = ROOT / "grader" / "core" / "schemas" / "junit.xsd"
GAME = get("fcd18s2")
# fixtures/players/does_not_compile/player.c line 16 has no semicolon: gcc points past its end at line 17's "if".
COMPILER_LINE = "player.c:16:28: error: expected ';' before 'if'"
# simple: legal moves only (the first card isValidMove accepts, else draw, else end), so it keeps ``legal``; with
# the fixed seed, the sequential tests decide that it places above random and not above greedy, as fcd-play
# --qualify says of it (``test_fcd_grade_gives_the_marks_fcd_play_qualify_gives``).
SIMPLE_MARKS = {"legal": (4.0, 4.0), "beats_random": (3.0, 3.0), "beats_greedy": (0.0, 3.0)}


def submission(base: Path, player: str | None, name: str = "alice") -> Path:
    """The model's sources in ``base/name``, with the fixture player ``player``'s ``player.c`` (none: no player)."""
    folder = base / name
    shutil.copytree(MODEL, folder)
    if player is not None:
        shutil.copyfile(PLAYERS / player / "player.c", folder / "player.c")
    return folder


def graded(folder: Path, **options: object) -> SubmissionResult:
    return grade(folder, game=GAME, scenarios=[], random_games=0, memory=False, own_tests=False, **options)


def reported(base: Path, player: str) -> tuple[SubmissionResult, Path]:
    """A submission with ``player``'s player.c, graded, and its reports written (in ``base/out``)."""
    out = base / "out"
    return write_reports(graded(submission(base, player)), out, GAME), out


@pytest.fixture(scope="module")
def simple(tmp_path_factory: pytest.TempPathFactory) -> tuple[SubmissionResult, Path]:
    return reported(tmp_path_factory.mktemp("simple"), "simple")


@pytest.fixture(scope="module")
def illegal(tmp_path_factory: pytest.TempPathFactory) -> tuple[SubmissionResult, Path]:
    return reported(tmp_path_factory.mktemp("illegal"), "illegal")


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> tuple[SubmissionResult, Path]:
    return reported(tmp_path_factory.mktemp("broken"), "does_not_compile")


def marks_of(result: SubmissionResult) -> dict[str, tuple[float, float]]:
    assert result.players is not None
    return {m.what: (m.earned, m.max) for m in result.players.marks}


def junit_suites(out: Path) -> dict[str, ET.Element]:
    xmlschema.XMLSchema(XSD).validate(str(out / "junit.xml"))
    return {s.get("name"): s for s in ET.parse(out / "junit.xml").getroot().findall("testsuite")}


# --- the result ----------------------------------------------------------------------------------------

def test_a_players_marks_are_in_the_result_apart_from_the_implementation(simple: tuple[SubmissionResult, Path]) -> None:
    result, out = simple
    players = result.players
    assert players is not None and players.compiled and not players.error
    assert marks_of(result) == SIMPLE_MARKS and (players.score, players.max_score) == (7, 10)
    assert (result.score, result.max_score, result.status) == (5, 5, "passed")  # the build alone: untouched
    assert players.forfeits == [] and players.games == [] and players.seed == 0
    # one table of four a round, each deck once per rotation: 4 games a round, every player in every game
    assert players.games_played == 4 * players.rounds
    assert {s.name: s.games for s in players.standings} == dict.fromkeys(
        ["player.c", "random", "greedy", "cautious"], players.games_played)
    assert sum(s.wins for s in players.standings) <= players.games_played
    stored = result_from_json(json.loads((out / "result.json").read_text()))
    assert stored.players == players and stored.to_json() == result.to_json()


def test_the_html_report_has_the_players_section(simple: tuple[SubmissionResult, Path]) -> None:
    _result, out = simple
    page = (out / "report.html").read_text()
    assert '<h2 id="your-player">Your player (player.c): 7 / 10</h2>' in page
    assert ('<tr class="missed"><td><code>beats_greedy</code></td><td>does not place above it (decided)</td>'
            '<td class="num">0 / 3</td></tr>') in page
    assert '<tr class="held"><td><code>legal</code></td><td>no forfeit in any game</td>' in page
    assert "<td><strong>player.c</strong> (yours)</td>" in page and "Forfeits (" not in page


def test_junit_has_a_players_suite_with_a_case_per_mark(simple: tuple[SubmissionResult, Path]) -> None:
    _result, out = simple
    suites = junit_suites(out)
    assert list(suites) == [f"{GAME.title}: alice", f"{GAME.title}: alice: player.c"]
    players = suites[f"{GAME.title}: alice: player.c"]
    assert (players.get("tests"), players.get("failures"), players.get("errors")) == ("3", "1", "0")
    cases = {c.get("name"): c for c in players.findall("testcase")}
    assert list(cases) == ["players.legal", "players.beats_random", "players.beats_greedy"]
    assert cases["players.legal"].find("failure") is None and cases["players.beats_random"].find("failure") is None
    assert cases["players.beats_greedy"].find("failure").get("message") == "does not place above it (decided)"
    props = {p.get("name"): p.get("value") for p in players.findall("properties/property")}
    assert props["marks.players"] == "7/10"


def test_gradescope_has_a_test_per_mark_and_counts_them(simple: tuple[SubmissionResult, Path]) -> None:
    result, out = simple
    scored = json.loads((out / "results.json").read_text())
    mine = {t["name"]: (t["score"], t["max_score"], t["status"]) for t in scored["tests"] if t["name"].startswith(
        "players/")}
    assert mine == {"players/legal": (4, 4, "passed"), "players/beats_random": (3, 3, "passed"),
                    "players/beats_greedy": (0, 3, "failed")}
    assert (scored["score"], scored["max_score"]) == (result.score + 7, result.max_score + 10)
    assert "Your player (player.c) 7 / 10, marked apart: legal 4/4, beats\\_random 3/3" in scored["output"]


def test_the_console_shows_a_line_per_mark(simple: tuple[SubmissionResult, Path],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    result, out = simple
    cli.print_summary(result, out)
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  your player "))
    assert lines[at].endswith("     7 / 10   (marked apart)")  # (a mark as people write it: grader.core.marks)
    assert [line.split()[:4] for line in lines[at + 1:at + 4]] == [
        ["legal", "4", "/", "4"], ["beats_random", "3", "/", "3"], ["beats_greedy", "0", "/", "3"]]


def test_the_class_csv_and_dashboard_show_the_players_marks(simple: tuple[SubmissionResult, Path],
                                                            tmp_path: Path) -> None:
    result, _out = simple
    bob = result_from_json(result.to_json())
    bob.submission, bob.players = "bob", None  # no player.c: blank, not 0
    write_class_csv([result, bob], tmp_path / "class.csv")
    rows = {r["submission"]: r for r in csv.DictReader((tmp_path / "class.csv").read_text().splitlines())}
    assert (rows["alice"]["players_marks"], rows["alice"]["players_max"]) == ("7", "10")
    assert (rows["bob"]["players_marks"], rows["bob"]["players_max"]) == ("", "")
    page = render_dashboard([result, bob], tmp_path, GAME.title)
    assert '<th class="sortable num">player</th>' in page
    assert '<td class="num" data-sort="7.0">7 / 10</td>' in page and '<td class="num" data-sort="-1"></td>' in page


# --- forfeits, and a player.c that does not compile ---------------------------------------------------------

def test_a_player_that_forfeits_loses_legal_and_its_games_get_replay_pages(
        illegal: tuple[SubmissionResult, Path]) -> None:
    result, out = illegal
    players = result.players
    assert players is not None
    mine = next(s for s in players.standings if s.name == "player.c")
    assert mine.forfeits == len(players.forfeits) > 0
    legal = players.marks[0]
    assert (legal.what, legal.earned, legal.max) == ("legal", 0, 4)
    assert legal.why.startswith(f"{mine.forfeits} forfeit(s): made an illegal move: ")
    with_forfeit = sorted({f.game for f in players.forfeits})
    assert [g.number for g in players.games] == with_forfeit[:10]  # the first ten games kept for their pages
    page = (out / "report.html").read_text()
    for f in players.forfeits:
        link = f'<a href="{PLAYER_GAMES}/{f.game}.html#game/step-{f.step}">game {f.game}</a>'
        assert (link in page) == (f.game in with_forfeit[:10])
        assert (out / PLAYER_GAMES / f"{f.game}.html").is_file() == (f.game in with_forfeit[:10])
    first = players.forfeits[0]
    game_page = (out / PLAYER_GAMES / f"{first.game}.html").read_text()
    assert f'<a href="#game/step-{first.step}">at step {first.step}</a>: {escape(first.why)}' in game_page
    legal_case = junit_suites(out)[f"{GAME.title}: alice: player.c"].find("testcase[@name='players.legal']/failure")
    assert f"game {first.game}, step {first.step}: {first.why} (replay: {PLAYER_GAMES}/{first.game}.html" \
           f"#game/step-{first.step})" in legal_case.text
    scored = json.loads((out / "results.json").read_text())
    output = next(t["output"] for t in scored["tests"] if t["name"] == "players/legal")
    assert "made an illegal move" in output and PLAYER_GAMES not in output  # Gradescope shows no such page


def test_a_player_that_does_not_compile_earns_nothing_and_the_reports_show_the_compiler(
        broken: tuple[SubmissionResult, Path], capsys: pytest.CaptureFixture[str]) -> None:
    result, out = broken
    players = result.players
    assert players is not None and not players.compiled and players.games_played == 0
    assert marks_of(result) == {"legal": (0, 4), "beats_random": (0, 3), "beats_greedy": (0, 3)}
    assert players.problem == "player.c does not compile with the course's Game.c"
    assert COMPILER_LINE in players.compiler_output.splitlines()
    page = (out / "report.html").read_text()
    assert str(escape(COMPILER_LINE)) in page and "so it played no game and earns no marks" in page
    cases = junit_suites(out)[f"{GAME.title}: alice: player.c"].findall("testcase")
    assert [c.find("failure") is not None for c in cases] == [True, True, True]
    assert COMPILER_LINE in cases[0].find("failure").text
    cli.print_summary(result, out)
    assert f"    the compiler: {COMPILER_LINE}" in capsys.readouterr().out.splitlines()


def test_a_fault_of_the_grader_while_qualifying_is_a_grader_error(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from grader.core.arena import qualify

    def broken_tournament(*_args: object, **_kw: object) -> None:
        raise RuntimeError("a bug of the grader")

    monkeypatch.setattr(qualify, "run_tournament", broken_tournament)
    result = write_reports(graded(submission(tmp_path, "simple")), tmp_path / "out", GAME)
    assert result.players is not None and "RuntimeError: a bug of the grader" in result.players.error
    assert result.status == "grader error" and result.players.score == 0  # provisional: graded again
    cases = junit_suites(tmp_path / "out")[f"{GAME.title}: alice: player.c"].findall("testcase")
    assert [c.find("error") is not None for c in cases] == [True, True, True]


# --- when it is not graded; the store's key ---------------------------------------------------------------

def test_no_players_leaves_the_player_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from grader.core import grade as pipeline

    whole = pipeline.grade
    monkeypatch.setattr(pipeline, "grade", lambda *a, **kw: whole(*a, **{**kw, "scenarios": []}))  # quicker
    folder = submission(tmp_path, "simple")
    out = tmp_path / "out"
    code = cli.main([str(folder), "--out", str(out), "--no-players", "--random-games", "0", "--no-memory",
                     "--no-tests", "--quiet"])
    assert code == 0 and json.loads((out / "result.json").read_text())["players"] is None
    assert not (out / "players").exists() and "your-player" not in (out / "report.html").read_text()
    args = cli._batch_parser().parse_args([str(tmp_path), "--out", str(out), "--no-players"])
    assert batch_run._options(args) == ("--no-players",)  # passed on to each grading, and part of the marking hash


def test_only_leaves_the_player_out(tmp_path: Path) -> None:
    first = GAME.load_scenarios()[0]
    result = grade(submission(tmp_path, "simple"), game=GAME, scenarios=[first], random_games=0, memory=False,
                   only=[first.id])
    assert [t.id for t in result.tests] == ["build/compiles", "build/all_functions_defined", first.id]
    assert result.players is None and result.suite is None


def test_a_new_player_is_a_new_submission(tmp_path: Path) -> None:
    folder = submission(tmp_path, None)
    without = source_hash(folder, GAME)
    shutil.copyfile(PLAYERS / "simple" / "player.c", folder / "player.c")
    simple = source_hash(folder, GAME)
    shutil.copyfile(PLAYERS / "strong" / "player.c", folder / "player.c")
    strong = source_hash(folder, GAME)
    assert len({without, simple, strong}) == 3
    (folder / "player.c").unlink()
    assert source_hash(folder, GAME) == without


# --- slow: against fcd-play, and a batch ------------------------------------------------------------------

@pytest.mark.slow
def test_fcd_grade_gives_the_marks_fcd_play_qualify_gives(simple: tuple[SubmissionResult, Path],
                                                           tmp_path: Path) -> None:
    import subprocess
    import sys

    folder = submission(tmp_path, "simple")
    subprocess.run([sys.executable, "-m", "grader.core.arena.cli", "--qualify", str(folder), "--out",
                    str(tmp_path / "play")], capture_output=True, text=True, timeout=600, check=False)
    summary = json.loads((tmp_path / "play" / "standings.json").read_text())
    assert {m["what"]: (m["marks"], m["max"]) for m in summary["marks"]} == SIMPLE_MARKS
    again = graded(folder)  # the same submission, the same marks and games, every run
    assert again.players is not None and simple[0].players is not None
    assert again.players.marks == simple[0].players.marks
    assert again.players.standings == simple[0].players.standings


@pytest.mark.slow
def test_a_batch_shows_every_students_player(tmp_path: Path) -> None:
    root = tmp_path / "class"
    root.mkdir()
    submission(root, "simple", "ann")
    submission(root, "does_not_compile", "bob")
    submission(root, None, "cy")
    out = tmp_path / "out"
    code = cli.main(["batch", str(root), "--out", str(out), "--random-games", "0", "--no-memory", "--jobs", "2"])
    assert code == 0  # every implementation passed: a player's marks are apart
    rows = {r["submission"]: r for r in csv.DictReader((out / "class.csv").read_text().splitlines())}
    assert {n: (r["players_marks"], r["players_max"]) for n, r in rows.items()} == {
        "ann": ("7", "10"), "bob": ("0", "10"), "cy": ("", "")}
    assert "Your player (player.c): 0 / 10" in (out / "reports" / "bob" / "report.html").read_text()
    assert '<th class="sortable num">player</th>' in (out / "dashboard.html").read_text()
    code = cli.main(["batch", str(root), "--out", str(out), "--random-games", "0", "--no-memory", "--no-players"])
    rows = {r["submission"]: r for r in csv.DictReader((out / "class.csv").read_text().splitlines())}
    assert code == 0 and all(r["players_marks"] == "" for r in rows.values())  # another marking: graded again
