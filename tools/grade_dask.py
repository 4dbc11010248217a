"""`make autograde SCHEDULER=tcp://host:8786`: the grading of submissions, on the workers of a Dask cluster.

tools/grade.py stages every submission and skips the unchanged ones as always; with a scheduler
(``--scheduler``, or MLCOURSE_SCHEDULER) it hands the rest to this module instead of grading them here:

- what travels to a worker (``Task``): each staged submission's files as bytes, its lecture, the
  student's id, what staging noted, its fingerprint; a hash of the lecture's source (solutions/<lecture>)
  and a keyed hash of the grading secret, so that a worker whose course or secret is not the
  instructor's refuses to grade instead of giving other marks. Neither the secret nor the gradebook,
  nor solutions/, travels: each worker has its own install of the course (make setup, bubblewrap,
  root) and of the secret (docs/instructors.md);
- on the worker (``grade_on_worker``): a private, throw-away course folder holding the lecture's source
  and release (from the worker's install, checked against the hash) and a gradebook of its own, where
  grade.py's own ``grade_batch`` grades the submissions: the same nbgrader run, sandboxed kernel and
  judge as grading here;
- what comes back: each submission's graded notebooks (and the other files of autograded/), the grades
  and comments of its cells, nbgrader's log, how long it took and the worker's address;
- the instructor's machine alone records the results (``record``): autograded/, logs/autograde/ and
  the gradebook (SQLite or PostgreSQL), each submission once, as its result arrives, its fingerprint
  last, so that an interrupted run resumes where it stopped (grade.py's fingerprint skip).

A task is pure (the same submissions give the same result, nothing changes on the client until the
result arrives), so a task whose worker is lost is run again on another worker by Dask itself.

Workers: ``PYTHONPATH=tools .venv/bin/dask worker tcp://host:8786 --preload grade_dask`` from the course
folder (``dask_setup`` then checks that the machine can grade before the worker joins).
"""

from __future__ import annotations

import atexit
import hashlib
import hmac
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grade  # noqa: E402
from course import ROOT, shown, sync_gradebook  # noqa: E402
from grading_secret import SECRET_FILE, grading_secret  # noqa: E402
from staging import Submission  # noqa: E402

CONNECT_TIMEOUT = 5  # seconds to reach the scheduler before giving up, naming it
IGNORED = {".ipynb_checkpoints", "__pycache__"}  # what nbgrader leaves out of a lecture's source


# --- what the client and the workers agree on ------------------------------------------------------

