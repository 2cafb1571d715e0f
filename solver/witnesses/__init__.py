"""Independent checks of an answer: the validator and a brute force sharing no code with the model."""
