"""What the course adds to nbgrader's release (generate_assignment), named in nbgrader_config.py.

- ``TagRaisesException``: tags every exercise cell and every test cell of the release
  ``raises-exception``. JupyterLab's *Run All* then goes on past an unfinished exercise (its stub
  raises ``NotImplementedError``, its test fails, both visibly) and runs every demo below it.
  The solutions are not tagged: nbval would accept an error in a tagged cell, and a solution's test
  must pass.
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
