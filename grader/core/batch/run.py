"""``fcd-grade batch``: a whole class, graded where the work can run, resumed where it stopped.

1. Every submission under ROOT is found (``grader.core.submission``: a folder
   or an archive, unpacked safely, its sources perhaps a lone folder down) and
   keyed by its sources, the grader's version and the marking (``store``).
   A ROOT that does not exist or holds no submission is an error (exit 2); a
   submission that cannot be read (a broken archive, too big, too many files)
   gets the status "unreadable" and its reason, with the marks it could have
   earned as its maximum.
2. A key already in ``OUT/store`` is not graded again; the rest become tasks
   (``task``) run by local processes or by Dask (``executors``).
3. As each task finishes, its reports are put in place and its result is
   stored (the result last: a kill in between only means grading it again).
   A result with a grader error in some test keeps its other results: it is
   stored flagged for regrading (the next run grades it again) and shown with
   the error; only a grading that could not finish at all is not stored.
4. The class CSV, the kill matrix, the JUnit file and the dashboard are written
   from the results of every submission.
5. With ``--similarity``, the similarity check of the class (``grader.core.similarity``)
   runs in a thread of this process, started once the class is found and joined
   before the dashboard, which shows its pairs (for staff; no student's report
   does); its settings are not part of the marking hash (they change no mark).

Exit 0: everyone passed; 1: someone lost marks; 2: some submission could not be
graded (a fault of the grader or of a machine: run the same command again).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from grader.core.batch.executors import DaskCluster, LocalProcesses
from grader.core.batch.exports import which_lms
from grader.core.batch.progress import BatchProgress
from grader.core.batch.requirements import WorkerRefused, check_worker
from grader.core.batch.store import ResultKey, ResultStore, grader_version, marking_hash
from grader.core.batch.submissions import discover, shipped, write_files
from grader.core.batch.task import FAILED_GRADING, GradeJob, GradeOutput, failed_result, finished
from grader.core.config import MarkingConfig
from grader.core.gamespec import GameSpec
from grader.core.grade import source_hash
from grader.core.report.write import write_reports
from grader.core.results import UNREADABLE, SubmissionResult, result_from_json
from grader.core.submission import ARCHIVES, HandedIn, is_submission
from grader.games import get as get_game

if TYPE_CHECKING:
    from grader.core.similarity.run import Beside

Unreadable = Callable[[str, str, str], SubmissionResult]  # (name, why, status) -> its result


def _unreadable(name: str, problem: str, status: str, game: GameSpec, config: MarkingConfig,
                args: argparse.Namespace) -> SubmissionResult:
    """A hand-in the grader cannot read: ``grade.not_read``, with the batch's options."""
    from grader.core.grade import not_read  # noqa: PLC0415

    return not_read(name, problem, status, config, game=game, random_games=args.random_games,
                    memory=not args.no_memory)


def _options(args: argparse.Namespace) -> tuple[str, ...]:
    """The fcd-grade options a batch passes on (each changes marks, so each is part of the marking hash)."""
    opts: list[str] = []
    if args.random_games is not None:
        opts += ["--random-games", str(args.random_games)]
    if args.no_memory:
        opts.append("--no-memory")
    if args.no_tests:
        opts.append("--no-tests")
    if args.no_players:
        opts.append("--no-players")
    return tuple(opts)


def _place_reports(files: dict[str, bytes], dest: Path) -> None:
    """A worker's report folder put in place whole: written beside ``dest``, then swapped in."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    new = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".{dest.name}.new-"))
    try:
        write_files(files, new)
    except ValueError:
        shutil.rmtree(new, ignore_errors=True)
        raise
    old = None
    if dest.exists():
        old = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".{dest.name}.old-"))
        os.replace(dest, old / "r")
    os.replace(new, dest)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _reports_current(dest: Path, result: SubmissionResult) -> bool:
    try:
        shown = result_from_json(json.loads((dest / "result.json").read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return shown.submission == result.submission and shown.source_hash == result.source_hash


def _rewrite_reports(result: SubmissionResult, dest: Path, game: GameSpec) -> None:
    """A stored result's reports, written again here (no student code runs: reports are made from the
    result), when they are missing or were another student's (the same sources handed in twice)."""

    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent, prefix=f".{dest.name}.w-") as tmp:
        write_reports(result, Path(tmp), game)
        _place_reports({p.relative_to(tmp).as_posix(): p.read_bytes()
                        for p in Path(tmp).rglob("*") if p.is_file()}, dest)


