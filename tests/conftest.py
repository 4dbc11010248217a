"""Shared fixtures: where the course is, its lectures, and a way to run nbgrader."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parent.parent
LECTURES = sorted(p.parent.name for p in (ROOT / "solutions").glob("*/*.ipynb"))


def nbgrader_meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def graded_cells(nb) -> list:
    return [c for c in nb["cells"] if nbgrader_meta(c).get("grade")]


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text())


@pytest.fixture(params=LECTURES)
def lecture(request) -> str:
    return request.param


def scratch_course(folder: Path, copy_solutions: bool = False) -> Path:
    """A course directory for tests: the real config and tools, the real (or a copied) solutions/."""
    import shutil

    shutil.copy(ROOT / "nbgrader_config.py", folder)
    (folder / "tools").symlink_to(ROOT / "tools")
    if copy_solutions:
        shutil.copytree(ROOT / "solutions", folder / "solutions")
    else:
        (folder / "solutions").symlink_to(ROOT / "solutions")
    return folder
