"""A mistyped marking configuration is an error naming the nearest valid name, never a setting silently ignored;
the implementation's total is printed, and a total other than 100 is a warning (grader.core.config, config_cli)."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from grader.core.cli import main
from grader.core.config import ConfigError, MarkingConfig
from grader.games import GAMES, get

MODEL = Path(__file__).resolve().parents[2] / "fixtures" / "submissions" / "model"

MISTYPED = [  # (the course's file, what the user is told)
    ("[marks.group]\ndraw_two = 15\n", "[marks.group] is not a section: did you mean [marks.groups]?"),
    ("[limit]\ncpu_seconds = 3\n", "[limit] is not a section: did you mean [limits]?"),
    ("[marks.groups]\ndraw_twos = 15\n",
     "[marks.groups] names draw_twos, which is not a test group of fcd18s2: did you mean draw_two?"),
    ('[limits]\ncpu_seconds = "five"\n', "limits.cpu_seconds must be a whole number, got 'five'"),
    ("[limits]\nwall_seconds = true\n", "limits.wall_seconds must be a number, got true"),
    ("[limits]\ncpu_second = 3\n", "limits.cpu_second is not a key of [limits]: did you mean limits.cpu_seconds?"),
    ("[marks]\ndraw_two = 15\n", "marks.draw_two is not a key of [marks]: did you mean draw_two in [marks.groups]?"),
    ('[random_games]\nscoring = "all-or-nothing"\n', "random_games.scoring must be one of 'proportional', "
     "'all_or_nothing', got 'all-or-nothing': did you mean 'all_or_nothing'?"),
    ('[visibility]\nhidden_groups = ["ends"]\n',
     "visibility.hidden_groups names ends, which is not a test group of fcd18s2: did you mean end?"),
    ('[rulings]\nstrict = ["A99"]\n', "rulings.strict names A99, which is not a ruling of fcd18s2: did you mean A49?"),
]


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *options: str) -> tuple[int, str, str]:
    path = tmp_path / "course.toml"
    path.write_text(text)
    code = main(["config", "check", str(path), *options])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("text", "told"), MISTYPED, ids=[t.splitlines()[-1] for t, _ in MISTYPED])
def test_a_mistyped_configuration_is_an_error_naming_the_nearest_valid_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, told: str) -> None:
    code, out, err = _check(tmp_path, capsys, text)
    assert code == 2 and out == ""
    assert err == f"fcd-grade config: {tmp_path / 'course.toml'}: {told}\n"
    with pytest.raises(ConfigError, match=re.escape(told)):
        MarkingConfig.load(tmp_path / "course.toml")


def test_grading_refuses_a_mistyped_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same error stops a grading before anything is built (exit 2)."""
    (tmp_path / "course.toml").write_text("[limit]\ncpu_seconds = 3\n")
    assert main([str(MODEL), "--config", str(tmp_path / "course.toml")]) == 2
    assert "[limit] is not a section: did you mean [limits]?" in capsys.readouterr().err


def test_every_problem_is_named_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _check(tmp_path, capsys, '[limit]\ncpu_seconds = 3\n[marks.groups]\ndraw_twos = 15\n'
                                               '[testing]\ngate = "no"\n')
    assert code == 2 and "3 problems:" in err
    assert "did you mean [limits]?" in err and "did you mean draw_two?" in err
    assert "testing.gate must be true or false, got 'no'" in err


@pytest.mark.parametrize(("game", "text", "told"), [
    ("fcd18s2", "[marks.groups]\nadvance = 4\n", "[marks.groups] names advance, which is not a test group of fcd18s2"),
    ("palace", "[marks.groups]\ntwo = 3\n", "[marks.groups] names two, which is not a test group of palace: "
                                            "did you mean twos?"),
])
def test_the_names_are_the_games_own(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, text: str,
                                     told: str) -> None:
    """Groups are the game's scenario groups: 2017's ``advance`` is no group of 2018's."""
    code, _out, err = _check(tmp_path, capsys, text, "--game", game)
    assert code == 2 and told in err
    assert _check(tmp_path, capsys, "[marks.groups]\nadvance = 4\n", "--edition", "17s2")[0] == 0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_shipped_configuration_is_valid_and_totals_100(capsys: pytest.CaptureFixture[str], name: str) -> None:
    game = get(name)
    config = MarkingConfig.load(game=game)
    assert config.implementation_total() == 100 and config.warnings() == []
    assert set(config.groups) == {s.group for s in game.load_scenarios()}
    assert main(["config", "check", str(game.marking_file), "--game", name]) == 0
    out, err = capsys.readouterr()
    assert "implementation: 100 (build 5 + test groups 70 + random games 15 + memory 10)" in out and err == ""


