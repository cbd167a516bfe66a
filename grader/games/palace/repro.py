"""Palace's C repro programs: for each failed scenario test, a main() that plays the scenario's game the way the
grader's worker plays it and checks what the test judges, where it judges it -- the program a student compiles
with their own Palace.c to see the failure outside the grader.  Written beside the reports (``GameSpec.write_repros``).

A failed random family test (``random_games._failure``) gets one too, from its shortest game made a scenario
(``random_scenario``, kept as ``TestResult.repro``): the game's moves up to the difference, each blind move turning
the very card the grader's worker turned (``blind_cards``, C38), and one expect block holding the reference's value
of what differed there, stated as the grader compared it (C37's orders as multisets of those very cards).  It plays
the game as the scenario's worker does: without the random games' isValidMove battery after every step and the
counts read again after it, so a difference that only those show (isValidMove changing the game) gets no program.

The program makes the grader's calls in the grader's order (``grader.games.palace.sandbox.play``, with the scenario's
requests: no isValidMove battery, no destroyGame):

- newGame, then after newGame and after every move the whole observation (``observe.Observer``: the int
  queries, handCard, every seat's zones by their counts, topDiscard, the piles, the getters at -1 and at the
  size), each card's rank and suit read right after the getter gave it, every count capped by the deck size;
- the deal read once after newGame (``play.deck_map``) when the test asks questions or a move names a card by
  its identity (``5H@12``);
- at a step with questions, each question of the step (``play.answer``: a written card found in the mover's
  zone, lowest deck index, else anywhere by the deal; ``index_ranges``), then the observation again;
- each move's cards found as the worker finds them (``play.resolve``), the move asked of isValidMove (a move
  the game refuses, or a card not where the move says, stops the game: the grader stops there too) and made.

It judges every ``expect`` block on the observation of its step as ``compare.check_expect`` does, in the same
order, naming the same call (identity included: ``5H@12`` is that very Card of the deal, a question's cards are
the very pointers the game's getters gave, and the game after the questions must hold the same pointers), and
decides as ``session.PalaceSession.run_scenario`` decides: the first block that fails (or is never reached) is the
test's failure, at its step (``TestResult.failed_after``); a probe (``probe = "C9"``) passes when every block of
one reading holds, and a failure of one reading's values waits for the end of the game (a later failure every
reading shares comes first).  It stops at the first failing check with ``FAILED after move N: ...`` (exit 1),
names the call in progress of a crash (``CRASHED (signal N) in ...``, exit 2) and stops itself on a hang (an
alarm: ``DID NOT RETURN within S seconds: ...``, exit 3; ``-DHANG_SECONDS=S``, default 10), and says
``All checks passed`` (exit 0) otherwise.  It runs itself again with the grader's malloc settings
(``sandbox.DETERMINISTIC_MALLOC``), so memory never written reads here as it read there.  When a failure's game
shows a card that is not one Card wherever it is read (handCard against getHandCard, topDiscard against the
pile), it says so beside the failure (C4).

Two kinds of failure have no program: a probe that failed only because another probe of the session showed
another reading (``failed_on == "readings"``: one program replays one game), and the verdicts a program cannot
show (a memory or output limit, an unreadable result, a lost worker).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Protocol, Sequence

from grader.core import repro_build
from grader.core.isolation import DETERMINISTIC_MALLOC
from grader.core.results import Verdict
from grader.core.sandbox.native import c_string
from grader.games.palace.compare import COUNTS, SCALARS, after_words, entry_label, ref_text
from grader.games.palace.engine import as_player_move
from grader.games.palace.families import FAMILIES, words
from grader.games.palace.focus import sort_rules
from grader.games.palace.sandbox.frames import INDEX_RANGES
from grader.games.palace.sandbox.interface import COURSE_HEADERS, INCLUDE_DIR
from grader.games.palace.sandbox.observe import Observer
from grader.games.palace.scenarios import RULE_IDS, Expect, Malformed, Scenario, load_scenarios
from grader.games.palace.scenarios import _scenario as scenario_of
from grader.games.palace.session import Asks, ask_entry
from reference.palace import Action, Card, CardRef, Game, MoveSpec, Phase, Setup, format_moves

if TYPE_CHECKING:
    from grader.core.results import TestResult
    from grader.games.palace.random_games import Difference

__all__ = ["Graded", "c_program", "reproducible", "write_repros"]

# Verdicts a replay of the game cannot show: the grader's limits and its own trouble.
NOT_SHOWN_BY_A_PROGRAM = frozenset({Verdict.MEMORY, Verdict.OUTPUT, Verdict.PROTOCOL, Verdict.WORKER_LOST})
MAX_ASKED_CARDS = 12  # the entries of one asked move the program has room for (C40's malformed ones included)


class Graded(Protocol):
    """What the repro programs read of a submission's result (``grader.core.results.SubmissionResult``)."""

    @property
    def tests(self) -> Sequence[TestResult]: ...


# ---- the C every program starts with (sized by the program's own #defines) -------------------------------------
REPRO_PRELUDE = r"""
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE  /* setenv, execv and alarm under -std=c11 too */
#endif
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "Palace.h"

/* A call that does not return within this many seconds is taken to hang: the program stops and names it. */
#ifndef HANG_SECONDS
#define HANG_SECONDS 10
#endif

/* ---- the moves and the questions, as data ------------------------------------------------------------------- */
struct move {
    int act, n;  /* the action; the cards it names */
    int r[MAX_SET], s[MAX_SET], id[MAX_SET];  /* each card's rank, suit and deck index (-1: any card of that look) */
    int down;  /* the face-down position */
    const char *text;
};

enum { A_LOOK, A_NULL, A_SAME };  /* a card of an asked move: written, NULL, or the same pointer as entry j */
struct askedCard {
    int kind, r, s, id;  /* A_LOOK: rank, suit, deck index (-1: any card of that look); A_SAME: id = j */
};
struct asked {
    int ranges;  /* 1: the Card getters at -1, at the size and at size - 1 (index_ranges) */
    int act, n;
    struct askedCard c[MAX_ASKED];
    int hasCount, count;  /* numCards, when it is not n */
    int down;
    const char *label;
};
"""

