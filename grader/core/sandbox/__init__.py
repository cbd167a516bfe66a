"""The core's sandbox side: everything of the core the worker runs next to student code, and nothing else.

``worker`` (the fork server), ``native`` (the one cffi module), ``protocol`` (size-capped frames, both sides
read them), ``limits`` and ``values`` (the limits a request carries, and how its JSON is narrowed),
``clocks`` (the limits a child keeps on one game of a batch and on one decideMove).  Modules here import
only each other, the standard library, cffi and orjson (``tests/core/test_sandbox_layout.py``); this folder,
with a game's own ``sandbox/`` folders, is all the sandbox is given (``grader.core.isolation.runtime_dir``).
"""
