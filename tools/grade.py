"""`make autograde`: grade every submission, confined, in parallel, safe to re-run.

    python tools/grade.py [--lecture L] [--student S] [--jobs N] [--force] [--no-sandbox] [--scheduler ADDR]

For each folder submitted/<student>/<lecture>/ it
1. stages a clean copy (build/grading/<student>/<lecture>/): the notebooks the lecture expects,
   each only if it is a readable notebook; files that are not valid JSON, renamed or extra
   notebooks are left out and reported (a missing notebook scores zero);
2. skips it when neither the staged submission nor the lecture changed since it was last graded
   (unless --force), so re-running never redoes work or touches grades, manual scores included;
3. runs `nbgrader autograde` on a batch of submissions of one lecture (up to BATCH, so that its
   start-up is paid once a batch), with a log per submission in logs/autograde/<lecture>/<student>.log
   (which tests failed and why; nbgrader's own output in <student>.nbgrader.log):
   the student's answers run in the sandboxed kernel (tools/sandbox-kernel), the tests in nbgrader's
   process (tools/judge.py). A submission the batch could not grade is graded again alone;
4. prints progress, and at the end a table: graded, unchanged or failed, the autograded score,
   the points of written answers (graded, or still to grade by hand), and notes: what staging left
   out or put back, and test cells the student edited (from the log).

Several submissions are graded at once (--jobs, default: the number of cores), on the default SQLite
gradebook (writers wait their turn, see SQLITE_BUSY_TIMEOUT) or on a server database
(MLCOURSE_GRADEBOOK=postgresql://...), which several graders on several machines can share.
With --scheduler tcp://host:8786 (or MLCOURSE_SCHEDULER) the grading of each submission goes to the
workers of a Dask cluster instead, and this machine alone writes the gradebook (tools/grade_dask.py).
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course import ROOT, lectures, nbgrader, sync_gradebook  # noqa: E402
from staging import (MAX_FILE_BYTES, Submission, collected_at, collection_record, discover, read_submission,  # noqa: E402,F401
                     shown)
import deadlines  # noqa: E402
from grading_secret import grading_secret  # noqa: E402

SANDBOX_KERNEL = "mlcourse-sandbox"
NOBODY = 65534  # the user a sandboxed kernel runs as when no job's own user is given (tools/sandbox-kernel)
# Each job grading at once on this machine runs its kernels as a user of its own, from this range (no
# account has these ids; tools/sandbox-kernel accepts only them and nobody; job_uid leases them): the
# process limit is per user, so a submission that uses up its processes cannot keep the kernels of
# another job, of this grader or of another, from starting.
JOB_UIDS = range(2_100_000_000, 2_100_000_256)
SUBMISSION_TIMEOUT = 30 * 60  # seconds for one submission, all cells together, as a last resort
BATCH = 10  # submissions graded by one nbgrader process at most


@dataclass
class Outcome:
    submission: Submission
    status: str  # graded, unchanged, failed
    why: str = ""
    score: float | None = None  # of the autograded cells (nbgrader's code score)
    max_score: float | None = None
    hand: HandGrading | None = None  # the cells graded by hand (written answers)
    seconds: float = 0.0
    worker: str = ""  # the Dask worker that graded it (tools/grade_dask.py); "" when graded here


@dataclass
class HandGrading:
    """The points of a submission's cells that are graded by hand (written answers)."""
    points: float = 0.0  # all of them
    pending: float = 0.0  # still to grade in the formgrader
    score: float = 0.0  # of those graded (by hand, or blank answers nbgrader scored 0 by itself)
    blank: float = 0.0  # points of answers left blank

    def __str__(self) -> str:
        if not self.points:
            return "-"
        graded, parts = self.points - self.pending, []
        if graded:
            parts.append(f"{self.score:g}/{graded:g}" + (" blank" if self.blank == graded else ""))
        if self.pending:
            parts.append(f"{self.pending:g} to grade")
        return ", ".join(parts)


