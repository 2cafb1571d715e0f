"""A small CP-SAT model builder on OR-Tools' C++ helper layer (issue 11, items 3 and 4).

``ortools.sat.python.cp_model`` imports numpy and pandas (~0.3 s of a cold
process) and wraps every variable and constraint in Python objects. This solver
needs a handful of constraint kinds, so it writes them straight into a
``CpModelProto`` of ``ortools.sat.python.cp_model_helper``: the model is kept as
text-format lines and parsed once by the C++ side (measured cheaper than adding
proto fields one call at a time, and several times cheaper than ``CpModel``).

Literals are plain ``int`` references as CP-SAT numbers them: variable ``i`` is
``i`` and its negation ``~i`` (``-i - 1``), so Python's ``~`` negates a literal.
Variable names are written only with ``named=True`` (debugging, tests).
OR-Tools itself is imported only by ``proto()``: a solve that listing decides
(one limited train) never loads it (~0.1 s of a cold process).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # OR-Tools loads only when a model is solved (``proto``)
    from ortools.sat.python import cp_model_helper as cmh

Lit: TypeAlias = int

#: CP-SAT's objective is minimised; maximising writes negated coefficients and
#: a scaling factor of -1 (as ``CpModel.maximize`` does).
_MAX = "scaling_factor: -1"


def _ints(values: Sequence[int]) -> str:
    return ", ".join(map(str, values))


class Model:
    """A CP-SAT model under construction; ``proto()`` parses it into a ``CpModelProto``."""

    __slots__ = ("named", "_variables", "_constraints", "_objective", "_hint")

    def __init__(self, named: bool = False) -> None:
        self.named = named
        self._variables: list[str] = []
        self._constraints: list[str] = []
        self._objective = ""
        self._hint = ""

    @property
    def variable_count(self) -> int:
        return len(self._variables)

    @property
    def constraint_count(self) -> int:
        return len(self._constraints)

    def new_bool_var(self, name: str = "") -> Lit:
        return self.new_int_var(0, 1, name)

    def new_bool_vars(self, count: int) -> list[Lit]:
        """``count`` anonymous Boolean variables at once."""
        start = len(self._variables)
        self._variables += ["variables { domain: [0, 1] }"] * count
        return list(range(start, start + count))

    def new_int_var(self, lo: int, hi: int, name: str = "") -> Lit:
        index = len(self._variables)
        if self.named and name:
            escaped = name.replace("\\", "\\\\").replace('"', '\\"')
            self._variables.append(f'variables {{ name: "{escaped}" domain: [{lo}, {hi}] }}')
        else:
            self._variables.append(f"variables {{ domain: [{lo}, {hi}] }}")
        return index

    @staticmethod
    def _positive(lits: Sequence[Lit], coeffs: Sequence[int]) -> tuple[list[int], list[int], int]:
        """Rewrite c·¬x as c - c·x: (positive variables, coefficients, constant)."""
        variables, out, constant = [], [], 0
        for lit, c in zip(lits, coeffs):
            if lit >= 0:
                variables.append(lit)
                out.append(c)
            else:
                variables.append(~lit)
                out.append(-c)
                constant += c
        return variables, out, constant

    def add_linear(self, lits: Sequence[Lit], coeffs: Sequence[int], lo: int, hi: int) -> None:
        """lo ≤ Σ coeffs·lits ≤ hi (a negated literal counts 1 when its variable is 0)."""
        variables, out, constant = self._positive(lits, coeffs)
        self._constraints.append(
            f"constraints {{ linear {{ vars: [{_ints(variables)}] coeffs: [{_ints(out)}] "
            f"domain: [{lo - constant}, {hi - constant}] }} }}"
        )

    def add_at_most_one(self, lits: Sequence[Lit]) -> None:
        self._constraints.append(f"constraints {{ at_most_one {{ literals: [{_ints(lits)}] }} }}")

    def add_bool_or(self, lits: Sequence[Lit]) -> None:
        self._constraints.append(f"constraints {{ bool_or {{ literals: [{_ints(lits)}] }} }}")

    def add_circuit(self, arcs: Sequence[tuple[int, int, Lit]]) -> None:
        """``AddCircuit``: arcs (tail, head, literal); a self-loop's literal skips its node."""
        tails = _ints([a[0] for a in arcs])
        heads = _ints([a[1] for a in arcs])
        lits = _ints([a[2] for a in arcs])
        self._constraints.append(
            f"constraints {{ circuit {{ tails: [{tails}] heads: [{heads}] literals: [{lits}] }} }}"
        )

    def maximize(self, lits: Sequence[Lit], coeffs: Sequence[int]) -> None:
        variables, out, constant = self._positive(lits, coeffs)
        negated = _ints([-c for c in out])
        self._objective = (
            f"objective {{ vars: [{_ints(variables)}] coeffs: [{negated}] "
            f"offset: {-constant} {_MAX} }}"
        )

    def hint(self, values: dict[int, int]) -> None:
        """A first solution for the search: variable index → value."""
        keys = sorted(values)
        self._hint = (
            f"solution_hint {{ vars: [{_ints(keys)}] values: [{_ints([values[k] for k in keys])}] }}"
        )

    def proto(self) -> cmh.CpModelProto:
        from ortools.sat.python import cp_model_helper

        proto = cp_model_helper.CpModelProto()
        text = "\n".join([*self._variables, *self._constraints, self._objective, self._hint])
        if not proto.parse_text_format(text):
            raise AssertionError("the route model did not parse (a solver bug)")
        return proto
