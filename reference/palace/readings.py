"""The LENIENT (switch) rulings of rules-palace.md §4.3: one switch each, the reference reading first.

    >>> str(Readings())
    'C9=one C14=allowed C15=allowed C21=counts'
    >>> Readings.parse("C9=refill C14=not C15=singles C21=not").draw
    'refill'

The grader probes which reading a submission follows and configures the reference with those
(``Game(setup, readings=...)``); ``str(Readings.parse(t)) == t`` for the canonical text, which names
all four switches in this order.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, fields
from typing import Iterator

from .errors import NotationError

# ruling -> (field, readings with the reference's first)
SWITCHES: dict[str, tuple[str, tuple[str, ...]]] = {
    "C9": ("draw", ("one", "refill", "per_card")),  # cards drawn after a play from the hand
    "C14": ("face_down_pickup", ("allowed", "not")),  # PICK_UP_PILE in the face-down stage
    "C15": ("face_up_sets", ("allowed", "singles")),  # sets of two or more from the face-up row
    "C21": ("start_card_run", ("counts", "not")),  # the turned starting card in a four of a kind
}
RULING_OF_FIELD = {name: ruling for ruling, (name, _r) in SWITCHES.items()}


@dataclass(frozen=True, slots=True)
class Readings:
    """One reading per switch; the defaults are the reference's."""

    draw: str = "one"  # C9: "one" | "refill" (to three) | "per_card"
    face_down_pickup: str = "allowed"  # C14: "allowed" | "not"
    face_up_sets: str = "allowed"  # C15: "allowed" | "singles"
    start_card_run: str = "counts"  # C21: "counts" | "not"

    def __post_init__(self) -> None:
        for f in fields(self):
            choices = SWITCHES[RULING_OF_FIELD[f.name]][1]
            if getattr(self, f.name) not in choices:
                raise NotationError(f"{RULING_OF_FIELD[f.name]} reading {getattr(self, f.name)!r}: "
                                    f"one of {', '.join(choices)}")

    def of(self, ruling: str) -> str:
        """The reading of one switch ruling: ``Readings().of("C9") == "one"``."""
        return getattr(self, SWITCHES[ruling][0])

    def by_ruling(self) -> dict[str, str]:
        return {ruling: self.of(ruling) for ruling in SWITCHES}

    def with_(self, **by_ruling: str) -> Readings:
        """A copy with some switches changed, by ruling id: ``Readings().with_(C9="refill")``."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for ruling, reading in by_ruling.items():
            if ruling not in SWITCHES:
                raise NotationError(f"{ruling} is not a switch ruling ({', '.join(SWITCHES)})")
            values[SWITCHES[ruling][0]] = reading
        return Readings(**values)

    @property
    def is_reference(self) -> bool:
        return self == REFERENCE

    @classmethod
    def every(cls) -> Iterator[Readings]:
        """All 3·2·2·2 = 24 combinations, the reference first."""
        names = [name for name, _r in SWITCHES.values()]
        for combo in itertools.product(*(choices for _n, choices in SWITCHES.values())):
            yield cls(**dict(zip(names, combo)))

    @classmethod
    def parse(cls, text: str) -> Readings:
        """``"C9=refill C21=not"``; switches not named keep the reference reading."""
        given: dict[str, str] = {}
        for tok in text.split():
            ruling, eq, reading = tok.partition("=")
            if not eq or ruling.upper() not in SWITCHES or ruling.upper() in given:
                raise NotationError(f"readings {tok!r}: expected C9=, C14=, C15= or C21= once each")
            given[ruling.upper()] = reading
        return REFERENCE.with_(**given)

    def __str__(self) -> str:
        return " ".join(f"{ruling}={reading}" for ruling, reading in self.by_ruling().items())


REFERENCE = Readings()

__all__ = ["REFERENCE", "RULING_OF_FIELD", "SWITCHES", "Readings"]
