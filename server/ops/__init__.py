"""Operating the server: settings, metrics, logs, version and readiness."""
