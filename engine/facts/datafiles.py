"""The titles' data files, ``engine/data/<title>/<name>.json`` (DESIGN.md §2, §9).

Read straight from the package's folder: ``importlib.resources`` would also load
``tempfile``, ``shutil``, ``zipfile`` and the archive modules (~10 ms of a cold
``route18xx solve``, issue 35) for a package that is always a folder on disk
(``pyproject.toml``'s package data; an editable install maps the same folder).
"""

from __future__ import annotations

import json
import os
from typing import Any

#: ``engine/data``: one folder per title.
DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


def data_path(title: str, name: str) -> str:
    """The path of ``engine/data/<title>/<name>`` (``name`` with its extension)."""
    return os.path.join(DATA_DIR, title, name)


def has_data_file(title: str, name: str) -> bool:
    """Whether the title has the JSON file ``<name>.json``."""
    return os.path.isfile(data_path(title, f"{name}.json"))


def read_data_file(title: str, name: str) -> Any:
    """The decoded ``engine/data/<title>/<name>.json``."""
    with open(data_path(title, f"{name}.json"), encoding="utf-8") as f:
        return json.loads(f.read())
