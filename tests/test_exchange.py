"""nbgrader's exchange with the course's layout, as on a shared JupyterHub: the instructor releases a lecture
into an exchange folder, two students with their own accounts fetch it, one answers and both submit, and the
instructor collects into `submitted/`, where `make autograde` finds the submissions.

The students are real accounts (created for the test, `mlcourse-alice` and `mlcourse-bob`); each command of
theirs runs as that user (bubblewrap for a private /tmp and the Python the course uses, then setpriv to drop
to the account), so the exchange's own permissions are what is tested: a student cannot read another's
submission. It needs root (to create the accounts and drop to them) and bubblewrap, as grading does.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

LECTURE = "12-pca"
COURSE = "foundations-of-ml"
STUDENTS = ("mlcourse-alice", "mlcourse-bob")

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("bwrap") or not shutil.which("useradd"),
                                reason="needs root, bubblewrap and useradd (two student accounts are created)")


def _account(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True)
        return pwd.getpwnam(name)


def _parents(*paths: Path) -> list[str]:
    args, seen = [], set()
    for path in paths:
        for parent in reversed(path.parents):
            if str(parent) != "/" and parent not in seen:
                seen.add(parent)
                args += ["--perms", "0755", "--dir", str(parent)]
    return args


def as_user(user: pwd.struct_passwd, home: Path, exchange: Path, *argv: str) -> subprocess.CompletedProcess:
    """``argv`` run as ``user`` (bubblewrap for a private /tmp and the course's Python, setpriv to drop)."""
    venv, base = Path(sys.prefix), Path(sys.base_prefix)
    cmd = ["bwrap", "--die-with-parent", "--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/tmp",
           *_parents(base, venv, home, exchange),
           "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
           "--ro-bind", str(base), str(base), "--ro-bind", str(venv), str(venv),
           "--bind", str(home), str(home), "--bind", str(exchange), str(exchange), "--chdir", str(home),
           "--clearenv", "--setenv", "HOME", str(home), "--setenv", "PATH", f"{venv}/bin:/usr/bin:/bin",
           "--setenv", "LANG", "C.UTF-8",
           "setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--", *argv]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def as_student(user: pwd.struct_passwd, home: Path, exchange: Path, *args: str) -> subprocess.CompletedProcess:
    return as_user(user, home, exchange, str(Path(sys.prefix) / "bin" / "python"), "-m", "nbgrader", *args,
                   "--course", COURSE, f"--Exchange.root={exchange}")


def make_as_instructor(course: Path, target: str, exchange: Path) -> subprocess.CompletedProcess:
    """The course's own `make hub-release` / `make hub-collect`, run in the scratch course."""
    return subprocess.run(["make", "-f", str(ROOT / "Makefile"), target, f"LECTURE={LECTURE}", f"EXCHANGE={exchange}",
                           "STAMP=", f"BIN={Path(sys.executable).parent}"],        # set up already: no install step
                          cwd=course, capture_output=True, text=True, timeout=300)


def test_release_fetch_submit_collect_with_two_student_accounts(tmp_path):
    course = tmp_path / "course"
    for part in (f"notebooks/{LECTURE}", f"solutions/{LECTURE}"):
        shutil.copytree(ROOT / part, course / part)
    shutil.copy(ROOT / "nbgrader_config.py", course)
    shutil.copytree(ROOT / "tools", course / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    exchange.chmod(0o777)                                           # nbgrader's exchange: everyone may enter
    tmp_path.chmod(0o755)
    released = make_as_instructor(course, "hub-release", exchange)
    assert released.returncode == 0, released.stderr[-2000:]

    users = {name: _account(name) for name in STUDENTS}
    for name, user in users.items():
        home = tmp_path / name
        home.mkdir()
        os.chown(home, user.pw_uid, user.pw_gid)
        fetched = as_student(user, home, exchange, "fetch_assignment", LECTURE)
        assert fetched.returncode == 0, f"{name} could not fetch:\n{fetched.stderr[-2000:]}"
        notebook = home / LECTURE / "pca.ipynb"
        assert notebook.stat().st_uid == user.pw_uid
    answered = json.loads((tmp_path / STUDENTS[0] / LECTURE / "pca.ipynb").read_text())
    for cell in answered["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("grade_id") == "centre":
            cell["source"] = "".join(cell["source"]).replace("raise NotImplementedError()", "return X - X.mean(axis=0)")
    (tmp_path / STUDENTS[0] / LECTURE / "pca.ipynb").write_text(json.dumps(answered))
    for name, user in users.items():
        submitted = as_student(user, tmp_path / name, exchange, "submit", LECTURE)
        assert submitted.returncode == 0, f"{name} could not submit:\n{submitted.stderr[-2000:]}"

    inbound = exchange / COURSE / "inbound"
    assert sorted(p.name.split("+")[0] for p in inbound.iterdir()) == sorted(STUDENTS)
    peek = as_student(users[STUDENTS[1]], tmp_path / STUDENTS[1], exchange, "list", "--inbound")
    assert STUDENTS[0] not in peek.stdout + peek.stderr, "a student can see another's submission"

    # Bob, hostile: a submission under Alice's name, newer than hers; Alice, hostile: links in her own
    # submission to a root-only file and to the solution notebook (hidden tests included).
    alice, bob = (users[name] for name in STUDENTS)
    secret = tmp_path / "root-only.txt"
    secret.write_text("root's secret")
    secret.chmod(0o600)
    forged = inbound / f"{STUDENTS[0]}+{LECTURE}+2099-01-01 00:00:00.000000 UTC+forged"
    wrong = json.dumps({**answered, "metadata": {**answered["metadata"], "forged": True}})
    made = as_user(bob, tmp_path / STUDENTS[1], exchange, "sh", "-c",
                   f"mkdir '{forged}' && printf '%s' '{wrong.replace(chr(39), '')}' > '{forged}/pca.ipynb'")
    assert made.returncode == 0, made.stderr
    [own] = [p for p in inbound.iterdir() if p.name.startswith(STUDENTS[0] + "+") and p != forged]
    linked = as_user(alice, tmp_path / STUDENTS[0], exchange, "sh", "-c",
                     f"ln -s '{secret}' '{own}/notes.txt' && ln -s '{course}/solutions/{LECTURE}/pca.ipynb' '{own}/sol.ipynb'")
    assert linked.returncode == 0, linked.stderr

    collected = make_as_instructor(course, "hub-collect", exchange)
    assert collected.returncode == 0, collected.stderr[-2000:]
    summary = collected.stdout
    for name in STUDENTS:
        path = course / "submitted" / name / LECTURE / "pca.ipynb"
        assert path.is_file(), f"collect did not write {path.relative_to(course)}"
        assert not (course / "submitted" / name / LECTURE / "timestamp.txt").exists(), "the student's own clock was copied"
    times = json.loads((course / "submitted" / ".collection" / f"{LECTURE}.json").read_text())
    assert sorted(times) == sorted(STUDENTS)
    assert all(t["time"].endswith("UTC") and not t["time"].startswith("2099") and t["platform"] == "hub" for t in times.values())
    mine = json.loads((course / "submitted" / STUDENTS[0] / LECTURE / "pca.ipynb").read_text())
    assert "forged" not in mine["metadata"], "a submission another student made under Alice's name was collected"
    sources = "".join("".join(c["source"]) for c in mine["cells"])
    assert "return X - X.mean(axis=0)" in sources
    assert sorted(p.name for p in (course / "submitted" / STUDENTS[0] / LECTURE).iterdir()) == ["pca.ipynb"]
    assert f"made by {STUDENTS[1]}, not by {STUDENTS[0]}" in summary, summary
    assert "notes.txt: a symbolic link, not followed" in summary and "sol.ipynb: a symbolic link, not followed" in summary
