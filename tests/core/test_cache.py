"""What is the same for every submission is computed once: the cache gives back exactly what was computed."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from grader.core import cache
from grader.games.fcd.random_games import FAMILIES, generated_games
from grader.games.fcd.reference_trace import cached_reference_trace, decode_trace, encode_trace, reference_trace
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.scenarios import load_scenarios

SCENARIOS = load_scenarios()


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FCD_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "_MEMORY", {})
    return tmp_path


def test_every_scenario_trace_survives_the_round_trip_through_json() -> None:
    for s in SCENARIOS:
        trace = reference_trace(s.deck, s.moves, edition=FCD18)
        assert decode_trace(orjson.loads(orjson.dumps(encode_trace(trace)))) == trace, s.id


def test_a_trace_read_back_from_disk_is_the_one_computed(disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = next(s for s in SCENARIOS if s.group == "recycling")
    first = cached_reference_trace(s.deck, s.moves, frozenset({"A22"}), FCD18)
    assert len(list((disk / "traces").glob("*.json"))) == 1
    monkeypatch.setattr(cache, "_MEMORY", {})  # a later grader process
    again = cached_reference_trace(s.deck, s.moves, frozenset({"A22"}), FCD18)
    assert again == first == reference_trace(s.deck, s.moves, frozenset({"A22"}), edition=FCD18)
    assert again is not first
    other = cached_reference_trace(s.deck, s.moves, frozenset(), FCD18)  # other strict rulings: another entry
    assert len(list((disk / "traces").glob("*.json"))) == 2 and other == reference_trace(s.deck, s.moves, edition=FCD18)


def test_an_unreadable_entry_is_computed_again(disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def compute() -> list[int]:
        calls.append(1)
        return [1, 2, 3]

    assert cache.cached("things", "k", compute, list, list) == [1, 2, 3]
    (disk / "things" / "k.json").write_text("{half a fi")
    monkeypatch.setattr(cache, "_MEMORY", {})
    assert cache.cached("things", "k", compute, list, list) == [1, 2, 3]
    assert len(calls) == 2
    monkeypatch.setattr(cache, "_MEMORY", {})
    assert cache.cached("things", "k", compute, list, list) == [1, 2, 3] and len(calls) == 2


def test_the_disk_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FCD_CACHE_DIR", "off")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(cache, "_MEMORY", {})
    assert cache.cache_dir() is None
    assert cache.cached("things", "k", lambda: [7], list, list) == [7]
    assert not any(tmp_path.rglob("*.json"))


def test_the_cached_random_games_are_the_ones_the_generator_makes(disk: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    family = next(f for f in FAMILIES if f.name == "small_decks")
    fresh = generated_games(family, 5, FCD18)
    monkeypatch.setattr(cache, "_MEMORY", {})
    from_disk = generated_games(family, 5, FCD18)
    assert [(str(g.deck), g.moves) for g in from_disk] == [(str(g.deck), g.moves) for g in fresh]
    monkeypatch.setenv("FCD_CACHE_DIR", "off")
    monkeypatch.setattr(cache, "_MEMORY", {})
    again = generated_games(family, 5, FCD18)
    assert [(str(g.deck), g.moves) for g in again] == [(str(g.deck), g.moves) for g in fresh]
