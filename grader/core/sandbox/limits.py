"""What one game (or one sandboxed run) may use: the one definition of a limit.

The values are the marking configuration's (``[limits]`` of a game's
``marking.toml``); this module only gives them a type.  ``Limits`` crosses the
process boundary as a plain dict (``as_dict``) and is read back with
``from_dict``, which refuses anything incomplete: the worker never fills in a
limit of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Mapping, TypedDict, Unpack

from grader.core.sandbox.values import to_float, to_int


class LimitsDict(TypedDict):
    """``Limits`` as it crosses the process boundary (``as_dict``)."""

    cpu: int
    wall: float
    memory_mb: int
    output_kb: int
    nproc: int
    stall: float


class LimitChanges(TypedDict, total=False):
    """Some of the limits, to change (``with_``, ``capped``)."""

    cpu: int
    wall: float
    memory_mb: int
    output_kb: int
    nproc: int
    stall: float


@dataclass(frozen=True)
class Limits:
    cpu: int  # CPU seconds per game
    wall: float  # real seconds per game (catches sleeping and blocked code)
    memory_mb: int  # address space per game, on top of the worker's own
    output_kb: int  # what a game may print before it is stopped
    nproc: int  # processes the sandbox user may have at once (a fork bomb stops here)
    stall: float = 0.0  # real seconds a game may go without sending a frame (0: no such limit)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Limits:
        """Read back ``as_dict``'s dict, which crossed a process boundary: every limit, and nothing else."""
        names = {f.name for f in fields(cls)}
        if set(data) != names:
            raise ValueError(f"limits must name exactly {sorted(names)}, not {sorted(data)}")
        return cls(cpu=to_int(data["cpu"]), wall=to_float(data["wall"]), memory_mb=to_int(data["memory_mb"]),
                   output_kb=to_int(data["output_kb"]), nproc=to_int(data["nproc"]), stall=to_float(data["stall"]))

    def with_(self, **changes: Unpack[LimitChanges]) -> Limits:
        """These limits with some changed (a partial dict, as tests and tools pass them)."""
        return replace(self, **changes)

    def capped(self, other: Mapping[str, float]) -> Limits:
        """Each limit named in ``other`` lowered to it (never raised)."""
        return replace(self, **{k: min(getattr(self, k), v) for k, v in other.items()})

    def as_dict(self) -> LimitsDict:
        return {"cpu": self.cpu, "wall": self.wall, "memory_mb": self.memory_mb, "output_kb": self.output_kb,
                "nproc": self.nproc, "stall": self.stall}
