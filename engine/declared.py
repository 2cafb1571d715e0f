"""Declared answers (issue 32 item 4): a report is a type, and its JSON is the declaration's.

Every report the engine answers with (``SolveReport``, ``CheckReport``, ``SuggestReport``,
``TurnReport``, ``ReplayReport``, …) and every part of one is a frozen msgspec ``Struct``
deriving from ``Declared``. Its JSON object is derived from the declaration, never written
by hand: the fields are the keys, in their declared order; ``msgspec.field(name=…)`` spells
a key otherwise than its field; a Struct declared ``omit_defaults`` leaves out a key whose
field holds its default (e.g. a route's ``breakdown`` when there is none); a field that is
itself declared (a Struct, or a dataclass such as ``solver.SolveStats``) nests its object.

msgspec rather than pydantic by measurement (``benchmarks/bench_report_types.py``): on the
real solve answers it reads a dict 2.7x, encodes 4x and builds a report 2.8x as fast.
"""

from __future__ import annotations

from typing import Any, Mapping, Self

import msgspec

_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder()


class Declared(msgspec.Struct, frozen=True):
    """A declared report or part of one: ``to_json`` and ``from_json`` for every one of them."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``--json`` prints: exactly what ``json.loads`` gives back of this
        value's JSON text (arrays are lists, a float keeps its value; msgspec writes the
        shortest text that reads back as the same float)."""
        out: dict[str, Any] = _DECODER.decode(_ENCODER.encode(self))
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Self:
        """The report of a JSON object (a remote answer, or what an injected engine function
        returns): keys absent take their field's default, unknown keys are ignored, a value
        of the wrong type is ``msgspec.ValidationError``."""
        return msgspec.convert(raw, cls)


__all__ = ["Declared"]
