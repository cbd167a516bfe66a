"""``fcd-play``: games between players, standings with intervals, and a player's marks.

    fcd-play PLAYER PLAYER ... [--rounds N] [--out DIR]   a tournament (duplicate seating, seeded decks)
    fcd-play --qualify FOLDER [--out DIR]                  a student's player against the three baselines

A PLAYER is a baseline's name (``random``, ``greedy``, ``cautious``) or a folder holding a ``player.c``.
Every student's player is compiled first, once: one that does not compile is reported with the compiler's
first lines and plays no game (none is played when no student's player is left, nor with ``--qualify``).
Seats no PLAYER fills are taken by the ``random`` baseline, named as such and announced before the games.
Every game is written to ``OUT/games/<n>.json`` (the moves, the places, the forfeits, and its replay in
the format the HTML replay reads); a game with a forfeit also gets ``OUT/games/<n>.html``, its replay
opened at the step where the player forfeited.  Exit code (``ExitCode``): 0, or 1 when a student's player
did not compile or forfeited a game, 2 for a usage error (a busy ``--web`` port too).
"""

from __future__ import annotations

import argparse
import errno
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from grader.core.commands import ExitCode, game_option
from grader.core.config import ConfigError, MarkingConfig
from grader.core.replay import Difference, Replay, embed_json
from grader.games import get as get_game

from .match import MatchRecord
from .qualify import build_student, entrants_of, marks_not_played, not_compiling, qualify_marks
from .student import compiler_lines
from .tournament import FILLER, Entrant, Settings, Tournament, filler_name, fillers, run_tournament

if TYPE_CHECKING:
    from grader.core.gamespec import GameSpec

    from .game import ArenaGame
    from .players import Player

PORT = 8765  # --web's port when none is given; taken by something else, the next free one of PORT_FURTHER
PORT_FURTHER = 20


def _shown(path: Path) -> str:
    """A path as the user can open it: from the current folder when it is below it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def print_not_compiling(entrant: Entrant, why: str, output: str) -> None:
    """Why a student's player plays no game, and the compiler's first lines, naming the file they edit."""
    print(f"{entrant.name}: {why}, so it plays no game. The compiler said:")
    for line in compiler_lines(output, _shown(Path(entrant.source) / "player.c")):
        print(f"  {line}")


def say_fillers(filled: Sequence[Entrant], named: int, seats: int) -> None:
    """Once, before the games: which seats the runner filled, and with what."""
    if not filled:
        return
    which = " and ".join(f'"{e.name}"' for e in filled)
    seat_s = "seat is" if len(filled) == 1 else "seats are"
    tables = "a table" if named < seats else "tables"
    print(f"{named} player(s) for {tables} of {seats}: each round {len(filled)} empty {seat_s} filled by the "
          f"{FILLER} baseline, playing as {which} (not a player you named).")


def _percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def print_standings(t: Tournament) -> None:
    width = max([24, *(len(s.name) for s in t.standings)])
    print(f"{'player':<{width}} {'kind':<8} {'games':>5} {'wins':>5}  {'win rate [95% CI]':<20} "
          f"{'mean place [95% CI]':<22} {'forfeits':>8} {'rating':>7}")
    for s in t.standings:
        lo, hi = s.win_interval
        mean, plo, phi = s.place
        print(f"{s.name:<{width}} {s.kind:<8} {s.games:>5} {s.wins:>5}  "
              f"{_percent(s.wins / s.games if s.games else 0):>4} [{_percent(lo)}, {_percent(hi)}]{'':<5} "
              f"{mean:4.2f} [{plo:4.2f}, {phi:4.2f}]{'':<6} {s.forfeits:>8} {s.rating[2]:7.2f}")
    early = " (stopped early: the tests decided)" if t.stopped_early else ""
    print(f"{len(t.records)} games in {t.rounds} round(s){early}")


def write_games(t: Tournament, out: Path, game: GameSpec) -> list[tuple[int, MatchRecord]]:
    """Every game as JSON with its replay; a game with a forfeit as an HTML page too.  The games with forfeits."""
    folder = out / "games"
    folder.mkdir(parents=True, exist_ok=True)
    return [(n, r) for n, r in enumerate(t.records, 1) if write_game(folder, n, r, game)]


def write_game(folder: Path, n: int, r: MatchRecord, game: GameSpec) -> bool:
    """Game ``n`` as ``folder/<n>.json`` with its replay; with a forfeit, as ``<n>.html`` too, its replay page
    opened where the player forfeited (``fcd-grade``'s report writes its player's games so).  Had it a forfeit?"""
    from grader.core.report.html import JINJA, REPLAY_SCRIPTS, scripts  # noqa: PLC0415

    frames = tuple(game.replay_frames(r.deck, " ".join(r.moves)))
    differences = tuple(Difference(f.move, f"{r.players[f.seat]}: decideMove()", "a legal move, only looking",
                                   f.why) for f in r.forfeits)
    replay = Replay(f"{game.title}: game {n}", frames, differences)
    (folder / f"{n}.json").write_text(json.dumps({**r.to_json(), "replay": replay.to_json()}))
    if not r.forfeits:
        return False
    forfeited = {f.seat: f for f in r.forfeits}
    seats = [{"name": name, "place": f"{r.places[i]:g}", "forfeit": forfeited[i].why if i in forfeited else "",
              "step": forfeited[i].move if i in forfeited else 0} for i, name in enumerate(r.players)]
    page = JINJA.get_template("game.html").render(
        title=game.title, number=n, moves=len(r.moves), stopped=r.stopped,
        winner=r.players[r.winner] if r.winner is not None else None, seats=seats, notes=r.notes[:50],
        replay=embed_json(replay), viewer=scripts(*REPLAY_SCRIPTS))
    (folder / f"{n}.html").write_text(page, encoding="utf-8")
    return True


def print_marks(student: str, marks: Sequence[tuple[str, float, float, str]]) -> list[dict[str, object]]:
    """A qualification's marks on the console; the same as JSON, for ``standings.json``."""
    print(f"\nMarks for {student}: {sum(m for _, m, _, _ in marks):g} / {sum(x for _, _, x, _ in marks):g}")
    for what, got, most, why in marks:
        print(f"  {what:<14} {got:g} / {most:g}   {why}")
    return [{"what": w, "marks": m, "max": x, "why": why} for w, m, x, why in marks]


