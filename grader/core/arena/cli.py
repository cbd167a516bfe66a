"""``fcd-play``: games between players, standings with intervals, and a player's marks.

    fcd-play PLAYER PLAYER ... [--rounds N] [--out DIR]   a tournament (duplicate seating, seeded decks)
    fcd-play --qualify FOLDER [--out DIR]                  a student's player against the three baselines

A PLAYER is a baseline's name (``random``, ``greedy``, ``cautious``) or a folder holding a ``player.c``.
Every game is written to ``OUT/games/<n>.json`` (the moves, the places, the forfeits, and its replay in
the format the HTML replay reads); a game with a forfeit also gets ``OUT/games/<n>.html``, its replay
opened at the step where the player forfeited.  Exit code: 0, or 1 when a student's player forfeited
a game, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from grader.core.config import ConfigError, MarkingConfig
from grader.core.replay import Difference, Replay, embed_json
from grader.games import DEFAULT_GAME, GAMES
from grader.games import get as get_game

from .match import MatchRecord
from .tournament import Entrant, Settings, Tournament, run_tournament

if TYPE_CHECKING:
    from grader.core.gamespec import GameSpec

    from .game import ArenaGame
    from .players import Player


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


def _percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def print_standings(t: Tournament) -> None:
    print(f"{'player':<24} {'kind':<8} {'games':>5} {'wins':>5}  {'win rate [95% CI]':<20} "
          f"{'mean place [95% CI]':<22} {'forfeits':>8} {'rating':>7}")
    for s in t.standings:
        lo, hi = s.win_interval
        mean, plo, phi = s.place
        print(f"{s.name[:24]:<24} {s.kind:<8} {s.games:>5} {s.wins:>5}  "
              f"{_percent(s.wins / s.games if s.games else 0):>4} [{_percent(lo)}, {_percent(hi)}]{'':<5} "
              f"{mean:4.2f} [{plo:4.2f}, {phi:4.2f}]{'':<6} {s.forfeits:>8} {s.rating[2]:7.2f}")
    early = " (stopped early: the tests decided)" if t.stopped_early else ""
    print(f"{len(t.records)} games in {t.rounds} round(s){early}")


def write_games(t: Tournament, out: Path, game: GameSpec) -> list[tuple[int, MatchRecord]]:
    """Every game as JSON with its replay; a game with a forfeit as an HTML page too.  The games with forfeits."""
    from grader.core.report.html import JINJA, REPLAY_SCRIPTS, scripts  # noqa: PLC0415

    folder = out / "games"
    folder.mkdir(parents=True, exist_ok=True)
    with_forfeits = []
    for n, r in enumerate(t.records, 1):
        frames = tuple(game.replay_frames(r.deck, " ".join(r.moves)))
        differences = tuple(Difference(f.move, f"{r.players[f.seat]}: decideMove()", "a legal move, only looking",
                                       f.why) for f in r.forfeits)
        replay = Replay(f"{game.title}: game {n}", frames, differences)
        (folder / f"{n}.json").write_text(json.dumps({**r.to_json(), "replay": replay.to_json()}))
        if r.forfeits:
            with_forfeits.append((n, r))
            forfeited = {f.seat: f for f in r.forfeits}
            seats = [{"name": name, "place": f"{r.places[i]:g}", "forfeit": forfeited[i].why if i in forfeited else "",
                      "step": forfeited[i].move if i in forfeited else 0} for i, name in enumerate(r.players)]
            page = JINJA.get_template("game.html").render(
                title=game.title, number=n, moves=len(r.moves), stopped=r.stopped,
                winner=r.players[r.winner] if r.winner is not None else None, seats=seats, notes=r.notes[:50],
                replay=embed_json(replay), viewer=scripts(*REPLAY_SCRIPTS))
            (folder / f"{n}.html").write_text(page, encoding="utf-8")
    return with_forfeits


def qualify_marks(t: Tournament, student: str, marks: dict[str, float]) -> list[tuple[str, float, float, str]]:
    """(what, marks earned, marks, why) for each mark of the configuration's ``[players.marks]``."""
    s = next(x for x in t.standings if x.name == student)
    out = [("legal", marks["legal"] if s.forfeits == 0 else 0.0, marks["legal"],
            "no forfeit in any game" if s.forfeits == 0 else f"{s.forfeits} forfeit(s): {s.forfeit_reasons[0]}")]
    for baseline in ("random", "greedy"):
        test = t.tests[(student, baseline)]
        verdict = {"H1": "places above it (sequential test: decided)", "H0": "does not place above it (decided)",
                   "": f"not decided after {test.n} games"}[test.decision]
        out.append((f"beats_{baseline}", marks[f"beats_{baseline}"] if test.decision == "H1" else 0.0,
                    marks[f"beats_{baseline}"], verdict))
    return out


