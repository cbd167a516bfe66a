"""``fcd-grade``: grade one submission of a game the grader knows (Final Card-Down by default), or a whole class.

    fcd-grade SUBMISSION [--out DIR]           one submission (a folder or an archive); reports in DIR
    fcd-grade batch ROOT --out OUT [--jobs N]  every submission under ROOT (folders, .zip or .tar files)
        [--local-cluster | --scheduler tcp://HOST:8786]   ... on Dask: this machine, or a cluster
        [--similarity]                          ... and the similarity check of the class, for staff
    fcd-grade similarity ROOT [--out DIR]      the similarity check alone (similar submissions, for staff)
    fcd-grade worker tcp://HOST:8786           check this machine, then start its Dask workers
    fcd-grade config check FILE | config show  check a marking configuration; show the one in effect
    fcd-grade gradescope-bundle OUT.zip [--config FILE]   the Gradescope autograder zip

Exit codes: 0 everything passed, 1 some test failed (or a submission did not
build), 2 a usage error or an error of the grader itself.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Collection

from grader.core.commands import ExitCode, game_option
from grader.core.config import ConfigError, MarkingConfig
from grader.core.gamespec import GameSpec
from grader.core.marks import mark_text
from grader.core.replay import step_by_step
from grader.core.report.notes import folded
from grader.core.report.write import write_reports
from grader.core.results import PlayersResult, SubmissionResult
from grader.core.submission import ARCHIVES, HandedIn, is_submission, open_submission
from grader.games import get as get_game


def _single_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fcd-grade", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Grade a submission: Final Card-Down 2018 (Card.c, Game.c, ...) unless --edition or --game "
                    "names another game.",
        epilog="To grade a whole class: fcd-grade batch ROOT --out OUT   (see fcd-grade batch --help)\n\n"
               "Exit codes: 0 all passed, 1 some test failed, 2 usage or grader error.")
    p.add_argument("submission", type=Path,
                   help="the student's folder of .c files, or their .zip / .tar / .tar.gz / .tgz (the sources may "
                        "sit a lone folder down, as learning-management systems export them)")
    p.add_argument("--out", type=Path, default=Path("fcd-report"),
                   help="where to write junit.xml, results.json, report.html and repro files (default: %(default)s)")
    p.add_argument("--config", type=Path, default=None, help="a marking configuration (TOML); default: the shipped one")
    p.add_argument("--random-games", type=int, default=None, metavar="N",
                   help="random games to play (default: from the configuration; 0 to skip)")
    p.add_argument("--no-memory", action="store_true", help="skip the memory stage (sanitizers / valgrind)")
    p.add_argument("--no-tests", action="store_true",
                   help="do not grade the submission's own tests (testGame.c), even when it has them")
    p.add_argument("--no-players", action="store_true",
                   help="do not play the submission's player.c against the baselines, even when it has one")
    p.add_argument("--quiet", action="store_true", help="print only the total")
    p.add_argument("--note", action="append", default=[], help=argparse.SUPPRESS)  # the batch's: what it left out
    p.add_argument("--unsandboxed", action="store_true",
                   help="grade even when the sandbox cannot start: the submission's code then runs as you, next to "
                        "your files (for your own code on your own machine only; never for other people's)")
    p.add_argument("--only", nargs="+", metavar="TEST", default=None,
                   help="run just these tests, to re-check one fix: a group (skip), a test (skip/a_skips_player_1), "
                        "random or memory; the mark shown is partial")
    game_option(p)
    return p


def _batch_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fcd-grade batch", description="Grade every submission under ROOT, in parallel and resumably.",
        epilog="Each result is stored under OUT/store, keyed by the submission's sources, the grader's version and "
               "the marking: run the same command again after an interruption (or a new ruling, or a new grader) "
               "and only what is missing or changed is graded.")
    p.add_argument("root", type=Path, help="a folder with one folder (or .zip / .tar file) per student")
    p.add_argument("--out", type=Path, required=True, help="where the class CSV, JUnit and per-student reports go")
    p.add_argument("--jobs", type=int, default=None, help="submissions graded at once on this machine, or the "
                   "workers of --local-cluster (default: number of cores; with --scheduler the cluster decides)")
    p.add_argument("--config", type=Path, default=None, help="a marking configuration (TOML)")
    p.add_argument("--random-games", type=int, default=None, metavar="N")
    p.add_argument("--no-memory", action="store_true")
    p.add_argument("--no-tests", action="store_true", help="do not grade the students' own tests (testGame.c)")
    p.add_argument("--no-players", action="store_true", help="do not grade the students' players (player.c)")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds one submission may take in all")
    p.add_argument("--similarity", action="store_true",
                   help="also check the class for similar submissions (for staff: OUT/similarity.csv and a section "
                        "of the dashboard; see fcd-grade similarity --help)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="grade on an existing Dask cluster (tcp://HOST:8786); its workers need gcc, bubblewrap "
                            "and this grader (docs/staff-guide.md)")
    where.add_argument("--local-cluster", action="store_true",
                       help="grade on a Dask LocalCluster of --jobs workers on this machine (with the Dask dashboard)")
    game_option(p)
    return p


def _worker_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fcd-grade worker", description="Check this machine can grade, then start its Dask workers for "
        "fcd-grade batch --scheduler (one per core, each grading one submission at a time).")
    p.add_argument("scheduler", help="the Dask scheduler's address, tcp://HOST:8786")
    p.add_argument("--nworkers", type=int, default=None, help="workers on this machine (default: number of cores)")
    return p


NOT_SHOWN_WORDS = ("(not shown: a test your game could not show all of, because it already differed in something "
                   "another test judges; it earns the part it saw hold, and the difference is charged once)")


def print_summary(result: SubmissionResult, out: Path | None, quiet: bool = False, title: str | None = None,
                  said: Collection[str] = ()) -> None:
    """The result on the console, under the title of the game graded against (``title``, else the result's);
    ``said``: build notes already printed before grading (not said twice)."""
    if quiet:
        partial = f", partial: --only {' '.join(result.only)}" if result.only else ""
        print(f"{result.submission}: {mark_text(result.score)}/{mark_text(result.max_score)} "
              f"({result.status}{partial})")
        return
    print(f"{title or result.game or 'fcd-grade'} grader -- {result.submission}")
    print(f"  sandbox: {result.sandbox}")
    print(f"  rulings profile: {result.profile}")
    for note in folded(n for n in result.build_notes if n not in said):
        print(f"  note: {note}")
    print()
    for g in result.groups:
        others = ", ".join(f"{n} {what}" for n, what in ((g.failed, "failed"), (g.not_shown, "not shown")) if n)
        print(f"  {g.group:<14} {g.passed:>3}/{g.total:<3} passed  {mark_text(g.marks):>6} / "
              f"{mark_text(g.max_marks)}" + (f"   ({others})" if others else ""))
    print(f"  {'total':<14} {'':9}      {mark_text(result.score):>6} / {mark_text(result.max_score)}   "
          f"({result.status}, "
          f"{result.seconds:.1f} s)")
    if any(g.not_shown for g in result.groups):
        print(f"  {NOT_SHOWN_WORDS}")
    if result.only:
        print(f"  PARTIAL: only {' '.join(result.only)} ran (--only); this is not your mark. "
              f"Run without --only for the whole grade.")
    if result.suite is not None:
        s = result.suite
        what = (s.problem if not s.compiled else f"valid: {'yes' if s.valid else 'no'}, caught {s.caught} of "
                f"{len(s.mutants)} buggy implementations")
        print(f"  {'your tests':<14} {what}   {mark_text(s.score):>6} / {mark_text(s.max_score)}   (marked apart)")
    if result.players is not None:
        print_players(result.players, out)
    failure = result.first_failure()
    if failure is not None:
        print(f"\nFirst failure: {failure.id} [{failure.verdict.value}]")
        print("  " + (failure.message if not failure.hidden else "(a hidden test)").replace("\n", "\n  "))
        if out is not None and (link := step_by_step(failure, str(out / "report.html"))):
            print("  " + link.strip())
        failed = sum(1 for t in result.tests if not t.passed)
        print(f"\n{failed} test(s) did not pass; every message is in the report.")
    if out is not None:
        print(f"\nReports: {out}/report.html, {out}/junit.xml, {out}/results.json")


def print_players(players: PlayersResult, out: Path | None) -> None:
    """The player's part: its total, then a line per mark of ``[players.marks]``; and the compiler's first error
    when it played no game, or its first forfeit with the replay page of that game (in ``out``)."""
    played = (f"{players.games_played} games against the baselines" if players.compiled and not players.error else
              players.problem or "not judged: the grader failed")
    print(f"  {'your player':<14} {played}   {mark_text(players.score):>6} / {mark_text(players.max_score)}   "
          "(marked apart)")
    for m in players.marks:
        print(f"    {m.what:<14} {mark_text(m.earned):>5} / {mark_text(m.max):<3} {m.why}")
    error = next((line for line in players.compiler_output.splitlines() if "error" in line), "")
    if error:
        print(f"    the compiler: {error}")
    if players.forfeits:
        f = players.forfeits[0]
        page = players.page_of(f.game)
        replay = f"  ({out / page}#game/step-{f.step})" if out is not None and page else ""
        print(f"    first forfeit: game {f.game}, step {f.step}: {f.why[:160]}{replay}")


def sandbox_refusal(unsandboxed: bool) -> str:
    """Why a grade must not run here ('' when it may): without a working sandbox, student code would run as the
    grader's user beside its files, so that happens only when asked (``--unsandboxed``, or FCD_SANDBOX=none)."""
    from grader.core.isolation import detect_mode  # noqa: PLC0415 - bubblewrap is tried only when grading

    mode = detect_mode()
    if mode.name == "bwrap" or unsandboxed or os.environ.get("FCD_SANDBOX") == "none":
        return ""
    return (f"the sandbox cannot start here, so nothing was graded: {mode.why}. Student code must not run "
            f"unsandboxed next to your files; fix the sandbox, or, for your own code on your own machine only, "
            f"grade with --unsandboxed.")


def sandbox_main(argv: list[str]) -> int:
    """``fcd-grade sandbox``: can this machine grade? The sandbox's mode, and the fix when it cannot start."""
    from grader.core.isolation import detect_mode  # noqa: PLC0415

    argparse.ArgumentParser(prog="fcd-grade sandbox", description=sandbox_main.__doc__).parse_args(argv)
    mode = detect_mode()
    print(f"fcd-grade sandbox: {mode.name}: {mode.why}")
    return 0 if mode.name == "bwrap" else 1


# Subcommands that live in a module of their own: the name -> the module whose ``main(argv)`` runs it.
SUBCOMMANDS = {
    "config": "grader.core.config_cli",  # fcd-grade config check FILE | config show [--config FILE]
    "gradescope-bundle": "grader.core.report.gradescope_bundle",  # fcd-grade gradescope-bundle OUT.zip
    "similarity": "grader.core.similarity.cli",  # fcd-grade similarity ROOT [--out DIR]
}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        import importlib  # noqa: PLC0415 - only the subcommand asked for is imported

        return int(importlib.import_module(SUBCOMMANDS[argv[0]]).main(argv[1:]))
    if argv and argv[0] == "sandbox":
        return sandbox_main(argv[1:])
    if argv and argv[0] == "worker":
        from grader.core.batch.dask_worker import start_workers  # noqa: PLC0415 - only a worker needs Dask

        wargs = _worker_parser().parse_args(argv[1:])
        return start_workers(wargs.scheduler, wargs.nworkers)
    if argv and argv[0] == "batch":
        from grader.core.batch import run_batch  # noqa: PLC0415

        args = _batch_parser().parse_args(argv[1:])
        try:
            config = MarkingConfig.load(args.config, game=get_game(args.game))
        except ConfigError as err:
            print(f"fcd-grade: {err}", file=sys.stderr)
            return ExitCode.USAGE_OR_INTERNAL
        for warning in config.warnings():
            print(f"fcd-grade batch: warning: {warning}", file=sys.stderr)
        return run_batch(args, config)
    args = _single_parser().parse_args(argv)
    if not is_submission(args.submission):
        what = "does not exist" if not args.submission.exists() else "is neither a folder nor an archive"
        print(f"fcd-grade: {args.submission} {what} (give a folder of .c files, or a {', '.join(ARCHIVES)} file)",
              file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    if refused := sandbox_refusal(args.unsandboxed):
        print(f"fcd-grade: {refused}", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    game = get_game(args.game)
    try:
        config = MarkingConfig.load(args.config, game=game)
    except ConfigError as err:
        print(f"fcd-grade: {err}", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    if not args.quiet:
        for warning in config.warnings():
            print(f"fcd-grade: warning: {warning}", file=sys.stderr)
    if args.only:
        from grader.core.grade import pick_only  # noqa: PLC0415

        try:
            pick_only(args.only, game.load_scenarios())
        except ValueError as err:
            print(f"fcd-grade: {err}", file=sys.stderr)
            return ExitCode.USAGE_OR_INTERNAL
    with tempfile.TemporaryDirectory(prefix="fcd-handed-in-") as scratch:
        handed = open_submission(args.submission, Path(scratch) / "unpacked")
        if handed.folder is None:  # a complete report all the same, saying why and what to hand in instead
            from grader.core.grade import not_read  # noqa: PLC0415

            print(f"fcd-grade: {handed.problem}", file=sys.stderr)
            result = not_read(handed.name, handed.problem, handed.not_read, config, game=game,
                              random_games=args.random_games, memory=not args.no_memory)
            print_summary(write_reports(result, args.out, game), args.out, args.quiet, game.title)
            return ExitCode.TESTS_FAILED
        return _grade_one(handed, handed.folder, args, config, game)


def _grade_one(handed: HandedIn, folder: Path, args: argparse.Namespace, config: MarkingConfig,
               game: GameSpec) -> ExitCode:
    """Grade one submission's sources: say first where they are and what will be compiled, then grade."""
    from grader.core.build import find_sources  # noqa: PLC0415
    from grader.core.grade import grade  # noqa: PLC0415

    said = [*handed.notes, *args.note, find_sources(folder, game).files_note]  # the files compiled, left out, why
    if not args.quiet:
        for line in said:
            print(line, flush=True)  # before the build: a long grading's log shows it first
    start = time.monotonic()
    result = grade(folder, config, game=game, random_games=args.random_games, memory=not args.no_memory,
                   own_tests=not args.no_tests, players=not args.no_players, only=args.only or ())
    result.seconds = time.monotonic() - start
    result.submission = handed.name
    result.build_notes = [*handed.notes, *args.note, *result.build_notes]
    result = write_reports(result, args.out, game)
    print_summary(result, args.out, args.quiet, game.title, said)
    if result.status == "grader error":
        return ExitCode.USAGE_OR_INTERNAL
    return ExitCode.OK if result.status == "passed" else ExitCode.TESTS_FAILED


if __name__ == "__main__":
    raise SystemExit(main())