def _port_problem(err: OSError, port: int, further: int) -> str:
    """Why ``--web`` could not listen, in one line, with what to do."""
    if err.errno == errno.EADDRINUSE:
        if further:
            return f"ports {port} to {port + further} are all in use: pass a free one with --port"
        return f"port {port} is in use: pass another with --port (or stop the program using it)"
    if err.errno == errno.EACCES:
        return f"port {port} is not yours to use (ports below 1024 need root): pass another with --port"
    return f"cannot listen on 127.0.0.1:{port} ({err.strerror or err}): pass another port with --port"


def _serve(game: GameSpec, arena: ArenaGame, entrants: Sequence[Entrant], config: MarkingConfig,
           port: int | None) -> int:
    """``--web``: the opponents named (the baselines when none are), the seats left filled with baselines (said
    so), each student's player built first (one that does not compile is reported, and nothing is served),
    then the server, on ``port`` -- or, when the user chose none, on ``PORT`` or the next free one."""
    from .players import BotPlayer  # noqa: PLC0415
    from .web import serve  # noqa: PLC0415

    wanted = arena.seats - 1
    if len(entrants) > wanted:
        print(f"fcd-play --web: name {wanted} opponents at most ({arena.title} seats {arena.seats}: you and them)",
              file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    named = list(entrants) or entrants_of(list(arena.bots)[:wanted], list(arena.bots))
    filled = [Entrant(filler_name(FILLER, f"seat {seat}"), "bot", FILLER) for seat in range(len(named) + 1,
                                                                                           arena.seats)]
    if filled:
        seat_s = "Seat" if len(filled) == 1 else "Seats"
        print(f"{seat_s} {', '.join(str(s) for s in range(len(named) + 1, arena.seats))} of {arena.seats}: no "
              f"opponent named, so the {FILLER} baseline plays there, as "
              f"{' and '.join(repr(e.name) for e in filled)}.", flush=True)
    opponents: list[Player] = []
    try:
        for e in [*named, *filled]:
            if e.kind == "bot":
                opponents.append(BotPlayer(e.name, arena.bots[e.source], len(opponents)))
                continue
            try:
                student = build_student(arena, e, config)
            except ValueError as err:
                print(f"fcd-play --web: {err}", file=sys.stderr)
                return ExitCode.USAGE_OR_INTERNAL
            opponents.append(student)
            if student.problem:
                print_not_compiling(e, student.problem, student.build_output)
                return ExitCode.TESTS_FAILED
        further = PORT_FURTHER if port is None else 0
        try:
            server = serve(game, opponents, PORT if port is None else port, further)
        except OSError as err:
            print(f"fcd-play --web: {_port_problem(err, PORT if port is None else port, further)}", file=sys.stderr)
            return ExitCode.USAGE_OR_INTERNAL
        bound = server.server_address[1]
        if port is None and bound != PORT:
            print(f"Port {PORT} is in use, so the game is on port {bound} (choose one with --port).")
        print(f"Play at http://127.0.0.1:{bound}/  (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    finally:
        for player in opponents:
            player.close()
    return ExitCode.OK


def port_number(text: str) -> int:
    """``--port``: a port number (0: any free port)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)")
    return port


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="fcd-play", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("players", nargs="*", help="baseline names (random, greedy, cautious) or folders with player.c")
    p.add_argument("--qualify", metavar="FOLDER", help="a student's player against the three baselines, for marks")
    p.add_argument("--web", action="store_true",
                   help="play seat 0 yourself in the browser, against the PLAYERS named (default: the baselines)")
    p.add_argument("--port", type=port_number, default=None,
                   help=f"the --web server's port on 127.0.0.1 (default: {PORT}, or the next free one)")
    p.add_argument("--rounds", type=int, default=None, help="rounds at most (default: from the configuration)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("fcd-games"))
    p.add_argument("--config", type=Path, default=None)
    game_option(p)  # --game palace, --edition 17s2: as fcd-grade names a game
    args = p.parse_args(argv)
    game = get_game(args.game)
    if game.arena is None:
        print(f"fcd-play: {game.title} has no game runner", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    arena = game.arena_game()
    try:
        config = MarkingConfig.load(args.config, game=game)
        names = [args.qualify, *arena.bots] if args.qualify else args.players
        entrants = entrants_of(names, list(arena.bots))
        if arena.student_player is None and any(e.kind == "student" for e in entrants):
            raise ValueError(f"students' players cannot play {arena.title}")
    except (ConfigError, ValueError) as err:
        print(f"fcd-play: {err}", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    if args.web:
        return _serve(game, arena, entrants, config, args.port)
    if not 1 < len(entrants):
        print("fcd-play: name at least two players (or --qualify FOLDER)", file=sys.stderr)
        return ExitCode.USAGE_OR_INTERNAL
    broken = not_compiling(arena, entrants, config, args.jobs)
    for entrant, why, output in broken:
        print_not_compiling(entrant, why, output)
    not_built = [{"name": e.name, "why": why, "compiler": output} for e, why, output in broken]
    if broken:
        left_out = {entrant.name for entrant, _, _ in broken}
        entrants = [e for e in entrants if e.name not in left_out]
        if args.qualify or len(entrants) < 2 or not any(e.kind == "student" for e in entrants):
            print("No game was played: fix the compiler's first error above, then run fcd-play again.")
            summary: dict[str, object] = {"game": game.title, "standings": [], "rounds": 0, "not_compiling": not_built}
            if args.qualify and (most_marks := config.players_marks()) is not None:
                summary["marks"] = print_marks(broken[0][0].name, marks_not_played(most_marks, broken[0][1]))
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / "standings.json").write_text(json.dumps(summary, indent=1))
            return ExitCode.TESTS_FAILED
        print(f"The games go on without {', '.join(sorted(left_out))}.\n")
    say_fillers(fillers(entrants, arena.seats), len(entrants), arena.seats)
    settings = Settings(int(config.players["max_moves"]), config.player_limits.as_dict(),
                        str(config.players["other_hands"]))
    student = entrants[0].name if args.qualify else ""
    watch = [(student, "random"), (student, "greedy")] if args.qualify else []
    t = run_tournament(args.game, entrants, settings, rounds=args.rounds or int(config.players["rounds"]),
                       seats=arena.seats, seed=args.seed, jobs=args.jobs, watch=watch)
    print_standings(t)
    forfeits = write_games(t, args.out, game)
    for n, r in forfeits[:20]:
        for f in r.forfeits:
            print(f"  game {n}: {r.players[f.seat]} forfeited at step {f.move}: {f.why[:160]}  "
                  f"({args.out}/games/{n}.html#game/step-{f.move})")
    standings = [{"name": s.name, "kind": s.kind, "games": s.games, "wins": s.wins, "win_interval": s.win_interval,
                  "place": s.place, "forfeits": s.forfeits, "rating": s.rating} for s in t.standings]
    summary = {"game": game.title, "standings": standings, "rounds": t.rounds}
    if broken:
        summary["not_compiling"] = not_built
    if args.qualify and (most_marks := config.players_marks()) is not None:
        summary["marks"] = print_marks(student, qualify_marks(t, student, most_marks))
    elif args.qualify:
        print(f"\nNo marks for {student}: the marking configuration has no [players.marks].")
    (args.out / "standings.json").write_text(json.dumps(summary, indent=1))
    forfeited = any(s.kind == "student" and s.forfeits for s in t.standings)
    return ExitCode.TESTS_FAILED if broken or forfeited else ExitCode.OK


if __name__ == "__main__":
    raise SystemExit(main())
