"""The sandbox side of a 2018 game: the family's job (``grader.games.fcd.sandbox.play``) with the 2018
interface, observer, notation and moves, and its C observer (``c_observer``)."""

from __future__ import annotations

from grader.games.fcd.sandbox import loader
from grader.games.fcd.sandbox.notation import PlayerMove, move_parser
from grader.games.fcd.sandbox.play import Job, Request, Results, play_request
from grader.games.fcd18s2.sandbox.interface import API
from grader.games.fcd18s2.sandbox.observe import CALL_IDS, Action, Observer

JOB = Job(API, Observer, CALL_IDS, move_parser(Action), PlayerMove, native=True)


def warm_up() -> None:
    loader.warm_up(API, native_observer=True)


def run(request: Request, results: Results) -> None:
    """Play one 2018 game, or a batch of them, on the student library (``play_request``)."""
    play_request(request, results, JOB)
