"""Parallel autograding over a PostgreSQL gradebook (the server .ci/run installs and starts).

SQLite takes one writer at a time, so `make autograde` grades in parallel only over a server
database. Here: several submissions graded with two jobs into a fresh PostgreSQL database, and
every score must be right.
"""

from __future__ import annotations

import io
import os
import uuid

import nbformat
import pytest

from conftest import ROOT, scratch_course
import course
import grade
from course import filled_release
from test_grading_pipeline import SANDBOX

URL = os.environ.get("MLCOURSE_TEST_POSTGRES")
if not URL:
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI must test the PostgreSQL gradebook: .ci/run sets MLCOURSE_TEST_POSTGRES")
    pytest.skip("set MLCOURSE_TEST_POSTGRES=postgresql://... (see .ci/postgres) to test a PostgreSQL gradebook",
                allow_module_level=True)

LECTURE = "02-perceptron"


@pytest.fixture(scope="module")
def database():
    import psycopg2

    name = f"gradebook_{uuid.uuid4().hex[:12]}"
    admin = psycopg2.connect(f"{URL}/postgres".replace("+psycopg2", ""))
    admin.autocommit = True
    admin.cursor().execute(f"CREATE DATABASE {name}")
    yield f"{URL}/{name}"
    admin.cursor().execute(f"DROP DATABASE {name} WITH (FORCE)")
    admin.close()


@pytest.fixture(scope="module")
def graded(tmp_path_factory, database):
    root = scratch_course(tmp_path_factory.mktemp("course"))
    os.environ["MLCOURSE_GRADEBOOK"] = database
    try:
        course.nbgrader("generate_assignment", LECTURE, "--log-level=WARN", root=root)
        solution = nbformat.read(ROOT / "solutions" / LECTURE / "perceptron.ipynb", as_version=4)
        release = nbformat.read(root / "notebooks" / LECTURE / "perceptron.ipynb", as_version=4)
        kinds = {"ada": filled_release(release, solution), "bea": release,
                 "cyd": filled_release(release, solution), "dan": release}
        for student, nb in kinds.items():
            (root / "submitted" / student / LECTURE).mkdir(parents=True)
            nbformat.write(nb, root / "submitted" / student / LECTURE / "perceptron.ipynb")
        out = io.StringIO()
        outcomes = grade.run(root, jobs=2, sandbox=SANDBOX, out=out)
    finally:
        del os.environ["MLCOURSE_GRADEBOOK"]
    return outcomes, out.getvalue(), database


def test_parallel_grading_into_postgresql_gives_every_score(graded):
    outcomes, log, url = graded
    assert "with 2 job(s)" in log
    got = {o.submission.student: (o.status, o.score) for o in outcomes}
    assert got == {"ada": ("graded", 17.0), "bea": ("graded", 0.0), "cyd": ("graded", 17.0), "dan": ("graded", 0.0)}
    from nbgrader.api import Gradebook

    with Gradebook(url) as gb:
        assert sorted(s.id for s in gb.students) == ["ada", "bea", "cyd", "dan"]
        assert gb.find_submission(LECTURE, "ada").max_code_score == 17.0
