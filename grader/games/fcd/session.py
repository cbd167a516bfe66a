"""A Final Card-Down game played on both sides and judged: one submission, many games.

``FcdSession`` is the core's ``SubmissionSession`` (build, worker, limits)
with the game's part: ``run_scenario`` / ``run_game`` play one game on the
reference (here, in the trusted process) and on the submission (in the
worker, by ``grader.games.fcd.sandbox.play``), and turn what came back into a
``TestResult``.  ``play_batch`` plays several games in one child through the C
observer, to prove the ones that agree at every step (``grader.core.batched_games``:
the random games); any other game is judged by ``run_game``.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Mapping, Self, Sequence

from grader.core.batched_games import TIMED_SIGNALS, Shown, batch_limits
from grader.core.build import BuildResult
from grader.core.classify import classify
from grader.core.gamespec import GameSpec
from grader.core.isolation import library_path_inside
from grader.core.ownership import own_clauses
from grader.core.policy import NO_POLICY, Policy
from grader.core.replay import call_in_progress
from grader.core.results import TestResult, Verdict
from grader.core.run_report import Enforced, RunReport
from grader.core.sandbox.limits import LimitChanges, Limits
from grader.core.session import SubmissionSession
from grader.core.worker_client import WorkerClient, WorkerLost
from grader.games.fcd.compare import Comparison, compare, differed, forced_move
from grader.games.fcd.deal_map import rearranged, rearrangement
from grader.games.fcd.edition import Edition, G, WrittenMove
from grader.games.fcd.explain import explain, moves_by_turn, not_shown
from grader.games.fcd.focus import Focus, everything, focus_of
from grader.games.fcd.reference_trace import (
    Step,
    cached_eager_recycling_trace,
    cached_packed_trace,
    cached_reference_trace,
    first_difference,
)
from grader.games.fcd.sandbox.frames import OVER, Event, max_frames
from grader.games.fcd.sandbox.observe import DESTROY_GAME, FIND_CARD, PLAY_MOVE
from grader.games.fcd.scenarios import Scenario
from reference import Deck

DESTROY = "destroy_game"  # destroyGame, left out like a probe when it crashes: the memory stage judges it
GAME_ERRORS = {"null_game": (Verdict.WRONG, "newGame() returned NULL for a valid deck.")}


@dataclass(frozen=True)
class GameRun:
    """One game played on the submission: how the run ended, and what the child sent."""

    report: RunReport
    steps: list[object]  # the observations after newGame and after each move (checked by the comparison)
    events: list[Mapping[str, object]]  # the other frames: moved, refused, no_card, done, error

    @property
    def over(self) -> bool:
        """Did the child get to the end of what it could play?"""
        return any(e["t"] in OVER_TAGS for e in self.events)


OVER_TAGS = frozenset(e.value for e in OVER)


@dataclass(frozen=True)
class PlayedGame:
    """What one game showed of each rule family (random games earn from it): did it start, did every
    family it judged agree to where it ended, and the families it differed in."""

    started: bool
    ran: bool
    failed: tuple[str, ...] = ()
    # Families a scenario was already charged for, judged around step by step: the share of the steps that
    # judge them where they agreed (absent: the game agreed everywhere, or showed nothing).
    shares: Mapping[str, float] = field(default_factory=dict)
    shown: bool = True  # False: a crash a scenario was already charged for stopped newGame (it shows nothing)


def _by_evidence(base: TestResult, cmp: Comparison) -> TestResult:
    """A test that found nothing wrong earns what it saw: all its rule seen to hold (PASSED); part of it
    hidden by differences other tests own (NOT_SHOWN, earning the part seen); nothing seen at all
    (NOT_SHOWN, nothing earned) -- unless what stopped it is a reading the rules allow."""
    if cmp.hidden == 0 and (cmp.agreed > 0 or cmp.cut_at is not None or cmp.lenient_forced or cmp.judges_nothing):
        base.verdict, base.earned = Verdict.PASSED, 1.0
        return base
    base.verdict, base.earned = Verdict.NOT_SHOWN, round(cmp.seen, 4)
    base.message = not_shown(cmp)
    return base
EQUAL, DIFFERENT, HUNG = "equal", "different", "hung"  # what the C observer's run of a game showed
@dataclass(frozen=True)
class BatchRun:
    """What a batch showed: per game, in order; the packed steps the request asked for (``data_of``); and
    why the child stopped before its last game, in a student's words ("" if it did not)."""

    shown: list[Shown]
    data: bytes | None = None
    outcome: str = ""  # how the game ``data_of`` ended (``sandbox.frames.OUTCOMES``), "" if it sent nothing
    at: int = 0  # the move it stopped at
    stopped: str = ""


