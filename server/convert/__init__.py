"""Proto <-> the engine's answers, one function pair per message."""
