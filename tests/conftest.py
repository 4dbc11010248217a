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


def first_exercise(nb):
    """grade_id and points of the first code answer cell and the test cell that follows it."""
    for cell, after in zip(nb.cells, nb.cells[1:]):
        if cell.cell_type == "code" and nbgrader_meta(cell).get("solution") and nbgrader_meta(after).get("grade"):
            return nbgrader_meta(cell)["grade_id"], nbgrader_meta(after)["points"]
    raise AssertionError("no code exercise found")


def hand_in(root: Path, lecture: str, students=("filled", "untouched", "one_wrong")) -> None:
    """Submissions of ``lecture`` in ``root``/submitted, from its release in notebooks/: every answer right
    (the filled release), the release untouched, and all right but the first exercise, left as released."""
    import nbformat

    import course

    for path in sorted((ROOT / "solutions" / lecture).glob("*.ipynb")):
        solution = nbformat.read(path, as_version=4)
        release = nbformat.read(root / "notebooks" / lecture / path.name, as_version=4)
        filled = course.filled_release(release, solution)
        wrong = nbformat.from_dict(filled)
        wrong_id, _ = first_exercise(solution)
        for cell, original in zip(wrong.cells, release.cells):
            if nbgrader_meta(cell).get("grade_id") == wrong_id:
                cell.source = original.source
        for student, nb in zip(students, (filled, release, wrong)):
            target = root / "submitted" / student / lecture / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, target)
