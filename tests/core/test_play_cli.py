"""``fcd-play`` as a new user meets it: a player.c that does not compile is reported once, before any game,
with the compiler's own line (not as a forfeit in every game); a busy ``--web`` port is one line, or, when
the user chose no port, the next free one; and the seats the runner fills with baselines are named as such
and announced."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

from grader.core.arena import cli
from grader.core.arena.players import Player
from grader.core.commands import ExitCode
from grader.core.gamespec import GameSpec

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ROOT / "fixtures" / "players"
BROKEN = PLAYERS / "does_not_compile"
# fixtures/players/does_not_compile/player.c line 16, "    move.action = DRAW_CARD", has no semicolon: gcc
# points just past its end (column 28) at the "if" of line 17.
COMPILER_LINE = re.compile(r"does_not_compile/player\.c:16:28: error: expected ';' before 'if'")


def fcd_play(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "grader.core.arena.cli", *args], capture_output=True, text=True,
                          timeout=timeout, check=False, cwd=ROOT)


def _no_forfeit_words(text: str) -> None:
    """No game was forfeited for it (the standings' "forfeits" column aside) and nothing broke."""
    assert "forfeited" not in text and "could not play" not in text
    assert "Traceback" not in text


# --- a player.c that does not compile ------------------------------------------------------------------

def test_a_player_that_does_not_compile_is_reported_once_with_the_compilers_line(tmp_path: Path) -> None:
    done = fcd_play(str(BROKEN), "greedy", "random", "--rounds", "1", "--out", str(tmp_path))
    output = done.stdout + done.stderr
    assert done.returncode == ExitCode.TESTS_FAILED == 1, output
    assert len(COMPILER_LINE.findall(output)) == 1, output
    assert "does_not_compile: player.c does not compile with the course's Game.c" in done.stdout
    assert "   16 |     move.action = DRAW_CARD" in done.stdout  # the source line under it
    _no_forfeit_words(output)
    assert "No game was played" in done.stdout and not (tmp_path / "games").exists()  # no student left to play
    summary = json.loads((tmp_path / "standings.json").read_text())
    assert [b["name"] for b in summary["not_compiling"]] == ["does_not_compile"] and summary["standings"] == []


def test_qualifying_a_player_that_does_not_compile_shows_the_error_and_no_marks(tmp_path: Path) -> None:
    done = fcd_play("--qualify", str(BROKEN), "--out", str(tmp_path))
    output = done.stdout + done.stderr
    assert done.returncode == ExitCode.TESTS_FAILED, output
    assert len(COMPILER_LINE.findall(output)) == 1, output
    _no_forfeit_words(output)
    assert "Marks for does_not_compile: 0 / 10" in done.stdout
    assert output.index("error: expected ';'") < output.index("Marks for")  # the reason first
    assert not (tmp_path / "games").exists()


def test_the_others_play_on_without_it_and_the_baselines_that_fill_seats_are_named(tmp_path: Path) -> None:
    """does_not_compile, simple and greedy at a table of 4: does_not_compile is left out, so 2 players and 2
    random baselines, each named as one, announced once before the standings; 1 deck x 4 rotations = 4 games."""
    done = fcd_play(str(BROKEN), str(PLAYERS / "simple"), "greedy", "--rounds", "1", "--out", str(tmp_path))
    output = done.stdout + done.stderr
    assert done.returncode == ExitCode.TESTS_FAILED, output  # one player did not compile: not a clean run
    assert len(COMPILER_LINE.findall(output)) == 1
    _no_forfeit_words(output)
    assert "The games go on without does_not_compile." in done.stdout
    fillers = ["random (baseline, filler 1)", "random (baseline, filler 2)"]
    lines = done.stdout.splitlines()
    (said,) = [line for line in lines if "empty seats are filled" in line]
    assert said.startswith("2 player(s) for a table of 4") and all(f'"{f}"' in said for f in fillers)
    header = next(i for i, line in enumerate(lines) if line.startswith("player "))
    assert lines.index(said) < header
    rows = lines[header + 1:header + 5]
    assert sorted(next(n for n in ("simple", "greedy", *fillers) if row.startswith(n + " ")) for row in rows) == \
        sorted(["simple", "greedy", *fillers])
    assert "random#" not in output and "does_not_compile " not in "\n".join(rows)
    summary = json.loads((tmp_path / "standings.json").read_text())
    assert sorted(s["name"] for s in summary["standings"]) == sorted(["simple", "greedy", *fillers])
    assert all(s["forfeits"] == 0 for s in summary["standings"])
    games = sorted((tmp_path / "games").glob("*.json"))
    assert len(games) == 4
    for game in games:
        assert sorted(json.loads(game.read_text())["players"]) == sorted(["simple", "greedy", *fillers])


def test_a_palace_player_that_does_not_compile_is_reported_the_same_way(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    source = (ROOT / "fixtures" / "palace" / "players" / "simple" / "player.c").read_text().splitlines()
    line = next(i for i, text in enumerate(source) if text.strip().startswith("return ") and text.endswith(";"))
    source[line] = source[line].rstrip(";")  # a missing semicolon on line ``line + 1``
    (folder / "player.c").write_text("\n".join(source) + "\n")
    done = fcd_play("--game", "palace", "--qualify", str(folder), "--out", str(tmp_path / "out"))
    output = done.stdout + done.stderr
    assert done.returncode == ExitCode.TESTS_FAILED, output
    assert len(re.findall(rf"mine/player\.c:{line + 1}:\d+: error: expected ';'", output)) == 1, output
    assert "does not compile with the course's Palace.c" in done.stdout
    _no_forfeit_words(output)


# --- --web: its port -----------------------------------------------------------------------------------

@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port of 127.0.0.1 some other program listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def test_a_busy_port_the_user_chose_is_one_line_naming_it(busy_port: int) -> None:
    done = fcd_play("--web", "--port", str(busy_port), timeout=60)
    assert done.returncode == ExitCode.USAGE_OR_INTERNAL, done.stderr
    assert done.stderr.splitlines() == [
        f"fcd-play --web: port {busy_port} is in use: pass another with --port (or stop the program using it)"]
    assert "Traceback" not in done.stdout + done.stderr


def test_a_busy_default_port_moves_to_the_next_free_one_and_says_so(busy_port: int, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    served: list[int] = []

    def stop_at_once(server: ThreadingHTTPServer, *args: object, **kwargs: object) -> None:
        served.append(server.server_address[1])
        raise KeyboardInterrupt  # Ctrl-C, as soon as it would serve

    monkeypatch.setattr(cli, "PORT", busy_port)
    monkeypatch.setattr(ThreadingHTTPServer, "serve_forever", stop_at_once)
    assert cli.main(["--web"]) == ExitCode.OK
    out = capsys.readouterr().out
    (port,) = served
    assert busy_port < port <= busy_port + cli.PORT_FURTHER
    assert f"Port {busy_port} is in use, so the game is on port {port} (choose one with --port)." in out
    assert f"Play at http://127.0.0.1:{port}/" in out


def test_a_port_that_is_no_number_is_a_usage_error() -> None:
    done = fcd_play("--web", "--port", "99999", timeout=60)
    assert done.returncode == 2 and "is not a port number (0 to 65535)" in done.stderr
    assert "Traceback" not in done.stderr


# --- --web: its seats ----------------------------------------------------------------------------------

def test_web_seats_no_opponent_fills_are_taken_by_named_baselines(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Palace seats four and has two baselines: by default random and greedy play seats 1 and 2, and seat 3 is
    the random baseline, named for the seat it fills, and said so before the game is served."""
    from grader.core.arena import web  # noqa: PLC0415

    seated: list[list[str]] = []
    real_serve = web.serve

    def serve(spec: GameSpec, opponents: list[Player], *args: int) -> ThreadingHTTPServer:
        seated.append([p.name for p in opponents])
        return real_serve(spec, opponents, *args)

    def stop_at_once(server: ThreadingHTTPServer, *args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C, as soon as it would serve

    monkeypatch.setattr(web, "serve", serve)
    monkeypatch.setattr(ThreadingHTTPServer, "serve_forever", stop_at_once)
    assert cli.main(["--web", "--game", "palace", "--port", "0"]) == ExitCode.OK
    lines = capsys.readouterr().out.splitlines()
    said = "Seat 3 of 4: no opponent named, so the random baseline plays there, as 'random (baseline, seat 3)'."
    assert said in lines and lines.index(said) < next(i for i, line in enumerate(lines) if line.startswith("Play at"))
    assert seated == [["random", "greedy", "random (baseline, seat 3)"]]


def test_web_refuses_a_player_that_does_not_compile_before_serving(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--web", "--port", "0", str(BROKEN)]) == ExitCode.TESTS_FAILED
    out = capsys.readouterr().out
    assert len(COMPILER_LINE.findall(out)) == 1 and "Play at" not in out
