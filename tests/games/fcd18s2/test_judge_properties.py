"""The judge cannot be crashed by a student's values (issue 31, item 5): property-based tests.

Everything a worker sends back after the library is loaded is the student's: the observations
(``grader.games.fcd.sandbox.observe`` writes them: ints, cards as ``[value, colour, suit, id]``, NULL
as ``None``, the words ``missing`` / ``skipped``) and the other frames of a game.  Starting from the
reference's own trace of a shipped scenario (``cached_reference_trace``), Hypothesis changes the
"got" side -- values of the right shape (empty and huge hands, NULL cards, negative and huge
counters, colours, values and suits out of range, repeated card identities, values taken from
another step) and values the schema refuses (any JSON, missing and extra keys, a step that is not
an object) -- and every part of the judge that reads them must answer in words, never raise:

- the comparison (``compare``; ``Divergence.describe`` / ``row``) and the schema it checks first;
- the focus: the comparison asks it about the reference's observation only (checked by a spy);
- the explanation (``explain``);
- the reports made from such results: result.json, JUnit (it parses), Gradescope (strict JSON),
  HTML with its replays (``grader.core.report.write.write_reports``, no report left out as a grader error),
  and the class CSV;
- the words for the call in progress when a game crashed (five ints read back from the child).

A fault these properties found is kept as an explicit ``@example``: it is tried first, every run.

The runs are deterministic (the named profile ``judge``: derandomised, no example database), so
every run checks the same examples; all of them take well under a minute.
"""

from __future__ import annotations

import copy
import csv
import functools
import json
import warnings
import xml.etree.ElementTree as ET
from typing import Any

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from grader.core.replay import replays_of
from grader.core.report.csv_report import write_class_csv
from grader.core.report.gradescope import gradescope_json
from grader.core.report.html import render_html
from grader.core.report.junit import junit_string
from grader.core.report.write import write_reports
from grader.core.results import GroupMarks, SubmissionResult, Verdict
from grader.core.results import TestResult as Result  # (a Test* name would be collected)
from grader.games.fcd import compare as comparison
from grader.games.fcd.compare import Divergence
from grader.games.fcd.explain import explain
from grader.games.fcd.focus import Focus, everything, focus_of
from grader.games.fcd.reference_trace import cached_reference_trace
from grader.games.fcd.sandbox.observe import MISSING, SKIPPED
from grader.games.fcd.schema import schemas, valid_observation
from grader.games.fcd.session import _probe_of as probe_of
from grader.games.fcd.session import _where as session_where
from grader.games.fcd18s2 import GAME
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.observations import TABLE
from grader.games.fcd18s2.scenarios import load_scenarios
from grader.games.fcd18s2.session import default_owners

# A failing example makes Hypothesis's pytest plugin import its patch writer (libcst), whose import warns
# (DeprecationWarning, mypy_extensions.TypedDict); with the project's filterwarnings = error that warning
# would abort the whole pytest session (INTERNALERROR) instead of reporting the failure.  Imported here
# once, quietly, it is reported as a plain failure.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import hypothesis.extra._patching  # noqa: F401

settings.register_profile("judge", derandomize=True, database=None, deadline=None, max_examples=200,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
JUDGE = settings.get_profile("judge")

SCENARIOS = load_scenarios()
NAMES = TABLE.order
SHAPE = {o.name: o.shape for o in TABLE.observations}


@functools.cache
def trace(index: int) -> list[Any]:
    s = SCENARIOS[index]
    return cached_reference_trace(s.deck, s.moves, frozenset(), FCD18)


def _frozen(steps: list[Any]) -> str:
    return json.dumps([s.obs for s in steps], sort_keys=True)


# ---- values a C library can return -------------------------------------------------------------

EDGES = [-1, 0, 1, 3, 4, 5, 15, 16, 99, -99, 2**31 - 1, -(2**31), 2**32, 2**63 - 1, -(2**63), 2**64 - 1]
INTS = st.one_of(st.integers(-3, 20), st.sampled_from(EDGES), st.integers(-(2**63), 2**64 - 1))
FIELD = st.one_of(st.integers(-2, 17), st.sampled_from([-1, 5, 16, 99, -99, 2**31 - 1, -(2**31)]))
IDENTS = st.one_of(st.integers(0, 8), INTS)  # small identities repeat: two cards, one pointer
OUT_OF_SHAPE = st.recursive(  # anything JSON can carry, whatever the schema says
    st.one_of(st.none(), st.booleans(), st.integers(), st.integers(2**64, 2**80), st.floats(allow_nan=False),
              st.text(max_size=8), st.sampled_from([MISSING, SKIPPED, "NULL"])),
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=5), inner, max_size=4)),
    max_leaves=12)


