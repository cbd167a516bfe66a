"""A test's focus: the observations its verdict rests on.  One bug, one deduction.

A scenario checks its own rule clauses, so its verdict rests on the
observations those clauses govern (``grader.games.fcd.sandbox.observations``), in the states
where they govern them (``SCOPES``: R7 decides whether END_TURN is valid only
while a penalty is owed).  Right after newGame only the clauses that fix the
state at the start count (a matching test does not judge the deal); after a
move, the clauses that fix how moves change it.

A scenario's hand-worked expectations are checked against the reference (they
test the oracle); where they name an observation its clauses do not govern
(many scenarios also check that END_TURN is invalid at the start of a turn,
which is A5's), that is context, not the test's rule, and it does not judge
the submission there: the test of A5 does.  They pick the test a note points
to (``owners``).  A difference outside the focus is a note naming that test,
so a bug is charged once, by the tests of its own rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol, Sequence, cast

from grader.core.gamespec import Scenario as CoreScenario
from grader.core.ownership import home_groups, own_clauses
from grader.games.fcd.sandbox.notation import validity_field
from grader.games.fcd.sandbox.observations import Answered, Judged, Table

if TYPE_CHECKING:
    from grader.games.fcd.sandbox.observe import Obs

# Where the reference's observation keeps the reasons of its isValidMove answers (``reference_trace``): observation
# -> the answer's label ("" for a single answer) -> the clauses that decided it.  Not a row: never compared.
REASONS = "reasons"

# How the scenario format's expectation keys name observations.
_EXPECT_KEYS = {"deck_top": "deck_pile", "discard_top": "discard_pile"}


def expected_observations(key: str, value: object) -> set[str]:
    """The observations one expectation entry (``key = value``) names (``valid``, ``invalid``: a list of moves)."""
    if key in ("valid", "invalid"):
        return {validity_field(label) for label in cast("list[str]", value)}
    return {_EXPECT_KEYS.get(key, key)}


@dataclass(frozen=True, slots=True)
class Focus:
    """What a test judges: per observation, the test's clauses that govern it."""

    at_start: dict[str, tuple[str, ...]]  # judged right after newGame
    on_moves: dict[str, tuple[str, ...]]  # judged after each move
    scopes: Mapping[tuple[str, str], Judged] = field(default_factory=dict)  # the table's
    answer_scopes: Mapping[tuple[str, str], Answered] = field(default_factory=dict)

    def covers(self, name: str, step: int, obs: Obs | None = None, label: str = "") -> bool:
        """Is ``name`` judged at ``step``?  ``obs``: the reference's observation there; where it gives the
        reason of an answer (``REASONS``), the answer is judged by the tests that hold a clause the reason
        names, and a battery (no ``label``) is judged where any of its answers is; elsewhere, by clauses
        that govern it only in some states (``SCOPES``) and, for an answer of a battery (``label``: the
        move it answers), only some moves (``Table.answer_scopes``)."""
        via = (self.at_start if step == 0 else self.on_moves).get(name, ())
        reasons = cast("Mapping[str, Mapping[str, Sequence[str]]]", obs.get(REASONS, {})).get(name) \
            if obs is not None and via and via != ("*",) else None
        if reasons is not None:
            why = reasons.get(label) if label or len(reasons) == 1 else None
            if why is not None:
                return any(c in why for c in via)
            if not label:
                return any(c in why for why in reasons.values() for c in via)
        scopes, answers = self.scopes, self.answer_scopes
        return any((obs is None or (name, c) not in scopes or scopes[(name, c)](obs))
                   and (obs is None or not label or (name, c) not in answers or answers[(name, c)](obs, label))
                   for c in via)

    def names(self) -> frozenset[str]:
        return frozenset(self.at_start) | frozenset(self.on_moves)

    def without(self, names: Iterable[str]) -> Focus:
        """This focus less some observations (a random game judging around families already charged)."""
        out = set(names)
        if not out:
            return self
        return Focus({n: c for n, c in self.at_start.items() if n not in out},
                     {n: c for n, c in self.on_moves.items() if n not in out}, self.scopes, self.answer_scopes)


def everything(table: Table) -> Focus:
    """The focus of a test that judges every observation (a random game)."""
    return Focus({n: ("*",) for n in table.by_name}, {n: ("*",) for n in table.by_name})




def focus_of(rules: Iterable[str], table: Table) -> Focus:
    """The focus of a test checking ``rules``."""
    rules = tuple(rules)
    start: dict[str, tuple[str, ...]] = {}
    moves: dict[str, tuple[str, ...]] = {}
    for o in table.by_name.values():
        if via := tuple(r for r in rules if r in o.meaning + o.at_start):
            start[o.name] = via
        if via := tuple(r for r in rules if r in o.meaning + o.on_moves):
            moves[o.name] = via
    return Focus(start, moves, table.scopes, table.answer_scopes)


class Expected(Protocol):
    """A scenario's hand-worked expectation (``scenarios.Expectation``): after which move, which values."""

    @property
    def after(self) -> int: ...

    @property
    def values(self) -> Mapping[str, object]: ...


class Owning(CoreScenario, Protocol):
    """A scenario as ``owners`` reads it (``scenarios.Scenario``): the core's, with its expectations."""

    @property
    def expectations(self) -> Sequence[Expected]: ...


def expected_names(expectations: Sequence[Expected]) -> set[tuple[int, str]]:
    """``(step, observation)`` for every observation the hand-worked expectations name."""
    return {(e.after, name) for e in expectations for k, v in e.values.items()
            for name in expected_observations(k, v)}


def owners(scenarios: Sequence[CoreScenario], table: Table) -> dict[tuple[str, bool], str]:
    """``(observation, after_moves) -> test id``, and ``(rule clause, after_moves) -> test id`` for an answer whose
    reason names that clause: the test a difference outside a focus points to.  ``scenarios``:
    the edition's (``scenarios.Scenario``, with their expectations), as the core hands them back.

    The owner is a scenario that judges the observation in that phase (right after newGame, or
    after moves), preferably one whose expectations name it, with the fewest rule clauses: the
    most specific test of it.
    """
    found: dict[tuple[str, bool], tuple[tuple[int, int, int], str]] = {}
    homes = home_groups(scenarios)
    for order, s in enumerate(cast("Sequence[Owning]", scenarios)):
        own = own_clauses(s.group, s.rules, homes)  # the clauses the test is charged for
        f = focus_of(own, table)
        named = {(n, step > 0) for step, n in expected_names(s.expectations)}
        for phase, names in ((False, f.at_start), (True, f.on_moves)):
            for n in (*names, *own):  # a rule clause: the test of an answer whose reason names it
                rank = (0 if (n, phase) in named else 1, len(s.rules), order)
                if (n, phase) not in found or rank < found[(n, phase)][0]:
                    found[(n, phase)] = (rank, s.id)
    return {k: v[1] for k, v in found.items()}


def reason_of(obs: Obs, name: str, label: str = "") -> tuple[str, ...]:
    """The clauses the reference named for its answer ``name`` (``label``: which answer of a battery); ()
    where it gave none."""
    reasons = cast("Mapping[str, Mapping[str, Sequence[str]]]", obs.get(REASONS, {})).get(name, {})
    return tuple(reasons.get(label, ()))
