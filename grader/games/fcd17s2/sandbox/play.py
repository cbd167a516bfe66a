"""The sandbox side of a 2017 game: the family's job (``grader.games.fcd.sandbox.play``) with the 2017
interface, observer, notation and moves, and its C observer (``c_observer``)."""

from __future__ import annotations

from grader.games.fcd.sandbox import loader
from grader.games.fcd.sandbox.notation import PlayerMove, move_parser
from grader.games.fcd.sandbox.play import Job, Request, Results, play_request
from grader.games.fcd17s2.sandbox.interface import API
from grader.games.fcd17s2.sandbox.observe import CALL_IDS, Action, Observer

JOB = Job(API, Observer, CALL_IDS, move_parser(Action), PlayerMove, native=True)


def warm_up() -> None:
    loader.warm_up(API, native_observer=True)


def run(request: Request, results: Results) -> None:
    play_request(request, results, JOB)
