"""A game to replay, step by step: the engine-generic data the HTML replay reads.

One ``Frame`` per step (the game as dealt, then after each move): the seats
with their cards (the current one marked), the piles (a name, the cards shown
first-to-come, the size), the facts a student checks (counters, colour, ...)
and the moves valid there -- plain strings in the game's own notation, so the
same replay serves every game (each game's ``GameSpec.replay_frames`` makes
them from its reference engine) and, later, games between players.
``Difference`` is what a test found at one step, expected against got -- or, for a game the submission
stopped in (it crashed, hung, exited...), the call in progress there and what became of it
(``call_in_progress``: ``kind`` "call").

A replay is embedded in a report as JSON (``embed_json``): escaped so that no
student-controlled text can end the ``<script>`` element it sits in.
"""

from __future__ import annotations

import dataclasses
import json
import signal as signals
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, NotRequired, Sequence, TypedDict, TypeVar

from grader.core.results import DifferenceRow, Verdict
from grader.core.run_report import Enforced

if TYPE_CHECKING:
    from grader.core.results import SubmissionResult, TestResult
    from grader.core.run_report import RunReport

FORMAT = "replay/1"  # the packed JSON form (``Replay.to_json``), named so a reader can refuse another


@dataclass(frozen=True)
class Seat:
    name: str  # "player 0"
    cards: tuple[str, ...]  # in the game's notation, in hand order
    current: bool = False


@dataclass(frozen=True)
class Pile:
    name: str  # "draw pile", "discard pile"
    cards: tuple[str, ...]  # the cards shown, the next to come (or the top) first
    size: int  # how many the pile holds in all


@dataclass(frozen=True)
class Frame:
    step: int  # 0: as dealt; k: after move k
    move: str  # the move that led here, in the game's notation ("" at step 0)
    seats: tuple[Seat, ...]
    piles: tuple[Pile, ...]
    facts: tuple[tuple[str, str], ...]  # (what, value), in the order a student reads them
    valid: tuple[str, ...]  # the moves valid now, in the game's notation


DIFFERENCE, CALL = "difference", "call"  # a ``Difference``'s kinds: values that differ; the call a game stopped in


@dataclass(frozen=True)
class Difference:
    step: int
    what: str  # the call a student recognises: "currentPlayer()"
    expected: str
    got: str
    kind: str = DIFFERENCE  # CALL: ``what`` is the call in progress when the game stopped, ``got`` what became of it


class DifferenceJSON(TypedDict):
    step: int
    what: str
    expected: str
    got: str
    kind: NotRequired[str]  # absent: DIFFERENCE (a replay written before kinds existed)


# The packed form's parts: each string an index into ``strings``; a part unchanged since the frame before is None.
PackedSeat = tuple[int, tuple[int, ...]]  # name, cards
PackedPile = tuple[int, tuple[int, ...], int]  # name, cards, size
# step, move, the current seat (-1: none), seats, piles, facts (what, value), valid moves
PackedFrame = tuple[int, int, int, tuple[PackedSeat | None, ...], tuple[PackedPile | None, ...],
                    tuple[tuple[int, int], ...] | None, tuple[int, ...] | None]


class ReplayJSON(TypedDict):
    """``Replay.to_json``: the packed form (``FORMAT``), as ``templates/replay.js`` reads it."""

    format: str
    title: str
    strings: list[str]
    frames: list[PackedFrame]
    differences: list[DifferenceJSON]


Part = TypeVar("Part")
Packed = TypeVar("Packed")


def _unless_same(now: Part, before: Part | None, packed: Packed) -> Packed | None:
    """``packed``, or None when this part is what it was in the frame before."""
    return None if before is not None and now == before else packed


