"""Reading untrusted input (state files, log fields, JSON text) into typed values, each refusal naming its field."""
