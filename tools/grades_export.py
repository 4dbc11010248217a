"""`make export`: the gradebook as grades.csv, and as files Canvas and Moodle import.

- ``grades.csv``: a row per student and lecture, nbgrader's columns (assignment, duedate, timestamp, student_id,
  last_name, first_name, email, raw_score, late_submission_penalty, score, max_score) and where the
  submission came from (platform, platform_id) and how late it was (days_late). raw_score counts the
  autograded points and the points graded by hand; late_submission_penalty is what deadlines.toml takes
  (tools/deadlines.py); score is what is left. A submission grading could not finish reads "not graded".
- ``grades-canvas.csv``: for the students collected from a Canvas zip, Canvas's gradebook import format: the
  columns Student, ID (the Canvas user id from the zip), SIS User ID, SIS Login ID, Section, then a column per
  lecture, named as the lecture (Canvas asks which assignment it is on import). A lecture the student has no
  graded submission of is left blank, which Canvas leaves as it is.
- ``grades-moodle-<lecture>.csv``: for the students collected from a Moodle zip, the assignment's offline
  grading worksheet (Moodle: the assignment > "Upload grading worksheet"): Identifier ("Participant <id>", the
  id in the zip), Full name, Email address, Grade, Maximum Grade, Last modified (grade), Feedback comments.
  Moodle takes Grade as it is, so the assignment's maximum grade there must be the lecture's points.

Every field that a spreadsheet would read as a formula is written as text. Nothing is sent anywhere: the
files are uploaded by the instructor.
"""

from __future__ import annotations

import csv
import datetime as dt
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import deadlines  # noqa: E402
from course import plural  # noqa: E402
from staging import collection_record, shown  # noqa: E402

COLUMNS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email", "raw_score",
           "late_submission_penalty", "score", "max_score", "platform", "platform_id", "days_late"]
CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_COLUMNS = ["Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Last modified (grade)",
                  "Feedback comments"]
NOT_GRADED = "not graded"


@dataclass
class Row:
    lecture: str
    student: str
    first_name: str
    last_name: str
    email: str
    max_score: float
    submitted: dt.datetime | None = None  # None: no submission
    raw: float = 0.0
    penalty: float = 0.0
    days_late: int = 0
    not_graded: bool = False
    pending: bool = False  # written answers not graded by hand yet
    platform: str = ""
    platform_id: str = ""
    late_marker: bool = False

    @property
    def score(self) -> float:
        return max(0.0, self.raw - self.penalty)

    @property
    def full_name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p) or self.student


