"""Palace's stages after the scenarios: one bug one deduction and marks by evidence among the scenarios, the
probes of the LENIENT (switch) rulings, the random games, the memory stage.

Scenarios.  ``charge_once``: what a failure shows costs marks in one group only (see its docstring).
``by_evidence``: a scenario earns only where its rule was seen to hold -- one that another test's difference
hid (the game went another way before its check, what it found wrong is other rules' business, or it failed on
what another group is charged for) is NOT_SHOWN, neither charged nor paid: it earns the share of its checks
seen to hold before that (a game that went another way at newGame shows none).  So a library that does nothing
earns nothing, and a bug costs once, in its own tests.

Probes (rules-palace.md §4.3).  The probe scenarios (``probe = "C9"`` ...) have run with the others; the
readings each showed are in ``session.probed``.  The stage adds its own short probes (``CODE_PROBES``:
the §4.3 sequences, one per switch, each on a deck that keeps the other switches out of play) and, for
each switch, keeps the readings every conclusive probe allows.  A probe the library follows no reading
of says nothing (it is inconclusive, or the probe scenario already failed): the submission is then held
to nothing for that switch.

Random games (``grader.games.palace.random_games``): one test per rule family (``grader.games.palace.families``),
``random/<family>``, under the readings found; a family a scenario already failed on (``scenario_charges``) is
judged around there, not charged twice.

The memory stage is Palace's ``memcheck`` (every scenario replayed under the sanitizers); marking.toml gives
it no marks by default.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence, cast

from grader.core.config import MarkingConfig
from grader.core.grade import guarded_many
from grader.core.results import TestResult, Verdict
from grader.core.worker_client import WorkerLost
from grader.games.palace import explain
from grader.games.palace.compare import differing, state_view
from grader.games.palace.families import CRASHES, family_of
from grader.games.palace.random_games import GROUP, RandomGame, random_game, run_random_games, test_id
from grader.games.palace.sandbox.frames import AskEntry
from grader.games.palace.scenarios import Scenario
from grader.games.palace.session import PalaceSession, Probed, ask_entry, judge_run
from reference.palace import (
    SWITCHES,
    Game,
    GameError,
    MoveSpec,
    Readings,
    Setup,
    parse_moves,
)

__all__ = ["CODE_PROBES", "CodeProbe", "RandomGame", "by_evidence", "charge_once", "detect", "later_stages",
           "random_game", "run_code_probes", "scenario_charges"]


# ---- probes of the switch rulings (§4.3) --------------------------------------------------------------
@dataclass(frozen=True)
class CodeProbe:
    """A §4.3 probe: the moves, and isValidMove questions at a step; the readings follow from the states."""

    ruling: str
    name: str
    setup: Setup
    moves: tuple[MoveSpec, ...]
    asks: tuple[tuple[int, MoveSpec], ...] = ()


def _probe(ruling: str, name: str, setup: str, moves: str, asks: Sequence[tuple[int, str]] = ()) -> CodeProbe:
    return CodeProbe(ruling, name, Setup.parse(setup), tuple(parse_moves(moves)),
                     tuple((step, MoveSpec.parse(m)) for step, m in asks))


CODE_PROBES = (
    # C9: play a pair with a draw pile (hand 2 after one draw, 3 after refilling or one per card); then take a
    # pile and play one card (hand unchanged after one draw or one per card, one less when refilling to three)
    _probe("C9", "probe/draw_count", "2p basic: 9H 5H 9D 5D 4C 5C KH 6H KD 6D KC 6C AS QS AH QH AD QD 3S "
           "2H 2D 2C 2S 3H 3D", "up:KH,KD,KC up:6H,6D,6C 9H,9D pickup 4C 5H"),
    # C14: seat 0 ends with face-down cards only, facing a pile (no draw pile: nothing is drawn)
    _probe("C14", "probe/pickup_face_down", "2p basic: 4H KC 5H QC 6H JC 7H 2C 8H 3C 9H 4C AS KS AH KH AD KD 3S",
           "up:7H,8H,9H up:2C,3C,4C 4H pickup 5H pickup 6H pickup 7H pickup 8H pickup 9H KC", [(14, "pickup")]),
    # C15: seat 0 plays from a face-up row holding a pair, on an empty pile
    _probe("C15", "probe/face_up_pair", "2p basic: 4H KC 5H QC 6H JC 9H 2C 9D 3C KH 4C AS KS AH QS AD QD 3S",
           "up:9H,9D,KH up:2C,3C,4C 4H pickup 5H pickup 6H pickup", [(8, "9H,9D"), (8, "9H")]),
    # C21: a starting eight, then three eights from three seats: a bomb only if the starting card counts
    _probe("C21", "probe/start_card_in_run", "4p basic: 8H 8D 8C KH 2H 2D 2C KD 3H 3D 3C KC 4H 4D 4C KS 5H 5D 5C "
           "QH 6H 6D 6C QD AS JS QS 9S AH JH QC 9H AD JD JC 9D 8S",
           "up:4H,5H,6H up:4D,5D,6D up:4C,5C,6C up:KH,KD,KC 8H 8D 8C"),
)


def _combos(fixed: dict[str, str] | None = None) -> list[Readings]:
    """Every combination of readings, with some switches fixed."""
    return [r for r in Readings.every() if all(r.of(k) == v for k, v in (fixed or {}).items())]


def detect(probe: CodeProbe, steps: Sequence[object], answers: dict[int, list[object]],
           stop: tuple[str, int] | None = None) -> frozenset[str] | None:
    """The readings of ``probe.ruling`` the library's observations (and answers) agree with under some
    reading of the other switches; None when it agrees with none (or did not play the probe through)."""
    if len(steps) < len(probe.moves) + 1 or stop is not None or any(k > len(probe.moves) for k, _m in probe.asks):
        return None
    follows = set()
    for reading in SWITCHES[probe.ruling][1]:
        for readings in _combos({probe.ruling: reading}):
            if _agrees(probe, readings, steps, answers):
                follows.add(reading)
                break
    return frozenset(follows) or None


def _agrees(probe: CodeProbe, readings: Readings, steps: Sequence[object], answers: dict[int, list[object]]) -> bool:
    game = Game(probe.setup, readings)
    for k, obs in enumerate(steps):
        if differing(state_view(obs), game):
            return False
        questions = [m for step, m in probe.asks if step == k]
        if questions:
            got = answers.get(k)
            if not isinstance(got, list) or len(got) != len(questions):
                return False
            for spec, answer in zip(questions, got):
                if answer == "no_card" or bool(answer) != game.is_valid_move(game.resolve(spec)):
                    return False
        if k < len(probe.moves):
            try:
                game.play_move(game.resolve(probe.moves[k]))
            except GameError:
                return False
    return True


def run_code_probes(session: PalaceSession) -> list[Probed]:
    """The stage's own probes, played on the library; each finding is added to ``session.probed``."""
    found = []
    for probe in CODE_PROBES:
        asks: dict[int, list[AskEntry]] = {}
        for step, spec in probe.asks:
            asks.setdefault(step, []).append(ask_entry(spec))
        try:
            run = session.play(probe.setup, probe.moves, asks=sorted(asks.items()), battery=False, around_deal=True)
        except WorkerLost:
            readings = None
        else:
            answers = {step: list(cast("Iterable[object]", f.get("answers") or [])) for step, f in run.asked.items()}
            readings = None if judge_run(run) else detect(probe, run.steps, answers, run.stop())
        finding = Probed(probe.ruling, probe.name, readings)
        session.probed.append(finding)
        found.append(finding)
    return found


