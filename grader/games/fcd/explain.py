"""A wrong result in words for a first-year student.

The rule in plain words, the moves up to the difference (turn by turn), what
was expected and what came back, a picture of the state just before, and the
rulings that leave that point open, if any.  And a test another test's difference
hid (``not_shown``): how many of its steps, in whole steps, and why, each reason once.
"""

from __future__ import annotations

import re
from typing import Sequence, cast

from grader.core.marks import share_words
from grader.core.report.notes import folded
from grader.games.fcd.compare import Comparison
from grader.games.fcd.edition import Edition, G, WrittenMove
from grader.games.fcd.reference_trace import play
from reference import Deck


def moves_by_turn(deck: Deck, moves: Sequence[WrittenMove], upto: int, edition: Edition[G]) -> str:
    """``turn 0, player 0: 2RH end | turn 1, player 1: draw end`` for the first ``upto`` moves."""
    if upto == 0:
        return "(none: straight after newGame)"
    game = play(deck, [], 0, edition)
    parts: list[str] = []
    current: list[str] = []
    label = f"turn 0, player {game.current_player()}:"
    for spec in moves[:upto]:
        current.append(str(spec))
        game.play_move(game.resolve(spec))
        if str(spec) == "end":
            parts.append(f"{label} {' '.join(current)}")
            current = []
            label = f"turn {game.current_turn()}, player {game.current_player()}:"
    if current:
        parts.append(f"{label} {' '.join(current)}")
    return "\n    ".join(parts)


def not_shown(cmp: Comparison) -> str:
    """Why a test could not see all of its rule, in whole steps (a step hidden in part counts as one), what it
    earns (the part it saw hold), and each reason once."""
    judged, hidden = cmp.judged_steps, cmp.hidden_steps
    reasons = folded(cmp.not_shown) or ["nothing it judges happened in your game"]
    if not judged:
        head = ("This test could not judge its rule anywhere in your game, because of a difference another test "
                "judges (not counted twice): it earns nothing here, and is not charged.")
    else:
        which = "its one step" if judged == 1 else f"{hidden} of its {judged} steps"
        head = (f"{which[0].upper()}{which[1:]} could not be judged in full, because your game already differed in "
                f"something another test judges (not counted twice). This test earns the part of its rule it saw "
                f"hold: {share_words(cmp.seen)} of its marks.")
    return head + "\n  " + "\n  ".join(reasons)


_ALSO_ACCEPTS = re.compile(r"\s*The grader also accepts[^.]*\.")


def explain(says: str, rules: Sequence[str], deck: Deck, moves: Sequence[WrittenMove], cmp: Comparison,
            edition: Edition[G], strict: frozenset[str] = frozenset()) -> str:
    """The failure message for a wrong result.  ``says`` empty: cite the rule of the observation.  ``strict``:
    the rulings this course's marking makes strict (a difference they decided says so)."""
    step = cmp.divergence.step if cmp.divergence else cmp.compared_steps
    if not says:
        o = edition.table.by_name[cmp.divergence.field if cmp.divergence else "identity"]
        says, rules = o.rule, list(o.clauses)
    reason = cmp.divergence.reason if cmp.divergence else ()
    made_strict = [rid for rid in dict.fromkeys((*reason, *rules)) if rid in strict and rid in edition.rulings]
    if made_strict:  # the scenario's words offer the other reading, which this course does not accept
        says = _ALSO_ACCEPTS.sub("", says)
    lines = [f"Rule ({', '.join(rules)}): {says}"]
    for rid in made_strict:
        lines.append(f"{rid} is strict in this course's marking: the rules leave it open, but this course "
                     f"accepts only the reading '{edition.rulings[rid].readings[0]}'.")
    if step == 0:
        lines.append("Straight after newGame(deck):")
    else:
        spec = moves[step - 1]
        before = play(deck, moves, step - 1, edition)
        lines.append(f"Moves so far:\n    {moves_by_turn(deck, moves, step, edition)}")
        lines.append(f"After move {step} (player {before.current_player()} {spec.describe()}):")
    if cmp.divergence:
        lines.append("  " + cmp.divergence.describe())
        if reason:
            lines.append(f"    (the reference's answer follows from {', '.join(reason)})")
    else:
        lines.append("  " + str(cmp.identity_problem))
    state = play(deck, moves, max(step - 1, 0), edition)
    lines.append(("State before that move" if step else "The game as dealt") + " (reference):")
    lines.extend("    " + line for line in state.describe().splitlines())
    differs = cmp.divergence.field if cmp.divergence else None
    for rid in rules:
        r = edition.rulings.get(rid)
        # only where the open question touches what differed (None, an identity problem: a ruling that leaves
        # every observation open touches it)
        if r is not None and rid not in strict and r.touches(cast(str, differs)):
            lines.append(f"Note: {rid} is a ruling where the rules are silent; the grader accepts: "
                         + "; ".join(r.readings))
    return "\n".join(lines)
