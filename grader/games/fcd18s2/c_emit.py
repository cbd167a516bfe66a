"""One C emitter for every program the grader writes (repro programs, the memory driver).

The C spelling of cards, decks and moves, and the helpers every generated
program starts with (``prelude``): ``see()`` makes the grader's calls after a
move in the grader's order (it mirrors ``grader.games.fcd18s2.observe.Observer``),
``CALLING`` records the call in progress, ``inHand`` finds a move's card in the
current hand by value, colour and suit.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from grader.core.native import c_string
from grader.games.fcd18s2.observations import ORDER
from grader.games.fcd18s2.observe import FOREIGN_PROBES, HAND_CAP, INT_PROBES
from reference import Action
from reference.cards import COLOR_LETTERS, SUIT_LETTERS

C_VALUES = ["ZERO", "ONE", "DRAW_TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
            "A", "B", "C", "D", "E", "F"]
C_COLORS = ["RED", "BLUE", "GREEN", "YELLOW", "PURPLE"]
C_SUITS = ["HEARTS", "DIAMONDS", "CLUBS", "SPADES", "QUESTIONS"]

_INCLUDES = r'''
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "Game.h"

'''
_INT_FUNCTIONS = r'''static int (*const intFunctions[INT_PROBES])(Game) = {INT_FUNCTIONS};

'''
_CALLING = r'''#define CAP HAND_CAP_VALUE
static int moveNumber = 0;
static char inCall[160] = "newGame(...)";
#define CALLING(...) snprintf(inCall, sizeof inCall, __VA_ARGS__)

'''
_CHECKS = r'''static void crashed(int sig) {
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
_SEEN = r'''/* What the grader saw after each move: every call it made, in the same order. */
static struct {
    int ints[INT_PROBES];
    Card top;
    int handCount;
    Card hand[CAP];
    int handEndNull;
    int counts[4], points[4];
    Card hands[4][CAP];
    int handSizes[4];
    Card deck[CAP], discard[CAP];
    char playLabel[5 * CAP][8];
    int playValid[5 * CAP], plays;
    char foreignLabel[5 * 4][8];
    int foreignValid[5 * 4], foreigns;
    int validDraw, validEnd;
} seen;

'''
_GOT = r'''/* A card the grader read: it also reads what the card looks like, as the grader does. */
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
_SEE = r'''static int sameLook(Card a, Card b) {
    return cardValue(a) == cardValue(b) && cardColor(a) == cardColor(b) && cardSuit(a) == cardSuit(b);
}

static int tryPlay(Game game, Card card, int declared, char labels[][8], int *results, int *count,
                   const char *who, int first) {
    char buf[8];
    char label[8];
    snprintf(label, sizeof label, cardValue(card) == D ? "%s/%c" : "%s", name(card, buf), "RBGYP"[declared]);
    CALLING("isValidMove(PLAY_CARD %s) for %s", label, who);
    playerMove m = {PLAY_CARD, (color)declared, card};
    int valid = isValidMove(game, m);
    for (int i = 0; i < *count; i++) {
        if (strcmp(labels[i], label) == 0) {
            return 0;
        }
    }
    if (first) {
        strcpy(labels[*count], label);
        results[*count] = valid;
        (*count)++;
    }
    return 0;
}

static int validityOf(char labels[][8], int *results, int count, const char *label) {
    for (int i = 0; i < count; i++) {
        if (strcmp(labels[i], label) == 0) {
            return results[i];
        }
    }
    return -1;
}

static void see(Game game, int deckDepth, int discardDepth, const int *skip) {
    for (int i = 0; i < INT_PROBES; i++) {
        if (!skip[INT_PROBE(i)]) {
            CALLING("%s", intCalls[i]);
            seen.ints[i] = intFunctions[i](game);
        }
    }
    if (!skip[P_top_discard]) {
        CALLING("topDiscard()");
        seen.top = got(topDiscard(game));
    }
    int count = seen.ints[I_hand_card_count];
    seen.handCount = 0;
    if (!skip[P_hand] && !skip[P_hand_card_count]) {
        for (int i = 0; i < limit(count); i++) {
            CALLING("handCard(%d) with %d cards in hand", i, count);
            seen.hand[i] = got(handCard(game, i));
        }
        seen.handCount = limit(count);
    }
    if (!skip[P_hand_end_null] && !skip[P_hand_card_count]) {
        CALLING("handCard(%d) with %d cards in hand", count, count);
        seen.handEndNull = count >= 0 && count <= CAP && got(handCard(game, count)) == NULL;
    }
    for (int p = 0; p < 4 && !skip[P_card_counts]; p++) {
        CALLING("playerCardCount(%d)", p);
        seen.counts[p] = playerCardCount(game, p);
    }
    for (int p = 0; p < 4 && !skip[P_points]; p++) {
        CALLING("playerPoints(%d)", p);
        seen.points[p] = playerPoints(game, p);
    }
    for (int p = 0; p < 4 && !skip[P_hands] && !skip[P_card_counts]; p++) {
        seen.handSizes[p] = limit(seen.counts[p]);
        for (int i = 0; i < seen.handSizes[p]; i++) {
            CALLING("getHandCard(%d, %d)", p, i);
            seen.hands[p][i] = got(getHandCard(game, p, i));
        }
    }
    for (int i = 0; i < deckDepth && !skip[P_deck_pile]; i++) {
        CALLING("getDeckCard(%d)", i);
        seen.deck[i] = got(getDeckCard(game, i));
    }
    for (int i = 0; i < discardDepth && !skip[P_discard_pile]; i++) {
        CALLING("getDiscardPileCard(%d)", i);
        seen.discard[i] = got(getDiscardPileCard(game, i));
    }
    seen.plays = seen.foreigns = 0;
    if (!skip[P_valid_play] && !skip[P_hand] && !skip[P_hand_card_count]) {
        for (int i = 0; i < seen.handCount; i++) {
            Card card = seen.hand[i];
            if (card == NULL) {
                continue;
            }
            for (int col = 0; col < (cardValue(card) == D ? 5 : 1); col++) {
                tryPlay(game, card, col, seen.playLabel, seen.playValid, &seen.plays, "the current player", 1);
            }
        }
    }
    if (!skip[P_valid_foreign] && !skip[P_current_player]) {
        int found = 0;
        for (int p = 0; p < 4 && found < FOREIGN; p++) {
            if (p == seen.ints[I_current_player]) {
                continue;
            }
            CALLING("playerCardCount(%d)", p);
            if (playerCardCount(game, p) <= 0) {
                continue;
            }
            CALLING("getHandCard(%d, 0)", p);
            Card card = got(getHandCard(game, p, 0));
            int twin = 0;
            for (int i = 0; card != NULL && i < seen.handCount; i++) {
                twin |= seen.hand[i] != NULL && sameLook(seen.hand[i], card);
            }
            if (card == NULL || twin) {
                continue;
            }
            found++;
            char who[32];
            snprintf(who, sizeof who, "player %d's card", p);
            for (int col = 0; col < (cardValue(card) == D ? 5 : 1); col++) {
                tryPlay(game, card, col, seen.foreignLabel, seen.foreignValid, &seen.foreigns, who, 1);
            }
        }
    }
    if (!skip[P_valid_draw]) {
        CALLING("isValidMove(DRAW_CARD)");
        playerMove m = {DRAW_CARD, RED, NULL};
        seen.validDraw = isValidMove(game, m);
    }
    if (!skip[P_valid_end]) {
        CALLING("isValidMove(END_TURN)");
        playerMove m = {END_TURN, RED, NULL};
        seen.validEnd = isValidMove(game, m);
    }
}

'''
_IN_HAND = r'''/* The card in the current hand that looks like this one; NULL if none (read by handCardCount). */
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
_NO_SUCH_CARD = r'''static void noSuchCard(void) {
    printf("FAILED before move %d: the current player holds no such card to play\n", moveNumber + 1);
    exit(1);
}
'''
PRELUDE = _INCLUDES + _INT_FUNCTIONS + _CALLING + _CHECKS + _SEEN + _GOT + _SEE + _IN_HAND + _NO_SUCH_CARD
# What a memory driver needs of it in any edition (``inHand`` and what it uses): no checks, no ``see``.
REPLAY_PRELUDE = _INCLUDES + _CALLING + _GOT + _IN_HAND


def checking_prelude(cap: int, defines: Sequence[str], seen: str) -> str:
    """``prelude`` for another edition's Game.h: the edition's ``defines`` (its probes, its ``skipped``), the
    checks (``fail``, ``checkInt``, ``checkCards`` ...), the edition's ``seen`` (its record of the grader's
    calls and the ``see`` that makes them), then ``inHand`` and ``noSuchCard``."""
    return "\n".join([f"#define HAND_CAP_VALUE {cap}", *defines,
                      _INCLUDES + _CALLING + _CHECKS + _GOT + seen + _IN_HAND + _NO_SUCH_CARD])


def key_args(key: Sequence[int], values: Sequence[str] = C_VALUES) -> str:
    """``FIVE, RED, HEARTS``: a card's value, colour and suit as C arguments (``values``: the edition's names)."""
    v, c, s = key
    return f"{values[v]}, {C_COLORS[c]}, {C_SUITS[s]}"


def names(cards: list[list[int]], sort: bool) -> str:
    """The notation of observed cards, for a check's expected text."""
    names = [f"{c[0]:X}{COLOR_LETTERS[c[1]]}{SUIT_LETTERS[c[2]]}" for c in cards]
    return " ".join(sorted(names) if sort else names)