# ---- the functions every program has, after its data ----------------------------------------------------------
REPRO_BODY = r"""
#pragma GCC diagnostic ignored "-Wunused-function"  /* a test uses some of the checks only */

/* ---- the call in progress, and what the program says --------------------------------------------------------- */
static int moveNumber = 0;  /* moves made so far */
static char inCall[240] = "newGame(...)";
#define CALLING(...) snprintf(inCall, sizeof inCall, __VA_ARGS__)
static const char *during = "";  /* what the grader was doing, when it is not plain reading the game */
static int finished = 0;  /* the program ends by itself (not by an exit() in the code under test) */
static volatile sig_atomic_t inSignal = 0;  /* ending from a signal handler: stdio may be in the middle of a call */

/* Print without malloc (a crash may happen inside it), and end. */
static void say(const char *format, ...) {
    static char text[12000];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(text, sizeof text, format, args);
    va_end(args);
    if (n > (int)sizeof text - 1) {
        n = (int)sizeof text - 1;
    }
    if (n > 0 && write(1, text, (size_t)n) < 0) {
    }
}

static void end(int code) {
    finished = 1;
    _exit(code);
}

/* ---- the game as the grader reads it ------------------------------------------------------------------------- */
typedef struct {
    Card card;  /* NULL: the getter gave NULL */
    long long rank, suit;  /* read right after the getter gave the card, as the grader reads them (an enum: unsigned) */
} Seen;

static Game game;
static const Seen NO_CARD_SEEN = {NULL, -1, -1};

/* A count the game gave, as a number of reads the grader makes (the deck size at most). */
static int capped(long long n) {
    return n < 0 ? 0 : n > N_CARDS ? N_CARDS : (int)n;
}

static Seen got(Card card) {
    Seen s = {card, -1, -1};
    if (card != NULL) {
        size_t n = strlen(inCall);
        snprintf(inCall + n, sizeof inCall - n, ", then cardRank() and cardSuit() of the Card it gave");
        s.rank = (unsigned)cardRank(card);
        s.suit = (unsigned)cardSuit(card);
        inCall[n] = '\0';
    }
    return s;
}

enum { I_NUM_PLAYERS, I_NUM_CARDS, I_RULES, I_PHASE, I_CURRENT_PLAYER, I_CURRENT_TURN, I_WINNER, I_TOP_RANK, I_SEVEN,
       I_HAND_COUNT, I_PILE_SIZE, I_DRAW_PILE_SIZE, I_BURNT_COUNT, N_INTS };
enum { Z_HAND, Z_UP, Z_DOWN };  /* a seat's zones: getHandCard, faceUpCard, getFaceDownCard */
enum { P_PILE, P_DRAW, P_BURNT };  /* the piles: getDiscardPileCard, getDeckCard, getBurntCard */

typedef struct {
    long long ints[N_INTS];  /* as the grader reads them: an int, or an enum (phase) as unsigned */
    int handN;
    Seen hand[N_CARDS];  /* handCard(n) */
    int counts[3][N_PLAYERS];  /* playerCardCount, faceUpCount, faceDownCount of each seat */
    int rowN[3][N_PLAYERS];
    Seen rows[3][N_PLAYERS][N_CARDS];
    Seen top;
    int pileN[3];
    Seen piles[3][N_CARDS];
} View;

static View seen;  /* the game after newGame or a move */
static View again;  /* the same game after the step's questions (isValidMove must change nothing, C46) */

static Card seatCard(int zone, int seat, int n) {
    if (zone == Z_HAND) {
        CALLING("getHandCard(%d, %d)", seat, n);
        return getHandCard(game, seat, n);
    }
    if (zone == Z_UP) {
        CALLING("faceUpCard(%d, %d)", seat, n);
        return faceUpCard(game, seat, n);
    }
    CALLING("getFaceDownCard(%d, %d)", seat, n);
    return getFaceDownCard(game, seat, n);
}

static int seatCount(int zone, int seat) {
    if (zone == Z_HAND) {
        CALLING("playerCardCount(%d)", seat);
        return playerCardCount(game, seat);
    }
    if (zone == Z_UP) {
        CALLING("faceUpCount(%d)", seat);
        return faceUpCount(game, seat);
    }
    CALLING("faceDownCount(%d)", seat);
    return faceDownCount(game, seat);
}

static Card pileCard(int pile, int n) {
    if (pile == P_PILE) {
        CALLING("getDiscardPileCard(%d)", n);
        return getDiscardPileCard(game, n);
    }
    if (pile == P_DRAW) {
        CALLING("getDeckCard(%d)", n);
        return getDeckCard(game, n);
    }
    CALLING("getBurntCard(%d)", n);
    return getBurntCard(game, n);
}

static Card handAt(int n) {
    CALLING("handCard(%d)", n);
    return handCard(game, n);
}

/* Is the getter's answer NULL?  Only compared, never read, as the grader asks it after each move. */
static void nullAt(int getter, int seat, long long size) {
    int ends[2] = {-1, (int)size};
    for (int e = 0; e < (size >= 0 && size <= N_CARDS ? 2 : 1); e++) {
        volatile Card c;
        int n = ends[e];
        switch (getter) {
        case 0: CALLING("handCard(%d)", n); c = handCard(game, n); break;
        case 1: c = seatCard(Z_HAND, seat, n); break;
        case 2: c = seatCard(Z_UP, seat, n); break;
        case 3: c = seatCard(Z_DOWN, seat, n); break;
        default: c = pileCard(getter - 4, n); break;
        }
        (void)c;
    }
}

/* Every observation of the game, read as the grader reads it (grader/games/palace/sandbox/observe.py). */
static void observe(View *v) {
    CALLING("numPlayers()"); v->ints[I_NUM_PLAYERS] = numPlayers(game);
    CALLING("numCards()"); v->ints[I_NUM_CARDS] = numCards(game);
    CALLING("gameRules()"); v->ints[I_RULES] = gameRules(game);
    CALLING("currentPhase()"); v->ints[I_PHASE] = (unsigned)currentPhase(game);
    CALLING("currentPlayer()"); v->ints[I_CURRENT_PLAYER] = currentPlayer(game);
    CALLING("currentTurn()"); v->ints[I_CURRENT_TURN] = currentTurn(game);
    CALLING("gameWinner()"); v->ints[I_WINNER] = gameWinner(game);
    CALLING("effectiveTopRank()"); v->ints[I_TOP_RANK] = effectiveTopRank(game);
    CALLING("sevenRestriction()"); v->ints[I_SEVEN] = sevenRestriction(game) != 0;
    CALLING("handCardCount()"); v->ints[I_HAND_COUNT] = handCardCount(game);
    CALLING("discardPileSize()"); v->ints[I_PILE_SIZE] = discardPileSize(game);
    CALLING("drawPileSize()"); v->ints[I_DRAW_PILE_SIZE] = drawPileSize(game);
    CALLING("burntCount()"); v->ints[I_BURNT_COUNT] = burntCount(game);
    v->handN = capped(v->ints[I_HAND_COUNT]);
    for (int i = 0; i < v->handN; i++) {
        v->hand[i] = got(handAt(i));
    }
    for (int z = Z_HAND; z <= Z_DOWN; z++) {
        for (int s = 0; s < N_PLAYERS; s++) {
            v->counts[z][s] = seatCount(z, s);
        }
        for (int s = 0; s < N_PLAYERS; s++) {
            v->rowN[z][s] = capped(v->counts[z][s]);
            for (int i = 0; i < v->rowN[z][s]; i++) {
                v->rows[z][s][i] = got(seatCard(z, s, i));
            }
        }
    }
    CALLING("topDiscard()");
    v->top = got(topDiscard(game));
    int sizes[3] = {v->ints[I_PILE_SIZE], v->ints[I_DRAW_PILE_SIZE], v->ints[I_BURNT_COUNT]};
    for (int p = P_PILE; p <= P_BURNT; p++) {
        v->pileN[p] = capped(sizes[p]);
        for (int i = 0; i < v->pileN[p]; i++) {
            v->piles[p][i] = got(pileCard(p, i));
        }
    }
    int me = v->ints[I_CURRENT_PLAYER];
    int seat = me >= 0 && me < N_PLAYERS ? me : 0;
    nullAt(0, 0, v->ints[I_HAND_COUNT]);
    for (int z = Z_HAND; z <= Z_DOWN; z++) {
        nullAt(1 + z, seat, v->counts[z][seat]);
    }
    for (int p = P_PILE; p <= P_BURNT; p++) {
        nullAt(4 + p, 0, sizes[p]);
    }
}

/* ---- the deck and the deal ----------------------------------------------------------------------------------- */
static int sameLook(Seen c, int r, int s) {
    return c.card != NULL && c.rank == r && c.suit == s;
}

/* Which card of the deal each Card is (deck index), read from the game after newGame by the deal of C2, as the
   grader reads it to judge a card written with its identity (5H@12): the first index found for a Card stays. */
static Card identCard[N_CARDS];
static int identIndex[N_CARDS], nIdents = 0;

static void identPut(Seen c, int index) {
    if (!(index >= 0 && index < N_CARDS && sameLook(c, DECK_R[index], DECK_S[index]))) {
        return;
    }
    for (int k = 0; k < nIdents; k++) {
        if (identCard[k] == c.card) {
            return;
        }
    }
    if (nIdents < N_CARDS) {
        identCard[nIdents] = c.card;
        identIndex[nIdents++] = index;
    }
}

static int identOf(Card c) {
    for (int k = 0; c != NULL && k < nIdents; k++) {
        if (identCard[k] == c) {
            return identIndex[k];
        }
    }
    return -1;
}

static void readIdents(const View *v) {
    const int n = N_PLAYERS, table = (HAND_DEAL + TABLE_CARDS) * N_PLAYERS;
    for (int s = 0; s < n; s++) {
        for (int j = 0; j < TABLE_CARDS && j < v->rowN[Z_DOWN][s]; j++) {
            identPut(v->rows[Z_DOWN][s][j], HAND_DEAL * n + j * n + s);
        }
    }
    if (v->pileN[P_PILE] > 0) {
        identPut(v->piles[P_PILE][0], table);
    }
    for (int k = 0; k < v->pileN[P_DRAW]; k++) {
        identPut(v->piles[P_DRAW][k], table + 1 + k);
    }
    for (int s = 0; s < n; s++) {
        int used[N_CARDS] = {0};
        for (int index = s; index < HAND_DEAL * n && index < N_CARDS; index += n) {
            for (int k = 0; k < v->rowN[Z_HAND][s]; k++) {
                Seen c = v->rows[Z_HAND][s][k];
                if (!used[k] && c.rank == DECK_R[index] && c.suit == DECK_S[index]) {
                    used[k] = 1;
                    identPut(c, index);
                    break;
                }
            }
        }
    }
}

/* Deck index -> the Card the deal put there (C2), read right after newGame as the grader's worker reads it to
   find the cards of the questions and of a move that names a card by its identity
   (grader/games/palace/sandbox/play.py). */
static Seen dealt[N_CARDS];
static int dealtOrder[N_CARDS], nDealt = 0;

static void dealtPut(int index, Seen c) {
    if (index >= 0 && index < N_CARDS && sameLook(c, DECK_R[index], DECK_S[index])) {
        dealt[index] = c;
        dealtOrder[nDealt++] = index;
    }
}

static void readDeal(void) {
    const int n = N_PLAYERS, table = (HAND_DEAL + TABLE_CARDS) * N_PLAYERS;
    during = " (reading the deal, to find the cards the test names)";
    for (int s = 0; s < n; s++) {
        for (int j = 0; j < TABLE_CARDS; j++) {
            dealtPut(HAND_DEAL * n + j * n + s, got(seatCard(Z_DOWN, s, j)));
        }
    }
    dealtPut(table, got(pileCard(P_PILE, 0)));
    CALLING("drawPileSize()");
    int draw = capped(drawPileSize(game));
    for (int k = 0; k < draw; k++) {
        dealtPut(table + 1 + k, got(pileCard(P_DRAW, k)));
    }
    for (int s = 0; s < n; s++) {
        static Seen hand[N_CARDS];
        int h = capped(seatCount(Z_HAND, s));
        for (int k = 0; k < h; k++) {
            hand[k] = got(seatCard(Z_HAND, s, k));
        }
        int used[N_CARDS] = {0};
        for (int index = s; index < HAND_DEAL * n && index < N_CARDS; index += n) {
            for (int k = 0; k < h; k++) {
                if (!used[k] && sameLook(hand[k], DECK_R[index], DECK_S[index])) {
                    used[k] = 1;
                    dealtPut(index, hand[k]);
                    break;
                }
            }
        }
    }
    during = "";
}

static Seen dealtCard(int index) {
    return index >= 0 && index < N_CARDS ? dealt[index] : NO_CARD_SEEN;
}

static int dealtIndexOf(Card c) {  /* the deck index of a Card of the deal (the last one read wins), or -1 */
    for (int k = nDealt - 1; k >= 0; k--) {
        if (dealt[dealtOrder[k]].card == c) {
            return dealtOrder[k];
        }
    }
    return -1;
}

static int dealtCards(void) {  /* how many different Cards the deal showed */
    int n = 0;
    for (int k = 0; k < nDealt; k++) {
        int first = 1;
        for (int j = 0; j < k; j++) {
            first &= dealt[dealtOrder[j]].card != dealt[dealtOrder[k]].card;
        }
        n += first;
    }
    return n;
}

static int isTaken(Card c, Card *taken, int n) {
    for (int k = 0; k < n; k++) {
        if (taken[k] == c) {
            return 1;
        }
    }
    return 0;
}

/* The mover's zone, as the grader reads it to find a move's cards: the hand for a choice and while the hand
   has cards (as the game runner reads it: getHandCard(currentPlayer(), n)), else the face-up row (faceUpCard)
   of currentPlayer(). */
static int readZone(int choosing, Seen *zone, const char *why) {
    CALLING("handCardCount(), %s", why);
    int count = capped(handCardCount(game));
    if (!choosing && count == 0) {
        CALLING("currentPlayer(), %s", why);
        int seat = currentPlayer(game);
        CALLING("faceUpCount(%d), %s", seat, why);
        count = capped(faceUpCount(game, seat));
        for (int k = 0; k < count; k++) {
            CALLING("faceUpCard(%d, %d), %s", seat, k, why);
            zone[k] = got(faceUpCard(game, seat, k));
        }
        return count;
    }
    CALLING("currentPlayer(), %s", why);
    int seat = currentPlayer(game);
    for (int k = 0; k < count; k++) {
        CALLING("getHandCard(%d, %d), %s", seat, k, why);
        zone[k] = got(getHandCard(game, seat, k));
    }
    return count;
}

/* ---- the moves ----------------------------------------------------------------------------------------------- */

/* A blind move of a random game turns one card of the deal, wherever the mover's face-down row now holds it (C38
   leaves the positions free once a seat has turned a card), as the grader's worker finds it
   (grader/games/palace/sandbox/playing.py: _blind_by_card); not found there, the move's own position stays. */
static void blindByCard(int i, playerMove *pm) {
    Seen card = dealtCard(BLIND_CARD[i]);
    if (card.card == NULL) {
        return;
    }
    char why[120];
    snprintf(why, sizeof why, "looking for the face-down card of move %d (%s)", i + 1, MOVES[i].text);
    CALLING("currentPlayer(), %s", why);
    int seat = currentPlayer(game);
    CALLING("faceDownCount(%d), %s", seat, why);
    int count = capped(faceDownCount(game, seat));
    for (int p = 0; p < count; p++) {
        CALLING("getFaceDownCard(%d, %d), %s", seat, p, why);
        if (getFaceDownCard(game, seat, p) == card.card) {
            pm->faceDownIndex = p;
            return;
        }
    }
}

enum { GOING, REFUSED, NO_SUCH_CARD };
static int stopped = GOING, stoppedAt = -1;  /* how and at which move the game stopped */
static void decide(int trouble, int detail);

/* Move i (0 = the first): its cards found in the mover's zone (the first of that look, lowest position, not
   named already by the move; a card written with its identity: that very card of the deal), asked of
   isValidMove, and made.  A card not there, or a move the game refuses, stops the game, as in the grader. */
static void makeMove(int i) {
    const struct move *m = &MOVES[i];
    char why[120];
    playerMove pm;
    memset(&pm, 0, sizeof pm);
    pm.action = (action)m->act;
    snprintf(why, sizeof why, "looking for the cards of move %d (%s)", i + 1, m->text);
    if (m->act == PLAY_FACE_DOWN) {
        pm.faceDownIndex = m->down;
        if (BLIND_CARD[i] >= 0) {
            blindByCard(i, &pm);
        }
    } else if (m->act != PICK_UP_PILE) {
        static Seen zone[N_CARDS];
        int count = readZone(m->act == CHOOSE_FACE_UP, zone, why);
        Card taken[MAX_SET];
        for (int c = 0; c < m->n && c < MAX_SET; c++) {
            Seen card = NO_CARD_SEEN;
            if (m->id[c] >= 0) {
                card = dealtCard(m->id[c]);
            } else {
                for (int k = 0; k < count && card.card == NULL; k++) {
                    if (sameLook(zone[k], m->r[c], m->s[c]) && !isTaken(zone[k].card, taken, c)) {
                        card = zone[k];
                    }
                }
            }
            if (!sameLook(card, m->r[c], m->s[c])) {
                stopped = NO_SUCH_CARD, stoppedAt = i;
                decide(0, 0);
            }
            taken[c] = pm.cards[c] = card.card;
        }
        pm.numCards = m->n;
    }
    CALLING("isValidMove(%s), before making move %d", m->text, i + 1);
    alarm(HANG_SECONDS);
    if (!isValidMove(game, pm)) {
        stopped = REFUSED, stoppedAt = i;
        decide(0, 0);
    }
    CALLING("playMove(%s), move %d", m->text, i + 1);
    alarm(HANG_SECONDS);
    playMove(game, pm);
    moveNumber = i + 1;
}

/* ---- the questions of a step --------------------------------------------------------------------------------- */

#define NO_ANSWER (-2)  /* a written card of the question is nowhere in the game */
static int answers[MAX_QUESTIONS];
static int ranges[4 + 3 * N_PLAYERS][3];  /* each getter: NULL at -1, NULL at the size, a card at size - 1 */

/* A written card of a question: that very card (5H@12), else in the mover's zone (lowest deck index), then
   anywhere in the game by the deal (lowest deck index); NULL when the game has no such card. */
static Card askedCard(const struct askedCard *c, Seen *zone, int count, Card *taken, int nTaken) {
    if (c->id >= 0) {
        Seen d = dealtCard(c->id);
        return sameLook(d, c->r, c->s) ? d.card : NULL;
    }
    int best = -1, bestKey = 0, others = dealtCards();
    for (int k = 0; k < count; k++) {
        if (sameLook(zone[k], c->r, c->s) && !isTaken(zone[k].card, taken, nTaken)) {
            int index = dealtIndexOf(zone[k].card);
            int key = index >= 0 ? index : others + k;
            if (best < 0 || key < bestKey) {
                best = k, bestKey = key;
            }
        }
    }
    if (best >= 0) {
        return zone[best].card;
    }
    for (int index = 0; index < N_CARDS; index++) {
        if (sameLook(dealt[index], c->r, c->s) && !isTaken(dealt[index].card, taken, nTaken)) {
            return dealt[index].card;
        }
    }
    return NULL;
}

static int answer(const struct asked *a) {
    static Seen zone[N_CARDS];
    char why[200];
    int count = 0, looks = 0;
    snprintf(why, sizeof why, "looking for the cards of the question isValidMove(%s)", a->label);
    for (int k = 0; k < a->n; k++) {
        looks |= a->c[k].kind == A_LOOK;
    }
    if (looks) {
        count = readZone(a->act == CHOOSE_FACE_UP, zone, why);
    }
    Card cards[MAX_ASKED], taken[MAX_ASKED];
    int nTaken = 0;
    for (int k = 0; k < a->n; k++) {
        const struct askedCard *c = &a->c[k];
        if (c->kind == A_NULL) {
            cards[k] = NULL;
        } else if (c->kind == A_SAME) {
            cards[k] = c->id >= 0 && c->id < k ? cards[c->id] : NULL;
        } else {
            cards[k] = askedCard(c, zone, count, taken, nTaken);
            if (cards[k] == NULL) {
                return NO_ANSWER;
            }
            taken[nTaken++] = cards[k];
        }
    }
    playerMove pm;
    memset(&pm, 0, sizeof pm);
    pm.action = (action)a->act;
    pm.numCards = a->hasCount ? a->count : a->n;
    for (int k = 0; k < a->n && k < MAX_SET; k++) {
        pm.cards[k] = cards[k];
    }
    pm.faceDownIndex = a->down;
    CALLING("isValidMove(%s), a question of this test", a->label);
    return isValidMove(game, pm) != 0;
}

/* The getters of C43 in the grader's order: handCard, getDiscardPileCard, getBurntCard, getDeckCard, then each
   seat's getHandCard, faceUpCard and getFaceDownCard; their sizes; does one give a card at n (read as the grader
   reads it)? */
static int rangeSize(int g) {
    switch (g) {
    case 0: CALLING("handCardCount()"); return handCardCount(game);
    case 1: CALLING("discardPileSize()"); return discardPileSize(game);
    case 2: CALLING("burntCount()"); return burntCount(game);
    case 3: CALLING("drawPileSize()"); return drawPileSize(game);
    default: return seatCount((g - 4) % 3, (g - 4) / 3);
    }
}

static int rangeGives(int g, int n) {
    switch (g) {
    case 0: return got(handAt(n)).card != NULL;
    case 1: return got(pileCard(P_PILE, n)).card != NULL;
    case 2: return got(pileCard(P_BURNT, n)).card != NULL;
    case 3: return got(pileCard(P_DRAW, n)).card != NULL;
    default: return got(seatCard((g - 4) % 3, (g - 4) / 3, n)).card != NULL;
    }
}

/* C43: every Card getter (of every seat) at -1, at the size and at size - 1. */
static void indexRanges(void) {
    during = " (a question of this test: every Card getter at -1, at its size and at size - 1)";
    for (int g = 0; g < 4 + 3 * N_PLAYERS; g++) {
        int size = rangeSize(g);
        size = size >= 0 && size <= N_CARDS ? size : N_CARDS;
        ranges[g][0] = !rangeGives(g, -1);
        ranges[g][1] = !rangeGives(g, size);
        ranges[g][2] = size > 0 ? rangeGives(g, size - 1) : 1;
    }
    during = "";
}

/* The questions of a step, in the grader's order, then the game read again. */
static void ask(const struct asked *questions, int n) {
    for (int k = 0; k < n; k++) {
        if (questions[k].ranges) {
            indexRanges();
            answers[k] = 1;
        } else {
            answers[k] = answer(&questions[k]);
        }
    }
    during = " (reading the game again after this step's isValidMove() questions)";
    observe(&again);
    during = "";
}

/* ---- the checks: each block of expectations, judged as the grader judges it -------------------------------- */
enum { PENDING, HELD, BROKEN };
static int state[N_BLOCKS + 1];  /* each block: not judged yet (or never reached), held, broken */
static int block = 0;  /* the block being checked */
static char brokeWhat[N_BLOCKS + 1][400], brokeExpected[N_BLOCKS + 1][3000], brokeGot[N_BLOCKS + 1][3000];

static void wrong(const char *what, const char *expected, const char *gotText) {
    if (state[block] == BROKEN) {
        return;  /* a block shows its first difference */
    }
    state[block] = BROKEN;
    snprintf(brokeWhat[block], sizeof brokeWhat[block], "%s", what);
    snprintf(brokeExpected[block], sizeof brokeExpected[block], "%s", expected);
    snprintf(brokeGot[block], sizeof brokeGot[block], "%s", gotText);
}

static void begin(int b) {
    block = b;
}

static void held(int b) {  /* every check of block b was made */
    if (state[b] == PENDING) {
        state[b] = HELD;
    }
}

static const char *cardText(Seen c, char *buf) {
    static const char *R = "23456789TJQKA", *S = "HDCS";
    if (c.card == NULL) {
        return "NULL";
    }
    if (c.rank >= 2 && c.rank <= 14 && c.suit >= 0 && c.suit <= 3) {
        snprintf(buf, 48, "%c%c", R[c.rank - 2], S[c.suit]);
    } else {
        snprintf(buf, 48, "<%lld,%lld>", c.rank, c.suit);
    }
    return buf;
}

static void cardsText(const Seen *cards, int n, char *out, size_t size) {
    char buf[48];
    if (n == 0) {
        snprintf(out, size, "[] (none)");
        return;
    }
    snprintf(out, size, "[");
    for (int i = 0; i < n; i++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", i ? " " : "", cardText(cards[i], buf));
    }
    size_t len = strlen(out);
    snprintf(out + len, size - len, "]");
}

enum { K_INT, K_PHASE, K_WINNER, K_BOOL };

static void valueText(int kind, long long value, char *out) {
    static const char *PHASES[] = {"SETUP_PHASE", "PLAY_PHASE", "GAME_OVER"};
    if (kind == K_PHASE && value >= 0 && value <= 2) {
        snprintf(out, 40, "%s", PHASES[value]);
    } else if (kind == K_WINNER && value == NOT_FINISHED) {
        snprintf(out, 40, "NOT_FINISHED (-1)");
    } else if (kind == K_BOOL) {
        snprintf(out, 40, "%s", value ? "TRUE" : "FALSE");
    } else {
        snprintf(out, 40, "%lld", value);
    }
}

static void checkInt(const char *what, int field, int kind, int expected) {
    long long value = seen.ints[field];
    if (kind == K_BOOL ? (value != 0) != (expected != 0) : value != expected) {
        char e[40], g[40];
        valueText(kind, expected, e);
        valueText(kind, value, g);
        wrong(what, e, g);
    }
}

static void checkCounts(const char *what, int zone, const int *expected) {
    char e[200] = "[", g[200] = "[";
    int same = 1;
    for (int s = 0; s < N_PLAYERS; s++) {
        same &= seen.counts[zone][s] == expected[s];
        snprintf(e + strlen(e), sizeof e - strlen(e), "%s%d", s ? ", " : "", expected[s]);
        snprintf(g + strlen(g), sizeof g - strlen(g), "%s%d", s ? ", " : "", seen.counts[zone][s]);
    }
    if (!same) {
        strcat(e, "]");
        strcat(g, "]");
        wrong(what, e, g);
    }
}

/* A card as expected: its look, and the very card of the deal when written with its identity (5H@12). */
static int matches(Seen c, int r, int s, int id) {
    return sameLook(c, r, s) && (id < 0 || identOf(c.card) == id);
}

static void checkTop(const char *expected, int none, int r, int s, int id) {
    char buf[48];
    if (none ? seen.top.card != NULL : !matches(seen.top, r, s, id)) {
        wrong("topDiscard()", none ? "NULL (the pile is empty)" : expected, cardText(seen.top, buf));
    }
}

/* Cards of a zone or pile against those expected: in order (by position), or as a multiset of looks with every
   card written with its identity among them. */
static void checkCards(const char *what, const char *expected, const Seen *cards, int n, int want, const int *r,
                       const int *s, const int *id, int ordered) {
    int same = n == want;
    if (same && ordered) {
        for (int i = 0; i < n; i++) {
            same &= matches(cards[i], r[i], s[i], id[i]);
        }
    } else if (same) {
        int used[N_CARDS] = {0};
        for (int i = 0; i < n && same; i++) {
            int j = 0;
            while (j < want && (used[j] || cards[i].card == NULL || cards[i].rank != r[j] || cards[i].suit != s[j])) {
                j++;
            }
            if (j < want) {
                used[j] = 1;
            } else {
                same = 0;
            }
        }
        for (int j = 0; j < want && same; j++) {
            int there = id[j] < 0;
            for (int i = 0; i < n && !there; i++) {
                there = identOf(cards[i].card) == id[j];
            }
            same &= there;
        }
    }
    if (!same) {
        static char g[3000];
        cardsText(cards, n, g, sizeof g);
        wrong(what, expected, g);
    }
}

static void checkAnswer(const char *what, int expected, int k, const char *cards) {
    if (answers[k] == NO_ANSWER) {
        char g[400];
        snprintf(g, sizeof g, "no answer: the card(s) %s are nowhere in your game", cards);
        wrong(what, expected ? "TRUE" : "FALSE", g);
    } else if ((answers[k] != 0) != (expected != 0)) {
        wrong(what, expected ? "TRUE" : "FALSE", answers[k] ? "TRUE" : "FALSE");
    }
}

static void checkRanges(void) {
    static const char *WHERE[3] = {"n = -1", "n = size", "n = size - 1"};
    for (int g = 0; g < 4 + 3 * N_PLAYERS; g++) {
        for (int e = 0; e < 3; e++) {
            if (!ranges[g][e]) {
                static const char *FOUR[4] = {"handCard", "getDiscardPileCard", "getBurntCard", "getDeckCard"};
                static const char *SEAT[3] = {"getHandCard", "faceUpCard", "getFaceDownCard"};
                char what[120];
                if (g < 4) {
                    snprintf(what, sizeof what, "%s at %s", FOUR[g], WHERE[e]);
                } else {
                    snprintf(what, sizeof what, "%s(%d, n) at %s", SEAT[(g - 4) % 3], (g - 4) / 3, WHERE[e]);
                }
                wrong(what, e == 2 ? "a card" : "NULL", e == 2 ? "NULL" : "a card");
            }
        }
    }
}

static int sameCards(const Seen *a, int na, const Seen *b, int nb) {
    if (na != nb) {
        return 0;
    }
    for (int i = 0; i < na; i++) {
        if (a[i].card != b[i].card || (a[i].card != NULL && (a[i].rank != b[i].rank || a[i].suit != b[i].suit))) {
            return 0;
        }
    }
    return 1;
}

/* C46: the game after the step's isValidMove questions is the game before them (the same Cards too). */
static void checkUnchanged(void) {
    static const char *KEYS[] = {"phase", "current_player", "current_turn", "winner", "hand_counts", "face_up_counts",
                                 "face_down_counts", "pile_size", "draw_pile_size", "burnt_count", "hands", "face_up",
                                 "face_down", "pile", "draw_pile", "burnt", "effective_top_rank", "seven_restriction"};
    static const int INTS[] = {I_PHASE, I_CURRENT_PLAYER, I_CURRENT_TURN, I_WINNER, -1, -1, -1, I_PILE_SIZE,
                               I_DRAW_PILE_SIZE, I_BURNT_COUNT, -1, -1, -1, -1, -1, -1, I_TOP_RANK, I_SEVEN};
    char changed[600] = "";
    for (int k = 0; k < 18; k++) {
        int same = 1;
        if (INTS[k] >= 0) {
            same = seen.ints[INTS[k]] == again.ints[INTS[k]];
        } else if (k >= 4 && k <= 6) {
            for (int s = 0; s < N_PLAYERS; s++) {
                same &= seen.counts[k - 4][s] == again.counts[k - 4][s];
            }
        } else if (k >= 10 && k <= 12) {
            for (int s = 0; s < N_PLAYERS; s++) {
                same &= sameCards(seen.rows[k - 10][s], seen.rowN[k - 10][s], again.rows[k - 10][s],
                                  again.rowN[k - 10][s]);
            }
        } else {
            same = sameCards(seen.piles[k - 13], seen.pileN[k - 13], again.piles[k - 13], again.pileN[k - 13]);
        }
        if (!same) {
            snprintf(changed + strlen(changed), sizeof changed - strlen(changed), "%s%s", changed[0] ? ", " : "",
                     KEYS[k]);
        }
    }
    if (changed[0]) {
        strcat(changed, " changed");
        wrong("the game after these isValidMove() calls (C46)", "unchanged", changed);
    }
}

/* C4 (I5 of rules-palace.md): a card is one Card wherever it is read.  handCard(n) against
   getHandCard(currentPlayer(), n), and topDiscard() against getDiscardPileCard(0) (compare._inconsistent_views). */
static int handIsOneCard(void) {
    int me = seen.ints[I_CURRENT_PLAYER];
    if (me < 0 || me >= N_PLAYERS) {
        return 1;
    }
    int same = seen.handN == seen.rowN[Z_HAND][me];
    for (int i = 0; i < seen.handN && same; i++) {
        int there = 0;
        for (int j = 0; j < seen.rowN[Z_HAND][me] && !there; j++) {
            there = seen.hand[i].card == seen.rows[Z_HAND][me][j].card;
        }
        same &= there;
    }
    return same;
}

static int topIsOneCard(void) {
    return seen.pileN[P_PILE] > 0 ? seen.top.card == seen.piles[P_PILE][0].card : seen.top.card == NULL;
}

/* same_cards: the check of a block that asks for it, in compare.check_expect's words. */
static void checkSameCards(void) {
    static const char *GOT = "other Cards: a card must be one Card wherever it is read, never a copy";
    if (!handIsOneCard()) {
        wrong("handCard(n) against getHandCard(currentPlayer(), n)", "the very same Card pointers (C4)", GOT);
    }
    if (!topIsOneCard()) {
        wrong("topDiscard() against getDiscardPileCard(0)", "the very same Card pointers (C4)", GOT);
    }
}

/* Words for a failure whose game shows otherwise -- a note, not a check: the grader judges the test's own values,
   and says this beside them. */
static void identityNote(void) {
    if (!handIsOneCard()) {
        say("    (C4: handCard(n) gives other Cards than getHandCard(%d, n), the same hand: a card must be the "
            "same Card pointer wherever it is read, not a copy)\n", seen.ints[I_CURRENT_PLAYER]);
    }
    if (!topIsOneCard()) {
        say("    (C4: topDiscard() is not the Card getDiscardPileCard(0) gives)\n");
    }
}

/* ---- the verdict, as the grader reaches it ------------------------------------------------------------------- */
enum { T_NONE, T_CRASH, T_HANG, T_EXIT };

/* The test's verdict from what the blocks showed so far (grader/games/palace/session.py: run_scenario):
   one reading (or, without a probe, the test) all of whose blocks held, and the game over without trouble:
   passed; else the first block that failed or was never reached -- every reading's blocks, then the first
   reading's own -- and, when it was never reached, the crash, the hang or the move the game could not make. */
static void decide(int trouble, int detail) {
    if (!inSignal) {
        fflush(stdout);  /* what your code printed comes first */
    }
    int follows = -1;
    for (int r = 0; r < (N_READINGS ? N_READINGS : 1) && follows < 0; r++) {
        int all = 1;
        for (int b = 0; b < N_BLOCKS; b++) {
            all &= !(READING[b] < 0 || READING[b] == r) || state[b] == HELD;
        }
        follows = all ? r : -1;
    }
    if (follows >= 0 && trouble == T_NONE) {
        if (N_READINGS) {
            say("All checks passed: your game follows the reading '%s' of %s (%d moves).\n", READINGS[follows],
                RULING, moveNumber);
        } else {
            say("All checks passed (%d moves).\n", moveNumber);
        }
        end(0);
    }
    int failed = -1;
    for (int b = 0; b < N_BLOCKS && failed < 0; b++) {
        failed = READING[b] < 0 && state[b] != HELD ? b : -1;
    }
    for (int r = 0; r < N_READINGS && failed < 0; r++) {
        for (int b = 0; b < N_BLOCKS && failed < 0; b++) {
            failed = READING[b] == r && state[b] != HELD ? b : -1;
        }
    }
    if (failed >= 0 && state[failed] == BROKEN) {
        say("FAILED after move %d: %s\n    expected: %s\n    got:      %s\n", AFTER[failed], brokeWhat[failed],
            brokeExpected[failed], brokeGot[failed]);
        if (READING[failed] >= 0) {
            say("    (what the reading '%s' of %s expects: your game follows none of its readings)\n",
                READINGS[READING[failed]], RULING);
        }
        if (AFTER[failed] == moveNumber) {
            identityNote();
        }
        say("Rule: %s\n", RULE);
        end(1);
    }
    if (trouble == T_CRASH) {
        say("CRASHED (signal %d) in %s%s, after move %d\n", detail, inCall, during, moveNumber);
        end(2);
    }
    if (trouble == T_HANG) {
        say("DID NOT RETURN within %d seconds: %s%s, after move %d\n", HANG_SECONDS, inCall, during, moveNumber);
        end(3);
    }
    if (trouble == T_EXIT) {
        say("EXITED: exit() was called in %s%s, after move %d (a library never ends the program)\n", inCall,
            during, moveNumber);
        end(4);
    }
    if (stopped != GOING) {
        say("FAILED after move %d: isValidMove(%s)\n    expected: TRUE\n    got:      %s\n", stoppedAt,
            MOVES[stoppedAt].text, stopped == REFUSED ? "FALSE" : "the card is missing");
        say(stopped == REFUSED ? "    (your isValidMove() refuses move %d, so it cannot be made)\n"
                               : "    (a card of move %d is not in the mover's zone: getHandCard(currentPlayer(), n), "
                                 "or faceUpCard() once the hand is empty)\n", stoppedAt + 1);
        identityNote();
        say("Rule: %s\n", RULE);
        end(1);
    }
    say("All checks passed (%d moves).\n", moveNumber);
    end(0);
}

/* After a step's checks: a block every reading shares that failed is the test's failure at once. */
static void settle(void) {
    for (int b = 0; b < N_BLOCKS; b++) {
        if (READING[b] < 0 && state[b] == BROKEN) {
            decide(T_NONE, 0);
        }
    }
}

static void crashed(int sig) {
    inSignal = 1;
    decide(T_CRASH, sig);
}

static void hung(int sig) {
    (void)sig;
    inSignal = 1;
    decide(T_HANG, 0);
}

static void exited(void) {
    if (!finished) {
        decide(T_EXIT, 0);
    }
}

/* The grader runs your code with a malloc that fills new memory with 0xa5 bytes and freed memory with 0x5a
 * bytes, so that every run is the same (and memory never set reads as nonsense, not as 0).  This program runs
 * itself again with those settings, so that reading memory that was never written, or was freed, does here what
 * it did there. */
static void sameMallocAsTheGrader(char **argv) {
    const char *preload = getenv("LD_PRELOAD");
    if (getenv("GLIBC_TUNABLES") == NULL && (preload == NULL || strstr(preload, "valgrind") == NULL)) {
        setenv("GLIBC_TUNABLES", "@SETTINGS@", 1);
        execv("/proc/self/exe", argv);  /* if that fails, go on as we are */
    }
}

static void start(char **argv) {
    sameMallocAsTheGrader(argv);
    signal(SIGSEGV, crashed);
    signal(SIGABRT, crashed);
    signal(SIGFPE, crashed);
    signal(SIGBUS, crashed);
    signal(SIGILL, crashed);
    signal(SIGALRM, hung);
    atexit(exited);
    alarm(HANG_SECONDS);
    rank ranks[N_CARDS];
    suit suits[N_CARDS];
    for (int i = 0; i < N_CARDS; i++) {
        ranks[i] = (rank)GIVEN_R[i];
        suits[i] = (suit)GIVEN_S[i];
    }
    CALLING("newGame(%d, %d, ranks, suits, %d)", N_PLAYERS, N_CARDS, GAME_RULES);
    game = newGame(N_PLAYERS, N_CARDS, ranks, suits, GAME_RULES);
    if (game == NULL) {
        say("FAILED after move 0: newGame()\n    expected: a new game\n    got:      NULL\nRule: %s\n", RULE);
        end(1);
    }
}
""".replace("@SETTINGS@", DETERMINISTIC_MALLOC)


