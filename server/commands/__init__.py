"""The command line's subcommands and the small client."""
