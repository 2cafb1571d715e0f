"""The discard pile sells the first discarded train of each type, not every copy (RULES.md
§6.9 #1; 18xx.games ``Depot#depot_trains``: ``@discarded.uniq(&:name)``).

Found by the 18xx.games engine on the generated games (issue 33): three bought the later of
two discarded 5-trains (or 3-trains), which 18xx.games refuses as "Not a buyable train".
"""

from __future__ import annotations

from route18xx.engine.game.depot import Depot


def test_only_the_first_discarded_train_of_a_type_is_on_sale() -> None:
    depot = Depot(["D-3"], discarded=["5-1", "5-0", "6-0", "5-2"])
    assert depot.available() == ["D-3", "5-1", "6-0"]


def test_once_it_is_bought_the_next_discarded_copy_is_on_sale() -> None:
    depot = Depot(["D-3"], discarded=["5-1", "5-0"])
    depot.discarded.remove("5-1")
    assert depot.available() == ["D-3", "5-0"]


def test_a_discarded_copy_of_the_next_train_s_type_is_on_sale_beside_it() -> None:
    """The pile is unique by type within itself only, as 18xx.games lists it."""
    depot = Depot(["5-2", "6-0"], discarded=["5-0", "5-1"])
    assert depot.available() == ["5-2", "5-0"]