# ---- one program ------------------------------------------------------------------------------------------
def _ints(values: Sequence[int]) -> str:
    return "(const int[]){" + ", ".join(str(v) for v in values) + "}" if values else "(const int[]){0}"


def _refs(refs: Sequence[CardRef]) -> tuple[str, str, str]:
    """The C arrays of cards written: ranks, suits, deck indexes (-1: any card of that look)."""
    return (_ints([int(r.rank) for r in refs]), _ints([int(r.suit) for r in refs]),
            _ints([-1 if r.ident is None else r.ident for r in refs]))


def refs_text(refs: Sequence[CardRef]) -> str:
    """Cards expected, as the grader words them: ``[5H 6D@12]``, ``[] (none)``."""
    return "[" + " ".join(ref_text(r) for r in refs) + "]" if refs else "[] (none)"


def _value(key: str, want: object) -> tuple[str, int]:
    """A scalar expectation's kind (how its value is worded) and its value as an int."""
    if key == "phase":
        return "K_PHASE", int(Phase[str(want)].value)
    if key == "seven_restriction":
        return "K_BOOL", int(bool(want))
    assert isinstance(want, int)
    return ("K_WINNER" if key == "winner" else "K_INT"), want


SCALAR_FIELDS = {"phase": "I_PHASE", "current_player": "I_CURRENT_PLAYER", "current_turn": "I_CURRENT_TURN",
                 "winner": "I_WINNER", "effective_top_rank": "I_TOP_RANK", "seven_restriction": "I_SEVEN",
                 "draw_pile_size": "I_DRAW_PILE_SIZE", "discard_pile_size": "I_PILE_SIZE",
                 "burnt_count": "I_BURNT_COUNT"}
