"""What a solve maximises and how trains are modelled: the names a caller may pass.

Plain Python (no OR-Tools), so the engine and the front ends can name and check
them without loading the model.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

#: ``total``: revenue plus the mine subsidy (the company's whole income);
#: ``revenue``: the dividend part only (DESIGN.md §3 objective).
Objective: TypeAlias = Literal["total", "revenue"]
OBJECTIVES: tuple[Objective, ...] = ("total", "revenue")
Method: TypeAlias = Literal["auto", "circuit"]
METHODS: tuple[Method, ...] = ("auto", "circuit")