# SQLite takes one writer at a time; a grader that finds the gradebook busy waits for it (up to this
# many seconds) instead of failing, so several can grade at once: nbgrader's writes are short, and
# the long part of grading (the kernel, the tests) holds no lock.
SQLITE_BUSY_TIMEOUT = 120


def gradebook_url(root: Path) -> str:
    return (os.environ.get("MLCOURSE_GRADEBOOK")
            or f"sqlite:///{root / 'gradebook.db'}?timeout={SQLITE_BUSY_TIMEOUT}")


def stage(root: Path, sub: Submission) -> Path:
    """Copy what can be graded of a submission into build/grading/ (``staging.read_submission``: plain
    files only, the notebooks the lecture expects if readable), with the graded cells restored from the
    release and the time of collection as ``timestamp.txt``; note what was left out or put back."""
    target = root / "build" / "grading" / sub.student / sub.lecture
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    files, notebooks = read_submission(root, sub)
    for rel, content in files.items():
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_bytes(content)
    for rel, nb in notebooks.items():
        release = nbformat.read(root / "notebooks" / sub.lecture / rel, as_version=4)
        sub.notes.extend(f"{rel}: {note}" for note in restore_graded_cells(nb, release))
        nbformat.write(nb, target / rel)
    when = collected_at(root, sub)
    if when:  # in the zone of deadlines.toml unless it names its own: nbgrader reads a bare time as UTC
        try:
            when = deadlines.parse_time(when, deadlines.load(root).timezone).isoformat()
        except ValueError:
            sub.notes.append(f"the recorded time of collection {shown(when)!r} is not a time: left out")
            return target
        (target / "timestamp.txt").write_text(when)
    return target


def restore_graded_cells(nb, release) -> list[str]:
    """Give the graded cells of a submitted notebook the nbgrader metadata of the release, and put
    back answer cells that were deleted (as the release has them); return what was changed.

    nbgrader repairs edited cells itself (OverwriteCells), but it stops with an error on a cell whose
    flags (grade, solution, locked) were edited, on a duplicated or unknown grade id, and on a test
    cell deleted with the answer cell above it. Here an edited cell gets the release's metadata back,
    of duplicated cells the last keeps it (as nbgrader's DeduplicateIds does) and the others, like
    cells with an unknown id, become ordinary cells.
    """
    import copy

    graded = {c.metadata["nbgrader"]["grade_id"]: c for c in release.cells
              if c.metadata.get("nbgrader", {}).get("grade_id")}
    seen, edited, demoted = set(), set(), set()
    for cell in reversed(nb.cells):
        meta = cell.metadata.get("nbgrader")
        if meta is None:
            continue
        grade_id = meta.get("grade_id") if isinstance(meta, dict) else None
        if not isinstance(grade_id, str) or grade_id not in graded or grade_id in seen:
            del cell.metadata["nbgrader"]
            demoted.add(shown(grade_id))
            continue
        seen.add(grade_id)
        original = graded[grade_id].metadata["nbgrader"]
        if _without_checksum(meta) != _without_checksum(original):
            cell.metadata["nbgrader"] = copy.deepcopy(original)
            if not _only_bookkeeping_missing(meta, original):
                edited.add(grade_id)
    restored = []
    order = list(graded)
    for k, grade_id in enumerate(order):
        meta = graded[grade_id].metadata["nbgrader"]
        if grade_id in seen or not meta.get("solution") or meta.get("grade"):
            continue  # present, or a graded cell that nbgrader puts back itself
        before = [g for g in order[:k] if g in seen]
        at = 0 if not before else 1 + next(i for i, c in enumerate(nb.cells)
                                           if c.metadata.get("nbgrader", {}).get("grade_id") == before[-1])
        cell = nbformat.from_dict(copy.deepcopy(graded[grade_id]))
        cell.id = "restored-" + hashlib.sha256(grade_id.encode()).hexdigest()[:8]  # the same each time
        nb.cells.insert(at, cell)
        seen.add(grade_id)
        restored.append(grade_id)
    notes = []
    if edited:
        notes.append(f"edited nbgrader metadata restored ({', '.join(sorted(edited))})")
    if demoted:
        notes.append(f"duplicated or unknown graded cells made ordinary ({', '.join(sorted(demoted))})")
    if restored:
        notes.append(f"deleted answer cells put back empty ({', '.join(restored)})")
    return notes