def play(client: WorkerClient, deck: list[list[int]], moves: list[str], *, depths: Sequence[tuple[int, int]],
         limits: Limits, skip: Sequence[str] = (), destroy: bool = True, observer: str = "") -> GameRun:
    """Play ``moves`` on a fresh game in a fresh child (all in C by ``observer``, when given)."""
    report = client.run({"deck": deck, "moves": moves, "depths": [list(d) for d in depths], "skip": list(skip),
                         "destroy": destroy, "observer": observer}, limits, max_frames(len(moves)))
    return GameRun(report, [f.get("obs") for f in report.tagged(Event.OBS.value)],
                   [f for f in report.frames if f["t"] != Event.OBS.value])


def judge_run(run: GameRun) -> tuple[Verdict, str] | None:
    """What a played game's facts mean, when it did not simply finish (``grader.core.classify``)."""
    return classify(run.report, over=run.over, errors=GAME_ERRORS)


class FcdSession(SubmissionSession, Generic[G]):
    """A session of a Final Card-Down edition: each edition subclasses it with its ``edition`` (the table,
    the observer, the C observer if it has one), ``shipped_owners`` and ``open``
    (``grader.games.fcd18s2.session``, ``grader.games.fcd17s2.session``)."""

    edition: Edition[G]  # set by each edition's class (a class attribute)

    @staticmethod
    def shipped_owners() -> dict[tuple[str, bool], str]:
        """Which scenario of the edition's shipped suite owns each observation (for notes)."""
        raise NotImplementedError

    @classmethod
    def open(cls, folder: Path, *, limits: Limits | LimitChanges | None = None, strict: frozenset[str] = frozenset(),
             compile_timeout: float | None = None, policy: Policy = NO_POLICY) -> Self:
        """A session of the edition's game, found by name in the registry (never imported here)."""
        from grader.games import get  # noqa: PLC0415 - the registry imports games on demand

        return cls.open_game(folder, get(cls.edition.name), limits=limits, strict=strict,
                             compile_timeout=compile_timeout, policy=policy)

    def __init__(self, folder: Path, game: GameSpec, build_result: BuildResult, limits: Limits,
                 strict: frozenset[str]) -> None:
        super().__init__(folder, game, build_result, limits, strict)
        self.bad_probes: set[str] = set()  # probes that crashed or hung in some game of this submission
        self._deals: dict[int, tuple[list[int], frozenset[str]] | None] = {}  # how it deals, by deck size
        self.owners = self.shipped_owners()
        # The C observer beside the library: a game equal to the reference's, step for step, is then
        # accepted from one native run; any other goes the whole way (``_equal_in_c``).
        # The last game crashed, hung or ran out of memory: the next goes straight to the full run (a native
        # run would most likely meet the same trouble and be repeated: trouble is paid once).
        self.troubled_last = False
        # What the last game's native run showed (EQUAL, DIFFERENT, HUNG; "": it had none): a game played
        # alone after a batch is noted when it was EQUAL here but not in the batch (``batched_games``).
        self.last_native = ""
        install = self.edition.native_observer
        self.observer = (library_path_inside(install(self.build.library.parent))
                         if install is not None and self.client is not None and self.build.library is not None
                         else "")

    def run_scenario(self, scenario: Scenario) -> TestResult:
        result = self.run_game(scenario.id, scenario.says, scenario.rules, scenario.deck, scenario.moves,
                               focus=focus_of(own_clauses(scenario.group, scenario.rules, self.homes),
                                              self.edition.table))
        result.weight, result.hidden = scenario.weight, scenario.hidden
        return result

    def run_game(self, test_id: str, says: str, rules: Sequence[str], deck: Deck,
                 moves: Sequence[WrittenMove], *, kind: str = "scenario", focus: Focus | None = None,
                 masked: frozenset[str] = frozenset(), charged: Mapping[str, str] | None = None) -> TestResult:
        """Play one game on both sides and judge it on ``focus``.

        A probe (an observation call) that crashes or hangs outside the focus is
        left out and the game played again: the crash is charged to the tests
        that own that probe, never to this one.  ``masked``: observations already
        charged (``crashes``: a crash), judged around in a random game (its focus is everything else);
        ``charged``: those a scenario was charged for (-> that test), whose families the game judges step by step.
        What the game showed of each rule family is kept in ``last_game``.
        """
        edition, by_name = self.edition, self.edition.table.by_name
        focus = focus or everything(edition.table).without(masked)
        self.last_game = PlayedGame(started=False, ran=False)
        self.last_native = ""
        ref_deck, deck, rearranged_note = deck, *self._deck_for(deck, focus)
        group = test_id.split("/")[0]
        base = TestResult(test_id, group, tuple(rules), 1.0, Verdict.NOT_RUN, kind=kind,
                          deck=str(ref_deck), dealt_as=str(deck) if deck is not ref_deck else "",
                          moves=" ".join(str(m) for m in moves))
        if self.client is None:
            base.message = "Not run: the submission did not compile."
            return base
        start = time.monotonic()
        skip = {p for p in self.bad_probes if not _owns(focus, p)}
        try:
            native = (self._equal_in_c(deck, moves, base) if not skip and not self.troubled_last
                      and deck is ref_deck else DIFFERENT)
        except WorkerLost as lost:
            return self._lost(base, lost, start)
        if native == EQUAL:
            base.verdict, base.seconds = Verdict.PASSED, time.monotonic() - start
            self.last_game = PlayedGame(started=True, ran=True)
            return base
        limits = self.short_limits() if native == HUNG else self.limits
        ref = cached_reference_trace(ref_deck, moves, self.strict, edition)
        left_out: list[str] = []
        while True:
            try:
                run = play(self.client, [list(k) for k in deck.keys], [str(m) for m in moves],
                           depths=[s.depths for s in ref], skip=sorted(skip - {DESTROY}),
                           destroy=DESTROY not in skip, limits=limits)
            except WorkerLost as lost:
                return self._lost(base, lost, start)
            trouble = judge_run(run)
            call = list(run.report.call) if trouble and run.report.call is not None else None
            probe = _probe_of(call, edition)
            self.troubled_last = trouble is not None
            if trouble and trouble[0] is Verdict.TIMED_OUT:
                self._count_timeout()
            limits = self.limits
            if probe is None or probe in skip or _owns_at(focus, probe, call, ref):
                break
            self.bad_probes.add(probe)  # outside this test's focus: leave it out and play again
            skip.add(probe)
            assert trouble is not None and call is not None  # a probe is named only by the call of a run in trouble
            what = edition.describe_call(*call[1:], moves=moves) if call else probe
            left_out.append(f"{trouble[0].value} in {what} after move {call[0]}; that is not the rule of this "
                            f"test ({self._owner_of(probe, call[0])}), so the game was played again without it")
        base.seconds = time.monotonic() - start
        base.skipped_probes = sorted(skip)
        base.stdout, base.stderr = run.report.stdout[:65536], run.report.stderr[:65536]
        steps, events = run.steps, [dict(e) for e in run.events]
        follow = {"A22": other} if (other := cached_eager_recycling_trace(ref_deck, moves, ref, self.strict,
                                                                          edition)) else None
        cmp = compare(moves, ref, steps, events, focus=focus, owners=self.owners, table=edition.table,
                      refusal=edition.refusal, follow=follow)
        base.notes = left_out + rearranged_note + cmp.notes
        stopped = trouble is not None or any(e.get("t") == Event.NO_CARD.value for e in events)
        forced = forced_move(moves, ref, steps, events, edition.refusal)  # refused, made anyway: not charged after
        base.played_moves, base.forced_at = (max(0, len(steps) - 1) if stopped else None), forced
        if kind == "random":
            self.last_game = self._random_outcome(moves, ref, steps, events, focus, cmp,
                                                  trouble if forced is None else None, probe, follow, masked,
                                                  charged or {})
        if not cmp.passed:  # a wrong answer seen before any crash is the more useful message
            base.verdict = Verdict.WRONG
            base.failed_after = cmp.divergence.step if cmp.divergence else cmp.compared_steps
            base.message = explain(says, rules, ref_deck, moves, cmp, edition, self.strict)
            base.failed_on = cmp.divergence.field if cmp.divergence else "identity"
            base.differed = differed(edition.table, moves, ref, steps, base.failed_after,
                                     (base.failed_on, cmp.divergence.label if cmp.divergence else ""))
            base.difference = cmp.divergence.row() if cmp.divergence else {
                "step": cmp.compared_steps, "what": "topDiscard() / handCard(i)", "expected": "the very card",
                "got": "a copy"}
            base.rule_family = by_name[base.failed_on].family
            if not says:  # a random game: cite the rule of what differed
                base.rules = by_name[cmp.divergence.field if cmp.divergence else "identity"].clauses
            return base
        if trouble is not None and forced is not None:  # after a move it refused: undefined (2018's A28)
            base.notes.append(f"your code {trouble[0].value} after move {forced + 1}, which your isValidMove() "
                              f"had refused and the grader made anyway; what happens after such a move is "
                              f"undefined ({edition.refusal.undefined}), so it is not charged")
        elif trouble is not None:  # never dropped, a lenient cut or not
            base.verdict, what = trouble
            base.failed_after = min(len(steps), len(moves))
            base.rule_family = by_name[probe].family if probe and probe in by_name else "crashes"
            base.failed_on = probe if probe and probe in by_name else ""
            base.differed = differed(edition.table, moves, ref, steps, len(steps) - 1)
            rule = f"Rule ({', '.join(rules)}): {says}\n" if says else ""
            after_cut = ("\n(The comparison had stopped earlier at a point the rules leave open; what your code "
                         "did after it still counts.)") if cmp.cut_at is not None else ""
            base.message = f"{rule}{what}\n{_where(ref_deck, moves, steps, call, edition)}{after_cut}"
            base.difference = call_in_progress(  # the replay opens on the game the call in progress was made on
                run.report, base.verdict, moves=len(moves), made=sum(e.get("t") == Event.MOVED.value for e in events),
                words=lambda c: edition.describe_call(*c[1:], moves=moves))
            return base
        return _by_evidence(base, cmp)

    def _random_outcome(self, moves: Sequence[WrittenMove], ref: list[Step], steps: list[object],
                        events: Sequence[Mapping[str, object]], focus: Focus, cmp: Comparison,
                        trouble: tuple[Verdict, str] | None, probe: str | None,
                        follow: Mapping[str, list[Step]] | None, masked: frozenset[str],
                        charged: Mapping[str, str]) -> PlayedGame:
        """What a random game showed of each rule family: the families it differed in (the first, then each
        next one with those before judged around, on the same steps), and whether it is evidence at all (it
        started, and ran to its end or to where a difference already charged stopped it).  A family a
        scenario was charged for is judged around step by step: where its observations differ again the
        step is hidden, where they agree it is evidence (``shares``)."""
        table, by_name = self.edition.table, self.edition.table.by_name
        started = len(steps) >= 1  # newGame gave a game, and it was observed
        shares: dict[str, float] = {}
        for family in table.families:
            names = frozenset(n for n, o in by_name.items() if o.family == family)
            if started and names and names <= charged.keys():
                own = Focus({n: ("*",) for n in names}, {n: ("*",) for n in names})
                seen = compare(moves, ref, steps, events, focus=own, owners=self.owners, table=table,
                               refusal=self.edition.refusal, follow=follow,
                               charged={n: charged[n] for n in names})
                shares[family] = seen.seen if seen.passed else 0.0
        failed: list[str] = []
        while not cmp.passed and len(failed) < len(table.families):
            family = by_name[cmp.divergence.field if cmp.divergence else "identity"].family
            if family in failed:
                break
            failed.append(family)
            focus = focus.without({n for n, o in by_name.items() if o.family == family})
            cmp = compare(moves, ref, steps, events, focus=focus, owners=self.owners, table=table,
                          refusal=self.edition.refusal, follow=follow)
        if trouble is not None and (probe or "crashes") not in masked:
            family = by_name[probe].family if probe and probe in by_name else "crashes"
            if family not in failed:
                failed.append(family)
        shown = started or trouble is None or (probe or "crashes") not in masked
        return PlayedGame(started=started, ran=started and cmp.passed, failed=tuple(failed), shares=shares,
                          shown=shown)

    # ---- several games in one child (``grader.core.batched_games``) ------------------------------------

    def native_ready(self, deck: Deck, masked: frozenset[str] = frozenset()) -> bool:
        """Would ``run_game`` judge this game, with ``masked`` (a random game's), from one native run now?
        Only then may a batch's native run stand for it: the C observer is there, no probe is left out,
        the last game was not in trouble, and the deck is played as given."""
        if not self.observer or self.client is None or self.troubled_last:
            return False
        focus = everything(self.edition.table).without(masked)
        if any(not _owns(focus, p) for p in self.bad_probes):
            return False
        return self._deck_for(deck, focus)[0] is deck

    def play_batch(self, games: Sequence[tuple[Deck, Sequence[WrittenMove]]], data_of: int = -1) -> BatchRun:
        """The games one after the other in one fresh child, through the C observer (``play.play_batch``):
        EQUAL for a game that sent the digest of the reference's packed steps, played to its end; the game
        the child stopped in HUNG (cut for time) or CRASHED; NOT_RUN for the games after it, and for every
        game when what the child sent cannot be read game by game (its output over the limit, its results
        corrupted, its library not loaded whole)."""
        packed = [cached_packed_trace(deck, moves, self.edition) for deck, moves in games]
        client, limits = self.client, self.limits
        if client is None or not self.observer:
            return BatchRun([Shown.NOT_RUN] * len(games))
        request = {"batch": [{"deck": p.cards, "codes": p.codes, "depths": p.depths} for p in packed],
                   "observer": self.observer, "destroy": True, "data_of": data_of,
                   "each": {"cpu": limits.cpu, "wall": limits.wall}}
        try:
            report = client.run(request, batch_limits(limits), len(games) + 2)
        except WorkerLost:
            return BatchRun([Shown.NOT_RUN] * len(games))
        if report.enforced in (Enforced.OUTPUT, Enforced.PROTOCOL) or report.error is not None:
            return BatchRun([Shown.NOT_RUN] * len(games))
        frames = report.tagged(Event.PACKED.value)
        shown: list[Shown] = []
        data, outcome, at = None, "", 0
        for i, (want, frame) in enumerate(zip(packed, frames)):
            if frame.get("game") != i:
                break
            done = frame.get("outcome") == "done" and frame.get("at") == len(want.codes)
            shown.append(Shown.EQUAL if done and frame.get("digest") == want.digest else Shown.DIFFERED)
            if i == data_of:
                data, outcome = _decoded(frame.get("data")), str(frame.get("outcome"))
                at = frame["at"] if isinstance(frame.get("at"), int) else 0
        stopped = ""
        if len(shown) < len(games):
            trouble = classify(report, over=True)
            timed = (trouble is not None and trouble[0] is Verdict.TIMED_OUT) or report.signal in TIMED_SIGNALS
            shown.append(Shown.HUNG if timed else Shown.CRASHED)
            stopped = trouble[1] if trouble is not None else "Your code ended the program in the middle of a game."
        return BatchRun(shown + [Shown.NOT_RUN] * (len(games) - len(shown)), data, outcome, at, stopped)

    @property
    def proven_natively(self) -> bool:
        """Did the last game's own native run prove it equal to the reference (as a batch proves a game)?"""
        return self.last_native == EQUAL

    def passed_in_batch(self, test_id: str, kind: str = "random") -> TestResult:
        """The result of a game a batch proved equal to the reference, as ``run_game`` gives a game its
        native run proved so (PASSED, and it ran to its end); it names the game by ``test_id`` only."""
        self.last_game = PlayedGame(started=True, ran=True)
        self.last_native = EQUAL
        return TestResult(test_id, test_id.split("/")[0], (), 1.0, Verdict.PASSED, kind=kind, earned=1.0)

    def what_differed(self, batch: Sequence[tuple[Deck, Sequence[WrittenMove]]], shown: Shown) -> tuple[str, str]:
        """What the last game of ``batch`` did when played after the others in one process (``shown``), in a
        student's words, and the observation it first differed in ("" if none): the batch is played again,
        asking for that game's packed steps, for the details."""
        deck, moves = batch[-1]
        run = self.play_batch(batch, data_of=len(batch) - 1)
        last = run.shown[-1]
        if last in (Shown.CRASHED, Shown.HUNG):
            return f"stopped there: {run.stopped.rstrip('.')}", ""
        if last is not Shown.DIFFERED or run.data is None:  # not the same again: what the batch showed
            return ("stopped there" if shown is Shown.CRASHED else "did not agree with the reference"), ""
        move = f"move {run.at + 1} ({moves[run.at]})" if 0 <= run.at < len(moves) else "a move"
        if run.outcome == "refused":
            return f"refused {move} in its own isValidMove(), where the reference allows it", "validity"
        if run.outcome == "no_card":
            return f"had not the card of {move} in the current hand", ""
        if run.outcome == "null_game":
            return "got NULL from newGame()", ""
        step, name = first_difference(deck, moves, run.data, self.edition)
        if not name:
            return "did not agree with the reference", ""
        o = self.edition.table.by_name[name]
        where = "right after newGame()" if step == 0 else f"after move {step} ({moves[step - 1]})"
        return f"differed from the reference {where} in {o.call} ({o.meaning_words})", name

    def _deck_for(self, deck: Deck, focus: Focus) -> tuple[Deck, list[str]]:
        """The deck the submission plays: the test's own, or -- when the submission deals another way than
        the rules and this test does not judge the deal -- that deck rearranged so the submission's deal
        puts every card where the rules put it (``deal_map``), with a note saying so."""
        found = self._deal_of(len(deck))
        if found is None:
            return deck, []
        order, affected = found
        probing = self.edition.deal_probe
        assert probing is not None  # (a deal is learnt only with a probe)
        if any(set(focus.at_start.get(n, ())) & probing.clauses for n in affected):
            return deck, []  # the deal is this test's rule: it is judged on the deck as given
        owner = self.owners.get(("hands", False)) or "deal"  # (2018's deal test; 2017 shows one hand: the group)
        return rearranged(deck, order), [
            f"your newGame() deals the cards in another order than the rules (the test {owner} judges that), so "
            f"this test gave your game the deck rearranged: your own deal then puts every card where the rules "
            f"put it, and this test judges its own rule"]

    def _deal_of(self, size: int) -> tuple[list[int], frozenset[str]] | None:
        """How the submission deals ``size`` cards, learnt once per size from one game on a deck of distinct
        cards: the rearrangement that matches the rules' deal, and the observations a wrong deal shows in;
        None when it deals as the rules do or cannot be judged around (``deal_map``)."""
        if size in self._deals:
            return self._deals[size]
        self._deals[size] = None
        probing = self.edition.deal_probe
        if self.client is None or probing is None or size < probing.smallest:
            return None
        probe, moves = probing.deck(size), [self.edition.parse_move(m) for m in probing.moves]
        ref = cached_reference_trace(probe, moves, self.strict, self.edition)
        try:
            run = play(self.client, [list(k) for k in probe.keys], [str(m) for m in moves],
                       depths=[s.depths for s in ref], limits=self.short_limits(), destroy=False)
        except WorkerLost:
            return None
        if judge_run(run) is not None or len(run.steps) != len(ref):
            return None
        want, got = probing.places([s.obs for s in ref], size), probing.places(run.steps, size)
        order = rearrangement(want, got, size) if want is not None and got is not None else None
        if order is not None and want is not None and got is not None:  # (an order only from both places)
            differs = {want[i][0] for i in want if got.get(i) != want[i]} | {
                got[i][0] for i in got if want.get(i) != got[i]}
            affected = frozenset(n for kind in differs for n in probing.shown_in.get(kind, ()))
            self._deals[size] = (order, affected)
        return self._deals[size]

    def _lost(self, base: TestResult, lost: WorkerLost, start: float) -> TestResult:
        self._count_timeout()  # a lost worker cost a full wall limit too
        self.troubled_last = True
        base.verdict = Verdict.WORKER_LOST
        base.message = (f"The sandbox running your code stopped answering ({lost}); it was restarted "
                        "and the other tests still ran.")
        base.seconds = time.monotonic() - start
        return base

    def _equal_in_c(self, deck: Deck, moves: Sequence[WrittenMove], base: TestResult) -> str:
        """Did the C observer see, at every step, exactly the reference's observations, with the game
        played to its end and nothing else wrong (``EQUAL``)?  Only then is the full comparison unneeded:
        it would find every step equal.  Anything else -- ``DIFFERENT``, or ``HUNG`` -- is judged by the
        full run that follows, which meets the same trouble; after a hang that run starts at the short
        limits, so a hang is paid once.  A lost worker is the game's verdict at once (``WorkerLost``)."""
        client = self.client
        if not self.observer or client is None:  # (an observer only for a submission that built: a client)
            return DIFFERENT
        packed = cached_packed_trace(deck, moves, self.edition)
        run = play(client, [list(k) for k in deck.keys], [str(m) for m in moves], depths=packed.depths,
                   limits=self.limits, observer=self.observer)
        trouble = judge_run(run)
        if trouble is not None:
            self.last_native = HUNG if trouble[0] is Verdict.TIMED_OUT else DIFFERENT
            return self.last_native
        frame = run.events[-1] if run.events else {}
        equal = (frame.get("t") == Event.PACKED.value and frame.get("outcome") == "done"
                 and frame.get("at") == len(moves) and _decoded(frame.get("data")) == packed.data)
        if equal:
            base.stdout, base.stderr = run.report.stdout[:65536], run.report.stderr[:65536]
        self.last_native = EQUAL if equal else DIFFERENT
        return self.last_native

    def _owner_of(self, probe: str, step: int) -> str:
        if probe == DESTROY:
            return "the memory stage judges destroyGame"
        test = self.owners.get((probe, step > 0))
        return f"{test} judges it" if test else "another test judges it"


