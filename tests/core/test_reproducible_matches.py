"""Reproducible matches (issue #35): a decision is limited by the CPU time of decideMove itself (the decision
clock, ``grader.core.arena.decision_clock``), not by real time nor by the replay before it; a forfeit for time
is asked again in a fresh process before it counts; and ``fcd-play`` with the same seed and the same players
gives the same standings and the same games on an idle machine and on a busy one."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import textwrap
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping, cast

import orjson
import pytest

from grader.core.arena import cli
from grader.core.arena.decision_clock import BUDGET, DECIDING, child_limits
from grader.core.arena.match import play_match
from grader.core.arena.players import BotPlayer, Decision, Table
from grader.core.arena.student import ask_player
from grader.core.config import MarkingConfig
from grader.core.run_report import RunReport
from grader.core.sandbox.limits import Limits
from grader.core.worker_client import WorkerClient
from grader.games import get
from grader.games.fcd18s2.arena import StudentPlayer

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ROOT / "fixtures" / "players"
GAME = get("fcd18s2")
ARENA = GAME.arena_game()
LIMITS = MarkingConfig.load(game=GAME).player_limits  # decideMove's budget: call_cpu_seconds = 1


# --- the clock, in a process of its own ------------------------------------------------------------------

CLOCKED = """
import json, resource, signal, sys, time
from grader.core.sandbox.clocks import BUDGET, timed_decision

def burn(seconds):  # CPU seconds, whatever else the machine does
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass

def send(frame):
    print(json.dumps(frame), flush=True)

