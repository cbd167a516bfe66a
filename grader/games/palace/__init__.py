"""Palace (seed 004, rules-palace.md): the game as the core grades it (``GAME``).

The worker is given this package's ``sandbox/`` folder only (its jobs: ``sandbox.play``, ``sandbox.decide``),
never this module.  Only what the ``GameSpec`` value itself needs is imported here; the other trusted-side
parts (the session, the later stages, the scenarios, the replay and the repro programs) are imported when
first called.

The build's tests are marked under "§1": the headers of rules-palace.md §1 (PalaceCard.h, Palace.h)
are normative for this edition ("STRICT (header)"), and "it compiles and defines every function
they declare" is exactly what §1 asks.  No C-ruling is about that: C7 is about newGame's
preconditions (decks and player counts outside the contract), a run-time matter the build never sees.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence, cast

from grader.core.gamespec import GameSpec, Hallmarks
from grader.core.policy import NO_POLICY, Policy
from grader.core.suite.targets import marking_fixtures
from grader.games.palace.engine import ENGINE
from grader.games.palace.sandbox.interface import API_FUNCTIONS, COURSE_HEADERS, HEADERS, INCLUDE_DIR
from reference.palace import BY_ID

if TYPE_CHECKING:  # annotations only: these modules are imported when first called
    from grader.core.config import MarkingConfig
    from grader.core.gamespec import Owners, Ruling, Session
    from grader.core.gamespec import Scenario as CoreScenario
    from grader.core.replay import Frame
    from grader.core.results import TestResult
    from grader.core.sandbox.limits import LimitChanges, Limits
    from grader.core.suite.targets import Targets
    from grader.games.palace.arena import PalaceSeating
    from grader.games.palace.repro import Graded
    from grader.games.palace.scenarios import Scenario
    from grader.games.palace.session import PalaceSession

BUILD_RULES = ("§1",)  # the Palace headers: see the module docstring
# What only a Palace submission uses, besides its headers (Final Card-Down has no phases, rows or pile to pick up)
HALLMARKS = Hallmarks(flag="--game palace", files=("Palace.c", "PalaceCard.c"),
                      words=("currentPhase", "effectiveTopRank", "sevenRestriction", "faceUpCount", "burntCount",
                             "CHOOSE_FACE_UP", "PLAY_FACE_DOWN", "PICK_UP_PILE"))
# How to read the messages: the notation of reference.palace (cards.py, moves.py) and the observer's card numbers
# (observe.card_label), one point a line; tests/games/palace/test_messages_palace.py parses every example
NOTATION = "\n".join((
    "A card is its rank then its suit: ranks 2-9, T (ten), J, Q, K, A; suits H hearts, D diamonds, C clubs, "
    "S spades. TH is the ten of hearts.",
    "5H@12 is one particular card: the 5H that newGame was given at position 12 of the deck (counting from 0, "
    "top first).",
    "A game is written like \"2p mirror: 8H 5D 3D*2 ...\": the number of players, the rules newGame is given "
    "(basic; mirror is RULE_MIRROR_THREE, seven is RULE_SEVEN_LOWER, mirror+seven both), then the deck, top first; "
    "3D*2 is two 3D in a row.",
    "Moves: up:5H,6D,KS chooses those three cards for the face-up row (CHOOSE_FACE_UP); 5H or 5H,5D plays that "
    "card or set (PLAY_CARDS); blind:1 turns the face-down card at position 1, counting from 0 (PLAY_FACE_DOWN); "
    "pickup takes the pile (PICK_UP_PILE).",
    "Seats are numbered from 0.",
    "The grader's own isValidMove questions number the cards in the order it first saw them: play:3S#93 plays the "
    "3S it numbered 93; foreign:1:... tries a card of seat 1, wrong-zone:pile:... a card from the pile.",
    "<369114608,0> is a card with no real rank and suit (often memory your code had already freed).",
))


def _scenarios() -> tuple[Scenario, ...]:
    from grader.games.palace.scenarios import load_scenarios  # noqa: PLC0415

    return load_scenarios()


def _open_session(folder: Path, *, limits: Limits | LimitChanges | None = None, strict: frozenset[str] = frozenset(),
                  compile_timeout: float | None = None, policy: Policy = NO_POLICY) -> PalaceSession:
    from grader.games.palace.session import PalaceSession  # noqa: PLC0415

    return PalaceSession.open(folder, limits=limits, strict=strict, compile_timeout=compile_timeout, policy=policy)


def _owners(scenarios: Sequence[CoreScenario]) -> Owners:
    """Which scenario owns what: Palace judges each scenario only on the values its file expects, so
    there are no observations to share out (nothing seen outside a scenario's expectations is charged)."""
    return {}


def _later_stages(session: Session, config: MarkingConfig, played: Sequence[tuple[CoreScenario, TestResult]], *,
                  random_games: int | None = None, memory: bool = True) -> Iterator[TestResult]:
    """The probes, the random games and the memory stage (``grader.games.palace.stages``), their tests as they
    come.  The core hands back the session and the scenarios this game gave it."""
    from grader.games.palace.stages import later_stages  # noqa: PLC0415

    return later_stages(cast("PalaceSession", session), config, cast("Sequence[tuple[Scenario, TestResult]]", played),
                        random_games=random_games, memory=memory)


def _write_repros(result: Graded, folder: Path) -> dict[str, str]:
    """The C repro programs of a result's failed scenarios (``grader.games.palace.repro.write_repros``)."""
    from grader.games.palace.repro import write_repros  # noqa: PLC0415

    return write_repros(result, folder)


def _replay_frames(deck: str, moves: str) -> tuple[Frame, ...]:
    """The replay of a test's game (its setup and moves as the result wrote them), on the reference
    (``grader.games.palace.replay``); a random game played under other readings of the LENIENT switches
    (the readings a submission was held to) is replayed under the first readings that allow every move."""
    from grader.games.palace.replay import describe, frames  # noqa: PLC0415
    from reference.palace import Game, GameError, Readings, parse_moves  # noqa: PLC0415

    setup, specs = ENGINE.parse_deck(deck), parse_moves(moves)  # the engine's notation
    try:
        return frames(setup, specs)
    except GameError:
        pass
    for readings in Readings.every():
        game = Game(setup, readings)
        out = [describe(game, 0, "")]
        try:
            for k, spec in enumerate(specs, 1):
                move = game.resolve(spec)
                written = str(game.written(move))
                game.play_move(move)
                out.append(describe(game, k, written))
        except GameError:
            continue
        return tuple(out)
    raise GameError(f"no reading of the LENIENT switches allows every move of {moves[:80]!r}")


def _scenario_dir() -> Path:
    from grader.games.palace.scenarios import SCENARIO_DIR  # noqa: PLC0415

    return SCENARIO_DIR


def _suite_targets() -> Targets | None:
    """What a student's ``testPalace.c`` is run against (``grader.games.palace.suite``); None outside a checkout,
    which has no bundled model, readings and mutants."""
    from grader.games.palace.suite import SUBMISSIONS, suite_targets  # noqa: PLC0415

    return suite_targets() if (SUBMISSIONS / "mutants.py").is_file() else None


def _arena() -> PalaceSeating:
    from grader.games.palace.arena import PalaceSeating  # noqa: PLC0415

    return PalaceSeating()


GAME = GameSpec(
    name="palace",
    title="Palace",
    engine=ENGINE,
    include_dir=INCLUDE_DIR,
    api_headers=HEADERS,
    course_headers=COURSE_HEADERS,
    api_functions=API_FUNCTIONS,
    course_sources={"PalaceCard.c": ("newCard", r"\bCard\s+newCard\s*\([^;{)]*\)\s*\{")},
    build_rules=BUILD_RULES,
    marking_file=Path(__file__).resolve().parent / "marking.toml",
    rulings=cast("Mapping[str, Ruling]", BY_ID),  # (a Mapping of the reference's rulings: read-only here)
    sandbox_job="grader.games.palace.sandbox.play",
    sandbox_packages=(),
    load_scenarios=_scenarios,
    open_session=_open_session,
    owners=_owners,
    later_stages=_later_stages,
    write_repros=_write_repros,
    replay_frames=_replay_frames,
    suite_targets=_suite_targets,
    marking_fixtures=lambda: marking_fixtures(_scenario_dir(), _suite_targets),
    arena=_arena,
    hallmarks=HALLMARKS,
    notation=NOTATION,
)
