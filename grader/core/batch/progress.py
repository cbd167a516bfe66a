"""What a batch shows while it runs: a rich progress bar on a terminal, a line per submission in a log.

The counts are the ones staff ask about: done (of all), failed (a student lost
marks), errors (the grader could not grade: exit 2), from the store (nothing
to grade), with the rate and the time left.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from grader.core.results import SubmissionResult


@dataclass
class Counts:
    total: int
    done: int = 0
    failed: int = 0
    errors: int = 0
    cached: int = 0
    started: float = field(default_factory=time.monotonic)

    def add(self, result: SubmissionResult, cached: bool) -> None:
        self.done += 1
        self.cached += cached
        self.errors += result.status == "grader error"
        self.failed += result.status == "failed"

    @property
    def rate(self) -> float:
        """Submissions graded (not taken from the store) per minute."""
        graded = self.done - self.cached
        elapsed = time.monotonic() - self.started
        return graded / elapsed * 60 if graded and elapsed > 0 else 0.0

    def line(self) -> str:
        return (f"{self.done}/{self.total} done, {self.failed} failed, {self.errors} errors, "
                f"{self.cached} from the store, {self.rate:.1f}/min")


class BatchProgress:
    """A live bar when stderr is a terminal; otherwise one plain line per finished submission."""

    def __init__(self, total: int, console: Console | None = None) -> None:
        self.counts = Counts(total)
        self.console = console or Console(stderr=True)
        self.live = self.console.is_terminal
        self.bar = Progress(
            TextColumn("[bold]grading"), BarColumn(), MofNCompleteColumn(),
            TextColumn("[red]{task.fields[failed]} failed[/] [magenta]{task.fields[errors]} errors[/] "
                       "[cyan]{task.fields[cached]} stored[/]  {task.fields[rate]}"),
            TimeRemainingColumn(), console=self.console, disable=not self.live)
        self.task = self.bar.add_task("grading", total=total, failed=0, errors=0, cached=0, rate="")

    def __enter__(self) -> BatchProgress:
        self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()

    def note(self, text: str) -> None:
        """A line above the bar (or in the log)."""
        if self.live:
            self.bar.console.print(text, markup=False, highlight=False)
        else:
            print(text, file=sys.stderr, flush=True)

    def finished(self, result: SubmissionResult, cached: bool) -> None:
        c = self.counts
        c.add(result, cached)
        self.bar.update(self.task, completed=c.done, failed=c.failed, errors=c.errors, cached=c.cached,
                        rate=f"{c.rate:.1f}/min" if c.rate else "")
        if not self.live:
            tag = "stored" if cached else f"{result.seconds:.1f} s"
            print(f"[{c.done}/{c.total}] {result.submission}: {result.score:g}/{result.max_score:g} "
                  f"{result.status} ({tag})", file=sys.stderr, flush=True)
