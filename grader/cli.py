"""``fcd-grade``: grade one Final Card-Down submission, or a whole class.

    fcd-grade SUBMISSION_DIR [--out DIR]       one submission; reports in DIR (default fcd-report/)
    fcd-grade batch ROOT --out OUT [--jobs N]  every submission under ROOT (folders, .zip or .tar files)

Exit codes: 0 everything passed, 1 some test failed (or a submission did not
build), 2 a usage error or an error of the grader itself.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from enum import IntEnum
from pathlib import Path

from .config import ConfigError, MarkingConfig


class ExitCode(IntEnum):
    OK = 0
    TESTS_FAILED = 1
    USAGE_OR_INTERNAL = 2


def _single_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fcd-grade", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Grade a Final Card-Down submission (Card.c, Game.c, ...) against the 18s2 rules.",
        epilog="To grade a whole class: fcd-grade batch ROOT --out OUT   (see fcd-grade batch --help)\n\n"
               "Exit codes: 0 all passed, 1 some test failed, 2 usage or grader error.")
    p.add_argument("submission", type=Path, help="the folder holding the student's .c files")
    p.add_argument("--out", type=Path, default=Path("fcd-report"),
                   help="where to write junit.xml, results.json, report.html and repro files (default: %(default)s)")
    p.add_argument("--config", type=Path, default=None, help="a marking configuration (TOML); default: the shipped one")
    p.add_argument("--random-games", type=int, default=None, metavar="N",
                   help="random games to play (default: from the configuration; 0 to skip)")
    p.add_argument("--no-memory", action="store_true", help="skip the memory stage (sanitizers / valgrind)")
    p.add_argument("--quiet", action="store_true", help="print only the total")
    return p


def _batch_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fcd-grade batch", description="Grade every submission under ROOT, in parallel and resumably.",
        epilog="Each submission's results are stored under OUT/store, keyed by a hash of its sources: run the "
               "same command again after an interruption and only what is missing is graded.")
    p.add_argument("root", type=Path, help="a folder with one folder (or .zip / .tar file) per student")
    p.add_argument("--out", type=Path, required=True, help="where the class CSV, JUnit and per-student reports go")
    p.add_argument("--jobs", type=int, default=None, help="submissions graded at once (default: number of cores)")
    p.add_argument("--config", type=Path, default=None, help="a marking configuration (TOML)")
    p.add_argument("--random-games", type=int, default=None, metavar="N")
    p.add_argument("--no-memory", action="store_true")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds one submission may take in all")
    return p


def write_reports(result, out: Path) -> list[Path]:  # noqa: ANN001
    """Every per-submission report, from the one result model."""
    from .report.gradescope import write_gradescope
    from .report.html import write_html
    from .report.junit import write_junit
    from .repro import write_repros

    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "junit.xml", out / "results.json", out / "report.html", out / "result.json"]
    write_junit([result], paths[0])
    write_gradescope(result, paths[1])
    write_html(result, paths[2])
    paths[3].write_text(json.dumps(result.to_json(), indent=1))
    for t in result.tests:
        if t.repro and not t.hidden:
            name = t.id.replace("/", "_") + ".toml"
            (out / name).write_text(t.repro)
    own = [n for n in result.build_sources if not n.startswith("course_")]
    course_card = "course_Card.c" in result.build_sources
    sources = own + (["Card.c"] if course_card else [])
    repros = write_repros(result, out / "repro", sources or ["Game.c", "Card.c"], course_card)
    result.repro_files = {tid: f"repro/{name}" for tid, name in repros.items()}
    paths[3].write_text(json.dumps(result.to_json(), indent=1))
    return paths


def print_summary(result, out: Path | None, quiet: bool = False) -> None:  # noqa: ANN001
    if quiet:
        print(f"{result.submission}: {result.score:g}/{result.max_score:g} ({result.status})")
        return
    print(f"Final Card-Down grader -- {result.submission}")
    print(f"  sandbox: {result.sandbox}")
    print(f"  rulings profile: {result.profile}")
    for note in result.build_notes:
        print(f"  note: {note}")
    print()
    for g in result.groups:
        print(f"  {g.group:<14} {g.passed:>3}/{g.total:<3} tests   {g.marks:>6.2f} / {g.max_marks:g}")
    print(f"  {'total':<14} {'':9}      {result.score:>6.2f} / {result.max_score:g}   ({result.status}, "
          f"{result.seconds:.1f} s)")
    failure = result.first_failure()
    if failure is not None:
        print(f"\nFirst failure: {failure.id} [{failure.outcome.value}]")
        print("  " + (failure.message if not failure.hidden else "(a hidden test)").replace("\n", "\n  "))
        failed = sum(1 for t in result.tests if not t.passed)
        print(f"\n{failed} test(s) did not pass; every message is in the report.")
    if out is not None:
        print(f"\nReports: {out}/report.html, {out}/junit.xml, {out}/results.json")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "batch":
        from .batch import run_batch

        args = _batch_parser().parse_args(argv[1:])
        try:
            config = MarkingConfig.load(args.config)
        except ConfigError as err:
            print(f"fcd-grade: {err}", file=sys.stderr)
            return ExitCode.USAGE_OR_INTERNAL
        return run_batch(args, config)
    args = _single_parser().parse_args(argv)
    if not args.submission.is_dir():
        print(f"fcd-grade: {args.submission} is not a folder", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    try:
        config = MarkingConfig.load(args.config)
    except ConfigError as err:
        print(f"fcd-grade: {err}", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    from .grade import grade

    start = time.monotonic()
    result = grade(args.submission, config, random_games=args.random_games, memory=not args.no_memory)
    result.seconds = time.monotonic() - start
    write_reports(result, args.out)
    print_summary(result, args.out, args.quiet)
    if result.status == "grader error":
        return ExitCode.USAGE_OR_INTERNAL
    return ExitCode.OK if result.status == "passed" else ExitCode.TESTS_FAILED


if __name__ == "__main__":
    raise SystemExit(main())
