"""The 2017 edition's repro programs: the 2018 generator (``grader.games.fcd.repro``) in 2017's C.

The same program (the deck, newGame, each move with its card found in the
current hand by look, the grader's calls after every move in the grader's
order, the checks of what the test judged, the first difference naming the
rule); what differs is the ``ReproDialect``: 2017's names of the values and
actions (the three words SAY_UNO, SAY_DUO, SAY_TRIO; END_TURN is 5), and
``see()``, which mirrors the 2017 observer (``grader.games.fcd17s2.sandbox.observe.Observer``):
the int queries, turnMoves of the current turn, the history of the previous
turn and of this one (turnMoves, pastMove and the card of each move), the top
discard, handCardCount and the hand below it (no NULL past its end), the
players' counts and points, and isValidMove for every card in hand (a DECLARE
with every colour), the first card of each other hand as last seen, a draw,
END_TURN and the three words.  The checks compare the history as the report
prints it (``previous turn: ...; this turn: ...``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Callable, Sequence, cast

from grader.core.results import SubmissionResult
from grader.games.fcd import repro as family
from grader.games.fcd.c_emit import (
    SEE_HAND,
    VALID_DRAW_AND_END,
    VALIDITY_OF,
    checking_prelude,
    deck_arrays,
    move_declaration,
    names,
)
from grader.games.fcd.compare import History, history_text
from grader.games.fcd.edition import WrittenMove
from grader.games.fcd.focus import Focus, everything, focus_of
from grader.games.fcd.reference_trace import Step, reference_trace
from grader.games.fcd.repro import ReproDialect, answer_checks, deck_count_checks, make_move
from grader.games.fcd.sandbox.observe import HAND_CAP, CardObs
from grader.games.fcd.scenarios import Scenario
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd17s2.memcheck import C_VALUES, c_action
from grader.games.fcd17s2.observations import ORDER, TABLE
from grader.games.fcd17s2.sandbox.observe import DECK_COUNT_PROBES, INT_PROBES, MOVES_CAP, SAY_LABELS

SAY_CALLS = {label: f"SAY_{label.upper()}" for label in SAY_LABELS}  # "uno" -> SAY_UNO, in the observer's order


def _defines(skipped: Sequence[str]) -> list[str]:
    out = [f"#define P_{name} {i}" for i, name in enumerate(ORDER)]
    out.append(f"#define INT_PROBES {len(INT_PROBES)}")
    out.extend(f"#define I_{name} {i}" for i, (name, _c, _m) in enumerate(INT_PROBES))
    out.append(f"#define MOVES_CAP {MOVES_CAP}")
    flags = ", ".join("1" if name in skipped else "0" for name in ORDER)
    out.append(f"static const int skipped[{len(ORDER)}] = {{{flags}}};")
    return out


def _see() -> str:
    ints = "\n".join(f'    if (!skip[P_{name}]) {{\n        CALLING("{call}()");\n'
                     f"        seen.ints[I_{name}] = (int){call}(game);\n    }}" for name, call, _m in INT_PROBES)
    says = ", ".join(SAY_CALLS.values())
    return (SEE.replace("    INT_QUERIES\n", ints + "\n").replace("SAY_ACTIONS", says)
            .replace("VALIDITY_OF\n", VALIDITY_OF).replace("    VALID_DRAW_AND_END\n", VALID_DRAW_AND_END)
            .replace("    SEE_HAND\n", SEE_HAND))


SEE = r'''/* What the grader saw after each move: every call it made, in the same order. */
static struct {
    int ints[INT_PROBES];
    int turnMoves;
    char moves[2][MOVES_CAP][16];  /* the previous turn's moves and this turn's, in the notation */
    int moveCounts[2];
    Card top;
    int handCardCount;
    int handCount;
    Card hand[CAP];
    int counts[4], points[4];
    char playLabel[5 * CAP][8];
    int playValid[5 * CAP], plays;
    char foreignLabel[5 * 4][8];
    int foreignValid[5 * 4], foreigns;
    int validDraw, validEnd, validSay[3];
} seen;
#define SEEN_DECK_TOP NULL  /* 2017 shows no draw pile: a draw's identity is not observed */
static Card firstCards[4];  /* card 0 of each hand, the last time its owner was current */
static int hasFirst[4];

/* A move of the history in the notation (5RH, DRH/B, draw, uno, end). */
static void moveLabel(playerMove m, Card card, char *out) {
    static const char *const words[] = {"draw", "", "uno", "duo", "trio", "end"};
    char buf[8];
    if (m.action != PLAY_CARD) {
        if ((int)m.action >= 0 && (int)m.action <= END_TURN) {
            strcpy(out, words[m.action]);
        } else {
            snprintf(out, 16, "<action %d>", (int)m.action);
        }
    } else if (card == NULL) {
        strcpy(out, "<no card>");
    } else {
        strcpy(out, name(card, buf));
        if (cardValue(card) == DECLARE) {
            int c = (int)m.nextColor;
            snprintf(out + 3, 13, "/%c", c >= 0 && c < 5 ? "RBGYP"[c] : '?');
        }
    }
}

/* The history as the grader prints it; only the DECLAREs with their colours if declarations. */
static void historyText(int declarations, char *out, size_t size) {
    static const char *const heads[] = {"previous turn: ", "; this turn: "};
    out[0] = '\0';
    for (int t = 0; t < 2; t++) {
        strncat(out, heads[t], size - strlen(out) - 1);
        int any = 0;
        for (int i = 0; i < seen.moveCounts[t]; i++) {
            const char *m = seen.moves[t][i];
            if (declarations && !(m[0] == 'D' && strchr(m, '/') != NULL)) {
                continue;
            }
            strncat(out, any ? " " : "", size - strlen(out) - 1);
            strncat(out, m, size - strlen(out) - 1);
            any = 1;
        }
        strncat(out, any ? "" : "(none)", size - strlen(out) - 1);
    }
}

static void checkHistory(const char *what, const char *expected, int declarations) {
    static char got[MOVES_CAP * 2 * 16 + 64];
    historyText(declarations, got, sizeof got);
    if (strcmp(expected, got) != 0) {
        fail(what, expected, got);
    }
}

/* isValidMove of PLAY_CARD with this card (a DECLARE with each colour), as the grader tries it. */
static void tryPlays(Game game, Card card, char labels[][8], int *results, int *count, int once, const char *who) {
    char buf[8];
    for (int col = 0; col < (cardValue(card) == DECLARE ? 5 : 1); col++) {
        char label[8];
        snprintf(label, sizeof label, cardValue(card) == DECLARE ? "%s/%c" : "%s", name(card, buf), "RBGYP"[col]);
        int known = 0;
        for (int i = 0; i < *count; i++) {
            known |= strcmp(labels[i], label) == 0;
        }
        if (known && once) {
            continue;  /* the grader asks once per label of the current hand */
        }
        CALLING("isValidMove(PLAY_CARD %s) for %s", label, who);
        playerMove m = {PLAY_CARD, (color)col, card};
        int valid = isValidMove(game, m);
        if (!known && *count < 5 * CAP) {
            strcpy(labels[*count], label);
            results[*count] = valid;
            (*count)++;
        }
    }
}

VALIDITY_OF
static void see(Game game, int deckDepth, int discardDepth, const int *skip) {
    (void)deckDepth, (void)discardDepth;  /* 2017 shows no piles */
    INT_QUERIES
    int turn = seen.ints[I_current_turn];
    int turnKnown = !skip[P_current_turn] && !skip[P_turn_moves];
    if (turnKnown) {
        CALLING("turnMoves(%d)", turn);
        seen.turnMoves = turnMoves(game, turn);
    }
    seen.moveCounts[0] = seen.moveCounts[1] = 0;
    if (turnKnown && !skip[P_past_moves]) {
        for (int k = 0; k < 2; k++) {
            int t = turn - 1 + k;
            if (t < 0) {
                continue;
            }
            int n = seen.turnMoves;
            if (k == 0) {
                CALLING("turnMoves(%d)", t);
                n = turnMoves(game, t);
            }
            for (int i = 0; i < n && i < MOVES_CAP; i++) {
                CALLING("pastMove(%d, %d)", t, i);
                playerMove m = pastMove(game, t, i);
                Card card = got(m.card);
                moveLabel(m, m.action == PLAY_CARD ? card : NULL, seen.moves[k][i]);
                seen.moveCounts[k] = i + 1;
            }
        }
    }
    if (!skip[P_top_discard]) {
        CALLING("topDiscard()");
        seen.top = got(topDiscard(game));
    }
    int count = 0;
    if (!skip[P_hand_card_count]) {
        CALLING("handCardCount()");
        count = seen.handCardCount = handCardCount(game);
    }
    SEE_HAND
    for (int p = 0; p < 4 && !skip[P_card_counts]; p++) {
        CALLING("playerCardCount(%d)", p);
        seen.counts[p] = playerCardCount(game, p);
    }
    for (int p = 0; p < 4 && !skip[P_points]; p++) {
        CALLING("playerPoints(%d)", p);
        seen.points[p] = playerPoints(game, p);
    }
    int me = seen.ints[I_current_player];
    int meKnown = !skip[P_current_player] && me >= 0 && me < 4;
    if (!skip[P_current_player] && seen.handCount > 0 && seen.hand[0] != NULL && meKnown) {
        firstCards[me] = seen.hand[0];
        hasFirst[me] = 1;
    }
    seen.plays = seen.foreigns = 0;
    if (!skip[P_valid_play] && !skip[P_hand] && !skip[P_hand_card_count]) {
        for (int i = 0; i < seen.handCount; i++) {
            if (seen.hand[i] != NULL) {
                tryPlays(game, seen.hand[i], seen.playLabel, seen.playValid, &seen.plays, 1, "the current player");
            }
        }
    }
    if (!skip[P_valid_foreign] && !skip[P_current_player]) {
        for (int p = 0; p < 4; p++) {
            if (!hasFirst[p] || p == me) {
                continue;
            }
            char buf[8], mine[8];
            int own = 0;
            strcpy(mine, name(firstCards[p], buf));
            for (int i = 0; i < seen.handCount; i++) {
                own |= seen.hand[i] != NULL && strcmp(name(seen.hand[i], buf), mine) == 0;
            }
            if (own) {
                continue;
            }
            char who[48];
            snprintf(who, sizeof who, "player %d's first card as last seen", p);
            tryPlays(game, firstCards[p], seen.foreignLabel, seen.foreignValid, &seen.foreigns, 0, who);
        }
    }
    VALID_DRAW_AND_END
    if (!skip[P_valid_say]) {
        static const action says[] = {SAY_ACTIONS};
        static const char *const sayNames[] = {"SAY_UNO", "SAY_DUO", "SAY_TRIO"};
        for (int w = 0; w < 3; w++) {
            CALLING("isValidMove(%s)", sayNames[w]);
            playerMove m = {says[w], RED, NULL};
            seen.validSay[w] = isValidMove(game, m);
        }
    }
}

'''


def prelude17(cap: int = HAND_CAP, skipped: Sequence[str] = ()) -> str:
    """The C helpers of a 2017 repro program: the shared checks, 2017's ``see``."""
    return checking_prelude(cap, _defines(skipped), _see())


