"""Shared fixtures for the machinery tests: the model submission and variants of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures" / "submissions"
MODEL = SUBMISSIONS / "model"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``slow`` tests run only when asked for (``-m slow``): the README's test command, and CI, leave them out."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    later = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(later)


@pytest.fixture(scope="session")
def model_session():
    """The model submission, built once and served by one worker for the whole run."""
    from grader.games.fcd18s2.session import Fcd18Session as FcdSession

    with FcdSession.open(MODEL) as session:
        assert session.build.ok, session.build.output
        yield session


@pytest.fixture
def model_copy(tmp_path: Path) -> Path:
    """A scratch copy of the model submission to break in a test."""
    dest = tmp_path / "submission"
    shutil.copytree(MODEL, dest)
    return dest


# Our own Hypothesis tests are deterministic too: the same run on every machine.
from hypothesis import settings as _settings  # noqa: E402

_settings.register_profile("project", derandomize=True, database=None, deadline=None)
_settings.load_profile("project")
