"""The sandbox side of a 2018 game: the family's job (``grader.games.fcd.play``) with the 2018
interface, observer, notation and moves, and its C observer (``c_observer``)."""

from __future__ import annotations

from grader.games.fcd import loader
from grader.games.fcd.play import Job, Request, Results, play_request
from grader.games.fcd18s2.interface import API
from grader.games.fcd18s2.observe import CALL_IDS, Observer
from reference.moves import MoveSpec, PlayerMove

JOB = Job(API, Observer, CALL_IDS, MoveSpec.parse, PlayerMove, native=True)


def warm_up() -> None:
    loader.warm_up(API, native_observer=True)


def run(request: Request, results: Results) -> None:
    """Play one 2018 game, or a batch of them, on the student library (``play_request``)."""
    play_request(request, results, JOB)
