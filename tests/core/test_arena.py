"""The game runner and tournament (``grader.core.arena``, ``fcd-play``): the statistics worked out by hand,
the placing rule, baselines that only ever move legally, duplicate seating, every bundled player's verdict
(fixtures/players) in one tournament that survives them all, and the forfeit's replay page."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from headless import browser_page

from grader.core.arena.match import Forfeit, MatchRecord, places, play_match
from grader.core.arena.players import BotPlayer
from grader.core.arena.stats import Sprt, mean_interval, wilson
from grader.core.arena.tournament import Entrant, Settings, play_table, run_tournament, schedule, standings
from grader.core.config import MarkingConfig
from grader.games import get
from reference import Deck, Game, MoveSpec

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ROOT / "fixtures" / "players"
GAME = get("fcd18s2")
ARENA = GAME.arena_game()
CONFIG = MarkingConfig.load(game=GAME)
SETTINGS = Settings(int(CONFIG.players["max_moves"]), CONFIG.player_limits.as_dict(), "allowed")


# --- statistics ------------------------------------------------------------------------------------

def test_wilson_intervals() -> None:
    """5 of 10: 0.5 +- 1.96 sqrt(0.25/10 + 1.96^2/400) / (1 + 1.96^2/10), centred at 0.5; 0 of 10 still has room."""
    lo, hi = wilson(5, 10)
    z = 1.959963984540054
    half = z * math.sqrt(0.25 / 10 + z * z / 400) / (1 + z * z / 10)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half)) and lo == pytest.approx(0.2366, abs=1e-4)
    assert wilson(0, 10)[0] == 0 and wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_sequential_test_decides_when_the_log_likelihood_ratio_crosses_a_bound() -> None:
    """Each "yes" adds log(0.65/0.5) = 0.262, each "no" log(0.35/0.5) = -0.357; the bounds are +-log(19) = 2.944:
    12 yeses decide H1 (11 do not), 9 noes decide H0 (8 do not)."""
    yes = Sprt()
    assert [yes.add(True) for _ in range(12)] == [""] * 11 + ["H1"]
    no = Sprt()
    assert [no.add(False) for _ in range(9)] == [""] * 8 + ["H0"]


def test_mean_interval() -> None:
    mean, lo, hi = mean_interval([1, 2, 3, 4])
    half = 1.959963984540054 * math.sqrt(5 / 3) / 2
    assert (mean, lo, hi) == pytest.approx((2.5, 2.5 - half, 2.5 + half))


# --- placing ---------------------------------------------------------------------------------------

@dataclass
class Ended:
    won: int | None
    held: list[int]


class FakeTable:
    seats = 4

    def winner(self, state: Ended) -> int | None:
        return state.won

    def scores(self, state: Ended) -> list[int]:
        return state.held


def test_places_winner_first_then_fewest_points_ties_share_forfeits_last() -> None:
    assert places(FakeTable(), Ended(2, [10, 5, 0, 5]), []) == (2, [4.0, 2.0, 1.0, 2.0])
    # Seat 1 forfeited first, seat 3 later: the first to forfeit is last of all.
    assert places(FakeTable(), Ended(0, [0, 3, 9, 1]), [1, 3]) == (0, [1.0, 4.0, 2.0, 3.0])
    # A forfeited seat's stand-in put its last card down: no winner, the live ones by points.
    assert places(FakeTable(), Ended(1, [7, 0, 7, 2]), [1]) == (None, [2.0, 4.0, 2.0, 1.0])


# --- baselines and seating -----------------------------------------------------------------------------

def _bots(seed: int) -> list[BotPlayer]:
    return [BotPlayer(name, ARENA.bots[name], seed + i) for i, name in enumerate(["random", "greedy", "cautious",
                                                                                  "greedy"])]


@pytest.mark.parametrize("seed", range(6))
def test_baseline_games_are_legal_from_start_to_end(seed: int) -> None:
    deck = ARENA.random_deck(random.Random(seed))
    record = play_match(ARENA, deck, _bots(seed))
    assert not record.forfeits
    game = Game(Deck.parse(record.deck))  # every move again, on a fresh reference game
    for move in record.moves:
        assert move in [str(m) for m in game.legal_moves()]
        game.play_move(game.resolve(MoveSpec.parse(move)))
    if not record.stopped:
        assert game.outcome() is not None and record.winner == game.outcome().winner
        assert record.places[record.winner] == 1.0 if record.winner is not None else True


def test_duplicate_seating_gives_every_player_every_seat_on_the_same_deck() -> None:
    entrants = [Entrant(n, "bot", n) for n in ("random", "greedy", "cautious")] + [Entrant("g2", "bot", "greedy")]
    (table,) = schedule(entrants, 1, 4, seed=3)
    records = play_table("fcd18s2", table, SETTINGS)
    assert len(records) == 4 and len({r.deck for r in records}) == 1
    for name in ("random", "greedy", "cautious", "g2"):
        assert sorted(r.players.index(name) for r in records) == [0, 1, 2, 3]
    six = schedule([Entrant(f"p{i}", "bot", "random") for i in range(6)], 2, 4, seed=1)
    assert [len(t.entrants) for t in six] == [4, 4, 4, 4]  # 6 players and 2 random baselines a round
    assert schedule(entrants, 2, 4, seed=1) == schedule(entrants, 2, 4, seed=1)  # seeded: the same games


# --- the bundled players ---------------------------------------------------------------------------

VERDICTS = {  # player -> the start of why it forfeits ('' : it never does)
    "simple": "", "strong": "", "peeks": "",
    "illegal": "made an illegal move", "calls_play_move": "called playMove inside decideMove",
    "writes_game": "changed the game inside decideMove", "loops": "timed out", "crashes": "crashed",
    "floods": "printed more than 256 KiB",
}


@pytest.fixture(scope="module")
def survived() -> object:
    entrants = [Entrant(name, "student", str(PLAYERS / name)) for name in VERDICTS]
    return run_tournament("fcd18s2", entrants, SETTINGS, rounds=1, seats=4, seed=7, jobs=2)


def test_every_bundled_player_gets_its_verdict(survived: object) -> None:
    by_name = {s.name: s for s in survived.standings}
    for name, why in VERDICTS.items():
        s = by_name[name]
        if why:
            assert s.forfeits == s.games, name
            assert all(r.startswith(why) for r in s.forfeit_reasons), (name, s.forfeit_reasons)
        else:
            assert s.forfeits == 0, (name, s.forfeit_reasons)
    notes = [n for r in survived.records for n in r.notes]
    assert any(n.startswith("peeks: looked at other players' hands") and "allowed" in n for n in notes)


def test_the_tournament_survives_them_all_with_correct_standings_for_the_rest(survived: object) -> None:
    """9 players and 3 random baselines in 3 tables, each deck played 4 times: 12 games; every game ran to an
    end or its limit, each forfeiting player is placed below every live one, and the standings are the records'."""
    assert len(survived.records) == 12
    for r in survived.records:
        gone = {f.seat for f in r.forfeits}
        live = [r.places[s] for s in range(4) if s not in gone]
        assert all(r.places[s] > max(live, default=0) for s in gone)
        assert r.winner is None or r.winner not in gone
    again = standings(survived.records, {s.name: s.kind for s in survived.standings})
    assert [(s.name, s.games, s.wins, s.places) for s in again] == \
        [(s.name, s.games, s.wins, s.places) for s in survived.standings]
    for s in survived.standings:
        assert s.games == 4 and s.wins == sum(r.winner is not None and r.players[r.winner] == s.name
                                              for r in survived.records)