def _without_checksum(meta: dict) -> dict:
    return {k: v for k, v in meta.items() if k != "checksum"}


def _only_bookkeeping_missing(meta: dict, original: dict) -> bool:
    """True when ``meta`` is ``original`` less the keys nbgrader adds at release (checksum,
    cell_type): a cell copied from the solution notebook, not an edit worth reporting."""
    return meta == {k: v for k, v in original.items() if k in meta or k not in ("checksum", "cell_type")}


def fingerprint(root: Path, staged: Path, lecture: str) -> str:
    """Hash of the staged submission and of the lecture's source: what a grade depends on."""
    digest = hashlib.sha256()
    for folder in (staged, root / "solutions" / lecture):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def scores(url: str, sub: Submission):
    """(autograded score, autograded points, HandGrading) from the gradebook; Nones if not graded."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(url) as gb:
        try:
            s = gb.find_submission(sub.lecture, sub.student)
        except MissingEntry:
            return None, None, None
        hand = HandGrading()
        for g in (g for nb in s.notebooks for g in nb.grades if g.cell_type != "code"):
            hand.points += g.max_score
            if g.needs_manual_grade:
                hand.pending += g.max_score
            else:
                hand.score += g.score
                if g.manual_score is None and g.auto_score == 0:  # nbgrader's score for a blank answer
                    hand.blank += g.max_score
        return s.code_score, s.max_code_score, hand


# What nbgrader's log says about a submission that an instructor should know, in words: lines of
# ExplainedOverwriteCells (tools/nbgrader_ext.py), and graded cells nbgrader put back.
LOG_NOTES = [
    (re.compile(r"\| WARNING\] ((?:test cell|locked cell|cell|the points of cell) \S+ (?:was|were) .*)$"), r"\1"),
    (re.compile(r"\| WARNING\] Missing grade cell (\S+) encountered"),
     r"graded cell \1 was deleted; the original was put back"),
]


def log_notes(log_path: Path) -> list[str]:
    if not log_path.is_file():
        return []
    notes = []
    for line in log_path.read_text(errors="replace").splitlines():
        for pattern, words in LOG_NOTES:
            if (m := pattern.search(line)) and (note := m.expand(words)) not in notes:
                notes.append(note)
    return notes


def prepare(root: Path, sub: Submission, force: bool) -> Outcome | str:
    """Stage a submission; its outcome if it is unchanged since it was graded, else its fingerprint."""
    start = time.perf_counter()
    staged = stage(root, sub)
    log_path = log_of(root, sub)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    stamp = fingerprint(root, staged, sub.lecture)
    stamp_path = log_path.with_suffix(".fingerprint")
    if not force and stamp_path.exists() and stamp_path.read_text() == stamp:
        score, top, hand = scores(gradebook_url(root), sub)
        if score is not None:
            notes = "; ".join([*sub.notes, *log_notes(raw_log_of(root, sub))])
            return Outcome(sub, "unchanged", notes, score, top, hand, time.perf_counter() - start)
    if not any(staged.glob("*.ipynb")):
        # nbgrader refuses a submission without notebooks: grade the untouched release instead,
        # which scores zero on every autograded cell.
        for path in (root / "notebooks" / sub.lecture).glob("*.ipynb"):
            shutil.copy(path, staged / path.name)
        sub.notes.append("no gradable notebook: graded as an empty submission")
    return stamp


def log_of(root: Path, sub: Submission) -> Path:
    """The log an instructor reads: which tests failed and why."""
    return root / "logs" / "autograde" / sub.lecture / f"{sub.student}.log"


def raw_log_of(root: Path, sub: Submission) -> Path:
    """nbgrader's own output for the submission, kept for when the log above is not enough."""
    return root / "logs" / "autograde" / sub.lecture / f"{sub.student}.nbgrader.log"