COUNT_ZONES = {"hand_counts": "Z_HAND", "face_up_counts": "Z_UP", "face_down_counts": "Z_DOWN"}


def _value_checks(e: Expect, n: int) -> list[str]:
    """The checks of one block on the game after its step, in ``compare.check_expect``'s order and words."""
    out = []
    for key, _field, call in SCALARS:
        want = getattr(e, key)
        if want is not None:
            kind, value = _value(key, want)
            out.append(f"checkInt({c_string(call)}, {SCALAR_FIELDS[key]}, {kind}, {value});")
    for key, _field, call in COUNTS:
        want = getattr(e, key)
        if want is not None:
            out.append(f"checkCounts({c_string(f'{call} for p = 0..{n - 1}')}, {COUNT_ZONES[key]}, {_ints(want)});")
    top = e.top_discard
    if top is not None:
        if isinstance(top, str):
            out.append('checkTop("", 1, 0, 0, -1);')
        else:
            out.append(f"checkTop({c_string(ref_text(top))}, 0, {int(top.rank)}, {int(top.suit)}, "
                       f"{-1 if top.ident is None else top.ident});")
    zones: list[tuple[str, str, Sequence[CardRef] | None, bool]] = [
        (f"getDiscardPileCard(n), {'in any order' if e.pile_as_set else 'top first'}", "piles[P_PILE]", e.pile,
         not e.pile_as_set),
        ("getDeckCard(n), next card first", "piles[P_DRAW]", e.draw_pile, True)]
    for what, cards, refs, ordered in zones:
        if refs is not None:
            count = cards.replace("piles", "pileN")
            out.append(f"checkCards({c_string(what)}, {c_string(refs_text(refs))}, seen.{cards}, seen.{count}, "
                       f"{len(refs)}, {', '.join(_refs(refs))}, {int(ordered)});")
    seat_zones = (("hand", "Z_HAND", "getHandCard({s}, n): seat {s}'s hand, in any order", False),
                  ("face_up", "Z_UP", "faceUpCard({s}, n): seat {s}'s face-up row, in any order", False),
                  ("face_down", "Z_DOWN", "getFaceDownCard({s}, n): seat {s}'s face-down row, by position", True))
    for key, zone, what, ordered in seat_zones:
        for seat, refs in getattr(e, key) or ():
            out.append(f"checkCards({c_string(what.format(s=seat))}, {c_string(refs_text(refs))}, "
                       f"seen.rows[{zone}][{seat}], seen.rowN[{zone}][{seat}], {len(refs)}, {', '.join(_refs(refs))}, "
                       f"{int(ordered)});")
    if e.same_cards:
        out.append("checkSameCards();")
    return out