def test_a_total_other_than_100_is_a_warning_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _check(tmp_path, capsys, "[marks.groups]\ndraw_two = 15\n")
    assert code == 0 and "implementation: 105 (build 5 + test groups 75" in out
    assert err == "fcd-grade config: warning: the implementation's marks add up to 105, not 100\n"
    assert MarkingConfig.load(tmp_path / "course.toml").warnings() == [
        "the implementation's marks add up to 105, not 100"]
    _code, out, err = _check(tmp_path, capsys, "[random_games]\ngames = 0\n")  # no random games: no marks for them
    assert "random games 0" in out and "add up to 85, not 100" in err


def test_the_tests_and_players_parts_are_reported_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _check(tmp_path, capsys, "[testing]\nvalidity_marks = 10\n[players.marks]\nlegal = 6\n")
    assert code == 0 and err == ""  # the implementation still adds up to 100
    assert "implementation: 100" in out
    assert "students' tests ([testing]), marked apart: 25 (validity 10 + thoroughness 15)" in out
    assert "players ([players.marks], fcd-play --qualify), marked apart: 12 (legal 6 + " in out
    # A game without students' tests or a game runner (every shipped game has both now: 2017 made bare)
    text = get("fcd17s2").marking_file.read_text()
    (tmp_path / "default.toml").write_text(text[:text.index("[testing]")])
    bare = dataclasses.replace(get("fcd17s2"), marking_file=tmp_path / "default.toml", suite_targets=None, arena=None)
    (tmp_path / "course.toml").write_text("[testing]\nvalidity_marks = 5\n")
    with pytest.raises(ConfigError, match=r"\[testing\] lacks thoroughness_marks, gate, hang_is_caught, run_seconds, "
                       r"hidden_mutants: fcd17s2's default has no \[testing\]"):
        MarkingConfig.load(tmp_path / "course.toml", game=bare)
    (tmp_path / "course.toml").write_text(_complete_players())
    assert MarkingConfig.load(tmp_path / "course.toml", game=bare).warnings() == [
        "[players] is not used: fcd17s2 has no game runner (fcd-play)"]


def _complete_players() -> str:
    players = MarkingConfig.load().raw["players"]
    return "[players]\n" + "".join(f"{k} = {v!r}\n" for k, v in players.items() if k != "marks").replace("'", '"')


def test_show_prints_the_merged_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    course = tmp_path / "course.toml"
    course.write_text('[limits]\ncpu_seconds = 3\n[rulings]\nstrict = ["A1"]\n')
    assert main(["config", "show", "--config", str(course)]) == 0
    out = capsys.readouterr().out
    shown = tomllib.loads(out)
    assert shown["limits"]["cpu_seconds"] == 3 and shown["rulings"]["strict"] == ["A1"]  # the course's
    assert shown["limits"]["wall_seconds"] == 10 and shown["marks"]["groups"]["draw_two"] == 10  # defaults
    assert shown == MarkingConfig.load(course).raw
    assert f"cpu_seconds = 3  # set by {course}" in out and "wall_seconds = 10\n" in out
    assert "# implementation: 100 (" in out
    assert main(["config", "show", "--edition", "17s2"]) == 0
    assert tomllib.loads(capsys.readouterr().out) == MarkingConfig.load(game=get("fcd17s2")).raw
    course.write_text("[limit]\ncpu_seconds = 3\n")
    assert main(["config", "show", "--config", str(course)]) == 2
    assert "did you mean [limits]?" in capsys.readouterr().err


def test_the_sandbox_side_never_imports_pydantic() -> None:
    """The worker imports this module (``SuiteMarking``) where only the grader's own runtime is copied."""
    from grader.games import GAMES, get  # noqa: PLC0415

    for name in GAMES:  # each game's job, as the worker imports it
        code = (f"import sys, {get(name).sandbox_job}, grader.core.config; "
                "sys.exit('pydantic' in sys.modules)")
        assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0, name
