"""The check's settings: the marking configuration's ``[similarity]`` (validated by its schema), with the
staff's boilerplate paths found from the file that named them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.core.config import ConfigError, MarkingConfig
from grader.core.sandbox.values import strings, table, to_float, to_int
from grader.core.similarity.fingerprint import Winnowing


@dataclass(frozen=True)
class SimilaritySettings:
    threshold: float  # a pair is listed when this share of either file's code is matched in the other
    winnowing: Winnowing
    boilerplate: tuple[Path, ...]  # files or folders of code handed out (besides the game's own), resolved
    pages: int  # pairs shown in the dashboard, each with its side-by-side page (the rest: similarity.csv)

    @classmethod
    def of(cls, config: MarkingConfig, threshold: float | None = None) -> SimilaritySettings:
        """The settings of ``config`` (``threshold``: the command line's, over it).  A boilerplate path is taken
        from the folder of the configuration file (the game's folder for its default); one that does not
        exist is a ConfigError: a mistyped path would silently compare the course's code."""
        if "similarity" not in config.raw:
            raise ConfigError(f"{config.source}: the marking configuration has no [similarity] section")
        sim = table(config.raw["similarity"])
        if config.source != "default":
            base = Path(config.source).parent
        else:
            from grader.games import get  # noqa: PLC0415 - the registry, by name: no game is imported here

            base = get(config.game).marking_file.parent if config.game else Path.cwd()
        paths = tuple((base / p).resolve() if not Path(p).is_absolute() else Path(p)
                      for p in strings(sim.get("boilerplate", [])))
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise ConfigError(f"{config.source}: similarity.boilerplate names what does not exist: "
                              + ", ".join(missing))
        chosen = to_float(sim["threshold"]) if threshold is None else threshold
        if not 0 <= chosen <= 1:
            raise ConfigError(f"the threshold must be between 0 and 1 (a share of a file's code), got {chosen:g}")
        return cls(chosen, Winnowing(to_int(sim["noise_threshold"]), to_int(sim["guarantee_threshold"])), paths,
                   to_int(sim["pages"]))
