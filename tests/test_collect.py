"""`make collect` (tools/collect.py): a Canvas zip and a Moodle zip of lecture 12 into submitted/, by a roster.

The zips hold what a platform really gives an instructor, and what students put there: a resubmission
(the latest wins), a late one, a name the roster lacks, a PDF, a file that is not JSON, and paths meant to
write outside `submitted/`.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

import collect
from conftest import ROOT

LECTURE = "12-pca"
ROSTER = """student_id,first_name,last_name,platform_id
s001,Jane,Doe,
s002,Élodie,Martin,
s003,Ravi,Kumar,4242
s004,Jane,Dorr,
"""


def _notebook(tag: str) -> bytes:
    nb = json.loads(next((ROOT / "notebooks" / LECTURE).glob("*.ipynb")).read_text())
    nb["metadata"]["tag"] = tag                      # which upload ended up where
    return json.dumps(nb).encode()


def _zip(path: Path, members: list[tuple[str, bytes, tuple]]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data, when in members:
            archive.writestr(zipfile.ZipInfo(name, date_time=when), data)
    return path


@pytest.fixture()
def course(tmp_path) -> Path:
    root = tmp_path / "course"
    for part in (f"notebooks/{LECTURE}", f"solutions/{LECTURE}"):
        shutil.copytree(ROOT / part, root / part)
    (root / "roster.csv").write_text(ROSTER, encoding="utf-8")
    return root


def _tag(root: Path, student: str) -> str:
    return json.loads((root / "submitted" / student / LECTURE / "pca.ipynb").read_text())["metadata"]["tag"]


def test_a_canvas_zip(course):
    day = lambda d, h=12: (2026, 11, d, h, 0, 0)
    archive = _zip(course / "canvas.zip", [
        ("doejane_1001_9001_pca.ipynb", _notebook("jane first"), day(1)),
        ("doejane_1001_9050_pca-1.ipynb", _notebook("jane resubmitted"), day(3)),
        ("martinelodie_LATE_1002_9002_pca.ipynb", _notebook("elodie late"), day(5)),
        ("kumarravi_4242_9003_my pca.ipynb", _notebook("ravi"), day(2)),
        ("smithjohn_1009_9009_pca.ipynb", _notebook("not enrolled"), day(2)),
        ("dorrjane_1004_9004_report.pdf", b"%PDF-1.4", day(2)),
        ("dorrjane_1004_9005_pca.ipynb", b"{not json", day(2)),
        ("../../escape_1_2_pca.ipynb", _notebook("escape"), day(2)),
    ])
    printed = io.StringIO()
    outcome = collect.collect(archive, LECTURE, course / "roster.csv", root=course)
    collect.report(outcome, LECTURE, out=printed)
    assert sorted(s for s, _, _ in outcome.collected) == ["s001", "s002", "s003"]
    assert _tag(course, "s001") == "jane resubmitted" and _tag(course, "s002") == "elodie late" and _tag(course, "s003") == "ravi"
    assert outcome.replaced == [("s001", "doejane_1001_9001_pca.ipynb", "doejane_1001_9050_pca-1.ipynb")]
    why = dict(outcome.left_out)
    assert "no student of the roster is 'smithjohn'" in why["smithjohn_1009_9009_pca.ipynb"]
    assert why["dorrjane_1004_9004_report.pdf"] == "not a notebook (s004)"
    assert "not JSON (s004)" in why["dorrjane_1004_9005_pca.ipynb"]
    assert why["../../escape_1_2_pca.ipynb"] == "not at the top of the Canvas zip"
    assert sorted(p.name for p in (course / "submitted").iterdir()) == [".collection", "s001", "s002", "s003"]
    records = json.loads((course / "submitted" / ".collection" / f"{LECTURE}.json").read_text())
    assert records == {
        "s001": {"time": "2026-11-03 12:00:00", "platform": "canvas", "platform_id": "1001", "first_name": "Jane", "last_name": "Doe"},
        "s002": {"time": "2026-11-05 12:00:00", "platform": "canvas", "platform_id": "1002", "late_marker": True,
                 "first_name": "Élodie", "last_name": "Martin"},
        "s003": {"time": "2026-11-02 12:00:00", "platform": "canvas", "platform_id": "4242", "first_name": "Ravi", "last_name": "Kumar"},
    }
    assert not (course.parent / "escape_1_2_pca.ipynb").exists() and not list(course.parent.parent.glob("*.ipynb"))
    text = printed.getvalue()
    assert "3 notebook(s) collected" in text and "doejane_1001_9050_pca-1.ipynb is the latest" in text
    assert "kumarravi_4242_9003_my pca.ipynb  (renamed to the release's name)" in text
    assert "marked late by the platform: s002 (make export applies the late policy" in text


def test_a_moodle_zip_with_folders(course):
    archive = _zip(course / "moodle.zip", [
        ("Jane Doe_77_assignsubmission_file/pca.ipynb", _notebook("jane"), (2026, 11, 2, 9, 0, 0)),
        ("Élodie Martin_78_assignsubmission_file_pca.ipynb", _notebook("elodie"), (2026, 11, 2, 9, 0, 0)),
        ("Ravi Kumar_4242_assignsubmission_file/sub/../../../pca.ipynb", _notebook("ravi"), (2026, 11, 2, 9, 0, 0)),
        ("Jane Doe_77_assignsubmission_onlinetext_onlinetext.html", b"<p>hello</p>", (2026, 11, 2, 9, 0, 0)),
    ])
    outcome = collect.collect(archive, LECTURE, course / "roster.csv", root=course)
    assert sorted(s for s, _, _ in outcome.collected) == ["s001", "s002", "s003"]
    assert _tag(course, "s003") == "ravi"                                    # matched by its platform id; written by id only
    assert any("not a notebook (s001)" in why for _, why in outcome.left_out)


def test_a_moodle_zip_credits_a_file_to_the_folder_it_is_in_whatever_its_name(course):
    """Jane's folder holds a file named like Ravi's Canvas upload: it is Jane's (the platform's folder says
    so), and Ravi's own upload, in his folder, is the one collected for him."""
    when = (2026, 11, 2, 9, 0, 0)
    archive = _zip(course / "moodle.zip", [
        ("Jane Doe_77_assignsubmission_file/kumarravi_4242_9003_pca.ipynb", _notebook("jane, named like ravi"), (2026, 11, 3, 9, 0, 0)),
        ("Ravi Kumar_4242_assignsubmission_file/pca.ipynb", _notebook("ravi"), when),
        ("kumarravi_4242_9004_pca.ipynb", _notebook("at the top, named like ravi"), (2026, 11, 4, 9, 0, 0)),
    ])
    outcome = collect.collect(archive, LECTURE, course / "roster.csv", root=course)
    assert sorted(s for s, _, _ in outcome.collected) == ["s001", "s003"]
    assert _tag(course, "s003") == "ravi" and _tag(course, "s001") == "jane, named like ravi"
    assert dict(outcome.left_out)["kumarravi_4242_9004_pca.ipynb"].startswith("not in a student's folder")