def _decoded(data: object) -> bytes | None:
    """The packed steps a worker sent (student-controlled: anything but base64 text is no answer)."""
    if not isinstance(data, str):
        return None
    try:
        return base64.b64decode(data, validate=True)
    except ValueError:
        return None


def _owns(focus: Focus, probe: str) -> bool:
    return probe != DESTROY and probe in focus.names()


def _owns_at(focus: Focus, probe: str, call: list[int] | None, ref: Sequence[Step]) -> bool:
    """Does this test judge the probe that crashed, at the step it crashed in?"""
    if probe == DESTROY or call is None:
        return False
    step = max(0, min(call[0], len(ref) - 1))
    return focus.covers(probe, step, ref[step].obs)


def _probe_of(call: list[int] | None, edition: Edition[G]) -> str | None:
    """The probe a crash happened in, when it is one a game can do without."""
    if call is None:
        return None
    if call[1] == DESTROY_GAME:
        return DESTROY
    return edition.probe_name(call[1])


def _where(deck: Deck, moves: Sequence[WrittenMove], steps: list[object], call: list[int] | None,
           edition: Edition[G]) -> str:
    """Where in the game it happened: the call in progress, and the moves up to there."""
    probe_name = edition.probe_name
    if call is not None and (probe_name(call[1]) is not None or call[1] < 0):
        step = max(0, min(call[0], len(moves)))
        what = edition.describe_call(*call[1:], moves=moves)
        probed = probe_name(call[1])
        if probed is not None:
            o = edition.table.by_name[probed]
            where = ("right after newGame()" if step == 0 else f"after move {step}")
            what = f"{what} {where}, while the grader was reading {o.call} ({o.meaning_words})"
            upto = step
        else:
            upto = {DESTROY_GAME: len(moves), PLAY_MOVE: call[3] + 1, FIND_CARD: call[3] + 1}.get(call[1], 0)
            upto = max(0, min(upto, len(moves)))
        text = f"It happened in {what}."
        if upto:
            text += f"\nMoves up to there:\n    {moves_by_turn(deck, moves, upto, edition)}"
        return text
    observed = len(steps)
    if observed == 0:
        return "It happened in newGame() or in the first look at the new game."
    so_far = moves_by_turn(deck, moves, observed - 1, edition)
    return f"It happened after move {observed - 1}.\nMoves up to there:\n    {so_far}"
