"""The marking configuration: marks, visibility, limits and the rulings profile.

A default ships with each game (``grader/games/<game>/marking.toml``: the one
place of its default marks and limits); a course passes its own with
``--config``.  Keys missing from a course file keep their default.

The merged configuration is validated against a schema (pydantic) made for the
game: its test groups, rulings and mutants are the only names it takes, so a
mistyped section, key, group or value is an error naming the nearest valid one,
never a setting silently ignored.  The schema is built on first use: this module
is imported inside the sandbox too (for ``SuiteMarking``), which has no pydantic.
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Iterator, Literal, NotRequired, TypedDict, cast, get_args, get_origin

from grader.core.policy import Budget, Policy
from grader.core.sandbox.limits import Limits
from grader.core.sandbox.values import Table, section, strings, table, to_float, to_int

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic_core import ErrorDetails

    from grader.core.gamespec import GameSpec


@dataclass(frozen=True)
class SuiteMarking:
    """How a student's own test program is marked: the marking configuration's ``[testing]``."""

    validity_marks: float  # all of them when every check holds on every correct implementation
    thoroughness_marks: float  # in proportion to the mutants caught
    gate: bool  # an invalid test program earns no thoroughness marks either
    hang_is_caught: bool  # a run that times out on a mutant (and not on the model) catches it
    run_seconds: float  # wall time of one run
    hidden_mutants: frozenset[str]  # mutants students' reports do not name

    @property
    def max_marks(self) -> float:
        return self.validity_marks + self.thoroughness_marks


class ConfigError(ValueError):
    """A marking configuration that does not say something we can use."""


class PlayersTable(TypedDict):
    """``[players]``: the game runner's settings (``fcd-play``), as the schema checked them."""

    call_cpu_seconds: int
    call_wall_seconds: float
    call_output_kb: int
    max_moves: int
    rounds: int
    other_hands: str  # "allowed" or "forbidden"
    marks: NotRequired[dict[str, float]]  # [players.marks]: legal, beats_random, beats_greedy


def _merge(base: Table, over: Table) -> Table:
    out = dict(base)
    for k, v in over.items():
        below = base.get(k)
        out[k] = _merge(below, v) if isinstance(v, dict) and isinstance(below, dict) else v
    return out


def read_toml(path: Path) -> Table:
    """A TOML file's tables; a file that cannot be read or parsed is a ConfigError naming it."""
    try:
        return tomllib.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{path}: {err}") from err


# ---- the schema ------------------------------------------------------------------------------------------

@functools.cache
def _schema(groups: tuple[str, ...], rulings: tuple[str, ...], mutants: tuple[str, ...] | None) -> type[BaseModel]:
    """The model of a whole configuration for a game with these test groups, rulings and (when it has them)
    mutants.  Every section forbids keys it does not know and takes no value of another type (strict: TOML
    says what a value is, so "5" is not 5)."""
    from pydantic import ConfigDict, Field, create_model  # noqa: PLC0415 - the trusted side only (see above)

    def section(name: str, **fields: tuple[object, object]) -> type[BaseModel]:
        config = ConfigDict(extra="forbid", strict=True)
        # (mypy matches ``fields`` against create_model's own keywords too, __doc__ and the like)
        return create_model(name, __config__=config, **fields)  # type: ignore[call-overload]

    mark = Annotated[float, Field(ge=0)]
    count = Annotated[int, Field(gt=0)]
    seconds = Annotated[float, Field(gt=0)]
    group = _one_of(groups)  # (a type made at run time: ``list.__class_getitem__(group)`` is list[group])
    required = ...
    marks = section("marks", build=(mark, required), default_group=(mark, required), random_games=(mark, required),
                    memory=(mark, required), groups=(dict.__class_getitem__((group, mark)), {}))
    random_games = section("random_games", games=(Annotated[int, Field(ge=0)], required),
                           scoring=(Literal["proportional", "all_or_nothing"], required))
    visibility = section("visibility", default=(Literal["visible", "hidden"], "visible"),
                         hidden_groups=(list.__class_getitem__(group), []))
    limits = section("limits", cpu_seconds=(count, required), wall_seconds=(seconds, required),
                     memory_mb=(count, required), output_kb=(count, required), processes=(count, required),
                     compile_seconds=(seconds, required), budget_cpu_seconds=(seconds, required),
                     budget_wall_seconds=(seconds, required))
    build = section("build", allowed_symbols=(list[str], []))
    rulings_ = section("rulings", strict=(list.__class_getitem__(_one_of(rulings)), []), profile=(str, "lenient"))
    testing = section("testing", validity_marks=(mark, required), thoroughness_marks=(mark, required),
                      gate=(bool, required), hang_is_caught=(bool, required), run_seconds=(seconds, required),
                      hidden_mutants=(list.__class_getitem__(_one_of(mutants)) if mutants else list[str], required))
    player_marks = section("players.marks", legal=(mark, required), beats_random=(mark, required),
                           beats_greedy=(mark, required))
    players = section("players", call_cpu_seconds=(count, required), call_wall_seconds=(seconds, required),
                      call_output_kb=(count, required), max_moves=(count, required), rounds=(count, required),
                      other_hands=(Literal["allowed", "forbidden"], required), marks=(player_marks | None, None))
    share = Annotated[float, Field(ge=0, le=1)]
    similarity = section("similarity", threshold=(share, required), noise_threshold=(count, required),
                         guarantee_threshold=(count, required), boilerplate=(list[str], []),
                         pages=(Annotated[int, Field(ge=0)], required))
    return section("marking", marks=(marks, required), random_games=(random_games, required),
                   visibility=(visibility, required), limits=(limits, required), rulings=(rulings_, required),
                   testing=(testing | None, None), players=(players | None, None), build=(build | None, None),
                   similarity=(similarity | None, None))


