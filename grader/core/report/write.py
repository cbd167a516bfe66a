"""Every report of one submission, from its one result model: the repro programs, the replay pages of its
player's games with a forfeit, JUnit, Gradescope, HTML.

Used by ``fcd-grade`` and by the batch (which writes a stored result's reports again); a report that
cannot be made is a fault of the grader: one more ERROR test of the result, the others still made.
"""

from __future__ import annotations

import dataclasses
import json
import traceback
from functools import partial
from pathlib import Path
from typing import Callable, TypeVar

from grader.core.gamespec import GameSpec
from grader.core.results import PLAYER_GAMES, PlayersResult, SubmissionResult, TestResult, Verdict

Made = TypeVar("Made")


def write_reports(result: SubmissionResult, out: Path, game: GameSpec) -> SubmissionResult:
    """Every per-submission report, from the one result model: the game's C repro programs first,
    then every report of the result with their file names (``repro_files``), which is returned.

    A report that cannot be made is a fault of the grader, not a reason to lose the others: it becomes one
    more ERROR test of the result (exit 2; the batch keeps the result flagged for regrading), the reports
    are made again with it, and ``result.json``, written last, always holds every result."""
    from grader.core.replay import replays_of  # noqa: PLC0415
    from grader.core.report.gradescope import write_gradescope  # noqa: PLC0415
    from grader.core.report.html import write_html  # noqa: PLC0415
    from grader.core.report.junit import write_junit  # noqa: PLC0415

    out.mkdir(parents=True, exist_ok=True)
    faults: list[TestResult] = []

    def guard(what: str, write: Callable[[], Made]) -> Made | None:
        try:
            return write()
        except Exception:  # noqa: BLE001 - a fault of ours: an ERROR of its own, the other reports still made
            faults.append(_report_fault(what))
            return None

    for t in result.tests:
        if t.repro and not t.hidden:
            name = t.id.replace("/", "_") + ".toml"
            guard(name, partial((out / name).write_text, t.repro))
    repros = guard("repro", partial(game.write_repros, result, out / "repro")) or {}
    if result.players is not None and result.players.games:
        guard(PLAYER_GAMES, partial(write_player_games, result.players, out, game))
    result = dataclasses.replace(result, repro_files={tid: f"repro/{name}" for tid, name in repros.items()})
    writers: tuple[tuple[str, Callable[[SubmissionResult], None]], ...] = (
        ("junit.xml", lambda r: write_junit([r], out / "junit.xml")),
        ("results.json", lambda r: write_gradescope(r, out / "results.json")),
        ("report.html", lambda r: write_html(r, out / "report.html", replays_of(r, game.replay_frames, game.title))),
    )
    for name, write in writers:
        guard(name, partial(write, result))
    if faults:
        result = dataclasses.replace(result, tests=[*result.tests, *faults])
        again: list[TestResult] = []
        for name, write in writers:  # made again with the error in them; one that fails again is left out
            try:
                write(result)
            except Exception:  # noqa: BLE001
                (out / name).unlink(missing_ok=True)
                again.append(_report_fault(name))
        result = dataclasses.replace(result, tests=[*result.tests, *(t for t in again
                                                                     if t.id not in {f.id for f in faults})])
    (out / "result.json").write_text(json.dumps(result.to_json(), indent=1))
    return result


def write_player_games(players: PlayersResult, out: Path, game: GameSpec) -> None:
    """The replay page (and JSON) of each game kept whole of the player's qualification, as ``fcd-play`` writes
    them: ``out/players/games/<n>.html``, opened at the step where the player forfeited (the report links there)."""
    from grader.core.arena.cli import write_game  # noqa: PLC0415 - the arena's page, only for a player's games
    from grader.core.arena.match import MatchRecord  # noqa: PLC0415

    folder = out / PLAYER_GAMES
    folder.mkdir(parents=True, exist_ok=True)
    for kept in players.games:
        write_game(folder, kept.number, MatchRecord.from_json(kept.record), game)


def _report_fault(what: str) -> TestResult:
    """A report that could not be made, as a test of its own: a grader error (weightless: it marks nothing)."""
    from grader.core.grade import GRADER_FAULT  # noqa: PLC0415

    return TestResult(f"reports/{what}", "reports", (), 0.0, Verdict.ERROR, kind="report",
                      message=GRADER_FAULT + f"(making {what})\n" + traceback.format_exc(limit=8))
