"""2017 edition: a turn-structure bug is charged once, in the group that owns the clause the reference named (#46).

The reference names the clause that decided each isValidMove answer (``reference.fcd17s2.Game.why_valid``), and a
clause's home is the group with most scenario weight holding it (``grader.core.ownership``).  Worked out from the
rules: a second discard with no CONTINUE before it is invalid by S9/B14, whatever the card matches; a discard after
a draw is B16's (LENIENT: the grader accepts it unless a course makes B16 strict).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.core import results
from grader.core.config import MarkingConfig
from grader.core.grade import grade
from grader.core.ownership import home_groups
from grader.games import get as get_game
from grader.games.fcd17s2.session import SESSION

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "fcd17s2" / "submissions"
GAME = get_game("fcd17s2")
SCENARIOS = GAME.load_scenarios()
HOMES = home_groups(SCENARIOS)


@pytest.fixture(scope="module")
def two_discards() -> results.SubmissionResult:
    return grade(SUBMISSIONS / "mutants" / "two_discards_in_a_turn", MarkingConfig.load(game=GAME), game=GAME,
                 random_games=0, memory=False, own_tests=False, players=False)


def test_playing_twice_in_a_turn_is_charged_only_where_S9_B14_live(two_discards) -> None:
    assert HOMES["S9"] == HOMES["B14"] == "matching"
    wrong = [t for t in two_discards.tests if t.verdict.family == "fail"]
    assert wrong and all({"S9", "B14"} & set(t.rules) for t in wrong), [(t.id, t.rules) for t in wrong]
    lost = {g.group for g in two_discards.groups if g.marks < g.max_marks}
    assert lost == {"matching"}, lost
    # ... and it costs what failing exactly those tests costs: each of S9's tests of matching, in full.
    config = MarkingConfig.load(game=GAME)
    weight = sum(s.weight for s in SCENARIOS if s.group == "matching")
    those = sum(config.group_marks("matching") * s.weight / weight for s in SCENARIOS
                if s.group == "matching" and {"S9", "B14"} & set(s.rules))
    lost_marks = sum(g.max_marks - g.marks for g in two_discards.groups)
    assert abs(lost_marks - those) <= 0.05, (lost_marks, those)


def test_a_discard_after_drawing_is_accepted_unless_B16_is_strict_and_then_charged_to_B16s_tests() -> None:
    folder = SUBMISSIONS / "readings" / "b16_play_after_draw"
    for strict in (frozenset(), frozenset({"B16"})):
        with SESSION.open(folder, strict=strict) as session:
            session.homes = HOMES
            outcome = {s.id: session.run_scenario(s) for s in SCENARIOS}
        failed = {i for i, r in outcome.items() if r.verdict.family == "fail" or r.earned < 1}
        if not strict:
            assert not failed, failed
            continue
        assert failed == {s.id for s in SCENARIOS if "B16" in s.rules} == {"turns/no_discard_after_drawing"}
        message = outcome["turns/no_discard_after_drawing"].message
        assert "B16 is strict in this course's marking" in message, message
        assert "The grader also accepts" not in message, message