def checks17(k: int, step: Step, judged: set[str], judges: Callable[[str, str], bool]) -> list[str]:
    """C checks of what the test judged at step ``k``, in the order the report judges them (the table's);
    ``judges(name, label)``: whether the test judges that answer (B33 judges only the word for the hand).  The
    reference's values, each of its table's shape."""
    obs, lenient = step.obs, step.lenient
    want = {n for n in ORDER if n in judged and n in obs and not lenient.field_is_lenient(n)}
    ints = {name: (i, call) for i, (name, call, _m) in enumerate(INT_PROBES)}
    lines: list[str] = []
    for name in ORDER:
        if name in ("valid_play", "valid_foreign"):
            if name in judged and name in obs:
                lines.extend(answer_checks(name, "Play" if name == "valid_play" else "Foreign",
                                           cast("dict[str, bool]", obs[name]), lenient, judges))
            continue
        if name not in want:
            continue
        value = obs[name]
        if name in ints:
            if not (name == "winner" and lenient.winner_accepts):
                lines.append(f'checkInt("{ints[name][1]}()", {value}, seen.ints[{ints[name][0]}]);')
        elif name == "turn_moves":
            lines.append(f'checkInt("turnMoves(currentTurn())", {value}, seen.turnMoves);')
        elif name in ("past_moves", "declarations"):
            call = TABLE.by_name[name].call
            lines.append(f'checkHistory("{call}", "{history_text(cast(History, value))}", '
                         f'{int(name == "declarations")});')
        elif name == "hand_card_count":
            lines.append(f'checkInt("handCardCount()", {value}, seen.handCardCount);')
        elif name == "hand":
            hand = cast("list[CardObs]", value)
            lines.append(f'checkCards("handCard(i), the current hand", "{names(hand, True)}", seen.hand, '
                         f"seen.handCount, 1);")
        elif name in ("card_counts", "points"):
            counts = cast("list[int]", value)
            call, field = ("playerCardCount", "counts") if name == "card_counts" else ("playerPoints", "points")
            loose = lenient.offsets.get(name, {})  # differences a ruling accepts in a player's entry (B44)
            for p in range(4):
                got = f"seen.{field}[{p}]"
                if loose.get(p):
                    accepted = " || ".join(f"{got} - ({counts[p]}) == {d}" for d in loose[p])
                    got = f"({accepted}) ? {counts[p]} : {got}"
                lines.append(f'checkInt("{call}({p})", {counts[p]}, {got});')
        elif name == "top_discard" and value:
            lines.append(f'checkCards("topDiscard()", "{names([cast(CardObs, value)], False)}", &seen.top, 1, 0);')
        elif name in ("valid_draw", "valid_end"):
            action, field = ("DRAW_CARD", "validDraw") if name == "valid_draw" else ("END_TURN", "validEnd")
            lines.append(f'checkBool("isValidMove({action})", {int(cast(bool, value))}, seen.{field});')
        elif name == "valid_say":
            says = cast("dict[str, bool]", value)
            for w, (label, call) in enumerate(SAY_CALLS.items()):
                if judges(name, label):
                    lines.append(f'checkBool("isValidMove({call})", {int(says[label])}, seen.validSay[{w}]);')
    if k == 0:
        lines.extend(deck_count_checks(DECK_COUNT_PROBES, obs, judged))
    return lines


