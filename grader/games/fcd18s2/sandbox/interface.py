"""The 2018 C interface: the headers students include, read by the one cffi module
(``grader.core.sandbox.native.Api``) as the declarations a 2018 library is driven through."""

from __future__ import annotations

from pathlib import Path

from grader.core.sandbox.native import Api

INCLUDE_DIR = Path(__file__).resolve().parent / "include"
HEADERS = ("Card.h", "Game.h")  # the API: the cffi declarations are read from these
COURSE_HEADERS = HEADERS + ("player.h",)  # every header the course gave students: a submission may include any
API = Api(INCLUDE_DIR, HEADERS)
API_FUNCTIONS = API.functions  # 31: Card.h's, then Game.h's
