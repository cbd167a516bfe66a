"""spec_tests: the rule scenarios as pytest tests.

By default they run on the reference engine (checking every hand-worked
expectation: the suite tests the oracle).  ``--submission DIR`` builds the C
submission in DIR and runs every scenario differentially through the
sandboxed worker.  ``--game palace`` does the same for Palace's scenarios
(``--game fcd18s2``, Final Card-Down 2018, is the default).
"""

from __future__ import annotations

from pathlib import Path

import pytest

SPEC_GAMES = ("fcd18s2", "palace")  # the games whose scenarios run here


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("final card-down")
    group.addoption("--submission", metavar="DIR", default=None,
                    help="grade the C submission in DIR instead of checking the reference")
    group.addoption("--game", choices=SPEC_GAMES, default="fcd18s2", help="whose scenarios (default: %(default)s)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every scenario of the chosen game, one test each."""
    if "scenario" in metafunc.fixturenames:
        from grader.games import get  # noqa: PLC0415

        scenarios = get(metafunc.config.getoption("--game")).load_scenarios()
        metafunc.parametrize("scenario", scenarios, ids=[s.id for s in scenarios])


@pytest.fixture(scope="session")
def game_name(request: pytest.FixtureRequest) -> str:
    return str(request.config.getoption("--game"))


@pytest.fixture(scope="session")
def submission_dir(request: pytest.FixtureRequest) -> Path | None:
    value = request.config.getoption("--submission")
    return Path(value).resolve() if value else None


@pytest.fixture(scope="session")
def submission_run(submission_dir: Path | None, game_name: str):  # noqa: ANN201
    """None on the reference; else a function scenario -> verdict for the submission (the game's session)."""
    if submission_dir is None:
        yield None
        return
    from grader.games import get  # noqa: PLC0415

    session = get(game_name).open_session(submission_dir)
    yield session.run_scenario
    session.close()
