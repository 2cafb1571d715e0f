"""A board picture from a state: which routes to show (optimal, recorded, both, none),
a suggested move to point at, and the legend's figures.

``render_svg`` is what the command line (``route18xx draw``) and the service
(``RenderBoard``) call; both therefore answer the same text for the same input.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from route18xx.draw.picture import Highlight, LegendLine, Names, Picture, picture
from route18xx.draw.routes import ROUTE_COLORS, DrawnRoute, lane_offsets
from route18xx.engine import api
from route18xx.engine.api import MalformedInput, money, signed_money

MODES = ("optimal", "recorded", "both", "none")


def _route_colors(sets: Sequence[tuple[str, Sequence[api.RouteWalk]]]) -> dict[tuple[str, str], str]:
    """One colour per drawn train: each set's trains take the next colours of the palette."""
    colors: dict[tuple[str, str], str] = {}
    for kind, walks in sets:
        for w in walks:
            colors.setdefault((kind, w.train), ROUTE_COLORS[len(colors) % len(ROUTE_COLORS)])
    return colors


def _figures(kind: str, walks: Sequence[api.RouteWalk]) -> tuple[int, int]:
    return sum(w.revenue for w in walks), sum(w.subsidy for w in walks)


def _route_line(kind: str, r: DrawnRoute, fmt: str, names: Names) -> LegendLine:
    """A route's legend line, its train by its one name ("optimal 3-train #2: …")."""
    w = r.walk
    train = names.train(w.train)
    if not w.legal:
        reason = w.violations[0] if w.violations else "illegal"
        return LegendLine(f"{kind} {train}: illegal — {reason}", r)
    parts = [f"{kind} {train}: {len(w.stops)} stops {money(w.revenue - w.bonus, fmt)}"]
    if w.bonus:
        parts.append(f" + {w.bonus_name} {money(w.bonus, fmt)}")
    parts.append(f" = revenue {money(w.revenue, fmt)}")
    if w.subsidy:
        parts.append(f"; mine subsidy {money(w.subsidy, fmt)} to the treasury; "
                     f"income {money(w.revenue + w.subsidy, fmt)}")
    return LegendLine("".join(parts), r)


def _signed(amount: int, fmt: str) -> str:
    return ("+" if amount == 0 else "") + signed_money(amount, fmt)


#: The words of the legend, as every front end uses them (issue 22).
VOCABULARY = ("revenue: paid out as dividend (destination bonus included); subsidy: the mine's "
              "payment to the treasury; income: revenue + subsidy")


def vocabulary(view: api.BoardView) -> str:
    """The legend's words for the title drawn: 1888's ``VOCABULARY``; a title without
    destinations or stop subsidies in its data (1830) names neither (issue 25)."""
    bonus = any(c.destination_hex for c in view.corporations.values())
    if bonus and view.mine_hex is not None:
        return VOCABULARY
    revenue = "revenue: paid out as dividend" + (" (destination bonus included)" if bonus else "")
    if view.mine_hex is None:  # income is revenue: one name for it (issue 34)
        return revenue
    return revenue + "; subsidy: the mine's payment to the treasury; income: revenue + subsidy"