@dataclass(frozen=True)
class Replay:
    title: str  # "Final Card-Down (2018)"
    frames: tuple[Frame, ...]
    differences: tuple[Difference, ...] = field(default=())

    @property
    def first_difference(self) -> int | None:
        """The step a viewer opens at: the first one where a test found a difference."""
        return min((d.step for d in self.differences), default=None)

    def to_json(self) -> ReplayJSON:
        """The packed form (``FORMAT``): every string once, in ``strings``, and a frame written as indices
        into it, each part that did not change since the frame before written as ``null`` -- so an
        800-card game of 1,500 moves stays well under the 2 MB a report may take."""
        strings: dict[str, int] = {}

        def ref(text: str) -> int:
            return strings.setdefault(text, len(strings))

        frames: list[PackedFrame] = []
        previous: Frame | None = None
        for f in self.frames:
            old_seats: Sequence[Seat | None] = (
                previous.seats if previous and len(previous.seats) == len(f.seats) else (None,) * len(f.seats))
            old_piles: Sequence[Pile | None] = (
                previous.piles if previous and len(previous.piles) == len(f.piles) else (None,) * len(f.piles))
            seats = tuple(None if o is not None and (s.name, s.cards) == (o.name, o.cards)
                          else (ref(s.name), tuple(ref(c) for c in s.cards)) for s, o in zip(f.seats, old_seats))
            piles = tuple(_unless_same(p, o, (ref(p.name), tuple(ref(c) for c in p.cards), p.size))
                          for p, o in zip(f.piles, old_piles))
            facts = _unless_same(f.facts, previous.facts if previous else None,
                                 tuple((ref(a), ref(b)) for a, b in f.facts))
            valid = _unless_same(f.valid, previous.valid if previous else None, tuple(ref(m) for m in f.valid))
            current = next((i for i, s in enumerate(f.seats) if s.current), -1)
            frames.append((f.step, ref(f.move), current, seats, piles, facts, valid))
            previous = f
        return {"format": FORMAT, "title": self.title, "strings": list(strings), "frames": frames,
                "differences": [{"step": d.step, "what": d.what, "expected": d.expected, "got": d.got,
                                 "kind": d.kind} for d in self.differences]}

    @classmethod
    def from_json(cls, data: ReplayJSON) -> Replay:
        """Read back what ``to_json`` wrote (``grader/core/templates/replay.js`` unpacks it the same way)."""
        if data.get("format") != FORMAT:
            raise ValueError(f"not a replay of format {FORMAT}: {str(data.get('format'))[:80]!r}")
        text = data["strings"]
        frames: list[Frame] = []
        for step, move, current, seats, piles, facts, valid in data["frames"]:
            before = frames[-1] if frames else None
            seats_now = tuple(
                Seat(text[s[0]], tuple(text[c] for c in s[1])) if s is not None else _earlier(before).seats[i]
                for i, s in enumerate(seats))
            frames.append(Frame(
                step, text[move],
                tuple(dataclasses.replace(s, current=i == current) for i, s in enumerate(seats_now)),
                tuple(Pile(text[p[0]], tuple(text[c] for c in p[1]), p[2]) if p is not None
                      else _earlier(before).piles[i] for i, p in enumerate(piles)),
                tuple((text[a], text[b]) for a, b in facts) if facts is not None else _earlier(before).facts,
                tuple(text[m] for m in valid) if valid is not None else _earlier(before).valid))
        return cls(data["title"], tuple(frames), tuple(Difference(**d) for d in data.get("differences", ())))


def _earlier(before: Frame | None) -> Frame:
    """The frame before, whose part an unchanged one repeats: the first frame writes every part."""
    if before is None:
        raise ValueError("the first frame of a replay leaves a part out")
    return before


def embed_json(replay: Replay) -> str:
    """The replay as JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and ``&`` (so no
    ``</script>`` or comment opener) and the two line separators JavaScript once treated as newlines are
    written as escapes."""
    text = json.dumps(replay.to_json(), separators=(",", ":"), ensure_ascii=False)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


MAX_FRAMES = 2000  # a replay shows at most this many steps, the last of them the difference's


# The verdicts of a game the submission stopped in (it crashed, hung, exited, ...): their difference row, when
# they have one, is the call in progress (``call_in_progress``), not values that differ.
STOPPED = frozenset({Verdict.CRASHED, Verdict.TIMED_OUT, Verdict.EXITED, Verdict.MEMORY, Verdict.OUTPUT,
                     Verdict.PROTOCOL})
# A signal in a word or two, for the replay's line ("crashed (segmentation fault)"); the failure message has the
# whole sentence (``grader.core.classify.SIGNAL_WORDS``).
SIGNAL_NAMES: dict[int, str] = {
    signals.SIGSEGV: "segmentation fault", signals.SIGABRT: "abort", signals.SIGFPE: "arithmetic error",
    signals.SIGBUS: "bus error", signals.SIGILL: "illegal instruction", signals.SIGXFSZ: "file-size limit",
    signals.SIGKILL: "killed",
}


