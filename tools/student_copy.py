"""`make student-copy DEST=...`: write the course as students get it, with no answer in it.

The copy holds the released notebooks (`notebooks/`, with NOTATION.md), the helper package `mlcourse`
(`lib/mlcourse`), `lab-config/` (which `make lab` uses), a `pyproject.toml` and `environment.yml` with the
same runtime pins as this repository, and a README, Makefile and .gitignore made from the templates in
`tools/student-copy/` (edit those to change what students read). It holds no `solutions/`, no test, no
grading tool, sandbox or gradebook: this repository stays private, and the copy is what is published (a
public repository, or a zip on the course platform). `tests/test_student_copy.py` searches it for every
hidden test, model answer and grading note.

The pins are read from this repository's pyproject.toml, never written twice: the copy gets its
`dependencies` (the runtime, nbgrader included: the released notebooks are nbgrader assignments and
lab-config keeps nbgrader's Validate button) and none of its extras (`test`: pytest, nbval, Playwright...;
`instructor`: the copying report), which only instructors and CI use.

The copy is built from what is committed (git's HEAD), never from the working tree: `make lab` in this
repository saves the instructor's own answers and outputs into notebooks/, and those must not be
published. What differs from HEAD is named, and left out.

A non-empty DEST is refused, untouched. With --force (FORCE=1) the copy's own parts in DEST are replaced
(the paths in OWNED) and everything else there is left as it was and named: a published repository's
`.git`, a LICENSE you added, a `.venv` from trying the copy out.

    python tools/student_copy.py DEST [--force]
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "tools" / "student-copy"
# What the copy takes from this repository as it is, and the templates it fills in (the rest is generated).
COPIED = ("notebooks", "lib/mlcourse", "lab-config")
FROM_TEMPLATES = {"README.md": "README.md", "Makefile": "Makefile", ".gitignore": "gitignore"}
# What the copy is made from: these paths as git's HEAD has them.
SOURCES = (*COPIED, "pyproject.toml", "environment.yml", "README.md", "site.toml", "tools/student-copy")
# Every top-level path of DEST the copy writes: what --force replaces (nothing else is touched).
OWNED = ("notebooks", "lib", "lab-config", "pyproject.toml", "environment.yml", *FROM_TEMPLATES)
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".ipynb_checkpoints", ".pytest_cache")
PIN = re.compile(r"([A-Za-z0-9_.-]+)==([0-9][^\s;]*)")


@dataclass
class Source:
    """The committed state a copy is made from."""
    root: Path  # a folder holding SOURCES as HEAD has them (it goes when the copy is made)
    commit: str
    uncommitted: list[str]  # paths of SOURCES whose working tree differs from HEAD (left out of the copy)
    dest: Path | None = None  # where the copy was written


def git(*args: str, root: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


@contextmanager
def committed(root: Path = ROOT):
    """SOURCES as git's HEAD has them, in a temporary folder."""
    try:
        commit = git("rev-parse", "--verify", "HEAD", root=root).strip()
    except (OSError, subprocess.CalledProcessError):
        raise SystemExit(f"{root} is not a git checkout with a commit: the students' copy is built from what is "
                         "committed, so that nothing unsaved or unreviewed is published; commit the course first")
    changed = [line[3:] for line in git("status", "--porcelain", "--untracked-files=all", "--", *SOURCES,
                                        root=root).splitlines()]
    archive = subprocess.run(["git", "archive", "--format=tar", commit, "--", *SOURCES], cwd=root, check=True,
                             capture_output=True).stdout
    with tempfile.TemporaryDirectory(prefix="student-copy-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        yield Source(Path(tmp), commit, sorted(changed))


def _project(root: Path) -> dict:
    return tomllib.loads((root / "pyproject.toml").read_text())["project"]


def runtime_pins(root: Path = ROOT) -> list[str]:
    """The pinned runtime dependencies of this repository's pyproject.toml (its extras left out)."""
    pins = _project(root)["dependencies"]
    loose = [spec for spec in pins if not PIN.fullmatch(spec)]
    if loose:
        raise SystemExit(f"pyproject.toml: {loose} not pinned as name==version; the students' copy takes exact pins only")
    return pins


def pyproject(root: Path = ROOT) -> str:
    project = _project(root)
    deps = "\n".join(f'    "{spec}",' for spec in runtime_pins(root))
    return f"""# The course's pinned packages (the same pins as the instructors' repository). `make setup` installs them.
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "{project['name']}"
version = "{project['version']}"
description = "{project['description']}"
readme = "README.md"
requires-python = "{project['requires-python']}"
dependencies = [
{deps}
]

[tool.setuptools.packages.find]
where = ["lib"]
"""


def environment_yml(root: Path = ROOT) -> str:
    """The same pins for conda. A package the main environment.yml installs with pip (not on conda-forge)
    goes into the pip section here too."""
    pip_only = {m[1].lower() for m in re.finditer(r"^\s+-\s*([A-Za-z0-9_.-]+)==", (root / "environment.yml").read_text(), re.M)}
    conda, pip = [], []
    for spec in runtime_pins(root):
        name, version = PIN.fullmatch(spec).groups()
        if name.lower() in pip_only:
            pip.append(f"      - {name}=={version}")
        else:
            conda.append(f"  - {name}={version}")
    return ("# conda / Binder environment: the same pins as pyproject.toml.\nname: mlcourse\nchannels:\n  - conda-forge\n"
            "dependencies:\n  - python=3.11\n  - pip\n" + "".join(line + "\n" for line in conda)
            + "  - pip:\n" + "".join(line + "\n" for line in pip) + "      - -e .\n")


def lectures_table(root: Path = ROOT) -> str:
    """The table of lectures at the top of this repository's README (its links point into notebooks/)."""
    rows = [line for line in (root / "README.md").read_text().splitlines()
            if line.startswith("| lecture |") or line.startswith("|---") or re.match(r"\| \d\d \|", line)]
    if len(rows) < 3:
        raise SystemExit("README.md has no table of lectures (| lecture | topic |) to copy into the students' README")
    return "\n".join(rows)


def launch_section(root: Path = ROOT) -> str:
    """The students' README's lines on running the course without installing it: the launch links of the
    course's website (site.toml), or nothing when it names none."""
    import website

    found = website.settings(root / "site.toml")
    links = website.launch_links(found)
    if not links:
        return ""
    where = " or ".join(f"[{label}]({url})" for label, url in links)
    site = f" The lectures can also be read, with their figures, on [the course's website]({found['site_url']})." \
        if found.get("site_url") else ""
    binder = " (a Binder session keeps your work only while it runs: download your notebooks before you close it)" \
        if any(label == "Binder" for label, _ in links) else ""
    return f"**Nothing to install:** open the course on {where}{binder}.{site}\n"


def check_destination(dest: Path, force: bool, repository: Path = ROOT) -> None:
    if dest == repository or dest in repository.parents or repository in dest.parents:
        raise SystemExit(f"DEST={dest} is this repository or holds it or lies inside it; choose a folder outside it")
    if dest.exists() and not dest.is_dir():
        raise SystemExit(f"DEST={dest} is a file, not a folder; nothing was written")
    if dest.exists() and any(dest.iterdir()) and not force:
        raise SystemExit(f"DEST={dest} is not empty; nothing was written. Choose an empty folder, or run again with "
                         f"FORCE=1 (make) or --force to replace the copy's own parts there ({', '.join(OWNED)}); "
                         "anything else in it is kept")


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def make_copy(dest: Path, force: bool = False, repository: Path = ROOT) -> Source:
    """Write the students' copy of what ``repository`` has committed into ``dest``; say what it took."""
    dest = dest.resolve()
    check_destination(dest, force, repository.resolve())
    with committed(repository) as source:
        root = source.root
        # Everything generated is made before DEST is touched, so a failure leaves DEST as it was.
        templates = root / TEMPLATES.relative_to(ROOT)
        generated = {"pyproject.toml": pyproject(root), "environment.yml": environment_yml(root),
                     "README.md": (templates / "README.md").read_text().replace("{lectures}", lectures_table(root))
                                                                    .replace("{launch}", launch_section(root))}
        dest.mkdir(parents=True, exist_ok=True)
        for part in OWNED:
            _remove(dest / part)
        for part in COPIED:
            shutil.copytree(root / part, dest / part, ignore=IGNORED)
        for name, text in generated.items():
            (dest / name).write_text(text)
        for name, template in FROM_TEMPLATES.items():
            if name not in generated:
                shutil.copy(templates / template, dest / name)
        source.dest = dest
    return source


def build(dest: Path, force: bool = False, repository: Path = ROOT) -> Path:
    """Write the students' copy into ``dest`` and return it."""
    return make_copy(dest, force, repository).dest


def kept(dest: Path) -> list[str]:
    """What DEST holds besides the copy (left there by --force)."""
    return sorted(p.name for p in dest.iterdir() if p.name not in OWNED)


def main(argv=None, repository: Path = ROOT) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dest", type=Path, help="an empty folder outside this repository")
    parser.add_argument("--force", action="store_true",
                        help="write into a non-empty DEST: replace the copy's own parts there, keep the rest")
    args = parser.parse_args(argv)
    source = make_copy(args.dest, args.force, repository)
    dest = source.dest
    if source.uncommitted:
        shown = ", ".join(source.uncommitted[:8]) + (f" and {len(source.uncommitted) - 8} more" if len(source.uncommitted) > 8 else "")
        print(f"left out, as not committed (the copy has them as commit {source.commit[:10]} does): {shown}")
    lectures = sorted(p.name for p in (dest / "notebooks").iterdir() if p.is_dir())
    print(f"wrote the students' copy of commit {source.commit[:10]} to {dest}: {len(lectures)} lectures ({lectures[0]} to {lectures[-1]}), the mlcourse "
          "package, README.md and Makefile (`make lab`). Publish that folder; keep this repository private.")
    others = kept(dest)
    if others:
        print(f"left as they were in {dest} (not part of the copy; check they belong in what you publish): {', '.join(others)}")


if __name__ == "__main__":
    sys.exit(main())
