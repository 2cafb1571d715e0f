"""Replaying 18xx.games game logs and reporting every run they hold."""
