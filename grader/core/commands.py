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


# The editions of Final Card-Down by the course's name for them ("17s2" -> "fcd17s2"): ``--edition`` names only
# these (Palace is another game, not an edition: ``--game palace``).
EDITIONS = {name.removeprefix("fcd"): name for name in sorted(GAMES) if name.startswith("fcd")}


def _edition(text: str) -> str:
    """``--edition 17s2`` (or ``fcd17s2``) -> the game ``fcd17s2``; anything else is refused, saying what is."""
    if text in EDITIONS.values():
        return text
    if text not in EDITIONS:
        other = f"; {text} is a game of its own: --game {text}" if text in GAMES else ""
        raise argparse.ArgumentTypeError(f"no edition {text!r} of Final Card-Down (choose from "
                                         f"{', '.join(EDITIONS)}){other}")
    return EDITIONS[text]


def game_option(p: argparse.ArgumentParser) -> None:
    """``--game`` / ``--edition``: the one way every fcd-grade command names a game (the subcommands too)."""
    which = p.add_mutually_exclusive_group()
    which.add_argument("--game", choices=sorted(GAMES), default=DEFAULT_GAME,
                       help="the game (and edition) the submission implements (default: %(default)s)")
    which.add_argument("--edition", dest="game",
                       metavar="{" + ",".join(EDITIONS) + "}", type=_edition,
                       help="the same, by the course's edition of Final Card-Down (" + " or ".join(EDITIONS) + ")")