def test_a_course_may_forbid_looking_at_other_hands() -> None:
    forbidding = Settings(SETTINGS.max_moves, SETTINGS.limits, "forbidden")
    entrants = [Entrant("peeks", "student", str(PLAYERS / "peeks"))] + [
        Entrant(n, "bot", n) for n in ("random", "greedy", "cautious")]
    (table,) = schedule(entrants, 1, 4, seed=2)
    records = play_table("fcd18s2", table, forbidding)
    reasons = [f.why for r in records for f in r.forfeits]
    assert len(reasons) == 4 and all("looked at other players' hands" in w and "forbids" in w for w in reasons)


# --- fcd-play --------------------------------------------------------------------------------------

def test_qualifying_a_player_gives_marks_and_a_forfeit_a_replay_page(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "grader.core.arena.cli", "--qualify", str(PLAYERS / "crashes"),
                           "--rounds", "1", "--out", str(tmp_path)], capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 1, done.stderr
    summary = json.loads((tmp_path / "standings.json").read_text())
    marks = {m["what"]: m["marks"] for m in summary["marks"]}
    assert marks == {"legal": 0, "beats_random": 0, "beats_greedy": 0}
    assert "Marks for crashes: 0 / 10" in done.stdout and "forfeited at step" in done.stdout
    game = json.loads((tmp_path / "games" / "1.json").read_text())
    (forfeit,) = game["forfeits"]
    record = MatchRecord.from_json({k: v for k, v in game.items() if k != "replay"})
    assert record.forfeits == [Forfeit(**forfeit)]
    assert game["replay"]["differences"][0]["step"] == forfeit["move"]
    page = (tmp_path / "games" / "1.html").read_text()
    assert f'href="#game/step-{forfeit["move"]}"' in page and "crashed: Your code crashed" in page
    with browser_page(tmp_path) as (browser, errors):  # the replay opens where the player forfeited
        browser.goto((tmp_path / "games" / "1.html").as_uri())
        box = browser.locator("div.replay")
        assert box.locator(".where").text_content().startswith(f"step {forfeit['move']} of")
        assert box.locator(".diff .what").text_content() == "First difference: crashes: decideMove()"
        assert errors == []


def test_a_match_of_four_bundled_players_prints_standings_with_intervals(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "grader.core.arena.cli", str(PLAYERS / "simple"),
                           str(PLAYERS / "strong"), "greedy", "random", "--rounds", "2", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:5] == ["player", "kind", "games", "wins", "win"] and "[95% CI]" in lines[0]
    rows = {line.split()[0]: line for line in lines[1:5]}
    assert set(rows) == {"simple", "strong", "greedy", "random"}
    for row in rows.values():  # 2 decks x 4 rotations: 8 games each, a win rate and a place with intervals
        assert row.split()[2] == "8" and re.search(r"\d+% \[\d+%, \d+%\]\s+\d\.\d\d \[\d\.\d\d, \d\.\d\d\]", row)
    assert lines[5] == "8 games in 2 round(s)"
    summary = json.loads((tmp_path / "standings.json").read_text())
    assert sum(s["wins"] for s in summary["standings"]) <= 8 and len(list((tmp_path / "games").glob("*.json"))) == 8
