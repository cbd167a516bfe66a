"""Values read back from outside the grader's own code (TOML, JSON): their types, and the narrowing a reader needs.

A marking configuration is checked against its schema before it is read, and a result or a replay is read back
as it was written, so a value of another type here is a bug of ours: a TypeError, as ``int()`` raises one.
"""

from __future__ import annotations

from typing import Mapping, SupportsFloat, SupportsIndex, SupportsInt, TypeAlias

# A JSON value, as ``json.loads`` gives it.
JSON: TypeAlias = "str | int | float | bool | None | list[JSON] | dict[str, JSON]"
# A TOML table or a JSON object: its keys and values as they were read.
Table: TypeAlias = "dict[str, object]"


def to_int(value: object) -> int:
    """``int(value)`` for what ``int()`` takes (a number, a numeric string); a TypeError for anything else."""
    if isinstance(value, (str, bytes, SupportsInt, SupportsIndex)):
        return int(value)
    raise TypeError(f"expected a whole number, got {value!r:.80}")


def to_float(value: object) -> float:
    """``float(value)`` for what ``float()`` takes; a TypeError for anything else."""
    if isinstance(value, (str, bytes, SupportsFloat, SupportsIndex)):
        return float(value)
    raise TypeError(f"expected a number, got {value!r:.80}")


def table(value: object) -> Table:
    """``value``, a table (a dict with string keys); a TypeError for anything else."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a table, got {value!r:.80}")
    return value


def section(data: Mapping[str, object], name: str) -> Table:
    """The table ``data[name]`` (a KeyError when there is none)."""
    return table(data[name])


def strings(value: object) -> list[str]:
    """A list of strings, each as ``str()`` gives it; a TypeError for anything but a list or tuple."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"expected a list, got {value!r:.80}")
    return [str(v) for v in value]
