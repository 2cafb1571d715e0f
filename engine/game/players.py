"""Players: seat, cash and bankruptcy (RULES.md §2.1, §2.3, §6.10)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Player:
    """A seat at the table. ``id`` is the 18xx.games user id the log uses as entity."""

    id: int
    name: str
    cash: int = 0
    bankrupt: bool = False
