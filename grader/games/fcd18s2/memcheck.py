"""Final Card-Down's memory stage: the core's (``grader.core.memcheck``: every scenario replayed natively under
AddressSanitizer + UBSan, or valgrind) with 2018's C, its ``Dialect``.

The scenarios are data (a deck and its moves, each move a row); ``REPLAY`` plays one as the worker does
(a card named by its look is found in the current hand; as far as its scenario test played it), and
``touch`` makes the grader's own calls after every move (``c_emit``'s ``see``: the probes in the
observer's order, the piles as deep as the grader reads them at that step), so their memory errors show
too.  The tests cite R18.  2017's dialect (``grader.games.fcd17s2.memcheck``) shares the table and the
replay.
"""

from __future__ import annotations

from typing import Any, Sequence

from grader.core.memcheck import Dialect
from grader.core.memcheck import run_memory_stage as run_with_dialect
from grader.core.results import TestResult
from grader.games.fcd18s2.c_emit import deck_arrays, move_row, prelude
from grader.games.fcd18s2.observations import ORDER
from grader.games.fcd18s2.scenarios import Scenario


def fcd_scenario_table(scenarios: Sequence[Scenario], d: Dialect) -> list[str]:
    """Final Card-Down's scenarios as C data: ``struct move`` rows and the ``SCENARIOS`` table ``REPLAY`` reads."""
    out = ["struct move { action action; value v; color c; suit s; color declared; const char *text; };",
           "struct scenario { int size; const value *values; const color *colors; const suit *suits;",
           "                  int length; const struct move *moves; };"]
    for i, sc in enumerate(scenarios):
        out.extend(d.deck_arrays(sc.deck.keys, indent="", suffix=str(i), const=True))
        moves = ",\n    ".join(d.move_row(m) for m in sc.moves) or "{END_TURN, ZERO, RED, HEARTS, RED, \"\"}"
        out.append(f"static const struct move moves{i}[] = {{\n    {moves}}};")
    out.append(f"#define SCENARIO_COUNT {len(scenarios)}")
    table = ",\n    ".join(f"{{{len(sc.deck)}, values{i}, colors{i}, suits{i}, {len(sc.moves)}, moves{i}}}"
                          for i, sc in enumerate(scenarios))
    out.append(f"static const struct scenario SCENARIOS[SCENARIO_COUNT + 1] = {{\n    {table}}};")
    return out


REPLAY = r"""
/* Replay scenario i, marking every call on stderr, as far as its scenario test played it (replayStop moves;
   -1: no plan, so a move the game's own isValidMove refuses is not played, A28).  A move whose card the
   current player does not hold cannot be played: the replay ends there, as the worker's game does. */
static void replay(int i) {
    const struct scenario *sc = &SCENARIOS[i];
    value values[sc->size];
    color colors[sc->size];
    suit suits[sc->size];
    memcpy(values, sc->values, sizeof values);
    memcpy(colors, sc->colors, sizeof colors);
    memcpy(suits, sc->suits, sizeof suits);
    AT("newGame");
    Game game = newGame(sc->size, values, colors, suits);
    if (game == NULL) {
        return;
    }
    AT("the queries after newGame");
    touch(game);
    int last = replayStop >= 0 && replayStop < sc->length ? replayStop : sc->length;
    for (int k = 1; k <= last; k++) {
        const struct move *mv = &sc->moves[k - 1];
        AT("move %d: playMove(%s)", k, mv->text);
        playerMove m = {mv->action, mv->declared, NULL};
        if (mv->action == PLAY_CARD) {
            m.card = inHand(game, mv->v, mv->c, mv->s);
        }
        if ((m.action == PLAY_CARD && m.card == NULL) || (replayStop < 0 && !isValidMove(game, m))) {
            stop(game);
            return;
        }
        playMove(game, m);
        moveNumber = k;
        AT("the queries after move %d", k);
        touch(game);
    }
    AT("destroyGame after %d moves", last);
    destroyGame(game);
    AT("end");
}
"""


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


def reference_depths(scenario: Any) -> Sequence[tuple[int, int]]:
    """How deep the grader reads the two piles at each step of a 2018 scenario (the reference's, cached)."""
    from grader.games.fcd18s2.reference_trace import cached_packed_trace  # noqa: PLC0415 - the trace machinery

    return cached_packed_trace(scenario.deck, scenario.moves).depths


FCD18 = Dialect(prelude=prelude, touch=touch_source, table=fcd_scenario_table, replay=REPLAY, rules=("R18",),
                deck_arrays=deck_arrays, move_row=move_row, probes=ORDER, depths=reference_depths)


def run_memory_stage(session: Any, played: Sequence[Any]) -> list[TestResult]:
    """The memory stage of a 2018 submission (``grader.core.memcheck.run_memory_stage`` with ``FCD18``)."""
    return run_with_dialect(session, played, FCD18)
