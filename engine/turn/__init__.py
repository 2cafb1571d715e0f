"""Whole-turn suggestions: plans of lays and a token, ranked exactly, with train advice."""
