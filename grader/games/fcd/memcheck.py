"""Final Card-Down's memory stage: the core's (``grader.core.memcheck``: every scenario replayed natively under
AddressSanitizer + UBSan, or valgrind) with the family's C: the scenario table and the replay an
edition's ``Dialect`` takes (``grader.games.fcd18s2.memcheck``, ``grader.games.fcd17s2.memcheck``).

The scenarios are data (a deck and its moves, each move a row); ``REPLAY`` plays one as the worker does
(a card named by its look is found in the current hand; as far as its scenario test played it), and
``touch`` makes the grader's own calls after every move (``c_emit``'s ``see``: the probes in the
observer's order, the piles as deep as the grader reads them at that step), so their memory errors show
too.  """

from __future__ import annotations

from typing import Sequence, cast

from grader.core.memcheck import Dialect, ReplayedScenario
from grader.games.fcd.scenarios import Scenario


def fcd_scenario_table(scenarios: Sequence[ReplayedScenario], d: Dialect) -> list[str]:
    """Final Card-Down's scenarios as C data: ``struct move`` rows and the ``SCENARIOS`` table ``REPLAY`` reads
    (the memory stage hands back the scenarios the edition gave it: ``Scenario``)."""
    assert d.deck_arrays is not None and d.move_row is not None  # every Final Card-Down dialect has them
    out = ["struct move { action action; value v; color c; suit s; color declared; const char *text; };",
           "struct scenario { int size; const value *values; const color *colors; const suit *suits;",
           "                  int length; const struct move *moves; };"]
    for i, sc in enumerate(cast("Sequence[Scenario]", scenarios)):
        out.extend(d.deck_arrays(sc.deck.keys, indent="", suffix=str(i), const=True))
        moves = ",\n    ".join(d.move_row(m) for m in sc.moves) or "{END_TURN, ZERO, RED, HEARTS, RED, \"\"}"
        out.append(f"static const struct move moves{i}[] = {{\n    {moves}}};")
    out.append(f"#define SCENARIO_COUNT {len(scenarios)}")
    table = ",\n    ".join(f"{{{len(sc.deck)}, values{i}, colors{i}, suits{i}, {len(sc.moves)}, moves{i}}}"
                          for i, sc in enumerate(cast("Sequence[Scenario]", scenarios)))
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
