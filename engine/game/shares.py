"""Who holds each share certificate of one corporation (RULES.md §2.5, §5.6-§5.8).

Certificates are the physical ``<SYM>_<n>`` ids of the log (ACTIONS.md §4.4):
``_0`` is the 20 % president's certificate, ``_1`` … ``_8`` are 10 % shares.
An owner is a player id, ``IPO`` (the corporation's unsold pile) or ``POOL``
(the bank pool). Each owner's certificates are kept in the order they were
acquired: a presidency swap hands over the new president's *first* shares,
as the 18xx.games engine does, and later log actions name certificates by id.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeAlias

IPO = "ipo"
POOL = "pool"
Owner: TypeAlias = int | str


def cert_percent(cert: str) -> int:
    """20 for the president's certificate ``<SYM>_0``, else 10."""
    return 20 if cert.endswith("_0") else 10


def is_president_cert(cert: str) -> bool:
    return cert.endswith("_0")


@dataclass
class ShareRegister:
    """The certificates of one corporation and their owners, in acquisition order."""

    corp: str
    holdings: dict[Owner, list[str]] = field(default_factory=dict)

    @classmethod
    def fresh(cls, corp: str, certs: Iterable[str]) -> ShareRegister:
        return cls(corp, {IPO: list(certs)})

    def owner_of(self, cert: str) -> Owner | None:
        for owner, certs in self.holdings.items():
            if cert in certs:
                return owner
        return None

    def certs_of(self, owner: Owner) -> list[str]:
        return list(self.holdings.get(owner, ()))

    def percent_of(self, owner: Owner) -> int:
        return sum(cert_percent(c) for c in self.holdings.get(owner, ()))

    def move(self, cert: str, to: Owner) -> None:
        owner = self.owner_of(cert)
        if owner is not None:
            self.holdings[owner].remove(cert)
        self.holdings.setdefault(to, []).append(cert)

    @property
    def president(self) -> int | None:
        owner = self.owner_of(f"{self.corp}_0")
        return owner if isinstance(owner, int) else None

    def player_percents(self) -> dict[int, int]:
        """Percent held by every player holding any share (RULES.md §5.8 presidency)."""
        return {o: self.percent_of(o) for o, certs in self.holdings.items() if isinstance(o, int) and certs}

    def players_percent(self) -> int:
        return sum(self.player_percents().values())

    def total_percent(self) -> int:
        return sum(self.percent_of(o) for o in self.holdings)
