"""Palace's C repro programs: for each failed scenario, a main() that deals the scenario's deck with newGame,
plays its moves with playMove (each card found in the mover's zone), and checks with assert-like messages
what the scenario expects at each step -- the program a student compiles with their own Palace.c to see
the failure outside the grader.  Written beside the reports (``GameSpec.write_repros``)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Sequence

from grader.core.native import c_string
from grader.games.palace.compare import COUNTS, SCALARS, after_words, entry_label, ref_text
from grader.games.palace.interface import COURSE_HEADERS, INCLUDE_DIR
from grader.games.palace.memcheck import IN_ZONE
from grader.games.palace.scenarios import Expect, Malformed, Scenario, load_scenarios
from grader.games.palace.session import ask_entry
from reference.palace import Action, CardRef, MoveSpec, Phase, Rank, Suit

if TYPE_CHECKING:
    from grader.core.results import TestResult


class Graded(Protocol):
    """What the repro programs read of a submission's result (``grader.core.results.SubmissionResult``)."""

    @property
    def tests(self) -> Sequence[TestResult]: ...

# ---- ----------------------------------------------------------------------------------------
REPRO_PRELUDE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "Palace.h"

static int failures = 0;
static Game game_;  /* the game checkCards reads */

static const char *look(Card c, char *buf) {
    static const char *R = "??23456789TJQKA", *S = "HDCS";
    if (c == NULL) {
        return "NULL";
    }
    int r = (int)cardRank(c), s = (int)cardSuit(c);
    buf[0] = r >= 2 && r <= 14 ? R[r] : '?';
    buf[1] = s >= 0 && s <= 3 ? S[s] : '?';
    buf[2] = '\0';
    return buf;
}

static void checkInt(const char *what, int expected, int got) {
    if (expected != got) {
        printf("  WRONG: %s: expected %d, got %d\n", what, expected, got);
        failures++;
    }
}
""" + IN_ZONE + r"""
/* A card of that look anywhere in the game (every seat's zones, the piles), not one already taken. */
static Card anywhere(Game game, rank r, suit s, Card *taken, int nTaken) {
    Card found[4000];
    int n = 0;
    for (int p = 0; p < numPlayers(game) && p < MAX_PLAYERS; p++) {
        for (int i = 0; i < playerCardCount(game, p) && n < 4000 && i < 1000; i++) found[n++] = getHandCard(game, p, i);
        for (int i = 0; i < faceUpCount(game, p) && n < 4000 && i < 1000; i++) found[n++] = faceUpCard(game, p, i);
        for (int i = 0; i < faceDownCount(game, p) && n < 4000 && i < 1000; i++) {
            found[n++] = getFaceDownCard(game, p, i);
        }
    }
    for (int i = 0; i < discardPileSize(game) && n < 4000 && i < 1000; i++) found[n++] = getDiscardPileCard(game, i);
    for (int i = 0; i < drawPileSize(game) && n < 4000 && i < 1000; i++) found[n++] = getDeckCard(game, i);
    for (int i = 0; i < burntCount(game) && n < 4000 && i < 1000; i++) found[n++] = getBurntCard(game, i);
    for (int i = 0; i < n; i++) {
        int used = 0;
        for (int k = 0; k < nTaken; k++) {
            used |= taken[k] == found[i];
        }
        if (found[i] != NULL && !used && cardRank(found[i]) == r && cardSuit(found[i]) == s) {
            return found[i];
        }
    }
    return NULL;
}

/* The move as written: its cards found in the mover's zone, else anywhere (for a question). */
static playerMove written(Game game, action a, int n, const rank *rs, const suit *ss, int faceDown, int anywhereToo) {
    playerMove m;
    memset(&m, 0, sizeof m);
    m.action = a;
    m.faceDownIndex = faceDown;
    m.numCards = a == CHOOSE_FACE_UP || a == PLAY_CARDS ? n : 0;
    for (int k = 0; k < n && k < MAX_SET; k++) {
        m.cards[k] = inZone(game, a == CHOOSE_FACE_UP, rs[k], ss[k], m.cards, k);
        if (m.cards[k] == NULL && anywhereToo) {
            m.cards[k] = anywhere(game, rs[k], ss[k], m.cards, k);
        }
    }
    return m;
}

static void play(Game game, int number, const char *text, playerMove m) {
    for (int k = 0; k < m.numCards && k < MAX_SET; k++) {
        if (m.cards[k] == NULL) {
            printf("  STOP: move %d (%s): a card it names is not in the mover's zone\n", number, text);
            exit(2);
        }
    }
    if (!isValidMove(game, m)) {
        printf("  STOP: move %d (%s): your isValidMove() says FALSE, but the rules allow it\n", number, text);
        exit(2);
    }
    playMove(game, m);
}

static void ask(Game game, const char *text, int expected, playerMove m) {
    int got = isValidMove(game, m) != 0;
    if (got != expected) {
        printf("  WRONG: isValidMove(%s): expected %s, got %s\n", text, expected ? "TRUE" : "FALSE",
               got ? "TRUE" : "FALSE");
        failures++;
    }
}

