"""`make hub-collect LECTURE=...`: fill `submitted/` from nbgrader's exchange on a shared JupyterHub.

Students submit with `nbgrader submit` (or the Assignments tab): each submission is a folder
``<exchange>/<course>/inbound/<student>+<lecture>+<time>+<random>`` that the student's own account made,
writable by all under a name others cannot list. nbgrader's `collect` trusts what it finds there (a folder
under another student's name is only warned about; links are followed, as root). This one trusts the
exchange's owners and nothing a student wrote:

- a submission counts for the student its name carries only if that student's account owns its folder
  (a real folder, not a link); anything else is refused and named in the summary;
- of a student's submissions the newest counts, by the time the system gave its folder (``st_ctime``, which
  a student cannot set back), never by the time in its name or its ``timestamp.txt``;
- only regular files owned by that account are copied (no links of either kind, no pipes or devices), each
  within the size caps of grading; ``timestamp.txt`` is not copied: the time of collection is recorded in
  ``submitted/.collection/<lecture>.json``, where grading reads it;
- a submission already in ``submitted/`` is kept unless FORCE=1 (as `make collect` does).

    python tools/hub_collect.py LECTURE --exchange /srv/nbgrader/exchange [--force]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import pwd
import shutil
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from course import lectures  # noqa: E402
from staging import (MAX_FILE_BYTES, MAX_SUBMISSION_BYTES, STUDENT_ID, TIMESTAMP, read_plain_file,  # noqa: E402
                     record_collection, shown)

COURSE_ID = "foundations-of-ml"  # nbgrader_config.py's CourseDirectory.course_id


@dataclass
class Outcome:
    collected: list = field(default_factory=list)  # (student, folder name, files copied)
    refused: list = field(default_factory=list)  # (folder or file, why)
    older: list = field(default_factory=list)  # (student, folder name) not collected: a newer one was


def owner_uid(student: str) -> int | None:
    try:
        return pwd.getpwnam(student).pw_uid
    except KeyError:
        return None


def candidates(inbound: Path, lecture: str, outcome: Outcome) -> dict[str, tuple[float, Path]]:
    """The newest submission of each student whose account owns it: student -> (ctime, folder)."""
    newest: dict[str, tuple[float, Path]] = {}
    for entry in sorted(inbound.iterdir()):
        parts = entry.name.split("+")
        if len(parts) < 3 or parts[1] != lecture:
            continue
        student = parts[0]
        info = entry.lstat()
        if not stat.S_ISDIR(info.st_mode):
            outcome.refused.append((entry.name, "not a folder (a link, or a file)"))
        elif not STUDENT_ID.fullmatch(student):
            outcome.refused.append((entry.name, "not a valid student id"))
        elif owner_uid(student) is None:
            outcome.refused.append((entry.name, f"no account is named {student}"))
        elif info.st_uid != owner_uid(student):
            outcome.refused.append((entry.name, f"made by {account_name(info.st_uid)}, not by {student}: not collected"))
        else:
            if student in newest:
                old, new = sorted([newest[student], (info.st_ctime, entry)])
                outcome.older.append((student, old[1].name))
                newest[student] = new
            else:
                newest[student] = (info.st_ctime, entry)
    return newest


def account_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def copy_submission(folder: Path, target: Path, uid: int, outcome: Outcome) -> int:
    """Copy the student's own regular files of ``folder`` into ``target``; the number copied."""
    copied, budget = 0, MAX_SUBMISSION_BYTES
    for here, dirs, names in os.walk(folder):  # does not follow links to folders
        for name in sorted(dirs):
            path = Path(here) / name
            if path.is_symlink() or path.lstat().st_uid != uid:
                outcome.refused.append((str(path.relative_to(folder.parent)), "a link, or not the student's own folder"))
                dirs.remove(name)
        for name in sorted(names):
            path = Path(here) / name
            rel = path.relative_to(folder)
            if str(rel) in (TIMESTAMP, "submission_secret.txt"):
                continue  # nbgrader's bookkeeping, the student's clock: the collection's time is recorded instead
            content = read_plain_file(path, min(MAX_FILE_BYTES, budget), owner=uid)
            if isinstance(content, str):
                outcome.refused.append((str(path.relative_to(folder.parent)), content))
                continue
            budget -= len(content)
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            (target / rel).write_bytes(content)
            copied += 1
    return copied


def collect(exchange: Path, lecture: str, root: Path = ROOT, force: bool = False) -> Outcome:
    if lecture not in lectures(root):
        raise SystemExit(f"no lecture {lecture!r}; the lectures are {', '.join(lectures(root))}")
    inbound = exchange / COURSE_ID / "inbound"
    if not inbound.is_dir():
        raise SystemExit(f"{inbound} does not exist: release with `make hub-release` first (EXCHANGE=...)")
    outcome, times = Outcome(), {}
    for student, (ctime, folder) in sorted(candidates(inbound, lecture, outcome).items()):
        target = root / "submitted" / student / lecture
        if target.exists() and not force:
            outcome.refused.append((folder.name, f"submitted/{student}/{lecture} exists already; FORCE=1 replaces it"))
            continue
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        count = copy_submission(folder, target, owner_uid(student), outcome)
        outcome.collected.append((student, folder.name, count))
        times[student] = {"time": dt.datetime.fromtimestamp(ctime, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f UTC"),
                          "platform": "hub"}
    if times:
        record_collection(root, lecture, times)
    return outcome


def report(outcome: Outcome, lecture: str, out=sys.stdout) -> None:
    print(f"{lecture}: {len(outcome.collected)} submission(s) collected into submitted/, "
          f"{len(outcome.refused)} refused, {len(outcome.older)} older one(s) not collected", file=out)
    for student, folder, count in outcome.collected:
        print(f"  collected  {student:<16} {shown(folder)} ({count} file(s))", file=out)
    for student, folder in outcome.older:
        print(f"  older      {student:<16} {shown(folder)}: a newer submission was collected", file=out)
    for what, why in outcome.refused:
        print(f"  refused    {shown(what)}: {shown(why)}", file=out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lecture")
    parser.add_argument("--exchange", type=Path, required=True)
    parser.add_argument("--force", action="store_true", help="replace submissions already in submitted/")
    args = parser.parse_args()
    report(collect(args.exchange, args.lecture, force=args.force), args.lecture)


if __name__ == "__main__":
    main()
