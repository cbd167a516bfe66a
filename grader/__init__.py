"""The Final Card-Down grader: build -> sandbox -> differential -> report.

The pipeline, one module each: ``build`` (compile a submission), ``sandbox``
and ``worker`` (run it out of process), ``loader`` (the only cffi module, used
inside the worker), ``observe`` (what the API lets us see), ``reference_trace``
and ``differential`` (compare with the reference engine), ``session`` (one
submission, many games), ``grade`` (marks), ``report`` (JUnit, Gradescope,
HTML, CSV) and ``cli`` (``fcd-grade``).
"""
