"""Lines a student reads once: a note (or a reason in a message) said several times is folded into one line.

A battery of answers hidden by the same earlier difference, or the same reading noted in every game, would
otherwise repeat one sentence many times and bury the one line that differs.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable


def folded(lines: Iterable[str]) -> list[str]:
    """``lines`` in their first order, each said once; one said n > 1 times ends with ``(xn)``."""
    counts = Counter(lines)
    return [f"{line} (x{counts[line]})" if counts[line] > 1 else line for line in counts]
