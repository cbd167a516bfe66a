"""Palace's rule families: how the random games group what they find, one deduction per family.

A random game's difference names the rules whose business it is (``grader.games.palace.focus``); the family
is the one that holds most of them (``family_of``), the more specific family first on a tie (a two's turn
is the two's business before the turn order's).  The families follow the clauses of rules-palace.md
(§2 and §3), as the scenario groups do, so a family's words tell a student where to look.  P20 (the
options are off unless asked for) is the business of both optional cards.

``judged_at``: the families a step of a game judges -- what the move just made did (its effects' rules)
and what the grader's isValidMove questions ask there (the battery of §4.2, on the reference's state):
a family earns marks from a game only where it was judged and agreed.
"""

from __future__ import annotations

from typing import Iterable

from grader.games.palace.focus import effect_rules
from reference.palace import (
    RULE_MIRROR_THREE,
    RULE_SEVEN_LOWER,
    Game,
    Phase,
    PlayerMove,
    Rank,
)

CRASHES = "crashes"
# name -> (what differs, in words that follow "differ from the reference in", the rules of the family).
# The order is the tie-break of ``family_of``: the most specific family first.
FAMILIES: dict[str, tuple[str, frozenset[str]]] = {
    "bombs": ("the bombs: four of a kind and tens burning the pile, and the free play after them (P15, P16, "
              "C20-C23, C47)", frozenset({"P15", "P16", "C20", "C21", "C22", "C23", "C47"})),
    "twos": ("the two: playable on anything, and the turn passing after it (P17, C24, C25)",
             frozenset({"P17", "C24", "C25"})),
    "mirror": ("the three: a mirror of the card below it with RULE_MIRROR_THREE, an ordinary card without "
               "(P18, P20, C29, C30)", frozenset({"P18", "P20", "C29", "C30"})),
    "seven": ("the seven: its bound on the next card with RULE_SEVEN_LOWER, an ordinary card without (P19, P20, "
              "C26-C28)", frozenset({"P19", "P20", "C26", "C27", "C28"})),
    "end": ("the end of the game: the winner, and nothing valid after it (P1, P14, C32-C34, C42)",
            frozenset({"P1", "P14", "C32", "C33", "C34", "C42"})),
    "stages": ("the stages: the face-up row once the hand is empty, then the face-down cards played blind "
               "(P10-P13, C15-C19, C38)",
               frozenset({"P10", "P11", "P12", "P13", "C15", "C16", "C17", "C18", "C19", "C38"})),
    "pile": ("taking the pile (P9, C12-C14, C36)", frozenset({"P9", "C12", "C13", "C14", "C36"})),
    "drawing": ("drawing after a play from the hand (P8, C9-C11)", frozenset({"P8", "C9", "C10", "C11"})),
    "beating": ("which cards beat the pile, alone or in sets of one rank (P6, P7, C3, C8)",
                frozenset({"P6", "P7", "C3", "C8"})),
    "turn_order": ("whose turn it is and the turn counter (P5, C1, C6, C35)", frozenset({"P5", "C1", "C6", "C35"})),
    "deal": ("the deal, the starting card and the face-up choice (P2-P4, C2, C5, C31)",
             frozenset({"P2", "P3", "P4", "C2", "C5", "C7", "C31"})),
    "queries": ("the queries: the card getters, handCard and topDiscard, malformed moves, and isValidMove "
                "changing nothing (C4, C37, C39, C40, C43, C46)",
                frozenset({"C4", "C37", "C39", "C40", "C41", "C43", "C44", "C46"})),
    CRASHES: ("whether your code keeps running: it crashed, hung or exited early", frozenset()),
}
ALWAYS = frozenset({"queries", CRASHES})  # judged at every step: the getters are read, the code runs

__all__ = ["ALWAYS", "CRASHES", "FAMILIES", "families_of", "family_of", "judged_at", "words"]


def words(family: str) -> str:
    """What a family's differences are about, for "k of n random games differ from the reference in ..."."""
    return FAMILIES[family][0]


def families_of(rules: Iterable[str]) -> tuple[str, ...]:
    """The families holding most of ``rules``, as many as tie, the more specific first (``FAMILIES``' order)."""
    rules = frozenset(rules)
    held = {name: len(rules & own) for name, (_words, own) in FAMILIES.items()}
    most = max(held.values())
    return tuple(name for name, n in held.items() if n == most) if most else ()


def family_of(rules: Iterable[str], fallback: str = "queries") -> str:
    """The family of a difference whose business ``rules`` are: the one holding most of them, the more specific
    on a tie (``FAMILIES``' order); ``fallback`` when no family holds any."""
    return next(iter(families_of(rules)), fallback)


def _families(rules: Iterable[str]) -> set[str]:
    rules = frozenset(rules)
    return {name for name, (_words, own) in FAMILIES.items() if rules & own}


def judged_at(before: Game, move: PlayerMove, after: Game) -> frozenset[str]:
    """The families judged right after ``move`` (``before`` -> ``after`` on the reference): what the move did,
    and what the grader's isValidMove questions ask of the seat to move next."""
    out = _families(effect_rules(before, move, after)) | ALWAYS
    phase = after.current_phase()
    if phase == Phase.SETUP_PHASE:
        return frozenset(out | {"deal"})
    if phase == Phase.GAME_OVER:
        return frozenset(out | {"end"})
    out |= {"beating", "stages", "end"}  # plays of every rank held; other zones' cards; nothing over yet
    seat = after.current_player()
    zone = after.hand(seat) or after.face_up(seat)
    ranks = {int(c.rank) for c in zone}
    flags = after.game_rules()
    if after.discard_pile_size():
        out.add("pile")  # PICK_UP_PILE asked
    if Rank.TWO in ranks:
        out.add("twos")
    if Rank.TEN in ranks or not after.discard_pile_size():
        out.add("bombs")  # a ten asked, or a lead after a bomb (C23)
    top = after.top_discard()
    if Rank.THREE in ranks or (top is not None and top.rank == Rank.THREE and flags & RULE_MIRROR_THREE):
        out.add("mirror")
    if Rank.SEVEN in ranks or (flags & RULE_SEVEN_LOWER and after.seven_restriction()):
        out.add("seven")
    return frozenset(out)
