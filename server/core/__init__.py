"""The call core every door shares: calls, deadlines, lanes, worker processes and the error map."""
