"""The students' copy (`make student-copy`): self-contained, set up by its own `make setup`, and holding no answer.

What is searched, and where. Every file of the copy is read as text, its lines stripped and blank lines dropped; a
notebook is read as every string it holds (cell sources, outputs, metadata), so an answer that reached a saved
output or a cell's metadata is found too.
- Hidden tests: every line of every `### BEGIN HIDDEN TESTS` region of every lecture that, stripped, is at least
  30 characters long and is not a comment. Shorter lines are generic (`for _trial in range(10):`, `assert ok, msg`)
  and anyone could write them; the lines that carry a hidden test's inputs, expected values and messages are longer.
  A line the lecture also shows students (found anywhere in the text of its cells outside the solution and
  hidden-test regions and the written answers: a hint repeated in the public test) gives nothing away and is left out.
  Searched everywhere, the `mlcourse` package included.
- Model answers: every `### BEGIN SOLUTION` region, its non-blank lines stripped and joined (the region as a
  whole). Searched everywhere EXCEPT the copied `mlcourse` package: the package holds the reference code the
  demos use, and some functions there are an exercise's answer (`pca.centre` is `X - X.mean(axis=0)`). The course
  ships the package as it is; grading withdraws those functions from the kernel (`mlcourse.kernel_lacks`), the
  students' README says that handing in the package's code is copying, and `make similarity` compares every
  answer with the package.
- Written answers and grading notes: every "*Grading note" paragraph of a graded Markdown answer cell of
  `solutions/` (joined like a model answer), and every line of at least 40 characters of those cells (the model
  answer and its grading note: shorter lines are formula fragments such as `derivatives to zero:`), less the lines
  the lecture also shows, by the same rule (a formula stated in the text and again in the answer). Searched
  everywhere.
`test_the_search_finds_what_is_planted` shows that this search finds each kind where it must and spares a model
answer inside the package.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
import yaml

from conftest import LECTURES, ROOT, nbgrader_meta

sys.path.insert(0, str(ROOT / "tools"))
import student_copy  # noqa: E402

HIDDEN_MIN, WRITTEN_MIN = 30, 40
# Nothing of these names may be anywhere in the copy (at any depth): the instructors' sources, tools, tests,
# grading state and configuration, and what a build or an install leaves behind.
FORBIDDEN_NAMES = {"solutions", "tools", "tests", ".ci", ".git", "build", "source", "release", "submitted",
                   "autograded", "feedback", "logs", "similarity", "sandbox-kernel", "student-copy",
                   "nbgrader_config.py", "conftest.py", "gradebook.db", "grades.csv", ".venv", "__pycache__",
                   ".ipynb_checkpoints", ".pytest_cache", ".hypothesis"}
# ... nor a file named like one of the instructors' tools or tests.
INSTRUCTOR_FILES = ({p.name for p in (ROOT / "tools").glob("*.py")} | {p.name for p in (ROOT / "tests").glob("*.py")}) - {"__init__.py"}


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    return student_copy.build(tmp_path_factory.mktemp("students") / "course")


def _regions(source: str, begin: str, end: str) -> list[list[str]]:
    regions, inside = [], None
    for line in source.splitlines():
        if line.strip() == begin:
            inside = []
        elif line.strip() == end and inside is not None:
            regions.append(inside)
            inside = None
        elif inside is not None:
            inside.append(line.strip())
    return regions


def _outside(source: str, begin: str, end: str) -> str:
    """The lines of ``source`` outside its ``begin``/``end`` regions, stripped."""
    kept, inside = [], False
    for line in source.splitlines():
        if line.strip() == begin:
            inside = True
        elif line.strip() == end:
            inside = False
        elif not inside and line.strip():
            kept.append(line.strip())
    return "\n".join(kept)


def _normal(text: str) -> str:
    """Non-blank lines, stripped, joined: how every searched item and every searched file is compared."""
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def secrets() -> dict[str, set[str]]:
    """What no student may see, by kind. A line that the lecture also shows students (a hint repeated in the public
    test, a formula stated in the text and again in a model answer) gives nothing away and is not searched for."""
    hidden, answers, notes, written = set(), set(), set(), set()
    for name in LECTURES:
        for path in (ROOT / "solutions" / name).glob("*.ipynb"):
            cells = nbformat.read(path, as_version=4).cells
            # What the lecture shows students (a line found anywhere in it is public).
            public = "\n".join(
                _outside(_outside(c.source, "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"), "### BEGIN SOLUTION", "### END SOLUTION")
                for c in cells if not (c.cell_type == "markdown" and nbgrader_meta(c).get("solution")))
            for cell in cells:
                meta = nbgrader_meta(cell)
                if cell.cell_type == "code" and meta.get("grade"):
                    for region in _regions(cell.source, "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"):
                        hidden |= {line for line in region
                                   if len(line) >= HIDDEN_MIN and not line.startswith("#") and line not in public}
                elif cell.cell_type == "code" and meta.get("solution"):
                    for region in _regions(cell.source, "### BEGIN SOLUTION", "### END SOLUTION"):
                        answers.add(_normal("\n".join(region)))
                elif cell.cell_type == "markdown" and meta.get("grade") and meta.get("solution"):
                    notes |= {_normal(p) for p in cell.source.split("\n\n") if p.strip().startswith("*Grading note")}
                    written |= {line.strip() for line in cell.source.splitlines()
                                if len(line.strip()) >= WRITTEN_MIN and line.strip() not in public}
    assert hidden and answers and notes and written, "found nothing to search for: the markers of solutions/ changed?"
    assert len(notes) >= len(LECTURES), f"only {len(notes)} grading notes found: did their heading change?"
    return {"hidden test": hidden, "model answer": answers, "grading note": notes, "written answer": written}


def _strings(node):
    """Every string a notebook's JSON holds; a multi-line string (a list of lines ending in newlines) whole."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        if node and all(isinstance(x, str) for x in node) and all(x.endswith("\n") for x in node[:-1]):
            yield "".join(node)
        else:
            for item in node:
                yield from _strings(item)
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)


