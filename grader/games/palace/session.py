"""A Palace scenario played on a submission and judged on what its file expects.

``PalaceSession`` is the core's ``SubmissionSession`` (build, worker, limits) with Palace's part.
``run_scenario`` plays the scenario's moves on the library in one worker run (``play``: the job
``grader.games.palace.sandbox.play``, with the questions of the scenario's ``valid``/``invalid``/``malformed``
lists and ``index_ranges`` asked at their step, ``Asks``) and judges every ``expect`` block on the library's own
observation after ``after`` moves (``grader.games.palace.compare.check_expect``).  The expected values come
from the scenario file -- checked on the reference under every reading by the scenario tests -- never from the
reference engine here.

The reference is used only to say *whose* business a difference is (one bug, one deduction).  When a
scenario cannot be judged on its own rule because the library's game went another way earlier (a wrong
deal, a refused move, a wrong turn order...), the first step where the library's game matches the
reference under no reading (``compare.first_departure``) is attributed to the rules that govern what happened
there (``grader.games.palace.focus``).  If the scenario names one of them, the difference is its business (a
failure); otherwise the test is INCONCLUSIVE -- another test judges it, and it is not counted twice.  So is a
scenario whose only wrong values are isValidMove answers governed by rules it does not name
(``focus.ask_relation``: an equal rank played on a mirror three is the business of C8, not of C29).  Every
failure also records its cause (``compare.mismatch_cause``: what it shows, in the same words in every test) for
``stages.charge_once``, which makes a cause cost marks in one group only.  A crash, a hang or an early
exit is always the scenario's verdict, pinned on the call in progress.  The words of every verdict are
``grader.games.palace.explain``'s.

A probe scenario (``probe = "C9"``, §4.3) passes when the library follows one of the switch's readings
in every block; the readings it follows are kept (``PalaceSession.probed``) for the random games, which
hold a submission to the reading it follows.  Mixing readings fails the probe: following none of them in
one probe, or following one another probe of the same ruling excluded.

Every game is first played by the C observer (``c_observer``: the whole game in one native call, one packed
frame back).  When its packed frames are, byte for byte, the reference's under readings the submission is held to
(``held_readings``; the reference's packed with the job's own code, ``reference_frames``, and cached by request and
readings), the library sent exactly the reference's frames: the run holds those (``GameRun.agreed``) and nothing
is played again.  Anything else -- a difference, a crash, a hang, a malformed blob -- is played again by the
Python job, whose frames give the verdict and the message as they always did.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import subprocess
import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Sequence, cast

import orjson

import reference.palace
from grader.core.batched_games import TIMED_SIGNALS, Shown, batch_limits
from grader.core.cache import cached, key_of, source_version
from grader.core.classify import classify
from grader.core.deal_map import rearranged, rearrangement
from grader.core.isolation import library_path_inside
from grader.core.ownership import own_clauses
from grader.core.policy import NO_POLICY, Policy
from grader.core.replay import call_in_progress
from grader.core.results import DifferenceRow, TestResult, Verdict
from grader.core.run_report import Enforced, RunReport
from grader.core.sandbox.limits import Limits
from grader.core.session import SubmissionSession
from grader.core.worker_client import WorkerClient, WorkerLost
from grader.games.palace import explain
from grader.games.palace.c_observer import install as install_observer
from grader.games.palace.compare import (
    COUNTERS,
    EXPECT_KEYS,
    Departure,
    Mismatch,
    Walk,
    answers_agree,
    asserts,
    check_expect,
    entry_label,
    ident_map,
    mismatch_cause,
    mismatch_owners,
    rebased,
    ref_text,
    walk,
)
from grader.games.palace.deal_map import PARTIAL, learnt, places, probe_setups, same_deal
from grader.games.palace.sandbox.frames import ASK, INDEX_RANGES, OVER, RECHECK, AskedMove, AskEntry, Event, max_frames
from grader.games.palace.sandbox.interface import API_FUNCTIONS
from grader.games.palace.sandbox.observations import pack_frames
from grader.games.palace.sandbox.observe import describe_call
from grader.games.palace.sandbox.playing import PlayedGame, play_game
from grader.games.palace.scenarios import Expect, Malformed, Scenario
from reference.palace import REFERENCE, SWITCHES, Action, Game, MoveSpec, Readings, Setup, format_moves

if TYPE_CHECKING:
    from grader.core.build import BuildResult
    from grader.core.gamespec import GameSpec, Owners
    from grader.core.gamespec import Scenario as GameScenario
    from grader.core.sandbox.limits import LimitChanges

GAME_ERRORS = {"null_game": (Verdict.WRONG, "newGame() returned NULL for a valid deck (rules-palace.md §1.3).")}
OVER_TAGS = frozenset(e.value for e in OVER)
STOP_TAGS = (Event.REFUSED.value, Event.NO_CARD.value)
# Readings a native run is compared under, at most: where the probes could not tell (a stub, a wrong deal) every
# combination is held (24), and the reference's packed run of each costs seconds; the full run judges the rest.
HELD_TRIED = 4
DEAL_CLAUSES = frozenset({"P2", "C2"})  # a scenario naming these judges the deal: its deck is played as given
MISSES = 8  # games in a row the C observer saw differ, after which it tries one game in MISSES only
# A test whose rule a departure owned elsewhere hid is NOT_SHOWN here, its share still whole: once every scenario
# has run, ``stages.by_evidence`` sets what it earns (the share of its checks seen to hold before the departure) --
# but where it was judged around (``_judged_around``: its share of the values it checks is worked out here).
EXCUSED = 1.0

__all__ = ["Asks", "GameRun", "PalaceSession", "Probed", "ask_entry", "call_words", "judge_run", "play",
           "stopped_row"]


# ---- one game on the library --------------------------------------------------------------------------
Frames = Sequence[Mapping[str, object]]


class GameRun:
    """One game played on the submission: how the run ended, and what the child sent.

    A game the C observer saw send exactly the reference's frames under some readings (``agreed``) holds those
    frames instead -- the same JSON the Python job would have sent -- made only when first read (``frames``: a
    callable then); how it ended (``events``) is known at once."""

    def __init__(self, report: RunReport, frames: Frames | Callable[[], Frames], *, agreed: Readings | None = None,
                 events: list[Mapping[str, object]] | None = None, dealt_as: Setup | None = None) -> None:
        self.report = report
        self.agreed = agreed
        self.dealt_as = dealt_as  # the deck newGame was given, when not the game's (a wrong deal judged around)
        self._frames = frames
        self._events = events

    @cached_property
    def _parsed(self) -> tuple[list[object], dict[int, Mapping[str, object]], list[Mapping[str, object]],
                               dict[int, object]]:
        steps: list[object] = []
        asked: dict[int, Mapping[str, object]] = {}
        rechecked: dict[int, object] = {}
        events: list[Mapping[str, object]] = []
        for f in self._frames() if callable(self._frames) else self._frames:
            i = f.get("i")
            step = i if isinstance(i, int) and not isinstance(i, bool) else -1
            if f["t"] == Event.OBS.value:
                steps.append(f.get("obs"))
            elif f["t"] == Event.ASKED.value:
                asked.setdefault(step, f)
            elif f["t"] == Event.RECHECK.value:
                rechecked.setdefault(step, f.get("counts"))
            else:
                events.append(f)
        return steps, asked, events, rechecked

    @property
    def steps(self) -> list[object]:
        """The observation after newGame and after each move made (the student's JSON)."""
        return self._parsed[0]

    @property
    def asked(self) -> dict[int, Mapping[str, object]]:
        """Step -> the "asked" frame of that step."""
        return self._parsed[1]

    @property
    def events(self) -> list[Mapping[str, object]]:
        """Moved, refused, no_card, done, error."""
        return self._events if self._events is not None else self._parsed[2]

    @property
    def rechecked(self) -> dict[int, object]:
        """Step -> the counters the battery's isValidMove calls changed (C46)."""
        return self._parsed[3]

    @property
    def over(self) -> bool:
        """Did the child get to the end of what it could play?"""
        return any(e["t"] in OVER_TAGS for e in self.events)

    def stop(self) -> tuple[str, int] | None:
        """("refused" | "no_card", move index) when the library could not make a move."""
        for e in self.events:
            if e["t"] in STOP_TAGS:
                i = e.get("i")
                return str(e["t"]), i if isinstance(i, int) and not isinstance(i, bool) else -1
        return None


def play_request(setup: Setup, moves: Sequence[MoveSpec], *, asks: Sequence[tuple[int, list[AskEntry]]] = (),
                 blind_cards: Sequence[tuple[int, int]] = (), destroy: bool = False, battery: bool = True,
                 recheck: bool = False, dealt_as: Setup | None = None) -> dict[str, object]:
    """The ``play`` job's request (see its module's docstring), as JSON data."""
    request: dict[str, object] = {"setup": str(setup), "moves": [str(m) for m in moves], "destroy": destroy,
                                  "battery": battery, "recheck": recheck}
    if dealt_as is not None:
        request["dealt_as"] = str(dealt_as)
    if asks:
        request["ask"] = [[step, entries] for step, entries in asks]
    if blind_cards:
        request["blind_cards"] = [list(b) for b in blind_cards]
    return request


def frame_budget(request: Mapping[str, object]) -> int:
    """The most frames the job sends for this request."""
    moves = len(cast("Sequence[object]", request["moves"]))
    return max_frames(moves) + len(cast("Sequence[object]", request.get("ask") or ())) + (
        moves + 1 if request.get("recheck") else 0)


def play(client: WorkerClient, setup: Setup, moves: Sequence[MoveSpec], *, limits: Limits,
         asks: Sequence[tuple[int, list[AskEntry]]] = (), blind_cards: Sequence[tuple[int, int]] = (),
         destroy: bool = False, battery: bool = True, recheck: bool = False, dealt_as: Setup | None = None) -> GameRun:
    """Play ``moves`` on a fresh game in a fresh child (``grader.games.palace.sandbox.play``; see its request keys)."""
    request = play_request(setup, moves, asks=asks, blind_cards=blind_cards, destroy=destroy, battery=battery,
                           recheck=recheck, dealt_as=dealt_as)
    report = client.run(request, limits, frame_budget(request))
    return GameRun(report, report.frames, dealt_as=dealt_as)


def judge_run(run: GameRun) -> tuple[Verdict, str] | None:
    """What a played game's facts mean, when it did not simply finish (``grader.core.classify``)."""
    return classify(run.report, over=run.over, errors=GAME_ERRORS)


def stopped_row(run: GameRun, verdict: Verdict, moves: Sequence[MoveSpec]) -> DifferenceRow | None:
    """The replay's row of a game the library stopped in (a crash, a hang, ...): the call in progress, at the step
    of the game it was made on (``grader.core.replay.call_in_progress`` says which step, and why)."""
    return call_in_progress(run.report, verdict, moves=len(moves),
                            made=sum(e.get("t") == Event.MOVED.value for e in run.events),
                            words=lambda call: call_words(call, moves))


def call_words(call: tuple[int, ...], moves: Sequence[MoveSpec]) -> str:
    """The call in progress (the worker's call slot: step, probe, C call, a, b) as a student would write it:
    ``playMove (5H) at move 3``, ``getHandCard(1, 4)``, ``isValidMove(), asked by the grader``."""
    _step, probe, cfn, a, b = call
    if probe in (ASK, RECHECK):
        name = API_FUNCTIONS[cfn] if 0 <= cfn < len(API_FUNCTIONS) else "an API call"
        return f"{name}(), {'asked' if probe == ASK else 'read again'} by the grader"
    return describe_call(probe, cfn, a, b, moves)


# ---- what a scenario asks of isValidMove -----------------------------------------------------------------------
def ask_entry(entry: MoveSpec | Malformed) -> AskedMove:
    """A ``valid``/``invalid``/``malformed`` entry as the job's ``ask`` reads it."""
    if isinstance(entry, Malformed):
        cards: list[str | int | None] = [ref_text(c) for c in entry.cards]
        if entry.form == "action":
            return {"action": entry.number}
        if entry.form == "blind":
            return {"action": int(Action.PLAY_FACE_DOWN), "index": entry.number}
        if entry.form == "count":
            return {"action": entry.action, "cards": cards, "count": entry.number}
        if entry.form == "null":
            return {"action": entry.action, "cards": cards + [None]}
        return {"action": entry.action, "cards": cards + [0]}  # repeat: the first card's pointer again
    return {"action": int(entry.action), "cards": [ref_text(c) for c in entry.cards],
            "index": entry.face_down_index}


class Asks:
    """The questions of a scenario, by step: each distinct entry asked once."""

    def __init__(self) -> None:
        self.by_step: dict[int, list[tuple[str, AskEntry]]] = {}

    def add(self, step: int, label: str, entry: AskEntry) -> None:
        row = self.by_step.setdefault(step, [])
        if label not in (lb for lb, _e in row):
            row.append((label, entry))

    def add_expect(self, e: Expect) -> None:
        entries: tuple[MoveSpec | Malformed, ...] = (*e.valid, *e.invalid, *e.malformed)
        for entry in entries:
            self.add(e.after, entry_label(entry), ask_entry(entry))
        if e.index_ranges:
            self.add(e.after, INDEX_RANGES, INDEX_RANGES)

    def request(self) -> list[tuple[int, list[AskEntry]]]:
        return [(step, [entry for _label, entry in row]) for step, row in sorted(self.by_step.items())]

    def answers(self, step: int, frame: Mapping[str, object] | None) -> dict[str, object]:
        """label -> the library's answer at that step ({} when the questions were not asked)."""
        if frame is None:
            return {}
        got = frame.get("answers")
        if not isinstance(got, list):
            return {}
        return {label: got[k] for k, (label, _e) in enumerate(self.by_step.get(step, [])) if k < len(got)}


# ---- the packed fast path -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReferenceRun:
    """The reference's game of a request under some readings, as the C observer would send it for a library that
    does what the reference does: the digest of its packed frames (None: no packed form), and how it ended."""

    digest: str | None
    made: int  # moves made
    end: tuple[str, int]  # the last frame: ("done", -1), ("refused", i) or ("no_card", i)

    def events(self) -> list[Mapping[str, object]]:
        """The frames of ``GameRun.events`` this run sent."""
        tag, i = self.end
        last: dict[str, object] = {"t": tag, "i": i} if i >= 0 else {"t": tag}
        return [*({"t": Event.MOVED.value, "i": k} for k in range(self.made)), last]


def reference_frames(request: Mapping[str, object], readings: Readings) -> list[dict[str, object]]:
    """The frames the job sends for ``request`` when the library is the reference under ``readings`` (the very
    ``play_game`` the child runs), as plain JSON, as frames arrive."""
    setup = Setup.parse(str(request["setup"]))
    sent: list[dict[str, object]] = []
    game = Game(setup, readings)
    play_game(cast("PlayedGame", game), setup, request, sent.append, _no_trace, _no_step)
    return cast("list[dict[str, object]]", orjson.loads(orjson.dumps(sent)))


def _no_trace(_probe: int, _call: int, _a: int, _b: int) -> None:
    return None


def _no_step(_step: int) -> None:
    return None


_RECENT: OrderedDict[str, list[dict[str, object]]] = OrderedDict()  # the last reference runs' frames, by key
_RECENT_RUNS = 4  # a game's frames are read right after its run is compared, if at all


def _reference_run(key: str, request: Mapping[str, object], readings: Readings) -> ReferenceRun:
    try:
        frames = reference_frames(request, readings)
        n_players = Setup.parse(str(request["setup"])).n_players
        digest = hashlib.sha256(pack_frames(frames, n_players, bool(request.get("battery", True)))).hexdigest()
    except Exception:  # noqa: BLE001 - the reference cannot play it as asked: no packed form, the full run judges
        return ReferenceRun(None, 0, ("", -1))
    _RECENT[key] = frames
    while len(_RECENT) > _RECENT_RUNS:
        _RECENT.popitem(last=False)
    last = frames[-1] if frames else {}
    i = last.get("i")
    return ReferenceRun(digest, sum(f["t"] == Event.MOVED.value for f in frames),
                        (str(last.get("t")), i if isinstance(i, int) and last.get("t") in STOP_TAGS else -1))


@functools.cache
def _trace_version() -> str:
    """The version of everything a reference run follows from: the rules and the Palace job's code (its sandbox
    folder: the reference is played by the very code the child runs)."""
    sandbox = Path(__file__).resolve().parent / "sandbox"
    return source_version([*Path(reference.palace.__file__).resolve().parent.glob("*.py"), *sandbox.glob("*.py")])


def _run_key(request: Mapping[str, object], readings: Readings) -> str:
    return key_of(_trace_version(), "palace", request, sorted(readings.by_ruling().items()))


def cached_reference_run(request: Mapping[str, object], readings: Readings) -> ReferenceRun:
    """``ReferenceRun`` of a request, computed once per version for every submission (``grader.core.cache``)."""
    key = _run_key(request, readings)
    return cached("palace-packed", key, lambda: _reference_run(key, request, readings),
                  lambda r: {"digest": r.digest, "made": r.made, "end": list(r.end)},
                  lambda d: ReferenceRun(d["digest"] if d["digest"] is None else str(d["digest"]), int(d["made"]),
                                         (str(d["end"][0]), int(d["end"][1]))))


def agreed_frames(request: Mapping[str, object], readings: Readings) -> list[dict[str, object]]:
    """The frames of a game that agreed with the reference under ``readings``: the reference's (kept from its
    run when it was just computed)."""
    return _RECENT.get(_run_key(request, readings)) or reference_frames(request, readings)


def _dealt(setup: Setup) -> object:
    """The reference's observation right after newGame on ``setup`` (the deal of C2), as a frame carries it."""
    return reference_frames({"setup": str(setup), "moves": [], "destroy": False, "battery": False},
                            REFERENCE)[0]["obs"]


def _observer_beside(lib_dir: Path) -> str:
    """The C observer installed beside a built library, as the sandbox sees it; "" when it cannot be built (a
    grader fault that costs only time: every game then takes the full run)."""
    try:
        return library_path_inside(install_observer(lib_dir))
    except (RuntimeError, OSError, subprocess.SubprocessError):
        return ""


def _decoded(data: object) -> bytes | None:
    """The packed frames a worker sent (student-controlled: anything but base64 text is no answer)."""
    if not isinstance(data, str):
        return None
    try:
        return base64.b64decode(data, validate=True)
    except ValueError:
        return None


# ---- the session ---------------------------------------------------------------------------------------------
@dataclass
class Probed:
    """What one probe (a scenario, or one of the stage's own) showed of a switch ruling's readings."""

    ruling: str
    source: str  # the test id, or the stage's probe name
    readings: frozenset[str] | None  # the readings the library follows there; None: the probe could not tell


class PalaceSession(SubmissionSession):
    """A session of the Palace edition: scenarios judged on their expectations, probes remembered."""

    def __init__(self, folder: Path, game: GameSpec, build_result: BuildResult, limits: Limits,
                 strict: frozenset[str]) -> None:
        super().__init__(folder, game, build_result, limits, strict)
        self.owners: Owners = {}  # Palace's owners are none (``grader.games.palace._owners``)
        self.probed: list[Probed] = []  # every probe's finding, in the order they ran
        # test id -> what each of its failures shows, and the rules of that (``mismatch_cause``): a failure
        # another test shows too is charged once (``stages.charge_once``)
        self.causes: dict[str, list[tuple[str, frozenset[str]]]] = {}
        # The C observer beside the library (a submission with every API function): a game whose packed frames
        # equal the reference's under readings the submission is held to is accepted from one native run; any
        # other is played again the whole way by the Python job, which gives its verdict (``_agreed_run``).
        self.observer = (_observer_beside(self.build.library.parent)
                         if self.client is not None and self.build.library is not None and not self.build.missing
                         else "")
        # The last game crashed, hung or ran out of memory: the next goes straight to the full run (a native run
        # would most likely meet the same trouble and be repeated).
        self.troubled_last = False
        # Games in a row the C observer did not see agree: after MISSES of them only one game in MISSES tries it
        # (a library that differs everywhere is not played twice every time).
        self.misses = 0
        # A game showed a deal other than C2's: from then on, a game played around the deal is given the deck
        # rearranged so that the library's own deal is C2's (``dealt_as``), learnt once per size (``_deals``).
        self.deals_wrong = False
        self._deals: dict[tuple[int, int], list[int] | None] = {}

    @classmethod
    def open(cls, folder: Path, *, limits: Limits | LimitChanges | None = None, strict: frozenset[str] = frozenset(),
             compile_timeout: float | None = None, policy: Policy = NO_POLICY) -> PalaceSession:
        """A session of Palace, the game found by name in the registry (the package imports this module)."""
        from grader.games import get  # noqa: PLC0415

        return cls.open_game(folder, get("palace"), limits=limits, strict=strict, compile_timeout=compile_timeout,
                             policy=policy)

    # ---- playing -----------------------------------------------------------------------------------------
    def play(self, setup: Setup, moves: Sequence[MoveSpec], *, asks: Sequence[tuple[int, list[AskEntry]]] = (),
             blind_cards: Sequence[tuple[int, int]] = (), destroy: bool = False, battery: bool = True,
             recheck: bool = False, around_deal: bool = False, native: bool = True) -> GameRun:
        """One game on the library (``play``'s keywords), under the session's limits (a hang shortens the
        later ones); ``WorkerLost`` when the sandbox stopped answering.  ``around_deal``: the game does not judge
        the deal, so a library seen to deal otherwise than C2 is given the deck rearranged (``dealt_as``), and
        the run says so (``GameRun.dealt_as``).  ``native``: False when the C observer just saw this very game
        differ (in a batch): it goes straight to the full run."""
        def once(dealt: Setup | None) -> GameRun:
            return self._play(setup, moves, asks=asks, blind_cards=blind_cards, destroy=destroy, battery=battery,
                              recheck=recheck, dealt_as=dealt, native=native)

        dealt = self.dealt_as(setup) if around_deal else None
        run = once(dealt)
        if dealt is None and run.agreed is None and not self.deals_wrong and run.steps \
                and not same_deal(_dealt(setup), run.steps[0]):
            self.deals_wrong = True  # (a game a deal test plays shows it too: its own run is judged as it is)
            dealt = self.dealt_as(setup) if around_deal else None
            if dealt is not None:
                run = once(dealt)
        return run

    def dealt_as(self, setup: Setup) -> Setup | None:
        """The deck a game around the deal gives newGame: ``setup``'s rearranged so that the library's own deal
        puts every card where C2 puts it in ``setup`` (``grader.games.palace.deal_map``); None: ``setup`` itself
        (a library seen to deal as C2 says, or one whose deal no rearrangement matches)."""
        if not self.deals_wrong or self.client is None:
            return None
        size = (setup.n_players, setup.n_cards)
        if size not in self._deals:
            self._deals[size] = self._learn_deal(*size)
        order = self._deals[size]
        return None if order is None else Setup(setup.n_players, setup.rules, tuple(rearranged(setup.deck, order)))

    def _learn_deal(self, n_players: int, size: int) -> list[int] | None:
        """How the library deals ``size`` cards to ``n_players``: the rearrangement that gives C2's deal, from its
        games on the probe decks (``deal_map.probe_setups``); None when they cannot tell."""
        assert self.client is not None
        observed = []
        for probe in probe_setups(n_players, size):
            try:
                run = play(self.client, probe, (), limits=self.short_limits(), battery=False)
            except WorkerLost:
                return None
            if judge_run(run) is not None or not run.steps:
                return None
            observed.append((places(_dealt(probe), probe.deck), places(run.steps[0], probe.deck)))
        found = learnt(observed)
        return rearrangement(*found, size, partial=PARTIAL) if found is not None else None

    def _play(self, setup: Setup, moves: Sequence[MoveSpec], *, asks: Sequence[tuple[int, list[AskEntry]]],
              blind_cards: Sequence[tuple[int, int]], destroy: bool, battery: bool, recheck: bool,
              dealt_as: Setup | None, native: bool = True) -> GameRun:
        assert self.client is not None
        try:
            if native and self.observer and not self.troubled_last and (
                    self.misses < MISSES or self.misses % MISSES == 0):
                agreed = self._agreed_run(play_request(setup, moves, asks=asks, blind_cards=blind_cards,
                                                       destroy=destroy, battery=battery, recheck=recheck,
                                                       dealt_as=dealt_as))
                if agreed is not None:
                    self.misses = 0
                    return agreed
            self.misses += 1
            run = play(self.client, setup, moves, limits=self.limits, asks=asks, blind_cards=blind_cards,
                       destroy=destroy, battery=battery, recheck=recheck, dealt_as=dealt_as)
        except WorkerLost:
            self._count_timeout()  # a lost worker cost a full wall limit too
            raise
        trouble = judge_run(run)
        self.troubled_last = trouble is not None
        if trouble is not None and trouble[0] is Verdict.TIMED_OUT:
            self._count_timeout()
        return run

    # ---- games several to a child (``grader.core.batched_games``) --------------------------------------------
    def batch_ready(self) -> bool:
        """May a batch prove a game now, as the game's own run would (the C observer tried, its last games not
        all different)?"""
        return bool(self.observer) and self.client is not None and not self.troubled_last and self.misses < MISSES

    def play_batch(self, requests: Sequence[dict[str, object]]) -> list[Shown]:
        """The games (``play_request``s) one after the other in one fresh child, through the C observer: EQUAL for a
        game whose packed frames are the reference's under a reading it is held to (as ``_agreed_run`` accepts a
        game), DIFFERED for another that finished; the game the child stopped in HUNG (cut for time) or CRASHED;
        NOT_RUN for the games after it, and for all when what the child sent cannot be read game by game."""
        shown: list[Shown] = []
        if self.client is None or not self.observer:
            return [Shown.NOT_RUN] * len(requests)
        limits = self.limits
        request = {"batch": list(requests), "observer": self.observer, "each": {"cpu": limits.cpu, "wall": limits.wall}}
        try:
            report = self.client.run(request, batch_limits(limits), len(requests) + 2)
        except WorkerLost:
            return [Shown.NOT_RUN] * len(requests)
        if report.enforced in (Enforced.OUTPUT, Enforced.PROTOCOL) or report.error is not None:
            return [Shown.NOT_RUN] * len(requests)
        held = self.held_readings()[:HELD_TRIED]
        for i, (game, frame) in enumerate(zip(requests, report.tagged(Event.PACKED.value))):
            if frame.get("game") != i:
                break
            reference = {k: v for k, v in game.items() if k != "dealt_as"}  # (the reference plays the game's deck)
            equal = frame.get("outcome") == "finished" and any(
                cached_reference_run(reference, r).digest == frame.get("digest") for r in held)
            shown.append(Shown.EQUAL if equal else Shown.DIFFERED)
        if len(shown) < len(requests):
            trouble = classify(report, over=True, errors=GAME_ERRORS)
            timed = (trouble is not None and trouble[0] is Verdict.TIMED_OUT) or report.signal in TIMED_SIGNALS
            shown.append(Shown.HUNG if timed else Shown.CRASHED)
        return shown + [Shown.NOT_RUN] * (len(requests) - len(shown))

    def play_after(self, requests: Sequence[dict[str, object]]) -> GameRun | None:
        """The last game of ``requests`` played after the others in one child (those through the C observer, it
        through the Python job): every frame of it, as a game alone sends them; None when the child did not get
        to it (what state the others left behind is then unseen)."""
        if self.client is None or not self.observer or not requests:
            return None
        limits = self.limits
        request = {"batch": list(requests[:-1]), "then": requests[-1], "observer": self.observer,
                   "each": {"cpu": limits.cpu, "wall": limits.wall}}
        try:
            report = self.client.run(request, batch_limits(limits), len(requests) + frame_budget(requests[-1]))
        except WorkerLost:
            return None
        frames = [f for f in report.frames if f.get("t") != Event.PACKED.value]
        return GameRun(report, frames) if any(f.get("t") == Event.OBS.value for f in frames) else None

    def held_readings(self) -> list[Readings]:
        """The combinations of readings a game is held to now (the probes' findings so far), in the order the
        random games list them (their first is the one they observe)."""
        found = self.readings_found()
        return [r for r in Readings.every() if all(r.of(ruling) in found[ruling] for ruling in SWITCHES)]

    def _agreed_run(self, request: dict[str, object]) -> GameRun | None:
        """The game played by the C observer: a ``GameRun`` when its packed frames are the reference's under a
        reading it is held to (the frames the Python job would send are then the reference's); None for anything
        else -- different, crashed, hung, malformed -- and the full run judges it.  A hang here is not counted: the
        full run meets it again, under the limits of today."""
        assert self.client is not None
        report = self.client.run({**request, "observer": self.observer}, self.limits, frame_budget(request))
        packed = [f for f in report.frames if f.get("t") == Event.PACKED.value]
        if len(packed) != 1 or packed[0].get("outcome") != "finished" \
                or classify(report, over=True, errors=GAME_ERRORS) is not None:
            return None
        data = _decoded(packed[0].get("data"))
        if data is None:
            return None
        digest = hashlib.sha256(data).hexdigest()
        given = request.pop("dealt_as", None)  # the reference plays the game's own deck: its frames are the same
        for readings in self.held_readings()[:HELD_TRIED]:
            ref = cached_reference_run(request, readings)
            if ref.digest == digest:
                return GameRun(report, functools.partial(agreed_frames, request, readings), agreed=readings,
                               events=ref.events(), dealt_as=Setup.parse(str(given)) if given else None)
        return None

    def lost(self, base: TestResult, lost: WorkerLost, start: float) -> TestResult:
        base.verdict = Verdict.WORKER_LOST
        base.message = (f"The sandbox running your code stopped answering ({lost}); it was restarted "
                        "and the other tests still ran.")
        base.seconds = time.monotonic() - start
        return base

    # ---- a scenario -------------------------------------------------------------------------------------
    def own_clauses(self, s: Scenario) -> frozenset[str]:
        """The clauses a difference is charged to ``s`` for: those its group owns (``grader.core.ownership``)."""
        return frozenset(own_clauses(s.group, s.rules, self.homes))

    def run_scenario(self, scenario: GameScenario) -> TestResult:
        """One scenario played and judged (the core hands back one of this game's: a Palace ``Scenario``)."""
        if not isinstance(scenario, Scenario):
            raise TypeError(f"not a Palace scenario: {scenario!r}")
        s = scenario
        base = TestResult(f"{s.group}/{s.id}", s.group, tuple(s.rules), s.weight, Verdict.NOT_RUN, kind="scenario",
                          deck=str(s.setup), moves=format_moves(s.moves))
        if self.client is None:
            base.message = "Not run: the submission did not compile."
            return base
        start = time.monotonic()
        asks = Asks()
        blocks: list[tuple[str | None, Expect]] = []  # (reading, expectation): None for every reading
        if s.probe is None:
            blocks = [(None, e) for e in s.expects]
        else:
            for b in s.probe.blocks:
                blocks.append((None, b.shared))
                blocks += [(r, b.for_reading(r)) for r in s.probe.readings]
        for _r, e in blocks:
            asks.add_expect(e)
        try:
            run = self.play(s.setup, s.moves, asks=asks.request(), battery=False,
                            around_deal=not DEAL_CLAUSES & set(s.rules))
        except WorkerLost as lost:
            return self.lost(base, lost, start)
        base.seconds = time.monotonic() - start
        base.stdout, base.stderr = run.report.stdout[:65536], run.report.stderr[:65536]
        if run.dealt_as is not None:
            base.dealt_as = str(run.dealt_as)
            base.notes.append(explain.dealt_as())
        ids = ident_map(run.steps[0] if run.steps else None, s.setup)
        n = s.setup.n_players

        def judged(e: Expect, offsets: Mapping[str, int] | None = None) -> list[Mismatch] | None:
            """The mismatches of one block (the counters less ``offsets``); None when the game never got there."""
            if e.after >= len(run.steps):
                return None
            frame = run.asked.get(e.after)
            answers = asks.answers(e.after, frame)
            needs_answers = bool(e.valid or e.invalid or e.malformed or e.index_ranges)
            if needs_answers and frame is None:
                return None
            shift = offsets or {}
            return check_expect(e, rebased(run.steps[e.after], shift), answers, ids, n,
                                rebased(frame.get("obs"), shift) if frame else None)

        found = {id(e): judged(e) for _r, e in blocks}
        counted: Walk | None = None  # the library's game walked beside the reference's: once, where something failed
        if any(f for f in found.values()):
            # a counter that differed on the way (currentTurn) is judged by what each move changed when it is
            # another test's business: a note here, never what hides this test's rule
            counted = walk(s.setup, s.moves, run)
            # (every clause the scenario lists, not only its group's: its C program checks the counter as it is,
            # so a scenario listing the counter's rule holds it whole)
            if counted.shifts and not any(d.owners & set(s.rules) for d in counted.shifts):
                found = {id(e): judged(e, counted.offsets_at(e.after)) for _r, e in blocks}
                base.notes += [explain.counter_judged_by_change(s, d) for d in counted.shifts[:1]]
        trouble = judge_run(run)
        if s.probe is None:
            failed = next(((e, found[id(e)]) for _r, e in sorted(blocks, key=lambda b: b[1].after)
                           if found[id(e)] is None or found[id(e)]), None)
            if failed is None and trouble is None:
                base.verdict = Verdict.PASSED
                return base
            counted = counted or walk(s.setup, s.moves, run)
            around = None if trouble is not None else self._judged_around(base, s, run, counted, blocks, found)
            if isinstance(around, TestResult):
                return around
            return self._failure(base, s, run, counted, trouble, around or failed, [], judged=around is not None)
        # a probe: which readings does the library follow in every block?
        ruling = s.probe.ruling
        follows: list[str] = []
        for reading in s.probe.readings:
            if all(found[id(e)] == [] for r, e in blocks if r in (None, reading)):
                follows.append(reading)
        earlier = [p for p in self.probed if p.ruling == ruling and p.readings is not None]
        self.probed.append(Probed(ruling, base.id, frozenset(follows) if follows else None))
        if follows and trouble is None:
            shown = [p.readings for p in earlier if p.readings is not None]
            before = frozenset(SWITCHES[ruling][1]).intersection(*shown)
            if not before & set(follows):  # each probe alone is fine, together they show two readings
                base.verdict = Verdict.WRONG
                base.failed_on = "readings"
                base.message = explain.readings_mixed(s, ruling, follows, earlier)
                return base
            base.verdict = Verdict.PASSED
            base.notes.append(explain.reading_followed(ruling, follows))
            return base
        shared = next(((e, found[id(e)]) for r, e in blocks if r is None and (found[id(e)] is None or found[id(e)])),
                      None)
        per_reading: list[tuple[str, tuple[Expect, list[Mismatch] | None]]] = []
        for reading in s.probe.readings:
            bad = [(e, found[id(e)]) for r, e in blocks if r == reading and (found[id(e)] is None or found[id(e)])]
            if bad:
                per_reading.append((reading, bad[0]))
        failed = shared or (per_reading[0][1] if per_reading else None)
        return self._failure(base, s, run, counted or walk(s.setup, s.moves, run), trouble, failed,
                             per_reading if shared is None else [])

    def _judged_around(self, base: TestResult, s: Scenario, run: GameRun, counted: Walk,
                       blocks: Sequence[tuple[str | None, Expect]],
                       found: Mapping[int, list[Mismatch] | None]) -> TestResult | tuple[Expect, list[Mismatch]] | None:
        """A scenario whose every wrong value is another test's business: NOT_SHOWN, earning the share of the values
        it checks seen to hold on what still agreed; else the first check with a wrong value of its own
        (``_failure`` charges it), or None where the game is not judged around (``_failure`` decides).

        Where the game first went another way (``walk``) in another test's business, none of what went another way
        there or later is this test's to judge (one bug shows in several calls at once, and what
        follows may follow from it: a card that never left the hand is a card missing from the pile), but each
        check on the rest still is: the pile after a bomb is judged though the hands went another way before it.
        isValidMove's answers are judged where what they read still agrees (``answers_agree``).
        A game that went another way right after newGame is not judged around (None): its test's game never began
        as the scenario's, and what still agrees there (a zero, an empty row) is no evidence of a rule."""
        own = self.own_clauses(s)
        # the first step where the game went another way, when that is another test's business: by what shows first
        # there (``Departure.key``, in ``STATE_KEYS`` order, as the message names it); what went another way after
        # one of this test's own may follow from it, and is this test's
        first = counted.departure if counted.departure is not None and not counted.departure.owners & own else None
        if first is not None and first.step == 0:
            return None

        def before(d: Departure, step: int) -> bool:  # a departure that can explain a check after ``step`` moves:
            # an earlier one, or one at that step that is wholly another test's business or shows first in what
            # the scenario does not assert there
            return d.step < step or d.step == step and (all(not o & own for _k, o in d.owned())
                                                        or not asserts(s, step, d.key))

        held_values = values = 0
        hidden_at: int | None = None
        owners: list[tuple[int, list[Mismatch], list[frozenset[str] | None]]] = []
        for _r, e in sorted(blocks, key=lambda b: b[1].after):
            checks, wrong = set(e.asserted()), found[id(e)]
            hiding = first is not None and before(first, e.after)
            departed = {k for d in counted.departures if hiding and first is not None  # and what may follow from it
                        and (d is first or first.step <= d.step <= e.after) for k, _o in d.owned()}
            if wrong is None:  # the game never got to this check
                if not hiding:
                    return None
                values += len(checks)
                hidden_at = e.after if hidden_at is None else hidden_at
                continue
            unseen: set[str] = set()
            now = rebased(run.steps[e.after], counted.offsets_at(e.after))
            # answers read the state; where the questions themselves changed the game (C46), none can be judged
            answered = not departed or "side_effects" not in departed and answers_agree(s, e.after, now)
            for m in wrong:
                key, whose = EXPECT_KEYS.get(m.field, m.field), mismatch_owners(s, e.after, m)
                if key in departed or key == "valid" and not answered or whose is not None and not whose & own:
                    unseen.add(m.field)
                else:
                    return e, wrong  # a wrong value of its own
            if wrong:
                owners.append((e.after, wrong, [mismatch_owners(s, e.after, m) for m in wrong]))
            held = {c for c in checks - unseen if EXPECT_KEYS.get(c, c) not in departed
                    and (answered or EXPECT_KEYS.get(c, c) != "valid")}  # what it read had not gone another way
            held_values, values = held_values + len(held), values + len(checks)
            if unseen and hidden_at is None:
                hidden_at = e.after
        if hidden_at is None:
            return None
        base.verdict, base.earned = Verdict.NOT_SHOWN, round(held_values / values, 4) if values else 0.0
        base.failed_after = hidden_at
        if first is not None and before(first, hidden_at):
            base.message = explain.went_another_way(s, first)
        else:
            step, shown, theirs = owners[0]
            base.message = explain.others_business(s, step, shown, theirs)
        base.message += explain.seen_values(held_values, values)
        return base

    def _failure(self, base: TestResult, s: Scenario, run: GameRun, counted: Walk, trouble: tuple[Verdict, str] | None,
                 failed: tuple[Expect, list[Mismatch] | None] | None,
                 per_reading: list[tuple[str, tuple[Expect, list[Mismatch] | None]]], *,
                 judged: bool = False) -> TestResult:
        """A scenario that did not pass: a crash or hang, a wrong value, or a game that went another way.
        ``judged``: ``failed`` holds a wrong value of the test's own, found by judging around (no excuse left)."""
        mismatches = failed[1] if failed is not None else None
        if trouble is not None and not mismatches:
            base.verdict, what = trouble
            base.failed_after = max(0, len(run.steps) - 1)
            base.message = explain.crashed(s, what, run, run.report.call)
            base.difference = stopped_row(run, base.verdict, s.moves)
            return base
        assert failed is not None
        expect = failed[0]
        departure = counted.departure
        if not judged and departure is not None and not (departure.owners & self.own_clauses(s)) and (
                departure.step < expect.after or departure.step == expect.after
                and not asserts(s, expect.after, departure.key)):
            base.verdict, base.earned = Verdict.NOT_SHOWN, EXCUSED
            base.failed_after = departure.step
            base.message = explain.went_another_way(s, departure)
            return base
        if mismatches and not judged:
            owners = [mismatch_owners(s, expect.after, m) for m in mismatches]
            if all(o is not None and not (o & self.own_clauses(s)) for o in owners):
                base.verdict, base.earned = Verdict.NOT_SHOWN, EXCUSED
                base.failed_after = expect.after
                base.message = explain.others_business(s, expect.after, mismatches, owners)
                return base
        base.verdict = Verdict.WRONG
        shifted = next((d for d in counted.shifts if d.step <= expect.after), None)
        if departure is not None and departure.cause and (departure.step < expect.after or not mismatches):
            self.causes[base.id] = [(departure.cause, departure.owners)]
        elif shifted is not None and mismatches and all(EXPECT_KEYS.get(m.field) in COUNTERS for m in mismatches):
            self.causes[base.id] = [(shifted.cause, shifted.owners)]  # a counter wrong since its first change
        elif mismatches and s.probe is None:
            self.causes[base.id] = [mismatch_cause(s, expect.after, m) for m in mismatches]
        if mismatches:
            base.failed_after, base.failed_on = expect.after, mismatches[0].field
            base.difference = {"step": expect.after, "what": mismatches[0].what, "expected": mismatches[0].expected,
                               "got": mismatches[0].got}
            base.message = explain.wrong_values(s, expect.after, mismatches, per_reading, departure)
            return base
        # the game never got to the check
        stop = run.stop()
        base.failed_after = len(run.steps) - 1 if run.steps else 0
        if stop is not None and 0 <= stop[1] < len(s.moves):
            k = stop[1]
            refused = stop[0] == Event.REFUSED.value
            base.failed_on = "valid" if refused else "hands"
            base.difference = {"step": k, "what": f"isValidMove({s.moves[k]})", "expected": "TRUE",
                               "got": "FALSE" if refused else "the card is missing"}
            base.message = explain.move_not_made(s, expect.after, k, refused, departure)
        else:
            base.message = explain.stopped_early(s, expect.after, max(0, len(run.steps) - 1), departure)
        return base

    # ---- what the probes found ----------------------------------------------------------------------------------
    def readings_found(self) -> dict[str, frozenset[str]]:
        """For each switch ruling, the readings every conclusive probe allows (all of them when no probe could
        tell, or when the probes disagree: the submission is then held to nothing for that switch)."""
        out: dict[str, frozenset[str]] = {}
        for ruling, (_field, readings) in SWITCHES.items():
            allowed = frozenset(readings)
            for p in self.probed:
                if p.ruling == ruling and p.readings is not None:
                    allowed &= p.readings
            out[ruling] = allowed or frozenset(readings)
        return out
