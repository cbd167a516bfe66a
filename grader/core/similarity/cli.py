"""``fcd-grade similarity ROOT``: the similarity check of a class, alone (``fcd-grade batch --similarity`` runs it
beside the grading).

    fcd-grade similarity ROOT [--out DIR] [--game G | --edition E] [--threshold X] [--config FILE] [--jobs N]

ROOT holds one folder or archive per student, as for the batch.  Writes ``DIR/similarity.html`` (the pairs,
ranked, each opening its side-by-side page ``DIR/similarity/<n>.html``) and ``DIR/similarity.csv``; the
store (``DIR/store/similarity.sqlite``) keeps fingerprints and scores, so the same command again (or a
batch with ``--out DIR``) computes only what is new.  Exit 0 when the check ran (whatever it found), 2 for a
usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from grader.core.commands import ExitCode, game_option
from grader.core.config import ConfigError, MarkingConfig
from grader.games import get as get_game


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fcd-grade similarity",
        description="For staff: find submissions whose implementation, tests or player share code beyond what "
                    "the course handed out (token-based: renamed names, layout and comments are seen through).",
        epilog="Similarity is a reason to look, not proof of copying: see the staff guide, 'Similar submissions'.")
    p.add_argument("root", type=Path, help="a folder with one folder (or .zip / .tar file) per student")
    p.add_argument("--out", type=Path, default=Path("fcd-similarity"),
                   help="where similarity.html, similarity.csv and the pages go (default: %(default)s)")
    p.add_argument("--config", type=Path, default=None,
                   help="a marking configuration (TOML) whose [similarity] sets the threshold, the boilerplate ...")
    p.add_argument("--threshold", type=float, default=None, metavar="X",
                   help="list pairs where at least this share (0 to 1) of either file's code is in the other "
                        "(default: the configuration's)")
    p.add_argument("--jobs", type=int, default=None, help="processes (default: number of cores)")
    game_option(p)
    return p


def main(argv: list[str]) -> int:
    from grader.core.batch.run import root_problem  # noqa: PLC0415 - what a class is, as the batch says it
    from grader.core.batch.submissions import discover  # noqa: PLC0415
    from grader.core.similarity.report import summary, write_list  # noqa: PLC0415
    from grader.core.similarity.run import run_check  # noqa: PLC0415
    from grader.core.similarity.settings import SimilaritySettings  # noqa: PLC0415

    args = _parser().parse_args(argv)
    game = get_game(args.game)
    try:
        settings = SimilaritySettings.of(MarkingConfig.load(args.config, game=game), args.threshold)
    except ConfigError as err:
        print(f"fcd-grade similarity: {err}", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    if (problem := root_problem(args.root)) is not None:
        print(f"fcd-grade similarity: {problem}", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    subs, _others = discover(args.root, args.out)
    readable = [(s.name, s.folder) for s in subs if s.folder is not None]
    for s in subs:
        if s.folder is None:
            print(f"fcd-grade similarity: {s.name} is not compared: {s.problem}", file=sys.stderr)
    report, section = run_check(readable, game, settings, args.out, args.jobs or os.cpu_count() or 1,
                                "../similarity.html")
    page = write_list(section, args.out, game.title)
    print(summary(report))
    print(f"similar pairs: {page}; every pair over the threshold: {args.out / 'similarity.csv'}")
    return ExitCode.OK

