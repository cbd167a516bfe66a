"""Standalone C programs that replay a game and check it, for a student's own debugger.

``c_program`` turns a deck and moves (a scenario, or a random game cut after
its first difference) into one C file: it builds the deck arrays, calls
newGame, makes each move (finding the card in the current hand by value,
colour and suit), and after every move makes the very calls the grader made,
in the same order (``see()`` mirrors ``grader.games.fcd.sandbox.observe.Observer``), so a crash
happens in the same call, which it names.  It then checks what the test
judged: the observations of the test's focus that the rules fix (lenient ones
are left out), stopping at the first difference with a message that names the
rule.  It compiles against the course headers and the student's own sources:

    gcc -std=gnu11 -g -I. -o repro repro_x.c Game.c Card.c && ./repro

What is an edition's own (its ``see()`` and checks, its C names, its reference
and loaders) is a ``ReproDialect``: ``FCD18`` here, 2017's in
``grader.games.fcd17s2.repro``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence, cast

from grader.core import repro_build
from grader.core.isolation import DETERMINISTIC_MALLOC
from grader.core.results import SubmissionResult, Verdict
from grader.core.sandbox.native import c_string
from grader.games.fcd.c_emit import move_declaration
from grader.games.fcd.compare import parse_step_runs
from grader.games.fcd.edition import WrittenMove
from grader.games.fcd.focus import Focus, validity_field
from grader.games.fcd.reference_trace import Step
from grader.games.fcd.sandbox.observations import Table
from grader.games.fcd.sandbox.observe import Obs
from grader.games.fcd.scenarios import Scenario
from reference import Deck
from reference.cards import COLOR_LETTERS, SUIT_LETTERS
from reference.rulings import Leniency


def deck_count_checks(probes: Sequence[tuple[str, str, str, int]], obs: Obs, judged: set[str]) -> list[str]:
    """The deck counts (``observe.DECK_COUNT_PROBES`` of an edition) judged after newGame: called and checked."""
    lines = []
    for name, call, _m, n in probes:
        if name in judged and name in obs:
            if n == 0:
                lines.append(f'CALLING("{call}()"); checkInt("{call}()", {obs[name]}, {call}(game));')
            else:
                for i in range(n):
                    lines.append(f'CALLING("{call}({i})"); checkInt("{call}({i})", {cast("list[int]", obs[name])[i]}, '
                                 f"{call}(game, {i}));")
    return lines


def answer_checks(name: str, labels: str, answers: dict[str, bool], lenient: Leniency,
                  judges: Callable[[str, str], bool] | None = None) -> list[str]:
    """Checks of isValidMove for every card the grader tried (``valid_play``, ``valid_foreign``): those the
    program tried too (``seen.<labels>Label``), lenient ones and those ``judges(name, label)`` refuses left out."""
    lines = []
    for label, valid in answers.items():
        if judges is not None and not judges(name, label):
            continue
        key = (int(label[0], 16), COLOR_LETTERS.index(label[1]), SUIT_LETTERS.index(label[2]))
        if name == "valid_play" and lenient.play_is_lenient(key):
            continue
        if name == "valid_foreign" and lenient.field_is_lenient(name):
            continue
        lines.append(f'{{ int v = validityOf(seen.{labels.lower()}Label, seen.{labels.lower()}Valid, '
                     f'seen.{labels.lower()}s, "{label}"); if (v >= 0) checkBool("isValidMove(PLAY_CARD '
                     f'{label})", {int(valid)}, v); }}')
    return lines


def make_move(spec: WrittenMove, declaration: Callable[[WrittenMove], str] = move_declaration) -> str:
    """Make one move; a card the current player does not hold ends the program with a message."""
    return (f"{{ {declaration(spec)} if (m.action == PLAY_CARD && m.card == NULL) {{ noSuchCard(); }} "
            f"remember(m.action == PLAY_CARD ? m.card : NULL); playMove(game, m); }}")


@dataclass(frozen=True)
class ReproDialect:
    """What a repro program of one edition is made of; the rest (``c_program``, ``write_repros``) is shared.

    ``prelude(cap, skipped)``: the C helpers, with ``see(game, deckDepth, discardDepth, skipped)`` making the
    edition's observer's calls; ``checks(k, step, judged, judges)``: the C checks of what the test judged at
    step k (``judges(name, label)``: whether the test judges that answer of a battery there);
    ``move``, ``deck_arrays``: the edition's C of a move and of the deck; ``trace(deck, moves)``: the
    reference's steps; ``validity``: the observations judged at every step of their clauses; the loaders
    (called when writing files): ``scenarios()``, ``focus(rules)``, ``include()`` (the headers' folder and
    names), ``parse_moves``; ``everything``: the focus of a random game.
    """

    prelude: Callable[[int, Sequence[str]], str]
    checks: Callable[[int, Step, set[str], Callable[[str, str], bool]], list[str]]
    move: Callable[[WrittenMove], str]
    deck_arrays: Callable[[Sequence[Sequence[int]]], list[str]]
    trace: Callable[[Deck, Sequence[WrittenMove]], list[Step]]
    validity: frozenset[str]
    hand_cap: int
    scenarios: Callable[[], Sequence[Scenario]]
    focus: Callable[[Sequence[str]], Focus]
    include: Callable[[], tuple[Path, Sequence[str]]]
    parse_moves: Callable[[str], Sequence[WrittenMove]]
    everything: Focus  # the focus of a random game
    table: Table  # the edition's observations (which calls each one makes: what a missing function leaves unmade)


# A call that does not return: the program stops itself and names it (as the grader's time limit would).
HANG = r"""
/* A call that does not return within this many seconds is taken to hang: the program stops and names it. */
#ifndef HANG_SECONDS
#define HANG_SECONDS 10
#endif
static void hung(int sig) {
    char text[320];
    int n = snprintf(text, sizeof text, "DID NOT RETURN within %d seconds: %s, after move %d\n", HANG_SECONDS,
                     inCall, moveNumber);
    (void)sig;
    if (write(1, text, n) < 0) {}
    _exit(3);
}
"""

# Same bytes as in the grader: its worker's malloc fills new memory with 0xa5 bytes and freed memory with
# 0x5a (``grader.core.isolation.DETERMINISTIC_MALLOC``); a repro program runs itself again that way, so
# code that reads memory it never wrote, or freed, does here what it did there.
SAME_MALLOC = r"""
/* The grader runs your code with a malloc that fills new memory with 0xa5 bytes and freed memory with
 * 0x5a bytes, so that every run is the same (and memory never set reads as nonsense, not as 0).
 * This program runs itself again with those settings, so that reading memory that was never
 * written, or was freed, does here what it did there. */