def _cards_seen(steps: list[Any]) -> list[list[int]]:
    seen: dict[str, list[int]] = {}
    for s in steps:
        for name in ("hand", "deck_pile", "discard_pile"):
            for c in s.obs.get(name) or ():
                seen.setdefault(str(c), c)
        for hand in s.obs.get("hands") or ():
            for c in hand:
                seen.setdefault(str(c), c)
    return list(seen.values())


def card(steps: list[Any]) -> st.SearchStrategy[list[int]]:
    """A card a library may return: one of the game's (perhaps with another identity), or any four ints."""
    real = st.sampled_from(_cards_seen(steps))
    return st.one_of(
        real,
        st.tuples(real, IDENTS).map(lambda ci: [*ci[0][:3], ci[1]]),
        st.tuples(FIELD, FIELD, FIELD, IDENTS).map(list),
        st.just([-1, -1, -1, 0]),  # how the worker writes NULL inside a list of cards
    )


def cards(steps: list[Any]) -> st.SearchStrategy[list[list[int]]]:
    one = card(steps)
    return st.one_of(
        st.lists(one, max_size=12),
        st.just([]),
        st.tuples(one, st.integers(100, 1500)).map(lambda cn: [cn[0]] * cn[1]),  # huge, every card the same
    )


def shaped(name: str, steps: list[Any]) -> st.SearchStrategy[Any]:
    """A value of the shape the schema accepts for ``name``."""
    shape = SHAPE[name]
    whole = st.sampled_from([MISSING, SKIPPED])
    if shape == "int":
        return st.one_of(INTS, whole)
    if shape == "bool":
        return st.one_of(st.booleans(), whole)
    if shape == "card":
        return st.one_of(st.none(), card(steps), whole)
    if shape == "cards":
        return st.one_of(cards(steps), whole)
    if shape == "four_hands":
        return st.one_of(st.lists(cards(steps), min_size=4, max_size=4), whole)
    if shape == "four_ints":
        return st.lists(st.one_of(INTS, st.sampled_from([MISSING, SKIPPED])), min_size=4, max_size=4)
    if shape.startswith("ints_"):
        n = int(shape.split("_")[1])
        return st.lists(st.one_of(INTS, st.just(MISSING)), min_size=n, max_size=n)
    if shape == "answers":
        labels = sorted({label for s in steps for label in (s.obs.get(name) or {})}) or ["5RH"]
        keys = st.one_of(st.sampled_from(labels), st.text(max_size=6))
        return st.one_of(st.dictionaries(keys, st.booleans(), max_size=12), whole)
    raise AssertionError(f"a shape this test does not know: {shape}")


def nudged(value: Any) -> st.SearchStrategy[Any]:
    """A near miss of the reference's value: an int off by a little, a hand with a card more or less."""
    if isinstance(value, bool) or value is None:
        return st.just(not value if isinstance(value, bool) else [-1, -1, -1, 0])
    if isinstance(value, int):
        return st.integers(-3, 3).map(lambda d: value + d)
    if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
        return st.tuples(st.integers(0, len(value) - 1), st.integers(-3, 3)).map(
            lambda pd: [v + (pd[1] if i == pd[0] else 0) for i, v in enumerate(value)])
    if isinstance(value, list):
        return st.one_of(st.just(value[1:]), st.just(value[:-1]), st.just(value[::-1]), st.just(value + value[:1]))
    if isinstance(value, dict):
        return st.just({k: not v for k, v in value.items()})
    return st.just(value)