def _answer_checks(e: Expect, labels: Sequence[str]) -> list[str]:
    """The checks of one block's questions (by their place among the step's questions), then C46's."""
    out = []
    asked: tuple[tuple[Sequence[MoveSpec | Malformed], int], ...] = ((e.valid, 1), (e.invalid, 0), (e.malformed, 0))
    for entries, expected in asked:
        for entry in entries:
            label = entry_label(entry)
            cards = " ".join(ref_text(c) for c in entry.cards)
            out.append(f"checkAnswer({c_string(f'isValidMove({label})')}, {expected}, {labels.index(label)}, "
                       f"{c_string(cards)});")
    if e.index_ranges:
        out.append("checkRanges();")
    out.append("checkUnchanged();")
    return out


def _asked_row(label: str, entry: MoveSpec | Malformed) -> str:
    """One question as C data (``struct asked``): the move the grader's worker builds from ``ask_entry``."""
    asked = ask_entry(entry)
    cards = []
    for c in asked.get("cards", []) or []:
        if c is None:
            cards.append("{A_NULL, 0, 0, -1}")
        elif isinstance(c, int):
            cards.append(f"{{A_SAME, 0, 0, {c}}}")
        else:
            ref = CardRef.parse(c)
            cards.append(f"{{A_LOOK, {int(ref.rank)}, {int(ref.suit)}, {-1 if ref.ident is None else ref.ident}}}")
    if len(cards) > MAX_ASKED_CARDS:
        raise ValueError(f"the question {label!r} names more than {MAX_ASKED_CARDS} cards")
    count = asked.get("count")
    return (f"{{0, {int(asked.get('action', 0))}, {len(cards)}, {{{', '.join(cards) or '{0}'}}}, "
            f"{int(count is not None)}, {0 if count is None else int(count)}, {int(asked.get('index', 0) or 0)}, "
            f"{c_string(label)}}}")


