"""The grader: build -> sandbox -> compare with the reference -> report, for any game.

``grader.core`` is the pipeline and knows no game: build (gcc, sandboxed),
sandbox and worker (run student code out of process), run_report (what a run
did, checked where it enters the trusted side), classify (what that means),
results (the one result model), grade (marks), report (JUnit, Gradescope, HTML,
CSV), batch and cli (``fcd-grade``).  ``grader.games`` holds one package per
gradable game (``grader.games.fcd18s2``: Final Card-Down, 2018), each a
``GameSpec`` value the core is handed.  docs/architecture.md has the map.
"""
