"""Generated gRPC code for the route18xx API (from proto/route18xx/; do not edit)."""
