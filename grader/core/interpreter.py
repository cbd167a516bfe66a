"""How the grader starts a Python of its own (a batch's grading, the sandboxed worker, a Dask worker, the
random games' maker): always with ``-P``, so that the folder it is started from is never on its path.

Without it, ``python -m grader.core.cli`` run from a folder that holds a ``grader/`` directory (the clone
itself, named as the project is) imports that directory instead of the installed grader (issue 45: a class
became "grader error").  ``-P`` keeps ``PYTHONPATH``, which the sandbox and the tests set on purpose.
"""

from __future__ import annotations

import sys

NO_CURRENT_FOLDER = "-P"  # (Python 3.11): neither the current folder nor a script's folder goes on sys.path


def python_module(module: str, *args: str, python: str = sys.executable, flags: tuple[str, ...] = ()) -> list[str]:
    """The command that runs ``module`` as ``python -m`` would, with ``flags`` (``-S``, ``-B``) and never
    from the current folder."""
    return [python, NO_CURRENT_FOLDER, *flags, "-m", module, *args]