def _scenarios() -> Sequence[Scenario]:
    from grader.games.fcd17s2.scenarios import load_scenarios  # noqa: PLC0415

    return load_scenarios()


def _focus(rules: Sequence[str]) -> Focus:
    return focus_of(rules, TABLE)


def _include() -> tuple[Path, Sequence[str]]:
    from grader.games.fcd17s2.sandbox.interface import COURSE_HEADERS, INCLUDE_DIR  # noqa: PLC0415

    return INCLUDE_DIR, COURSE_HEADERS


def _parse_moves(text: str) -> Sequence[WrittenMove]:
    from reference.fcd17s2 import parse_moves  # noqa: PLC0415

    return parse_moves(text)


FCD17_REPRO = ReproDialect(
    prelude=prelude17, checks=checks17,
    move=functools.partial(make_move, declaration=functools.partial(move_declaration, action=c_action,
                                                                     values=C_VALUES)),
    deck_arrays=functools.partial(deck_arrays, values=C_VALUES),
    trace=functools.partial(reference_trace, edition=FCD17), validity=frozenset(TABLE.validity),
    hand_cap=HAND_CAP, scenarios=_scenarios, focus=_focus, include=_include, parse_moves=_parse_moves,
    everything=everything(TABLE), table=TABLE)


def write_repros(result: SubmissionResult, folder: Path) -> dict[str, str]:
    """The 2017 repro programs of a result's failed tests (the family's ``write_repros`` in 2017's C)."""
    return family.write_repros(result, folder, FCD17_REPRO)


__all__ = ["FCD17_REPRO", "checks17", "prelude17", "write_repros"]
