"""Which route18xx answers (issue 23, "version everywhere").

The package version comes from the installed distribution's metadata (the
``version`` of ``pyproject.toml``); the git revision from the checkout the
code runs from, when there is one and ``git`` is installed. Either falls back
to ``"unknown"``: a wheel installed elsewhere has no checkout, and a machine
may have no git. Both are read once per process.
"""

from __future__ import annotations

import functools
import subprocess
from importlib import metadata
from pathlib import Path

UNKNOWN = "unknown"
DISTRIBUTION = "route18xx"
#: The response header (HTTP) and initial metadata key (gRPC) naming the version.
VERSION_HEADER = "x-route18xx-version"


@functools.cache
def package_version() -> str:
    """The installed route18xx distribution's version (``pyproject.toml``), or ``unknown``."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNKNOWN


@functools.cache
def git_revision() -> str:
    """The short commit of the checkout this code runs from, or ``unknown`` (no git, no checkout)."""
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "--short=12", "HEAD"],
            capture_output=True, text=True, timeout=5, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN
    revision = done.stdout.strip()
    if done.returncode != 0 or not revision:
        return UNKNOWN
    return revision


def version_text() -> str:
    """``0.1.0 (git 1a2b3c4d5e6f)``: the start line's, the header's and ``--version``'s form."""
    return f"{package_version()} (git {git_revision()})"
