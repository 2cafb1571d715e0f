"""Issue 25: money is written as each title writes it, a fact of its data.

Witness: 18xx.games' ``CURRENCY_FORMAT_STR`` (g_1888/game.rb ``'¥%s'``, g_1830/game.rb
``'$%s'``), typed here by hand.
"""

from __future__ import annotations

import pytest

from route18xx.engine.api import money, signed_money
from route18xx.engine.titles import title_named


@pytest.mark.parametrize("title, forty, minus_twenty", [
    ("1888", "¥40", "−¥20"), ("1830", "$40", "−$20"),
])
def test_each_title_writes_money_in_its_own_currency(title: str, forty: str, minus_twenty: str) -> None:
    fmt = title_named(title).currency_format
    assert money(40, fmt) == forty and money(-20, fmt) == minus_twenty
    assert signed_money(40, fmt) == "+" + forty and signed_money(0, fmt) == forty.replace("40", "0")


def test_a_format_with_the_sign_after_the_number() -> None:
    """The format is the site's, ``%s`` standing for the number (e.g. ``'%s F'``)."""
    assert money(1200, "%s F") == "1200 F" and signed_money(-5, "%s F") == "−5 F"
