"""The memory stage of a 2018 submission: the core's runner (``grader.core.memcheck``) with the 2018 C
dialect (``FCD18``): its prelude and ``see``, ``touch`` (the grader's own calls after every move, so their
memory errors show too), the family's scenario table and replay.  The tests cite R18."""

from __future__ import annotations

from typing import Sequence, cast

from grader.core.memcheck import Dialect, MemorySession, Played, ReplayedScenario
from grader.core.memcheck import run_memory_stage as run_with_dialect
from grader.core.results import TestResult
from grader.games.fcd.c_emit import deck_arrays, move_row
from grader.games.fcd.edition import WrittenMove
from grader.games.fcd.memcheck import REPLAY, fcd_scenario_table
from grader.games.fcd.reference_trace import cached_packed_trace
from grader.games.fcd.scenarios import Scenario
from grader.games.fcd18s2.c_dialect import prelude
from grader.games.fcd18s2.edition import FCD18 as EDITION
from grader.games.fcd18s2.observations import ORDER


def touch_source() -> str:
    """``touch(game)``: the grader's own calls after a move (``c_emit``'s ``see``: the probes in the observer's
    order, the piles as deep as the grader reads them at that step, the probes the scenario's test left out
    left out), then one branch on what the queries answered, so that valgrind reports an answer read from
    memory never written (a volatile sum alone would not be a use)."""
    return TOUCH


TOUCH = r"""
static void touch(Game game) {
    int k = moveNumber;
    see(game, stepDepths != NULL ? stepDepths[2 * k] : 0, stepDepths != NULL ? stepDepths[2 * k + 1] : 0, skipNow);
    long answered = (long)seen.validDraw + seen.validEnd;
    for (int i = 0; i < INT_PROBES; i++) {
        answered += seen.ints[i];
    }
    for (int p = 0; p < 4; p++) {
        answered += (long)seen.counts[p] + seen.points[p];
    }
    if (answered == 0x7fffffffL) {
        fputc(' ', stderr);
    }
}
"""


def reference_depths(scenario: ReplayedScenario) -> Sequence[tuple[int, int]]:
    """How deep the grader reads the two piles at each step of a 2018 scenario (the reference's, cached; the
    memory stage hands back the scenarios this edition gave it)."""
    sc = cast(Scenario, scenario)
    return cached_packed_trace(sc.deck, sc.moves, EDITION).depths


def scenario_move_row(move: object) -> str:
    """A move of a 2018 scenario as a row of the scenario table (``fcd_scenario_table`` gives it the scenarios'
    moves: 2018's MoveSpecs)."""
    return move_row(cast(WrittenMove, move))


FCD18 = Dialect(prelude=prelude, touch=touch_source, table=fcd_scenario_table, replay=REPLAY, rules=("R18",),
                deck_arrays=deck_arrays, move_row=scenario_move_row, probes=ORDER, depths=reference_depths)


def run_memory_stage(session: MemorySession, played: Sequence[Played]) -> list[TestResult]:
    """The memory stage of a 2018 submission (``grader.core.memcheck.run_memory_stage`` with ``FCD18``)."""
    return run_with_dialect(session, played, FCD18)
