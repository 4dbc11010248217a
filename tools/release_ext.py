"""What the course adds to nbgrader's release (generate_assignment), named in nbgrader_config.py.

- ``TagRaisesException``: tags every exercise cell and every test cell of the release
  ``raises-exception``. JupyterLab's *Run All* then goes on past an unfinished exercise (its stub
  raises ``NotImplementedError``, its test fails, both visibly) and runs every demo below it.
  The solutions are not tagged: nbval would accept an error in a tagged cell, and a solution's test
  must pass.
- ``NameWhatGradingLacks``: adds to the release's first cell the list of what the grading kernel
  does not have (the notebook's metadata ``mlcourse.kernel_lacks``, tools/judge.py), so a student
  knows before handing in that an answer may not call them (they stay usable in the demos).
"""

from __future__ import annotations

from nbgrader.preprocessors import NbGraderPreprocessor

RAISES = "raises-exception"


def is_exercise_or_test(cell) -> bool:
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("solution") or meta.get("grade"))


class TagRaisesException(NbGraderPreprocessor):
    def preprocess_cell(self, cell, resources, index):
        if is_exercise_or_test(cell):
            tags = cell.metadata.setdefault("tags", [])
            if RAISES not in tags:
                tags.append(RAISES)
        return cell, resources


class NameWhatGradingLacks(NbGraderPreprocessor):
    def preprocess(self, nb, resources):
        lacks = nb.metadata.get("mlcourse", {}).get("kernel_lacks", [])
        first = next((c for c in nb.cells if c.cell_type == "markdown"), None)
        if lacks and first is not None and "When your work is graded" not in first.source:
            functions = [f"`{name.removeprefix('mlcourse.')}`" for name in lacks if name.startswith("mlcourse.")]
            numpy = [f"`{name}`" for name in lacks if name.startswith("numpy.")]
            packages = [f"`{name}`" for name in lacks if not name.startswith(("mlcourse.", "numpy."))]
            parts = []
            if functions:
                parts.append("these functions of the library: " + ", ".join(functions))
            if numpy:
                parts.append("these functions of NumPy: " + ", ".join(numpy))
            if packages:
                parts.append("the package" + ("s " if len(packages) > 1 else " ") + ", ".join(packages))
            first.source = (first.source.rstrip("\n") + "\n\n*When your work is graded, your answers run "
                            "without " + "; and without ".join(parts) + ". Write what they do yourself; the "
                            "demos may use them.*")
        return nb, resources
