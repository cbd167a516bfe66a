"""Similar submissions: a code-similarity check for staff (``fcd-grade similarity``, ``fcd-grade batch
--similarity``), never shown to students.

The engine is copydetect (MOSS's winnowing over Pygments tokens, names normalised); the modules, one step
each: ``documents`` (what of a submission is compared, and the course's boilerplate), ``fingerprint``
(copydetect's normalising and winnowing, with a hash that is the same in every process), ``compare`` (an
index of fingerprints, so only pairs that share one are scored; the matched regions of a pair),
``store`` (fingerprints and scores by content, so a rerun scores only new pairs), ``check`` (a class
checked), ``pages`` and ``report`` (the side-by-side pages, ``similarity.csv``, the dashboard's section),
``settings`` (``[similarity]`` of the marking configuration), ``run`` and ``cli`` (the commands).
"""
