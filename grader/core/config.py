"""The marking configuration: marks, visibility, limits and the rulings profile.

A default ships with each game (``grader/games/<game>/marking.toml``: the one
place of its default marks and limits); a course passes its own with
``--config``.  Keys missing from a course file keep their default.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.core.limits import Limits

if TYPE_CHECKING:
    from grader.core.gamespec import GameSpec


@dataclass(frozen=True)
class SuiteMarking:
    """How a student's own test program is marked: the marking configuration's ``[testing]``."""

    validity_marks: float  # all of them when every check holds on every correct implementation
    thoroughness_marks: float  # in proportion to the mutants caught
    gate: bool  # an invalid test program earns no thoroughness marks either
    hang_is_caught: bool  # a run that times out on a mutant (and not on the model) catches it
    run_seconds: float  # wall time of one run
    hidden_mutants: frozenset[str]  # mutants students' reports do not name

    @property
    def max_marks(self) -> float:
        return self.validity_marks + self.thoroughness_marks


class ConfigError(ValueError):
    """A marking configuration that does not say something we can use."""


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(base[k], v) if isinstance(v, dict) and isinstance(base.get(k), dict) else v
    return out


@dataclass(frozen=True)
class MarkingConfig:
    raw: dict[str, Any]
    source: str

    @classmethod
    def load(cls, path: Path | None = None, game: GameSpec | None = None) -> MarkingConfig:
        """The game's default configuration (the default game's if none is given), with ``path``'s
        values over it."""
        if game is None:
            from grader.games import get  # noqa: PLC0415 - the registry, by name: no game is imported here

            game = get()
        base = tomllib.loads(game.marking_file.read_text())
        if path is None:
            return cls(base, "default")
        try:
            over = tomllib.loads(Path(path).read_text())
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise ConfigError(f"{path}: {err}") from err
        cfg = cls(_merge(base, over), str(path))
        unknown = [r for r in cfg.strict_rulings if r not in game.rulings]
        if unknown:
            raise ConfigError(f"{path}: rulings.strict names unknown rulings {unknown}")
        return cfg

    @property
    def strict_rulings(self) -> frozenset[str]:
        return frozenset(self.raw["rulings"].get("strict", []))

    @property
    def profile(self) -> str:
        strict = sorted(self.strict_rulings)
        name = self.raw["rulings"].get("profile", "lenient")
        return f"{name} (strict: {', '.join(strict)})" if strict else name

    def group_marks(self, group: str) -> float:
        return float(self.raw["marks"]["groups"].get(group, self.raw["marks"]["default_group"]))

    def marks(self, part: str) -> float:
        return float(self.raw["marks"][part])

    def hidden(self, group: str) -> bool:
        vis = self.raw["visibility"]
        return group in vis.get("hidden_groups", []) or vis.get("default") == "hidden"

    @property
    def random_games(self) -> int:
        return int(self.raw["random_games"]["games"])

    @property
    def random_scoring(self) -> str:
        return str(self.raw["random_games"]["scoring"])

    @property
    def limits(self) -> Limits:
        lim = self.raw["limits"]
        return Limits(cpu=int(lim["cpu_seconds"]), wall=float(lim["wall_seconds"]), memory_mb=int(lim["memory_mb"]),
                      output_kb=int(lim["output_kb"]), nproc=int(lim["processes"]))

    @property
    def suite_marking(self) -> SuiteMarking | None:
        """How students' test programs are marked; None when the configuration does not mark them."""
        t = self.raw.get("testing")
        if not t:
            return None
        return SuiteMarking(validity_marks=float(t["validity_marks"]),
                            thoroughness_marks=float(t["thoroughness_marks"]), gate=bool(t["gate"]),
                            hang_is_caught=bool(t["hang_is_caught"]), run_seconds=float(t["run_seconds"]),
                            hidden_mutants=frozenset(t["hidden_mutants"]))

    @property
    def player_limits(self) -> Limits:
        """The limits of one call of a student's decideMove (the game runner's)."""
        p, lim = self.raw["players"], self.raw["limits"]
        return Limits(cpu=int(p["call_cpu_seconds"]), wall=float(p["call_wall_seconds"]),
                      memory_mb=int(lim["memory_mb"]), output_kb=int(p["call_output_kb"]), nproc=int(lim["processes"]))

    @property
    def players(self) -> dict[str, Any]:
        """The game runner's other settings: max_moves, rounds, other_hands, marks."""
        return dict(self.raw["players"])

    @property
    def compile_seconds(self) -> float:
        return float(self.raw["limits"]["compile_seconds"])