def _text(path: Path) -> str:
    raw = path.read_text(errors="replace")
    if path.suffix == ".ipynb":
        raw = "\n".join(_strings(json.loads(raw)))
    return _normal(raw)


def leaks(copy: Path, kinds: dict[str, set[str]]) -> list[str]:
    """Every secret found in the copy, by the rules of the module's docstring."""
    package = copy / "lib" / "mlcourse"
    texts = {path: _text(path) for path in copy.rglob("*") if path.is_file() and ".venv" not in path.parts}
    found = []
    for kind, items in kinds.items():
        for path, text in texts.items():
            if kind == "model answer" and package in path.parents:
                continue
            found += [f"{kind} in {path.relative_to(copy)}: {item.splitlines()[0][:80]!r}" for item in items if item in text]
    return found


def test_the_copy_holds_the_course_and_nothing_of_the_instructors(copy):
    for part in ("README.md", "Makefile", ".gitignore", "pyproject.toml", "environment.yml", "notebooks/NOTATION.md",
                 "lib/mlcourse/__init__.py", "lib/mlcourse/widgets/__init__.py", "lab-config/labconfig/page_config.json",
                 "lab-config/jupyter_server_config.json"):
        assert (copy / part).is_file(), f"the students' copy lacks {part}"
    assert sorted(p.name for p in copy.iterdir()) == sorted(student_copy.OWNED)
    # The released notebooks exactly as committed (NOTATION.md and every lecture's files).
    released = set(subprocess.run(["git", "ls-files", "-z", "notebooks"], cwd=ROOT, check=True, capture_output=True,
                                  text=True).stdout.strip("\0").split("\0"))
    theirs = {str(p.relative_to(copy)) for p in (copy / "notebooks").rglob("*") if p.is_file()}
    assert theirs == released
    assert all((copy / p).read_bytes() == subprocess.run(["git", "show", f"HEAD:{p}"], cwd=ROOT, check=True,
                                                         capture_output=True).stdout for p in released)
    present = [str(p.relative_to(copy)) for p in copy.rglob("*")
               if p.name in FORBIDDEN_NAMES or p.name in INSTRUCTOR_FILES or p.suffix == ".db" or p.name.endswith(".egg-info")]
    assert not present, f"the students' copy holds what is the instructors' only (or build debris): {present}"
    readme = (copy / "README.md").read_text()
    assert "{lectures}" not in readme and "| 12 |" in readme
    for word in ("autograde", "solutions/", "hidden test region", "make test", "make release"):
        assert word not in readme, f"the students' README speaks of {word!r}"


def test_the_copy_holds_no_hidden_test_no_model_answer_no_grading_note(copy):
    kinds = secrets()
    found = leaks(copy, kinds)
    assert not found, "the students' copy gives answers away:\n" + "\n".join(found[:20])


