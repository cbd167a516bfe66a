"""What the marking configuration says of a submission as a whole, beside each game's limits.

Read from the configuration (``MarkingConfig.policy``), carried to the build and the worker's client by the
session: a value, so that none of them needs the configuration itself.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """What all of one submission's runs may take together ([limits] budget_*): CPU time first, real time as a
    backstop.  Past either, a run is not started (``RunReport.not_run``): a submission that sleeps 9 s in every
    newGame (the limit per game is 10) is stopped after minutes, its report complete, not after hours."""

    cpu: float
    wall: float


@dataclass(frozen=True)
class Policy:
    """What the marking configuration says of a submission as a whole, beside its per-game limits: what its
    library may call besides the C library (``[build] allowed_symbols``) and the time all its games may take
    (``[limits] budget_*``; None: no budget)."""

    allowed_symbols: frozenset[str] = frozenset()
    budget: Budget | None = None


NO_POLICY = Policy()  # a session opened outside a grade (tests, tools): no extra symbols, no budget
