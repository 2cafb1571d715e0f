"""The engine's API, one module per kind of call (DESIGN.md §1): ``engine.api`` re-exports
them and stays the one module the front ends import."""