def _move_row(spec: MoveSpec) -> str:
    refs = list(spec.cards)
    if len(refs) > 8:
        raise ValueError(f"move {spec} names more than MAX_SET cards")

    def row(values: Sequence[int]) -> str:
        return "{" + ", ".join(str(v) for v in values or [0]) + "}"

    return (f"{{{Action(spec.action).name}, {len(refs)}, {row([int(r.rank) for r in refs])}, "
            f"{row([int(r.suit) for r in refs])}, {row([-1 if r.ident is None else r.ident for r in refs])}, "
            f"{spec.face_down_index}, {c_string(str(spec))}}}")


def _given(failed: TestResult | None) -> list[str]:
    """The deck newGame is given: the test's own, or -- a wrong deal judged around (``TestResult.dealt_as``) -- that
    deck rearranged so the student's own deal puts every card where the rules put it."""
    if failed is None or not failed.dealt_as:
        return ["#define GIVEN_R DECK_R  /* newGame is given the deck itself */", "#define GIVEN_S DECK_S"]
    given = Setup.parse(failed.dealt_as).deck
    return ["/* Your newGame() deals in another order than the rules (C2), so newGame is given the deck rearranged:",
            " * your own deal then puts every card where the rules put the cards of DECK_R/DECK_S. */",
            f"static const int GIVEN_R[N_CARDS] = {{{', '.join(str(int(r)) for r, _s in given)}}};",
            f"static const int GIVEN_S[N_CARDS] = {{{', '.join(str(int(x)) for _r, x in given)}}};"]