def _serve(game: GameSpec, arena: ArenaGame, entrants: Sequence[Entrant], config: MarkingConfig, port: int) -> int:
    from grader.core.arena.players import BotPlayer  # noqa: PLC0415

    from .web import serve  # noqa: PLC0415

    if len(entrants) != arena.seats - 1:
        print(f"fcd-play --web: name {arena.seats - 1} opponents (or none, for the baselines)", file=sys.stderr)
        return 2
    student = arena.student_player
    if student is None and any(e.kind != "bot" for e in entrants):
        print(f"fcd-play --web: students cannot play {arena.title}", file=sys.stderr)
        return 2
    opponents: list[Player] = [
        BotPlayer(e.name, arena.bots[e.source], i) if e.kind == "bot" or student is None else
        student(e.source, e.name, config.player_limits, str(config.players["other_hands"]))
        for i, e in enumerate(entrants)]
    server = serve(game, opponents, port)
    print(f"Play at http://127.0.0.1:{server.server_address[1]}/  (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        for player in opponents:
            player.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="fcd-play", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("players", nargs="*", help="baseline names (random, greedy, cautious) or folders with player.c")
    p.add_argument("--qualify", metavar="FOLDER", help="a student's player against the three baselines, for marks")
    p.add_argument("--web", action="store_true",
                   help="play seat 0 yourself in the browser, against the PLAYERS named (default: the baselines)")
    p.add_argument("--port", type=int, default=8765, help="the --web server's port on 127.0.0.1")
    p.add_argument("--rounds", type=int, default=None, help="rounds at most (default: from the configuration)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("fcd-games"))
    p.add_argument("--config", type=Path, default=None)
    p.add_argument("--game", choices=sorted(GAMES), default=DEFAULT_GAME)
    args = p.parse_args(argv)
    game = get_game(args.game)
    if game.arena is None:
        print(f"fcd-play: {game.title} has no game runner", file=sys.stderr)
        return 2
    arena = game.arena_game()
    try:
        config = MarkingConfig.load(args.config, game=game)
        names = [args.qualify, *arena.bots] if args.qualify else args.players
        entrants = entrants_of(names, list(arena.bots))
    except (ConfigError, ValueError) as err:
        print(f"fcd-play: {err}", file=sys.stderr)
        return 2
    if args.web:
        return _serve(game, arena, entrants or entrants_of(list(arena.bots), list(arena.bots)), config, args.port)
    if not 1 < len(entrants):
        print("fcd-play: name at least two players (or --qualify FOLDER)", file=sys.stderr)
        return 2
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
    summary: dict[str, object] = {"game": game.title, "standings": standings, "rounds": t.rounds}
    if args.qualify:
        marks = qualify_marks(t, student, config.players["marks"])
        summary["marks"] = [{"what": w, "marks": m, "max": x, "why": why} for w, m, x, why in marks]
        print(f"\nMarks for {student}: {sum(m for _, m, _, _ in marks):g} / {sum(x for _, _, x, _ in marks):g}")
        for what, got, most, why in marks:
            print(f"  {what:<14} {got:g} / {most:g}   {why}")
    (args.out / "standings.json").write_text(json.dumps(summary, indent=1))
    return 1 if any(t.standings and s.kind == "student" and s.forfeits for s in t.standings) else 0


if __name__ == "__main__":
    raise SystemExit(main())