def _judge(job: GradeJob, key: ResultKey, outcome: GradeOutput | BaseException, version: str) -> SubmissionResult:
    """What a finished task means: its result, or an ERROR result when it is not one (a lost worker past its
    retries, a worker with another grader, a result that does not read back)."""
    if isinstance(outcome, BaseException):
        return failed_result(job.name, key.source, f"the task was lost ({type(outcome).__name__}: {outcome}); "
                             "run the same command again to grade it")
    if outcome.grader != version:
        return failed_result(job.name, key.source, f"the worker {outcome.worker} runs grader version "
                             f"{outcome.grader}, this batch {version}: install the same grader everywhere")
    try:
        return result_from_json(outcome.result)
    except (KeyError, TypeError, ValueError) as err:
        return failed_result(job.name, key.source, f"the worker's result does not read back: {err}")


REGRADE = "regrade after a grader error"  # why a submission whose stored result is flagged is graded again


@dataclass
class Plan:
    results: dict[str, SubmissionResult]  # what needs no grading: from the store, or unreadable
    from_store: set[str]
    to_grade: list[tuple[GradeJob, ResultKey]]
    why: Counter[str]  # why each is graded, counted
    provisional: dict[str, SubmissionResult]  # stored results flagged for regrading, shown if that cannot finish


def _plan(subs: list[HandedIn], store: ResultStore, game: GameSpec, out: Path,
          job_of: Callable[[str, dict[str, bytes], str, tuple[str, ...]], GradeJob], version: str, marking: str,
          unreadable: Unreadable) -> Plan:
    """What the store already holds (its reports put back where missing) and what must be graded, and why.
    A stored result flagged for regrading (a grader error in some test) is graded again."""
    results: dict[str, SubmissionResult] = {}
    provisional: dict[str, SubmissionResult] = {}
    from_store: set[str] = set()
    to_grade: list[tuple[GradeJob, ResultKey]] = []
    why: Counter[str] = Counter()
    for sub in subs:
        if sub.folder is None:
            results[sub.name] = unreadable(sub.name, sub.problem, sub.not_read)
            _rewrite_reports(results[sub.name], out / "reports" / sub.name, game)
            continue
        key = ResultKey(source_hash(sub.folder, game), version, marking)
        stored = store.get(sub.name, key)
        if stored is not None:
            results[sub.name] = stored
            from_store.add(sub.name)
            store.remember(sub.name, key)
            if not _reports_current(out / "reports" / sub.name, stored):
                _rewrite_reports(stored, out / "reports" / sub.name, game)
            continue
        flagged = store.provisional(sub.name, key)
        if flagged is not None:
            provisional[sub.name] = flagged
        why[REGRADE if flagged is not None else key.why_new(store.previous(sub.name))] += 1
        try:
            files, entry = shipped(sub)
        except (OSError, ValueError) as err:
            results[sub.name] = unreadable(sub.name, f"could not read the submission: {err}", UNREADABLE)
            _rewrite_reports(results[sub.name], out / "reports" / sub.name, game)
            continue
        to_grade.append((job_of(sub.name, files, entry, sub.left_out), key))
    return Plan(results, from_store, to_grade, why, provisional)


def _kept(before: SubmissionResult | None, failed: SubmissionResult) -> SubmissionResult:
    """A grading that could not finish, for a submission whose earlier result (flagged for regrading) is
    stored: that result, its other tests standing, with this failure added as one more grader error."""
    if before is None or not finished(before):
        return failed
    tests = [t for t in before.tests if t.id != FAILED_GRADING] + failed.tests
    return dataclasses.replace(before, tests=tests)


def _executor(args: argparse.Namespace, jobs: int, version: str) -> LocalProcesses | DaskCluster:
    if args.scheduler or args.local_cluster:
        return DaskCluster(jobs, args.scheduler, version)
    return LocalProcesses(jobs)