def c_program(s: Scenario, compile_hint: str, failed: TestResult | None = None,
              blind_cards: Mapping[int, int] | None = None) -> str:
    """The C program of scenario ``s``: its game played as the grader plays it, its blocks judged as the grader
    judges them (see the module's docstring).  ``failed``: the grader's result, quoted in the header;
    ``blind_cards``: move index -> the deck index of the card that blind move turns (a random game's, C38)."""
    blind = dict(blind_cards or {})
    n, deck = s.setup.n_players, s.setup.deck
    # the blocks in the order the grader picks the failing one: by step; a probe's as written, every reading's
    # values first, then each reading's own (``session.run_scenario``)
    readings: tuple[str, ...] = ()
    if s.probe is None:
        blocks = [(-1, e) for e in sorted(s.expects, key=lambda e: e.after)]
        in_order: list[Expect] = list(s.expects)
    else:
        readings = s.probe.readings
        blocks = []
        for b in s.probe.blocks:
            blocks.append((-1, b.shared))
            blocks += [(i, b.for_reading(r)) for i, r in enumerate(readings)]
        in_order = [e for _r, e in blocks]
    asks = Asks()  # the questions of each step, as the grader asks them
    entries: dict[tuple[int, str], MoveSpec | Malformed] = {}
    for e in in_order:
        asks.add_expect(e)
        asked: tuple[MoveSpec | Malformed, ...] = (*e.valid, *e.invalid, *e.malformed)
        entries.update(((e.after, entry_label(x)), x) for x in asked)
    questions = {step: [label for label, _entry in row] for step, row in asks.by_step.items()}
    deal_read = bool(asks.by_step or blind) or any(r.ident is not None for m in s.moves for r in m.cards)
    most = max((len(q) for q in questions.values()), default=0)

    test = failed.id if failed is not None else f"{s.group}/{s.id}"
    header = [f"/* Repro of the test {test} ({', '.join(s.rules)}):",
              f" *   {s.says.replace('*/', '* /')}",
              f" * The game: {s.setup}",
              f" * The moves: {' '.join(str(m) for m in s.moves) or '(none)'}"]
    if failed is not None and failed.message:
        first = failed.message.strip().splitlines()[0].replace("*/", "* /")
        header.append(f" * The grader said: {first}")
    header += [" *",
               " * It plays the game as the grader plays it, making the same calls in the same order, and checks what",
               " * the test checks, where it checks it; it stops at the first difference (FAILED after move N), at a",
               " * crash (CRASHED, naming the call in progress) or at a call that does not return within HANG_SECONDS",
               " * (-DHANG_SECONDS=S to change it).  Build and run it with your Palace.c:",
               f" *   {compile_hint}",
               " */"]
    lines = header + [
        f"#define N_PLAYERS {n}", f"#define N_CARDS {len(deck)}", f"#define GAME_RULES {s.setup.rules}",
        f"#define N_BLOCKS {len(blocks)}", f"#define N_READINGS {len(readings)}",
        f"#define MAX_QUESTIONS {max(most, 1)}", f"#define MAX_ASKED {MAX_ASKED_CARDS}",
        f"#define RULE {c_string(', '.join(s.rules) + ': ' + s.says)}",
        f"#define RULING {c_string(s.probe.ruling if s.probe is not None else '')}",
        f"static const int DECK_R[N_CARDS] = {{{', '.join(str(int(r)) for r, _s in deck)}}};  "
        "/* the deck, top first */",
        f"static const int DECK_S[N_CARDS] = {{{', '.join(str(int(x)) for _r, x in deck)}}};",
        *_given(failed),
        f"static const int AFTER[N_BLOCKS + 1] = {{{', '.join(str(e.after) for _r, e in blocks) or '0'}}};  "
        "/* each block's step */",
        f"static const int READING[N_BLOCKS + 1] = {{{', '.join(str(r) for r, _e in blocks) or '0'}}};  "
        "/* -1: every reading's */",
        f"static const char *READINGS[N_READINGS + 1] = {{{', '.join(c_string(r) for r in readings) or '0'}}};",
        REPRO_PRELUDE,
        f"static const struct move MOVES[{len(s.moves) + 1}] = {{  /* the moves, each card by its look */",
        *[f"    {_move_row(m)}," for m in s.moves],
        '    {PICK_UP_PILE, 0, {0}, {0}, {0}, 0, "(end)"}};',
        f"static const int BLIND_CARD[{len(s.moves) + 1}] = "
        f"{{{', '.join(str(blind.get(i, -1)) for i in range(len(s.moves) + 1))}}};  "
        "/* a blind move's card by its deck index (-1: by position) */"]
    for step, row in sorted(asks.by_step.items()):
        lines.append(f"static const struct asked QUESTIONS_{step}[{len(row)}] = {{")
        for label, entry in row:
            if entry == INDEX_RANGES:
                lines.append(f'    {{1, 0, 0, {{{{0}}}}, 0, 0, 0, {c_string(label)}}},')
            else:
                lines.append(f"    {_asked_row(label, entries[step, label])},")
        lines.append("};")
    lines += [REPRO_BODY,
              "/* The test: the game played move by move, read after each move as the grader reads it, and checked",
              "   where the test checks it. */",
              "int main(int argc, char **argv) {", "    (void)argc;", "    start(argv);  /* newGame */"]

    def whose(reading: int) -> str:
        return f" (the reading '{readings[reading]}' of {s.probe.ruling})" if s.probe is not None and reading >= 0 \
            else (" (every reading)" if s.probe is not None else "")

    for k in range(len(s.moves) + 1):
        if k:
            lines.append(f"\n    /* move {k}: {str(s.moves[k - 1]).replace('*/', '* /')} */")
            lines.append(f"    makeMove({k - 1});")
        lines.append("    observe(&seen);")
        if k == 0:
            lines.append("    readIdents(&seen);  /* which Card is which card of the deal (5H@12) */")
        here = [(i, r, e) for i, (r, e) in enumerate(blocks) if e.after == k]
        for i, r, e in here:
            lines.append(f"    begin({i});  /* what the test expects {after_words(k)}{whose(r)} */")
            lines += ["    " + c for c in _value_checks(e, n)]
            if not (e.valid or e.invalid or e.malformed or e.index_ranges):
                lines.append(f"    held({i});")
        if k == 0 and deal_read:
            lines.append("    readDeal();  /* the deal, to find the cards of the questions and moves */")
        if k in questions:
            lines.append(f"    ask(QUESTIONS_{k}, {len(questions[k])});  /* this step's questions; the game again */")
            for i, r, e in here:
                lines.append(f"    begin({i});  /* its answers{whose(r)}, and nothing changed */")
                lines += ["    " + c for c in _answer_checks(e, questions[k])]
                lines.append(f"    held({i});")
        if here:
            lines.append("    settle();")
    lines += ["    decide(T_NONE, 0);", "    return 0;", "}"]
    return "\n".join(lines) + "\n"


# ---- a random game's failure, as a scenario ------------------------------------------------------------------
RANDOM_MARK = "# blind_cards:"  # the comment line of a random game's scenario text naming its blind moves' cards
_SCALAR_KEYS = {"phase": "phase", "current_player": "current_player", "current_turn": "current_turn",
                "winner": "winner", "effective_top_rank": "effective_top_rank",
                "seven_restriction": "seven_restriction", "pile_size": "discard_pile_size",
                "draw_pile_size": "draw_pile_size", "burnt_count": "burnt_count"}


def random_scenario(d: Difference, rules: Sequence[str]) -> str | None:
    """The game of a random family's failure (its shortest, ``random_games._failure``) as a scenario, with one
    expect block holding the reference's value of what differed, where it differed, stated as the grader compared
    it -- the text a student can paste into a scenario file, and what the test's C program plays (``write_repros``).
    None when no expect block states it so: a value the format has no key for (``burnt``, ``hand``,
    ``out_of_range``, the game's fixed numbers, isValidMove's side effects), one the grader compared more loosely
    than a key can say (a pile whose runs of one move are in any order inside but not as a whole, the top of a
    set of several cards, the face-down rows once a seat has turned a card: C37, C38), an isValidMove question no
    entry asks with the battery's very cards (``_question``), a crash in calls the program does not make (the
    grader's battery and its re-reads), and the verdicts no program shows."""
    g, k = d.game, d.step
    moves: Sequence[MoveSpec] = g.moves[:k]
    block: dict[str, object] | None
    if d.key == "trouble":
        if d.verdict in NOT_SHOWN_BY_A_PROGRAM or d.row is None or not _replayed_call(str(d.row["what"])):
            return None
        upto = min(len(g.moves), max(k, int(d.row["step"])) + 1)  # the move in progress too
        moves, block = g.moves[:upto], {"after": upto}  # reached only when nothing stopped the game
    elif d.key == "valid" and k < len(g.moves) and d.what == f"isValidMove({g.moves[k]})" and d.expected == "TRUE":
        moves, block = g.moves[:k + 1], {"after": k + 1}  # the game's own move refused, or its card not there
    else:
        block = _random_expect(d)
    if block is None:
        return None
    blind = [(i, index) for i, index in g.blind_cards if i < len(moves)]
    valid = [r for r in rules if r in RULE_IDS] or \
        sort_rules({r for f in g.steps[min(k, len(g.steps) - 1)].judges for r in FAMILIES[f][1]}) or ["C2"]
    says = (f"A random game of the grader (game {g.index + 1}) that showed a difference from the reference in "
            f"{words(d.family)}: {d.what} {after_words(d.step)}.")
    lines = ["# The shortest random game that failed this test, cut after its difference, in the scenario format "
             "(fixtures/palace/scenarios/).",
             f"{RANDOM_MARK} {' '.join(f'{i + 1}={index}' for i, index in blind)}  (move = the deck index of the "
             f"card that blind move turns, wherever the face-down row now holds it: C38)" if blind else "",
             "[[scenario]]", f'id = "{random_scenario_id(d.family)}"', f"rules = {_toml(valid)}",
             f"says = {_toml(says)}",
             f"setup = {_toml(str(g.setup))}", f"moves = {_toml(format_moves(moves))}", "[[scenario.expect]]"]
    lines += [f"{key} = {_toml(value)}" for key, value in block.items()]
    return "\n".join(line for line in lines if line) + "\n"


