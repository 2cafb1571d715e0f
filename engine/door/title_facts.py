"""What the engine's API says about its titles (``engine.api``, DESIGN.md §5, §9, §10): the
titles and rule sets served, those replayed at game level, how each writes money, which pay
subsidies, a title's name from an alias, and the older state-file fields titles keep."""

from __future__ import annotations

from route18xx.engine.titles import TITLES


def titles_served() -> dict[str, tuple[str, ...]]:
    """The titles a state file may name, each with its rule sets (DESIGN.md §5 ``title``, ``rule_set``).

    >>> titles_served()["1888"]
    ('north', 'prototype')
    >>> sorted(titles_served())
    ['1830', '1856', '1882', '1888', '1889', '18Chesapeake']
    """
    return {t.name: tuple(t.rule_sets) for t in TITLES.values()}


def titles_replayed() -> list[str]:
    """The titles whose game logs the engine replays: every step of their operating turn is
    one the engine has and nothing else is missing at game level (``Title.game_level_missing``;
    DESIGN.md §10 "Titles at two levels"; the others are played at route level only,
    ``RouteLevelOnly``).

    >>> titles_replayed()
    ['1830', '1888', '1889']
    """
    from route18xx.engine.game.operating_round import OPERATING_STEPS

    return sorted(t.name for t in TITLES.values()
                  if set(t.operating_steps) <= set(OPERATING_STEPS) and t.game_level_missing is None)


def currency_formats() -> dict[str, str]:
    """How each title writes money, ``%s`` for the number (its data's ``currency_format``).

    >>> currency_formats()
    {'1888': '¥%s', '1830': '$%s', '1889': '¥%s', '18Chesapeake': '$%s', '1882': '$%s', '1856': '$%s'}
    """
    return {t.name: t.currency_format for t in TITLES.values()}


def subsidy_titles() -> dict[str, bool]:
    """Whether each title pays stop subsidies to the treasury (1888's mine, ROUTES.md §5.3;
    1830 has none): a fact of its data (``stop_subsidies``). Without subsidies the
    income objective and the revenue objective are the same, and no treasury is lost.

    >>> subsidy_titles()
    {'1888': True, '1830': False, '1889': False, '18Chesapeake': False, '1882': False, '1856': False}
    """
    return {t.name: bool(t.data.stop_subsidies) for t in TITLES.values()}


def served_title(name: object, field: str = "title") -> str:
    """The name of the title ``name`` is (an alias such as ``1888N`` included);
    ``MalformedInput`` naming ``field`` and the titles there are otherwise."""
    from route18xx.engine.titles import title_named

    return title_named(name, field).name


def blockers_aliases() -> tuple[str, ...]:
    """The older state-file fields titles keep for ``player_owned_blockers`` (each a
    bool, ``Title.blockers_alias``); the wire's ``State`` carries each as its own field."""
    return tuple(t.blockers_alias for t in TITLES.values() if t.blockers_alias is not None)
