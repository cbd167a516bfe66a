"""A scenario's failure in words for a first-year student.

The rule in plain words and the game (``rule_words``), then what went wrong: the values expected against what
the code gave, with the moves up to the check; the move that could not be made; where a crash or a hang
happened (``where``: the call in progress, as the student would write it); or why the test could not check its
own rule (the game went another way earlier, or what it found wrong is other rules' business: another test
judges that, and it is not counted twice).  The session decides the verdict; this module only words it.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from grader.games.palace.compare import Departure, Mismatch, Played, after_words, moves_text
from grader.games.palace.focus import sort_rules
from grader.games.palace.sandbox.frames import ASK, RECHECK
from grader.games.palace.sandbox.interface import API_FUNCTIONS
from grader.games.palace.sandbox.observe import describe_call
from grader.games.palace.scenarios import Expect, Scenario
from reference.palace import MoveSpec, Setup

__all__ = ["SEEN", "WENT_ANOTHER_WAY", "counter_judged_by_change", "crashed", "dealt_as", "move_not_made",
           "others_business", "reading_followed", "readings_mixed", "rule_words", "seen_share", "seen_values",
           "stopped_early", "went_another_way", "where", "wrong_values"]

# What says that a test's game went another way before its check (``went_another_way``), for whoever reads a
# result back to know what it saw (``stages.by_evidence``)
WENT_ANOTHER_WAY = "because your game went another way earlier"


class Finding(Protocol):
    """What the words of a probe read of an earlier probe's finding (``session.Probed``)."""

    @property
    def readings(self) -> frozenset[str] | None: ...

    @property
    def source(self) -> str: ...


def dealt_as(games: str = "this test") -> str:
    """The note of a test whose game was given a rearranged deck, because the library deals otherwise than C2."""
    return (f"Your newGame() deals the cards in another order than the rules (C2; the deal tests judge that), so "
            f"{games} gave your game the deck rearranged: your own deal then puts every card where the rules put "
            f"it, and the rest of the game is judged on its own rules.")


def where(setup: Setup, moves: Sequence[MoveSpec], run: Played, call: tuple[int, ...] | None) -> str:
    """Where in the game a crash or a hang happened: the call in progress, and the moves up to there."""
    if call is not None:
        step, probe, cfn, a, b = call
        step = max(0, min(step, len(moves)))
        name = API_FUNCTIONS[cfn] if 0 <= cfn < len(API_FUNCTIONS) else "an API call"
        if probe == ASK:
            what, upto = f"{name}(), asked by the grader {after_words(step)}", step
        elif probe == RECHECK:
            what, upto = f"{name}(), read again {after_words(step)}", step
        elif probe < 0:
            what = describe_call(probe, cfn, a, b, moves)
            upto = {-2: a + 1, -4: a + 1, -6: a + 1, -3: len(moves)}.get(probe, step)  # a move: up to it
        else:
            what = f"{describe_call(probe, cfn, a, b, moves)} while the grader was reading your game " \
                   f"{after_words(step)}"
            upto = step
        upto = max(0, min(upto, len(moves)))
        text = f"It happened in {what}."
        if upto:
            text += f"\nMoves up to there:\n{moves_text(setup, moves, upto)}"
        return text
    if not run.steps:
        return "It happened in newGame() or in the first look at the new game."
    upto = len(run.steps) - 1
    return f"It happened {after_words(upto)}.\nMoves up to there:\n{moves_text(setup, moves, upto)}"


def rule_words(s: Scenario) -> str:
    """The rule a scenario checks, in plain words, and its game: the head of each of its failures."""
    return f"Rule ({', '.join(s.rules)}): {s.says}\nThe game: {s.setup}\n"


def crashed(s: Scenario, what: str, run: Played, call: tuple[int, ...] | None) -> str:
    """A crash, a hang or an early exit (``what``: ``grader.core.classify``'s words), and where it happened."""
    return f"{rule_words(s)}{what}\n{where(s.setup, s.moves, run, call)}"


def went_another_way(s: Scenario, departure: Departure) -> str:
    """A test that could not check its own rule: the game went another way earlier, in another test's business."""
    return (f"{rule_words(s)}This test could not check its own rule, {WENT_ANOTHER_WAY}, in something another "
            "test judges (it is not counted twice):\n    "
            + departure.line(s.setup, s.moves)
            + f"\nMoves up to there:\n{moves_text(s.setup, s.moves, departure.step)}")


def counter_judged_by_change(s: Scenario, shift: Departure) -> str:
    """A counter (currentTurn) that differed in another rule's business: judged by what each move changed."""
    return (f"{shift.line(s.setup, s.moves)}. No rule reads it, so this test judged it by what each move changed "
            "from there (its own rules are not about it, and it is not counted twice).")


SEEN = "\nIt saw its rule hold at "  # how ``seen_share`` and ``seen_values`` begin: a share already worked out