def stopped_words(verdict: Verdict, report: RunReport) -> str:
    """What became of the call in progress, in a few words: "did not return within 2 s", "crashed (segmentation
    fault)"; the limits are the run's own (``report.limits``: after a first hang, the short ones)."""
    limits = report.limits
    if verdict is Verdict.TIMED_OUT:
        if report.enforced is not Enforced.WALL:
            return f"did not return within {limits.cpu} s of CPU time"
        if limits.stall and report.wall < limits.wall:  # cut by the stall limit (``grader.core.session``)
            return (f"did not return: no progress for {limits.stall:g} s (a hang is waited for in full, "
                    f"{limits.wall:g} s, only once)")
        return f"did not return within {limits.wall:g} s"
    if verdict is Verdict.CRASHED:
        if report.signal is None:
            return "crashed (the library could not be loaded)"
        try:
            name = SIGNAL_NAMES.get(report.signal) or signals.Signals(report.signal).name
        except ValueError:
            name = f"signal {report.signal}"
        return f"crashed ({name})"
    if verdict is Verdict.MEMORY:
        return f"went over the {limits.memory_mb} MiB memory limit"
    if verdict is Verdict.EXITED:
        code = report.exit_code
        return "ended the program" + (f" (exit code {code})" if code is not None else "")
    if verdict is Verdict.OUTPUT:
        return f"printed more than {limits.output_kb} KiB"
    return "corrupted the grader's results channel" if verdict is Verdict.PROTOCOL else verdict.value


def call_in_progress(report: RunReport, verdict: Verdict, *, moves: int, made: int,
                     words: Callable[[tuple[int, ...]], str]) -> DifferenceRow | None:
    """The difference row of a game the submission stopped in (``STOPPED``: a crash, a hang, ...): the call in
    progress when it stopped, at the step the replay opens at; None for any other verdict (a game's own error,
    such as newGame returning NULL, says what it is in its message).

    The step is the reference's state when that call was made: the number of moves made by then, which the job
    writes into the call slot with every call (``report.call[0]``: ``grader.core.sandbox.worker.Results.step``, set
    after each move is made).  So a call that is a move (``playMove`` of move k + 1, or looking for its card,
    or asking if it is valid) shows step k -- the game *before* that move, the one the move was made on --
    and a call that reads the game after move k (a probe, an asked question) shows step k too, the game it was
    reading; ``newGame`` and loading the library show step 0 (the game as dealt), ``destroyGame`` the last
    step.  That is not ``TestResult.played_moves`` (the steps the submission's game was observed at, one fewer
    when it stopped while being read) nor ``failed_after`` (the moves a shorter game needs to stop the same
    way: the move in progress included).  The call slot is memory the submission could write: the step is
    kept within the game (0 to ``moves``), and with no call recorded it is ``made``, the moves the job said
    it made.  ``words`` names the call as a student would write it (the game's ``describe_call``)."""
    if verdict not in STOPPED:
        return None
    call = report.call
    step = max(0, min(call[0] if call is not None else made, moves))
    what = words(call) if call is not None else "(the call your code was in is not known)"
    return {"step": step, "what": what, "expected": "to return", "got": stopped_words(verdict, report)}


def replay_address(test: TestResult) -> str | None:
    """Where a report shows a failed test's game, opened at its first difference (or, for a game the submission
    stopped in, at the call in progress: ``call_in_progress``): ``<test id>/step-<n>`` (the fragment of
    ``report.html``'s address); None for a test with no replay (it passed, is hidden, did not fail on a game, or
    broke the grader)."""
    if test.hidden or not test.deck or test.verdict.family != "fail":
        return None
    step = int(test.difference["step"]) if test.difference else 0
    return f"{test.id}/step-{step}"


def step_by_step(test: TestResult, report: str) -> str:
    """The words that send a student from a failure message to its replay in the HTML report at ``report``
    ('' when the test has none): JUnit ends the message with them."""
    address = replay_address(test)
    return f"\n\nSee the game step by step: {report}#{address}" if address else ""


def replays_of(result: SubmissionResult, frames_of: Callable[[str, str], Sequence[Frame]],
               title: str) -> dict[str, Replay]:
    """The replays of a result's failed tests that played a game (test id -> replay), made with the game's
    ``replay_frames``.  A test whose game the reference cannot replay gets none (its message still shows)."""
    out: dict[str, Replay] = {}
    for t in result.tests:
        if replay_address(t) is None:
            continue
        d = t.difference
        try:
            frames = tuple(frames_of(t.deck, t.moves))
        except Exception:  # noqa: BLE001 - a replay is a help: its absence must not cost the report
            continue
        last = min(int(d["step"]) if d else 0, len(frames) - 1)  # the window kept ends at the difference
        frames = frames[max(0, last + 1 - MAX_FRAMES):][:MAX_FRAMES]
        kind = CALL if t.verdict in STOPPED else DIFFERENCE  # a game it stopped in: the row is the call in progress
        differences = ((Difference(int(d["step"]), str(d["what"]), str(d["expected"]), str(d["got"]), kind),)
                       if d else ())
        out[t.id] = Replay(title, frames, differences)
    return out