/* Cards of a zone against the looks expected: in order, or as a multiset. */
static void checkCards(const char *what, const char *expected, Card (*get)(Game, int, int), int seat, int n,
                       const rank *rs, const suit *ss, int want, int ordered) {
    char buf[3], gotText[4000] = "";
    int ok = n == want;
    int used[1000] = {0};
    for (int i = 0; i < n && i < 1000; i++) {
        Card c = get(game_, seat, i);
        strncat(gotText, look(c, buf), sizeof gotText - strlen(gotText) - 2);
        strncat(gotText, " ", sizeof gotText - strlen(gotText) - 1);
        if (!ok || c == NULL) {
            ok = 0;
            continue;
        }
        if (ordered) {
            ok &= cardRank(c) == rs[i] && cardSuit(c) == ss[i];
        } else {
            int j = 0;
            while (j < want && (used[j] || cardRank(c) != rs[j] || cardSuit(c) != ss[j])) j++;
            if (j < want) used[j] = 1; else ok = 0;
        }
    }
    if (!ok) {
        printf("  WRONG: %s: expected [%s], got [%s]\n", what, expected, gotText);
        failures++;
    }
}
"""


def _c_cards(refs: Sequence[CardRef]) -> tuple[str, str]:
    ranks = ", ".join(Rank(r.rank).name for r in refs) or "TWO"
    suits = ", ".join(Suit(r.suit).name for r in refs) or "HEARTS"
    return f"(rank[]){{{ranks}}}", f"(suit[]){{{suits}}}"


def _c_move(spec: MoveSpec | Malformed, anywhere: bool) -> str:
    """``written(game, ...)`` for a move as a scenario writes it (a malformed one built by hand)."""
    if isinstance(spec, Malformed):
        entry = ask_entry(spec)
        cards = [c for c in entry.get("cards", []) if isinstance(c, str)]
        rs, ss = _c_cards([CardRef.parse(c) for c in cards])
        lines = [f"written(game, (action){int(entry['action'])}, {len(cards)}, {rs}, {ss}, "
                 f"{int(entry.get('index', 0))}, 1)"]
        tail = entry.get("cards", [])[len(cards):]
        fix = []
        if tail and tail[0] is None:
            fix.append(f"m.cards[{len(cards)}] = NULL; m.numCards = {len(cards) + 1};")
        elif tail and tail[0] == 0:
            fix.append(f"m.cards[{len(cards)}] = m.cards[0]; m.numCards = {len(cards) + 1};")
        if "count" in entry:
            fix.append(f"m.numCards = {int(entry['count'])};")
        if int(entry["action"]) not in (0, 1, 2, 3):
            fix.append(f"m.action = (action){int(entry['action'])};")
        return lines[0] if not fix else f"({{ playerMove m = {lines[0]}; {' '.join(fix)} m; }})"
    rs, ss = _c_cards(spec.cards)
    return (f"written(game, {Action(spec.action).name}, {len(spec.cards)}, {rs}, {ss}, {spec.face_down_index}, "
            f"{int(anywhere)})")


def _c_checks(e: Expect, n: int) -> list[str]:
    """The C checks of one expect block (cards by look: identities are the grader's to check)."""
    out = []
    for key, _field, call in SCALARS:
        want = getattr(e, key)
        if want is None:
            continue
        value = Phase[want].value if key == "phase" else int(want)
        cfn = call[:-2]
        got = f"{cfn}(game) != 0" if key == "seven_restriction" else f"(int){cfn}(game)"
        out.append(f"checkInt({c_string(call)}, {value}, {got});")
    for key, _field, call in COUNTS:
        for seat, want in enumerate(getattr(e, key) or ()):
            cfn = call.split("(")[0]
            out.append(f'checkInt("{cfn}({seat})", {want}, {cfn}(game, {seat}));')
    ref = e.top_discard
    if ref is not None:
        if isinstance(ref, str):  # "none": the pile is empty
            out.append('checkInt("topDiscard() == NULL", 1, topDiscard(game) == NULL);')
        else:
            out.append(f'checkInt("topDiscard() is {ref_text(ref)} (1: yes)", 1, topDiscard(game) != NULL && '
                       f"cardRank(topDiscard(game)) == {Rank(ref.rank).name} && "
                       f"cardSuit(topDiscard(game)) == {Suit(ref.suit).name});")
    zones = [("getDiscardPileCard(n), top first", "pileCard", "discardPileSize(game)", e.pile, not e.pile_as_set),
             ("getDeckCard(n), next first", "deckCard", "drawPileSize(game)", e.draw_pile, True)]
    for call, getter, size, refs, ordered in zones:
        if refs is not None:
            rs, ss = _c_cards(refs)
            out.append(f"checkCards({c_string(call)}, {c_string(' '.join(map(ref_text, refs)))}, {getter}, 0, "
                       f"{size}, {rs}, {ss}, {len(refs)}, {int(ordered)});")
    for key, cfn, count, ordered in (("hand", "getHandCard", "playerCardCount", False),
                                     ("face_up", "faceUpCard", "faceUpCount", False),
                                     ("face_down", "getFaceDownCard", "faceDownCount", True)):
        for seat, refs in getattr(e, key) or ():
            rs, ss = _c_cards(refs)
            out.append(f"checkCards(\"{cfn}({seat}, n)\", {c_string(' '.join(map(ref_text, refs)))}, {cfn}, {seat}, "
                       f"{count}(game, {seat}), {rs}, {ss}, {len(refs)}, {int(ordered)});")
    for entries, expected in ((e.valid, 1), (e.invalid, 0), (e.malformed, 0)):
        for entry in entries:
            out.append(f"ask(game, {c_string(entry_label(entry))}, {expected}, {_c_move(entry, True)});")
    if e.index_ranges:
        out.append("for (int p = 0; p < numPlayers(game); p++) {")
        for cfn, count in (("getHandCard", "playerCardCount"), ("faceUpCard", "faceUpCount"),
                           ("getFaceDownCard", "faceDownCount")):
            out.append(f'    checkInt("{cfn}(p, -1) == NULL", 1, {cfn}(game, p, -1) == NULL);')
            out.append(f'    checkInt("{cfn}(p, size) == NULL", 1, {cfn}(game, p, {count}(game, p)) == NULL);')
        out.append("}")
        for cfn, count in (("handCard", "handCardCount"), ("getDiscardPileCard", "discardPileSize"),
                           ("getDeckCard", "drawPileSize"), ("getBurntCard", "burntCount")):
            out.append(f'checkInt("{cfn}(-1) == NULL", 1, {cfn}(game, -1) == NULL);')
            out.append(f'checkInt("{cfn}(size) == NULL", 1, {cfn}(game, {count}(game)) == NULL);')
    return out


def c_program(s: Scenario, compile_hint: str) -> str:
    """A C program that replays scenario ``s`` and checks what it expects, stopping at a move it cannot make."""
    n, deck = s.setup.n_players, s.setup.deck
    lines = [f"/* Repro of {s.group}/{s.id} ({', '.join(s.rules)}): {s.says.replace('*/', '* /')}",
             f"   The game: {s.setup}", f"   Build and run it: {compile_hint} */", REPRO_PRELUDE,
             "static Card pileCard(Game g, int seat, int n) { (void)seat; return getDiscardPileCard(g, n); }",
             "static Card deckCard(Game g, int seat, int n) { (void)seat; return getDeckCard(g, n); }", "",
             "int main(void) {",
             f"    rank ranks[{len(deck)}] = {{{', '.join(Rank(r).name for r, _s in deck)}}};",
             f"    suit suits[{len(deck)}] = {{{', '.join(Suit(x).name for _r, x in deck)}}};",
             f"    Game game = newGame({n}, {len(deck)}, ranks, suits, {s.setup.rules});",
             "    game_ = game;",
             '    if (game == NULL) { printf("newGame returned NULL\\n"); return 2; }']
    by_step: dict[int, list[Expect]] = {}
    for e in s.expects:
        by_step.setdefault(e.after, []).append(e)
    for k in range(len(s.moves) + 1):
        if k in by_step:
            lines.append(f'    printf("{after_words(k)}:\\n");')
            lines += ["    " + c for e in by_step[k] for c in _c_checks(e, n)]
        if k < len(s.moves) and k < max(by_step, default=0):
            spec = s.moves[k]
            lines.append(f"    play(game, {k + 1}, {c_string(str(spec))}, {_c_move(spec, False)});")
    lines += ["    destroyGame(game);",
              '    printf(failures ? "%d check(s) failed\\n" : "every check passed\\n", failures);',
              "    return failures != 0;", "}"]
    return "\n".join(lines) + "\n"


def write_repros(result: Graded, folder: Path) -> dict[str, str]:
    """A repro program for every failing, visible scenario (probes aside: their values depend on the reading
    followed): test id -> file name.  ``folder`` gets the course headers and PalaceCard.c too, so the printed
    command works once the student copies Palace.c next to it."""

    scenarios = {f"{s.group}/{s.id}": s for s in load_scenarios()}
    written: dict[str, str] = {}
    for t in result.tests:
        sc = scenarios.get(t.id)
        if t.verdict.family != "fail" or t.hidden or t.kind != "scenario" or sc is None or sc.probe is not None:
            continue
        name = "repro_" + t.id.replace("/", "_") + ".c"
        hint = f"gcc -std=gnu11 -g -I. -o repro {name} Palace.c PalaceCard.c && ./repro"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(c_program(sc, hint))
        written[t.id] = name
    if written:
        for header in (*COURSE_HEADERS, "PalaceCard.c"):
            shutil.copyfile(INCLUDE_DIR / header, folder / header)
        (folder / "README.txt").write_text(
            "Each repro_*.c replays one failing test and checks what it expects (cards by rank and suit).\n"
            "Copy your Palace.c here (PalaceCard.c is the course's), then, for example:\n\n"
            + "\n".join(f"gcc -std=gnu11 -g -I. -o repro {n} Palace.c PalaceCard.c && ./repro"
                        for n in written.values()) + "\n")
    return written
