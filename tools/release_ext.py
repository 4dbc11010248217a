"""What the course adds to nbgrader's release (generate_assignment), named in nbgrader_config.py.

- ``TagRaisesException``: tags every exercise cell and every test cell of the release
  ``raises-exception``. JupyterLab's *Run All* then goes on past an unfinished exercise (its stub
  raises ``NotImplementedError``, its test fails, both visibly) and runs every demo below it.
  The solutions are not tagged: nbval would accept an error in a tagged cell, and a solution's test
  must pass.
- ``NameWhatGradingLacks``: adds to the release's first cell what the grading kernel offers the
  answers (the notebook's metadata ``mlcourse.kernel_allows``, tools/allowance.py) and what it
  withholds (``mlcourse.kernel_lacks``: NumPy's shortcuts, the library's answers to the exercises), so
  a student knows before handing in what an answer may call (the demos may use everything).
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
        meta = nb.metadata.get("mlcourse", {})
        allows, lacks = meta.get("kernel_allows", []), meta.get("kernel_lacks", [])
        first = next((c for c in nb.cells if c.cell_type == "markdown"), None)
        if first is None or "When your work is graded" in first.source or not (allows or lacks):
            return nb, resources
        numpy = [f"`{n}`" for n in lacks if n.startswith("numpy.")]
        library = [f"`{n.removeprefix('mlcourse.')}`" for n in allows if n.startswith("mlcourse.")]
        packages = [f"`{n}`" for n in allows if not n.startswith("mlcourse.")]
        twins = [f"`{n.removeprefix('mlcourse.')}`" for n in lacks if n.startswith("mlcourse.")]
        offered = ["Python's standard library", "NumPy" + (f" (but not {', '.join(numpy)})" if numpy else "")]
        offered += [f"from the course's library only {', '.join(library)}"] if library else []
        offered += [", ".join(packages)] if packages else []
        text = ("\n\n*When your work is graded, your answers run with " + "; ".join(offered) + ", and nothing "
                "else (no other package, no other part of the library).")
        if twins:
            text += " The library's " + ", ".join(twins) + " answer the exercises: write what they do yourself."
        first.source = first.source.rstrip("\n") + text + " The demos may use everything.*"
        return nb, resources
