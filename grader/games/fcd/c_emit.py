"""One C emitter for every program the grader writes (repro programs, the memory driver).

The C spelling of cards, decks and moves, and the helpers every generated
program starts with: ``CALLING`` records the call in progress, the checks
(``checkInt``, ``checkCards`` ...) compare, ``inHand`` finds a move's card in the
current hand by value, colour and suit.  An edition adds its ``see()``, which
makes the grader's calls after a move in its observer's order
(``grader.games.fcd18s2.c_dialect``, ``grader.games.fcd17s2.repro``), with
``checking_prelude``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from grader.core.sandbox.native import c_string
from grader.games.fcd.sandbox.observe import HAND_CAP
from reference import Action
from reference.cards import COLOR_LETTERS, SUIT_LETTERS

if TYPE_CHECKING:
    from grader.games.fcd.edition import WrittenMove

C_VALUES = ["ZERO", "ONE", "DRAW_TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
            "A", "B", "C", "D", "E", "F"]
C_COLORS = ["RED", "BLUE", "GREEN", "YELLOW", "PURPLE"]
C_SUITS = ["HEARTS", "DIAMONDS", "CLUBS", "SPADES", "QUESTIONS"]

INCLUDES = r'''
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "Game.h"

'''
CALLING = r'''#define CAP HAND_CAP_VALUE
static int moveNumber = 0;
static char inCall[160] = "newGame(...)";
#define CALLING(...) snprintf(inCall, sizeof inCall, __VA_ARGS__)

'''
CHECKS = r'''static void crashed(int sig) {
    char text[320];
    int n = snprintf(text, sizeof text, "CRASHED (signal %d) in %s, after move %d\n", sig, inCall, moveNumber);
    if (write(1, text, n) < 0) {}
    _exit(2);
}

static void fail(const char *what, const char *expected, const char *got) {
    printf("FAILED after move %d: %s\n    expected: %s\n    got:      %s\n", moveNumber, what, expected, got);
    printf("Rule: %s\n", RULE);
    exit(1);
}

static void checkInt(const char *what, int expected, int got) {
    if (expected != got) {
        char e[32], g[32];
        snprintf(e, sizeof e, "%d", expected);
        snprintf(g, sizeof g, "%d", got);
        fail(what, e, g);
    }
}

static void checkBool(const char *what, int expected, int got) {
    if ((expected != 0) != (got != 0)) {
        fail(what, expected ? "TRUE" : "FALSE", got ? "TRUE" : "FALSE");
    }
}

static const char *name(Card card, char *buf) {
    if (card == NULL) {
        return "NULL";
    }
    snprintf(buf, 4, "%X%c%c", (unsigned)cardValue(card) & 0xF, "RBGYP?"[cardColor(card) < 5 ? cardColor(card) : 5],
             "HDCSQ?"[cardSuit(card) < 5 ? cardSuit(card) : 5]);
    return buf;
}

static int byName(const void *a, const void *b) {
    return strcmp((const char *)a, (const char *)b);
}

/* The names of n cards, space-separated; sorted if the order does not matter (hands). */
static void names(Card *cards, int n, int sorted, char *out, size_t size) {
    static char each[CAP][8];
    char buf[8];
    for (int i = 0; i < n && i < CAP; i++) {
        strcpy(each[i], name(cards[i], buf));
    }
    if (sorted) {
        qsort(each, n, sizeof each[0], byName);
    }
    out[0] = '\0';
    for (int i = 0; i < n && strlen(out) + 6 < size; i++) {
        strcat(out, i ? " " : "");
        strcat(out, each[i]);
    }
}

static void checkCards(const char *what, const char *expected, Card *cards, int n, int sorted) {
    static char got[CAP * 5];
    names(cards, n, sorted, got, sizeof got);
    if (strcmp(expected, got) != 0) {
        fail(what, expected, got);
    }
}

'''
GOT = r'''/* A card the grader read: it also reads what the card looks like, as the grader does. */
static Card got(Card card) {
    if (card != NULL) {
        volatile int look = cardValue(card) + cardColor(card) + cardSuit(card);
        (void)look;
    }
    return card;
}

static int limit(int n) {
    return n < 0 ? 0 : n > CAP ? CAP : n;
}

'''
IN_HAND = r'''/* The card in the current hand that looks like this one; NULL if none (read by handCardCount). */
static Card inHand(Game game, value v, color c, suit s) {
    int n = handCardCount(game);
    for (int i = 0; i < limit(n); i++) {
        CALLING("handCard(%d) while looking for the card of move %d", i, moveNumber + 1);
        Card card = got(handCard(game, i));
        if (card != NULL && cardValue(card) == v && cardColor(card) == c && cardSuit(card) == s) {
            return card;
        }
    }
    return NULL;
}

'''
NO_SUCH_CARD = r'''static void noSuchCard(void) {
    printf("FAILED before move %d: the current player holds no such card to play\n", moveNumber + 1);
    exit(1);
}
'''
# The identity rule (A46; B3 in 2017), inside an edition's prelude after its ``seen`` (which defines
# ``SEEN_DECK_TOP``: getDeckCard(0) as last seen, or NULL where the edition shows no draw pile): ``remember``
# before each move, then the check of that move's kind where the test judges it.
IDENTITY = r'''/* The card played by the last move; the draw pile's top before it. */
static Card playedCard, deckTopBefore;
static int playerBefore;

static void remember(Card played) {
    playedCard = played;
    deckTopBefore = SEEN_DECK_TOP;
    playerBefore = seen.ints[I_current_player];
}

/* A card played must become the top discard itself, not a copy that looks like it. */
static void checkPlayedIsTop(void) {
    if (playedCard != NULL && !skipped[P_top_discard] && !skipped[P_hand] && seen.top != playedCard) {
        fail("topDiscard() is the very card that was played (the same Card pointer)",
             "the card that was played", "another Card (a copy?)");
    }
}

/* A card drawn must be the very card that was on top of the draw pile, now in the hand. */
static void checkDrawnInHand(void) {
    if (deckTopBefore == NULL || skipped[P_hand] || seen.ints[I_current_player] != playerBefore) {
        return;
    }
    for (int i = 0; i < seen.handCount; i++) {
        if (seen.hand[i] == deckTopBefore) {
            return;
        }
    }
    fail("the hand holds the very card drawn (the top of the draw pile before the draw, the same Card pointer)",
         "that card in the hand", "no card in the hand is that Card (a copy?)");
}

'''
# What a memory driver needs of it in any edition (``inHand`` and what it uses): no checks, no ``see``.
VALIDITY_OF = r'''static int validityOf(char labels[][8], int *results, int count, const char *label) {
    for (int i = 0; i < count; i++) {
        if (strcmp(labels[i], label) == 0) {
            return results[i];
        }
    }
    return -1;
}

'''

# The current hand read by its count (``count``, from handCardCount()), inside an edition's see().
SEE_HAND = r'''    seen.handCount = 0;
    if (!skip[P_hand] && !skip[P_hand_card_count]) {
        for (int i = 0; i < limit(count); i++) {
            CALLING("handCard(%d) with %d cards in hand", i, count);
            seen.hand[i] = got(handCard(game, i));
        }
        seen.handCount = limit(count);
    }
'''
# isValidMove of DRAW_CARD and END_TURN, inside an edition's see() (both editions ask them the same way).
VALID_DRAW_AND_END = r'''    if (!skip[P_valid_draw]) {
        CALLING("isValidMove(DRAW_CARD)");
        playerMove m = {DRAW_CARD, RED, NULL};
        seen.validDraw = isValidMove(game, m);
    }
    if (!skip[P_valid_end]) {
        CALLING("isValidMove(END_TURN)");
        playerMove m = {END_TURN, RED, NULL};
        seen.validEnd = isValidMove(game, m);
    }
'''

REPLAY_PRELUDE = INCLUDES + CALLING + GOT + IN_HAND


def checking_prelude(cap: int, defines: Sequence[str], seen: str) -> str:
    """``prelude`` for another edition's Game.h: the edition's ``defines`` (its probes, its ``skipped``), the
    checks (``fail``, ``checkInt``, ``checkCards`` ...), the edition's ``seen`` (its record of the grader's
    calls and the ``see`` that makes them), the identity checks, then ``inHand`` and ``noSuchCard``."""
    return "\n".join([f"#define HAND_CAP_VALUE {cap}", *defines,
                      INCLUDES + CALLING + CHECKS + GOT + seen + IDENTITY + IN_HAND + NO_SUCH_CARD])


def key_args(key: Sequence[int], values: Sequence[str] = C_VALUES) -> str:
    """``FIVE, RED, HEARTS``: a card's value, colour and suit as C arguments (``values``: the edition's names)."""
    v, c, s = key
    return f"{values[v]}, {C_COLORS[c]}, {C_SUITS[s]}"


def names(cards: Sequence[Sequence[int]], sort: bool) -> str:
    """The notation of observed cards, for a check's expected text."""
    names = [f"{c[0]:X}{COLOR_LETTERS[c[1]]}{SUIT_LETTERS[c[2]]}" for c in cards]
    return " ".join(sorted(names) if sort else names)


