"""Amounts of money as a title writes them (issue 25: ¥ for 1888, $ for 1830).

The sign is a fact of the title's data (``GameData.currency_format``, the 18xx.games
``CURRENCY_FORMAT_STR`` in ``players.json``), never an ``if`` on the title: every text
and picture that shows money formats it here.

>>> money(40, "¥%s"), money(-20, "$%s"), signed_money(20, "$%s"), signed_money(0, "¥%s")
('¥40', '−$20', '+$20', '¥0')
"""

from __future__ import annotations

#: The minus sign of a negative amount (U+2212, as the page and the legend write it).
MINUS = "\u2212"


def money(amount: int, currency_format: str) -> str:
    """``amount`` in the title's currency: ``$40``; a negative one ``−$20``."""
    text = currency_format.replace("%s", str(abs(amount)))
    return MINUS + text if amount < 0 else text


def signed_money(amount: int, currency_format: str) -> str:
    """A difference: ``+$20``, ``−$20`` or ``$0``."""
    return ("+" if amount > 0 else "") + money(amount, currency_format)


__all__ = ["MINUS", "money", "signed_money"]
