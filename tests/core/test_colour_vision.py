"""The colours of the replay's cards and of the dashboard's plots stay apart for readers with a colour-vision
deficiency: each is simulated for protanopia, deuteranopia and tritanopia (Machado, Oliveira & Fernandes
2009, severity 1, on linear RGB) and every pair must stay at least ``MIN_DELTA_E`` apart (CIE76 in Lab;
about 2.3 is a just-noticeable difference).  The pastel tints used before measured 0.4 (blue against
purple) under protanopia; the replay also writes each card's colour letter, which
tests/core/test_replay_browser.py checks."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

from grader.core.report import dashboard

TEMPLATE = Path(__file__).resolve().parents[2] / "grader" / "core" / "templates" / "replay.css"
MIN_DELTA_E = 15.0
SIMULATIONS = {
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab_seen(colour: str, vision: str) -> tuple[float, float, float]:
    """The CIE Lab of ``#rrggbb`` as seen with ``vision``."""
    rgb = [_linear(int(colour[i:i + 2], 16)) for i in (1, 3, 5)]
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in SIMULATIONS[vision])
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def closest_pair(colours: dict[str, str], vision: str) -> tuple[float, str]:
    seen = {name: lab_seen(c, vision) for name, c in colours.items()}
    return min((math.dist(seen[a], seen[b]), f"{a}/{b}") for a, b in itertools.combinations(seen, 2))


CARD_STRIPS = dict(re.findall(r"\.card\.([RBGYP]) \{ border-top-color: (#[0-9A-Fa-f]{6})", TEMPLATE.read_text()))


def test_the_simulation_tells_apart_what_it_should() -> None:
    """The check itself: red against green collapses under deuteranopia, and black against white never does."""
    assert closest_pair({"red": "#FF0000", "green": "#00FF00"}, "typical")[0] > 80
    assert closest_pair({"red": "#D00000", "green": "#7A7A00"}, "deuteranopia")[0] < 8
    assert all(closest_pair({"k": "#000000", "w": "#FFFFFF"}, v)[0] > 95 for v in SIMULATIONS)


@pytest.mark.parametrize("vision", SIMULATIONS)
def test_the_five_card_colours_stay_apart(vision: str) -> None:
    assert sorted(CARD_STRIPS) == sorted("RBGYP")
    distance, pair = closest_pair(CARD_STRIPS, vision)
    assert distance >= MIN_DELTA_E, f"{pair} are {distance:.1f} apart with {vision}"


@pytest.mark.parametrize("vision", SIMULATIONS)
def test_the_dashboard_colours_stay_apart(vision: str) -> None:
    palette = {"blue": dashboard.BLUE, "vermilion": dashboard.VERMILION}  # (a failed build's bar is hatched too)
    distance, pair = closest_pair(palette, vision)
    assert distance >= MIN_DELTA_E, f"{pair} are {distance:.1f} apart with {vision}"
