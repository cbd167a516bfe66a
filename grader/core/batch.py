"""``fcd-grade batch``: a whole class, in parallel, resumable, one failure costs one student.

Every submission is graded by its own ``fcd-grade`` process (so even a bug of
ours in one submission cannot take the batch down) with an overall timeout.
Its result is stored under ``OUT/store/<name>-<source hash>.json`` the moment
it is complete (written to a temporary name, then renamed), so a batch that is
interrupted and run again grades only the submissions not yet stored, and a
student who resubmits different sources is graded again.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from grader.core.config import MarkingConfig
from grader.core.grade import source_hash
from grader.core.results import SubmissionResult, TestResult, Verdict, result_from_json
from grader.games import get as get_game

ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz")
MAX_UNPACKED = 64 * 1024 * 1024  # bytes one student's archive may unpack to


def _archive_stem(path: Path) -> str | None:
    for ext in ARCHIVES:
        if path.name.endswith(ext):
            return path.name[: -len(ext)]
    return None


def _safe_members(names: list[tuple[str, int]], dest: Path) -> None:
    total = 0
    for name, size in names:
        target = (dest / name).resolve()
        if not target.is_relative_to(dest.resolve()):
            raise ValueError(f"archive member {name!r} points outside the archive")
        total += size
        if total > MAX_UNPACKED:
            raise ValueError("archive unpacks to more than 64 MiB")


def unpack(archive: Path, dest: Path) -> Path:
    """Unpack one student's archive safely; the folder holding their sources."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            _safe_members([(i.filename, i.file_size) for i in z.infolist()], dest)
            z.extractall(dest)
    else:
        with tarfile.open(archive) as t:
            members = [m for m in t.getmembers() if m.isfile() or m.isdir()]  # no links, no devices
            _safe_members([(m.name, m.size) for m in members], dest)
            t.extractall(dest, members=members, filter="data")
    entries = [p for p in dest.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return dest


def discover(root: Path, out: Path) -> list[tuple[str, Path | None, str]]:
    """(name, folder or None, problem) for every submission under ``root``."""
    found = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            found.append((entry.name, entry, ""))
        elif (stem := _archive_stem(entry)) is not None:
            try:
                found.append((stem, unpack(entry, out / "unpacked" / stem), ""))
            except (ValueError, OSError, zipfile.BadZipFile, tarfile.TarError) as err:
                found.append((stem, None, f"could not unpack {entry.name}: {err}"))
    return found


def _failed_result(name: str, digest: str, why: str) -> SubmissionResult:
    test = TestResult("grading/finished", "grading", (), 1.0, Verdict.ERROR, message=why, kind="build")
    result = SubmissionResult(name, digest, False, "", [], [], [test], profile="", sandbox="")
    return result


def _grade_one(name: str, folder: Path | None, problem: str, args: argparse.Namespace,
               out: Path) -> tuple[str, SubmissionResult, bool]:
    store = out / "store"
    if folder is None:
        return name, _failed_result(name, "none", problem), False
    digest = source_hash(folder, get_game(args.game))
    stored = store / f"{name}-{digest}.json"
    if stored.exists():
        return name, result_from_json(json.loads(stored.read_text())), True
    report_dir = out / "reports" / name
    argv = [sys.executable, "-m", "grader.core.cli", str(folder), "--out", str(report_dir), "--quiet",
            "--game", args.game]
    if args.config:
        argv += ["--config", str(args.config)]
    if args.random_games is not None:
        argv += ["--random-games", str(args.random_games)]
    if args.no_memory:
        argv.append("--no-memory")
    if args.no_tests:
        argv.append("--no-tests")
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=args.timeout, check=False,
                              stdin=subprocess.DEVNULL)
        result_file = report_dir / "result.json"
        if proc.returncode in (0, 1) and result_file.exists():
            result = result_from_json(json.loads(result_file.read_text()))
        else:
            result = _failed_result(name, digest, f"grading ended with code {proc.returncode}: "
                                    f"{proc.stderr.strip()[-2000:]}")
    except subprocess.TimeoutExpired:
        result = _failed_result(name, digest, f"grading took longer than {args.timeout:.0f} s and was stopped")
    if result.status != "grader error":
        tmp = stored.with_suffix(".tmp")
        tmp.write_text(json.dumps(result.to_json()))
        os.replace(tmp, stored)
    return name, result, False


def run_batch(args: argparse.Namespace, config: MarkingConfig) -> int:
    from grader.core.report.csv_report import write_class_csv, write_kill_matrix_csv
    from grader.core.report.dashboard import write_dashboard
    from grader.core.report.junit import write_junit

    if not args.root.is_dir():
        print(f"fcd-grade batch: {args.root} is not a folder", file=sys.stderr)
        return 2
    out: Path = args.out
    (out / "store").mkdir(parents=True, exist_ok=True)
    subs = discover(args.root, out)
    jobs = args.jobs or os.cpu_count() or 1
    results: dict[str, SubmissionResult] = {}
    start = time.monotonic()
    lock = threading.Lock()
    done = reused = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_grade_one, name, folder, problem, args, out) for name, folder, problem in subs]
        for fut in as_completed(futures):
            name, result, was_stored = fut.result()
            with lock:
                results[name] = result
                done += 1
                reused += was_stored
                bar = "#" * (30 * done // max(len(subs), 1))
                tag = "stored" if was_stored else f"{result.seconds:.1f} s"
                print(f"[{bar:<30}] {done}/{len(subs)}  {name}: {result.score:g}/{result.max_score:g} "
                      f"{result.status} ({tag})", file=sys.stderr, flush=True)
    ordered = [results[name] for name, _, _ in subs]
    write_class_csv(ordered, out / "class.csv")
    if any(r.suite is not None for r in ordered):
        write_kill_matrix_csv(ordered, out / "kill_matrix.csv")
    write_junit(ordered, out / "junit.xml", lambda r: f"reports/{r.submission}/report.html")
    dashboard = write_dashboard(ordered, out, get_game(args.game).title)
    elapsed = time.monotonic() - start
    graded = len(subs) - reused
    rate = f", {graded / elapsed * 60:.1f} submissions/minute" if graded and elapsed > 0 else ""
    print(f"{len(subs)} submissions ({reused} already stored) in {elapsed:.1f} s{rate}; "
          f"class CSV: {out / 'class.csv'}; dashboard: {dashboard}")
    if any(r.status == "grader error" for r in ordered):
        return 2
    return 0 if all(r.status == "passed" for r in ordered) else 1