def seen_share(seen: int, checks: int) -> str:
    """What a test another test's difference hid earns: the share of its checks seen to hold before that."""
    if not seen:
        return (f"{SEEN}none of its {checks} checks, so it earns nothing here: neither charged "
                "nor paid, as a mark is earned by evidence.")
    return (f"{SEEN}{seen} of its {checks} checks, so it earns that share (the rest is "
            "neither charged nor paid).")


def seen_values(held: int, values: int) -> str:
    """What a test judged around earns: the share of the values it checks that were judged and held."""
    if not held:
        return (f"{SEEN}none of the {values} values it checks (the others were not judged: they had gone "
                "another way, or read what had), so it earns nothing here: neither charged nor paid, as a mark "
                "is earned by evidence.")
    return (f"{SEEN}{held} of the {values} values it checks, so it earns that share (the rest had gone another "
            "way, or read what had: neither charged nor paid).")


def others_business(s: Scenario, step: int, mismatches: Sequence[Mismatch],
                    owners: Sequence[frozenset[str] | None]) -> str:
    """A test whose wrong values at ``step`` are all other rules' business (``owners``, one a mismatch)."""
    found_wrong = "\n    ".join(f"{after_words(step)}: {m.line()} -- the business of "
                                  f"{', '.join(sort_rules(o or ()))}" for m, o in zip(mismatches, owners))
    return (f"{rule_words(s)}This test could not check its own rule: what it found wrong is the "
            f"business of other rules, which other tests judge (it is not counted twice):\n"
            f"    {found_wrong}")


def wrong_values(s: Scenario, step: int, mismatches: Sequence[Mismatch],
                 per_reading: Sequence[tuple[str, tuple[Expect, list[Mismatch] | None]]],
                 departure: Departure | None) -> str:
    """Wrong values at the check after ``step`` moves, expected against got; for a probe that follows none of
    its readings, the first wrong value under each reading (``per_reading``)."""
    lines = [m.line() for m in mismatches]
    if per_reading and s.probe is not None:
        lines = []
        for reading, (e, bad) in per_reading:
            first = bad[0].line() if bad else "the game stopped before this point"
            lines.append(f"[{s.probe.ruling} = {reading}] {after_words(e.after)}: {first}")
        text = (f"Your code follows none of the readings the rules accept for {s.probe.ruling} "
                f"(mixing them is not one of them):\n    " + "\n    ".join(lines))
    else:
        text = f"{after_words(step, first=True)}, expected against what your code gave:\n    " + \
            "\n    ".join(lines)
    message = f"{rule_words(s)}Moves up to the check:\n{moves_text(s.setup, s.moves, step)}\n{text}"
    if departure is not None and departure.step < step:
        message += "\nYour game had already gone another way " + departure.line(s.setup, s.moves)
    return message


def move_not_made(s: Scenario, step: int, k: int, refused: bool, departure: Departure | None) -> str:
    """Move ``k`` (0-based) could not be made before the check after ``step`` moves: the library's isValidMove
    refused it (``refused``), or a card it names was not in the mover's zone."""
    why = ("your isValidMove() said FALSE for it, but the rules allow it" if refused
           else "a card it names is not where your game should have it (the mover's hand, or face-up row "
                "once the hand is empty)")
    text = (f"Move {k + 1} ({s.moves[k]}) could not be made: {why}. This test checks the game "
            f"{after_words(step)}, so it stopped there.")
    return _stopped(s, k, text, departure)


def stopped_early(s: Scenario, step: int, upto: int, departure: Departure | None) -> str:
    """The game stopped after ``upto`` moves, before the check after ``step``."""
    text = f"The game stopped before the point this test checks ({after_words(step)})."
    return _stopped(s, upto, text, departure)


def _stopped(s: Scenario, upto: int, text: str, departure: Departure | None) -> str:
    message = f"{rule_words(s)}Moves up to there:\n{moves_text(s.setup, s.moves, upto)}\n{text}"
    if departure is not None and departure.step < upto:
        message += "\nYour game had already gone another way " + departure.line(s.setup, s.moves)
    return message


def readings_mixed(s: Scenario, ruling: str, follows: Sequence[str], earlier: Sequence[Finding]) -> str:
    """A probe passed alone, but the readings it shows and those ``earlier`` probes showed have none in common."""
    shown = "; ".join(f"{' / '.join(sorted(p.readings or ()))} in {p.source}" for p in earlier)
    return (f"Rule ({', '.join(s.rules)}): {s.says}\nHere your code follows the reading "
            f"{' / '.join(follows)} of {ruling}, but {shown}: a submission follows one "
            f"reading of each ruling the rules leave open, and mixing them is not one of them "
            f"(rules-palace.md §4.3).")


def reading_followed(ruling: str, follows: Sequence[str]) -> str:
    """The note of a probe that passed: the reading followed, which the random games hold the code to."""
    return (f"{ruling}: your code follows the reading "
            f"{' / '.join(follows)}; the random games hold it to that reading.")
