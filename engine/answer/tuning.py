"""The solver tuning every engine solve passes (issue 32: one ``SolveOptions`` value).

The defaults and the measurements that set them live with the solver
(``solver/tuning.py``); the engine passes this one value to ``solve`` and ``solve_both``,
read at each call, so a test or a benchmark changes the tuning of every answer in one
place (``monkeypatch.setattr(tuning, "SOLVE_OPTIONS", replace(...))``).
"""

from __future__ import annotations

from route18xx.solver import DEFAULT_OPTIONS, SolveOptions

#: What the engine's solves use: the solver's defaults.
SOLVE_OPTIONS: SolveOptions = DEFAULT_OPTIONS
