"""``fcd-grade config``: check a course's marking configuration before grading with it, or show the one in force.

    fcd-grade config check FILE [--game G]        is FILE valid for G? what does the implementation add up to?
    fcd-grade config show [--config FILE] [--game G]   the merged configuration a grading would use, as TOML

A mistyped section, key, group or value is an error naming the nearest valid one (``grader.core.config``):
exit 2, as for any usage error.  A valid file exits 0; what is valid but probably not meant (an
implementation total other than 100) is a warning on stderr.  ``show`` prints TOML that can be passed back
with ``--config``: the totals are comments, and each value the course's file set says so.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Mapping

from grader.core.commands import ExitCode, game_option
from grader.core.config import ConfigError, MarkingConfig, read_toml
from grader.games import get as get_game


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fcd-grade config",
                                description="Check a marking configuration, or show the one a grading would use.",
                                epilog="Exit codes: 0 valid (warnings on stderr), 2 invalid or a usage error.")
    sub = p.add_subparsers(dest="command", required=True, metavar="{check,show}")
    check = sub.add_parser("check", help="validate a course's marking configuration and print its totals",
                           description="Validate FILE merged over the game's default; print what each part is "
                                       "out of. Exit 0 when valid (warnings on stderr), 2 when not.")
    check.add_argument("file", type=Path, help="the course's marking configuration (TOML)")
    game_option(check)
    show = sub.add_parser("show", help="print the effective (merged) marking configuration as TOML",
                          description="Print the configuration a grading would use: the game's default with "
                                      "--config's values over it, as TOML, with the totals as comments.")
    show.add_argument("--config", type=Path, default=None, help="a course's marking configuration (TOML)")
    game_option(show)
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    game = get_game(args.game)
    path = args.file if args.command == "check" else args.config
    try:
        config = MarkingConfig.load(path, game=game)
    except ConfigError as err:
        print(f"fcd-grade config: {err}", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    if args.command == "check":
        print(f"{path}: valid for {game.title} (--game {game.name})")
        print("".join(f"  {line}\n" for line in config.totals()), end="")
    else:
        print(f"# The marking configuration of {game.title} (--game {game.name}): "
              + (f"{game.marking_file.name} with {path} over it" if path else "the game's default"))
        print("".join(f"# {line}\n" for line in config.totals()), end="")
        print("\n".join(toml_lines(config.raw, read_toml(path) if path else {}, f"set by {path}" if path else "")))
    for warning in config.warnings():
        print(f"fcd-grade config: warning: {warning}", file=sys.stderr)
    return ExitCode.OK


def toml_lines(table: Mapping[str, object], over: Mapping[str, object], mark: str,
               path: tuple[str, ...] = ()) -> list[str]:
    """``table`` as TOML (a validated configuration holds only tables, strings, numbers, booleans and lists of
    them); each value ``over`` gives is followed by the comment ``mark``."""
    values = [(k, v) for k, v in table.items() if not isinstance(v, dict)]
    tables = [(k, v) for k, v in table.items() if isinstance(v, dict)]
    lines = ["", f"[{'.'.join(_key(p) for p in path)}]"] if path and (values or not tables) else []
    for k, v in values:
        lines.append(f"{_key(k)} = {_value(v)}" + (f"  # {mark}" if mark and k in over else ""))
    for k, v in tables:
        sub = over.get(k)
        lines += toml_lines(v, sub if isinstance(sub, dict) else {}, mark, (*path, k))
    return lines


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return json.dumps(str(v))  # JSON's escapes are TOML's basic string escapes
