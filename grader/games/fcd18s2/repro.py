"""Standalone C programs that replay a game and check it, for a student's own debugger.

``c_program`` turns a deck and moves (a scenario, or a random game cut after
its first difference) into one C file: it builds the deck arrays, calls
newGame, makes each move (finding the card in the current hand by value,
colour and suit), and after every move makes the very calls the grader made,
in the same order (``see()`` mirrors ``grader.games.fcd18s2.observe.Observer``), so a crash
happens in the same call, which it names.  It then checks what the test
judged: the observations of the test's focus that the rules fix (lenient ones
are left out), stopping at the first difference with a message that names the
rule.  It compiles against the course headers and the student's own sources:

    gcc -std=gnu11 -g -I. -o repro repro_x.c Game.c Card.c && ./repro
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Sequence

from grader.games.fcd18s2.focus import EVERYTHING, Focus
from grader.games.fcd18s2.observations import ORDER, VALIDITY
from grader.games.fcd18s2.observe import FOREIGN_PROBES, HAND_CAP, INT_PROBES
from grader.games.fcd18s2.reference_trace import Step, reference_trace
from reference import Action, Deck, MoveSpec
from reference.cards import COLOR_LETTERS, SUIT_LETTERS

C_VALUES = ["ZERO", "ONE", "DRAW_TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
            "A", "B", "C", "D", "E", "F"]
C_COLORS = ["RED", "BLUE", "GREEN", "YELLOW", "PURPLE"]
C_SUITS = ["HEARTS", "DIAMONDS", "CLUBS", "SPADES", "QUESTIONS"]

PRELUDE = r'''
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "Game.h"

#define CAP HAND_CAP_VALUE
static int moveNumber = 0;
static char inCall[160] = "newGame(...)";
#define CALLING(...) snprintf(inCall, sizeof inCall, __VA_ARGS__)

static void crashed(int sig) {
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

/* What the grader saw after each move: every call it made, in the same order. */
static struct {
    int ints[11];
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

/* A card the grader read: it also reads what the card looks like, as the grader does. */
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

static int sameLook(Card a, Card b) {
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
    static const char *calls[11] = {"currentPlayer()", "currentTurn()", "numTurns()", "currentTurnMoves()",
        "getPreviousTurnPlayer()", "getTopDiscardTurnNumber()", "getNumberOfTwoCardsAtTop()",
        "getActiveDrawTwos()", "getCurrentColor()", "handCardCount()", "gameWinner()"};
    int (*fns[11])(Game) = {currentPlayer, currentTurn, numTurns, currentTurnMoves, getPreviousTurnPlayer,
        getTopDiscardTurnNumber, getNumberOfTwoCardsAtTop, getActiveDrawTwos, getCurrentColor, handCardCount,
        gameWinner};
    for (int i = 0; i < 11; i++) {
        if (!skip[INT_PROBE(i)]) {
            CALLING("%s", calls[i]);
            seen.ints[i] = fns[i](game);
        }
    }
    if (!skip[P_top_discard]) {
        CALLING("topDiscard()");
        seen.top = got(topDiscard(game));
    }
    int count = seen.ints[9];
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
            if (p == seen.ints[0]) {
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

/* The card in the current hand that looks like this one; NULL if none (read by handCardCount). */
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

static playerMove playing(Game game, value v, color c, suit s, color declared) {
    playerMove move = {PLAY_CARD, declared, inHand(game, v, c, s)};
    if (move.card == NULL) {
        printf("FAILED before move %d: the current player holds no such card to play\n", moveNumber + 1);
        exit(1);
    }
    return move;
}
'''


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _key_args(key: Sequence[int]) -> str:
    v, c, s = key
    return f"{C_VALUES[v]}, {C_COLORS[c]}, {C_SUITS[s]}"


def _names(cards: list[list[int]], sort: bool) -> str:
    names = [f"{c[0]:X}{COLOR_LETTERS[c[1]]}{SUIT_LETTERS[c[2]]}" for c in cards]
    return " ".join(sorted(names) if sort else names)


def _probe_defines(skipped: Sequence[str]) -> list[str]:
    out = [f"#define P_{name} {i}" for i, name in enumerate(ORDER)]
    ints = ", ".join(f"P_{name}" for name, _c, _m in INT_PROBES)
    out.append(f"static const int intProbes[11] = {{{ints}}};")
    out.append("#define INT_PROBE(i) intProbes[i]")
    out.append(f"#define FOREIGN {FOREIGN_PROBES}")
    flags = ", ".join("1" if name in skipped else "0" for name in ORDER)
    out.append(f"static const int skipped[{len(ORDER)}] = {{{flags}}};")
    return out


def prelude(cap: int = HAND_CAP, skipped: Sequence[str] = ()) -> str:
    """The C helpers every generated program starts with (repro and the memory driver)."""
    return "\n".join([f"#define HAND_CAP_VALUE {cap}", *_probe_defines(skipped), PRELUDE])


def _checks(k: int, step: Step, judged: set[str]) -> list[str]:
    """C checks of what the test judged at step ``k`` (see ``c_program``)."""
    obs, lenient = step.obs, step.lenient
    lines = []
    want = [n for n in ORDER if n in judged and n in obs and not lenient.field_is_lenient(n)]
    for i, (name, call, _m) in enumerate(INT_PROBES):
        if name in want and not (name == "winner" and lenient.winner_accepts):
            lines.append(f'checkInt("{call}()", {obs[name]}, seen.ints[{i}]);')
    if "top_discard" in want and obs["top_discard"]:
        lines.append(f'checkCards("topDiscard()", "{_names([obs["top_discard"]], False)}", &seen.top, 1, 0);')
    if "hand" in want:
        lines.append(f'checkCards("the current hand (handCard)", "{_names(obs["hand"], True)}", seen.hand, '
                     f"seen.handCount, 1);")
    if "hand_end_null" in want:
        lines.append(f'checkBool("handCard(handCardCount()) == NULL", {int(obs["hand_end_null"])}, seen.handEndNull);')
    for p in range(4):
        if "card_counts" in want:
            lines.append(f'checkInt("playerCardCount({p})", {obs["card_counts"][p]}, seen.counts[{p}]);')
        if "points" in want:
            lines.append(f'checkInt("playerPoints({p})", {obs["points"][p]}, seen.points[{p}]);')
        if "hands" in want:
            lines.append(f'checkCards("the hand of player {p} (getHandCard)", "{_names(obs["hands"][p], True)}", '
                         f"seen.hands[{p}], seen.handSizes[{p}], 1);")
    for name, array in (("deck_pile", "seen.deck"), ("discard_pile", "seen.discard")):
        if name in want:
            call = "getDeckCard(n)" if name == "deck_pile" else "getDiscardPileCard(n)"
            lines.append(f'checkCards("{call}, n = 0, 1, ...", "{_names(obs[name], False)}", {array}, '
                         f"{len(obs[name])}, 0);")
    for name, field in (("valid_draw", "validDraw"), ("valid_end", "validEnd")):
        if name in want:
            action = "DRAW_CARD" if name == "valid_draw" else "END_TURN"
            lines.append(f'checkBool("isValidMove({action})", {int(obs[name])}, seen.{field});')
    for name, labels in (("valid_play", "Play"), ("valid_foreign", "Foreign")):
        if name not in judged:
            continue
        for label, valid in obs[name].items():
            key = (int(label[0], 16), COLOR_LETTERS.index(label[1]), SUIT_LETTERS.index(label[2]))
            if name == "valid_play" and lenient.play_is_lenient(key):
                continue
            if name == "valid_foreign" and lenient.field_is_lenient(name):
                continue
            lines.append(f'{{ int v = validityOf(seen.{labels.lower()}Label, seen.{labels.lower()}Valid, '
                         f'seen.{labels.lower()}s, "{label}"); if (v >= 0) checkBool("isValidMove(PLAY_CARD '
                         f'{label})", {int(valid)}, v); }}')
    if k == 0:
        for name, call, n in (("num_cards", "numCards", 0), ("num_of_suit", "numOfSuit", 5),
                              ("num_of_color", "numOfColor", 5), ("num_of_value", "numOfValue", 16)):
            if name in judged and name in obs:
                if n == 0:
                    lines.append(f'CALLING("numCards()"); checkInt("numCards()", {obs[name]}, numCards(game));')
                else:
                    for i in range(n):
                        lines.append(f'CALLING("{call}({i})"); checkInt("{call}({i})", {obs[name][i]}, '
                                     f"{call}(game, {i}));")
    return lines


def _move(spec: MoveSpec) -> str:
    if spec.action == Action.DRAW_CARD:
        return "{ playerMove m = {DRAW_CARD, RED, NULL}; playMove(game, m); }"
    if spec.action == Action.END_TURN:
        return "{ playerMove m = {END_TURN, RED, NULL}; playMove(game, m); }"
    declared = C_COLORS[int(spec.next_color)] if spec.next_color is not None else "RED"
    assert spec.card_key is not None
    return f"playMove(game, playing(game, {_key_args(spec.card_key)}, {declared}));"


def c_program(title: str, says: str, rules: Sequence[str], deck: Deck, moves: Sequence[MoveSpec],
              *, steps: list[Step] | None = None, checks: bool = True, compile_hint: str = "",
              focus: Focus = EVERYTHING, skipped: Sequence[str] = (), fails_on: str = "") -> str:
    """The whole C file for one game.

    After each move it makes every call the grader made (``skipped`` probes left
    out, as the grader left them out), then checks the observations this test
    judged there: those of its ``focus`` that it has judged since newGame (an
    observation it took up later may rightly differ from before), and ``fails_on``,
    what the test failed on.
    """
    steps = steps if steps is not None else reference_trace(deck, moves)
    keys = deck.keys
    out = [f"/* Replays {title}: {says}", f" * Rules: {', '.join(rules)}"]
    if compile_hint:
        out.append(f" * Build and run: {compile_hint}")
    out.append(" */")
    out.append(f"#define RULE {_c_string(', '.join(rules) + ': ' + says)}")
    out.append(prelude(min(len(keys) + 1, HAND_CAP), skipped))
    out.append("int main(void) {")
    out.append("    signal(SIGSEGV, crashed); signal(SIGABRT, crashed); signal(SIGFPE, crashed); "
               "signal(SIGBUS, crashed);")
    out.append(f"    value values[{len(keys)}] = {{{', '.join(C_VALUES[k[0]] for k in keys)}}};")
    out.append(f"    color colors[{len(keys)}] = {{{', '.join(C_COLORS[k[1]] for k in keys)}}};")
    out.append(f"    suit suits[{len(keys)}] = {{{', '.join(C_SUITS[k[2]] for k in keys)}}};")
    out.append(f"    Game game = newGame({len(keys)}, values, colors, suits);")
    out.append('    if (game == NULL) { printf("FAILED: newGame returned NULL\\n"); return 1; }')
    held: set[str] | None = None  # state observations judged at every step so far (none has differed unseen)
    for k, step in enumerate(steps):
        if k > 0:
            out.append(f"\n    /* move {k}: {moves[k - 1].describe()} ({moves[k - 1]}) */")
            out.append(f'    CALLING("playMove({moves[k - 1]})");')
            out.append(f"    {_move(moves[k - 1])}")
            out.append(f"    moveNumber = {k};")
        covered = {n for n in focus.names() if focus.covers(n, k, step.obs)}
        held = covered if held is None else held & covered
        out.append(f"    see(game, {step.depths[0]}, {step.depths[1]}, skipped);")
        if checks:
            judged = (held | (covered & set(VALIDITY)) | ({fails_on} if fails_on else set())) - set(skipped)
            out.extend("    " + line for line in _checks(k, step, judged))
    out.append('\n    CALLING("destroyGame()");')
    out.append("    destroyGame(game);")
    out.append(f'    printf("All checks passed ({len(moves)} moves).\\n");')
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


def compile_command(repro: str, sources: Sequence[str]) -> str:
    return f"gcc -std=gnu11 -g -I. -o repro {repro} {' '.join(sources)} && ./repro"


def write_repros(result: Any, folder: Path, sources: Sequence[str], course_card: bool = False) -> dict[str, str]:
    """A repro program for every failing, visible test that played a game; test id -> file name.

    ``folder`` gets the course headers too, so the printed command works when the
    student copies their .c files next to the repro (or runs it from their folder
    with -I pointing here).
    """
    from grader.games.fcd18s2.focus import focus_of  # noqa: PLC0415
    from grader.games.fcd18s2.loader import COURSE_HEADERS, INCLUDE_DIR  # noqa: PLC0415
    from grader.games.fcd18s2.scenarios import load_scenarios  # noqa: PLC0415
    from reference import Deck, parse_moves  # noqa: PLC0415

    scenarios = {s.id: s for s in load_scenarios()}
    written: dict[str, str] = {}
    for t in result.tests:
        if t.verdict.family != "fail" or t.hidden or not t.deck:
            continue
        sc = scenarios.get(t.id)
        focus = focus_of(sc.rules) if sc is not None and t.kind == "scenario" else EVERYTHING
        name = "repro_" + t.id.replace("/", "_") + ".c"
        command = compile_command(name, sources)
        says = t.message.splitlines()[0] if t.message else t.id
        if says.startswith("Rule (") and "): " in says:
            says = says.split("): ", 1)[1]
        text = c_program(t.id, says, t.rules, Deck.parse(t.deck), parse_moves(t.moves), compile_hint=command,
                         focus=focus, skipped=t.skipped_probes, fails_on=t.failed_on)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
        written[t.id] = name
    if written:
        for header in COURSE_HEADERS:
            shutil.copyfile(INCLUDE_DIR / header, folder / header)
        if course_card:  # the student has no Card.c: the course's one was used, so ship it
            shutil.copyfile(INCLUDE_DIR / "Card.c", folder / "Card.c")
        (folder / "README.txt").write_text(
            "Each repro_*.c replays one failing test and stops at the first difference.\n"
            "Copy your Game.c and Card.c here (or add -I to this folder from yours), then:\n\n"
            + "\n".join(compile_command(n, sources) for n in written.values()) + "\n")
    return written


__all__ = ["c_program", "compile_command", "prelude", "write_repros"]
