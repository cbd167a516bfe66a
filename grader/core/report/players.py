"""The student's player (``PlayersResult``) as report test cases, for JUnit and Gradescope: one case per mark of
``[players.marks]``, worth what that mark is worth; a mark not earned is a failure saying why (the forfeits, or
the compiler's first lines), and a qualification the grader could not finish is the grader's error."""

from __future__ import annotations

from ..results import GroupMarks, PlayersResult, SubmissionResult, TestResult, Verdict
from .escape import clean_text

GROUP = "players"
FORFEITS_SAID = 10  # forfeits a case's message lists (the HTML report lists every one)


def forfeit_lines(players: PlayersResult, pages: bool) -> list[str]:
    """The player's first forfeits, a line each; ``pages``: with the replay page of each game that has one (a
    report folder's ``players/games/<n>.html``; Gradescope shows no such page)."""
    lines = []
    for f in players.forfeits[:FORFEITS_SAID]:
        page = players.page_of(f.game) if pages else ""
        replay = f" (replay: {page}#game/step-{f.step})" if page else ""
        lines.append(f"game {f.game}, step {f.step}: {f.why}{replay}")
    if len(players.forfeits) > FORFEITS_SAID:
        lines.append(f"... and {len(players.forfeits) - FORFEITS_SAID} more forfeit(s)")
    return lines


def _message(players: PlayersResult, what: str, why: str, pages: bool) -> str:
    if not players.compiled:
        return f"{players.problem}, so it played no game.\n{players.compiler_output}".strip()
    if what == "legal" and players.forfeits:
        return "\n".join([why, *forfeit_lines(players, pages)])
    return why


def player_cases(players: PlayersResult, pages: bool = True) -> list[tuple[TestResult, float, float]]:
    """(test case, score, max score) for each mark of the player's qualification."""
    cases = []
    for m in players.marks:
        verdict = Verdict.ERROR if players.error else Verdict.PASSED if m.earned >= m.max else Verdict.WRONG
        message = players.error if players.error else _message(players, m.what, m.why, pages)
        case = TestResult(f"{GROUP}/{m.what}", GROUP, (), 1.0, verdict, message=clean_text(message), kind=GROUP)
        cases.append((case, m.earned, m.max))
    return cases


def players_result(result: SubmissionResult) -> SubmissionResult | None:
    """A submission's player as a result of its own (one JUnit suite), or None when it was not graded."""
    players = result.players
    if players is None:
        return None
    tests = [t for t, _, _ in player_cases(players)]
    own = SubmissionResult(f"{result.submission}: {players.player}", result.source_hash, players.compiled,
                           players.compiler_output, [], [], tests, seconds=players.seconds)
    own.groups = [GroupMarks(GROUP, sum(t.passed for t in tests), len(tests), players.score, players.max_score,
                             failed=sum(t.verdict.family == "fail" for t in tests))]
    return own