@st.composite
def mutated_step(draw: st.DrawFn, steps: list[Any], k: int, schema_valid: bool) -> Any:
    """Step ``k`` of the reference trace, changed as a library might change it."""
    obs = copy.deepcopy(steps[k].obs)
    for _ in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(sorted(obs) if isinstance(obs, dict) and obs else list(NAMES)))
        if name not in SHAPE:
            continue
        kinds = ["shape", "nudge", "other_step", "empty"] + ([] if schema_valid else ["any", "delete", "extra",
                                                                                   "not_obj"])
        kind = draw(st.sampled_from(kinds))
        if kind == "shape":
            obs[name] = draw(shaped(name, steps))
        elif kind == "nudge":
            obs[name] = draw(nudged(obs.get(name)))
        elif kind == "empty":  # an empty hand (one player's, or the current one), an empty pile, no answers
            value = obs.get(name)
            if SHAPE[name] == "four_hands" and isinstance(value, list) and len(value) == 4:
                value[draw(st.integers(0, 3))] = []
            elif isinstance(value, list | dict):
                obs[name] = type(value)()
        elif kind == "other_step":
            j = draw(st.integers(0, len(steps) - 1))
            if name in steps[j].obs:
                obs[name] = copy.deepcopy(steps[j].obs[name])
        elif kind == "any":
            obs[name] = draw(OUT_OF_SHAPE)
        elif kind == "delete":
            obs.pop(name, None)
        elif kind == "extra":
            obs[draw(st.text(max_size=10))] = draw(OUT_OF_SHAPE)
        else:
            return draw(OUT_OF_SHAPE)
    return obs


@st.composite
def games(draw: st.DrawFn, schema_valid: bool) -> tuple[int, list[Any], list[dict[str, Any]]]:
    """A scenario, and what a library sent for it: the reference's steps, some of them changed, perhaps
    fewer (it stopped) or more; with the events a worker sends (well formed)."""
    index = draw(st.integers(0, len(SCENARIOS) - 1))
    steps = trace(index)
    got: list[Any] = [copy.deepcopy(s.obs) for s in steps]
    lenient = [k for k, step in enumerate(steps) if step.lenient.fields]  # where a ruling leaves values open
    at = st.one_of(st.integers(0, len(steps) - 1), st.sampled_from(lenient)) if lenient else \
        st.integers(0, len(steps) - 1)
    for k in draw(st.lists(at, min_size=1, max_size=3, unique=True)):
        got[k] = draw(mutated_step(steps, k, schema_valid))
    if schema_valid:
        assume(all(not isinstance(o, dict) or valid_observation(o, TABLE, first=k == 0) is None or o == steps[k].obs
                   for k, o in enumerate(got)))
    cut = draw(st.one_of(st.just(len(got)), st.integers(0, len(got))))
    got = got[:cut] + draw(st.lists(st.just(copy.deepcopy(steps[-1].obs)), max_size=2))
    tags = st.sampled_from(["moved", "refused", "no_card", "done", "error", "packed"])
    events = draw(st.lists(st.fixed_dictionaries({"t": tags, "i": st.integers(-2, len(steps) + 2)}), max_size=3))
    return index, got, events


# ---- what the judge must do with them -----------------------------------------------------------

class OnlyTheReference(Focus):
    """The focus as the comparison uses it, checking it is asked only about the reference's observations:
    its clauses' scopes read the state (a penalty owed, a D on top), which a student's values must never
    decide."""

    __slots__ = ()

    def covers(self, name: str, step: int, obs: dict[str, Any] | None = None, label: str = "") -> bool:
        assert obs is None or id(obs) in REFERENCE_OBS, f"the focus was asked about a student's value: {obs!r}"
        return Focus.covers(self, name, step, obs, label)


REFERENCE_OBS: set[int] = set()


def spy(focus: Focus) -> Focus:
    return OnlyTheReference(focus.at_start, focus.on_moves, focus.scopes, focus.answer_scopes)


def judged(index: int, got: list[Any], events: list[dict[str, Any]], whole: bool = False) -> Result:
    """Compare, then word it and fill the result as the session does; everything must be plain data."""
    s, steps = SCENARIOS[index], trace(index)
    before = _frozen(steps)
    REFERENCE_OBS.clear()
    REFERENCE_OBS.update(id(step.obs) for step in steps)
    focus = spy(everything(TABLE) if whole else focus_of(s.rules, TABLE))
    cmp = comparison.compare(s.moves, steps, got, events, focus=focus, owners=default_owners(), table=TABLE,
                                refusal=FCD18.refusal)
    assert _frozen(steps) == before, "the comparison changed the reference's trace"
    assert all(isinstance(n, str) for n in cmp.notes)
    result = Result(s.id, s.group, tuple(s.rules), s.weight, Verdict.PASSED, deck=str(s.deck),
                    moves=" ".join(str(m) for m in s.moves), notes=list(cmp.notes), kind="scenario")
    if not cmp.passed:
        says = "" if whole else s.says
        result.verdict = Verdict.WRONG
        result.message = explain(says, s.rules, s.deck, s.moves, cmp, FCD18)
        assert isinstance(result.message, str) and result.message
        d = cmp.divergence
        result.failed_after = d.step if d else cmp.compared_steps
        result.failed_on = d.field if d else "identity"
        if d is not None:
            assert isinstance(d.describe(), str)
            result.difference = d.row()
            json.dumps(result.difference, allow_nan=False)  # plain data, for the replay
            assert 0 <= d.step < len(steps)
        else:
            result.difference = {"step": cmp.compared_steps, "what": "topDiscard() / handCard(i)",
                                 "expected": "the very card", "got": "a copy"}
    return result


