"""The best packing of listed routes, when it is the only one (issue 11).

With every train listed (``model.ListedGroup``), the model is a set packing:
each train runs at most one of its group's routes, no two chosen routes share
track, maximise the total weight. On real boards the lists are short (10-100
routes per distance) and CP-SAT's fixed cost (0.4-1.5 ms) dominates. This
depth-first search finds the optimum exactly, and counts the packings that
reach it: when exactly one does, every optimal solution of the model is that
packing, so CP-SAT would return it too, and the answer is the same routes.
When several packings tie, or the search runs past its step budget, it gives
up (None) and CP-SAT decides as before.

A packing is a multiset of routes per group, enumerated once: a group's routes
are chosen in decreasing weight order (list order among equal weights), idle
trains last. A branch is cut when even the best remaining routes of its slots
could not reach the best total found, and only strictly below it while a tie
must still be counted (once the best is tied, only a better one matters).
"""

from __future__ import annotations

from collections.abc import Sequence

from route18xx.solver.listing.routes import ListedRoute
from route18xx.solver.tuning import DEFAULT_OPTIONS

def unique_best_packing(
    groups: Sequence[tuple[int, Sequence[ListedRoute], Sequence[int]]],
    max_steps: int = DEFAULT_OPTIONS.packing_steps,
) -> list[list[int]] | None:
    """Per group, the route indices of the only best packing; None if it is not unique.

    ``groups`` holds (number of trains, routes, weights > 0) per group. Also
    None when some route has no track (several trains may run it) or the
    search runs past ``max_steps``.
    """
    found = best_packing(groups, max_steps)
    return None if found is None else found[1]


def best_packing(
    groups: Sequence[tuple[int, Sequence[ListedRoute], Sequence[int]]],
    max_steps: int = DEFAULT_OPTIONS.packing_steps,
    unique: bool = True,
) -> tuple[int, list[list[int]] | None] | None:
    """The best packing's weight and its route indices per group; None when some route
    has no track or the search runs past ``max_steps``.

    The search is exhaustive within its steps, so the weight is proven. With
    ``unique`` the packing comes back only when no other reaches its weight (the
    one CP-SAT would return: ``unique_best_packing``); without, the first best
    packing in the search's order (issue 21: a tie among optima is settled here,
    deterministically, instead of by a CP-SAT search; branches that can only tie
    are cut, so it is also the quicker search)."""
    slots: list[tuple[int, int]] = []  # (group, rank of the train within its group)
    orders: list[list[int]] = []
    masks: list[list[int]] = []
    for g, (count, routes, weights) in enumerate(groups):
        if any(not r.track for r in routes):
            return None
        order = sorted(range(len(routes)), key=lambda r: (-weights[r], r))
        orders.append(order)
        masks.append([_mask(routes[r].track) for r in order])
        slots += [(g, rank) for rank in range(min(count, len(routes)))]
    ranked = [[groups[g][2][r] for r in order] for g, order in enumerate(orders)]
    # tail[i]: the most slots i.. could add (each slot's rank-th best weight of its group).
    tail = [0] * (len(slots) + 1)
    for i in range(len(slots) - 1, -1, -1):
        g, rank = slots[i]
        tail[i] = tail[i + 1] + ranked[g][rank]

    best = -1
    ties = 0
    chosen: list[tuple[int, int]] = []  # (group, position in its order)
    best_chosen: list[tuple[int, int]] = []
    budget = max_steps

    def search(i: int, used: int, total: int, start: int) -> bool:
        nonlocal best, ties, best_chosen, budget
        budget -= 1
        if budget < 0:
            return False
        if i == len(slots):
            if total > best:
                best, ties, best_chosen = total, 1, list(chosen)
            elif total == best:
                ties += 1
            return True
        if total + tail[i] < best + (ties > 1 or not unique):
            return True  # cannot tie the best packing (nor beat it, once it is tied)
        g = slots[i][0]
        same = i + 1 < len(slots) and slots[i + 1][0] == g
        weights, group_masks = ranked[g], masks[g]
        for pos in range(start, len(weights)):
            if total + weights[pos] + tail[i + 1] < best + (ties > 1 or not unique):
                break  # the rest of the group weighs no more
            if used & group_masks[pos]:
                continue
            chosen.append((g, pos))
            ok = search(i + 1, used | group_masks[pos], total + weights[pos],
                        pos + 1 if same else 0)
            chosen.pop()
            if not ok:
                return False
        # This train idle, and the group's later trains too.
        nxt = i + 1
        while nxt < len(slots) and slots[nxt][0] == g:
            nxt += 1
        return search(nxt, used, total, 0)

    if not search(0, 0, 0, 0):
        return None
    if unique and ties != 1:
        return max(best, 0), None
    out: list[list[int]] = [[] for _ in groups]
    for g, pos in best_chosen:
        out[g].append(orders[g][pos])
    return best, out


def _mask(keys: Sequence[int]) -> int:
    mask = 0
    for key in keys:
        mask |= 1 << key
    return mask
