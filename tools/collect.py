"""`make collect ZIP=... LECTURE=... ROSTER=...`: fill `submitted/` from the zip a learning platform gives.

Canvas and Moodle let an instructor download every submission of an assignment as one zip, naming each file
after its student:

- Canvas: ``doejane_1234_567890_pca.ipynb`` (sortable name, lower case, no spaces; ``_LATE`` after it when
  late; the Canvas user id; the submission id; the file's own name, with ``-1``, ``-2`` for a resubmission);
- Moodle: ``Jane Doe_1234_assignsubmission_file_pca.ipynb``, or a folder ``Jane Doe_1234_assignsubmission_file/``
  holding ``pca.ipynb`` (full name, participant id).

The roster (CSV with a header) maps those to the course's student ids: ``student_id`` (the folder name in
`submitted/`), ``first_name``, ``last_name``, and optionally ``platform_id`` (the Canvas user id or Moodle
participant id, which wins over the name when given) and ``email``. What the platform says of each collected
submission (its time, the student's id there, Canvas's late marker) and the roster's names are recorded in
`submitted/.collection/<lecture>.json`, for `make export` to send the grades back. Every notebook of the zip ends up in
`submitted/<student_id>/<lecture>/<the release's notebook name>`, or in the summary with the reason it did not:
a name the roster does not know, a file that is not a notebook, a notebook that is not valid JSON, a file too
large, or an older duplicate (the latest one, by the zip's time stamp, wins, and the summary says so).
A submission already in `submitted/` is never overwritten unless FORCE=1.

The zip is read as data: no path inside it is used to write (only the student and the lecture decide where a
notebook goes), nothing is extracted but the notebooks chosen, and each is read with a size limit.

nbgrader's `zip_collect` (with its file-name plugin) does the same job by extracting the whole archive to disk
first and matching names by one regular expression; the course needs a roster, the latest-wins rule and a
summary of everything left out, so it reads the zip itself.

    python tools/collect.py ZIP --lecture 12-pca --roster roster.csv [--force]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from course import lectures  # noqa: E402
from staging import STUDENT_ID, record_collection, shown  # noqa: E402

MAX_BYTES = 20 * 1024 * 1024
CANVAS = re.compile(r"(?P<key>[a-z]+)(?P<late>_LATE)?_(?P<uid>\d+)_(?P<sub>\d+)_(?P<file>.+)")
MOODLE = re.compile(r"(?P<name>[^/_]+)_(?P<uid>\d+)_assign(?:submission|feedback)_\w+?(?:_(?P<file>[^/]+)|/(?P<inner>.+))")


@dataclass
class Outcome:
    collected: list = field(default_factory=list)      # (student, member, renamed?)
    left_out: list = field(default_factory=list)       # (member, why)
    replaced: list = field(default_factory=list)       # (student, older member, newer member)
    records: dict = field(default_factory=dict)        # student -> what the platform says (staging.record_collection)

    @property
    def late(self) -> list[str]:
        """Students whose submission the platform marked late."""
        return sorted(s for s, r in self.records.items() if r.get("late_marker"))


def _fold(text: str) -> str:
    """Lower case letters only, accents dropped: how Canvas writes a sortable name into a file name."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", plain.lower())


