"""Shapes the replay checkpoints of ``dump.rb`` (placeholder)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def checkpoints_json(raw: Mapping[str, Any], title_input: Mapping[str, Any]) -> dict[str, Any]:
    return dict(raw.get("fixtures") or {})
