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

What is an edition's own (its ``see()`` and checks, its C names, its reference
and loaders) is a ``ReproDialect``: ``FCD18`` here, 2017's in
``grader.games.fcd17s2.repro``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from grader.core.native import c_string
from grader.core.sandbox import DETERMINISTIC_MALLOC
from grader.games.fcd18s2.c_emit import deck_arrays, move_declaration, names, prelude
from grader.games.fcd18s2.focus import EVERYTHING, Focus
from grader.games.fcd18s2.observations import ORDER, VALIDITY
from grader.games.fcd18s2.observe import DECK_COUNT_PROBES, HAND_CAP, INT_PROBES
from grader.games.fcd18s2.reference_trace import Step, reference_trace
from reference import Deck, MoveSpec
from reference.cards import COLOR_LETTERS, SUIT_LETTERS


def _checks(k: int, step: Step, judged: set[str], _judges: Any = None) -> list[str]:
    """C checks of what the test judged at step ``k`` (see ``c_program``; 2018 judges every answer of a
    battery it judges: ``_judges`` is for editions whose clauses govern only some)."""
    obs, lenient = step.obs, step.lenient
    lines = []
    want = [n for n in ORDER if n in judged and n in obs and not lenient.field_is_lenient(n)]
    for i, (name, call, _m) in enumerate(INT_PROBES):
        if name in want and not (name == "winner" and lenient.winner_accepts):
            lines.append(f'checkInt("{call}()", {obs[name]}, seen.ints[{i}]);')
    if "top_discard" in want and obs["top_discard"]:
        lines.append(f'checkCards("topDiscard()", "{names([obs["top_discard"]], False)}", &seen.top, 1, 0);')
    if "hand" in want:
        lines.append(f'checkCards("the current hand (handCard)", "{names(obs["hand"], True)}", seen.hand, '
                     f"seen.handCount, 1);")
    if "hand_end_null" in want:
        lines.append(f'checkBool("handCard(handCardCount()) == NULL", {int(obs["hand_end_null"])}, seen.handEndNull);')
    for p in range(4):
        if "card_counts" in want:
            lines.append(f'checkInt("playerCardCount({p})", {obs["card_counts"][p]}, seen.counts[{p}]);')
        if "points" in want:
            lines.append(f'checkInt("playerPoints({p})", {obs["points"][p]}, seen.points[{p}]);')
        if "hands" in want:
            lines.append(f'checkCards("the hand of player {p} (getHandCard)", "{names(obs["hands"][p], True)}", '
                         f"seen.hands[{p}], seen.handSizes[{p}], 1);")
    for name, array in (("deck_pile", "seen.deck"), ("discard_pile", "seen.discard")):
        if name in want:
            call = "getDeckCard(n)" if name == "deck_pile" else "getDiscardPileCard(n)"
            lines.append(f'checkCards("{call}, n = 0, 1, ...", "{names(obs[name], False)}", {array}, '
                         f"{len(obs[name])}, 0);")
    for name, field in (("valid_draw", "validDraw"), ("valid_end", "validEnd")):
        if name in want:
            action = "DRAW_CARD" if name == "valid_draw" else "END_TURN"
            lines.append(f'checkBool("isValidMove({action})", {int(obs[name])}, seen.{field});')
    for name, labels in (("valid_play", "Play"), ("valid_foreign", "Foreign")):
        if name in judged:
            lines.extend(answer_checks(name, labels, obs[name], lenient))
    if k == 0:
        lines.extend(deck_count_checks(DECK_COUNT_PROBES, obs, judged))
    return lines


def deck_count_checks(probes: Sequence[tuple[str, str, str, int]], obs: dict[str, Any], judged: set[str]) -> list[str]:
    """The deck counts (``observe.DECK_COUNT_PROBES`` of an edition) judged after newGame: called and checked."""
    lines = []
    for name, call, _m, n in probes:
        if name in judged and name in obs:
            if n == 0:
                lines.append(f'CALLING("{call}()"); checkInt("{call}()", {obs[name]}, {call}(game));')
            else:
                for i in range(n):
                    lines.append(f'CALLING("{call}({i})"); checkInt("{call}({i})", {obs[name][i]}, '
                                 f"{call}(game, {i}));")
    return lines


