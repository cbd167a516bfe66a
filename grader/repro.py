"""Standalone C programs that replay a game and check it, for a student's own debugger.

``c_program`` turns a deck and moves (a hand-written scenario or a game shrunk
by Hypothesis) into one C file: it builds the deck arrays, calls newGame,
makes each move (finding the card in the current hand by value, colour and
suit), and after every move checks what the reference expects -- only the
observations the rules fix (lenient ones are left out) -- stopping at the
first difference with a message that names the rule.  It compiles against the
course headers and the student's own sources, nothing else:

    gcc -std=gnu11 -g -I. -o repro repro_x.c Game.c Card.c && ./repro
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Sequence

from reference import Action, Deck, MoveSpec
from reference.cards import COLOR_LETTERS, SUIT_LETTERS

from .reference_trace import Step, reference_trace

C_VALUES = ["ZERO", "ONE", "DRAW_TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
            "A", "B", "C", "D", "E", "F"]
C_COLORS = ["RED", "BLUE", "GREEN", "YELLOW", "PURPLE"]
C_SUITS = ["HEARTS", "DIAMONDS", "CLUBS", "SPADES", "QUESTIONS"]

INT_CHECKS = (  # observation -> C expression
    ("current_player", "currentPlayer(game)"),
    ("current_turn", "currentTurn(game)"),
    ("num_turns", "numTurns(game)"),
    ("current_turn_moves", "currentTurnMoves(game)"),
    ("previous_turn_player", "getPreviousTurnPlayer(game)"),
    ("hand_card_count", "handCardCount(game)"),
    ("top_discard_turn_number", "getTopDiscardTurnNumber(game)"),
    ("number_of_two_cards_at_top", "getNumberOfTwoCardsAtTop(game)"),
    ("active_draw_twos", "getActiveDrawTwos(game)"),
    ("current_color", "getCurrentColor(game)"),
)

PRELUDE = r'''
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "Game.h"

static int moveNumber = 0;

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

static void checkCard(const char *what, const char *expected, Card got) {
    char buf[8];
    if (strcmp(expected, name(got, buf)) != 0) {
        fail(what, expected, name(got, buf));
    }
}

/* The hand of player p as a sorted list of card names, e.g. "2RH 5GC 5GC". */
static void handOf(Game game, int p, char *out, size_t size) {
    char names[1000][4];
    int n = 0;
    Card card;
    while (n < 1000 && (card = getHandCard(game, p, n)) != NULL) {
        char buf[8];
        memcpy(names[n], name(card, buf), 4);
        n++;
    }
    qsort(names, n, 4, (int (*)(const void *, const void *))strcmp);
    out[0] = '\0';
    for (int i = 0; i < n && strlen(out) + 5 < size; i++) {
        strcat(out, i ? " " : "");
        strcat(out, names[i]);
    }
}

static void checkHand(Game game, int p, const char *expected) {
    char got[5000], what[64];
    handOf(game, p, got, sizeof got);
    snprintf(what, sizeof what, "the hand of player %d (getHandCard)", p);
    if (strcmp(expected, got) != 0) {
        fail(what, expected, got);
    }
}

/* The card in the current hand that looks like this one; NULL if none. */
static Card inHand(Game game, value v, color c, suit s) {
    for (int i = 0; i < handCardCount(game); i++) {
        Card card = handCard(game, i);
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


def _sorted_hand(cards: list[list[int]]) -> str:
    names = sorted(f"{c[0]:X}{COLOR_LETTERS[c[1]]}{SUIT_LETTERS[c[2]]}" for c in cards)
    return " ".join(names)


def _checks(step: Step) -> list[str]:
    obs, lenient = step.obs, step.lenient
    lines = []
    if not lenient.field_is_lenient("winner") and not lenient.winner_accepts:
        lines.append(f'checkInt("gameWinner()", {obs["winner"]}, gameWinner(game));')
    for name, call in INT_CHECKS:
        if not lenient.field_is_lenient(name):
            lines.append(f'checkInt("{call.replace("(game)", "()")}", {obs[name]}, {call});')
    if not lenient.field_is_lenient("top_discard") and obs["top_discard"]:
        top = obs["top_discard"]
        lines.append(f'checkCard("topDiscard()", "{top[0]:X}{COLOR_LETTERS[top[1]]}{SUIT_LETTERS[top[2]]}", '
                     f"topDiscard(game));")
    for p in range(4):
        if not lenient.field_is_lenient("card_counts"):
            lines.append(f'checkInt("playerCardCount({p})", {obs["card_counts"][p]}, playerCardCount(game, {p}));')
        if not lenient.field_is_lenient("points"):
            lines.append(f'checkInt("playerPoints({p})", {obs["points"][p]}, playerPoints(game, {p}));')
        if not lenient.field_is_lenient("hands"):
            lines.append(f'checkHand(game, {p}, "{_sorted_hand(obs["hands"][p])}");')
    for name, action in (("valid_draw", "DRAW_CARD"), ("valid_end", "END_TURN")):
        if not lenient.field_is_lenient(name):
            lines.append(f'{{ playerMove m = {{{action}, RED, NULL}}; checkBool("isValidMove({action})", '
                         f'{int(obs[name])}, isValidMove(game, m)); }}')
    for label, valid in obs["valid_play"].items():
        key = (int(label[0], 16), COLOR_LETTERS.index(label[1]), SUIT_LETTERS.index(label[2]))
        if lenient.play_is_lenient(key):
            continue
        declared = C_COLORS[COLOR_LETTERS.index(label[4])] if "/" in label else "RED"
        lines.append(f'checkBool("isValidMove(PLAY_CARD {label})", {int(valid)}, '
                     f"isValidMove(game, playing(game, {_key_args(key)}, {declared})));")
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
              *, steps: list[Step] | None = None, checks: bool = True, compile_hint: str = "") -> str:
    """The whole C file for one game."""
    steps = steps if steps is not None else reference_trace(deck, moves)
    keys = deck.keys
    out = [f"/* Replays {title}: {says}", f" * Rules: {', '.join(rules)}"]
    if compile_hint:
        out.append(f" * Build and run: {compile_hint}")
    out.append(" */")
    out.append(f"#define RULE {_c_string(', '.join(rules) + ': ' + says)}")
    out.append(PRELUDE)
    out.append("int main(void) {")
    out.append(f"    value values[{len(keys)}] = {{{', '.join(C_VALUES[k[0]] for k in keys)}}};")
    out.append(f"    color colors[{len(keys)}] = {{{', '.join(C_COLORS[k[1]] for k in keys)}}};")
    out.append(f"    suit suits[{len(keys)}] = {{{', '.join(C_SUITS[k[2]] for k in keys)}}};")
    out.append(f"    Game game = newGame({len(keys)}, values, colors, suits);")
    out.append('    if (game == NULL) { printf("FAILED: newGame returned NULL\\n"); return 1; }')
    for k, step in enumerate(steps):
        if k > 0:
            out.append(f"\n    /* move {k}: {moves[k - 1].describe()} ({moves[k - 1]}) */")
            out.append(f"    {_move(moves[k - 1])}")
            out.append(f"    moveNumber = {k};")
        if checks:
            out.extend("    " + line for line in _checks(step))
    out.append("\n    destroyGame(game);")
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
    from reference import Deck, parse_moves  # noqa: PLC0415

    from .loader import HEADERS, INCLUDE_DIR  # noqa: PLC0415

    written: dict[str, str] = {}
    for t in result.tests:
        if t.passed or t.hidden or not t.deck or t.outcome.value == "not run":
            continue
        name = "repro_" + t.id.replace("/", "_") + ".c"
        command = compile_command(name, sources)
        says = t.message.splitlines()[0] if t.message else t.id
        if says.startswith("Rule (") and "): " in says:
            says = says.split("): ", 1)[1]
        text = c_program(t.id, says, t.rules, Deck.parse(t.deck), parse_moves(t.moves), compile_hint=command)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
        written[t.id] = name
    if written:
        for header in HEADERS:
            shutil.copyfile(INCLUDE_DIR / header, folder / header)
        if course_card:  # the student has no Card.c: the course's one was used, so ship it
            shutil.copyfile(INCLUDE_DIR / "Card.c", folder / "Card.c")
        (folder / "README.txt").write_text(
            "Each repro_*.c replays one failing test and stops at the first difference.\n"
            "Copy your Game.c and Card.c here (or add -I to this folder from yours), then:\n\n"
            + "\n".join(compile_command(n, sources) for n in written.values()) + "\n")
    return written


__all__ = ["c_program", "compile_command", "write_repros"]