def replay_prelude(cap: int = HAND_CAP) -> str:
    """The edition-free part of ``prelude`` (``inHand`` and what it needs), for another edition's Game.h."""
    return "\n".join([f"#define HAND_CAP_VALUE {cap}", REPLAY_PRELUDE])


def deck_arrays(keys: Sequence[Sequence[int]], indent: str = "    ", suffix: str = "",
                const: bool = False, values: Sequence[str] = C_VALUES) -> list[str]:
    """The three arrays newGame takes (``values``, ``colors``, ``suits``, each name + ``suffix``), one line each;
    ``values``: the C names of the values in the edition's Card.h."""
    n, q = len(keys), "static const " if const else ""
    return [f"{indent}{q}value values{suffix}[{n}] = {{{', '.join(values[k[0]] for k in keys)}}};",
            f"{indent}{q}color colors{suffix}[{n}] = {{{', '.join(C_COLORS[k[1]] for k in keys)}}};",
            f"{indent}{q}suit suits{suffix}[{n}] = {{{', '.join(C_SUITS[k[2]] for k in keys)}}};"]


def _action(spec: WrittenMove) -> str:
    words: dict[int, str] = {Action.PLAY_CARD: "PLAY_CARD", Action.DRAW_CARD: "DRAW_CARD"}
    return words.get(spec.action, "END_TURN")


def _declared(spec: WrittenMove) -> str:
    return C_COLORS[int(spec.next_color)] if spec.next_color is not None else "RED"


def move_row(spec: WrittenMove, action: Callable[[WrittenMove], str] = _action,
             values: Sequence[str] = C_VALUES) -> str:
    """One move as data (``struct move``): action, the card's look, the colour declared, its notation
    (``action``: the C name of the move's action; ``values``: the C names of the values)."""
    key = spec.card_key if spec.card_key is not None else (0, 0, 0)
    return f"{{{action(spec)}, {key_args(key, values)}, {_declared(spec)}, {c_string(str(spec))}}}"


def move_declaration(spec: WrittenMove, action: Callable[[WrittenMove], str] = _action,
                     values: Sequence[str] = C_VALUES) -> str:
    """``playerMove m = {...};`` for one move; a card to play is looked up in the current hand
    (``inHand``: NULL when the current player holds no such card; ``action``, ``values``: as ``move_row``)."""
    if spec.card_key is not None and action(spec) == "PLAY_CARD":
        return f"playerMove m = {{PLAY_CARD, {_declared(spec)}, inHand(game, {key_args(spec.card_key, values)})}};"
    return f"playerMove m = {{{action(spec)}, RED, NULL}};"
