"""Palace's memory stage: the core's (``grader.core.memcheck``: one sanitized driver, every
scenario replayed in a forked child, leaks and memory errors tied to the scenario and the call) with
Palace's C: its ``Dialect``.

The scenarios are data (each deal's ranks and suits, the number of players and the rules, the moves with
the look of each card); ``replay`` plays a scenario the way the worker does -- each card named by its look
is found in the mover's current zone (the hand, or the face-up row once the hand is empty), a move the
game's own isValidMove refuses is not played -- and ``touch`` calls every query after every move (counts,
every zone of every seat through the getters, the piles, the burnt cards, isValidMove of each hand card,
of every face-down position and of taking the pile), so a getter's memory errors show too.  The tests
cite I11 (rules-palace.md §4.4: nothing leaked, no freed card touched, destroyGame frees every zone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, cast

from grader.core.memcheck import Dialect, Plan, run_memory_stage
from grader.core.sandbox.native import c_string
from reference.palace import Action, MoveSpec, Rank, Suit

if TYPE_CHECKING:
    from grader.core.memcheck import ReplayedScenario
    from grader.core.results import TestResult
    from grader.core.session import SubmissionSession
    from grader.games.palace.scenarios import Scenario

RULES = ("I11",)
C_RANKS = {r: r.name for r in Rank}
C_SUITS = {s: s.name for s in Suit}
C_ACTIONS = {a: a.name for a in Action}

# The C the memory stage's replay finds a move's cards with (the repro programs, ``repro``, find them as the
# worker does, ``play.resolve``: cards written with their identity too).
IN_ZONE = r"""
/* The card of that look in the current seat's zone (its hand, read as the game runner reads it:
   getHandCard(seat, i); its face-up row once the hand is empty, unless it is choosing), not one already taken
   for this move; NULL when there is none. */
static Card inZone(Game game, int choosing, rank r, suit s, Card *taken, int nTaken) {
    int seat = currentPlayer(game);
    int fromHand = choosing || handCardCount(game) > 0;
    int n = fromHand ? handCardCount(game) : faceUpCount(game, seat);
    for (int i = 0; i < n && i < 1000; i++) {
        Card c = fromHand ? getHandCard(game, seat, i) : faceUpCard(game, seat, i);
        if (c == NULL || cardRank(c) != r || cardSuit(c) != s) {
            continue;
        }
        int used = 0;
        for (int k = 0; k < nTaken; k++) {
            used |= taken[k] == c;
        }
        if (!used) {
            return c;
        }
    }
    return NULL;
}
"""

PRELUDE = r"""
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "Palace.h"

static int moveNumber;
""" + IN_ZONE

TOUCH = r"""
static void touch(Game game) {
    volatile int sink = 0;
    int players = numPlayers(game);
    sink += numCards(game) + gameRules(game) + (int)currentPhase(game) + currentPlayer(game) + currentTurn(game);
    sink += drawPileSize(game) + discardPileSize(game) + burntCount(game) + effectiveTopRank(game);
    sink += sevenRestriction(game) + gameWinner(game) + (topDiscard(game) != NULL);
    for (int p = 0; p < players && p < MAX_PLAYERS; p++) {
        int h = playerCardCount(game, p), u = faceUpCount(game, p), d = faceDownCount(game, p);
        for (int i = 0; i < h && i < 1000; i++) {
            Card c = getHandCard(game, p, i);
            sink += c != NULL ? (int)cardRank(c) : 0;
        }
        for (int i = 0; i < u && i < 1000; i++) {
            Card c = faceUpCard(game, p, i);
            sink += c != NULL ? (int)cardSuit(c) : 0;
        }
        for (int i = 0; i < d && i < 1000; i++) {
            Card c = getFaceDownCard(game, p, i);
            sink += c != NULL ? (int)cardRank(c) : 0;
        }
    }
    int piles[3] = {discardPileSize(game), drawPileSize(game), burntCount(game)};
    for (int i = 0; i < piles[0] && i < 1000; i++) {
        Card c = getDiscardPileCard(game, i);
        sink += c != NULL ? (int)cardRank(c) : 0;
    }
    for (int i = 0; i < piles[1] && i < 1000; i++) {
        Card c = getDeckCard(game, i);
        sink += c != NULL ? (int)cardRank(c) : 0;
    }
    for (int i = 0; i < piles[2] && i < 1000; i++) {
        Card c = getBurntCard(game, i);
        sink += c != NULL ? (int)cardRank(c) : 0;
    }
    int n = handCardCount(game);
    for (int i = 0; i < n && i < 1000; i++) {
        playerMove m;
        memset(&m, 0, sizeof m);
        m.action = PLAY_CARDS;
        m.numCards = 1;
        m.cards[0] = handCard(game, i);
        sink += isValidMove(game, m);
    }
    int seat = currentPlayer(game);
    int down = seat >= 0 && seat < players ? faceDownCount(game, seat) : 0;
    for (int i = 0; i < down && i < 1000; i++) {
        playerMove m;
        memset(&m, 0, sizeof m);
        m.action = PLAY_FACE_DOWN;
        m.faceDownIndex = i;
        sink += isValidMove(game, m);
    }
    playerMove pickUp;
    memset(&pickUp, 0, sizeof pickUp);
    pickUp.action = PICK_UP_PILE;
    sink += isValidMove(game, pickUp);
    (void)sink;
}
"""

REPLAY = r"""
/* Replay scenario i, marking every call on stderr.  A move whose card the mover does not hold, or that the
   game's own isValidMove refuses, is not played (C41), as in the worker: the replay ends there. */
