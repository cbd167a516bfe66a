"""The 17s2 observation table as the trusted side judges with it: the rows
(``grader.games.fcd17s2.sandbox.observations``) and where a clause governs an observation only in some
states (``SCOPES``), over the reference's observation.
"""

from __future__ import annotations

from grader.games.fcd.sandbox.observations import Answered, Judged, Table
from grader.games.fcd17s2.sandbox.observations import FAMILIES, IDENTITY, OBSERVATIONS

# No clause is scoped by hand: the reference names the clauses behind each isValidMove answer
# (``reference.fcd17s2.Game.why_valid``), and an answer is judged by the tests that hold one of them
# (``grader.games.fcd.focus.REASONS``).  The scopes written here before, and how the reasons say each:
# - call-outs (S17, B40, B41, B47, B48) judged at the start of the turn: a call-out's answer names them
#   (``why_say``; B48 while a 2 is owed); a word after a draw names B40 too (B40: "a SAY_* after a draw: invalid").
# - B35 with a DECLARE on top, S15 while the top is a fresh discard: a card's match names S15 and B35 while a
#   declaration stands, S15 where the top covered a DECLARE (the declaration is gone); a ZERO names only B35
#   (a ZERO is wild: S8's), as the old answer scope ``_not_a_zero`` had it.
# - S11, B20-B23 while facing a 2, B25 with a 2 on top at the start of the turn: the answers of a player who owes
#   name S11 and B20/B21 (a play), B22/B23 (a draw), B23 (END_TURN), and B25 at the start; a 2 on top that is
#   not owed for names B25 (it is inert).
# - B45, B57 at the start of the turn: the answers of a turn that holds nothing but call-outs name B57 and S25
#   (isValidMove answers for now, changing nothing), and B45 once a call-out was made.
# - S19, B53 once the game is over: every answer then names B53 (a play S19 too).
# - S14, B31 after a CONTINUE, only for a card matching it by value or colour, not a ZERO (``_plain_match``):
#   exactly such an answer names them.  (S14/B31/B34's state scope is the same; B34 is no clause of valid_play.)
# - S9, B14 not for a ZERO (``_not_a_zero``): only a further discard's refusal names them -- a ZERO's too, for it is
#   refused for being a second discard, not for what it matches.
# - B33 for the word the hand calls for: a claim straight after a CONTINUE names B33.
SCOPES: dict[tuple[str, str], Judged] = {}
ANSWER_SCOPES: dict[tuple[str, str], Answered] = {}

TABLE = Table(OBSERVATIONS, IDENTITY, FAMILIES, SCOPES, ANSWER_SCOPES)
BY_NAME = TABLE.by_name
ORDER = TABLE.order
