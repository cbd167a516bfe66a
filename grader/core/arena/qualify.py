"""A student's player qualified for marks: its ``player.c`` against the game's baselines, and ``[players.marks]``.

The one place of the qualification, for ``fcd-grade`` (``qualify``: a ``PlayersResult``, marked apart like the
students' tests) and ``fcd-play --qualify`` (``qualify_marks``).  The student's player is compiled once, before
any game (``not_compiling``): one that does not compile plays no game and earns nothing, the compiler's first
lines saying why.  Otherwise it plays a tournament against every baseline (duplicate seating over seeded decks,
``run_tournament``) until the sequential tests decide whether it places above ``random`` and ``greedy``.  The
seed is fixed (``SEED``), so the same ``player.c`` gets the same marks every run.

``entrants_of``, ``build_student`` and ``not_compiling`` are ``fcd-play``'s too: it imports them from here (a
module of the arena that ``fcd-play`` stands on, never the other way round).
"""

from __future__ import annotations

import dataclasses
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from grader.core.results import PlayerForfeit, PlayerGame, PlayerMark, PlayersResult, PlayerStanding

from .student import compiler_lines
from .tournament import Entrant, Settings, Tournament, fillers, run_tournament

if TYPE_CHECKING:
    from grader.core.config import MarkingConfig
    from grader.core.gamespec import GameSpec

    from .game import ArenaGame, BuiltPlayer

SEED = 0  # the decks' seed of every qualification: the same player.c, the same games, the same marks
PLAYER = "player.c"  # the student's player, as the standings and its games name it: the file they edit
BASELINES = ("random", "greedy")  # the baselines a player must place above, each for its ``beats_<name>`` mark
REPLAY_PAGES = 10  # games with a forfeit kept whole for their replay pages (the first ones; every forfeit is listed)
GAME_NOTES = 50  # notes of one kept game (its page shows as many)
NOTES = 10  # kinds of notes on what the player did, said in the result (each once, with how often)


def entrants_of(names: Sequence[str], bots: Sequence[str]) -> list[Entrant]:
    """Each PLAYER argument as an entrant, named uniquely (a second ``random`` is ``random#2``)."""
    out: list[Entrant] = []
    seen: dict[str, int] = {}
    for arg in names:
        folder = Path(arg)
        if arg in bots:
            base, kind, source = arg, "bot", arg
        elif (folder / "player.c").is_file():
            base, kind, source = folder.resolve().name, "student", str(folder.resolve())
        else:
            raise ValueError(f"{arg}: neither a baseline ({', '.join(bots)}) nor a folder with a player.c")
        seen[base] = seen.get(base, 0) + 1
        out.append(Entrant(base if seen[base] == 1 else f"{base}#{seen[base]}", kind, source))
    return out


def build_student(arena: ArenaGame, entrant: Entrant, config: MarkingConfig) -> BuiltPlayer:
    """A student's player, built (``arena.student_player``: its ``problem`` says if it did not compile)."""
    if arena.student_player is None:
        raise ValueError(f"{entrant.name}: students' players cannot play {arena.title}")
    return arena.student_player(entrant.source, entrant.name, config.player_limits, str(config.players["other_hands"]))


def not_compiling(arena: ArenaGame, entrants: Sequence[Entrant], config: MarkingConfig,
                  jobs: int) -> list[tuple[Entrant, str, str]]:
    """Every student's player compiled once, before any game, ``jobs`` at a time: (entrant, why, what the compiler
    said) for each that does not compile -- said once here, rather than as a forfeit in every game."""
    def build(entrant: Entrant) -> tuple[Entrant, str, str]:
        player = build_student(arena, entrant, config)
        try:
            return entrant, player.problem, player.build_output
        finally:
            player.close()

    students = [e for e in entrants if e.kind == "student"]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return [built for built in pool.map(build, students) if built[1]]


def qualify_marks(t: Tournament, student: str, marks: dict[str, float]) -> list[tuple[str, float, float, str]]:
    """(what, marks earned, marks, why) for each mark of the configuration's ``[players.marks]``."""
    s = next(x for x in t.standings if x.name == student)
    out = [("legal", marks["legal"] if s.forfeits == 0 else 0.0, marks["legal"],
            "no forfeit in any game" if s.forfeits == 0 else f"{s.forfeits} forfeit(s): {s.forfeit_reasons[0]}")]
    for baseline in BASELINES:
        test = t.tests[(student, baseline)]
        verdict = {"H1": "places above it (sequential test: decided)", "H0": "does not place above it (decided)",
                   "": f"not decided after {test.n} games"}[test.decision]
        out.append((f"beats_{baseline}", marks[f"beats_{baseline}"] if test.decision == "H1" else 0.0,
                    marks[f"beats_{baseline}"], verdict))
    return out