def test_nothing_in_submitted_is_overwritten_unless_forced(course):
    target = course / "submitted" / "s001" / LECTURE / "pca.ipynb"
    target.parent.mkdir(parents=True)
    target.write_text("graded already")
    archive = _zip(course / "c.zip", [("doejane_1001_9001_pca.ipynb", _notebook("new"), (2026, 11, 1, 0, 0, 0))])
    outcome = collect.collect(archive, LECTURE, course / "roster.csv", root=course)
    assert target.read_text() == "graded already" and "FORCE=1 replaces it" in outcome.left_out[0][1]
    collect.collect(archive, LECTURE, course / "roster.csv", root=course, force=True)
    assert _tag(course, "s001") == "new"


@pytest.mark.parametrize("roster, message", [
    ("id,name\nx,y\n", "lacks the column"),
    ("student_id,first_name,last_name\n../evil,A,B\n", "must be letters, digits"),
    ("student_id,first_name,last_name\ns1,A,B\ns1,C,D\n", "appears twice"),
])
def test_a_bad_roster_is_named(course, roster, message):
    (course / "bad.csv").write_text(roster)
    archive = _zip(course / "c.zip", [])
    with pytest.raises(SystemExit, match=message):
        collect.collect(archive, LECTURE, course / "bad.csv", root=course)


def test_two_roster_rows_with_one_name_need_a_platform_id(course):
    (course / "twins.csv").write_text("student_id,first_name,last_name\nt1,Sam,Lee\nt2,Sam,Lee\n")
    archive = _zip(course / "c.zip", [("leesam_5_6_pca.ipynb", _notebook("sam"), (2026, 11, 1, 0, 0, 0))])
    outcome = collect.collect(archive, LECTURE, course / "twins.csv", root=course)
    assert not outcome.collected and "2 students of the roster match 'leesam': give platform_id" in outcome.left_out[0][1]


def test_a_notebook_larger_than_the_limit_is_left_out_unread(course, monkeypatch):
    monkeypatch.setattr(collect, "MAX_BYTES", 1000)
    archive = _zip(course / "c.zip", [("doejane_1001_9001_pca.ipynb", _notebook("big"), (2026, 11, 1, 0, 0, 0))])
    outcome = collect.collect(archive, LECTURE, course / "roster.csv", root=course)
    assert not outcome.collected and outcome.left_out[0][1].startswith("larger than") and outcome.left_out[0][1].endswith("MB (s001)")
    assert not (course / "submitted").exists()


def test_not_a_zip_and_an_unknown_lecture_are_named(course):
    (course / "x.zip").write_text("not a zip")
    with pytest.raises(SystemExit, match="is not a zip file"):
        collect.collect(course / "x.zip", LECTURE, course / "roster.csv", root=course)
    with pytest.raises(SystemExit, match="no lecture '99-x'"):
        collect.collect(course / "x.zip", "99-x", course / "roster.csv", root=course)
