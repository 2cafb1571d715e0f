"""The HTTP door: Connect and gRPC-Web, bounded bodies and connections, operator pages."""
