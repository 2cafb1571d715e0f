"""A title's facts as data and the geometry of its map: loaded once, no rules."""
