"""Move suggestions: every legal tile lay and token ranked by the best income it allows."""