def spreadsheet_safe(value: str) -> str:
    """A CSV field that a spreadsheet shows as text: one starting like a formula gets a quote first."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") and not _is_number(value) else value


def _is_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def write_csv(path: Path, header: list[str], rows: list[list]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows([[spreadsheet_safe("" if v is None else str(v)) for v in row] for row in rows])


def number(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def gather(root: Path, url: str, policy: deadlines.Policy) -> list[Row]:
    """A row per lecture and student of the gradebook, the late policy applied."""
    from nbgrader.api import Gradebook, MissingEntry

    rows = []
    with Gradebook(url) as gb:
        for assignment in sorted(gb.assignments, key=lambda a: a.name):
            for student in sorted(gb.students, key=lambda s: s.id):
                record = collection_record(root, assignment.name, student.id)
                row = Row(assignment.name, student.id, student.first_name or record.get("first_name", ""),
                          student.last_name or record.get("last_name", ""), student.email or record.get("email", ""),
                          assignment.max_score, platform=record.get("platform", ""),
                          platform_id=record.get("platform_id", ""), late_marker=bool(record.get("late_marker")))
                try:
                    submission = gb.find_submission(assignment.name, student.id)
                except MissingEntry:
                    rows.append(row)
                    continue
                row.submitted = submission.timestamp.replace(tzinfo=dt.timezone.utc) if submission.timestamp else None
                row.raw, row.pending = submission.score, submission.needs_manual_grade
                late = policy.seconds_late(assignment.name, row.submitted)
                row.days_late = -(-int(late) // deadlines.DAY) if late else 0
                row.penalty = row.raw * policy.penalty_share(late)
                row.not_graded = (root / "logs" / "autograde" / assignment.name / f"{student.id}.failed").is_file()
                rows.append(row)
    return rows


def write_grades(root: Path, rows: list[Row], policy: deadlines.Policy) -> None:
    table = []
    for r in rows:
        deadline = policy.deadlines.get(r.lecture)
        graded = r.submitted is not None or r.raw
        table.append([r.lecture, deadline.isoformat() if deadline else "",
                      r.submitted.isoformat() if r.submitted else "", r.student, r.last_name, r.first_name, r.email,
                      NOT_GRADED if r.not_graded else number(r.raw), number(r.penalty) if graded else "0",
                      NOT_GRADED if r.not_graded else number(r.score), number(r.max_score), r.platform, r.platform_id,
                      r.days_late])
    write_csv(root / "grades.csv", COLUMNS, table)


def uploadable(r: Row) -> bool:
    return r.submitted is not None and not r.not_graded


def write_canvas(root: Path, rows: list[Row]) -> Path | None:
    canvas = [r for r in rows if r.platform == "canvas" and r.platform_id]
    if not canvas:
        return None
    lectures = sorted({r.lecture for r in canvas})
    students = {}
    for r in canvas:
        entry = students.setdefault(r.platform_id, {"name": ", ".join(p for p in (r.last_name, r.first_name) if p)
                                                    or r.student, "cells": {}})
        if uploadable(r):
            entry["cells"][r.lecture] = number(r.score)
    table = [[entry["name"], pid, "", "", "", *[entry["cells"].get(lec, "") for lec in lectures]]
             for pid, entry in sorted(students.items(), key=lambda item: item[1]["name"])]
    path = root / "grades-canvas.csv"
    write_csv(path, CANVAS_COLUMNS + lectures, table)
    return path


def comment(r: Row, policy: deadlines.Policy) -> str:
    text = f"{number(r.raw)}/{number(r.max_score)} points"
    if r.penalty:
        text += (f"; {r.days_late} day(s) late ({policy.describe(r.lecture)}): -{number(r.penalty)}, "
                 f"{number(r.score)} counted")
    if r.pending:
        text += "; written answers not graded yet"
    return text


def write_moodle(root: Path, rows: list[Row], policy: deadlines.Policy, when: dt.datetime) -> list[Path]:
    paths = []
    for lecture in sorted({r.lecture for r in rows if r.platform == "moodle" and r.platform_id}):
        chosen = [r for r in rows if r.lecture == lecture and r.platform == "moodle" and r.platform_id and uploadable(r)]
        table = [[f"Participant {r.platform_id}", r.full_name, r.email, number(r.score), number(r.max_score),
                  when.strftime("%Y-%m-%d %H:%M:%S"), comment(r, policy)] for r in chosen]
        path = root / f"grades-moodle-{lecture}.csv"
        write_csv(path, MOODLE_COLUMNS, table)
        paths.append(path)
    return paths


def export(root: Path, url: str, known_lectures: list[str], out=sys.stdout) -> bool:
    policy = deadlines.load(root)
    unknown = sorted(set(policy.deadlines) - set(known_lectures))
    if unknown:
        print(f"{deadlines.FILE}: no lecture is called {', '.join(unknown)} (the lectures are "
              f"{', '.join(known_lectures)}); nothing was written", file=out)
        return False
    rows = gather(root, url, policy)
    write_grades(root, rows, policy)
    written = [p for p in (write_canvas(root, rows), *write_moodle(root, rows, policy, dt.datetime.now())) if p]
    print(f"wrote grades.csv: {plural(len(rows), 'row')}, {plural(len({r.student for r in rows}), 'student')}, "
          f"{plural(len({r.lecture for r in rows}), 'lecture')}; raw_score counts the autograded points and the points "
          "graded by hand, score what the late policy leaves of it", file=out)
    for path in written:
        kind = "Canvas's gradebook import" if path.name == "grades-canvas.csv" else "Moodle's grading worksheet"
        print(f"wrote {path.name}: {kind} (upload it to the platform)", file=out)
    late = [r for r in rows if r.days_late]
    for r in late:
        print(f"late: {shown(r.student)}/{r.lecture}, {r.days_late} day(s) after the deadline: "
              f"-{number(r.penalty)} of {number(r.raw)} ({policy.describe(r.lecture)})", file=out)
    unpenalised = [f"{shown(r.student)}/{r.lecture}" for r in rows if r.late_marker and r.lecture not in policy.deadlines]
    if unpenalised:
        print(f"marked late by the platform, but {deadlines.FILE} gives no deadline for the lecture, so no penalty: "
              f"{', '.join(unpenalised)}", file=out)
    waiting = [f"{shown(r.student)}/{r.lecture}" for r in rows if r.pending]
    if waiting:
        print(f"not graded by hand yet, so their written answers count 0: {', '.join(waiting)}", file=out)
    failed = [f"{shown(r.student)}/{r.lecture}" for r in rows if r.not_graded]
    if failed:
        print(f"could not be graded, so their score reads {NOT_GRADED!r} (not 0) and no platform file holds them: "
              f"{', '.join(failed)}; run make autograde again", file=out)
    return True
