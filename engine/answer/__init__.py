"""The optimal-routes answer: the solver's problem built from a board, solved, re-checked and reported."""
