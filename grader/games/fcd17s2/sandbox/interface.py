"""The 2017 C interface: the headers students include, read by the one cffi module
(``grader.core.sandbox.native.Api``) as the declarations a 2017 library is driven through
(END_TURN is 5 in 2017 and 2 in 2018: a 2017 library must never be driven through 2018's)."""

from __future__ import annotations

from pathlib import Path

from grader.core.sandbox.native import Api

INCLUDE_DIR = Path(__file__).resolve().parent / "include"
HEADERS = ("Card.h", "Game.h")  # the API: the cffi declarations are read from these
COURSE_HEADERS = HEADERS + ("player.h",)  # every header the course gave students: a submission may include any
API = Api(INCLUDE_DIR, HEADERS)
API_FUNCTIONS = API.functions  # 25: Card.h's 5, then Game.h's 20
