"""Per-scenario cost of three ways to run student code (issue: isolation costs).

    python bench/bench_isolation.py [--rounds N]

1. fork per scenario inside the bubblewrap sandbox (what the grader does);
2. a fresh Python process per scenario (the usual grader design),
   ``bench/one_game.py``: it starts, declares the API to cffi, loads the
   library, plays and prints its observations -- unsandboxed and unforked,
   so the comparison flatters it;
3. the same moves replayed in one process with no isolation at all.
Each plays every scenario of fixtures/scenarios on the model submission and
observes every step, exactly as grading does.

The three run in turn within each round, so a slow spell of the machine
touches all of them; each figure is the median over the rounds of the mean
per scenario (the fastest round is printed too: noise only ever adds).

The worker overlaps some of its work with the grader's (the next game's child
is forked while a game plays; a child's teardown happens after the answer), so
its time per scenario profits from a second core.  A last pass counts the CPU
time of every process instead, which no spare core flatters.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.isolation import detect_mode, worker_search_path  # noqa: E402
from grader.core.sandbox import protocol  # noqa: E402
from grader.games import get  # noqa: E402
from grader.games.fcd.reference_trace import reference_trace  # noqa: E402
from grader.games.fcd.sandbox.loader import CLibrary  # noqa: E402
from grader.games.fcd.sandbox.play import resolve  # noqa: E402
from grader.games.fcd.session import play  # noqa: E402
from grader.games.fcd18s2.edition import FCD18  # noqa: E402
from grader.games.fcd18s2.sandbox.interface import API  # noqa: E402
from grader.games.fcd18s2.sandbox.observe import Observer  # noqa: E402
from grader.games.fcd18s2.sandbox.play import JOB  # noqa: E402
from grader.games.fcd18s2.scenarios import load_scenarios  # noqa: E402
from grader.games.fcd18s2.session import Fcd18Session as FcdSession  # noqa: E402


def per_scenario(run: Callable[[], None], count: int) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) / count


def cpu_per_scenario(run: Callable[[], None], count: int, worker: int | None = None) -> float:
    """CPU seconds per scenario of this process, of the processes it waited for (the fresh
    processes), and of the process tree under ``worker`` (bubblewrap, the fork server, and
    the children it reaped)."""
    before, tree_before = os.times(), tree_cpu(worker)
    run()
    after, tree_after = os.times(), tree_cpu(worker)
    return (sum(after[i] - before[i] for i in range(4)) + tree_after - tree_before) / count


def tree_cpu(pid: int | None) -> float:
    """utime + stime + cutime + cstime of ``pid`` and its living descendants, in seconds."""
    total, todo = 0, [pid] if pid else []
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15])
            for task in os.listdir(f"/proc/{p}/task"):
                todo.extend(int(c) for c in Path(f"/proc/{p}/task/{task}/children").read_text().split())
        except (OSError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    scenarios = load_scenarios()
    n = len(scenarios)
    GAME = get("fcd18s2")  # noqa: N806 - the game whose worker is timed
    with FcdSession.open(ROOT / "fixtures" / "submissions" / "model") as session:
        library = session.build.library
        client = session.client
        first = [list(k) for k in scenarios[0].deck.keys]
        play(client, first, [], depths=[(1, 1)], limits=session.limits)  # start the worker first
        games = [([list(k) for k in s.deck.keys], [str(m) for m in s.moves],
                  [st.depths for st in reference_trace(s.deck, s.moves, edition=FCD18)]) for s in scenarios]
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": worker_search_path(GAME.sandbox_job, GAME.sandbox_packages),
               "PYTHONDONTWRITEBYTECODE": "1"}
        requests = [protocol.encode({"lib": str(library), "deck": deck, "moves": moves, "depths": d})
                    for deck, moves, d in games]
        lib = CLibrary(library, API)

        def forked() -> None:
            for deck, moves, d in games:
                play(client, deck, moves, depths=d, limits=session.limits)

        def fresh() -> None:
            for request in requests:
                proc = subprocess.run([sys.executable, "-S", "-B", str(ROOT / "bench" / "one_game.py")],
                                      input=request, capture_output=True, env=env, check=True)
                assert proc.stdout

        def in_process() -> None:
            for s in scenarios:
                replay(lib, s)

        times: dict[str, list[float]] = {"forked": [], "fresh": [], "inproc": []}
        for _ in range(args.rounds):
            for name, run in (("forked", forked), ("fresh", fresh), ("inproc", in_process)):
                times[name].append(per_scenario(run, n))
        cpu = {"forked": cpu_per_scenario(forked, n, worker=client.proc.pid), "fresh": cpu_per_scenario(fresh, n),
               "inproc": cpu_per_scenario(in_process, n)}
    med = {k: statistics.median(v) for k, v in times.items()}
    best = {k: min(v) for k, v in times.items()}
    ms = lambda x: f"{x * 1000:7.2f} ms"  # noqa: E731
    print(f"{n} scenarios x {args.rounds} rounds on the model submission; sandbox: {detect_mode().name}")
    print("  per scenario                        :   median   (fastest round)")
    print(f"  fork per scenario, sandboxed worker : {ms(med['forked'])}  ({ms(best['forked'])})")
    print(f"  fresh process per scenario          : {ms(med['fresh'])}  ({ms(best['fresh'])})  "
          f"{med['fresh'] / med['forked']:.1f}x the fork server")
    print(f"  one process, no isolation           : {ms(med['inproc'])}  ({ms(best['inproc'])})")
    for label, t in (("median", med), ("fastest", best)):
        fork_cost, fresh_cost = t["forked"] - t["inproc"], t["fresh"] - t["inproc"]
        print(f"  cost of isolation above the work itself ({label}): fork server {fork_cost * 1000:.2f} ms, "
              f"fresh process {fresh_cost * 1000:.2f} ms -> {fresh_cost / fork_cost:.1f}x less")
    fork_cpu, fresh_cpu = cpu["forked"] - cpu["inproc"], cpu["fresh"] - cpu["inproc"]
    print("  CPU per scenario, every process (one pass; not the worker's start-up, once per submission): fork server "
          f"{ms(cpu['forked'])}, fresh process {ms(cpu['fresh'])}, no isolation {ms(cpu['inproc'])}")
    print(f"  CPU cost of isolation: fork server {fork_cpu * 1000:.2f} ms, fresh process {fresh_cpu * 1000:.2f} ms "
          f"-> {fresh_cpu / fork_cpu:.1f}x less")
    return 0


def replay(lib: CLibrary, s) -> None:  # noqa: ANN001 - a grader.games.fcd.scenarios.Scenario
    """What the worker's child does for one scenario, in this process."""
    depths = [st.depths for st in reference_trace(s.deck, s.moves, edition=FCD18)]
    game = lib.new_game(*zip(*s.deck.keys))
    observer = Observer(game, len(s.deck))
    first = observer.observe(depths[0])
    first.update(observer.deck_counts())
    for i, m in enumerate(s.moves):
        game.play_move(resolve(game, m, len(s.deck) + 1, JOB))
        observer.observe(depths[i + 1])
    game.destroy_game()


if __name__ == "__main__":
    raise SystemExit(main())