def root_problem(root: Path) -> str | None:
    """Why ``root`` is not a class to grade (None when it is): missing, not a folder, or holding no
    submission (then, if it is one student's folder, the command that grades it)."""
    if not root.exists():
        return f"{root} does not exist"
    if not root.is_dir():
        return f"{root} is not a folder (give the folder that holds one folder or archive per student)"
    entries = [p for p in root.iterdir() if not p.name.startswith(".")]
    if which_lms(root) or any(is_submission(p) for p in entries):
        return None
    if any(p.suffix == ".c" for p in entries):
        return (f"{root} holds no submission, only files: it looks like one student's submission; "
                f"grade it with: fcd-grade {root}")
    return f"{root} holds no submission (one folder or {', '.join(ARCHIVES)} file per student)"


def _found_notes(subs: list[HandedIn], others: list[str]) -> list[str]:
    """What the console says about the class as found: the entries of ROOT left out, and the submissions
    whose sources were a lone folder down (each report says so too)."""
    lines = []
    if others:
        lines.append(f"left out (neither a folder nor an archive): {', '.join(others)}")
    for what, found in (("with their sources a lone folder down", [f"{s.given.name}/{s.down}" for s in subs
                                                                  if s.down and not s.archive]),
                        ("handed in as an archive inside their folder, unpacked",
                         [f"{s.given.name}/{s.archive}" for s in subs if s.archive])):
        if found:
            lines.append(f"{len(found)} submission(s) {what}, graded from there: "
                         + ", ".join(found[:5]) + (", ..." if len(found) > 5 else ""))
    return lines


def _similarity(args: argparse.Namespace, config: MarkingConfig, game: GameSpec,
                subs: list[HandedIn]) -> Beside | str | None:
    """With ``--similarity``: the check of the class, to start in a thread beside the grading (the grading's
    work runs in other processes, or on a cluster: then the check may take every core here); why it cannot
    run (a usage error, said before anything is graded), or None without the flag."""
    if not getattr(args, "similarity", False):
        return None
    from grader.core.config import ConfigError  # noqa: PLC0415
    from grader.core.similarity.run import Beside  # noqa: PLC0415 - numpy, Pygments: only when asked for
    from grader.core.similarity.settings import SimilaritySettings  # noqa: PLC0415

    try:
        settings = SimilaritySettings.of(config)
    except ConfigError as err:
        return str(err)
    jobs = (os.cpu_count() or 1) if args.scheduler else 1
    return Beside([(s.name, s.folder) for s in subs if s.folder is not None], game, settings, args.out, jobs,
                  "../dashboard.html#similar")