def _found(scenario: str, k: int, name: str, change: Any) -> tuple[int, list[Any], list[dict[str, Any]]]:
    """A game the properties found: the reference's steps up to ``k``, with ``name`` at step ``k`` changed by
    ``change`` (a fault, kept as an explicit example so that it is tried first, every run)."""
    index = next(i for i, s in enumerate(SCENARIOS) if s.id == scenario)
    got = [copy.deepcopy(s.obs) for s in trace(index)[:k + 1]]
    got[k][name] = change(got[k][name])
    return index, got, []


# Found by these properties: player 0's hand empty (the others as the reference has them) at a step where a
# LENIENT ruling leaves every observation open (the game has ended with no winner).
EMPTY_HAND = _found("end/nothing_to_draw_means_no_winner", 3, "hands", lambda hands: [[], *hands[1:]])


@JUDGE
@given(games(schema_valid=True))
@example(EMPTY_HAND)
def test_no_value_of_the_right_shape_crashes_the_comparison_or_its_words(game: Any) -> None:
    index, got, events = game
    judged(index, got, events)


@settings(JUDGE, max_examples=120)
@given(games(schema_valid=True))
def test_a_random_game_judging_everything_is_not_crashed_either(game: Any) -> None:
    index, got, events = game
    judged(index, got, events, whole=True)


@settings(JUDGE, max_examples=120)
@given(games(schema_valid=False))
def test_a_value_the_schema_refuses_is_a_readable_difference(game: Any) -> None:
    index, got, events = game
    steps = trace(index)
    result = judged(index, got, events)
    first = next((k for k, o in enumerate(got[:len(steps)]) if o != steps[k].obs), None)
    stops = [e["i"] for e in events if e["t"] in ("refused", "no_card")]
    if first is not None and valid_observation(got[first], TABLE, first=first == 0) is not None \
            and not any(i < first for i in stops):
        # the first step that differs is one the schema refuses: that is the difference, in words
        assert result.verdict is Verdict.WRONG and result.failed_after == first
        assert "observation" in result.message


FRAME_VALUES = st.one_of(st.integers(-2, 60), OUT_OF_SHAPE)
TAGS = st.one_of(st.sampled_from(["moved", "refused", "no_card", "done", "error", "packed"]), st.text(max_size=6))


@settings(JUDGE, max_examples=150)
@given(index=st.integers(0, len(SCENARIOS) - 1), cut=st.integers(0, 60),
       events=st.lists(st.fixed_dictionaries({"t": TAGS, "i": FRAME_VALUES},
                                             optional={"card": OUT_OF_SHAPE, "why": OUT_OF_SHAPE}), max_size=4))
@example(index=0, cut=99, events=[{"t": "refused", "i": []}])  # found by this test: the step number is a list
def test_every_frame_a_worker_could_send_is_judged_without_raising(index: int, cut: int,
                                                                   events: list[dict[str, Any]]) -> None:
    """The other frames of a game (moved, refused, no_card, ...) come from the child too, where the student's
    code runs: any tag, any step number (a list, a string, a number too large), any extra field."""
    steps = trace(index)
    judged(index, [copy.deepcopy(s.obs) for s in steps][:cut], events)


@settings(JUDGE, max_examples=150)
@given(st.data())
def test_a_difference_in_words_takes_any_value_of_its_shape(data: st.DataObject) -> None:
    """``Divergence.describe`` and ``row`` with the student's raw value of an observation's shape, as the
    comparison may hold it (a missing function or a left-out probe it never compares)."""
    index = data.draw(st.integers(0, len(SCENARIOS) - 1))
    steps = trace(index)
    k = data.draw(st.integers(0, len(steps) - 1))
    name = data.draw(st.sampled_from([n for n in NAMES if n in steps[k].obs]))
    got = data.draw(shaped(name, steps).filter(lambda v: not _absent(v)))
    label = data.draw(st.one_of(st.just(""), st.sampled_from(["0", "3", "5RH", "DRH/B"]), st.text(max_size=5)))
    d = Divergence(k, name, steps[k].obs[name], got, label, change=data.draw(st.booleans()), table=TABLE)
    assert isinstance(d.describe(), str)
    json.dumps(d.row(), allow_nan=False)