# ---- one bug, one deduction; marks by evidence ------------------------------------------------------------------
def charge_once(played: Sequence[tuple[Scenario, TestResult]],
                causes: dict[str, list[tuple[str, frozenset[str]]]]) -> None:
    """One bug, one deduction.  What a failure shows is its cause (``compare.mismatch_cause``: the same words in
    every test it shows in, with the rules of that).  Each cause is owned by the group whose scenarios show it
    and name most of its rules (then: where it shows most often), and costs marks in that group only: a scenario of
    another group that failed on nothing but causes owned elsewhere costs nothing more (``charged_to``).
    A crash or a hang always counts."""
    wrong = [(s, t) for s, t in played if t.verdict is Verdict.WRONG and causes.get(t.id)]
    owner: dict[str, TestResult] = {}
    for cause in dict.fromkeys(c for _s, t in wrong for c, _r in causes[t.id]):
        showing = [(s, t, len(rules & set(s.rules))) for s, t in wrong for c, rules in causes[t.id] if c == cause]
        by_group: dict[str, list[tuple[int, TestResult]]] = {}
        for _s, t, named in showing:
            by_group.setdefault(t.group, []).append((named, t))
        # the group whose scenarios name most of the cause's rules, then the one where it shows most often
        group = max(by_group.values(), key=lambda ts: (max(n for n, _t in ts), len(ts)))
        owner[cause] = max(group, key=lambda x: x[0])[1]
    for _s, t in wrong:
        owners = [owner[c] for c, _r in causes[t.id]]
        if all(o.group != t.group for o in owners):
            t.charged_to = owners[0].id
            t.notes.append(f"Not counted again: {t.charged_to} already failed on the same thing.")


