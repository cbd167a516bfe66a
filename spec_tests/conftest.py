"""spec_tests: the rule scenarios as pytest tests.

By default they run on the reference engine (checking every hand-worked
expectation: the suite tests the oracle).  ``--submission DIR`` builds the C
submission in DIR and runs every scenario differentially through the
sandboxed worker.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("final card-down")
    group.addoption("--submission", metavar="DIR", default=None,
                    help="grade the C submission in DIR instead of checking the reference")


@pytest.fixture(scope="session")
def submission_dir(request: pytest.FixtureRequest) -> Path | None:
    value = request.config.getoption("--submission")
    return Path(value).resolve() if value else None


@pytest.fixture(scope="session")
def submission_run(submission_dir: Path | None):  # noqa: ANN201
    """None on the reference; else a function scenario -> verdict for the submission."""
    if submission_dir is None:
        yield None
        return
    from grader.games.fcd18s2.session import FcdSession

    session = FcdSession.open(submission_dir)
    yield session.run_scenario
    session.close()