def random_scenario_id(family: str) -> str:
    """A random family's scenario id: ``random_<family>`` (the test ``random/<family>``, its program
    ``repro_random_<family>.c``)."""
    return "random_" + family


def _replayed_call(what: str) -> bool:
    """Is the call in progress one the program makes too (not the grader's isValidMove battery, nor a count it
    reads again after the battery)?"""
    return "candidate" not in what and "by the grader" not in what and "read again" not in what


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_toml(v)}" for key, v in value.items()) + " }"
    assert isinstance(value, (list, tuple))
    return "[" + ", ".join(_toml(v) for v in value) + "]"


def _cards(cards: Sequence[Card | None]) -> list[str]:
    """Cards with their identity, ``5H@12`` (the reference's cards are the deck's: ``Card.ident``)."""
    return ["NULL" if c is None else f"{c}@{c.ident}" for c in cards]


def _random_expect(d: Difference) -> dict[str, object] | None:
    """The expect block of a value of the observation that differed (``random_scenario``), or None."""
    g, k = d.game, d.step
    step = g.steps[k]
    game = Game(g.setup, g.readings[0])
    observer = Observer(game, g.setup.n_players, g.setup.n_cards)
    observer.observe()  # identities are numbered at the first observation, as the battery's labels number them
    for spec in g.moves[:k]:
        game.play_move(game.resolve(spec))
    seats = range(g.setup.n_players)
    block: dict[str, object] = {"after": k}
    key = d.key
    if key in _SCALAR_KEYS:
        values: dict[str, object] = {
            "phase": game.current_phase().name, "current_player": game.current_player(),
            "current_turn": game.current_turn(), "winner": game.game_winner(),
            "effective_top_rank": game.effective_top_rank(), "seven_restriction": game.seven_restriction(),
            "pile_size": game.discard_pile_size(), "draw_pile_size": game.draw_pile_size(),
            "burnt_count": game.burnt_count()}
        if key == "phase" and d.got == "nothing readable":
            return None
        block[_SCALAR_KEYS[key]] = values[key]
    elif key in ("hand_counts", "face_up_counts", "face_down_counts"):
        count = {"hand_counts": game.player_card_count, "face_up_counts": game.face_up_count,
                 "face_down_counts": game.face_down_count}[key]
        block[key] = [count(s) for s in seats]
    elif key in ("hands", "face_up"):  # each seat's cards in any order, every card that very card (C37)
        block["hand" if key == "hands" else key] = {
            str(s): _cards(game.hand(s) if key == "hands" else game.face_up(s)) for s in seats}
    elif key == "face_down":
        if step.turned:
            return None  # positions renumbered once a seat has turned a card (C38): compared as a multiset there
        block[key] = {str(s): _cards([game.get_face_down_card(s, p) for p in range(game.face_down_count(s))])
                      for s in seats}
    elif key == "pile":
        pile = _cards([game.get_discard_pile_card(n) for n in range(game.discard_pile_size())])
        if all(n == 1 for n in step.segments):
            block["pile"] = pile  # every card put down alone: top first
        elif len(step.segments) == 1:
            block["pile"], block["pile_as_set"] = pile, True  # one set: in any order (C37)
        else:
            return None
    elif key == "top_discard":
        if step.segments and step.segments[0] > 1:
            return None  # any card of the top set (C37)
        top = game.top_discard()
        block[key] = "none" if top is None else _cards([top])[0]
    elif key == "draw_pile":
        block[key] = _cards([game.get_deck_card(n) for n in range(game.draw_pile_size())])
    elif key == "valid" and d.what.startswith("isValidMove(") and {d.expected, d.got} == {"TRUE", "FALSE"}:
        asked = _question(observer, d.what[len("isValidMove("):-1], d.expected == "TRUE")
        if asked is None:
            return None
        block[asked[0]] = [asked[1]]
    else:
        return None
    return block


def _question(observer: Observer, label: str, expected: bool) -> tuple[str, str] | None:
    """A battery question (its label) as an entry of an expect block's ``valid``, ``invalid`` or ``malformed`` list,
    with the reference's very cards (``5H@12``): (key, entry), or None when no entry asks that very move (the
    same card twice but not last, an action outside the enum with a card, a malformed move the reference would
    allow).  A label the comparison shortened (a card of a pile whose order C37 leaves free: ``wrong-zone:pile``)
    stands for the reference's question of that kind: both must be FALSE."""
    questions = {label: as_player_move(move) for label, move in observer.candidates(observer.observe())}
    move = questions.get(label) or next((m for lb, m in questions.items() if lb.startswith(label + ":")), None)
    if move is None:
        return None
    answer = "valid" if expected else "invalid"
    malformed = None if expected else "malformed"  # C40: never a valid move
    cards, up = move.cards, "up:" if move.action == Action.CHOOSE_FACE_UP else ""
    written = [c for c in cards if c is not None]
    text = ",".join(_cards(written))
    if move.action not in {int(a) for a in Action}:
        return (malformed, f"action={move.action}") if malformed and not cards else None
    if move.action == Action.PICK_UP_PILE:
        return answer, "pickup"
    if move.action == Action.PLAY_FACE_DOWN:
        index = move.face_down_index
        return (answer, f"blind:{index}") if index >= 0 else (malformed, f"blind={index}") if malformed else None
    if not malformed and (move.num_cards is not None or len(written) != len(cards) or len(set(cards)) < len(cards)):
        return None
    if None in cards:  # a NULL entry, last (C40)
        whole = cards[-1] is None and len(written) == len(cards) - 1 and move.num_cards is None
        return (malformed, f"{up}null" + (f":{text}" if text else "")) if malformed and whole else None
    if len(set(cards)) < len(cards):  # the first card again, last (C40)
        once = list(dict.fromkeys(cards))
        whole = cards[-1] == cards[0] and len(once) == len(cards) - 1 and move.num_cards is None
        return (malformed, f"{up}repeat:{','.join(_cards(once))}") if malformed and whole else None
    if move.num_cards is not None and move.num_cards != len(cards):
        return (malformed, f"{up}numCards={move.num_cards}" + (f":{text}" if text else "")) if malformed else None
    return (answer, up + text) if cards else None


def _random_scenario_of(t: TestResult) -> tuple[Scenario, dict[int, int]] | None:
    """A random family test's scenario (``TestResult.repro``, written by ``random_scenario``) and its blind moves'
    cards; None when it has none."""
    if t.kind != "random" or not t.repro:
        return None
    raw = tomllib.loads(t.repro)["scenario"][0]
    blind: dict[int, int] = {}
    for line in t.repro.splitlines():
        if line.startswith(RANDOM_MARK):
            pairs = line[len(RANDOM_MARK):].split("(")[0].split()
            blind = {int(a) - 1: int(b) for a, _eq, b in (p.partition("=") for p in pairs)}
    return scenario_of(t.group, "Random games", raw, "random games"), blind


# ---- which failures get one, and where they go ------------------------------------------------------------
def reproducible(t: TestResult, s: Scenario | None) -> bool:
    """Does this failed test get a program?  A visible scenario test that failed on what its game shows (not a
    probe failed only beside another probe's reading, not a limit or the grader's own trouble), or a random
    family's whose difference its scenario states (``TestResult.repro``: ``random_scenario``)."""
    return (t.verdict.family == "fail" and not t.hidden and t.kind in ("scenario", "random") and s is not None
            and t.verdict not in NOT_SHOWN_BY_A_PROGRAM and t.failed_on != "readings")


def write_repros(result: Graded, folder: Path) -> dict[str, str]:
    """A repro program for every failing, visible scenario test and random family test (``reproducible``): test
    id -> file name.  Beside them, what builds each one with the student's own folder (``grader.core.repro_build``:
    one command)."""
    scenarios = {f"{s.group}/{s.id}": s for s in load_scenarios()}
    written: dict[str, str] = {}
    for t in result.tests:
        sc, blind = scenarios.get(t.id), None
        if t.kind == "random":
            sc, blind = _random_scenario_of(t) or (None, None)
        if sc is None or not reproducible(t, sc):
            continue
        name = "repro_" + t.id.replace("/", "_") + ".c"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(c_program(sc, repro_build.command(name), t, blind))
        written[t.id] = name
    if written:
        repro_build.write_build_files(
            folder, repro_build.ReproSources.of(result, ("Palace.c", "PalaceCard.c")), list(written.values()),
            INCLUDE_DIR, COURSE_HEADERS,
            "Each repro_*.c plays the game of one failing test as the grader plays it and checks what the test\n"
            "checks, where it checks it: it stops at the first difference (FAILED after move N), at a crash\n"
            "(CRASHED, naming the call in progress) or at a call that does not return (DID NOT RETURN).")
    return written

