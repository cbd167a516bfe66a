"""An observation table as a value: everything an edition's Game.h lets a tester see, and which rules govern it.

An edition's table (``grader.games.fcd18s2.sandbox.observations``, ``grader.games.fcd17s2.sandbox.observations``) has
one row per observation (a field of a trace step).  Each row says what a
student recognises (the C call and its meaning in plain words), which rule
*family* it belongs to (random games lose marks once per family), and which
clauses of rules.md fix its value:

- ``meaning``: clauses that define the query itself, at any time (A31:
  numTurns is currentTurn + 1);
- ``at_start``: clauses that fix its value right after newGame (R2: the deal);
- ``on_moves``: clauses that fix how moves change it (R6: a draw adds a card).

A test's *focus* is derived from this table (``grader.games.fcd.focus``): the
observations its clauses govern and its expectations name.  Some clauses
govern an observation only in some states (``SCOPES``: R7 fixes which moves
are valid only while a penalty is owed).  ``depends_on`` lists the
observations a value follows from (the hand from whose turn it is, an
isValidMove answer from the state it is computed from): when one of those has
already differed, a difference here shows nothing new.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Mapping

# A clause's scope (``Table.scopes``): does it govern the observation in this state?  Over the reference's
# observation there (``grader.games.fcd.sandbox.observe.Obs``: field -> plain data).
Judged = Callable[[dict[str, object]], bool]
# ... and for an answer of a battery (``Table.answer_scopes``): over the observation and the move's label.
Answered = Callable[[dict[str, object], str], bool]


@dataclass(frozen=True, slots=True)
class Observation:
    name: str
    shape: str  # what a worker must send for it (``grader.games.fcd.schema``)
    call: str  # the API call a student recognises
    meaning_words: str  # what it means, in plain words
    family: str
    rule: str  # the rule in plain words, for messages that cite the observation alone
    meaning: tuple[str, ...] = ()
    at_start: tuple[str, ...] = ()
    on_moves: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()
    change: str = ""  # how a move's change is judged once the values have differed (``CHANGES``)
    follows_the_piles: bool = False  # what a draw adds to it depends on the piles' cards
    names: tuple[tuple[int, str], ...] = ()  # the header's names of its values (a message says ``RED (0)``)

    def value_words(self, value: object) -> object:
        """``value`` as a message shows it: by its name in the header where it has one (``NOT_FINISHED (-1)``)."""
        named = dict(self.names).get(value) if isinstance(value, int) and not isinstance(value, bool) else None
        return f"{named} ({value})" if named else value

    @property
    def clauses(self) -> tuple[str, ...]:
        """Every clause behind this observation, for citing it."""
        return tuple(dict.fromkeys(self.meaning + self.at_start + self.on_moves))


# How the comparison judges a move once an observation's values have differed (so a bug is not
# counted again at every later step; ``grader.games.fcd.compare``):
CHANGES: dict[str, str] = {
    "counter": "by how much the move changed it (+1, -2)",
    "own_counter": "by how much it changed, while the turn stays with the same player",
    "seat": "by how many seats it moved",
    "value": "whether it stayed or what it became",
    "flag": "whether it changed (a two-way switch: 2017's direction of play)",
    "cards": "the cards each hand lost and gained",
    "own_cards": "the cards the hand lost and gained, while the turn stays with the same player",
    "per_player": "by how much each player's value changed",
    "pile": "not at all: a pile that has differed shows nothing new",
    "": "not at all: once it has differed, the test is decided",
}


@dataclass(frozen=True, eq=False)
class Table:
    """One edition's observation table as a value: what the comparison, a test's focus, the
    scenario loader and the shape check read, so every Final Card-Down edition shares them
    (``grader.games.fcd17s2.sandbox.observations`` is the 2017 table)."""

    observations: tuple[Observation, ...]
    identity: Observation  # checked between steps, not a field of a step
    families: Mapping[str, str]
    scopes: Mapping[tuple[str, str], Judged]
    # Where a clause governs an answer of a battery (``valid_play``) only for some moves: (observation, clause)
    # -> predicate over the reference's observation and the move's label.  So the rules of what matches what
    # (2017's S8: a ZERO is wild) are judged by their own tests, not again by every test that plays a card.
    answer_scopes: Mapping[tuple[str, str], Answered] = field(default_factory=dict)

    @cached_property
    def by_name(self) -> dict[str, Observation]:
        return {o.name: o for o in (*self.observations, self.identity)}

    @cached_property
    def order(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.observations)

    @cached_property
    def validity(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.observations if o.family == "validity")

    @cached_property
    def deck_counts(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.observations if o.family == "deck_counts")

    @cached_property
    def depends_on(self) -> dict[str, tuple[str, ...]]:
        return {o.name: o.depends_on for o in self.by_name.values() if o.depends_on}

    @cached_property
    def piles(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.observations if o.change == "pile")

    @cached_property
    def follow_the_piles(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.observations if o.follows_the_piles)
