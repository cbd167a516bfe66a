"""One submission under test: built once, one worker, many runs.

``SubmissionSession.open`` builds the submission (in the sandbox) and starts
its worker; a game's session (for Final Card-Down,
``grader.games.fcd.session``) adds how one of its games is played on
both sides and judged.  The session keeps what holds across runs: the
limits, and how many runs timed out (after a few, the rest get short limits).
"""

from __future__ import annotations

from pathlib import Path
from typing import Self

from grader.core.build import COMPILE_SECONDS, BuildResult, build
from grader.core.config import MarkingConfig
from grader.core.gamespec import GameSpec
from grader.core.ownership import Homes, home_groups
from grader.core.policy import NO_POLICY, Policy
from grader.core.sandbox.limits import LimitChanges, Limits
from grader.core.worker_client import WorkerClient

# A hang is paid in full once: after the first game that times out, every later game runs under
# short limits -- one CPU second, and a stall limit: a game that makes no progress (no new frame, no
# new move) for 0.1 s is cut.  A correct move and its look take well under 10 ms even on a busy
# machine, so a submission that hangs in every game costs seconds, not minutes, while a slow but
# correct game of any length still runs to its end under the full wall limit.
TIMEOUTS_BEFORE_SHORT_LIMITS = 1
SHORT_LIMITS: LimitChanges = {"cpu": 1, "stall": 0.1}


class SubmissionSession:
    def __init__(self, folder: Path, game: GameSpec, build_result: BuildResult, limits: Limits,
                 strict: frozenset[str]) -> None:
        self.folder = folder
        self.game = game
        self.build = build_result
        self.limits = limits
        self.strict = strict
        self.timeouts = 0
        self._homes: Homes | None = None
        self.client = (WorkerClient(build_result.library, game.sandbox_job, game.sandbox_packages)
                       if build_result.library else None)

    @property
    def homes(self) -> Homes:
        """Each rule clause's home group (``grader.core.ownership``): ``grade`` sets it from the suite it runs;
        a session used on its own reads the game's suite once, when first asked."""
        if self._homes is None:
            self._homes = home_groups(self.game.load_scenarios())
        return self._homes

    @homes.setter
    def homes(self, homes: Homes) -> None:
        self._homes = homes

    @classmethod
    def open_game(cls, folder: Path, game: GameSpec, *, limits: Limits | LimitChanges | None = None,
                  strict: frozenset[str] = frozenset(), compile_timeout: float | None = None,
                  policy: Policy = NO_POLICY) -> Self:
        """Build ``folder`` for ``game`` and start its worker.  ``limits``: complete, or a dict of
        the limits to change from the game's default marking configuration; ``policy``: the submission's."""
        if not isinstance(limits, Limits):
            limits = MarkingConfig.load(game=game).limits.with_(**(limits or {}))
        result = build(Path(folder), game, timeout=compile_timeout or COMPILE_SECONDS,
                       allowed_symbols=policy.allowed_symbols)
        session = cls(Path(folder), game, result, limits, strict)
        if session.client is not None:
            session.client.budget = policy.budget
        return session

    def _count_timeout(self) -> None:
        self.timeouts += 1
        if self.timeouts == TIMEOUTS_BEFORE_SHORT_LIMITS:
            self.limits = self.short_limits()

    def short_limits(self) -> Limits:
        """The limits after a hang (also for a run that repeats one that just hung: not paid twice)."""
        return self.limits.with_(cpu=min(self.limits.cpu, SHORT_LIMITS["cpu"]), stall=SHORT_LIMITS["stall"])

    @property
    def out_of_budget(self) -> bool:
        """Have this submission's games spent its whole time budget (``Policy.budget``)?"""
        return self.client is not None and self.client.out_of_budget

    @property
    def limits_note(self) -> str:
        if self.timeouts < TIMEOUTS_BEFORE_SHORT_LIMITS:
            return ""
        return (f"After a game timed out, the remaining games ran with {self.limits.cpu} s of CPU each and were "
                f"cut when {self.limits.stall:g} s passed without a move (a correct move takes milliseconds): "
                f"a hang is paid in full once.")

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        self.build.cleanup()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
