"""The bank: pays and receives money; it can run dry and go on paying (RULES.md §2.2, §11.1)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Bank:
    """Cash held by the bank. ``broken`` turns true the first time a payment overdraws it.

    RULES.md §11.1: the bank is broken as soon as it has to pay more than it
    holds; payments go on from a negative balance and the game ends after the
    current set of operating rounds.
    """

    cash: int
    broken: bool = False

    def pay(self, amount: int) -> None:
        """Pay ``amount`` out of the bank (the caller credits the receiver)."""
        if amount > self.cash:
            self.broken = True
        self.cash -= amount

    def receive(self, amount: int) -> None:
        self.cash += amount
