"""The student release: committed, in sync with solutions/, free of solutions, honest about points."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import LECTURES, ROOT, graded_cells, load, nbgrader_meta, scratch_course

sys.path.insert(0, str(ROOT / "tools"))
import course  # noqa: E402

MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS", "BEGIN MARK SCHEME",
           "Model answer", "Grading note")


@pytest.fixture(scope="module")
def fresh_release(tmp_path_factory):
    """`make release` into a scratch course that reads the real solutions/."""
    course_dir = scratch_course(tmp_path_factory.mktemp("course"))
    for name in LECTURES:
        course.nbgrader("generate_assignment", name, "--log-level=WARN", root=course_dir)
    return course_dir / "notebooks"


@pytest.mark.parametrize("name", LECTURES)
def test_committed_release_equals_a_fresh_release(name, fresh_release):
    committed = sorted(p.relative_to(ROOT / "notebooks") for p in (ROOT / "notebooks" / name).rglob("*") if p.is_file())
    fresh = sorted(p.relative_to(fresh_release) for p in (fresh_release / name).rglob("*") if p.is_file())
    assert committed == fresh, f"notebooks/{name} holds other files than a release makes: run `make release`"
    for rel in fresh:
        if rel.suffix == ".ipynb":
            assert load(ROOT / "notebooks" / rel) == load(fresh_release / rel), (
                f"notebooks/{rel} is not what `make release` makes from solutions/: run it and commit")
        else:
            assert (ROOT / "notebooks" / rel).read_bytes() == (fresh_release / rel).read_bytes()


@pytest.mark.parametrize("name", LECTURES)
def test_release_holds_no_solution_or_hidden_test(name):
    for path in (ROOT / "notebooks" / name).glob("*.ipynb"):
        text = path.read_text()
        for marker in MARKERS:
            assert marker not in text, f"{path.relative_to(ROOT)} contains {marker!r}"
        assert all(not c.get("outputs") for c in load(path)["cells"]), f"{path} has saved outputs"


def substantive(line: str) -> str | None:
    """A line of code without its comment, if it says enough to give something away (15 characters)."""
    code = line.split("#")[0].strip()
    return code if len(code) >= 15 else None


def model_answer_pairs(nb: dict) -> dict:
    """Every two consecutive substantive lines of a model answer (a solution region), with its cell's id."""
    pairs = {}
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or not nbgrader_meta(cell).get("solution"):
            continue
        region, inside = [], False
        for line in "".join(cell["source"]).splitlines():
            if "BEGIN SOLUTION" in line or "END SOLUTION" in line:
                inside = "BEGIN" in line
                pairs.update({pair: nbgrader_meta(cell)["grade_id"] for pair in zip(region, region[1:])})
                region = []
            elif inside and substantive(line):
                region.append(substantive(line))
    return pairs


@pytest.mark.parametrize("name", LECTURES)
def test_no_released_cell_holds_a_model_answer(name):
    """Demos and proof checks included: a released cell that is not an answer cell must not hold two
    consecutive lines of a model answer (as lecture 08's ridge demo once held the ridge exercise's)."""
    for path in (ROOT / "solutions" / name).glob("*.ipynb"):
        pairs = model_answer_pairs(load(path))
        assert pairs, f"{name}: no model answer found"
        for k, cell in enumerate(load(ROOT / "notebooks" / name / path.name)["cells"]):
            if cell["cell_type"] != "code" or nbgrader_meta(cell).get("solution"):
                continue
            lines = [s for s in map(substantive, "".join(cell["source"]).splitlines()) if s]
            for pair in zip(lines, lines[1:]):
                assert pair not in pairs, (f"{name}: released cell {k} holds two lines of the model answer of "
                                           f"{pairs[pair]}: {pair[0]!r} / {pair[1]!r}")


@pytest.mark.parametrize("name", LECTURES)
def test_points_stated_at_the_top_match_the_graded_cells(name):
    for path in (ROOT / "solutions" / name).glob("*.ipynb"):
        nb = load(path)
        intro = "".join(nb["cells"][0]["source"])
        match = re.search(r"\*\*Points\*\*: (\d+) in all — (\d+) autograded.*?, (\d+) graded by hand", intro)
        assert match, f"{path.name}: the first cell must state '**Points**: N in all — A autograded ..., M graded by hand'"
        total, auto, manual = map(int, match.groups())
        cells = graded_cells(nb)
        auto_cells = sum(nbgrader_meta(c)["points"] for c in cells if c["cell_type"] == "code")
        manual_cells = sum(nbgrader_meta(c)["points"] for c in cells if c["cell_type"] == "markdown")
        assert (total, auto, manual) == (auto_cells + manual_cells, auto_cells, manual_cells), (
            f"{path.name} states {total} = {auto} + {manual} points, its cells carry "
            f"{auto_cells + manual_cells} = {auto_cells} + {manual_cells}")