def build_picture(
    state: api.RouteState | Mapping[str, Any],
    sets: Sequence[tuple[str, Sequence[api.RouteWalk]]],
    *,
    highlight: Highlight | None = None,
    subtitle: str = "",
) -> Picture:
    """Assemble the picture of a state with named sets of walked routes (pure drawing input)."""
    view = api.board_view(state)
    fmt = view.currency_format
    names = Names(api.stop_names(state), tuple(api.company_trains(state)))
    for _, walks in sets:  # a drawn train the company does not list keeps a name too
        known = dict(names.trains)
        extra = [(w.train, names.train(w.train)) for w in walks if w.train not in known]
        if extra:
            names = Names(names.stops, (*names.trains, *extra))
    all_walks = [w for _, walks in sets for w in walks]
    colors = _route_colors(sets)
    offsets = lane_offsets(len(all_walks))
    drawn: list[DrawnRoute] = []
    legend: list[LegendLine] = []
    i = 0
    totals: dict[str, tuple[int, int]] = {}
    for kind, walks in sets:
        revenue, subsidy = _figures(kind, walks)
        totals[kind] = (revenue, subsidy)
        for w in walks:
            r = DrawnRoute(kind, w, colors[(kind, w.train)], offsets[i])
            i += 1
            drawn.append(r)
            legend.append(_route_line(kind, r, fmt, names))
        legal = all(w.legal for w in walks)
        parts = (f"{kind} income: {money(revenue + subsidy, fmt)} (revenue {money(revenue, fmt)} "
                 f"+ subsidy {money(subsidy, fmt)})" if view.mine_hex is not None
                 else f"{kind} revenue: {money(revenue, fmt)}")  # no subsidy in the title
        legend.append(LegendLine(
            parts + ("" if legal else f" — illegal routes count {money(0, fmt)}"), bold=True))
    if "optimal" in totals and "recorded" in totals:
        (opt_rev, opt_sub), (rec_rev, rec_sub) = totals["optimal"], totals["recorded"]
        diff = opt_rev + opt_sub - rec_rev - rec_sub
        split = (f"income (dividend {_signed(opt_rev - rec_rev, fmt)}, treasury "
                 f"{_signed(opt_sub - rec_sub, fmt)})" if view.mine_hex is not None
                 else "revenue")  # no treasury to split off in the title
        legend.append(LegendLine(
            f"optimal − recorded: {_signed(diff, fmt)} {split}  (solid: optimal, dashed: recorded)",
            bold=True))
    if sets:
        legend.append(LegendLine(vocabulary(view)))
    if highlight is not None:
        legend.append(LegendLine(f"suggested: {highlight.caption} (gain {_signed(highlight.gain, fmt)})",
                                 bold=True))
    return Picture(view, tuple(drawn), tuple(legend), highlight, subtitle, names=names)


def _suggestion_highlight(suggestion: api.Suggestion, fmt: str, figure: str = "income") -> Highlight:
    """The suggestion's caption; ``figure`` names what it earns ("revenue" in a title
    without subsidies, where income is revenue)."""
    move = suggestion.move
    if move.text:  # the move in words (issue 22): the exits it connects, not a rotation index
        caption = move.text
    elif move.kind == "token":
        caption = f"token on {move.hex} city {move.city}"
    else:
        caption = f"tile {move.tile} on {move.hex} rotation {move.rotation}"
    if suggestion.then_token is not None:
        caption += f", then {suggestion.then_token.text or 'a token on ' + suggestion.then_token.hex}"
    caption += f", {figure} {money(suggestion.income, fmt)}"
    return Highlight(move.hex, caption, suggestion.gain)


def render_svg(
    state_raw: api.RouteState | Mapping[str, Any],
    *,
    routes: str = "optimal",
    recorded: Any = None,
    suggestion: api.Suggestion | None = None,
    time_limit_s: float = 10.0,
    cancel: Any = None,
) -> str:
    """The board of a state with its routes as SVG text.

    ``routes``: ``optimal`` (solved here), ``recorded`` (``recorded``, a run_routes
    ``routes`` array, required), ``both`` (overlaid: the recorded dashed, the
    income difference in the legend) or ``none``. ``suggestion`` (a move of
    ``engine.api.suggest_moves``' ``Suggestion``: its move, income and gain) is laid
    on the board and highlighted; its optimal routes are the ones drawn.
    ``MalformedInput`` for a bad mode, a missing or unreadable routes array.
    """
    if routes not in MODES:
        raise MalformedInput("routes", f"unknown mode {routes!r}; expected one of {list(MODES)}")
    if routes in ("recorded", "both") and recorded is None:
        raise MalformedInput("routes", f"mode {routes!r} needs the recorded routes")
    state = api.read_state(state_raw)
    highlight = None
    if suggestion is not None:
        highlight = _suggestion_highlight(suggestion, state.data.currency_format,
                                          "income" if state.data.stop_subsidies else "revenue")
        state = api.state_with_move(state, suggestion.move)
        if suggestion.then_token is not None:
            state = api.state_with_move(state, suggestion.then_token)
    sets: list[tuple[str, Sequence[api.RouteWalk]]] = []
    if routes in ("recorded", "both"):
        sets.append(("recorded", api.route_walks(state, recorded)))
    if routes in ("optimal", "both"):
        kwargs: dict[str, Any] = {"time_limit_s": time_limit_s}
        if cancel is not None:
            kwargs["cancel"] = cancel
        report = api.solve_routes(state, **kwargs)
        sets.append(("optimal", api.route_walks(state, report["routes"])))
    if routes == "both":
        sets.reverse()  # optimal first: solid under dashed
    return picture(build_picture(state, sets, highlight=highlight))
