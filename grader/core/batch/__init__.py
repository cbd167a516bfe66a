"""``fcd-grade batch``: a whole class, in parallel on this machine or on a Dask cluster, resumable.

The pipeline, one module a step: ``submissions`` (find and unpack the class),
``store`` (results by content: sources, grader version, marking), ``task``
(one submission graded on a worker, as values in and out), ``requirements``
and ``dask_worker`` (what a worker machine must have, checked before it
grades), ``executors`` (local processes or Dask), ``progress`` (what the
terminal shows) and ``run`` (the command itself).
"""

from grader.core.batch.run import run_batch

__all__ = ["run_batch"]
