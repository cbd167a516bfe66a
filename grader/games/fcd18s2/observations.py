"""The 18s2 observation table as the trusted side judges with it: the rows
(``grader.games.fcd18s2.sandbox.observations``) and where a clause governs an observation only in some
states (``SCOPES``), over the reference's observation.
"""

from __future__ import annotations

from grader.games.fcd.sandbox.observations import Judged, Observation, Table
from grader.games.fcd18s2.sandbox.observations import FAMILIES, IDENTITY, OBSERVATIONS

# No clause is scoped by hand: the reference names the clauses behind each isValidMove answer (``why_valid``), and
# an answer is judged by the tests that hold them (``grader.games.fcd.focus.REASONS``).
SCOPES: dict[tuple[str, str], Judged] = {}


TABLE = Table(OBSERVATIONS, IDENTITY, FAMILIES, SCOPES)
BY_NAME: dict[str, Observation] = TABLE.by_name
ORDER: tuple[str, ...] = TABLE.order
VALIDITY = TABLE.validity
DECK_COUNTS = TABLE.deck_counts