def uid_locks() -> Path:
    """Root's private folder of lock files, one per user of JOB_UIDS, shared by every grader on this
    machine (two `make autograde` at once, a test suite's workers)."""
    folder = Path("/run" if Path("/run").is_dir() else tempfile.gettempdir()) / "mlcourse-job-uids"
    folder.mkdir(mode=0o700, exist_ok=True)
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        sys.exit(f"{folder} must be a folder of the grader's own that no one else may open: remove it and grade again")
    return folder


@contextmanager
def job_uid():
    """A user of JOB_UIDS that no other grading job on this machine runs kernels as now. It is held
    by a lock on its file, which goes when the job ends or its process dies; each process of a
    sandboxed kernel counts against its user's process limit, so a submission that takes all of its
    processes must not share its user with a kernel being started by any other grader."""
    folder = uid_locks()
    while True:
        for uid in JOB_UIDS:
            fd = os.open(folder / str(uid), os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                yield uid
            finally:
                os.close(fd)
            return
        time.sleep(1)  # every one of them in use: wait for a job to end


def grade_batch(root: Path, batch: list[tuple[Submission, str]], sandbox: bool, url: str | None = None) -> list[Outcome]:
    """Grade submissions of one lecture in one `nbgrader autograde` process (its start-up is paid
    once), its kernels as a user no other job has; a submission the batch could not grade is graded
    again alone, and failures are its own. ``url``: the gradebook (``gradebook_url(root)`` if None;
    a Dask worker gives its private one)."""
    extra = {"url": url} if url else {}
    try:
        if sandbox:
            with job_uid() as uid:
                outcomes = run_nbgrader(root, batch, sandbox, uid, **extra)
        else:
            outcomes = run_nbgrader(root, batch, sandbox, **extra)
    except Exception as err:  # the grader itself failed: each submission gets its own try below
        outcomes = [Outcome(sub, "failed", f"{type(err).__name__}: {shown(str(err))[:200]}") for sub, _ in batch]
    if len(batch) > 1:
        stamps = dict((sub.name, stamp) for sub, stamp in batch)
        outcomes = [o if o.status != "failed" else grade_batch(root, [(o.submission, stamps[o.submission.name])],
                                                                sandbox, **extra)[0] for o in outcomes]
    return outcomes


STUDENT_START = re.compile(r"Creating/updating student with ID '([^']+)'")


def run_nbgrader(root: Path, batch: list[tuple[Submission, str]], sandbox: bool, uid: int = NOBODY,
                 url: str | None = None) -> list[Outcome]:
    start = time.perf_counter()
    url, lecture = url or gradebook_url(root), batch[0][0].lecture
    with tempfile.TemporaryDirectory(prefix="mlcourse-batch-") as tmp:
        folder = Path(tmp) / "submitted"  # only this batch's students, linked to their staged copies
        folder.mkdir()
        for sub, _ in batch:
            (folder / sub.student).symlink_to(root / "build" / "grading" / sub.student)
        args = ["autograde", lecture, "--force", f"--CourseDirectory.submitted_directory={folder}",
                f"--CourseDirectory.db_url={url}"]
        if sandbox:
            (Path(tmp) / "ipc").mkdir()
            sockets = sandbox_sockets(Path(tmp) / "ipc", uid)
            args += [f"--ExecutePreprocessor.kernel_name={SANDBOX_KERNEL}", "--KernelManager.transport=ipc",
                     f"--KernelManager.ip={sockets}/kernel", f"--Judge.sandbox_uid={uid}"]
        log_path = Path(tmp) / "nbgrader.log"
        with open(log_path, "w") as log:
            try:
                done = nbgrader(*args, root=root, check=False, stdout=log, stderr=subprocess.STDOUT,
                                timeout=SUBMISSION_TIMEOUT * len(batch))
                why = f"nbgrader exited with {done.returncode}" if done.returncode else ""
            except subprocess.TimeoutExpired:
                why = f"took more than {SUBMISSION_TIMEOUT * len(batch)} s"
        parts = split_log(log_path.read_text(errors="replace"))
    seconds = (time.perf_counter() - start) / len(batch)
    outcomes = []
    for sub, stamp in batch:
        path = log_of(root, sub)
        text = parts.get(sub.student, "")
        raw_log_of(root, sub).write_text("".join(f"[staging] {note}\n" for note in sub.notes) + text)
        # a batch that nbgrader did not finish is graded again, one submission at a time
        failed = not text or "There was an error processing assignment" in text or bool(why)
        if failed:
            path.with_suffix(".fingerprint").unlink(missing_ok=True)
            last_error = [ln for ln in text.splitlines() if "ERROR" in ln][:1]
            outcome = Outcome(sub, "failed", "; ".join([why or "not graded", *last_error, *sub.notes]), seconds=seconds)
        else:
            path.with_suffix(".fingerprint").write_text(stamp)
            score, top, hand = scores(url, sub)
            outcome = Outcome(sub, "graded", "; ".join([*sub.notes, *log_notes(raw_log_of(root, sub))]), score, top,
                              hand, seconds)
        path.write_text(report(root, outcome, text))
        outcomes.append(outcome)
    return outcomes


# nbgrader's warnings that say nothing about the submission
LOG_NOISE = ("Removing existing assignment", "Creating/updating student with ID")


def report(root: Path, o: Outcome, text: str) -> str:
    """The per-submission log an instructor reads: how it was graded, which tests failed and why (from
    the graded notebook), and what the grader noticed; nbgrader's own output is kept beside it."""
    sub = o.submission
    lines = [f"{sub.name}: {o.status} on {time.strftime('%Y-%m-%d %H:%M:%S')}"
             + (f", {o.score:g}/{o.max_score:g} autograded" if o.score is not None else "")
             + (f"; by hand {o.hand}" if o.hand and o.hand.points else "")]
    lines += [f"  staging: {note}" for note in sub.notes]
    if o.status == "failed":
        lines.append(f"  not graded: {o.why}")
    noticed = [m[1] for line in text.splitlines()
               if (m := re.search(r"\| (?:WARNING|ERROR|CRITICAL)\] (.*)", line)) and not any(n in line for n in LOG_NOISE)]
    lines += [f"  grader: {shown(note)}" for note in noticed]
    if o.status == "graded":
        for nb_path in sorted((root / "autograded" / sub.student / sub.lecture).glob("*.ipynb")):
            lines += [f"  {line}" for line in test_results(nb_path)]
    lines.append(f"  nbgrader's own output: {raw_log_of(root, sub).name}")
    return "\n".join(lines) + "\n"


def test_results(path: Path) -> list[str]:
    """A line per test cell of a graded notebook: passed, or failed with the first line of its error."""
    nb = nbformat.read(path, as_version=4)
    lines = []
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
            continue
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        points = f"{meta.get('points', 0):g} point{'' if meta.get('points') == 1 else 's'}"
        if not errors:
            lines.append(f"passed  {meta['grade_id']} ({points})")
            continue
        message = (errors[0].get("evalue") or "").strip().splitlines()
        lines.append(f"failed  {meta['grade_id']} ({points}): {shown(errors[0].get('ename', 'Error'))}: "
                     f"{shown(message[0] if message else '')[:300]}")
    return [f"{path.name}: {line}" for line in lines]


def split_log(text: str) -> dict[str, str]:
    """nbgrader's log of a batch, cut into each student's part (lines before the first student go
    to every part)."""
    head, parts, current = [], {}, None
    for line in text.splitlines(keepends=True):
        if m := STUDENT_START.search(line):
            current = m.group(1)
            parts[current] = "".join(head)
        if current is None:
            head.append(line)
        else:
            parts[current] += line
    return parts


def sandbox_sockets(folder: Path, uid: int = NOBODY) -> Path:
    """A folder where a sandboxed kernel makes its sockets: the only place outside the sandbox the
    kernel may write. It belongs to the kernel's user, inside ``folder`` (root's, mode 711), and the
    grader never writes in it (tools/sandbox-kernel checks this layout before it starts a kernel). The
    judge makes one of these for each submission (``Judge.private_sockets``), so no two submissions of
    a batch share one."""
    os.chmod(folder, 0o711)
    sockets = Path(tempfile.mkdtemp(prefix="sockets-", dir=folder))
    os.chmod(sockets, 0o700)
    os.chown(sockets, uid, uid)
    return sockets


def add_students(url: str, students: list[str], root: Path | None = None, subs=()) -> None:
    """Put every student in the gradebook before grading (two graders of one student's lectures,
    running at once, would otherwise both insert the student, and one would fail), with the names,
    e-mail and platform id that collection recorded, for the formgrader and the export."""
    from nbgrader.api import Gradebook

    known: dict[str, dict] = {}
    for sub in subs:
        record = collection_record(root, sub.lecture, sub.student)
        known.setdefault(sub.student, {}).update(
            {key: record[key] for key in ("first_name", "last_name", "email") if record.get(key)}
            | ({"lms_user_id": record["platform_id"]} if record.get("platform_id") else {}))
    with Gradebook(url) as gb:
        for student in students:
            gb.update_or_create_student(student, **known.get(student, {}))


def check_sandbox() -> None:
    if shutil.which("bwrap") is None:
        sys.exit("autograde runs student code in a sandbox made with bubblewrap, which is not installed:\n"
                 "  apt-get install bubblewrap   (or, knowing the risk: make autograde SANDBOX=0)")
    if os.geteuid() != 0:
        sys.exit("the grading sandbox drops to user 'nobody' and needs to run as root "
                 "(or, knowing the risk: make autograde SANDBOX=0)")


def run(root: Path, lecture=None, student=None, jobs=None, force=False, sandbox=True, out=sys.stdout, scheduler=None):
    """Grade, print progress and a summary; return the outcomes. ``scheduler``: the address of a Dask
    scheduler whose workers grade (tools/grade_dask.py), else this machine does."""
    if not (root / "submitted").is_dir():
        sys.exit("nothing to grade: collect submissions into submitted/<student>/<lecture>/ first")
    if lecture and lecture not in lectures(root):
        sys.exit(f"unknown lecture {lecture}; the lectures are: {', '.join(lectures(root))}")
    if scheduler:  # before anything is written: an unreachable scheduler stops here, named
        import grade_dask

        with grade_dask.connect(scheduler, out) as client:
            return _run(root, lecture, student, jobs, force, sandbox, out, client)
    if sandbox:
        check_sandbox()
    return _run(root, lecture, student, jobs, force, sandbox, out)


def _run(root: Path, lecture, student, jobs, force, sandbox, out, client=None):
    subs, problems = discover(root, lecture, student)
    if not subs:
        sys.exit("no submission matches" + (f": {'; '.join(problems)}" if problems else ""))
    url = gradebook_url(root)
    grading_secret(root)  # made now, before graders in parallel need it
    jobs = jobs or os.cpu_count() or 1
    names = sorted({s.lecture for s in subs})
    print(f"found {len(subs)} submission(s) of {', '.join(names)}; putting the lectures and students in the "
          "gradebook...", file=out, flush=True)
    sync_gradebook(names, root=root, db_url=url)
    add_students(url, sorted({s.student for s in subs}), root, subs)
    print(f"staging {len(subs)} submission(s) (a clean copy of each, compared with its last grading)...",
          file=out, flush=True)
    outcomes, todo = [], []
    for sub in subs:
        try:
            prepared = prepare(root, sub, force)
        except Exception as err:  # a submission that breaks staging must not stop the others
            prepared = Outcome(sub, "failed", f"the grader failed on it: {type(err).__name__}: {shown(str(err))[:200]}")
        if isinstance(prepared, Outcome):
            outcomes.append(prepared)
        else:
            todo.append((sub, prepared))
    for k, o in enumerate(outcomes, 1):
        print(f"[{k}/{len(subs)}] {o.submission.name}: {o.status}{points(o)}", file=out, flush=True)
    if client is not None:
        import grade_dask

        grade_dask.grade_on_cluster(client, root, todo, sandbox, outcomes, len(subs), out)
    else:
        grade_here(root, todo, jobs, sandbox, outcomes, len(subs), out)
    record_failures(root, outcomes)
    summary(outcomes, problems, out)
    return outcomes


def batches_of(todo: list, slots: int) -> list[list]:
    """``todo`` in batches of one lecture each, of even sizes up to BATCH, at least two per slot (a job,
    or a Dask worker's thread) where there are enough: every slot stays busy to the end."""
    batches = []
    for lecture in sorted({s.lecture for s, _ in todo}):
        items = [t for t in todo if t[0].lecture == lecture]
        count = min(len(items), max(-(-len(items) // BATCH), 2 * slots))
        batches += [items[k * len(items) // count:(k + 1) * len(items) // count] for k in range(count)]
    return batches


def grade_here(root: Path, todo, jobs: int, sandbox: bool, outcomes: list, total: int, out) -> None:
    """Grade ``todo`` (submission, fingerprint) on this machine, ``jobs`` batches at once, printing progress;
    the outcomes are appended to ``outcomes``."""
    batches = batches_of(todo, jobs)
    if todo:
        print(f"grading {len(todo)} submission(s) with {jobs} job(s), in {len(batches)} batch(es); "
              f"each takes a kernel's start and every cell of its notebooks; logs in logs/autograde/", file=out, flush=True)
    start, graded = time.perf_counter(), 0
    with tempfile.TemporaryDirectory(prefix="mlcourse-sites-") as shared, \
            environment(shared_kernel_sites(root, {s.lecture for s, _ in todo}, Path(shared))), \
            ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(grade_batch, root, batch, sandbox) for batch in batches]
        for future in as_completed(futures):
            for o in future.result():
                outcomes.append(o)
                graded += 1
                progress(o, len(outcomes), total, graded, len(todo), start, out)


def shared_kernel_sites(root: Path, names, folder: Path) -> dict[str, str]:
    """What the sandbox shows of the environment, worked out once for the lectures of this run and read by
    every batch's nbgrader (allowance.share_kernel_sites), not once per batch; {} if it cannot be (each
    batch then works it out, and names what is wrong)."""
    import allowance

    try:
        packages = [allowance.Allowance.of(nbformat.read(path, as_version=4).metadata).packages
                    for name in sorted(names) for path in sorted((root / "solutions" / name).glob("*.ipynb"))]
        return allowance.share_kernel_sites(packages, folder)
    except Exception:
        return {}


@contextmanager
def environment(values: dict[str, str]):
    """``values`` set in os.environ (for the graders this process starts) while the block runs."""
    before = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def progress(o: Outcome, k: int, total: int, graded: int, to_grade: int, start: float, out) -> None:
    """The line for the k-th of ``total`` outcomes, the ``graded``-th of ``to_grade`` graded in this run
    (started at ``start``): its status and points, how long it took (and on which Dask worker), and the time left."""
    elapsed = time.perf_counter() - start
    left = to_grade - graded
    eta = f", about {elapsed / graded * left:.0f} s left" if left else ""
    where = f" on {shown(o.worker)}" if o.worker else ""
    print(f"[{k}/{total}] {o.submission.name}: {o.status}{points(o)} ({o.seconds:.1f} s{where}); "
          f"{total - k} left, {elapsed:.0f} s elapsed{eta}", file=out, flush=True)


def points(o: Outcome) -> str:
    """The score for a progress line: ", 17/17 autograded, 5 points to grade by hand"."""
    if o.score is None:
        return ""
    text, hand = f", {o.score:g}/{o.max_score:g} autograded", o.hand
    if hand and hand.pending == hand.points > 0:
        text += f"; {hand.pending:g} points to grade by hand"
    elif hand and hand.points:
        text += f"; by hand {hand}"
    return text


NOT_GRADED = "not graded"  # the mark of a submission grading could not finish: never a zero


def failure_marker(root: Path, sub: Submission) -> Path:
    return log_of(root, sub).with_suffix(".failed")


def record_failures(root: Path, outcomes) -> None:
    """A submission that could not be graded is marked so (logs/autograde/<lecture>/<student>.failed, and
    its notebooks flagged in the gradebook) until it is graded: `make export` then writes "not graded"
    for it, not the 0 nbgrader would."""
    failed = [o for o in outcomes if o.status == "failed"]
    for o in outcomes:
        marker = failure_marker(root, o.submission)
        if o.status == "graded" and marker.exists():
            marker.unlink()
            _flag(root, o.submission, False)
        elif o.status == "failed":
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text(o.why + "\n")
            log_of(root, o.submission).with_suffix(".fingerprint").unlink(missing_ok=True)  # retried next time
    for o in failed:
        _flag(root, o.submission, True)


def _flag(root: Path, sub: Submission, flagged: bool) -> None:
    from nbgrader.api import Gradebook, MissingEntry

    try:
        with Gradebook(gradebook_url(root)) as gb:
            for nb in gb.find_submission(sub.lecture, sub.student).notebooks:
                nb.flagged = flagged
            gb.db.commit()
    except MissingEntry:
        pass


def summary(outcomes, problems, out) -> None:
    on_workers = any(o.worker for o in outcomes)  # graded on Dask: a column says by which worker
    rows = [("submission", "status", "autograded", "by hand", *(["worker"] if on_workers else []), "notes")]
    for o in sorted(outcomes, key=lambda o: o.submission.name):
        auto = f"{o.score:g}/{o.max_score:g}" if o.score is not None else NOT_GRADED if o.status == "failed" else "-"
        rows.append((o.submission.name, o.status, auto, str(o.hand or "-"), *([o.worker or "-"] if on_workers else []),
                     shown(o.why)))
    rows += [("", "skipped", "-", "-", *(["-"] if on_workers else []), p) for p in problems]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]) - 1)]
    print(file=out)
    for row in rows:
        print("  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths)) + "  " + row[-1], file=out)
    counts = {s: sum(o.status == s for o in outcomes) for s in ("graded", "unchanged", "failed")}
    print(f"\n{counts['graded']} graded, {counts['unchanged']} unchanged, {counts['failed']} failed, "
          f"{len(problems)} skipped", file=out)
    if counts["failed"]:
        print(f"{counts['failed']} submission(s) could not be graded: they are marked {NOT_GRADED!r} (not 0) in "
              "grades.csv and flagged in the formgrader; run make autograde again to retry them (their logs "
              "in logs/autograde/ say why)", file=out)
    waiting = [o for o in outcomes if o.hand and o.hand.pending]
    if waiting:
        print(f"{len(waiting)} submission(s) have written answers to grade by hand, "
              f"{sum(o.hand.pending for o in waiting):g} points in all: in nbgrader's formgrader "
              "(make formgrader)", file=out)
    print("autograded: score/points of the cells the tests grade. by hand: score/points of the written "
          "answers graded so far\n(blank: left unanswered, which scores 0 without grading) and the "
          "points still to grade. grades.csv and the feedback add both.", file=out)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lecture")
    parser.add_argument("--student")
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--force", action="store_true", help="regrade even unchanged submissions")
    parser.add_argument("--no-sandbox", dest="sandbox", action="store_false",
                        help="run student code unconfined (only for code you trust)")
    parser.add_argument("--scheduler", default=os.environ.get("MLCOURSE_SCHEDULER") or None, metavar="ADDR",
                        help="grade on the workers of this Dask scheduler, e.g. tcp://host:8786 "
                             "(default: $MLCOURSE_SCHEDULER; unset: on this machine)")
    args = parser.parse_args(argv)
    outcomes = run(ROOT, args.lecture, args.student, args.jobs, args.force, args.sandbox, scheduler=args.scheduler)
    sys.exit(1 if any(o.status == "failed" for o in outcomes) else 0)


if __name__ == "__main__":
    main()
