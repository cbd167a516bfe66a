"""The 2017 edition's memory stage: the core's (``grader.core.memcheck``) in 2017's C, with 2018's table and replay.

The same driver, runner, sanitizers and verdicts; what differs is the
``Dialect``: 2017's names of the values (ADVANCE ... DECLARE) and of the
actions (the three words SAY_UNO, SAY_DUO, SAY_TRIO; END_TURN is 5), and
``touch``, the queries called after every move: the 2017 observer's
(``grader.games.fcd17s2.sandbox.observe``): the int queries and deck counts, the
history of the previous turn and of the current one (turnMoves, pastMove and
the card of each play), the hands by their counts (handCard only below
handCardCount), and isValidMove for every card in hand, a draw, the three
words and END_TURN.
"""

from __future__ import annotations

import functools
from typing import Sequence, cast

from grader.core.memcheck import Dialect, MemorySession, Played, run_memory_stage
from grader.core.results import TestResult
from grader.games.fcd.c_emit import deck_arrays, move_row, replay_prelude
from grader.games.fcd.edition import WrittenMove
from grader.games.fcd.memcheck import REPLAY, fcd_scenario_table
from grader.games.fcd17s2.sandbox.observe import DECK_COUNT_PROBES, INT_PROBES, MOVES_CAP
from reference.fcd17s2 import Action

C_VALUES = ["ZERO", "ONE", "DRAW_TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
            "ADVANCE", "BACKWARDS", "CONTINUE", "DECLARE", "E", "F"]  # 2017's Card.h


def c_action(spec: WrittenMove) -> str:
    """The C name of a 2017 move's action (the reference enum's names are Game.h's)."""
    return Action(spec.action).name


def touch_source() -> str:
    """``touch(game)``: every query the 2017 observer makes, once (results unused: volatile keeps the calls)."""
    ints = " + ".join(f"(int){c}(game)" for _n, c, _m in INT_PROBES)
    counts = " + ".join(f"{c}(game)" for _n, c, _m, n in DECK_COUNT_PROBES if n == 0)
    each = "\n".join(f"    for (int i = 0; i < {n}; i++) {{\n        sink += {c}(game, i);\n    }}"
                     for _n, c, _m, n in DECK_COUNT_PROBES if n > 0)
    return (TOUCH.replace("INT_QUERIES", f"{ints} + {counts}").replace("    DECK_COUNTS\n", each + "\n")
            .replace("MOVES_CAP", str(MOVES_CAP)))


TOUCH = r"""
static void touch(Game game) {
    volatile int sink = 0;
    sink += INT_QUERIES;
    DECK_COUNTS
    sink += topDiscard(game) != NULL;
    int turn = currentTurn(game);
    for (int t = turn - 1; t <= turn; t++) {
        int n = t < 0 ? 0 : turnMoves(game, t);
        for (int i = 0; i < n && i < MOVES_CAP; i++) {
            playerMove m = pastMove(game, t, i);
            if (m.action == PLAY_CARD && m.card != NULL) {
                sink += cardValue(m.card) + cardColor(m.card) + cardSuit(m.card);
            }
        }
    }
    for (int p = 0; p < NUM_PLAYERS; p++) {
        sink += playerCardCount(game, p) + playerPoints(game, p);
    }
    int n = handCardCount(game);
    for (int i = 0; i < n && i < CAP; i++) {
        Card card = got(handCard(game, i));
        if (card != NULL) {
            playerMove m = {PLAY_CARD, RED, card};
            sink += isValidMove(game, m);
        }
    }
    static const action words[] = {DRAW_CARD, SAY_UNO, SAY_DUO, SAY_TRIO, END_TURN};
    for (int w = 0; w < 5; w++) {
        playerMove m = {words[w], RED, NULL};
        sink += isValidMove(game, m);
    }
    (void)sink;
}
"""

def scenario_move_row(move: object) -> str:
    """A move of a 2017 scenario as a row of the scenario table, in 2017's C (``fcd_scenario_table`` gives it the
    scenarios' moves: 2017's MoveSpecs)."""
    return move_row(cast(WrittenMove, move), action=c_action, values=C_VALUES)


FCD17 = Dialect(prelude=replay_prelude, touch=touch_source, table=fcd_scenario_table, replay=REPLAY,
                deck_arrays=functools.partial(deck_arrays, values=C_VALUES), move_row=scenario_move_row,
                rules=("B3",))


def run_memory_stage17(session: MemorySession, played: Sequence[Played]) -> list[TestResult]:
    """The two memory tests of a 2017 submission (``run_memory_stage`` in 2017's C); ``played`` as there:
    (scenario, its test's result) pairs, ``Plan``s or scenarios alone."""
    return run_memory_stage(session, played, dialect=FCD17)
