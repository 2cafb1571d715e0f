"""What a running solve needs from its caller: cancellation and a tally for metrics."""
