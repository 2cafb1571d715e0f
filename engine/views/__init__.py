"""The board as plain data for pictures: a view, no rules."""
