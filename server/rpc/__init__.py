"""The gRPC door: the server factory, the servicer, call caps and health."""