def _probe_defines(skipped: Sequence[str]) -> list[str]:
    out = [f"#define P_{name} {i}" for i, name in enumerate(ORDER)]
    # The int queries, in the grader's order (``observe.INT_PROBES``, from the observation table).
    out.append(f"#define INT_PROBES {len(INT_PROBES)}")
    out.extend(f"#define I_{name} {i}" for i, (name, _c, _m) in enumerate(INT_PROBES))
    ints = ", ".join(f"P_{name}" for name, _c, _m in INT_PROBES)
    out.append(f"static const int intProbes[INT_PROBES] = {{{ints}}};")
    out.append("#define INT_PROBE(i) intProbes[i]")
    calls = ", ".join(f'"{c}()"' for _n, c, _m in INT_PROBES)
    out.append(f"static const char *const intCalls[INT_PROBES] = {{{calls}}};")
    out.append(f"#define INT_FUNCTIONS {', '.join(c for _n, c, _m in INT_PROBES)}")
    out.append(f"#define FOREIGN {FOREIGN_PROBES}")
    flags = ", ".join("1" if name in skipped else "0" for name in ORDER)
    out.append(f"static const int skipped[{len(ORDER)}] = {{{flags}}};")
    return out


def prelude(cap: int = HAND_CAP, skipped: Sequence[str] = ()) -> str:
    """The C helpers every generated program starts with (repro and the memory driver)."""
    return "\n".join([f"#define HAND_CAP_VALUE {cap}", *_probe_defines(skipped), PRELUDE])


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