def folder_digest(folder: Path) -> str:
    """Hash of a lecture's source folder (names and bytes of its files), to check that a worker grades
    with the instructor's version of the lecture."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not IGNORED & set(p.parts)):
        digest.update(str(path.relative_to(folder)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def secret_check(secret: bytes) -> str:
    """A keyed hash of the grading secret: equal on two machines when their secrets are, and no help in
    finding it (it is what travels instead of the secret)."""
    return hmac.new(secret, b"mlcourse: the grading secret of this course", "sha256").hexdigest()


@dataclass(frozen=True)
class Item:
    """One staged submission, as it travels."""
    student: str
    lecture: str
    notes: tuple[str, ...]  # what staging noted (grade.py writes them at the top of nbgrader's log)
    files: tuple[tuple[str, bytes], ...]  # path within the submission, bytes
    stamp: str  # its fingerprint (grade.fingerprint)


@dataclass(frozen=True)
class Task:
    """Submissions of one lecture, graded by one nbgrader run on a worker (as a batch is here)."""
    lecture: str
    items: tuple[Item, ...]
    lecture_digest: str  # folder_digest of the instructor's solutions/<lecture>
    secret_check: str  # secret_check of the instructor's grading secret
    sandbox: bool

    def key(self) -> str:
        """The same for the same input (Dask runs a key once; a lost one again elsewhere)."""
        digest = hashlib.sha256(repr((self.lecture, self.lecture_digest, self.secret_check, self.sandbox)).encode())
        for item in self.items:
            digest.update(repr((item.student, item.notes, item.stamp)).encode())
            for rel, content in item.files:
                digest.update(rel.encode() + b"\0" + hashlib.sha256(content).digest())
        names = ",".join(item.student for item in self.items[:3]) + ("..." if len(self.items) > 3 else "")
        return f"mlcourse-grade-{self.lecture}-{names}-{digest.hexdigest()[:16]}"


# --- the instructor's machine ----------------------------------------------------------------------

@contextmanager
def connect(address: str, out=sys.stdout):
    """A Dask client of the scheduler at ``address``; exits naming it if it cannot be reached within
    CONNECT_TIMEOUT seconds (nothing is staged or written before)."""
    try:
        from distributed import Client
    except ImportError:
        sys.exit("grading on a Dask cluster needs dask[distributed], one of the instructor's packages: "
                 "pip install -e '.[instructor]' (make setup installs it)")
    print(f"connecting to the Dask scheduler at {shown(address)}...", file=out, flush=True)
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except Exception as err:  # OSError (refused, timed out), ValueError (not an address)...
        sys.exit(f"cannot reach the Dask scheduler at {shown(address)} within {CONNECT_TIMEOUT} s "
                 f"({type(err).__name__}: {shown(str(err))[:200]}); nothing was graded.\n"
                 "Start the scheduler and its workers (docs/instructors.md), or grade on this machine "
                 "(no SCHEDULER=, MLCOURSE_SCHEDULER unset).")
    try:
        yield client
    finally:
        client.close()


def threads(client) -> tuple[int, int]:
    """(workers, threads) the scheduler knows now."""
    workers = client.scheduler_info(n_workers=-1)["workers"].values()
    return len(workers), sum(w.get("nthreads", 1) for w in workers)


def staged_files(root: Path, sub: Submission) -> tuple[tuple[str, bytes], ...]:
    staged = root / "build" / "grading" / sub.student / sub.lecture
    return tuple((str(p.relative_to(staged)), p.read_bytes()) for p in sorted(staged.rglob("*")) if p.is_file())


def tasks(root: Path, todo, sandbox: bool, slots: int) -> list[Task]:
    """The submissions to grade, in tasks of one lecture each, batched as grading here batches them
    (``grade.batches_of``, with the cluster's threads as the slots)."""
    check = secret_check(grading_secret(root))
    digests = {lecture: folder_digest(root / "solutions" / lecture) for lecture in {s.lecture for s, _ in todo}}
    return [Task(batch[0][0].lecture, tuple(Item(s.student, s.lecture, tuple(s.notes), staged_files(root, s), stamp)
                                            for s, stamp in batch), digests[batch[0][0].lecture], check, sandbox)
            for batch in grade.batches_of(todo, slots)]


def grade_on_cluster(client, root: Path, todo, sandbox: bool, outcomes: list, total: int, out=sys.stdout) -> None:
    """Grade ``todo`` (submission, fingerprint) on the cluster, recording each result as it arrives and
    printing progress as grade.run does; the outcomes are appended to ``outcomes``."""
    from distributed import as_completed

    if not todo:
        return
    workers, slots = threads(client)
    batches = tasks(root, todo, sandbox, max(slots, 1))
    subs = {(s.student, s.lecture): (s, stamp) for s, stamp in todo}
    print(f"grading {len(todo)} submission(s) on the Dask cluster at {shown(client.scheduler.address)} "
          f"({workers} worker(s), {slots} thread(s) now), in {len(batches)} task(s); logs in logs/autograde/"
          + ("" if workers else "\n  no worker has joined yet: grading starts when one does"), file=out, flush=True)
    futures = {client.submit(grade_on_worker, task, key=task.key(), retries=0): task for task in batches}
    start, graded, recorded = time.perf_counter(), 0, set()
    for future in as_completed(futures, loop=client.loop):
        task = futures[future]
        try:
            results = future.result()
        except Exception as err:  # the task itself failed (a worker lost too often, an import error...)
            why = f"the Dask cluster could not grade it: {type(err).__name__}: {shown(str(err))[:200]}"
            results = [{"student": i.student, "status": "failed", "why": why, "worker": ""} for i in task.items]
        future.release()
        for result in results:
            sub, stamp = subs[(result["student"], task.lecture)]
            if (sub.name, stamp) in recorded:  # never counted twice
                continue
            recorded.add((sub.name, stamp))
            try:
                o = record(root, sub, stamp, result)
            except Exception as err:  # a result this machine could not record is not graded
                grade.log_of(root, sub).with_suffix(".fingerprint").unlink(missing_ok=True)
                o = grade.Outcome(sub, "failed", f"its result could not be recorded: {type(err).__name__}: "
                                  f"{shown(str(err))[:200]}", worker=result.get("worker", ""))
            outcomes.append(o)
            graded += 1
            grade.progress(o, len(outcomes), total, graded, len(todo), start, out)


def record(root: Path, sub: Submission, stamp: str, result: dict) -> grade.Outcome:
    """Write what a worker returned for one submission where grading here would have: autograded/, the
    gradebook, logs/autograde/; the fingerprint last (then a new run skips it as unchanged)."""
    url = grade.gradebook_url(root)
    log_path, raw_path = grade.log_of(root, sub), grade.raw_log_of(root, sub)
    fingerprint = log_path.with_suffix(".fingerprint")
    log_path.parent.mkdir(parents=True, exist_ok=True)
    worker, seconds = result.get("worker", ""), result.get("seconds", 0.0)
    if "raw_log" in result:
        raw_path.write_text(result["raw_log"])
    if result["status"] != "graded":
        fingerprint.unlink(missing_ok=True)
        o = grade.Outcome(sub, "failed", result["why"], seconds=seconds, worker=worker)
        log_path.write_text(grade.report(root, o, result.get("text", "")))
        return o
    folder = root / "autograded" / sub.student / sub.lecture
    targets = [(folder / rel).resolve() for rel, _ in result["files"]]
    if any(not t.is_relative_to(folder.resolve()) for t in targets):
        raise ValueError("a graded file's path leads out of its folder")
    shutil.rmtree(folder, ignore_errors=True)
    for target, (_, content) in zip(targets, result["files"]):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    record_grades(url, sub, result["grades"])
    score, top, hand = grade.scores(url, sub)
    o = grade.Outcome(sub, "graded", "; ".join([*sub.notes, *grade.log_notes(raw_path)]), score, top, hand,
                      seconds, worker)
    log_path.write_text(grade.report(root, o, result.get("text", "")))
    fingerprint.write_text(stamp)
    return o


def record_grades(url: str, sub: Submission, grades: dict) -> None:
    """Put a worker's grades of one submission in the gradebook as nbgrader's autograde would have
    (SaveAutoGrades, AssignLatePenalties, the zeros of a missing notebook), keeping the manual scores:
    a cell scored by hand is marked for review again, as nbgrader marks it."""
    import warnings

    from nbgrader.api import Gradebook
    from sqlalchemy.exc import SAWarning

    with Gradebook(url) as gb, warnings.catch_warnings():
        warnings.simplefilter("ignore", SAWarning)  # nbgrader's own, on adding a submission: harmless
        if grades["timestamp"] is not None:
            gb.update_or_create_submission(sub.lecture, sub.student, timestamp=grades["timestamp"])
        else:
            gb.update_or_create_submission(sub.lecture, sub.student)
        for nb in grades["notebooks"]:
            for name, auto, needs in nb["grades"]:
                g = gb.find_grade(name, nb["name"], sub.lecture, sub.student)
                g.auto_score = auto
                g.needs_manual_grade = bool(needs or (nb["graded"] and g.manual_score is not None))
            for name, comment in nb["comments"]:
                gb.find_comment(name, nb["name"], sub.lecture, sub.student).auto_comment = comment
            gb.find_submission_notebook(nb["name"], sub.lecture, sub.student).late_submission_penalty = nb["late"]
        gb.db.commit()


# --- a worker --------------------------------------------------------------------------------------

class CannotGrade(RuntimeError):
    """This worker's machine or course is not set up to grade what it was sent."""


def worker_address() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return socket.gethostname()


def worker_secret() -> bytes:
    """The grading secret of this worker's install (MLCOURSE_GRADING_SECRET, else .grading-secret in the
    course folder); never made here: a new one would draw other hidden inputs, so other marks."""
    if not os.environ.get("MLCOURSE_GRADING_SECRET") and not (ROOT / SECRET_FILE).is_file():
        raise CannotGrade(f"no grading secret on this worker: copy the instructor's {SECRET_FILE} to "
                          f"{ROOT / SECRET_FILE} (root's, mode 600) or set MLCOURSE_GRADING_SECRET")
    return grading_secret(ROOT)


def machine_problems(sandbox: bool = True) -> list[str]:
    """Why this machine cannot grade (empty if it can)."""
    problems = []
    try:
        worker_secret()
    except (CannotGrade, RuntimeError) as err:
        problems.append(str(err))
    if not (Path(sys.prefix) / "share" / "jupyter" / "kernels" / grade.SANDBOX_KERNEL / "kernel.json").is_file():
        problems.append(f"the course is not set up with this Python ({sys.executable}): run make setup, and "
                        "start the worker with the course's .venv/bin/dask")
    if sandbox and shutil.which("bwrap") is None:
        problems.append("bubblewrap is not installed (apt-get install bubblewrap)")
    if sandbox and os.geteuid() != 0:
        problems.append("the grading sandbox needs the worker to run as root")
    return problems


def dask_setup(worker=None) -> None:
    """Run by ``dask worker --preload grade_dask``: a worker that cannot grade does not join, and says
    why. MLCOURSE_WORKER_SANDBOX=0 accepts a machine without the sandbox (for --no-sandbox grading only)."""
    problems = machine_problems(sandbox=os.environ.get("MLCOURSE_WORKER_SANDBOX") != "0")
    if problems:
        # SystemExit, not an error: Dask logs a preload's errors and starts the worker all the same
        raise SystemExit("this machine cannot grade for the course: " + "; ".join(problems))


_TEMPLATES: dict[tuple[str, str], Path] = {}
_TEMPLATE_LOCK = threading.Lock()


def scratch() -> Path:
    """Where this worker keeps its throw-away course folders: the Dask worker's local directory."""
    try:
        from distributed import get_worker

        return Path(get_worker().local_directory)
    except (ImportError, ValueError):
        return Path(tempfile.gettempdir())


def lecture_template(lecture: str, digest: str) -> Path:
    """A course folder with the lecture's source and release from this worker's install, and a gradebook
    that knows the lecture (nbgrader's generate_assignment, once per lecture and worker process)."""
    with _TEMPLATE_LOCK:
        known = _TEMPLATES.get((lecture, digest))
        if known is not None and known.is_dir():
            return known
        source = ROOT / "solutions" / lecture
        if not source.is_dir():
            raise CannotGrade(f"this worker's course ({ROOT}) has no lecture {lecture}: update it (git pull)")
        folder = Path(tempfile.mkdtemp(prefix=f"mlcourse-{lecture}-", dir=scratch()))
        atexit.register(shutil.rmtree, folder, True)
        try:
            shutil.copy(ROOT / "nbgrader_config.py", folder)
            (folder / "tools").symlink_to(ROOT / "tools")
            shutil.copytree(source, folder / "solutions" / lecture,
                            ignore=shutil.ignore_patterns(*IGNORED))
            if folder_digest(folder / "solutions" / lecture) != digest:
                raise CannotGrade(f"this worker's solutions/{lecture} ({ROOT}) is not the instructor's: "
                                  "update its copy of the course (git pull) to the instructor's commit")
            if (ROOT / "notebooks" / lecture).is_dir():
                shutil.copytree(ROOT / "notebooks" / lecture, folder / "notebooks" / lecture)
            sync_gradebook([lecture], root=folder, db_url=f"sqlite:///{folder / 'gradebook.db'}")
            shutil.rmtree(folder / "build", ignore_errors=True)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        _TEMPLATES[(lecture, digest)] = folder
        return folder


def grade_on_worker(task: Task) -> list[dict]:
    """Grade a task's submissions in a private course folder with grade.py's grade_batch; a result per
    submission (see ``record``). Nothing outside that folder changes but the caches of grading itself
    (the lecture's template, build/grading-lib/ of the worker's install)."""
    where = worker_address()
    try:
        if secret_check(worker_secret()) != task.secret_check:
            raise CannotGrade(f"this worker's grading secret is not the instructor's: install the instructor's "
                              f"{SECRET_FILE} on it ({ROOT / SECRET_FILE})")
        problems = machine_problems(task.sandbox)
        if problems:
            raise CannotGrade("; ".join(problems))
        template = lecture_template(task.lecture, task.lecture_digest)
        with tempfile.TemporaryDirectory(prefix="mlcourse-grade-", dir=scratch()) as tmp:
            root = Path(tmp) / "course"
            shutil.copytree(template, root, symlinks=True)
            secret = os.open(root / SECRET_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(secret, "wb") as f:
                f.write(worker_secret() + b"\n")
            (root / "logs" / "autograde" / task.lecture).mkdir(parents=True)
            batch = []
            for item in task.items:
                staged = root / "build" / "grading" / item.student / item.lecture
                staged.mkdir(parents=True)
                for rel, content in item.files:
                    target = (staged / rel).resolve()
                    if not target.is_relative_to(staged.resolve()):
                        raise CannotGrade(f"{item.student}: a file's path leads out of its submission")
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(content)
                batch.append((Submission(item.student, item.lecture, list(item.notes)), item.stamp))
            url = f"sqlite:///{root / 'gradebook.db'}?timeout={grade.SQLITE_BUSY_TIMEOUT}"
            outcomes = grade.grade_batch(root, batch, task.sandbox, url=url)
            return [result_of(root, url, item, o, where) for item, o in zip(task.items, outcomes)]
    except Exception as err:
        why = f"the worker {where} could not grade it: {type(err).__name__}: {shown(str(err))[:300]}"
        return [{"student": item.student, "status": "failed", "why": why, "worker": where} for item in task.items]


def result_of(root: Path, url: str, item: Item, o: grade.Outcome, where: str) -> dict:
    """What travels back for one graded submission."""
    sub = o.submission
    raw_path = grade.raw_log_of(root, sub)
    raw = raw_path.read_text(errors="replace") if raw_path.is_file() else ""
    head = "".join(f"[staging] {note}\n" for note in item.notes)
    result = {"student": item.student, "status": o.status, "why": o.why, "seconds": o.seconds, "worker": where,
              "raw_log": raw, "text": raw[len(head):] if raw.startswith(head) else raw}
    if o.status != "graded":
        return result
    folder = root / "autograded" / sub.student / sub.lecture
    result["files"] = [(str(p.relative_to(folder)), p.read_bytes()) for p in sorted(folder.rglob("*")) if p.is_file()]
    from nbgrader.api import Gradebook

    with Gradebook(url) as gb:
        s = gb.find_submission(sub.lecture, sub.student)
        result["grades"] = {
            "timestamp": s.timestamp,
            "notebooks": [{"name": nb.name, "late": nb.late_submission_penalty,
                           "graded": (folder / f"{nb.name}.ipynb").is_file(),
                           "grades": [(g.name, g.auto_score, g.needs_manual_grade) for g in nb.grades],
                           "comments": [(c.name, c.auto_comment) for c in nb.comments]}
                          for nb in s.notebooks]}
    return result


# --- a cluster on this machine (tests, make bench) -------------------------------------------------

@dataclass
class LocalCluster:
    address: str
    scheduler: subprocess.Popen
    workers: list[subprocess.Popen]

    def kill_worker(self, k: int) -> None:
        """Kill worker ``k`` and everything it started at once (SIGKILL): a machine lost."""
        stop(self.workers[k], signal.SIGKILL)


def stop(proc: subprocess.Popen, sig=signal.SIGTERM) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@contextmanager
def local_cluster(folder: Path, workers: int = 2, nthreads: int = 1, env: dict | None = None):
    """A `dask scheduler` and ``workers`` `dask worker`s of ``nthreads`` threads each, every one its own
    process (and process group) on loopback at random ports, without dashboards; their logs and
    files in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    dask = str(Path(sys.executable).parent / "dask")
    tools = str(Path(__file__).resolve().parent)
    env = {**os.environ, **(env or {})}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (tools, env.get("PYTHONPATH")) if p)
    address_file = folder / "scheduler.json"
    address_file.unlink(missing_ok=True)
    procs: list[subprocess.Popen] = []

    def start(args, name):
        with open(folder / f"{name}.log", "w") as log:
            procs.append(subprocess.Popen([dask, *args], env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                          start_new_session=True))
        return procs[-1]

    try:
        scheduler = start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                           "--scheduler-file", str(address_file)], "scheduler")
        deadline = time.monotonic() + 60
        address = None
        while address is None:
            try:
                address = json.loads(address_file.read_text())["address"]
            except (OSError, ValueError, KeyError):  # not there yet, or not yet whole
                if scheduler.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the scheduler did not start: {(folder / 'scheduler.log').read_text()[-2000:]}")
                time.sleep(0.1)
        started = [start(["worker", address, "--host", "127.0.0.1", "--nthreads", str(nthreads), "--no-nanny",
                          "--no-dashboard", "--preload", "grade_dask", "--name", f"worker-{k}",
                          "--local-directory", str(folder / f"worker-{k}")], f"worker-{k}")
                   for k in range(workers)]
        from distributed import Client

        with Client(address, timeout=30, set_as_default=False) as client:
            deadline = time.monotonic() + 90
            while len(client.scheduler_info(n_workers=-1)["workers"]) < workers:
                dead = [k for k, p in enumerate(started) if p.poll() is not None]
                if dead or time.monotonic() > deadline:
                    log = (folder / f"worker-{dead[0] if dead else 0}.log").read_text()[-2000:]
                    raise RuntimeError(f"a worker did not start: {log}")
                time.sleep(0.2)
        yield LocalCluster(address, scheduler, started)
    finally:
        for proc in reversed(procs):
            stop(proc)
