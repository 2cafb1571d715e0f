"""route18xx.v1: generated from route_service.proto with grpcio-tools==1.81.1."""