def run_batch(args: argparse.Namespace, config: MarkingConfig) -> int:
    from grader.core.report.csv_report import write_class_csv, write_kill_matrix_csv  # noqa: PLC0415
    from grader.core.report.dashboard import write_dashboard  # noqa: PLC0415
    from grader.core.report.junit import write_junit  # noqa: PLC0415

    if (problem := root_problem(args.root)) is not None:
        print(f"fcd-grade batch: {problem}", file=sys.stderr)
        return 2
    out: Path = args.out
    game = get_game(args.game)
    store = ResultStore(out / "store")
    version = grader_version()
    options = _options(args)
    # [similarity] changes no mark: a new threshold or boilerplate list regrades nobody
    marking = marking_hash({k: v for k, v in config.raw.items() if k != "similarity"},
                           {"game": args.game, "options": options, "timeout": args.timeout})
    config_text = Path(args.config).read_text() if args.config else None
    start = time.monotonic()

    subs, others = discover(args.root, out)
    similarity = _similarity(args, config, game, subs)
    if isinstance(similarity, str):
        print(f"fcd-grade batch: {similarity}", file=sys.stderr)
        return 2
    def job_of(name: str, files: dict[str, bytes], entry: str, notes: tuple[str, ...]) -> GradeJob:
        return GradeJob(name, files, args.game, config_text, options, args.timeout, entry, notes)

    def unreadable(name: str, problem: str, status: str) -> SubmissionResult:
        return _unreadable(name, problem, status, game, config, args)

    plan = _plan(subs, store, game, out, job_of, version, marking, unreadable)
    results, from_store, to_grade, why = plan.results, plan.from_store, plan.to_grade, plan.why

    jobs = args.jobs or os.cpu_count() or 1
    if to_grade and not (args.scheduler or args.local_cluster):
        try:
            check_worker()  # the local machine grades: refuse now rather than fail every submission
        except WorkerRefused as err:
            print(f"fcd-grade batch: {err}", file=sys.stderr)
            return 2
    try:
        executor = _executor(args, jobs, version) if to_grade else None
    except OSError as err:  # an unreachable --scheduler: said in one line, not a traceback
        print(f"fcd-grade batch: {err}", file=sys.stderr)
        return 2
    if similarity is not None:
        similarity.start()  # beside the grading, now that it can start
    progress = BatchProgress(len(subs))
    try:
        with progress:
            for line in _found_notes(subs, others):
                progress.note(line)
            for name, result in results.items():
                progress.finished(result, cached=name in from_store)
                if result.unreadable:
                    progress.note(f"  {name}: {result.status}: {result.unreadable}")
            if executor is not None:
                progress.note(f"grading {len(to_grade)} of {len(subs)} submissions on {executor.name}"
                              + (f"; Dask dashboard: {executor.dashboard}" if executor.dashboard else ""))
                for where, problems in executor.set_aside.items():
                    progress.note(f"worker {where} set aside: {'; '.join(problems)}")
                if isinstance(executor, DaskCluster) and executor.usable == 0:
                    progress.note("fcd-grade batch: no worker of the cluster may grade (see above)")
                    return 2
                keys = {job.name: key for job, key in to_grade}
                for job, outcome in executor.run(job for job, _ in to_grade):
                    key = keys[job.name]
                    result = _judge(job, key, outcome, version)
                    if not finished(result) or not isinstance(outcome, GradeOutput):
                        # not stored: graded again; a result from before (flagged) is still what it shows
                        result = _kept(plan.provisional.get(job.name), result)
                        _rewrite_reports(result, out / "reports" / job.name, game)
                    else:  # a grader error in some test: stored flagged, the other results kept
                        _place_reports(outcome.reports, out / "reports" / job.name)
                        store.put(job.name, key, result, worker=outcome.worker,
                                  regrade=result.grader_failed)
                    results[job.name] = result
                    progress.finished(result, cached=False)
    finally:
        if executor is not None:
            executor.close()

    ordered = [dataclasses.replace(results[s.name], student=s.student) for s in subs]  # who: as exported now
    write_class_csv(ordered, out / "class.csv")
    if any(r.suite is not None for r in ordered):
        write_kill_matrix_csv(ordered, out / "kill_matrix.csv")
    write_junit(ordered, out / "junit.xml", lambda r: f"reports/{r.submission}/report.html")
    section = similarity.join() if similarity is not None else None
    dashboard = write_dashboard(ordered, out, game.title, similarity=section)
    elapsed = time.monotonic() - start
    graded = len(to_grade)
    reasons = ", ".join(f"{n} {what}" for what, n in sorted(why.items()))
    rate = f", {graded / elapsed * 60:.1f} submissions/minute" if graded and elapsed > 0 else ""
    print(f"{len(subs)} submissions: {graded} graded" + (f" ({reasons})" if reasons else "")
          + f", {len(from_store)} from the store, in {elapsed:.1f} s{rate}")
    print(f"class CSV: {out / 'class.csv'}; dashboard: {dashboard}")
    if similarity is not None:
        if similarity.report is not None:
            from grader.core.similarity.report import summary  # noqa: PLC0415

            print(f"{summary(similarity.report)}; every pair over the threshold: {out / 'similarity.csv'}")
        else:
            print(f"fcd-grade batch: the similarity check failed (the grading is not affected): {similarity.error}",
                  file=sys.stderr)
            return 2
    if any(r.status == "grader error" for r in ordered):
        return 2
    return 0 if all(r.status == "passed" for r in ordered) else 1