def _absent(value: Any) -> bool:
    """A function the submission lacks or a probe left out: the comparison passes over it, never words it."""
    return value in (MISSING, SKIPPED) if isinstance(value, str) else \
        isinstance(value, list) and any(v in (MISSING, SKIPPED) for v in value if isinstance(v, str))


def _result(tests: list[Result]) -> SubmissionResult:
    groups: dict[str, GroupMarks] = {}
    for t in tests:
        g = groups.setdefault(t.mark_group, GroupMarks(t.mark_group, 0, 0, 0.0, 5.0))
        g.total += 1
        g.passed += t.passed
        g.marks = round(5.0 * g.passed / g.total, 2)
    return SubmissionResult("student", "0123abcd", True, "", [], ["gcc"], tests, groups=list(groups.values()),
                            profile="default", game=GAME.title, sandbox="test", build_sources=["Game.c", "Card.c"])


@settings(JUDGE, max_examples=25)
@given(st.lists(games(schema_valid=False), min_size=1, max_size=3))
def test_every_report_takes_what_such_values_make(tmp_path_factory: Any, many: list[Any]) -> None:
    tests, seen = [], set()
    for index, got, events in many:
        if SCENARIOS[index].id in seen:
            continue
        seen.add(SCENARIOS[index].id)
        tests.append(judged(index, got, events))
    result = _result(tests)
    out = tmp_path_factory.mktemp("reports")
    shown = write_reports(result, out, GAME)
    assert [t.id for t in shown.tests if t.verdict is Verdict.ERROR] == []  # no report writer failed (and was kept)
    ET.parse(out / "junit.xml")
    json.loads((out / "results.json").read_text())
    back = json.loads((out / "result.json").read_text())
    assert [t["id"] for t in back["tests"]] == [t.id for t in tests]
    html = (out / "report.html").read_text()
    assert "student" in html
    for t in tests:
        if t.verdict is Verdict.WRONG:
            assert t.id in replays_of(shown, GAME.replay_frames, GAME.title)
    write_class_csv([shown], out / "class.csv")
    with (out / "class.csv").open(newline="") as f:
        assert [r["submission"] for r in csv.DictReader(f)] == ["student"]


@settings(JUDGE, max_examples=60)
@given(games(schema_valid=True))
def test_the_report_writers_take_such_results_in_memory(game: Any) -> None:
    """The same in memory (more examples: no files, no repro programs)."""
    index, got, events = game
    result = _result([judged(index, got, events)])
    ET.fromstring(junit_string([result]))
    json.dumps(gradescope_json(result), allow_nan=False)
    render_html(result, replays_of(result, GAME.replay_frames, GAME.title))


def test_the_schema_names_what_is_wrong_whatever_the_keys() -> None:
    """A step with keys of any kind (JSON gives strings, but the check must not depend on it)."""
    obs = dict.fromkeys(schemas(TABLE)[0], 0)
    obs[1] = "x"
    obs[None] = 2
    assert "fields differ" in valid_observation(obs, TABLE, first=True)
    assert valid_observation([], TABLE, first=True) == "an observation is not an object"
    assert "wrong shape" in valid_observation(dict.fromkeys(schemas(TABLE)[0], 1.5), TABLE, first=True)


@settings(JUDGE, max_examples=100)
@given(st.integers(0, len(SCENARIOS) - 1), st.lists(INTS, min_size=5, max_size=5), st.integers(0, 60))
def test_the_call_in_progress_is_put_in_words_whatever_its_numbers(index: int, call: list[int], observed: int) -> None:
    """A crash is pinned on the call in progress, which the worker reads back from memory the student's code
    could write (``RunReport.call``: five ints, any five): the words for it never raise."""
    s = SCENARIOS[index]
    where = session_where(s.deck, s.moves, [{}] * observed, call, FCD18)
    assert isinstance(where, str) and where.startswith("It happened")
    assert probe_of(call, FCD18) is None or isinstance(probe_of(call, FCD18), str)


def test_the_strategies_know_every_shape_of_the_table() -> None:
    """Every observation of the table gets values of its own shape (a new shape needs a strategy here)."""
    steps = trace(0)
    for name in NAMES:
        shaped(name, steps)
    assert len(SCENARIOS) > 100
