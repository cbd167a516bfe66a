"""The statistics of a tournament: how sure a standing is.

- ``wilson``: the Wilson score interval of a proportion (a win rate), good even for few games and
  rates near 0 or 1, where the normal approximation is not;
- ``mean_interval``: a mean (an average place) with its normal-approximation interval;
- ``Sprt``: Wald's sequential probability ratio test on a stream of yes/no results ("did A place above
  B in this game?"), so a tournament stops as soon as the answer is clear;
- ``ratings``: a class ladder from every game's places, by openskill's Plackett-Luce model.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from openskill.models.weng_lin.plackett_luce import PlackettLuceRating

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes / trials`` (0, 1 for no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the normal-approximation interval of the mean (the whole range for one value)."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, min(values), max(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


@dataclass
class Sprt:
    """H0: the chance of a "yes" is ``p0``; H1: it is ``p1``; errors of ``alpha`` (accepting H1 when H0 holds)
    and ``beta`` (the other way).  ``add`` a result at a time; ``decision`` is "H1", "H0" or "" (go on)."""

    p0: float = 0.5
    p1: float = 0.65
    alpha: float = 0.05
    beta: float = 0.05
    llr: float = 0.0
    n: int = 0

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    def add(self, yes: bool) -> str:
        self.n += 1
        self.llr += math.log(self.p1 / self.p0) if yes else math.log((1 - self.p1) / (1 - self.p0))
        return self.decision

    @property
    def decision(self) -> str:
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return ""


def ratings(games: Sequence[tuple[Sequence[str], Sequence[float]]]) -> dict[str, tuple[float, float, float]]:
    """name -> (mu, sigma, ordinal = mu - 3 sigma) after every game (players by seat, their places), in order,
    by openskill's Plackett-Luce model (a rating system for games of more than two players)."""
    from openskill.models import PlackettLuce  # noqa: PLC0415 - only a tournament needs it

    model = PlackettLuce()
    current: dict[str, PlackettLuceRating] = {}
    for names, places in games:
        teams = [[current.setdefault(n, model.rating(name=n))] for n in names]
        rated = model.rate(teams, ranks=list(places))
        for n, team in zip(names, rated):
            current[n] = team[0]
    return {n: (r.mu, r.sigma, r.ordinal()) for n, r in current.items()}