def _name(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def read_roster(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise SystemExit(f"{path}: the roster is empty (a header student_id,first_name,last_name[,platform_id] and a row per student)")
    missing = {"student_id", "first_name", "last_name"} - set(rows[0])
    if missing:
        raise SystemExit(f"{path}: the roster lacks the column(s) {', '.join(sorted(missing))}; its columns are {', '.join(rows[0])}")
    seen = set()
    for number, row in enumerate(rows, start=2):
        sid = (row["student_id"] or "").strip()
        if not STUDENT_ID.fullmatch(sid):
            raise SystemExit(f"{path}, line {number}: student_id {sid!r} must be letters, digits, '_', '.' or '-' "
                             "(it becomes a folder name)")
        if sid in seen:
            raise SystemExit(f"{path}, line {number}: student_id {sid!r} appears twice")
        seen.add(sid)
        row["student_id"] = sid
    return rows


def platform_of(names: list[str]) -> str:
    """Which platform wrote the zip, from its structure: Moodle names every member after its student
    (``Full Name_id_assignsubmission_...``, a file or a folder); Canvas puts every file at the top."""
    return "moodle" if any(MOODLE.fullmatch(n) for n in names) else "canvas"


def platform_facts(member: str, platform: str) -> dict:
    """What the platform's name of a zip member says: the student's id there, and its late marker."""
    m = (MOODLE if platform == "moodle" else CANVAS).fullmatch(member)
    if not m:
        return {}
    facts = {"platform": platform, "platform_id": m["uid"]}
    if platform == "canvas" and m["late"]:
        facts["late_marker"] = True
    return facts


def identify(member: str, roster: list[dict], platform: str = "canvas"):
    """The roster row and the uploaded file name of a zip member, or (None, why).

    The platform's own structure decides who a file belongs to: in a Moodle zip the member's folder (or
    the prefix of its name) that Moodle wrote, never a name found inside a student's folder; in a Canvas
    zip the name Canvas gave a file at the top of the zip."""
    if platform == "moodle":
        moodle = MOODLE.fullmatch(member)
        if not moodle:
            return None, "not in a student's folder of the Moodle zip (Full Name_id_assignsubmission_...)"
        uid, file = moodle["uid"], moodle["file"] or PurePosixPath(moodle["inner"]).name
        rows = [r for r in roster if (r.get("platform_id") or "").strip() == uid] or \
               [r for r in roster if _name(r["first_name"] + " " + r["last_name"]) == _name(moodle["name"])]
        who = moodle["name"]
    else:
        canvas = CANVAS.fullmatch(member)
        if not canvas:
            return None, ("not at the top of the Canvas zip" if "/" in member else
                          "its name is neither Canvas's (name_id_submission_file) nor Moodle's (Full Name_id_assignsubmission_...)")
        uid, file, who = canvas["uid"], canvas["file"], canvas["key"]
        rows = [r for r in roster if (r.get("platform_id") or "").strip() == uid] or \
               [r for r in roster if _fold(r["last_name"] + r["first_name"]) == canvas["key"]]
    if len(rows) != 1:
        return None, (f"no student of the roster is {who!r} (id {uid})" if not rows
                      else f"{len(rows)} students of the roster match {who!r}: give platform_id in the roster")
    return rows[0], file


def collect(zip_path: Path, lecture: str, roster_path: Path, root: Path = ROOT, force: bool = False) -> Outcome:
    if lecture not in lectures(root):
        raise SystemExit(f"no lecture {lecture!r}; the lectures are {', '.join(lectures(root))}")
    expected = next((root / "notebooks" / lecture).glob("*.ipynb")).name
    roster = read_roster(roster_path)
    outcome, chosen = Outcome(), {}
    try:
        archive = zipfile.ZipFile(zip_path)
    except (zipfile.BadZipFile, OSError) as error:
        raise SystemExit(f"{zip_path} is not a zip file the platform wrote ({error})")
    with archive:
        platform = platform_of([info.filename for info in archive.infolist()])
        for info in archive.infolist():
            if info.is_dir():
                continue
            row, file = identify(info.filename, roster, platform)
            if row is None:
                outcome.left_out.append((info.filename, file))
                continue
            if not file.lower().endswith(".ipynb"):
                outcome.left_out.append((info.filename, f"not a notebook ({row['student_id']})"))
                continue
            if info.file_size > MAX_BYTES:
                outcome.left_out.append((info.filename, f"larger than {MAX_BYTES / 2**20:g} MB ({row['student_id']})"))
                continue
            sid = row["student_id"]
            if sid in chosen:
                older, newer = sorted((chosen[sid], (info, file)), key=lambda pair: (pair[0].date_time, pair[0].filename))
                outcome.replaced.append((sid, older[0].filename, newer[0].filename))
                chosen[sid] = newer
            else:
                chosen[sid] = (info, file)
        for sid, (info, file) in sorted(chosen.items()):
            with archive.open(info) as f:
                data = f.read(MAX_BYTES + 1)               # the size in the zip's header may lie
            if len(data) > MAX_BYTES:
                outcome.left_out.append((info.filename, f"larger than {MAX_BYTES / 2**20:g} MB ({sid})"))
                continue
            try:
                json.loads(data.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                outcome.left_out.append((info.filename, f"not a valid notebook: not JSON ({sid})"))
                continue
            target = root / "submitted" / sid / lecture / expected
            if target.exists() and not force:
                outcome.left_out.append((info.filename, f"{target.relative_to(root)} exists already; FORCE=1 replaces it"))
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            outcome.collected.append((sid, info.filename, file == expected))
            row = next(r for r in roster if r["student_id"] == sid)
            outcome.records[sid] = {
                "time": "%04d-%02d-%02d %02d:%02d:%02d" % info.date_time,  # the platform's upload time
                **platform_facts(info.filename, platform),
                **{key: row[key].strip() for key in ("first_name", "last_name", "email") if (row.get(key) or "").strip()},
            }
    if outcome.records:
        record_collection(root, lecture, outcome.records)
    return outcome


def report(outcome: Outcome, lecture: str, out=sys.stdout) -> None:
    print(f"{lecture}: {len(outcome.collected)} notebook(s) collected into submitted/, "
          f"{len(outcome.left_out)} file(s) left out, {len(outcome.replaced)} older duplicate(s) replaced", file=out)
    for sid, member, same_name in outcome.collected:
        print(f"  collected  {sid:<16} {shown(member)}" + ("" if same_name else "  (renamed to the release's name)"), file=out)
    for sid, older, newer in outcome.replaced:
        print(f"  duplicate  {sid:<16} {shown(newer)} is the latest; {shown(older)} was not collected", file=out)
    for member, why in outcome.left_out:
        print(f"  left out   {shown(member)}: {shown(why)}", file=out)
    if outcome.late:
        print(f"  marked late by the platform: {', '.join(outcome.late)} (make export applies the late policy of "
              "deadlines.toml, from the times recorded)", file=out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("zip", type=Path)
    parser.add_argument("--lecture", required=True)
    parser.add_argument("--roster", type=Path, required=True)
    parser.add_argument("--force", action="store_true", help="replace submissions already in submitted/")
    args = parser.parse_args()
    report(collect(args.zip, args.lecture, args.roster, force=args.force), args.lecture)


if __name__ == "__main__":
    main()
