"""What every ``fcd-grade`` command shares: its exit codes, and how it names a game (``--game`` / ``--edition``).

A module of its own so that ``cli``, which hands a subcommand to its module (``config_cli``,
``gradescope_bundle``), and those modules, which take these from here, do not import one another.
"""

from __future__ import annotations

import argparse
from enum import IntEnum

from grader.games import DEFAULT_GAME, GAMES


class ExitCode(IntEnum):
    OK = 0
    TESTS_FAILED = 1
    USAGE_OR_INTERNAL = 2


def game_option(p: argparse.ArgumentParser) -> None:
    """``--game`` / ``--edition``: the one way every fcd-grade command names a game (the subcommands too)."""
    which = p.add_mutually_exclusive_group()
    which.add_argument("--game", choices=sorted(GAMES), default=DEFAULT_GAME,
                       help="the game (and edition) the submission implements (default: %(default)s)")
    which.add_argument("--edition", dest="game", choices=sorted(GAMES), metavar="{" + ",".join(sorted(
                           g.removeprefix("fcd") for g in GAMES)) + "}", type=lambda e: e if e in GAMES else f"fcd{e}",
                       help="the same, by the course's edition of Final Card-Down (17s2 or 18s2)")
