"""The cold path (issue 11, item 4): solving loads neither numpy nor pandas.

OR-Tools' ``cp_model`` module imports both (~0.3 s of a fresh process); the
solver builds its model on ``cp_model_helper`` (``solver/model/cpsat.py``) instead.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

STATE = Path(__file__).resolve().parents[1] / "data" / "states" / "129026-743.json"


def test_a_solve_in_a_fresh_process_loads_neither_numpy_nor_pandas() -> None:
    code = (
        "import json, sys\n"
        "import route18xx.engine.api as api\n"
        f"report = api.solve_routes(json.load(open({str(STATE)!r})))\n"
        "assert report['status'] == 'OPTIMAL', report['status']\n"
        "print(sorted(m for m in ('numpy', 'pandas') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