def _checks(s: Scenario) -> list[int]:
    """The steps a scenario checks its rule at (its ``expect`` blocks, or its probe's)."""
    afters = [e.after for e in s.expects] if s.probe is None else [b.shared.after for b in s.probe.blocks]
    return sorted(set(afters))


def by_evidence(played: Sequence[tuple[Scenario, TestResult]]) -> None:
    """A scenario earns only where its rule was seen to hold.  One another test's difference hid is NOT_SHOWN and
    earns the share of its checks that held before that: before the step its game went another way (the state
    there is no longer its game's), up to the check whose only wrong values were other rules' business, before
    the check that failed on what another group is charged for (``charge_once``)."""
    for s, t in played:
        if t.kind != "scenario" or t.failed_after is None:
            continue
        if t.verdict is Verdict.NOT_SHOWN and explain.SEEN in t.message:
            continue  # judged around by the session, its share worked out check by check
        if t.verdict is Verdict.NOT_SHOWN:
            last = t.failed_after - 1 if explain.WENT_ANOTHER_WAY in t.message else t.failed_after
        elif t.verdict is Verdict.WRONG and t.charged_to:
            t.verdict, last = Verdict.NOT_SHOWN, t.failed_after - 1
        else:
            continue
        checks = _checks(s)
        seen = sum(1 for after in checks if after <= last)
        t.earned = round(seen / len(checks), 4) if checks else 0.0
        t.message += explain.seen_share(seen, len(checks))


COUNTED_FAILURES = frozenset(v for v in Verdict if v.family == "fail")


def scenario_charges(played: Sequence[tuple[Scenario, TestResult]],
                     causes: dict[str, list[tuple[str, frozenset[str]]]]) -> dict[str, str]:
    """Rule family -> the first scenario test charged for a failure in it (a wrong value: the family of what it
    showed, ``causes``, or of its own rules; a crash or a hang: ``crashes`` and its rules' family): the random
    games judge it around."""
    out: dict[str, str] = {}
    for s, t in played:
        if t.verdict not in COUNTED_FAILURES or t.charged_to:
            continue
        if t.verdict is Verdict.WRONG:
            shown = [family_of(rules or s.rules) for _cause, rules in causes.get(t.id, [])] or [family_of(s.rules)]
        else:  # a crash or a hang: in what its rules govern, as far as the random games can tell
            shown = [CRASHES, family_of(s.rules)]
        for family in shown:
            out.setdefault(family, t.id)
    return out


# ---- the stage ----------------------------------------------------------------------------------------------
def _timed(run: Callable[[], list[TestResult]]) -> list[TestResult]:
    start = time.monotonic()
    tests = run()
    for t in tests:
        t.seconds = (time.monotonic() - start) / max(1, len(tests))
    return tests


NOT_REPLAYED = (Verdict.TIMED_OUT, Verdict.WORKER_LOST, Verdict.OUTPUT)


def later_stages(session: PalaceSession, config: MarkingConfig, played: Sequence[tuple[Scenario, TestResult]], *,
                 random_games: int | None = None, memory: bool = True) -> Iterator[TestResult]:
    """One charge per bug and marks by evidence among the scenarios; the probes (no test of their own: what they
    found is a note of the random games), then the random games' tests, one a rule family; then the memory stage
    (``grader.games.palace.memcheck``), with ``memory``."""
    causes = getattr(session, "causes", {})
    charge_once(played, causes)
    # a memory error only in a failed scenario is charged there (an excused one too: it lost its marks)
    failed = [s.id for s, t in played if t.verdict.family == "fail"]
    by_evidence(played)
    n_games = config.random_games if random_games is None else random_games
    if n_games:
        yield from _random_stage(session, played, n_games, causes)
    if memory:
        from grader.games.palace.memcheck import run_memory_stage_palace  # noqa: PLC0415 - optional stage

        replayable = [s for s, t in played if t.verdict not in NOT_REPLAYED]
        not_replayed = [s.id for s, t in played if t.verdict in NOT_REPLAYED]
        yield from _timed(lambda: guarded_many("memory/replays", "memory", "memory", lambda: run_memory_stage_palace(
            session, replayable, not_replayed, failed)))


def _random_stage(session: PalaceSession, played: Sequence[tuple[Scenario, TestResult]], n_games: int,
                  causes: dict[str, list[tuple[str, frozenset[str]]]]) -> list[TestResult]:
    if session.client is not None:
        run_code_probes(session)
    found = session.readings_found()
    charged = scenario_charges(played, causes)
    return _timed(lambda: guarded_many(test_id("games"), GROUP, "random",
                                       lambda: run_random_games(session, n_games, found, charged)))