{setup}
burn({replay})  # the replay of the game so far, before the call
chosen, used = timed_decision(lambda: {decide}, {{BUDGET: {budget}}}, send)
send({{"t": "decided", "cpu": used}})
"""


def clocked(*, replay: float, decide: str, budget: float, setup: str = "") -> tuple[int, list[dict[str, object]]]:
    """A process that burns ``replay`` CPU seconds, then makes the call ``decide`` on the decision clock with
    ``budget``: how it ended (``returncode``: minus the signal that ended it) and the frames it sent."""
    script = CLOCKED.format(setup=textwrap.dedent(setup), replay=replay, decide=decide, budget=budget)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False,
                          cwd=ROOT)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def test_the_clock_counts_the_decisions_cpu_time_only_not_the_replay_before_it() -> None:
    """A replay of 0.6 s of CPU, twice the budget of 0.3 s, then a decision of 0.05 s: it answers, and the
    CPU time it reports is the decision's (at least its 0.05 s, less than the replay's 0.6 s)."""
    code, frames = clocked(replay=0.6, decide="burn(0.05)", budget=0.3)
    assert code == 0, frames
    assert [f["t"] for f in frames] == [DECIDING, "decided"]
    assert cast(float, frames[0]["before"]) >= 0.6  # the replay was spent before the clock started
    assert 0.05 <= cast(float, frames[1]["cpu"]) < 0.6


def test_the_clock_stops_a_decision_that_goes_over_its_budget() -> None:
    """An endless decideMove is ended by SIGPROF, after the frame that announced the call and before any answer."""
    code, frames = clocked(replay=0.1, decide="burn(1e9)", budget=0.3)
    assert code == -signal.SIGPROF
    assert [f["t"] for f in frames] == [DECIDING]


def test_a_decision_that_ignores_the_clocks_signal_is_killed_at_the_cpu_limit() -> None:
    """A player that ignores SIGPROF is still stopped: the clock lowers the CPU limit (here to the 1 s the
    process already had as its hard limit) and the kernel kills it there."""
    setup = """
    resource.setrlimit(resource.RLIMIT_CPU, (1, 1))
    def ignore_then_burn():
        signal.signal(signal.SIGPROF, signal.SIG_IGN)
        burn(1e9)
    """
    code, frames = clocked(replay=0.0, decide="ignore_then_burn()", budget=0.3, setup=setup)
    assert code == -signal.SIGKILL
    assert [f["t"] for f in frames] == [DECIDING]


# --- a student's player in the sandbox -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def long_game() -> Table:
    """A whole game of the random baselines (hundreds of moves) but its last move: what a player is asked."""
    deck = ARENA.random_deck(random.Random(5))
    record = play_match(ARENA, deck, [BotPlayer(n, ARENA.bots["random"], i) for i, n in enumerate("abcd")])
    assert len(record.moves) > 300
    return Table(record.deck, tuple(record.moves[:-1]), 0)


def test_a_player_is_charged_for_its_decision_and_forfeits_only_when_over_its_cpu_budget(long_game: Table) -> None:
    """``slow`` thinks 0.5 s of CPU (its budget is 1 s) after a replay of hundreds of moves: it answers, and
    the answer reports the CPU time of decideMove (its loop's 0.5 s at least).  ``loops`` is forfeited for
    CPU time in decideMove, asked twice."""
    slow = StudentPlayer(PLAYERS / "slow", "slow", LIMITS)
    loops = StudentPlayer(PLAYERS / "loops", "loops", LIMITS)
    try:
        assert slow.client is not None
        answer, forfeit, notes = ask_player(slow.client, slow.request(None, long_game), LIMITS, {}, "")
        assert forfeit is None and notes == () and answer is not None
        assert answer["t"] == "decided" and 0.5 <= answer["cpu"]
        decision = loops.decide(None, [], long_game)
        assert decision.move is None
        assert decision.forfeit == ("timed out: took more than 1 s of CPU time in decideMove (an endless loop, or a "
                                    "search that goes too deep?); asked again in a fresh process, it ran out of "
                                    "time again")
    finally:
        slow.close()
        loops.close()


# --- asked again before a forfeit for time counts -----------------------------------------------------------

def _report(frames: list[Mapping[str, object]], *, signal_: int | None = None, enforced: str | None = None,
            cpu: float = 0.0) -> RunReport:
    """What the worker says of one child (its header's facts), with the frames the child sent."""
    header = {"limits": child_limits(LIMITS).as_dict(), "enforced": enforced, "exit_code": None if signal_ else 0,
              "signal": signal_, "cpu": cpu, "wall": 0.0, "maxrss_kb": 0, "stdout": "", "stderr": "",
              "protocol": None, "finished": signal_ is None and enforced is None, "call": [0, 0, 0, 0, 0]}
    return RunReport.from_worker(header, [orjson.dumps(f) for f in frames])


OVER_BUDGET = _report([{"t": DECIDING, "before": 0.01}], signal_=signal.SIGPROF, cpu=1.01)
OVER_THE_BACKSTOP = _report([{"t": DECIDING, "before": 0.01}], enforced="wall", cpu=0.2)
ANSWERED = _report([{"t": DECIDING, "before": 0.01}, {"t": "decided", "move": "draw", "cpu": 0.4}])
CRASHED = _report([{"t": DECIDING, "before": 0.01}], signal_=signal.SIGSEGV, cpu=0.1)


class Scripted:
    """A worker client that answers each run with the next of ``reports`` and keeps what it was asked."""

    def __init__(self, *reports: RunReport) -> None:
        self.reports = list(reports)
        self.asked: list[tuple[Mapping[str, object], Limits]] = []

    def run(self, job: Mapping[str, object], limits: Limits, max_frames: int) -> RunReport:
        self.asked.append((job, limits))
        return self.reports.pop(0)


def _ask(client: Scripted) -> tuple[Mapping[str, Any] | None, Decision | None, tuple[str, ...]]:
    """``ask_player`` with this client, for the game so far (one move) at the default limits."""
    return ask_player(cast(WorkerClient, client), {"moves": ["draw"]}, LIMITS, {}, "")


def test_a_decision_that_runs_out_of_time_once_is_asked_again_and_its_second_answer_counts() -> None:
    client = Scripted(OVER_BUDGET, ANSWERED)
    answer, forfeit, notes = _ask(client)
    assert forfeit is None and answer == ANSWERED.frames[1]
    assert notes == ("its decideMove ran out of time once (timed out: took more than 1 s of CPU time in decideMove "
                     "(an endless loop, or a search that goes too deep?)); asked again in a fresh process, it "
                     "answered the second time",)
    # The same question both times: the game so far and decideMove's budget, in a child with room for the replay.
    assert [job for job, _ in client.asked] == [{"moves": ["draw"], BUDGET: 1}] * 2
    assert [limits for _, limits in client.asked] == [LIMITS.with_(cpu=1 + 10)] * 2


@pytest.mark.parametrize(("first", "second", "why"), [
    (OVER_BUDGET, OVER_BUDGET, "timed out: took more than 1 s of CPU time in decideMove"),
    (OVER_THE_BACKSTOP, OVER_BUDGET, "timed out: took more than 1 s of CPU time in decideMove"),
    (OVER_BUDGET, OVER_THE_BACKSTOP, "timed out: Your code did not finish within 10.0 seconds of real time"),
])
def test_a_decision_that_runs_out_of_time_twice_forfeits(first: RunReport, second: RunReport, why: str) -> None:
    answer, forfeit, _ = _ask(Scripted(first, second))
    assert answer is None and forfeit is not None
    assert forfeit.forfeit.startswith(why) and forfeit.forfeit.endswith("it ran out of time again")


def test_only_a_forfeit_for_time_is_asked_again() -> None:
    client = Scripted(CRASHED, ANSWERED)
    answer, forfeit, _ = _ask(client)
    assert answer is None and len(client.asked) == 1
    assert forfeit is not None and forfeit.forfeit.startswith("crashed: ")
    second = Scripted(OVER_BUDGET, CRASHED)  # asked again, it crashed: that counts, and the notes say both
    answer, forfeit, notes = _ask(second)
    assert answer is None and forfeit is not None and forfeit.forfeit.startswith("crashed: ")
    assert len(notes) == 1 and notes[0].startswith("its decideMove ran out of time once")


# --- fcd-play: the same seed, the same games -----------------------------------------------------------------

def _fcd_play(out: Path, config: Path, seed: int, *players: str) -> tuple[bytes, dict[str, bytes]]:
    """``fcd-play`` on ``players`` (bundled players' folders and baselines): its standings and games, byte for byte."""
    args = [str(PLAYERS / p) if (PLAYERS / p).is_dir() else p for p in players]
    cli.main([*args, "--seed", str(seed), "--jobs", "2", "--config", str(config), "--out", str(out)])
    games = {p.name: p.read_bytes() for p in sorted((out / "games").glob("*.json"))}
    return (out / "standings.json").read_bytes(), games


@contextmanager
def busy_machine(burners: int = 3) -> Iterator[None]:
    """Processes that burn CPU on the machine's two cores meanwhile (killed at the end)."""
    burning = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(burners)]
    try:
        yield
    finally:
        for burner in burning:
            burner.kill()
            burner.wait()


def _idle_then_busy(tmp_path: Path, players_table: str, seed: int, *players: str) -> None:
    """``fcd-play`` twice with the same seed and players, once on a busy machine: the same standings, the same
    games (moves, places, forfeits, notes, replays), byte for byte."""
    config = tmp_path / "marking.toml"
    config.write_text(players_table)
    idle_standings, idle_games = _fcd_play(tmp_path / "idle", config, seed, *players)
    with busy_machine():
        busy_standings, busy_games = _fcd_play(tmp_path / "busy", config, seed, *players)
    assert busy_standings == idle_standings
    assert list(busy_games) == list(idle_games) and busy_games == idle_games
    summary = json.loads(idle_standings)
    assert {s["name"]: s["forfeits"] for s in summary["standings"]}["slow"] == 0
    assert all(json.loads(game)["forfeits"] == [] for game in idle_games.values())


def test_the_same_seed_gives_the_same_games_on_a_busy_machine(tmp_path: Path) -> None:
    """Five players and three baselines: two tables of four, each deck played four times, the games cut at 8
    moves (a turn each, two decisions: ``slow`` thinks 1 s of CPU a game, never over its budget of 1 s a
    decision, though far over a second of real time on the busy machine)."""
    _idle_then_busy(tmp_path, "[players]\nmax_moves = 6\nrounds = 1\n", 3,
                    "slow", "simple", "greedy", "cautious", "random")


@pytest.mark.slow
def test_the_same_seed_gives_the_same_games_on_a_busy_machine_full_size(tmp_path: Path) -> None:
    """The same at the default limits, over two rounds of games that go on for 120 moves."""
    _idle_then_busy(tmp_path, "[players]\nmax_moves = 120\nrounds = 2\n", 11,
                    "slow", "simple", "strong", "peeks", "greedy", "cautious")
