"""The CP-SAT circuit model: variables per train, one function per constraint."""