def answer_checks(name: str, labels: str, answers: dict[str, bool], lenient: Any,
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


def make_move(spec: Any, declaration: Callable[[Any], str] = move_declaration) -> str:
    """Make one move; a card the current player does not hold ends the program with a message."""
    return (f"{{ {declaration(spec)} if (m.action == PLAY_CARD && m.card == NULL) {{ noSuchCard(); }} "
            f"playMove(game, m); }}")


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
    move: Callable[[Any], str]
    deck_arrays: Callable[[Sequence[Sequence[int]]], list[str]]
    trace: Callable[[Deck, Sequence[Any]], list[Step]]
    validity: frozenset[str]
    hand_cap: int
    scenarios: Callable[[], Sequence[Any]]
    focus: Callable[[Sequence[str]], Focus]
    include: Callable[[], tuple[Path, Sequence[str]]]
    parse_moves: Callable[[str], Sequence[Any]]
    everything: Focus = EVERYTHING  # the focus of a random game


def _scenarios18() -> Sequence[Any]:
    from grader.games.fcd18s2.scenarios import load_scenarios  # noqa: PLC0415

    return load_scenarios()


def _focus18(rules: Sequence[str]) -> Focus:
    from grader.games.fcd18s2.focus import focus_of  # noqa: PLC0415

    return focus_of(rules)


def _include18() -> tuple[Path, Sequence[str]]:
    from grader.games.fcd18s2.loader import COURSE_HEADERS, INCLUDE_DIR  # noqa: PLC0415

    return INCLUDE_DIR, COURSE_HEADERS


def _parse_moves18(text: str) -> Sequence[Any]:
    from reference import parse_moves  # noqa: PLC0415

    return parse_moves(text)


FCD18 = ReproDialect(prelude=prelude, checks=_checks, move=make_move, deck_arrays=deck_arrays,
                     trace=reference_trace, validity=frozenset(VALIDITY), hand_cap=HAND_CAP,
                     scenarios=_scenarios18, focus=_focus18, include=_include18, parse_moves=_parse_moves18)


# Same bytes as in the grader: its worker's malloc fills new memory with 0xa5 bytes and freed memory with
# 0x5a (``grader.core.sandbox.DETERMINISTIC_MALLOC``); a repro program runs itself again that way, so
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


def c_program(title: str, says: str, rules: Sequence[str], deck: Deck, moves: Sequence[MoveSpec],
              *, steps: list[Step] | None = None, checks: bool = True, compile_hint: str = "",
              focus: Focus | None = None, skipped: Sequence[str] = (), fails_on: str = "",
              dialect: ReproDialect = FCD18) -> str:
    """The whole C file for one game.

    After each move it makes every call the grader made (``skipped`` probes left
    out, as the grader left them out), then checks the observations this test
    judged there: those of its ``focus`` (default: every observation) that it has judged since newGame (an
    observation it took up later may rightly differ from before), and ``fails_on``,
    what the test failed on.
    """
    steps = steps if steps is not None else dialect.trace(deck, moves)
    focus = focus if focus is not None else dialect.everything
    keys = deck.keys
    out = [f"/* Replays {title}: {says}", f" * Rules: {', '.join(rules)}"]
    if compile_hint:
        out.append(f" * Build and run: {compile_hint}")
    out.append(" */")
    out.append(f"#define RULE {c_string(', '.join(rules) + ': ' + says)}")
    out.append(dialect.prelude(min(len(keys) + 1, dialect.hand_cap), skipped))
    out.append(SAME_MALLOC.replace("@SETTINGS@", DETERMINISTIC_MALLOC))
    out.append("int main(int argc, char **argv) {")
    out.append("    (void)argc;")
    out.append("    sameMallocAsTheGrader(argv);")
    out.append("    signal(SIGSEGV, crashed); signal(SIGABRT, crashed); signal(SIGFPE, crashed); "
               "signal(SIGBUS, crashed);")
    out.extend(dialect.deck_arrays(keys))
    out.append(f"    Game game = newGame({len(keys)}, values, colors, suits);")
    out.append('    if (game == NULL) { printf("FAILED: newGame returned NULL\\n"); return 1; }')
    held: set[str] | None = None  # state observations judged at every step so far (none has differed unseen)
    for k, step in enumerate(steps):
        if k > 0:
            out.append(f"\n    /* move {k}: {moves[k - 1].describe()} ({moves[k - 1]}) */")
            out.append(f'    CALLING("playMove({moves[k - 1]})");')
            out.append(f"    {dialect.move(moves[k - 1])}")
            out.append(f"    moveNumber = {k};")
        covered = {n for n in focus.names() if focus.covers(n, k, step.obs)}
        held = covered if held is None else held & covered
        out.append(f"    see(game, {step.depths[0]}, {step.depths[1]}, skipped);")
        if checks:
            judged = (held | (covered & dialect.validity) | ({fails_on} if fails_on else set())) - set(skipped)
            def judges(name: str, label: str, k: int = k, obs: dict[str, Any] = step.obs) -> bool:
                return focus.covers(name, k, obs, label) or not focus.covers(name, k, obs)

            out.extend("    " + line for line in dialect.checks(k, step, judged, judges))
    out.append('\n    CALLING("destroyGame()");')
    out.append("    destroyGame(game);")
    out.append(f'    printf("All checks passed ({len(moves)} moves).\\n");')
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


def compile_command(repro: str, sources: Sequence[str]) -> str:
    return f"gcc -std=gnu11 -g -I. -o repro {repro} {' '.join(sources)} && ./repro"


def write_repros(result: Any, folder: Path, sources: Sequence[str], course_card: bool = False,
                 dialect: ReproDialect = FCD18) -> dict[str, str]:
    """A repro program for every failing, visible test that played a game; test id -> file name.

    ``folder`` gets the course headers too, so the printed command works when the
    student copies their .c files next to the repro (or runs it from their folder
    with -I pointing here).
    """
    INCLUDE_DIR, COURSE_HEADERS = dialect.include()  # noqa: N806
    scenarios = {s.id: s for s in dialect.scenarios()}
    written: dict[str, str] = {}
    for t in result.tests:
        if t.verdict.family != "fail" or t.hidden or not t.deck:
            continue
        sc = scenarios.get(t.id)
        focus = dialect.focus(sc.rules) if sc is not None and t.kind == "scenario" else dialect.everything
        name = "repro_" + t.id.replace("/", "_") + ".c"
        command = compile_command(name, sources)
        says = t.message.splitlines()[0] if t.message else t.id
        if says.startswith("Rule (") and "): " in says:
            says = says.split("): ", 1)[1]
        text = c_program(t.id, says, t.rules, Deck.parse(t.deck), dialect.parse_moves(t.moves),
                         compile_hint=command, focus=focus, skipped=t.skipped_probes, fails_on=t.failed_on,
                         dialect=dialect)
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


__all__ = ["FCD18", "ReproDialect", "answer_checks", "c_program", "compile_command", "deck_count_checks",
           "make_move", "write_repros"]
