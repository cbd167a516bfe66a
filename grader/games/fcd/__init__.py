"""The Final Card-Down family: the pipeline every edition shares, taking its edition as a value.

Not a registered game: ``grader.games.fcd18s2`` (2018) and ``grader.games.fcd17s2`` (2017) are, each a
thin package of values (its interface, observation table, ``Edition``, scenarios, ``marking.toml``, C
dialect) over this one.  Nothing here names an edition or defaults to one; nothing here imports an
edition's package.  Imported inside the sandbox too (the editions' ``play`` jobs run ``play``, ``loader``
and ``observe``), so this file imports nothing.
"""
