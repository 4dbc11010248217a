"""Grading on a Dask cluster (`make autograde SCHEDULER=...`, tools/grade_dask.py).

A scheduler and two workers run as separate processes on loopback; the class is small (four
submissions of the lecture that is cheapest to grade), graded once on this machine and once on the
cluster, and the gradebooks must hold the same marks, cell by cell: with both workers, and (three of
the submissions) with one of them killed (SIGKILL, with everything it started) once the first result
has come back.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import socket
import time

import pytest
from nbgrader.api import Gradebook

from conftest import ROOT, hand_in, scratch_course

import course
import grade
import grade_dask

pytest.importorskip("distributed")

pytestmark = pytest.mark.grading

# as tests/test_grading_pipeline.py: confined where bubblewrap and root are, else unconfined
SANDBOX = shutil.which("bwrap") is not None and os.geteuid() == 0
# the cheapest lecture to grade (about 3.7 s for one submission alone on 2 cores, the dearest 4.8 s)
LECTURE = "13-ensembles"
STUDENTS = ("filled", "untouched", "one_wrong", "no_notebook")
SECRET = "5e" * 32  # the grading secret of the instructor and of every worker, for these tests


@pytest.fixture(scope="module", autouse=True)
def grading_secret():
    """One secret for the instructor's grading here and for the workers (which get it by their
    environment, as a worker may: docs/instructors.md)."""
    with grade.environment({"MLCOURSE_GRADING_SECRET": SECRET}):
        yield SECRET


def make_class(folder):
    """A scratch course with the release of LECTURE and four submissions: every answer right, the
    release untouched, the first exercise left undone, and no notebook at all."""
    folder.mkdir(parents=True, exist_ok=True)
    root = scratch_course(folder)
    course.nbgrader("generate_assignment", LECTURE, "--log-level=WARN", root=root)
    hand_in(root, LECTURE, STUDENTS[:3])
    (root / "submitted" / "no_notebook" / LECTURE).mkdir(parents=True)
    (root / "submitted" / "no_notebook" / LECTURE / "answers.txt").write_text("I wrote my answers here\n")
    return root


def marks(root, students=STUDENTS):
    """Everything grading puts in the gradebook, per student and cell."""
    got = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        for student in students:
            s = gb.find_submission(LECTURE, student)
            got[student, "timestamp"] = s.timestamp
            for nb in s.notebooks:
                got[student, nb.name, "late"] = nb.late_submission_penalty
                for g in nb.grades:
                    got[student, nb.name, g.name] = (g.auto_score, g.manual_score, g.needs_manual_grade, g.max_score)
                for c in nb.comments:
                    got[student, nb.name, c.name, "comment"] = c.auto_comment
        submissions = len(gb.find_assignment(LECTURE).submissions)
    return got, submissions


@pytest.fixture(scope="module")
def local_marks(tmp_path_factory):
    root = make_class(tmp_path_factory.mktemp("local"))
    outcomes = grade.run(root, sandbox=SANDBOX, jobs=2, out=io.StringIO())
    assert [o.status for o in outcomes] == ["graded"] * len(STUDENTS), [(o.submission.name, o.why) for o in outcomes]
    got, submissions = marks(root)
    assert submissions == len(STUDENTS)
    # the class is not all one mark: the comparisons below can fail
    scores = {o.submission.student: o.score for o in outcomes}
    assert scores["filled"] > scores["one_wrong"] > scores["untouched"] == scores["no_notebook"] == 0
    return got


def worker_names(address):
    from distributed import Client

    with Client(address, timeout=10, set_as_default=False) as client:
        return {info["name"]: a for a, info in client.scheduler_info(n_workers=-1)["workers"].items()}


def test_a_class_graded_on_two_workers_gets_the_marks_of_local_grading(tmp_path, local_marks):
    root = make_class(tmp_path / "course")
    with grade_dask.local_cluster(tmp_path / "cluster", workers=2) as cluster:
        workers = set(worker_names(cluster.address).values())
        out = io.StringIO()
        outcomes = grade.run(root, sandbox=SANDBOX, out=out, scheduler=cluster.address)
        text = out.getvalue()
        assert [o.status for o in outcomes] == ["graded"] * len(STUDENTS), text
        assert {o.worker for o in outcomes} <= workers and all(o.worker for o in outcomes)
        assert marks(root) == (local_marks, len(STUDENTS))
        # this machine wrote what local grading writes
        for student in STUDENTS:
            assert list((root / "autograded" / student / LECTURE).glob("*.ipynb")), student
            log = (root / "logs" / "autograde" / LECTURE / f"{student}.log").read_text()
            assert log.startswith(f"{student}/{LECTURE}: graded"), log
        assert "no gradable notebook: graded as an empty submission" in text
        # progress as today, and the summary says which worker graded what
        assert re.search(r"\[4/4\] .*: graded.* on tcp://127\.0\.0\.1:\d+\); 0 left, \d+ s elapsed", text), text
        header = next(line for line in text.splitlines() if line.startswith("submission"))
        assert header.split()[:5] == ["submission", "status", "autograded", "by", "hand"] and "worker" in header
        row = next(line for line in text.splitlines() if line.startswith(f"filled/{LECTURE} "))
        assert any(w in row for w in workers), row
        # a second run finds every result recorded: nothing is graded again
        again = grade.run(root, sandbox=SANDBOX, out=io.StringIO(), scheduler=cluster.address)
        assert [o.status for o in again] == ["unchanged"] * len(STUDENTS)
    assert marks(root) == (local_marks, len(STUDENTS))


class KillOnFirstResult(io.StringIO):
    """Progress output that, at the first submission graded, kills the worker that did not grade it (it
    is then grading its own first one): its submissions must be graded elsewhere, each once."""

    def __init__(self, cluster, names):
        super().__init__()
        self.cluster, self.names, self.killed = cluster, names, None

    def write(self, text):
        m = re.search(r"^\[\d+/\d+\] \S+: graded.* on (tcp://[\d.]+:\d+)\)", text)
        if m and self.killed is None:
            self.killed = next(a for a in self.names.values() if a != m[1])
            index = int(next(n for n, a in self.names.items() if a == self.killed).split("-")[1])
            self.cluster.kill_worker(index)
        return super().write(text)


def test_a_worker_killed_halfway_leaves_every_submission_graded_exactly_once(tmp_path, local_marks):
    root = make_class(tmp_path / "course")
    students = STUDENTS[:3]  # three tasks (cheaper): two for one worker, one for the other
    shutil.rmtree(root / "submitted" / STUDENTS[3])
    with grade_dask.local_cluster(tmp_path / "cluster", workers=2) as cluster:
        out = KillOnFirstResult(cluster, worker_names(cluster.address))
        outcomes = grade.run(root, sandbox=SANDBOX, out=out, scheduler=cluster.address)
        text = out.getvalue()
        assert out.killed, text
        assert sum(p.poll() is not None for p in cluster.workers) == 1
    assert [o.status for o in outcomes] == ["graded"] * len(students), text
    assert sorted(o.submission.student for o in outcomes) == sorted(students)  # each once
    for student in students:
        assert len(re.findall(rf"^\[\d/3\] {student}/", text, re.M)) == 1, text
    # the first result was the other worker's, and the killed one's results never reach this machine
    # (one finished but not yet fetched is lost with it, and computed again): the other graded them all
    assert len({o.worker for o in outcomes}) == 1 and out.killed not in {o.worker for o in outcomes}, text
    mine = {k: v for k, v in local_marks.items() if k[0] in students}
    assert marks(root, students) == (mine, len(students))


def test_an_unreachable_scheduler_is_named_at_once_and_nothing_is_written(tmp_path):
    root = scratch_course(tmp_path)
    (root / "submitted" / "alice" / LECTURE).mkdir(parents=True)
    with socket.socket() as s:  # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    start = time.monotonic()
    with pytest.raises(SystemExit) as stop:
        grade.run(root, sandbox=SANDBOX, out=io.StringIO(), scheduler=address)
    assert time.monotonic() - start < grade_dask.CONNECT_TIMEOUT + 10
    assert f"cannot reach the Dask scheduler at {address}" in str(stop.value)
    assert sorted(p.name for p in root.iterdir()) == ["nbgrader_config.py", "solutions", "submitted", "tools"]


def test_a_worker_with_another_secret_or_lecture_refuses_to_grade(tmp_path):
    """Other marks are never given in silence: a worker checks the instructor's lecture and secret
    (their hashes travel, the secret does not) before it grades."""
    item = grade_dask.Item("alice", LECTURE, (), (("answers.txt", b"42\n"),), "0" * 64)
    digest = grade_dask.folder_digest(ROOT / "solutions" / LECTURE)
    right = grade_dask.secret_check(SECRET.encode())
    assert SECRET not in right
    for task, words in ((grade_dask.Task(LECTURE, (item,), digest, grade_dask.secret_check(b"other"), SANDBOX),
                         "grading secret is not the instructor's"),
                        (grade_dask.Task(LECTURE, (item,), "1" * 64, right, SANDBOX),
                         f"solutions/{LECTURE} ({ROOT}) is not the instructor's")):
        [result] = grade_dask.grade_on_worker(task)
        assert result["status"] == "failed" and words in result["why"], result
