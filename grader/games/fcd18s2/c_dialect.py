"""The 2018 C dialect: the probes' numbers and ``see()``, which makes the grader's calls after a move in
the 2018 observer's order (it mirrors ``grader.games.fcd18s2.sandbox.observe.Observer``), on the family's C
helpers (``grader.games.fcd.c_emit``); the repro programs and the memory driver start with ``prelude``."""

from __future__ import annotations

from typing import Sequence

from grader.games.fcd.c_emit import (
    CALLING,
    CHECKS,
    GOT,
    IDENTITY,
    IN_HAND,
    INCLUDES,
    NO_SUCH_CARD,
    SEE_HAND,
    VALID_DRAW_AND_END,
    VALIDITY_OF,
)
from grader.games.fcd.sandbox.observe import FOREIGN_PROBES, HAND_CAP
from grader.games.fcd18s2.observations import ORDER
from grader.games.fcd18s2.sandbox.observe import INT_PROBES

INT_FUNCTIONS_C = r'''static int (*const intFunctions[INT_PROBES])(Game) = {INT_FUNCTIONS};

'''
SEEN = r'''/* What the grader saw after each move: every call it made, in the same order. */
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
    int deckCount;  /* how deep the draw pile was read */
    char playLabel[5 * CAP][8];
    int playValid[5 * CAP], plays;
    char foreignLabel[5 * 4][8];
    int foreignValid[5 * 4], foreigns;
    int validDraw, validEnd;
} seen;
#define SEEN_DECK_TOP (seen.deckCount > 0 ? seen.deck[0] : NULL)

'''
SEE_PLAYS = r'''static int sameLook(Card a, Card b) {
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

'''
SEE_STATE = r'''static void see(Game game, int deckDepth, int discardDepth, const int *skip) {
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
    SEE_HAND
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
    seen.deckCount = skip[P_deck_pile] ? 0 : deckDepth;
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
    VALID_DRAW_AND_END
}

'''
PRELUDE = (INCLUDES + INT_FUNCTIONS_C + CALLING + CHECKS + SEEN + IDENTITY + GOT + SEE_PLAYS + VALIDITY_OF
           + SEE_STATE.replace("    VALID_DRAW_AND_END\n", VALID_DRAW_AND_END).replace("    SEE_HAND\n", SEE_HAND)
           + IN_HAND + NO_SUCH_CARD)


def probe_defines(skipped: Sequence[str]) -> list[str]:
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
    return "\n".join([f"#define HAND_CAP_VALUE {cap}", *probe_defines(skipped), PRELUDE])
