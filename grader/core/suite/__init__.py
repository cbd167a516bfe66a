"""Grading a student's own test program (``testGame.c``): is it valid, and how many real bugs does it catch?

* ``targets``: what it is run against (a game's model, accepted readings and mutants);
* ``run``: build it with one implementation and run it, sandboxed (``c/``: the grader's ``<assert.h>``
  and the recorder linked with it);
* ``judge``: validity, thoroughness, marks: ``SuiteResult``.

``stage.grade_tests`` is the stage: every pairing in parallel, the model twice (is the program repeatable?),
and the student's own implementation for their information.
"""
