"""An answer of the rules with its reason: the value a query gives and the clauses that decided it.

The grader charges a difference to the tests that hold the clause the reference named
(``grader.games.fcd.focus``): a refusal names its first failing condition (a card already
played this turn: A2), an acceptance the route by which it was allowed (matched on suit: R5).
A value type only: each engine decides its own answers, so the oracles stay apart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Answer:
    """``value`` because of ``clauses`` (ids of the rules file: ``R5``, ``A2``)."""

    value: bool
    clauses: tuple[str, ...]

    def __bool__(self) -> bool:
        return self.value

    def also(self, *clauses: str) -> Answer:
        """This answer, naming ``clauses`` too (the context it was decided in)."""
        return Answer(self.value, tuple(dict.fromkeys(self.clauses + clauses)))


def yes(*clauses: str) -> Answer:
    return Answer(True, clauses)


def no(*clauses: str) -> Answer:
    return Answer(False, clauses)