def marks_not_played(most: dict[str, float], why: str) -> list[tuple[str, float, float, str]]:
    """(what, 0, marks, why) for each mark of ``[players.marks]``: a player that played no game earns none."""
    return [(what, 0.0, marks, why) for what, marks in most.items()]


def _lines(marks: Sequence[tuple[str, float, float, str]]) -> list[PlayerMark]:
    return [PlayerMark(what, earned, most, why) for what, earned, most, why in marks]


def graded(folder: Path, game: GameSpec, config: MarkingConfig) -> bool:
    """Does ``fcd-grade`` qualify ``folder``'s player: it has a ``player.c``, the game a runner its students' players
    can play, and the configuration ``[players.marks]``."""
    return ((folder / "player.c").is_file() and game.arena is not None and config.players_marks() is not None
            and game.arena_game().student_player is not None)


def qualify(folder: Path, game: GameSpec, config: MarkingConfig, jobs: int = 2) -> PlayersResult | None:
    """``folder``'s player against the game's baselines, with its marks; None when it is not graded (``graded``)."""
    most = config.players_marks()
    if most is None or not graded(folder, game, config):
        return None
    start = time.monotonic()
    arena = game.arena_game()
    named = entrants_of([str(folder), *arena.bots], list(arena.bots))
    entrants = [dataclasses.replace(named[0], name=PLAYER), *named[1:]]  # not the folder's name: it may be a bot's
    broken = not_compiling(arena, entrants[:1], config, jobs)
    if broken:
        _, why, output = broken[0]
        return PlayersResult(PLAYER, False, _lines(marks_not_played(most, why)), problem=why,
                             compiler_output="\n".join(compiler_lines(output, PLAYER)), seed=SEED,
                             seconds=time.monotonic() - start)
    settings = Settings(int(config.players["max_moves"]), config.player_limits.as_dict(),
                        str(config.players["other_hands"]))
    t = run_tournament(game.name, entrants, settings, rounds=int(config.players["rounds"]), seats=arena.seats,
                       seed=SEED, jobs=jobs, watch=[(PLAYER, baseline) for baseline in BASELINES])
    result = _result(t, qualify_marks(t, PLAYER, most))
    filled = fillers(entrants, arena.seats)
    if filled:
        result.notes.insert(0, f"{len(entrants)} players for tables of {arena.seats}: "
                            f"{' and '.join(e.name for e in filled)} took the empty seats")
    result.seconds = time.monotonic() - start
    return result


def _result(t: Tournament, marks: Sequence[tuple[str, float, float, str]]) -> PlayersResult:
    """The tournament as the report shows it: the standings, the player's every forfeit, its first games with a
    forfeit kept whole (for their replay pages), and what else it was noted doing."""
    standings = [PlayerStanding(s.name, s.kind, s.games, s.wins, s.forfeits, round(s.place[0], 3))
                 for s in t.standings]
    forfeits: list[PlayerForfeit] = []
    games: list[PlayerGame] = []
    notes: dict[str, list[str]] = {}  # a kind of note (its numbers left out) -> every note of that kind
    for n, r in enumerate(t.records, 1):
        mine = [f for f in r.forfeits if r.players[f.seat] == PLAYER]
        forfeits += [PlayerForfeit(n, f.seat, f.move, f.why) for f in mine]
        if mine and len(games) < REPLAY_PAGES:
            record = r.to_json()
            games.append(PlayerGame(n, {**record, "notes": record["notes"][:GAME_NOTES]}))
        for note in r.notes:
            if note.startswith(f"{PLAYER}: "):
                note = note.removeprefix(f"{PLAYER}: ")
                notes.setdefault(re.sub(r"\d+", "#", note), []).append(note)
    said = [f"stopped after {t.rounds} round(s): the sequential tests had decided"] if t.stopped_early else []
    with_forfeit = len({f.game for f in forfeits})
    if len(games) < with_forfeit:
        said.append(f"the first {len(games)} of the {with_forfeit} games with a forfeit have a replay page")
    noted = [alike[0] + (f" (and {len(alike) - 1} time(s) more like it)" if len(alike) > 1 else "")
             for alike in list(notes.values())[:NOTES]]
    return PlayersResult(PLAYER, True, _lines(marks), standings=standings, forfeits=forfeits, games=games,
                         games_played=len(t.records), rounds=t.rounds, stopped_early=t.stopped_early, seed=SEED,
                         notes=[*said, *noted])


def not_qualified(config: MarkingConfig, error: str) -> PlayersResult | None:
    """The result of a qualification the grader itself could not finish (``error``: what went wrong): no mark
    earned yet, and provisional (the submission's status says "grader error": it is graded again)."""
    most = config.players_marks()
    if most is None:
        return None
    why = "not judged: the grader failed (not your fault)"
    return PlayersResult(PLAYER, True, _lines(marks_not_played(most, why)), seed=SEED, error=error)
