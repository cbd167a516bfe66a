"""Palace at the table: the baselines play legal games, the greedy baseline beats the random one, and a
student's player.c is built with the model behind the guard, plays legal moves, and forfeits for a call
C44 forbids, an invalid move or a crash."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from grader.core.arena.game import ArenaGame
from grader.core.arena.match import play_match
from grader.core.arena.players import BotPlayer
from grader.core.config import MarkingConfig
from grader.core.sandbox.limits import Limits
from grader.games.fcd18s2 import GAME as FCD
from grader.games.palace.arena import PalaceSeating, StudentPlayer

PLAYERS = Path(__file__).resolve().parents[3] / "fixtures" / "palace" / "players"
SEATING = PalaceSeating()
ARENA = ArenaGame(SEATING.engine, SEATING)


def _limits() -> Limits:
    """One decideMove's limits: Final Card-Down's defaults (Palace's marking has the same [players])."""
    return MarkingConfig.load(game=FCD).player_limits


def test_greedy_beats_random_and_every_game_is_legal_and_ends() -> None:
    rng = random.Random(3)
    wins = {"greedy": 0, "random": 0}
    for g in range(40):
        seats = ["greedy", "random"] * 2 if g % 2 == 0 else ["random", "greedy"] * 2
        players = [BotPlayer(name, ARENA.bots[name], seed=g * 4 + i) for i, name in enumerate(seats)]
        record = play_match(ARENA, ARENA.random_deck(rng), players, max_moves=3000)
        assert not record.forfeits and record.winner is not None  # legal moves only, and a winner (C32)
        wins[record.players[record.winner]] += 1
    assert wins["greedy"] >= 30, wins  # measured 187 of 200 over more games


@pytest.fixture(scope="module")
def deck() -> object:
    return ARENA.random_deck(random.Random(11))


def _match(folder: str, deck: object) -> object:
    student = StudentPlayer(PLAYERS / folder, folder, _limits())
    bots = [BotPlayer(f"greedy{i}", ARENA.bots["greedy"], seed=i) for i in range(3)]
    try:
        return play_match(ARENA, deck, [student, *bots], max_moves=400)
    finally:
        student.close()


def test_a_simple_student_player_plays_a_whole_legal_game(deck: object) -> None:
    record = _match("simple", deck)
    assert not record.forfeits, record.forfeits
    assert record.winner is not None
    assert record.moves[0].startswith("up:")  # seat 0 chooses first: setup is the player's work too (C45)


@pytest.mark.parametrize(("folder", "why"), [
    ("peeks", "called getFaceDownCard inside decideMove"),
    ("invalid", "made an invalid move"),
    ("crashes", "crashed"),
])
def test_a_player_that_breaks_the_contract_forfeits_and_says_why(deck: object, folder: str, why: str) -> None:
    record = _match(folder, deck)
    assert [f.seat for f in record.forfeits] == [0]
    assert why in record.forfeits[0].why
    assert record.winner is not None and record.winner != 0  # the game goes on without it


def test_a_palace_tournament_prints_standings_with_intervals_and_keeps_every_game(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "grader.core.arena.cli", "--game", "palace", str(PLAYERS / "peeks"),
                           "greedy", "random", str(PLAYERS / "simple"), "--rounds", "2", "--seed", "1", "--out",
                           str(tmp_path)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 1, done.stderr  # a student's player forfeited
    lines = done.stdout.splitlines()
    head = lines.index(next(line for line in lines if line.startswith("player ")))
    assert "win rate [95% CI]" in lines[head] and "mean place [95% CI]" in lines[head]
    rows = {line.split()[0]: line.split() for line in lines[head + 1:head + 5]}
    assert set(rows) == {"peeks", "greedy", "random", "simple"}
    assert all(row[2] == "8" for row in rows.values())  # 2 decks x 4 rotations of the table
    assert rows["peeks"][-2] == "8"  # it forfeits every game (C44: getFaceDownCard inside decideMove)
    assert "8 games in 2 round(s)" in done.stdout
    games = tmp_path / "games"
    assert len(list(games.glob("*.json"))) == 8 and len(list(games.glob("*.html"))) == 8  # a page per forfeit
    page = (games / "1.html").read_text()
    assert "getFaceDownCard" in page
    assert "peeks forfeited at step" in done.stdout
