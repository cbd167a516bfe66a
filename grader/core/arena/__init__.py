"""Games between players: a runner, a tournament and its statistics, for any game that offers an arena.

* ``game``: what the arena needs of a game (``ArenaGame``, a small contract like the engine's);
* ``players``: a player decides one move (a baseline bot on the trusted side, or a student's compiled
  player in the sandbox); ``Decision`` is its answer or why it forfeits;
* ``match``: one game, every move checked by the reference before it is applied;
* ``stats``: Wilson intervals, a sequential probability ratio test, openskill ratings;
* ``tournament``: duplicate seating over seeded decks, standings.
"""
