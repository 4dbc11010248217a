"""The course's command line: the Makefile's release, execute, autograde, feedback and export.

    python tools/course.py execute   [LECTURE ...]    re-run solution notebooks, save their outputs
    python tools/course.py release   [--force] [LECTURE ...]
    python tools/course.py feedback  [--lecture L] [--student S]
    python tools/course.py export

Run from anywhere; it works in the course root (the folder holding nbgrader_config.py).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNEL = "mlcourse"
CELL_TIMEOUT = 120  # seconds, when executing solution notebooks


def shown(name) -> str:
    """A name as it may be printed: control and other unprintable characters escaped (a file or folder
    name from a submission must not move the instructor's terminal)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(name))


def lectures(root: Path = ROOT) -> list[str]:
    """Names of the lectures: the folders of solutions/ that hold a notebook."""
    return sorted(p.parent.name for p in (root / "solutions").glob("*/*.ipynb"))


def check_lectures(names, root: Path = ROOT) -> list[str]:
    """Return ``names`` (all lectures when empty), or exit naming the unknown ones."""
    known = lectures(root)
    unknown = [n for n in names if n not in known]
    if unknown:
        sys.exit(f"unknown lecture(s) {', '.join(unknown)}; the lectures are: {', '.join(known)}")
    return list(names) or known


def nbgrader(*args: str, root: Path = ROOT, check: bool = True, **run_args) -> subprocess.CompletedProcess:
    """Run an nbgrader command in ``root`` with this Python's bin/ first on PATH (for alembic)."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    cmd = [sys.executable, str(Path(__file__).resolve().parent / "nbgrader_cli.py"), *args]
    return subprocess.run(cmd, cwd=root, env=env, check=check, **run_args)


def notebook_client(nb, cwd: Path, timeout: int = CELL_TIMEOUT, kernel: str = KERNEL, **options):
    """An nbclient NotebookClient whose kernel client never waits on a missed wake-up.

    nbclient waits for a kernel's messages with pyzmq's asyncio poll, whose file descriptor only
    signals new events; now and then (about once in twenty runs of a notebook with a widget, more
    often on a busy machine) a wake-up is lost, and the client sleeps, the kernel idle, until the
    poll's timeout, when it finds the message that had been waiting all along: a run stalls for the
    whole cell timeout and then goes on as if nothing happened. Polling in slices of a second bounds
    that to a second.
    """
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    km = AsyncKernelManager(kernel_name=kernel, client_class="course.SlicedPollClient")
    return NotebookClient(nb, km=km, kernel_name=kernel, timeout=timeout,
                          resources={"metadata": {"path": str(cwd)}}, **options)


def _sliced_channel():
    from queue import Empty
    from time import monotonic

    from jupyter_client.channels import AsyncZMQSocketChannel

    class SlicedPollChannel(AsyncZMQSocketChannel):
        async def get_msg(self, timeout=None):
            deadline = None if timeout is None else monotonic() + timeout
            while True:
                step = 1.0 if deadline is None else max(0.0, min(1.0, deadline - monotonic()))
                try:
                    return await super().get_msg(timeout=step)
                except Empty:
                    if deadline is not None and monotonic() >= deadline:
                        raise

    return SlicedPollChannel


def __getattr__(name):  # the client class is built on first use: importing this module stays light
    if name == "SlicedPollClient":
        from jupyter_client.asynchronous import AsyncKernelClient
        from traitlets import Type

        channel = _sliced_channel()

        class SlicedPollClient(AsyncKernelClient):
            shell_channel_class = Type(channel)
            iopub_channel_class = Type(channel)

        globals()["SlicedPollClient"] = SlicedPollClient
        return SlicedPollClient
    raise AttributeError(name)


def execute_notebook(path: Path, timeout: int = CELL_TIMEOUT) -> None:
    """Run a notebook top to bottom in a fresh kernel and save it with its outputs.

    No timing or widget state is kept, so re-running it changes nothing but real outputs.
    """
    import nbformat

    nb = nbformat.read(path, as_version=4)
    notebook_client(nb, path.parent, timeout, record_timing=False).execute()
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)


def filled_release(release, solution):
    """The release with the solution's answers put back in every answer cell: what a student who
    answers everything right hands in (used by the tests and the grading bench)."""
    import re

    import nbformat

    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in solution.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    filled = nbformat.from_dict(release)
    for cell in filled.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            cell.source = "\n".join(line for line in answers[meta["grade_id"]].splitlines()
                                    if not re.match(r"\s*### (BEGIN|END) SOLUTION", line))
    return filled


def cmd_execute(args) -> None:
    for name in check_lectures(args.lectures):
        for path in sorted((ROOT / "solutions" / name).glob("*.ipynb")):
            print(f"executing {path.relative_to(ROOT)}", flush=True)
            execute_notebook(path)


def modified_release_files(names, root: Path = ROOT) -> list[str]:
    """Files under notebooks/ of these lectures (or course-wide files such as NOTATION.md) that
    differ from git's HEAD (or git does not know)."""
    paths = [f"notebooks/{n}" for n in names]
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", *paths],
                             cwd=root, check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []  # not a git checkout: nothing to compare with
    return sorted(line[3:] for line in out.splitlines())


# Files of solutions/ outside any lecture that students get too (copied as they are by `release`).
SHARED_FILES = ("NOTATION.md",)


def release_shared_files(root: Path = ROOT) -> list[str]:
    """Copy the course-wide files (the notation table) from solutions/ to notebooks/."""
    written = []
    for name in SHARED_FILES:
        source, target = root / "solutions" / name, root / "notebooks" / name
        if not target.exists() or target.read_bytes() != source.read_bytes():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
            written.append(f"notebooks/{name}")
    return written


def cmd_release(args) -> None:
    names = check_lectures(args.lectures)
    changed = modified_release_files([*names, *SHARED_FILES])
    if changed and not args.force:
        sys.exit("notebooks/ has changes that a release would overwrite:\n  " + "\n  ".join(changed)
                 + "\nSave them elsewhere (or commit them), or run `make release FORCE=1` to overwrite.")
    for name in names:
        nbgrader("generate_assignment", name, "--force", "--log-level=WARN")
        print(f"released notebooks/{name}")
    for path in release_shared_files():
        print(f"released {path}")


def sync_gradebook(names, root: Path = ROOT, db_url: str | None = None) -> None:
    """Record the lectures' cells in the gradebook without touching notebooks/ (autograde needs them)."""
    extra = [f"--CourseDirectory.db_url={db_url}"] if db_url else []
    for name in names:
        nbgrader("generate_assignment", name, "--force", "--log-level=WARN",
                 "--CourseDirectory.release_directory=build/release", *extra, root=root)


def cmd_feedback(args) -> None:
    sys.exit(0 if feedback(ROOT, args.lecture, args.student) else 1)


# nbgrader log lines that tell an instructor nothing: nbconvert's notice that figures have no alt
# text, and the old feedback being replaced (feedback runs with --force, on purpose)
FEEDBACK_NOISE = ("Alternative text is missing", "Removing existing assignment")


def feedback(root: Path = ROOT, lecture: str | None = None, student: str | None = None, out=sys.stdout) -> bool:
    """`make feedback`: HTML feedback for every autograded submission (of one lecture, one student).

    nbgrader's log goes to logs/feedback/<lecture>.log; what is printed is what the instructor should
    know (nbgrader's warnings and errors, submissions with no feedback and why, written answers not
    graded yet) and, at the end, what was written for whom. False when nbgrader failed somewhere.
    """
    import re
    import time

    from grade import gradebook_url

    if lecture:
        check_lectures([lecture], root)

    def folders(step: str) -> set[tuple[str, str]]:
        found = (root / step).glob(f"{student or '*'}/{lecture or '*'}")
        return {(p.parent.name, p.name) for p in found if p.is_dir() and p.name in known}

    known = set(lectures(root))
    autograded, ok, written = folders("autograded"), True, {}
    for s, name in sorted(folders("submitted") - autograded):
        print(f"{shown(s)}/{name}: not autograded yet (make autograde), so no feedback", file=out)
    names = sorted({n for _, n in autograded})
    for k, name in enumerate(names, 1):
        count = sum(1 for _, n in autograded if n == name)
        print(f"[{k}/{len(names)}] {name}: writing the feedback of {plural(count, 'student')}...", file=out, flush=True)
        log_path, start = root / "logs" / "feedback" / f"{name}.log", time.time()
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(log_path, "w") as log:
            done = nbgrader("generate_feedback", name, "--force", *([f"--student={student}"] if student else []),
                            root=root, check=False, stdout=log, stderr=subprocess.STDOUT)
        for line in log_path.read_text(errors="replace").splitlines():
            if (m := re.search(r"\| (WARNING|ERROR|CRITICAL)\] (.*)", line)) and not any(n in line for n in FEEDBACK_NOISE):
                print(f"{name}: {m[1].lower()}: {shown(m[2])}", file=out)
        if done.returncode:
            ok = False
            print(f"{name}: nbgrader failed (exit code {done.returncode}); its log: {log_path.relative_to(root)}", file=out)
        for s in sorted(s for s, n in autograded if n == name):
            for nb in sorted((root / "autograded" / s / name).glob("*.ipynb")):
                page = root / "feedback" / s / name / f"{nb.stem}.html"
                if page.is_file() and page.stat().st_mtime >= start - 1:
                    written.setdefault(name, []).append((s, page))
                else:
                    ok = False
                    print(f"{shown(s)}/{name}: no feedback written for {shown(nb.name)}; see {log_path.relative_to(root)}", file=out)
    if not written:
        print("wrote no feedback" + ("" if autograded else ": nothing is autograded yet (make autograde)"), file=out)
        return ok
    from nbgrader.api import Gradebook, MissingEntry

    waiting = []
    with Gradebook(gradebook_url(root)) as gb:
        for name, pages in written.items():
            for s in sorted({s for s, _ in pages}):
                try:
                    if gb.find_submission(name, s).needs_manual_grade:
                        waiting.append(f"{s}/{name}")
                except MissingEntry:
                    pass
    for name, pages in written.items():
        students = sorted({s for s, _ in pages})
        who = ", ".join(students) if len(students) <= 8 else f"{len(students)} students"
        print(f"{name}: {', '.join(sorted({p.name for _, p in pages}))} for {who}", file=out)
    if waiting:
        print(f"not graded by hand yet, so their written answers show 0 points: {', '.join(sorted(waiting))}\n"
              "  (grade them in the formgrader, then run make feedback again)", file=out)
    pages = [p for ps in written.values() for _, p in ps]
    print(f"wrote {pages[0].relative_to(root)}" + (f" and {len(pages) - 1} more" if len(pages) > 1 else "")
          + f": {plural(len({s for ps in written.values() for s, _ in ps}), 'student')}, "
          f"{plural(len(written), 'lecture')} (formulas load from feedback/_mathjax/: no network needed)", file=out)
    return ok


def cmd_install_sandbox_kernel(args) -> None:
    """Register kernelspec mlcourse-sandbox (tools/sandbox-kernel) in this environment."""
    import json

    folder = Path(sys.prefix) / "share" / "jupyter" / "kernels" / "mlcourse-sandbox"
    folder.mkdir(parents=True, exist_ok=True)
    # Interrupts (a cell over its time limit) go as a message: a signal would reach bubblewrap, not
    # the kernel inside it, and kill the kernel instead of stopping the cell.
    spec = {"argv": [str(ROOT / "tools" / "sandbox-kernel"), "{connection_file}"],
            "display_name": "ML course (sandboxed, for grading)", "language": "python",
            "interrupt_mode": "message"}
    (folder / "kernel.json").write_text(json.dumps(spec, indent=1) + "\n")
    print(f"registered kernel mlcourse-sandbox in {folder}")


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def cmd_export(args) -> None:
    sys.exit(0 if export(ROOT) else 1)


def export(root: Path = ROOT, out=sys.stdout) -> bool:
    """`make export`: grades.csv, and the files Canvas and Moodle import (tools/grades_export.py)."""
    import grades_export
    from grade import gradebook_url

    return grades_export.export(root, gradebook_url(root), lectures(root), out)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("execute", help="re-run solution notebooks and save their outputs")
    p.add_argument("lectures", nargs="*")
    p.set_defaults(func=cmd_execute)
    p = sub.add_parser("release", help="regenerate notebooks/ from solutions/")
    p.add_argument("lectures", nargs="*")
    p.add_argument("--force", action="store_true", help="overwrite changes in notebooks/")
    p.set_defaults(func=cmd_release)
    p = sub.add_parser("feedback", help="HTML feedback for students, without the hidden tests")
    p.add_argument("--lecture")
    p.add_argument("--student")
    p.set_defaults(func=cmd_feedback)
    p = sub.add_parser("install-sandbox-kernel", help="register the kernelspec that autograding uses")
    p.set_defaults(func=cmd_install_sandbox_kernel)
    p = sub.add_parser("export", help="write grades.csv")
    p.set_defaults(func=cmd_export)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
