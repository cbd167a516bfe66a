"""A correct submission broken on purpose, for a test: a copy with C inserted after exact lines."""

from __future__ import annotations

import shutil
from pathlib import Path


def edited(model: Path, dest: Path, edits: list[tuple[str, str]], source: str = "Game.c") -> Path:
    """``model`` copied to ``dest`` with C inserted after each of these exact lines of its ``source``."""
    shutil.copytree(model, dest)
    text = (dest / source).read_text()
    for line, added in edits:
        assert text.count(line) == 1, line
        text = text.replace(line, line + added)
    (dest / source).write_text(text)
    return dest