static void replay(int i) {
    const struct scenario *sc = &SCENARIOS[i];
    rank ranks[sc->size];
    suit suits[sc->size];
    memcpy(ranks, sc->ranks, sizeof ranks);
    memcpy(suits, sc->suits, sizeof suits);
    AT("newGame");
    Game game = newGame(sc->players, sc->size, ranks, suits, sc->rules);
    if (game == NULL) {
        return;
    }
    AT("the queries after newGame");
    touch(game);
    for (int k = 1; k <= sc->length; k++) {
        const struct move *mv = &sc->moves[k - 1];
        AT("move %d: playMove(%s)", k, mv->text);
        playerMove m;
        memset(&m, 0, sizeof m);
        m.action = mv->action;
        int found = 1;
        if (mv->action == CHOOSE_FACE_UP || mv->action == PLAY_CARDS) {
            m.numCards = mv->count;
            for (int c = 0; c < mv->count; c++) {
                m.cards[c] = inZone(game, mv->action == CHOOSE_FACE_UP, mv->ranks[c], mv->suits[c], m.cards, c);
                found &= m.cards[c] != NULL;
            }
        } else if (mv->action == PLAY_FACE_DOWN) {
            m.faceDownIndex = mv->faceDown;
        }
        if (!found || !isValidMove(game, m)) {
            stop(game);
            return;
        }
        playMove(game, m);
        moveNumber = k;
        AT("the queries after move %d", k);
        touch(game);
    }
    AT("destroyGame after %d moves", sc->length);
    destroyGame(game);
    AT("end");
}
"""


def _move_row(spec: MoveSpec) -> str:
    cards = list(spec.cards)[:8]
    ranks = ", ".join(C_RANKS[Rank(c.rank)] for c in cards) or "TWO"
    suits = ", ".join(C_SUITS[Suit(c.suit)] for c in cards) or "HEARTS"
    return (f"{{{C_ACTIONS[Action(spec.action)]}, {len(cards)}, {{{ranks}}}, {{{suits}}}, "
            f"{int(spec.face_down_index)}, {c_string(str(spec))}}}")


def palace_table(replayed: Sequence[ReplayedScenario], _d: Dialect) -> list[str]:
    """Palace's scenarios as C data: each deal's ranks and suits, players and rules, and its moves."""
    scenarios = cast("Sequence[Scenario]", replayed)  # the memory stage hands back the scenarios it was given
    out = ["struct move { action action; int count; rank ranks[MAX_SET]; suit suits[MAX_SET]; int faceDown;",
           "              const char *text; };",
           "struct scenario { int players; int rules; int size; const rank *ranks; const suit *suits;",
           "                  int length; const struct move *moves; };"]
    for i, sc in enumerate(scenarios):
        deck = sc.setup.deck
        out.append(f"static const rank ranks{i}[{len(deck)}] = {{{', '.join(C_RANKS[Rank(r)] for r, _ in deck)}}};")
        out.append(f"static const suit suits{i}[{len(deck)}] = {{{', '.join(C_SUITS[Suit(s)] for _, s in deck)}}};")
        rows = ",\n    ".join(_move_row(m) for m in sc.moves) or '{PICK_UP_PILE, 0, {TWO}, {HEARTS}, 0, ""}'
        out.append(f"static const struct move moves{i}[] = {{\n    {rows}}};")
    out.append(f"#define SCENARIO_COUNT {len(scenarios)}")
    table = ",\n    ".join(f"{{{sc.setup.n_players}, {sc.setup.rules}, {len(sc.setup.deck)}, ranks{i}, suits{i}, "
                          f"{len(sc.moves)}, moves{i}}}" for i, sc in enumerate(scenarios))
    out.append(f"static const struct scenario SCENARIOS[SCENARIO_COUNT + 1] = {{\n    {table}}};")
    return out


PALACE = Dialect(prelude=lambda: PRELUDE, touch=lambda: TOUCH, rules=RULES, table=palace_table, replay=REPLAY)


def run_memory_stage_palace(session: SubmissionSession, scenarios: Sequence[Scenario],
                            not_replayed: Sequence[str] = (), failed: Sequence[str] = ()) -> list[TestResult]:
    """The two memory tests of a Palace submission (``run_memory_stage`` in Palace's C): ``scenarios`` replayed
    to their end, a memory error only in ``failed`` ones charged there; ``not_replayed`` (their tests were
    charged a hang or a flood already) are not charged again."""
    del not_replayed  # already charged where they hung: they leave the count
    return run_memory_stage(session, [Plan(s, failed=s.id in failed) for s in scenarios], dialect=PALACE)