def test_the_search_finds_what_is_planted(tmp_path):
    """The search can fail: a hidden-test line in a saved output, a model answer in a file of notebooks/, a grading
    note in a Markdown cell and a hidden-test line in the package are each found; a model answer in the package
    is not searched for there (the rule above)."""
    planted = student_copy.build(tmp_path / "course")
    kinds = secrets()
    hidden = sorted(kinds["hidden test"])
    answer = max(sorted(kinds["model answer"]), key=len)
    note = sorted(kinds["grading note"])[0]
    lecture = next((planted / "notebooks" / LECTURES[0]).glob("*.ipynb"))
    nb = nbformat.read(lecture, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("print(...)", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text=f"  {hidden[0]}  \n")]))
    nb.cells.append(nbformat.v4.new_markdown_cell(f"Notes I found:\n\n{note}\n"))
    nbformat.write(nb, lecture)
    (planted / "notebooks" / "leak.py").write_text("    " + answer.replace("\n", "\n    ") + "\n")
    (planted / "lib" / "mlcourse" / "leak.py").write_text(f"{answer}\n\n# {hidden[1]}\n")
    found = leaks(planted, {kind: set(items) for kind, items in kinds.items()})
    where = {line.split(": ")[0] for line in found}
    assert f"hidden test in notebooks/{LECTURES[0]}/{lecture.name}" in where, found
    assert f"grading note in notebooks/{LECTURES[0]}/{lecture.name}" in where, found
    assert "model answer in notebooks/leak.py" in where, found
    assert "hidden test in lib/mlcourse/leak.py" in where, found
    assert "model answer in lib/mlcourse/leak.py" not in where, found


def test_the_copy_is_what_is_committed_and_names_what_is_not(tmp_path, capsys):
    """`make lab` in the instructors' repository saves their answers and outputs into notebooks/: the copy
    takes what is committed, and says what it left out."""
    repo = tmp_path / "repo"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{ROOT}", str(repo)], check=True)
    lecture = next((repo / "notebooks" / LECTURES[0]).glob("*.ipynb"))
    committed_bytes = lecture.read_bytes()
    nb = nbformat.read(lecture, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("my_answer = 42", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="THE INSTRUCTOR'S OWN OUTPUT\n")]))
    nbformat.write(nb, lecture)
    (repo / "notebooks" / LECTURES[0] / "scratch.ipynb").write_text("{}")
    made = student_copy.make_copy(tmp_path / "copy", repository=repo)
    copied = made.dest / "notebooks" / LECTURES[0] / lecture.name
    assert copied.read_bytes() == committed_bytes
    assert not (made.dest / "notebooks" / LECTURES[0] / "scratch.ipynb").exists()
    assert made.uncommitted == sorted([f"notebooks/{LECTURES[0]}/{lecture.name}", f"notebooks/{LECTURES[0]}/scratch.ipynb"])
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()
    assert made.commit == head
    student_copy.main([str(tmp_path / "again")], repository=repo)
    printed = capsys.readouterr().out
    assert f"left out, as not committed (the copy has them as commit {head[:10]} does): notebooks/{LECTURES[0]}/" in printed
    assert f"wrote the students' copy of commit {head[:10]}" in printed
    with pytest.raises(SystemExit, match="not a git checkout"):
        student_copy.make_copy(tmp_path / "none", repository=tmp_path / "copy")


def test_pins_are_the_repositorys(copy):
    import tomllib

    ours = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    theirs = tomllib.loads((copy / "pyproject.toml").read_text())["project"]
    assert theirs["dependencies"] == ours["dependencies"] and "optional-dependencies" not in theirs
    assert theirs["requires-python"] == ours["requires-python"]
    conda = yaml.safe_load((copy / "environment.yml").read_text())
    pins = {}
    for dep in conda["dependencies"]:
        if isinstance(dep, dict):
            pins |= {spec.split("==")[0]: spec.split("==")[1] for spec in dep["pip"] if "==" in spec}
        elif dep not in ("pip", "python=3.11"):
            name, _, version = dep.partition("=")
            pins[name] = version
    assert pins == dict(spec.split("==") for spec in ours["dependencies"])


