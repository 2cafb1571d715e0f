"""route18xx: exact optimal route income for the 18xx game 1888, with a full rules engine.

One namespace (DESIGN.md §1): ``route18xx.engine`` (the 1888 rules; its public
API is ``route18xx.engine.api``), ``route18xx.solver`` (the game-agnostic
CP-SAT route optimiser), ``route18xx.server`` (the front ends: gRPC, the
command line) and ``route18xx.v1`` (the generated gRPC stubs).
"""
