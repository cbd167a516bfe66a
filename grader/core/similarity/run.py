"""The check run and written: alone (``fcd-grade similarity``), or beside a batch's grading.

In ``fcd-grade batch --similarity`` the check runs in a thread of the batch's own process, started once
the class is found and joined once the grading is done, before the dashboard is written: the grading's
tasks run elsewhere (local grading processes, or Dask workers under ``--scheduler``), so the batch's
process mostly waits on them.  It uses one core when the grading runs on this machine and all of them
when it runs on a cluster.  A fault of the check is reported and leaves the grading's results alone.
"""

from __future__ import annotations

import threading
import traceback
from pathlib import Path
from typing import Sequence

from grader.core.gamespec import GameSpec
from grader.core.similarity.check import SimilarityReport, check
from grader.core.similarity.report import SimilaritySection, write_similarity
from grader.core.similarity.settings import SimilaritySettings
from grader.core.similarity.store import SimilarityStore

STORE = Path("store") / "similarity.sqlite"  # under OUT, beside the batch's results


def run_check(submissions: Sequence[tuple[str, Path]], game: GameSpec, settings: SimilaritySettings, out: Path,
              jobs: int, back: str) -> tuple[SimilarityReport, SimilaritySection]:
    """Check ``submissions`` ((name, folder of its sources)) and write ``out/similarity.csv`` and the pages
    (``back``: the list they return to)."""
    with SimilarityStore(out / STORE) as store:
        report = check(submissions, game, settings, store, jobs)
    return report, write_similarity(report, out, back)


class Beside:
    """The check in a thread, started before the grading and joined after it."""

    def __init__(self, submissions: Sequence[tuple[str, Path]], game: GameSpec, settings: SimilaritySettings,
                 out: Path, jobs: int, back: str) -> None:
        self._args = (list(submissions), game, settings, out, jobs, back)
        self.report: SimilarityReport | None = None
        self.section: SimilaritySection | None = None
        self.error = ""
        self._thread = threading.Thread(target=self._run, name="similarity", daemon=True)

    def _run(self) -> None:
        try:
            self.report, self.section = run_check(*self._args)
        except Exception as err:  # noqa: BLE001 - a fault of the check must not lose the class's grading
            self.error = f"{type(err).__name__}: {err}\n{traceback.format_exc(limit=6)}"

    def start(self) -> Beside:
        self._thread.start()
        return self

    def join(self) -> SimilaritySection | None:
        self._thread.join()
        return self.section
