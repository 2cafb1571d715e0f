"""The audit of many game logs (issue 15): ``route18xx audit`` and ``route18xx generate-logs``.

* ``records``: one log → its JSON lines (a line per run, then one for the game).
* ``executors``: where the logs are audited: a local process pool, or a Dask cluster.
* ``runner``: the resumable audit loop (one append per game, a sorted file at the end).
* ``summary`` and ``report``: the figures of a results file, and the HTML page.
* ``generate``: a corpus of random legal games as 18xx.games logs.

The engine is reached only through ``route18xx.engine.api``.
"""
