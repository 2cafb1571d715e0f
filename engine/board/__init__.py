"""The board and what may stand on it: tiles, tokens, tile-lay and token legality, a company's reach."""