def test_a_non_empty_destination_is_refused_and_left_as_it_was(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("my own work")
    with pytest.raises(SystemExit, match="is not empty; nothing was written"):
        student_copy.build(mine)
    assert [p.name for p in mine.iterdir()] == ["thesis.tex"]
    with pytest.raises(SystemExit, match="lies inside it"):
        student_copy.build(ROOT / "students")
    with pytest.raises(SystemExit, match="is a file"):
        student_copy.build(mine / "thesis.tex", force=True)


def test_force_replaces_the_copy_and_keeps_the_rest(tmp_path):
    """Updating a published repository's clone: FORCE=1 replaces the copy's own parts and keeps its .git."""
    dest = student_copy.build(tmp_path / "course")
    (dest / ".git").mkdir()
    (dest / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (dest / "LICENSE").write_text("CC BY 4.0")
    (dest / "notebooks" / "stale.ipynb").write_text("{}")
    (dest / "README.md").write_text("edited")
    student_copy.build(dest, force=True)
    assert (dest / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n" and (dest / "LICENSE").read_text() == "CC BY 4.0"
    assert not (dest / "notebooks" / "stale.ipynb").exists() and "make lab" in (dest / "README.md").read_text()
    assert student_copy.kept(dest) == [".git", "LICENSE"]


@pytest.mark.notebooks
def test_the_copy_sets_itself_up_and_runs_a_lecture(tmp_path):
    """The copy's own `make setup`, as a student runs it on a fresh machine: `python3 -m venv`, the pinned
    packages from the package registry (pip's cache, filled by this repository's own set-up, spares the
    downloads, not the resolution or the install), the kernel registered inside the new venv. Nothing of this
    repository's venv is reachable (PATH, VIRTUAL_ENV, JUPYTER_*, PYTHONPATH are cleared). Then lecture 01 is run
    there the way JupyterLab's Run All runs it: it stops at an error except in a cell tagged `raises-exception`
    (the released exercises), every code cell must have run, and no cell but an exercise's may show an error.
    Last, nbgrader's validate on it (the students' README promises the Validate button)."""
    copy = student_copy.build(tmp_path / "course")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("VIRTUAL_ENV", "JUPYTER", "PYTHONPATH"))}
    env["PATH"] = ":".join(p for p in env["PATH"].split(":") if not p.startswith(str(ROOT)))
    start = time.monotonic()
    setup = subprocess.run(["make", "-C", str(copy), "setup"], env=env, capture_output=True, text=True, timeout=1800)
    assert setup.returncode == 0, f"make setup failed in the students' copy:\n{setup.stdout[-3000:]}\n{setup.stderr[-3000:]}"
    set_up = time.monotonic() - start
    lecture = next((copy / "notebooks" / LECTURES[0]).glob("*.ipynb"))
    run = f"""
import nbformat
from nbclient import NotebookClient
nb = nbformat.read({str(lecture)!r}, as_version=4)
NotebookClient(nb, kernel_name="mlcourse", timeout=300, allow_errors=False,
               resources={{"metadata": {{"path": {str(lecture.parent)!r}}}}}).execute()
import mlcourse, jupyter_client.kernelspec as ks
print("mlcourse from", mlcourse.__file__)
print("kernel from", ks.KernelSpecManager().get_kernel_spec("mlcourse").resource_dir)
for i, c in enumerate(nb.cells):
    if c.cell_type != "code":
        continue
    meta = c.metadata.get("nbgrader", {{}})
    errors = [o for o in c.outputs if o.output_type == "error"]
    if c.execution_count is None:
        print("NOT RUN", i, c.source.splitlines()[:1])
    elif errors and not (meta.get("solution") or meta.get("grade")):
        print("BROKEN", i, errors[0].ename, errors[0].evalue)
    elif errors:
        print("EXERCISE", i, errors[0].ename)
"""
    result = subprocess.run([str(copy / ".venv" / "bin" / "python"), "-c", run], env=env, capture_output=True, text=True,
                            timeout=600, cwd=copy)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"mlcourse from {copy}" in result.stdout and f"kernel from {copy}" in result.stdout, result.stdout
    assert "BROKEN" not in result.stdout and "NOT RUN" not in result.stdout, result.stdout
    assert "EXERCISE" in result.stdout, "no unfinished exercise raised: is this the release, not a solution?"
    ran = time.monotonic() - start - set_up
    # nbgrader's Validate button (kept by lab-config; the reason the copy keeps nbgrader) works there with no
    # nbgrader_config.py: on the untouched release it runs the visible tests and reports them failing.
    validate = subprocess.run([str(copy / ".venv" / "bin" / "nbgrader"), "validate", lecture.name], env=env,
                              capture_output=True, text=True, timeout=600, cwd=lecture.parent)
    assert "VALIDATION FAILED ON" in validate.stdout, validate.stdout[-2000:] + validate.stderr[-2000:]
    print(f"students' copy: make setup {set_up:.0f} s, lecture 01 {ran:.0f} s, "
          f"nbgrader validate {time.monotonic() - start - set_up - ran:.0f} s")
