"""The cold path (issue 11 item 1): a solve never loads numpy or pandas.

``ortools.sat.python.cp_model`` imports both (about 300 ms of a cold
process); the solver builds its model through ``cp_model_helper`` only
(``solver/cpsat.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

STATE = Path(__file__).resolve().parent.parent / "data" / "states" / "129026-728.json"

SCRIPT = """
import json, sys
import route18xx.engine.api as api
state = json.loads(open(sys.argv[1], encoding="utf-8").read())["state"]
report = api.solve_routes(state)
heavy = sorted(m for m in ("pandas", "numpy") if m in sys.modules)
print(json.dumps({"heavy": heavy, "revenue": report["revenue"], "status": report["status"]}))
"""


def test_engine_api_solve_loads_neither_pandas_nor_numpy() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(STATE)],
        capture_output=True, text=True, check=True, timeout=120,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["status"] == "OPTIMAL"
    assert result["revenue"] > 0
    assert result["heavy"] == []
