"""The sandbox side of a 2017 game: the family's job (``grader.games.fcd.play``) with the 2017
interface, observer, notation and moves, and its C observer (``c_observer``)."""

from __future__ import annotations

from grader.games.fcd import loader
from grader.games.fcd.play import Job, Request, Results, play_request
from grader.games.fcd17s2.interface import API
from grader.games.fcd17s2.observe import CALL_IDS, Observer
from reference.fcd17s2 import MoveSpec, PlayerMove

JOB = Job(API, Observer, CALL_IDS, MoveSpec.parse, PlayerMove, native=True)


def warm_up() -> None:
    loader.warm_up(API, native_observer=True)


def run(request: Request, results: Results) -> None:
    play_request(request, results, JOB)
