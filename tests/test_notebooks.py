"""nbgrader's validation of every lecture, and the release run as a student first opens it.

(The solutions' outputs are checked by nbval, which `make test` runs on solutions/.)
"""

from __future__ import annotations

import ast

import nbformat
import pytest
import course
from nbgrader.validator import Validator

from conftest import LECTURES, ROOT, nbgrader_meta


def notebooks(folder: str):
    return [p for name in LECTURES for p in sorted((ROOT / folder / name).glob("*.ipynb"))]


@pytest.mark.parametrize("path", notebooks("solutions"), ids=lambda p: p.parent.name)
def test_solution_passes_nbgrader_validation(path):
    result = Validator().validate(str(path))
    assert result == {}, f"{path.relative_to(ROOT)} fails its own tests: {str(result)[:2000]}"


@pytest.mark.parametrize("path", notebooks("solutions"), ids=lambda p: p.parent.name)
def test_no_test_cell_ends_in_a_value_that_jupyter_would_show(path):
    """A test cell whose last line is an expression (a check's return value) shows that value under
    "Public test passed.", and a hidden test's value would differ from run to run (fresh inputs)."""
    shown = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code" and nbgrader_meta(cell).get("grade"):
            last = ast.parse(cell.source).body[-1:]
            if last and isinstance(last[0], ast.Expr) and not (isinstance(last[0].value, ast.Call)
                                                               and getattr(last[0].value.func, "id", "") == "print"):
                shown.append(f"{nbgrader_meta(cell)['grade_id']}: {ast.unparse(last[0])[:60]}")
    assert not shown, f"{path.relative_to(ROOT)}: assign the last value (`_ = ...`): {shown}"


@pytest.mark.parametrize("path", notebooks("notebooks"), ids=lambda p: p.parent.name)
def test_untouched_release_fails_every_test(path):
    result = Validator().validate(str(path))
    failed_sources = {f["source"] for f in result.get("failed", [])}
    nb = nbformat.read(path, as_version=4)
    tests = [c.source for c in nb.cells if c.cell_type == "code" and nbgrader_meta(c).get("grade")]
    passing = [s.splitlines()[0] for s in tests if s not in failed_sources]
    assert not passing, f"{path.relative_to(ROOT)}: these test cells pass on the untouched release: {passing}"


@pytest.mark.parametrize("path", notebooks("notebooks"), ids=lambda p: p.parent.name)
def test_release_runs_top_to_bottom_with_errors_only_in_exercises(path):
    nb = nbformat.read(path, as_version=4)
    course.notebook_client(nb, path.parent, timeout=120, allow_errors=True).execute()
    broken = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        meta = nbgrader_meta(cell)
        is_exercise = meta.get("solution") or meta.get("grade")
        if errors and not is_exercise:
            broken.append(f"cell {index} ({cell.source.splitlines()[0][:60]!r}): {errors[0].ename}: {errors[0].evalue}")
    assert not broken, f"{path.relative_to(ROOT)}: demo cells fail before the exercises are done:\n" + "\n".join(broken)
