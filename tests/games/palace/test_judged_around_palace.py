"""Palace judges around a game that went another way in another test's business, check by check.

The mutant draw_before_moving_cards (fixtures/palace/submissions/mutants.py, rules P8, C10, C4) draws before the
played cards leave the hand, and the drawn card goes first in the hand, so the card taken out by the played
card's old place is the drawn one.  In pile/taking_moves_exactly_the_pile (rules P9, C12; the deal keeps 5H 6H 7H
for seat 0 and 5D 6D 7D for seat 1, draw pile KH AH 2C 3C) seat 0 plays 5H: the mutant draws KH to the front of
[5H 6H 7H] and takes out the card at 5H's old place, KH.  So after move 3 its hands and its pile went another way
(seat 0 keeps 5H; the pile is KH 4S, not 5H 4S), which is the drawing rules' business (P8, C10), not this test's.
Seat 1 then takes the pile.  The check after move 4 asserts six things:

- seat 1's hand 5D 6D 7D 5H 4S: it holds KH for 5H -- the hands went another way: not judged;
- seat 1's face-up row 9D JD QD, the face-up counts 3 3, the discard pile size 0, seat 0 to play: all agree and
  none of them went another way: judged, and held;
- topDiscard() NULL: it agrees, but the pile went another way before: not judged.

So the test is not shown (neither charged nor paid) and earns 4 of the 6 values it checks: 2/3 of its weight.  Before
Palace judged around, it earned nothing (its only check came after the game went another way).
"""

from __future__ import annotations

from pathlib import Path

from grader.core.config import MarkingConfig
from grader.core.grade import grade
from grader.core.results import Verdict
from grader.games import get

ROOT = Path(__file__).resolve().parents[3]
MUTANT = ROOT / "fixtures" / "palace" / "submissions" / "mutants" / "draw_before_moving_cards"
GAME = get("palace")


def test_a_check_is_judged_on_what_still_agrees() -> None:
    test_id = "pile/taking_moves_exactly_the_pile"
    result = grade(MUTANT, MarkingConfig.load(game=GAME), game=GAME, random_games=0, memory=False, own_tests=False,
                   players=False, only=(test_id,))
    test = next(t for t in result.tests if t.id == test_id)
    assert test.verdict is Verdict.NOT_SHOWN, test.message
    assert test.earns_marks == round(4 / 6, 4), test.message
    assert "went another way" in test.message and "hold at 4 of the 6 values it checks" in test.message
    assert "getHandCard(p, n)" in test.message  # the departure it names: the hands, after move 3
