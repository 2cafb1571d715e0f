"""The reduced graph a problem is solved on, and its derived data."""
