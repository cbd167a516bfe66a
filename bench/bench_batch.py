"""Throughput of ``fcd-grade batch``: N generated submissions with 1 and 2 workers, local processes and Dask.

    python bench/bench_batch.py [--n 16] [--fast]

The class is generated: copies of the model, of mutants and of hostile
submissions, each with a comment of its own so no two share sources (the store
would otherwise grade them once).  Every run starts from an empty OUT (nothing
from the store) and the same warm reference cache (as every submission after a
batch's first).  Printed: seconds, submissions per minute, the scaling ratio of
2 workers against 1 (the baseline measured in the same run) and the Dask
LocalCluster against local processes, then the paper estimate for a larger
cluster from the measured per-submission core-seconds.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures" / "submissions"
MIX = ("model", "model", "mutants/skip_ignored", "mutants/winner_missed", "mutants/zero_not_wild",
       "mutants/d_is_wild", "hostile/null_deref", "hostile/busy_loop", "hostile/abort", "model")


def generate(root: Path, n: int) -> None:
    root.mkdir(parents=True)
    for i, name in zip(range(n), itertools.cycle(MIX)):
        src = SUBMISSIONS / name
        if not src.is_dir():
            continue
        dest = root / f"s{i:03d}-{name.replace('/', '-')}"
        shutil.copytree(src, dest)
        with (dest / "Game.c").open("a") as f:
            f.write(f"\n/* student {i} */\n")


def timed_batch(root: Path, jobs: int, extra: list[str], fast: bool) -> float:
    out = Path(tempfile.mkdtemp(prefix="fcd-bench-batch-out-"))
    argv = [sys.executable, "-m", "grader.core.cli", "batch", str(root), "--out", str(out), "--jobs", str(jobs),
            *extra, *(["--random-games", "2", "--no-memory", "--no-tests"] if fast else [])]
    start = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=ROOT)
    seconds = time.monotonic() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"batch failed ({proc.returncode}): {proc.stderr[-2000:]}")
    shutil.rmtree(out, ignore_errors=True)
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=16, help="submissions in the generated class")
    ap.add_argument("--fast", action="store_true", help="2 random games, no memory stage, no own tests")
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="fcd-bench-batch-"))
    root = base / "class"
    generate(root, args.n)
    n = len(list(root.iterdir()))
    timed_batch(root, 2, [], args.fast)  # warms the reference cache and the compiled objects once
    runs = {}
    for label, jobs, extra in (("local processes, 1 worker", 1, []), ("local processes, 2 workers", 2, []),
                               ("Dask LocalCluster, 1 worker", 1, ["--local-cluster"]),
                               ("Dask LocalCluster, 2 workers", 2, ["--local-cluster"])):
        runs[label] = timed_batch(root, jobs, extra, args.fast)
        print(f"{label:<30} {runs[label]:7.1f} s   {n / runs[label] * 60:6.1f} submissions/minute", flush=True)
    local1, local2 = runs["local processes, 1 worker"], runs["local processes, 2 workers"]
    dask1, dask2 = runs["Dask LocalCluster, 1 worker"], runs["Dask LocalCluster, 2 workers"]
    print(f"scaling 1 -> 2 workers: local processes x{local1 / local2:.2f}, Dask x{dask1 / dask2:.2f} "
          "(2 cores: 2.00 is the ceiling)")
    print(f"Dask LocalCluster against local processes, 2 workers: {local2 / dask2:.2f}x the throughput")
    core_seconds = local1 / n
    est = 1000 * core_seconds / 80 / 0.9  # 10 machines x 8 cores, 90% of the ideal scaling
    print(f"one submission takes {core_seconds:.1f} core-seconds; 1,000 submissions on 10 machines of 8 cores "
          f"(80 workers, at 90% efficiency): about {est:.0f} s ({est / 60:.1f} min)")
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
