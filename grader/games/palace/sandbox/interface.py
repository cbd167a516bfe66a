"""The Palace C interface (rules-palace.md §1): the headers students include, read by the one cffi
module (``grader.core.sandbox.native.Api``) as the declarations a Palace library is driven through.

Palace.h's ``playerMove`` uses ``MAX_SET`` as an array length, so unlike the 2017 and 2018 editions
the cffi declarations keep the headers' integer ``#define`` lines (cffi's cdef reads ``#define NAME 8``
and ``#define NAME -1`` as integer constants); include guards and ``#include`` lines are still dropped.
"""

from __future__ import annotations

import re
from pathlib import Path

from grader.core.sandbox.native import Api

INCLUDE_DIR = Path(__file__).resolve().parent / "include"
HEADERS = ("PalaceCard.h", "Palace.h")  # the API: the cffi declarations are read from these
COURSE_HEADERS = HEADERS + ("player.h",)  # every header the course gave students: a submission may include any

_INT_DEFINE = re.compile(r"^\s*#\s*define\s+\w+\s+-?\d+\s*$")


class PalaceApi(Api):
    """``Api`` whose declarations keep the integer macros (``MAX_SET`` sizes ``playerMove.cards``)."""

    def cdef_source(self) -> str:
        """The headers as cffi declarations: no comments; of the preprocessor lines only ``#define NAME <int>``."""
        parts = []
        for name in self.headers:
            text = re.sub(r"/\*.*?\*/", "", self.header_text(name), flags=re.S)
            text = re.sub(r"//[^\n]*", "", text)
            parts.append("\n".join(line.strip() if _INT_DEFINE.match(line) else line
                                   for line in text.splitlines()
                                   if not line.lstrip().startswith("#") or _INT_DEFINE.match(line)))
        return "\n".join(parts)


API = PalaceApi(INCLUDE_DIR, HEADERS)
API_FUNCTIONS = API.functions  # 32: PalaceCard.h's 4, then Palace.h's 28

__all__ = ["API", "API_FUNCTIONS", "COURSE_HEADERS", "HEADERS", "INCLUDE_DIR", "PalaceApi"]
