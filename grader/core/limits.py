"""What one game (or one sandboxed run) may use: the one definition of a limit.

The values are the marking configuration's (``[limits]`` of a game's
``marking.toml``); this module only gives them a type.  ``Limits`` crosses the
process boundary as a plain dict (``as_dict``) and is read back with
``from_dict``, which refuses anything incomplete: the worker never fills in a
limit of its own.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class Limits:
    cpu: int  # CPU seconds per game
    wall: float  # real seconds per game (catches sleeping and blocked code)
    memory_mb: int  # address space per game, on top of the worker's own
    output_kb: int  # what a game may print before it is stopped
    nproc: int  # processes the sandbox user may have at once (a fork bomb stops here)
    stall: float = 0.0  # real seconds a game may go without sending a frame (0: no such limit)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Limits:
        names = {f.name for f in fields(cls)}
        if set(data) != names:
            raise ValueError(f"limits must name exactly {sorted(names)}, not {sorted(data)}")
        return cls(cpu=int(data["cpu"]), wall=float(data["wall"]), memory_mb=int(data["memory_mb"]),
                   output_kb=int(data["output_kb"]), nproc=int(data["nproc"]), stall=float(data["stall"]))

    def with_(self, **changes: Any) -> Limits:
        """These limits with some changed (a partial dict, as tests and tools pass them)."""
        return replace(self, **changes)

    def capped(self, other: dict[str, Any]) -> Limits:
        """Each limit named in ``other`` lowered to it (never raised)."""
        return replace(self, **{k: min(getattr(self, k), v) for k, v in other.items()})

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