def _action(spec: Any) -> str:
    return {Action.PLAY_CARD: "PLAY_CARD", Action.DRAW_CARD: "DRAW_CARD"}.get(spec.action, "END_TURN")


def _declared(spec: Any) -> str:
    return C_COLORS[int(spec.next_color)] if spec.next_color is not None else "RED"


def move_row(spec: Any, action: Callable[[Any], str] = _action, values: Sequence[str] = C_VALUES) -> str:
    """One move as data (``struct move``): action, the card's look, the colour declared, its notation
    (``action``: the C name of the move's action; ``values``: the C names of the values)."""
    key = spec.card_key if spec.card_key is not None else (0, 0, 0)
    return f"{{{action(spec)}, {key_args(key, values)}, {_declared(spec)}, {c_string(str(spec))}}}"


def move_declaration(spec: Any, action: Callable[[Any], str] = _action, values: Sequence[str] = C_VALUES) -> str:
    """``playerMove m = {...};`` for one move; a card to play is looked up in the current hand
    (``inHand``: NULL when the current player holds no such card; ``action``, ``values``: as ``move_row``)."""
    if spec.card_key is not None and action(spec) == "PLAY_CARD":
        return f"playerMove m = {{PLAY_CARD, {_declared(spec)}, inHand(game, {key_args(spec.card_key, values)})}};"
    return f"playerMove m = {{{action(spec)}, RED, NULL}};"
