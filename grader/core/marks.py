"""How a mark is written and split: to two decimal places, the one precision a student or staff member ever reads.

``result.json`` keeps what it keeps (the group marks already to two places; a test's ``earned`` share to four, the
machine record the marks are computed from); every report shows marks through ``mark_text``, and a mark split
among tests (Gradescope's per-test scores) through ``shares``, so the parts add up to the whole as shown.
"""

from __future__ import annotations

from typing import Sequence

PLACES = 2  # decimals of every mark anyone reads


def rounded(mark: float) -> float:
    """A mark as it is kept and shown: to ``PLACES`` decimals."""
    return round(float(mark), PLACES)


def mark_text(mark: float) -> str:
    """A mark as people write it: 7.5, 10, 3.33 (never 4.750000 nor 3.3333)."""
    text = f"{rounded(mark):.{PLACES}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def shares(amount: float, weights: Sequence[float]) -> list[float]:
    """``amount`` split by ``weights``, each share to ``PLACES`` decimals, the rounding residue on the last non-zero
    share: the shares add up to ``amount`` as it is shown."""
    total = sum(weights)
    if not weights or total <= 0 or amount == 0:
        return [0.0] * len(weights)
    out = [rounded(amount * w / total) for w in weights]
    last = max(i for i, w in enumerate(weights) if w > 0)
    out[last] = rounded(out[last] + rounded(amount) - sum(out))
    return out


def share_words(share: float) -> str:
    """A share of a test's marks as a whole percentage, never rounded to none or to all when it is neither."""
    percent = round(100 * share)
    return f"{min(max(percent, 1 if share > 0 else 0), 99 if share < 1 else 100)}%"
