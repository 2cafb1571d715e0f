"""Route rules: reading a recorded route, judging its legality and pricing it."""