def _one_of(names: tuple[str, ...]) -> object:
    """``Literal[names]``, made when the schema is: the names are the game's."""
    return Literal.__getitem__(names)


def _model_of(annotation: object) -> type[BaseModel] | None:
    """The section model behind a field's type (``X`` or ``X | None``), or None for a value."""
    from pydantic import BaseModel  # noqa: PLC0415 - the trusted side only (see above)

    for a in (annotation, *get_args(annotation)):
        if isinstance(a, type) and issubclass(a, BaseModel):
            return a
    return None


def _is_section(annotation: object) -> bool:
    return _model_of(annotation) is not None or get_origin(annotation) is dict


def _fields_at(model: type[BaseModel], path: tuple[str, ...]) -> dict[str, object]:
    for name in path:
        sub = _model_of(model.model_fields[name].annotation)
        if sub is None:
            raise KeyError(name)
        model = sub
    return {name: f.annotation for name, f in model.model_fields.items()}


def _places(model: type[BaseModel], groups: tuple[str, ...],
            path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every (section, key) the schema knows, the test groups of ``[marks.groups]`` too."""
    for name, f in model.model_fields.items():
        yield path, name
        if (sub := _model_of(f.annotation)) is not None:
            yield from _places(sub, groups, (*path, name))
    yield from ((("marks", "groups"), g) for g in groups if not path)


def _dotted(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else str(part)
    return out


def _got(value: object) -> str:
    if isinstance(value, dict):
        return "a section"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _name(path: tuple[int | str, ...], section: bool) -> str:
    return f"[{_dotted(path)}]" if section else _dotted(path)


def _unknown(loc: tuple[int | str, ...], value: object, root: type[BaseModel], groups: tuple[str, ...]) -> str:
    """An unknown section or key, and the nearest valid one: at the same place first, else the same (or a
    close) name in another section."""
    parent, name = loc[:-1], str(loc[-1])  # (an unknown key is a name, never a list's index)
    fields = _fields_at(root, tuple(str(p) for p in parent))
    section = isinstance(value, dict)
    what = (f"[{_dotted(loc)}] is not a section" if section else
            f"{_dotted(loc)} is not a key of [{_dotted(parent)}]" if parent else f"{name} is outside any section")
    alike = [n for n, a in fields.items() if _is_section(a) == section]
    near = get_close_matches(name, alike, 1) or get_close_matches(name, list(fields), 1)
    if near:
        return f"{what}: did you mean {_name((*parent, near[0]), _is_section(fields[near[0]]))}?"
    places = [(p, n) for p, n in _places(root, groups) if p != parent]
    elsewhere = [(p, n) for p, n in places if n == name] or [
        (p, n) for c in get_close_matches(name, [n for _p, n in places], 1) for p, n in places if n == c]
    if elsewhere:
        p, n = elsewhere[0]
        return f"{what}: did you mean {n} in [{_dotted(p)}]?" if p else f"{what}: did you mean [{n}]?"
    valid = ", ".join(_name((*parent, n), True) if _is_section(a) else n for n, a in fields.items())
    return f"{what}: {'the keys of [' + _dotted(parent) + '] are' if parent else 'the sections are'} {valid}"


KINDS: dict[tuple[int | str, ...], str] = {
    ("marks", "groups"): "test group", ("visibility", "hidden_groups"): "test group",
    ("rulings", "strict"): "ruling", ("testing", "hidden_mutants"): "mutant"}
EXPECTED = {"int_type": "a whole number", "int_parsing": "a whole number", "float_type": "a number",
            "float_parsing": "a number", "bool_type": "true or false", "bool_parsing": "true or false",
            "string_type": "a string (in quotes)", "list_type": "a list ([...])"}


def _problem(err: ErrorDetails, root: type[BaseModel], game: str, groups: tuple[str, ...]) -> str:
    """One pydantic error as the course's author would say it."""
    loc, kind, value, ctx = tuple(err["loc"]), err["type"], err.get("input"), err.get("ctx") or {}
    if kind == "extra_forbidden":
        return _unknown(loc, value, root, groups)
    if kind == "literal_error":
        choices = re.findall(r"'((?:[^'\\]|\\.)*)'", str(ctx.get("expected", "")))
        near = get_close_matches(str(value), choices, 1)
        if loc[:2] in KINDS:
            where = "[marks.groups]" if loc[:2] == ("marks", "groups") else _dotted(loc[:2])
            said = f"{where} names {value}, which is not a {KINDS[loc[:2]]} of {game}"
            if near:
                return f"{said}: did you mean {near[0]}?"
            listed = ", ".join(choices) if len(choices) <= 20 else f"{len(choices)} in all"
            return f"{said} (its {KINDS[loc[:2]]}s: {listed})"
        said = f"{_dotted(loc)} must be one of {', '.join(repr(c) for c in choices)}, got {_got(value)}"
        return f"{said}: did you mean {near[0]!r}?" if near else said
    if kind in ("dict_type", "model_type"):
        return f"{_dotted(loc)} must be a section ([{_dotted(loc)}]), got {_got(value)}"
    if kind in EXPECTED:
        return f"{_dotted(loc)} must be {EXPECTED[kind]}, got {_got(value)}"
    if kind in ("greater_than", "greater_than_equal"):
        bound = f"more than {ctx['gt']:g}" if kind == "greater_than" else f"at least {ctx['ge']:g}"
        return f"{_dotted(loc)} must be {bound}, got {_got(value)}"
    if kind == "less_than_equal":  # [similarity] threshold: a share
        return f"{_dotted(loc)} must be at most {ctx['le']:g}, got {_got(value)}"
    return f"{_dotted(loc)}: {err['msg']}"


_GROUPS: dict[str, tuple[str, ...]] = {}  # game -> its test groups (its scenarios are read once)
_MUTANTS: dict[str, tuple[str, ...] | None] = {}  # game -> its mutants, likewise


def _groups(game: GameSpec) -> tuple[str, ...]:
    """The game's test groups (its scenarios'): the only names ``[marks.groups]`` and ``hidden_groups`` take."""
    if game.name not in _GROUPS:
        _GROUPS[game.name] = tuple(sorted({s.group for s in game.load_scenarios()}))
    return _GROUPS[game.name]


def _mutants(game: GameSpec) -> tuple[str, ...] | None:
    """The mutants a student's tests are run against, when the game has them here (a checkout): the only
    names ``hidden_mutants`` takes (a mistyped one would be named to students)."""
    if game.name not in _MUTANTS:
        targets = game.suite_targets() if game.suite_targets is not None else None
        _MUTANTS[game.name] = tuple(m.name for m in targets.mutants) if targets is not None else None
    return _MUTANTS[game.name]


def _validate(raw: Table, game: GameSpec, source: str) -> None:
    from pydantic import ValidationError  # noqa: PLC0415

    groups = _groups(game)
    rulings = tuple(sorted(game.rulings, key=lambda r: [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", r)]))
    root = _schema(groups, rulings, _mutants(game) if "testing" in raw else None)
    try:
        root.model_validate(raw)
    except ValidationError as err:
        missing: dict[tuple[int | str, ...], list[str]] = {}  # section -> its keys not given: one line per section
        for e in err.errors():
            if e["type"] == "missing":
                missing.setdefault(tuple(e["loc"][:-1]), []).append(str(e["loc"][-1]))
        problems = list(dict.fromkeys(
            [_problem(e, root, game.name, groups) for e in err.errors() if e["type"] != "missing"]
            + [f"[{_dotted(s)}] lacks {', '.join(keys)}: {game.name}'s default has no [{_dotted(s)}], so a file "
               f"that adds it gives every key" if s else f"the sections {', '.join(keys)} are missing"
               for s, keys in missing.items()]))
        if len(problems) == 1:
            raise ConfigError(f"{source}: {problems[0]}") from None
        raise ConfigError(f"{source}: {len(problems)} problems:\n  " + "\n  ".join(problems)) from None
    similarity = raw.get("similarity")
    if isinstance(similarity, dict) and similarity["guarantee_threshold"] < similarity["noise_threshold"]:
        raise ConfigError(f"{source}: similarity.guarantee_threshold must be at least noise_threshold "
                          f"({similarity['noise_threshold']}), got {similarity['guarantee_threshold']}")


# ---- the configuration -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class MarkingConfig:
    raw: Table  # checked against the game's schema (``_validate``) before it is made
    source: str
    game: str = ""  # the game it was validated for
    groups: tuple[str, ...] = ()  # the game's test groups: with the stages, what the implementation is marked on
    unused: tuple[str, ...] = ()  # sections the game does not use: [testing], [players] (see ``warnings``)

    @classmethod
    def load(cls, path: Path | None = None, game: GameSpec | None = None) -> MarkingConfig:
        """The game's default configuration (the default game's if none is given), with ``path``'s
        values over it; validated, so an error names what is wrong (ConfigError)."""
        if game is None:
            from grader.games import get  # noqa: PLC0415 - the registry, by name: no game is imported here

            game = get()
        raw = read_toml(game.marking_file)
        if path is not None:
            raw = _merge(raw, read_toml(path))
        _validate(raw, game, str(path if path is not None else game.marking_file))
        unused = (("testing",) if "testing" in raw and game.suite_targets is None else ()) + (
            ("players",) if "players" in raw and game.arena is None else ())
        return cls(raw, "default" if path is None else str(path), game.name, _groups(game), unused)

    def _at(self, *path: str) -> Table:
        """The table at ``path`` of the configuration (a KeyError when there is none)."""
        found = self.raw
        for name in path:
            found = section(found, name)
        return found

    def implementation_parts(self) -> dict[str, float]:
        """What the implementation's mark is out of, as ``grade.mark`` marks it: the build, the test groups
        (each its own marks or ``default_group``), the random games (when any are played) and memory."""
        groups = self.groups or tuple(self._at("marks", "groups"))
        return {"build": self.marks("build"), "test groups": sum(self.group_marks(g) for g in groups),
                "random games": self.marks("random_games") if self.random_games else 0.0,
                "memory": self.marks("memory")}

    def implementation_total(self) -> float:
        return sum(self.implementation_parts().values())

    def players_marks(self) -> dict[str, float] | None:
        """``[players.marks]``: a submission's ``player.c`` against the baselines (``fcd-grade``, and ``fcd-play
        --qualify``), marked apart; None when there is none."""
        marks = table(self.raw.get("players", {})).get("marks")
        return {k: to_float(v) for k, v in table(marks).items()} if marks else None

    def totals(self) -> list[str]:
        """What each part is out of, a line each: the implementation's, then those marked apart."""
        parts = self.implementation_parts()
        said = " + ".join(f"{k} {v:g}" for k, v in parts.items())
        lines = [f"implementation: {self.implementation_total():g} ({said}"
                 f"{'; random games: none played' if not self.random_games else ''})"]
        if (suite := self.suite_marking) is not None and "testing" not in self.unused:
            lines.append(f"students' tests ([testing]), marked apart: {suite.max_marks:g} "
                         f"(validity {suite.validity_marks:g} + thoroughness {suite.thoroughness_marks:g})")
        if (players := self.players_marks()) is not None:
            lines.append(f"players ([players.marks], fcd-play --qualify), marked apart: {sum(players.values()):g} "
                         f"({' + '.join(f'{k} {v:g}' for k, v in players.items())}); fcd-grade grades them too, "
                         f"for a submission with a player.c (unless --no-players)")
        return lines

    def warnings(self) -> list[str]:
        """What is valid but probably not meant: an implementation total other than 100, a section the game
        does not use."""
        total = self.implementation_total()
        off = [] if math.isclose(total, 100.0, abs_tol=1e-9) else [
            f"the implementation's marks add up to {total:g}, not 100"]
        why = {"testing": f"[testing] marks nothing: {self.game} does not grade students' own tests",
               "players": f"[players] is not used: {self.game} has no game runner (fcd-play)"}
        return off + [why[s] for s in self.unused]

    @property
    def strict_rulings(self) -> frozenset[str]:
        return frozenset(strings(self._at("rulings").get("strict", [])))

    @property
    def profile(self) -> str:
        strict = sorted(self.strict_rulings)
        name = str(self._at("rulings").get("profile", "lenient"))
        return f"{name} (strict: {', '.join(strict)})" if strict else name

    def group_marks(self, group: str) -> float:
        return to_float(self._at("marks", "groups").get(group, self._at("marks")["default_group"]))

    def marks(self, part: str) -> float:
        return to_float(self._at("marks")[part])

    def hidden(self, group: str) -> bool:
        vis = self._at("visibility")
        return group in strings(vis.get("hidden_groups", [])) or vis.get("default") == "hidden"

    @property
    def random_games(self) -> int:
        return to_int(self._at("random_games")["games"])

    @property
    def random_scoring(self) -> str:
        return str(self._at("random_games")["scoring"])

    @property
    def limits(self) -> Limits:
        lim = self._at("limits")
        return Limits(cpu=to_int(lim["cpu_seconds"]), wall=to_float(lim["wall_seconds"]),
                      memory_mb=to_int(lim["memory_mb"]), output_kb=to_int(lim["output_kb"]),
                      nproc=to_int(lim["processes"]))

    @property
    def suite_marking(self) -> SuiteMarking | None:
        """How students' test programs are marked; None when the configuration does not mark them."""
        found = self.raw.get("testing")
        if not found:
            return None
        t = table(found)
        return SuiteMarking(validity_marks=to_float(t["validity_marks"]),
                            thoroughness_marks=to_float(t["thoroughness_marks"]), gate=bool(t["gate"]),
                            hang_is_caught=bool(t["hang_is_caught"]), run_seconds=to_float(t["run_seconds"]),
                            hidden_mutants=frozenset(strings(t["hidden_mutants"])))

    @property
    def player_limits(self) -> Limits:
        """The limits of one call of a student's decideMove (the game runner's)."""
        p, lim = self._at("players"), self._at("limits")
        return Limits(cpu=to_int(p["call_cpu_seconds"]), wall=to_float(p["call_wall_seconds"]),
                      memory_mb=to_int(lim["memory_mb"]), output_kb=to_int(p["call_output_kb"]),
                      nproc=to_int(lim["processes"]))

    @property
    def players(self) -> PlayersTable:
        """The game runner's settings: max_moves, rounds, other_hands, marks (and each call's limits)."""
        return cast(PlayersTable, dict(self._at("players")))  # as the schema checked it

    @property
    def policy(self) -> Policy:
        """What a submission may call besides the C library and libm (``[build] allowed_symbols``: nothing by
        default) and the time all its games may take together (``[limits] budget_*``)."""
        lim = self._at("limits")
        return Policy(frozenset(strings(table(self.raw.get("build") or {}).get("allowed_symbols", []))),
                      Budget(cpu=to_float(lim["budget_cpu_seconds"]), wall=to_float(lim["budget_wall_seconds"])))

    @property
    def compile_seconds(self) -> float:
        return to_float(self._at("limits")["compile_seconds"])
