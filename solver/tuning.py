"""The solver's tuning, one frozen value passed to ``solve`` (STYLE.md §15, issue 32).

Every budget and threshold that trades speed for nothing else lives here, each default
with the measurement that set it. None changes an answer's optimum: a budget that runs
out hands the work to a slower exact method (CP-SAT's circuits), never to a guess. A
caller that wants another trade passes ``SolveOptions(...)`` to ``solve`` or
``solve_both``; the caches key on it, so two tunings never share a derived listing.

Steps are counts, not the clock (issue 21: the same request does the same work); the
``*_per_s`` rates turn a short time limit into fewer steps.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SolveOptions:
    """Budgets and thresholds of the solver's methods (see each field's measurement)."""

    # --- the two-train pair scan (solver/listing/pairs.py, pairwalk.py, pairvector.py) ---

    #: Listing steps allowed for the two trains' routes (``pairwalk`` counts one per node
    #: entered, 1-2 µs each). Listing beat CP-SAT's two circuits on every grown board that
    #: fit: 150 000 steps (~20 000 routes) left the slowest board grown against this
    #: solver (seed 8030, 5 + D, ~57 000 routes) to CP-SAT at 550-900 ms; 400 000 list it
    #: in ~400 ms. Boards too big stop early (``foretold``).
    pair_steps: int = 400_000
    #: Key ORs allowed for the pair scan (about 0.1 µs each on small bitsets; the worst
    #: grown board measured needed ~40 000).
    pair_work: int = 400_000
    #: Steps walked depth first in Python before a listing is handed to numpy
    #: (``pairvector``: about 0.2 µs a step against 1-2 µs, but numpy's import costs
    #: ~0.2 s of CPU once per process and each layer ~0.1 ms): the real states' listings
    #: stay in Python, the hard boards' 70 000-240 000 steps go to numpy.
    vector_from: int = 5_000
    #: The numpy listing's budget, in multiples of the walk's: a step costs it ~0.2 µs
    #: against the walk's 1-2 µs, so 2.5 × ``pair_steps`` (1 000 000 partial routes)
    #: lists in ~200 ms. Boards past the walk's budget went to CP-SAT's circuits: a 5 + D
    #: board with 492 000 steps (grown by listing size, seed 9307) took 0.9 s there.
    vector_speedup: float = 2.5
    #: Give up once the steps per start so far, times the starts, exceed the budget this
    #: many times over (a start's walk is complete, so the average foretells the rest; a
    #: margin because starts differ): a listing too long is dropped early.
    foretold: int = 2
    #: Routes whose track keys are read from their masks at once by the numpy scan.
    key_rows: int = 512
    #: Partners first looked at for a bound's entry (``PairBound._row``): an entry's
    #: partner is most often among the heaviest, so most entries cost two ORs of this
    #: many bits, not of every partner's (13524 D+D: its rows 3.1 -> 0.6 ms).
    head: int = 1024
    #: The scan cuts its bitsets to the window of partners a route may take once that
    #: window is at most this many eighths of their width: a cut costs a shift per key,
    #: and the ORs then cost the window's width (big-16104, D + D, 82 883 routes: its scan
    #: 205 ms when cut at half, 130-145 ms at 7/8; 15/16 no better;
    #: ``python -m benchmarks.bench_recut``).
    recut_eighths: int = 7

    # --- listings and packings (solver/model/model.py, packing.py, greedy.py) ---

    #: With more than one train, a list longer than this is modelled as circuits instead
    #: (measured on tests/data/boards: 6 + D 5.5 s → 0.2 s, 5 + 6 3.4 s → 0.4 s).
    long_list: int = 1000
    #: Search steps allowed for listing an unlimited train's routes (about 1 ms): on most
    #: real single-D boards the list (100-400 routes) is done sooner than CP-SAT's circuit
    #: (4-5 ms); fuller boards (600-2000 routes) keep the circuit, and a failed attempt
    #: costs little (measured: 2000 steps gave max 10.4 ms, 1000 steps 9 ms over the real
    #: states).
    unlimited_steps: int = 1000
    #: An unlimited train's listing is not even tried when stops × (segments − nodes + 1)
    #: of the reduced graph reaches this: the routes multiply with the stops and the
    #: cycles, and no such board's listing finished within ``unlimited_steps`` (measured
    #: on the real states and tests/data/boards: every listing that finished had at most
    #: 128, the failed ones from 133; the margin keeps borderline boards on the old path).
    #: Saves the wasted walk, about 1 ms, on the fullest boards (lone D: 8.4 → 7.4 ms).
    unlimited_too_big: int = 180
    #: Steps of the lone unlimited train's branch and bound (``bestreach``, issue 21)
    #: before the circuit takes over, with the best route found as its first solution.
    #: 20-40 µs a step; the circuit's hinted search takes about 20 ms on such boards, so
    #: the budget sits near where the walk costs as much (a board past it pays both: at
    #: most about twice the better of the two). The walk needed 15-143 steps on the real
    #: lone-D states when this was set and 11-1 292 on lone-D boards grown against it
    #: (seeds 9900-9989, climbed against 700: 450 took their whole answers from 1 926 to
    #: 1 799 ms of CPU in all, the worst 117 → 103 ms, no board more than 3 ms slower;
    #: 300 lost). Issue 35: the lone-D north states of the golden 1888 logs (128097 #664,
    #: #714, #758, #798) need 500-700 steps, so at 450 they paid the walk and the circuit
    #: twice (the both-objectives walk, then the answer's): 17-43 ms of CPU each, the
    #: slowest real decisions. At 700 (process CPU, medians of 4 rounds alternating in one
    #: process, ``benchmarks/targets.py`` for the whole set): those six states 129 → 50 ms in
    #: all, the worst 41 → 11 ms; lone-D boards grown against 2 000 (``bench_lone grow``,
    #: seeds 41000-41029) 159 → 142 ms in all, the worst 27 → 30 ms (41021); grown against
    #: 700 (seeds 41100-41129) 161 → 125 ms, the worst 36 → 14 ms.
    reach_steps: int = 700
    #: A lone limited train's walk steps (``bestroute.best_route``), and the listing steps
    #: of ``build_model`` for the other trains.
    limited_steps: int = 20_000
    #: Search nodes allowed before giving the packing to CP-SAT (the real states need at
    #: most a few hundred; about 1 µs each).
    packing_steps: int = 3000
    #: Search steps for the greedy first solution (about 1 ms of Python per 1000 steps).
    greedy_steps: int = 6000
    #: Two trains' first solution also takes the best pair of a beam of the numpy listing
    #: keeping this many partial routes a layer (``pairs.beam_pair``, issue 35). On the 35
    #: two-train boards with a D of tests/data/boards: 1 000 gave median 100 % of the
    #: optimum, worst 74.2 %, 5 below 97 %, CPU median 3.3 / worst 12.5 ms; 500: 8 below
    #: 97 %, worst 70.3 %; 2 000: 2 below, worst CPU 20.4 ms; the sample alone (2 500
    #: steps): median 83.9 %, 32 below 97 % (``python -m benchmarks.first_solution``).
    beam_width: int = 1000
    #: Steps between two looks at the cancel token in the walks (its deadline reads the
    #: clock); it is also read before the walk from each first stop.
    cancel_poll: int = 256

    # --- both objectives of a lone unlimited train (solver/both.py) ---

    #: The walk for both is not tried when stops × (segments − nodes + 1) of the reduced
    #: graph reaches this (as ``unlimited_too_big`` sizes a listing): on such boards the
    #: walk gives up more often than not, and a walk that gives up is lost work. Measured
    #: on 80 lone-D boards grown from seeds 14000-14079 (``bench_lone grow``, not
    #: climbed): every board whose walk gave up (more than ``reach_steps``) had 475 or
    #: more, the 18 real lone-D states at most 299; below it the walk for both took 12-484
    #: steps, about as many as the total's walk alone.
    both_too_big: int = 470

    # --- the time limit turned into steps (solver/search.py) ---

    #: Listing steps per second of the time limit for the pair scan: listing, weighing
    #: and scanning cost 1-2 µs a step, so with a 20 ms limit both it and the greedy
    #: sample (5 000 steps each) and the engine's re-check fit in about 25 ms; a long
    #: limit lists up to ``pair_steps``.
    pair_steps_per_s: int = 250_000
    #: A lone D's branch and bound gets at most this many steps a second of the call's
    #: limit: about 40 % of a short limit at 40 µs a step, the rest for the circuit's
    #: search from its best route (20 ms: 200 steps; from 45 ms the full walk).
    reach_steps_per_s: int = 10_000
    #: The first solution's sample steps per second of the time limit (up to
    #: ``greedy_steps``): half the listing's. With a 20 ms limit its 5 000 steps, their
    #: weighing and pair scan took ~33 ms of CPU on the slowest boards; 2 500 steps brought
    #: the whole answer's worst CPU from 63.5 to 30 ms on tests/data/boards and from 28.7 to
    #: 23.4 ms on boards grown after the change (seeds 9700-9729), the gap to the optimum
    #: unchanged there (``python -m benchmarks.partial_answers``).
    greedy_steps_per_s: int = 125_000
    #: The beam's width per second of the time limit (up to ``beam_width``): a 20 ms
    #: limit has the whole beam (1-12 ms of CPU on the hard boards).
    beam_width_per_s: int = 50_000

    # --- CP-SAT's search (solver/search.py) ---

    #: Models of two or more circuit trains first search this long (CP-SAT's
    #: deterministic time) without the LP, then with circuit cuts from the best routes
    #: found. 0.02 units is what the former 40 ms wall-clock stage reached on the 11
    #: two-circuit boards of tests/data/boards on a quiet machine (median 0.0203 at 41 ms
    #: of process CPU; 0.015 at 39 ms on a loaded one:
    #: ``python -m benchmarks.quick_stage_dtime``).
    quick_stage_dtime: float = 0.02
    #: Below this time left (seconds) CP-SAT is not started: loading the model alone
    #: takes about that long, and the first solution is the answer (issue 21, item 5).
    min_search_s: float = 0.002
    #: Below this time limit (seconds) the model is searched in one stage: the first
    #: would take most of it (about 40 ms of CPU).
    two_stages_from_s: float = 0.08
    #: CP-SAT's ``cp_model_probing_level`` for models without circuit cuts (one circuit
    #: train, or listed routes only): 1 instead of the default 2, measured on the real
    #: states (e.g. a 4 + 5 packing 2.5 → 1.5 ms, lone D circuits 2.9 → 2.3 ms).
    probing_without_cuts: int = 1
    #: The same for models with circuit cuts (two circuit trains; None: CP-SAT's default,
    #: 2). Issue 11 kept the default (level 1 lost on the hardest board then, 215 → 289 ms);
    #: since the pair scan, only boards whose listing passes its budget reach this model at
    #: a long limit. Issue 35 (per board, process CPU, medians of 2-3
    #: alternating solves): whole solves of the six D + D boards past the budget then
    #: (size-36101, seeds 37010, 37012, 37022, 38005, 38007) 6 591 → 4 711 ms in all (two
    #: slower: 37010 725 → 797, 38007 781 → 1 059); on two grown after the change (seeds
    #: 39000, 39003) 3 772 → 2 970 ms (39003 1 004 → 1 395); CP-SAT's circuits for every
    #: train (the independent model) on 20 boards (38000-38107) 9 983 → 9 772 ms and on
    #: 12 grown after (39000-39011) 8 735 → 7 513 ms, board by board either way up to 1.7×
    #: (``python -m benchmarks.probing_cuts [--method circuit] FOLDER``).
    probing_with_cuts: int | None = 1


#: The tuning ``solve`` uses when its caller passes none.
DEFAULT_OPTIONS = SolveOptions()
