"""Reading submitted/: the one routine every tool that reads students' work goes through.

`make autograde` (tools/grade.py) stages each submission from it, `make similarity` (tools/similarity.py)
compares the notebooks it returns. It
- finds the submissions: folders ``submitted/<student>/<lecture>/`` whose student is a valid id and
  whose lecture exists (``discover``), naming every other folder (escaped) as a problem;
- reads only plain files of a submission (no symbolic or hard links, no pipes or devices, without
  blocking), each and all together under a size cap, and of notebooks only those the lecture expects,
  if they are readable notebooks (``read_submission``);
- never takes a submission's own ``timestamp.txt``: the time of a submission is the one its collection
  recorded in ``submitted/.collection/<lecture>.json`` (``record_collection``, ``collected_at``).
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from course import lectures, shown  # noqa: F401 (shown: for the tools that print names)

COLLECTION = ".collection"  # submitted/.collection/<lecture>.json: when each submission was collected
TIMESTAMP = "timestamp.txt"  # nbgrader's name for a submission's time


# A student id: letters, digits, and . _ - after the first character (the name of the student's
# folder under submitted/). Anything else (spaces, commas, *, control characters...) would reach
# nbgrader's patterns, the gradebook, grades.csv or the terminal: such folders are refused.
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
MAX_FILE_BYTES = 20_000_000  # a file of a submission larger than this is left out
MAX_SUBMISSION_BYTES = 100_000_000  # and files past this total


@dataclass
class Submission:
    student: str
    lecture: str
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.student}/{self.lecture}"


def discover(root: Path, lecture: str | None, student: str | None) -> tuple[list[Submission], list[str]]:
    """Submissions under submitted/, and problems with folders that are not gradable."""
    base, known = root / "submitted", set(lectures(root))
    found, problems = [], []
    for student_dir in sorted(base.iterdir()):
        if student and student_dir.name != student or student_dir.name == COLLECTION:
            continue
        if student_dir.is_symlink() or not student_dir.is_dir():
            problems.append(f"{shown(student_dir.name)}: not a folder (a link, or a file), not graded")
            continue
        if not STUDENT_ID.fullmatch(student_dir.name):
            problems.append(f"{shown(student_dir.name)}: not a valid student id (letters, digits, . _ -, "
                            "starting with a letter or digit), not graded")
            continue
        for lecture_dir in sorted(student_dir.iterdir()):
            if lecture and lecture_dir.name != lecture:
                continue
            name = f"{student_dir.name}/{shown(lecture_dir.name)}"
            if lecture_dir.is_symlink() or not lecture_dir.is_dir():
                problems.append(f"{name}: not a folder (a link, or a file), not graded")
            elif lecture_dir.name not in known:
                problems.append(f"{name}: no such lecture, not graded")
            else:
                found.append(Submission(student_dir.name, lecture_dir.name))
    return found, problems


def read_plain_file(path: Path, limit: int, owner: int | None = None) -> bytes | str:
    """The bytes of ``path`` if it is a plain file of the submission, else why not.

    Opened without following a link and without blocking (a FIFO), and checked on the open file: a
    regular file, no other hard link to it (which could be a file of the course's), at most ``limit``
    bytes, and owned by the user ``owner`` if given. Nothing else is read, so a device or a pipe cannot
    stall or flood grading."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as err:
        return "a symbolic link, not followed" if err.errno == errno.ELOOP else f"cannot be read ({err.strerror})"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "not a plain file (a link, a pipe, a device...)"
        if info.st_nlink > 1:
            return "a hard link to another file"
        if owner is not None and info.st_uid != owner:
            return "not the student's own file"
        if info.st_size > limit:
            return f"larger than {limit} bytes"
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(limit + 1)
    finally:
        os.close(fd)


def read_submission(root: Path, sub: Submission) -> tuple[dict[Path, bytes], dict[Path, nbformat.NotebookNode]]:
    """The plain files of a submission but its notebooks (path within the submission -> bytes), and the
    notebooks the lecture expects that are readable notebooks. What is left out goes into ``sub.notes``."""
    source = root / "submitted" / sub.student / sub.lecture
    expected = {p.name for p in (root / "solutions" / sub.lecture).glob("*.ipynb")}
    files, notebooks, budget = {}, {}, MAX_SUBMISSION_BYTES
    for folder, dirs, names in os.walk(source):  # does not follow links to folders
        dirs[:] = sorted(d for d in dirs if d != ".ipynb_checkpoints")
        for name in sorted(names) + [d for d in dirs if (Path(folder) / d).is_symlink()]:
            path = Path(folder) / name
            rel = path.relative_to(source)
            if str(rel) == TIMESTAMP:
                sub.notes.append(f"{TIMESTAMP}: the submission's own, not used (its time is the collection's)")
                continue
            content = read_plain_file(path, min(MAX_FILE_BYTES, budget))
            if isinstance(content, str):
                sub.notes.append(f"{shown(rel)}: {content}, left out")
                continue
            budget -= len(content)
            if path.suffix != ".ipynb":
                files[rel] = content
                continue
            if str(rel) not in expected:
                sub.notes.append(f"{shown(rel)}: not a notebook of this lecture (expected "
                                 f"{', '.join(sorted(expected))}), left out")
                continue
            try:
                nb = nbformat.reads(json.dumps(with_cell_ids(json.loads(content.decode("utf-8")))), as_version=4)
                nbformat.validate(nb)
            except Exception as err:  # not JSON, not a notebook: graded as missing
                sub.notes.append(f"{shown(rel)}: not a readable notebook ({type(err).__name__}), graded as missing")
                continue
            notebooks[rel] = nb
    for name in sorted(expected - {p.name for p in notebooks}):
        if not any(name in n for n in sub.notes):
            sub.notes.append(f"{name}: missing, scores zero")
    return files, notebooks


def with_cell_ids(data):
    """A notebook's JSON with an id for every cell that has none (``cell-<index>``): nbformat would invent
    random ones, and the staged copy, its fingerprint and so its grading would change on every run."""
    if isinstance(data, dict) and isinstance(data.get("cells"), list):
        for k, cell in enumerate(data["cells"]):
            if isinstance(cell, dict) and not isinstance(cell.get("id"), str):
                cell["id"] = f"cell-{k}"
    return data


def record_collection(root: Path, lecture: str, records: dict[str, dict | str]) -> None:
    """Record how the submissions of ``lecture`` were collected, beside what was recorded before:
    student -> {"time": when the platform or the exchange received it (a time nbgrader can read), and
    what the platform says of it and of the student where it says so: "platform" (canvas, moodle,
    hub), "platform_id" (the student's id there), "late_marker" (the platform marked it late),
    "first_name", "last_name", "email" (from the roster)}. A bare string is the time alone."""
    path = root / "submitted" / COLLECTION / f"{lecture}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    known = json.loads(path.read_text()) if path.is_file() else {}
    known.update({student: record if isinstance(record, dict) else {"time": record}
                  for student, record in records.items()})
    path.write_text(json.dumps(known, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def collection_record(root: Path, lecture: str, student: str) -> dict:
    """What the collection recorded of a student's submission ({} if nothing)."""
    path = root / "submitted" / COLLECTION / f"{lecture}.json"
    try:
        record = json.loads(path.read_text()).get(student)
    except (OSError, ValueError, AttributeError):
        return {}
    if isinstance(record, str):  # recorded by an earlier version: the time alone
        return {"time": record}
    return {k: v for k, v in record.items() if isinstance(v, (str, bool))} if isinstance(record, dict) else {}


def collected_at(root: Path, sub: Submission) -> str | None:
    return collection_record(root, sub.lecture, sub.student).get("time")