static void sameMallocAsTheGrader(char **argv) {
    const char *preload = getenv("LD_PRELOAD");
    if (getenv("GLIBC_TUNABLES") == NULL && (preload == NULL || strstr(preload, "valgrind") == NULL)) {
        setenv("GLIBC_TUNABLES", "@SETTINGS@", 1);
        execv("/proc/self/exe", argv);  /* if that fails, go on as we are */
    }
}
"""


def c_program(title: str, says: str, rules: Sequence[str], deck: Deck, moves: Sequence[WrittenMove],
              *, steps: list[Step] | None = None, checks: bool = True, compile_hint: str = "",
              focus: Focus | None = None, skipped: Sequence[str] = (), fails_on: str = "",
              fail_step: int | None = None, differed: Mapping[str, str] | None = None,
              dealt_as: Deck | None = None, dialect: ReproDialect) -> str:
    """The whole C file for one game.

    After each move it makes every call the grader made (``skipped`` probes left
    out, as the grader left them out), then checks the observations this test
    judged there, as the grader judged them.  With ``fail_step`` (where the test failed, on ``fails_on``;
    a crash or a hang: on nothing) and ``differed`` (``TestResult.differed``): before that step, the
    observations of its ``focus`` (default: every observation) less those that differed there (the grader
    judged around them); at that step, what it failed on.  Past it, and without them, what the test judges
    there: its focus's observations judged at every step since it took them up (one it stopped judging for a
    while may rightly differ when taken up again) and the validity answers.  ``dealt_as``: the deck newGame
    is given, when not ``deck`` (``TestResult.dealt_as``); the expected values are the reference's on ``deck``.
    """
    steps = steps if steps is not None else dialect.trace(deck, moves)
    focus = focus if focus is not None else dialect.everything
    apart = {name: parse_step_runs(runs) for name, runs in (differed or {}).items()}
    keys = deck.keys
    out = [f"/* Replays {title}: {says}", f" * Rules: {', '.join(rules)}"]
    if compile_hint:
        out.append(f" * Build and run: {compile_hint}")
    out.append(" */")
    out.append(f"#define RULE {c_string(', '.join(rules) + ': ' + says)}")
    out.append(dialect.prelude(min(len(keys) + 1, dialect.hand_cap), skipped))
    out.append(SAME_MALLOC.replace("@SETTINGS@", DETERMINISTIC_MALLOC))
    out.append(HANG)
    out.append("int main(int argc, char **argv) {")
    out.append("    (void)argc;")
    out.append("    sameMallocAsTheGrader(argv);")
    out.append("    signal(SIGSEGV, crashed); signal(SIGABRT, crashed); signal(SIGFPE, crashed); "
               "signal(SIGBUS, crashed); signal(SIGALRM, hung);")
    out.append("    alarm(HANG_SECONDS);")
    if dealt_as is not None:
        out.append("    /* The deck rearranged so that your deal puts every card where the rules put it. */")
    out.extend(dialect.deck_arrays(dealt_as.keys if dealt_as is not None else keys))
    out.append(f"    Game game = newGame({len(keys)}, values, colors, suits);")
    out.append('    if (game == NULL) { printf("FAILED: newGame returned NULL\\n"); return 1; }')
    taken_up: set[str] = set()  # observations judged at every step since the test first judged them
    dropped: set[str] = set()  # ... and those it stopped judging at some step (they may differ unseen after)
    for k, step in enumerate(steps):
        if k > 0:
            out.append(f"\n    /* move {k}: {moves[k - 1].describe()} ({moves[k - 1]}) */")
            out.append(f'    CALLING("playMove({moves[k - 1]})"); alarm(HANG_SECONDS);')
            out.append(f"    {dialect.move(moves[k - 1])}")
            out.append(f"    moveNumber = {k};")
        covered = {n for n in focus.names() if focus.covers(n, k, step.obs)}
        dropped |= taken_up - covered
        taken_up |= covered
        held = covered - dropped
        out.append(f"    see(game, {step.depths[0]}, {step.depths[1]}, skipped);")
        if not checks:
            continue
        if fail_step is not None and k < fail_step:  # what the test saw agree
            judged = {n for n in covered if k not in apart.get(n, ())} - set(skipped)
        elif fail_step is not None and k == fail_step:  # what it failed on
            judged = {fails_on} - set(skipped) if fails_on else set()
        else:
            judged = (held | (covered & dialect.validity) | ({fails_on} if fails_on and fail_step is None
                                                             else set())) - set(skipped)

        def judges(name: str, label: str, k: int = k, obs: Obs = step.obs) -> bool:
            if k in apart.get(f"{name} {label}", ()):
                return False
            return focus.covers(name, k, obs, label) or not focus.covers(name, k, obs)

        out.extend("    " + line for line in dialect.checks(k, step, judged, judges))
        if "identity" in judged and k > 0:
            kind = validity_field(str(moves[k - 1]))
            if kind == "valid_play":
                out.append("    checkPlayedIsTop();")
            elif str(moves[k - 1]) == "draw":
                out.append("    checkDrawnInHand();")
    out.append('\n    CALLING("destroyGame()");')
    out.append("    destroyGame(game);")
    out.append(f'    printf("All checks passed ({len(moves)} moves).\\n");')
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


# An observation the repro's see() makes with the calls of others: the current hand's plays, another hand's card.
MADE_WITH = {"valid_play": ("hand", "hand_card_count"), "valid_foreign": ("hands", "card_counts", "current_player")}


def missing_observations(table: Table, missing: Sequence[str]) -> list[str]:
    """The observations whose calls name a function in ``missing`` (``getActiveDrawTwos()``), and those made
    with them (``MADE_WITH``: an isValidMove of a card is made with the hand it comes from)."""
    names = set(missing)
    unmade = {o.name for o in table.observations if names & set(re.findall(r"(\w+)\(", o.call))}
    unmade |= {o for o, uses in MADE_WITH.items() if o in table.by_name and unmade & set(uses)}
    return [o.name for o in table.observations if o.name in unmade]


def write_repros(result: SubmissionResult, folder: Path, dialect: ReproDialect) -> dict[str, str]:
    """A repro program for every failing, visible test that played a game; test id -> file name.  Beside them,
    what builds each one with the student's own folder (``grader.core.repro_build``: one command)."""
    INCLUDE_DIR, COURSE_HEADERS = dialect.include()  # noqa: N806
    scenarios = {s.id: s for s in dialect.scenarios()}
    sources = repro_build.ReproSources.of(result, ("Game.c", "Card.c"))
    written: dict[str, str] = {}
    for t in result.tests:
        if t.verdict.family != "fail" or t.hidden or not t.deck:
            continue
        sc = scenarios.get(t.id)
        focus = dialect.focus(sc.rules) if sc is not None and t.kind == "scenario" else dialect.everything
        # What the code lacks is stubbed (it stops if called); the observations made with it are not made, as the
        # grader's observer made none (MISSING: nothing compared, build/all_functions_defined charges it once)
        unmade = missing_observations(dialect.table, sources.missing)
        name = "repro_" + t.id.replace("/", "_") + ".c"
        says = t.message.splitlines()[0] if t.message else t.id
        if says.startswith("Rule (") and "): " in says:
            says = says.split("): ", 1)[1]
        wrong = t.verdict is Verdict.WRONG
        text = c_program(t.id, says, t.rules, Deck.parse(t.deck), dialect.parse_moves(t.moves),
                         compile_hint=repro_build.command(name), focus=focus,
                         skipped=sorted({*t.skipped_probes, *unmade}),
                         fails_on=t.failed_on if wrong else "", fail_step=t.failed_after, differed=t.differed,
                         dealt_as=Deck.parse(t.dealt_as) if t.dealt_as else None, dialect=dialect)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
        written[t.id] = name
    if written:
        repro_build.write_build_files(folder, sources, list(written.values()), INCLUDE_DIR, COURSE_HEADERS,
                                      "Each repro_*.c replays one failing test and stops at the first difference.")
    return written


__all__ = ["ReproDialect", "answer_checks", "c_program", "deck_count_checks",
           "make_move", "write_repros"]