@pytest.mark.parametrize("name", LECTURES)
def test_every_exercise_has_a_test_and_unique_ids(name):
    for path in (ROOT / "solutions" / name).glob("*.ipynb"):
        cells = load(path)["cells"]
        ids = [nbgrader_meta(c)["grade_id"] for c in cells if nbgrader_meta(c).get("grade_id")]
        assert len(ids) == len(set(ids)), f"{path.name}: duplicate grade ids {sorted(i for i in ids if ids.count(i) > 1)}"
        for i, cell in enumerate(cells):
            meta = nbgrader_meta(cell)
            if cell["cell_type"] == "code" and meta.get("solution"):
                following = cells[i + 1] if i + 1 < len(cells) else {}
                assert nbgrader_meta(following).get("grade"), (
                    f"{path.name}: solution cell {meta['grade_id']!r} is not followed by its test cell")


def test_release_refuses_to_overwrite_changed_notebooks(tmp_path):
    """`make release` must not destroy work in notebooks/ that git does not have."""
    git = lambda *a: subprocess.run(["git", *a], cwd=tmp_path, check=True, capture_output=True)  # noqa: E731
    git("init", "-q")
    (tmp_path / "notebooks" / "01-x").mkdir(parents=True)
    (tmp_path / "notebooks" / "01-x" / "x.ipynb").write_text("{}")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    assert course.modified_release_files(["01-x"], root=tmp_path) == []
    (tmp_path / "notebooks" / "01-x" / "x.ipynb").write_text('{"my": "work"}')
    (tmp_path / "notebooks" / "01-x" / "notes.txt").write_text("mine")
    assert course.modified_release_files(["01-x"], root=tmp_path) == ["notebooks/01-x/notes.txt",
                                                                        "notebooks/01-x/x.ipynb"]


@pytest.mark.parametrize("name", LECTURES)
def test_release_tags_exercise_and_test_cells_so_run_all_goes_on(name):
    """JupyterLab's Run All stops at the first error unless the cell is tagged raises-exception."""
    for path in (ROOT / "notebooks" / name).glob("*.ipynb"):
        for i, cell in enumerate(load(path)["cells"]):
            meta = nbgrader_meta(cell)
            exercise = cell["cell_type"] == "code" and bool(meta.get("solution") or meta.get("grade"))
            tagged = "raises-exception" in cell["metadata"].get("tags", [])
            assert tagged == exercise, (f"{path.relative_to(ROOT)} cell {i}: "
                                        + ("an exercise or test cell without" if exercise else "a demo cell with")
                                        + " the tag raises-exception")
    for path in (ROOT / "solutions" / name).glob("*.ipynb"):  # nbval would let a tagged solution fail
        assert not any("raises-exception" in c["metadata"].get("tags", []) for c in load(path)["cells"]), (
            f"{path.relative_to(ROOT)}: a solution cell is tagged raises-exception")


def test_release_steps_are_nbgraders_own_plus_the_tagging():
    """The release runs nbgrader's steps in nbgrader's order: a newer nbgrader that changes them is noticed."""
    from nbgrader.converters import GenerateAssignment
    from traitlets.config import Config, PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    ours = [p.__name__ for p in config.GenerateAssignment.preprocessors]
    default = [p.__name__ for p in GenerateAssignment(config=Config()).preprocessors]
    assert [p for p in ours if p not in ("TagRaisesException", "NameWhatGradingLacks")] == default
    assert ours.index("TagRaisesException") > ours.index("ClearHiddenTests")


@pytest.mark.parametrize("name", LECTURES)
def test_the_release_names_what_grading_lacks(name):
    """A student learns before handing in what an answer may call, and what not (tools/allowance.py)."""
    for path in (ROOT / "solutions" / name).glob("*.ipynb"):
        meta = load(path)["metadata"]["mlcourse"]
        lacks = meta["kernel_lacks"] + meta["kernel_allows"]
        first = "".join(next(c for c in load(ROOT / "notebooks" / name / path.name)["cells"]
                             if c["cell_type"] == "markdown")["source"])
        assert "When your work is graded" in first, f"{name}: the first cell does not say what grading lacks"
        for target in lacks:
            assert f"`{target.removeprefix('mlcourse.')}`" in first, f"{name}: {target} is not named"


def test_notation_table_is_released_and_linked_from_every_lecture():
    source, released = ROOT / "solutions" / "NOTATION.md", ROOT / "notebooks" / "NOTATION.md"
    assert released.read_bytes() == source.read_bytes(), "notebooks/NOTATION.md is stale: run `make release`"
    for name in LECTURES:
        for path in (ROOT / "solutions" / name).glob("*.ipynb"):
            intro = "".join(load(path)["cells"][0]["source"])
            assert "](../NOTATION.md)" in intro, f"{path.name}: the first cell must link the notation table"


def test_release_copies_the_course_wide_files(tmp_path):
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "NOTATION.md").write_text("| x | an input |\n")
    assert course.release_shared_files(root=tmp_path) == ["notebooks/NOTATION.md"]
    assert (tmp_path / "notebooks" / "NOTATION.md").read_text() == "| x | an input |\n"
    assert course.release_shared_files(root=tmp_path) == []  # unchanged: nothing written
