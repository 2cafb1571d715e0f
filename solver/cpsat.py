"""A small CP-SAT model builder over ``cp_model_helper`` (issue 11 item 1).

``ortools.sat.python.cp_model`` imports numpy and pandas (about 300 ms of a
cold process, more than a whole solve); ``cp_model_helper`` holds the C++
model (``CpModelProto``, ``SolveWrapper``, ``SatParameters``) without them.
This builder writes the ``CpModelProto`` with the same conventions as
``cp_model.CpModel``:

* a Boolean variable is an ``IntegerVariableProto`` with domain [0, 1];
* a literal is an ``int``: the variable index, or ``-index - 1`` for its
  negation (``neg``);
* a linear constraint ``lb ≤ Σ c·x ≤ ub`` on positive references only (a
  negated literal ``¬x`` is written as ``1 - x``);
* maximising writes the negated coefficients with ``scaling_factor = -1``
  (CP-SAT minimises; the response's objective and bound come back in the
  caller's sense).

The route model uses nothing else, so the solver never loads numpy or pandas.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeAlias

from ortools.sat.python import cp_model_helper

#: A literal: a variable index (true when the variable is 1), or ``-index - 1``.
Lit: TypeAlias = int

INT_MIN = -(2**63) + 1  # the proto's open interval ends, as Domain uses them
INT_MAX = 2**63 - 1


def neg(lit: Lit) -> Lit:
    """The negation of a literal."""
    return -lit - 1


def var_of(lit: Lit) -> int:
    """The variable of a literal."""
    return lit if lit >= 0 else -lit - 1


class CpBuilder:
    """Writes variables and constraints straight into a ``CpModelProto``."""

    def __init__(self) -> None:
        self.proto = cp_model_helper.CpModelProto()
        self._variables = self.proto.variables
        self._constraints = self.proto.constraints
        self.variable_count = 0

    def new_int(self, lb: int, ub: int) -> int:
        """A new integer variable with domain [lb, ub]; returns its index."""
        self._variables.add().domain.extend((lb, ub))
        self.variable_count += 1
        return self.variable_count - 1

    def new_bool(self) -> Lit:
        """A new Boolean variable; returns its (positive) literal."""
        return self.new_int(0, 1)

    def new_bools(self, count: int) -> list[Lit]:
        """``count`` new Boolean variables, in index order."""
        add = self._variables.add
        for _ in range(count):
            add().domain.extend((0, 1))
        first = self.variable_count
        self.variable_count += count
        return list(range(first, self.variable_count))

    def add_linear(
        self,
        terms: Iterable[tuple[Lit, int]],
        lb: int = INT_MIN,
        ub: int = INT_MAX,
    ) -> None:
        """``lb ≤ Σ coeff·lit ≤ ub`` over literals (a negated one counts as 1 - x)."""
        variables: dict[int, int] = {}
        offset = 0
        for lit, coeff in terms:
            if coeff == 0:
                continue
            if lit < 0:  # c·¬x = c - c·x
                offset += coeff
                lit, coeff = -lit - 1, -coeff
            variables[lit] = variables.get(lit, 0) + coeff
        linear = self._constraints.add().linear
        linear.vars.extend(variables.keys())
        linear.coeffs.extend(variables.values())
        linear.domain.extend((lb if lb == INT_MIN else lb - offset,
                              ub if ub == INT_MAX else ub - offset))

    def add_sum(self, lits: Sequence[Lit], lb: int = INT_MIN, ub: int = INT_MAX) -> None:
        """``lb ≤ Σ lits ≤ ub``."""
        self.add_linear(((lit, 1) for lit in lits), lb, ub)

    def add_bool_or(self, lits: Iterable[Lit]) -> None:
        """At least one of ``lits`` is true."""
        self._constraints.add().bool_or.literals.extend(lits)

    def add_at_most_one(self, lits: Iterable[Lit]) -> None:
        """At most one of ``lits`` is true."""
        self._constraints.add().at_most_one.literals.extend(lits)

    def add_circuit(self, tails: Sequence[int], heads: Sequence[int], lits: Sequence[Lit]) -> None:
        """``AddCircuit`` over the arcs (tails[i] → heads[i], literal lits[i])."""
        circuit = self._constraints.add().circuit
        circuit.tails.extend(tails)
        circuit.heads.extend(heads)
        circuit.literals.extend(lits)

    def maximize(self, variables: Sequence[int], coeffs: Sequence[int]) -> None:
        """Maximise Σ coeff·var over positive variable indices (as ``CpModel.maximize``)."""
        objective = self.proto.objective
        objective.vars.extend(variables)
        objective.coeffs.extend(-c for c in coeffs)
        objective.scaling_factor = -1.0
        objective.offset = 0.0

    def add_hint(self, values: Sequence[tuple[int, int]]) -> None:
        """A solution hint: (variable index, value) pairs."""
        hint = self.proto.solution_hint
        hint.vars.extend(v for v, _ in values)
        hint.values.extend(x for _, x in values)


def parameters() -> cp_model_helper.SatParameters:
    """A fresh ``SatParameters`` (CP-SAT's defaults)."""
    return cp_model_helper.SatParameters()
