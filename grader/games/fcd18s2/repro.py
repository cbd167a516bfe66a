"""The 2018 repro programs: the family's (``grader.games.fcd.repro``) with 2018's C checks, probes,
scenarios and headers (``FCD18_REPRO``)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Callable, Sequence, cast

from grader.core.results import SubmissionResult
from grader.games.fcd import repro as family
from grader.games.fcd.c_emit import deck_arrays, names
from grader.games.fcd.edition import WrittenMove
from grader.games.fcd.focus import Focus, everything, focus_of
from grader.games.fcd.reference_trace import Step, reference_trace
from grader.games.fcd.repro import ReproDialect, answer_checks, deck_count_checks, make_move
from grader.games.fcd.sandbox.observe import HAND_CAP, CardObs
from grader.games.fcd.scenarios import Scenario
from grader.games.fcd18s2.c_dialect import prelude
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.observations import ORDER, TABLE, VALIDITY
from grader.games.fcd18s2.sandbox.observe import DECK_COUNT_PROBES, INT_PROBES

Hand = list[CardObs]
Ints = list[int]


def _checks(k: int, step: Step, judged: set[str], judges: Callable[[str, str], bool] | None = None) -> list[str]:
    """C checks of what the test judged at step ``k`` (see ``c_program``; ``judges(name, label)``: whether it
    judged that answer of a battery there, e.g. not one that differed because of another test's rule).  The
    reference's values, each of its table's shape."""
    obs, lenient = step.obs, step.lenient
    lines = []
    want = [n for n in ORDER if n in judged and n in obs and not lenient.field_is_lenient(n)]
    for i, (name, call, _m) in enumerate(INT_PROBES):
        if name in want and not (name == "winner" and lenient.winner_accepts):
            lines.append(f'checkInt("{call}()", {obs[name]}, seen.ints[{i}]);')
    if "top_discard" in want and obs["top_discard"]:
        lines.append(f'checkCards("topDiscard()", "{names([cast(CardObs, obs["top_discard"])], False)}", '
                     f"&seen.top, 1, 0);")
    if "hand" in want:
        lines.append(f'checkCards("the current hand (handCard)", "{names(cast(Hand, obs["hand"]), True)}", '
                     f"seen.hand, seen.handCount, 1);")
    if "hand_end_null" in want:
        lines.append(f'checkBool("handCard(handCardCount()) == NULL", {int(cast(bool, obs["hand_end_null"]))}, '
                     f"seen.handEndNull);")
    for p in range(4):
        if "card_counts" in want:
            lines.append(f'checkInt("playerCardCount({p})", {cast(Ints, obs["card_counts"])[p]}, seen.counts[{p}]);')
        if "points" in want:
            lines.append(f'checkInt("playerPoints({p})", {cast(Ints, obs["points"])[p]}, seen.points[{p}]);')
        if "hands" in want:
            lines.append(f'checkCards("the hand of player {p} (getHandCard)", '
                         f'"{names(cast("list[Hand]", obs["hands"])[p], True)}", '
                         f"seen.hands[{p}], seen.handSizes[{p}], 1);")
    for name, array in (("deck_pile", "seen.deck"), ("discard_pile", "seen.discard")):
        if name in want:
            call = "getDeckCard(n)" if name == "deck_pile" else "getDiscardPileCard(n)"
            pile = cast(Hand, obs[name])
            lines.append(f'checkCards("{call}, n = 0, 1, ...", "{names(pile, False)}", {array}, '
                         f"{len(pile)}, 0);")
    for name, field in (("valid_draw", "validDraw"), ("valid_end", "validEnd")):
        if name in want:
            action = "DRAW_CARD" if name == "valid_draw" else "END_TURN"
            lines.append(f'checkBool("isValidMove({action})", {int(cast(bool, obs[name]))}, seen.{field});')
    for name, labels in (("valid_play", "Play"), ("valid_foreign", "Foreign")):
        if name in judged:
            lines.extend(answer_checks(name, labels, cast("dict[str, bool]", obs[name]), lenient, judges))
    if k == 0:
        lines.extend(deck_count_checks(DECK_COUNT_PROBES, obs, judged))
    return lines


def _scenarios18() -> Sequence[Scenario]:
    from grader.games.fcd18s2.scenarios import load_scenarios  # noqa: PLC0415

    return load_scenarios()


def _focus18(rules: Sequence[str]) -> Focus:
    return focus_of(rules, TABLE)


def _include18() -> tuple[Path, Sequence[str]]:
    from grader.games.fcd18s2.sandbox.interface import COURSE_HEADERS, INCLUDE_DIR  # noqa: PLC0415

    return INCLUDE_DIR, COURSE_HEADERS


def _parse_moves18(text: str) -> Sequence[WrittenMove]:
    from reference import parse_moves  # noqa: PLC0415

    return parse_moves(text)


FCD18_REPRO = ReproDialect(prelude=prelude, checks=_checks, move=make_move, deck_arrays=deck_arrays,
                           trace=functools.partial(reference_trace, edition=FCD18), validity=frozenset(VALIDITY),
                           hand_cap=HAND_CAP, scenarios=_scenarios18, focus=_focus18, include=_include18,
                           parse_moves=_parse_moves18, everything=everything(TABLE),
                           table=TABLE)


def write_repros(result: SubmissionResult, folder: Path) -> dict[str, str]:
    """A repro program for every failing, visible test of a 2018 result (``family.write_repros``)."""
    return family.write_repros(result, folder, FCD18_REPRO)
