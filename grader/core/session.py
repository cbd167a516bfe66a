"""One submission under test: built once, one worker, many runs.

``SubmissionSession.open`` builds the submission (in the sandbox) and starts
its worker; a game's session (for Final Card-Down,
``grader.games.fcd18s2.session``) adds how one of its games is played on
both sides and judged.  The session keeps what holds across runs: the
limits, and how many runs timed out (after a few, the rest get short limits).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from grader.core.build import BuildResult, build
from grader.core.config import MarkingConfig
from grader.core.gamespec import GameSpec
from grader.core.limits import Limits
from grader.core.worker_client import WorkerClient

# After this many games time out, the rest run under SHORT_LIMITS: a correct game takes
# milliseconds, and a submission that loops must not cost hours of a class's marking.
TIMEOUTS_BEFORE_SHORT_LIMITS = 3
SHORT_LIMITS = {"cpu": 1, "wall": 0.5}


class SubmissionSession:
    def __init__(self, folder: Path, game: GameSpec, build_result: BuildResult, limits: Limits,
                 strict: frozenset[str]) -> None:
        self.folder = folder
        self.game = game
        self.build = build_result
        self.limits = limits
        self.strict = strict
        self.timeouts = 0
        self.client = (WorkerClient(build_result.library, game.sandbox_job, game.sandbox_packages)
                       if build_result.library else None)

    @classmethod
    def open_game(cls, folder: Path, game: GameSpec, *, limits: Limits | dict[str, Any] | None = None,
                  strict: frozenset[str] = frozenset(), compile_timeout: float | None = None) -> Any:
        """Build ``folder`` for ``game`` and start its worker.  ``limits``: complete, or a dict of
        the limits to change from the game's default marking configuration."""
        if not isinstance(limits, Limits):
            limits = MarkingConfig.load(game=game).limits.with_(**(limits or {}))
        kwargs = {"timeout": compile_timeout} if compile_timeout else {}
        result = build(Path(folder), game, **kwargs)
        return cls(Path(folder), game, result, limits, strict)

    def _count_timeout(self) -> None:
        self.timeouts += 1
        if self.timeouts == TIMEOUTS_BEFORE_SHORT_LIMITS:
            self.limits = self.limits.capped(SHORT_LIMITS)

    @property
    def limits_note(self) -> str:
        if self.timeouts < TIMEOUTS_BEFORE_SHORT_LIMITS:
            return ""
        return (f"After {TIMEOUTS_BEFORE_SHORT_LIMITS} games timed out, the remaining games ran with "
                f"{self.limits.cpu} s of CPU and {self.limits.wall} s of real time each "
                f"(a correct game needs a few milliseconds).")

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        self.build.cleanup()

    def __enter__(self) -> SubmissionSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
