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

A non-empty DEST is refused, untouched. With --force (FORCE=1) the copy's own parts in DEST are replaced
(the paths in OWNED) and everything else there is left as it was and named: a published repository's
`.git`, a LICENSE you added, a `.venv` from trying the copy out.

    python tools/student_copy.py DEST [--force]
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "tools" / "student-copy"
# What the copy takes from this repository as it is, and the templates it fills in (the rest is generated).
COPIED = ("notebooks", "lib/mlcourse", "lab-config")
FROM_TEMPLATES = {"README.md": "README.md", "Makefile": "Makefile", ".gitignore": "gitignore"}
# Every top-level path of DEST the copy writes: what --force replaces (nothing else is touched).
OWNED = ("notebooks", "lib", "lab-config", "pyproject.toml", "environment.yml", *FROM_TEMPLATES)
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".ipynb_checkpoints", ".pytest_cache")
PIN = re.compile(r"([A-Za-z0-9_.-]+)==([0-9][^\s;]*)")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def runtime_pins() -> list[str]:
    """The pinned runtime dependencies of this repository's pyproject.toml (its extras left out)."""
    pins = _project()["dependencies"]
    loose = [spec for spec in pins if not PIN.fullmatch(spec)]
    if loose:
        raise SystemExit(f"pyproject.toml: {loose} not pinned as name==version; the students' copy takes exact pins only")
    return pins


def pyproject() -> str:
    project = _project()
    deps = "\n".join(f'    "{spec}",' for spec in runtime_pins())
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


def environment_yml() -> str:
    """The same pins for conda. A package the main environment.yml installs with pip (not on conda-forge)
    goes into the pip section here too."""
    pip_only = {m[1].lower() for m in re.finditer(r"^\s+-\s*([A-Za-z0-9_.-]+)==", (ROOT / "environment.yml").read_text(), re.M)}
    conda, pip = [], []
    for spec in runtime_pins():
        name, version = PIN.fullmatch(spec).groups()
        if name.lower() in pip_only:
            pip.append(f"      - {name}=={version}")
        else:
            conda.append(f"  - {name}={version}")
    return ("# conda / Binder environment: the same pins as pyproject.toml.\nname: mlcourse\nchannels:\n  - conda-forge\n"
            "dependencies:\n  - python=3.11\n  - pip\n" + "".join(line + "\n" for line in conda)
            + "  - pip:\n" + "".join(line + "\n" for line in pip) + "      - -e .\n")


def lectures_table() -> str:
    """The table of lectures at the top of this repository's README (its links point into notebooks/)."""
    rows = [line for line in (ROOT / "README.md").read_text().splitlines()
            if line.startswith("| lecture |") or line.startswith("|---") or re.match(r"\| \d\d \|", line)]
    if len(rows) < 3:
        raise SystemExit("README.md has no table of lectures (| lecture | topic |) to copy into the students' README")
    return "\n".join(rows)


def check_destination(dest: Path, force: bool) -> None:
    if dest == ROOT or dest in ROOT.parents or ROOT in dest.parents:
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


def build(dest: Path, force: bool = False) -> Path:
    """Write the students' copy into ``dest`` and return it."""
    dest = dest.resolve()
    check_destination(dest, force)
    # Everything generated is made before DEST is touched, so a failure leaves DEST as it was.
    generated = {"pyproject.toml": pyproject(), "environment.yml": environment_yml(),
                 "README.md": (TEMPLATES / "README.md").read_text().replace("{lectures}", lectures_table())}
    dest.mkdir(parents=True, exist_ok=True)
    for part in OWNED:
        _remove(dest / part)
    for part in COPIED:
        shutil.copytree(ROOT / part, dest / part, ignore=IGNORED)
    for name, text in generated.items():
        (dest / name).write_text(text)
    for name, template in FROM_TEMPLATES.items():
        if name not in generated:
            shutil.copy(TEMPLATES / template, dest / name)
    return dest


def kept(dest: Path) -> list[str]:
    """What DEST holds besides the copy (left there by --force)."""
    return sorted(p.name for p in dest.iterdir() if p.name not in OWNED)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dest", type=Path, help="an empty folder outside this repository")
    parser.add_argument("--force", action="store_true",
                        help="write into a non-empty DEST: replace the copy's own parts there, keep the rest")
    args = parser.parse_args()
    dest = build(args.dest, args.force)
    lectures = sorted(p.name for p in (dest / "notebooks").iterdir() if p.is_dir())
    print(f"wrote the students' copy to {dest}: {len(lectures)} lectures ({lectures[0]} to {lectures[-1]}), the mlcourse "
          "package, README.md and Makefile (`make lab`). Publish that folder; keep this repository private.")
    others = kept(dest)
    if others:
        print(f"left as they were in {dest} (not part of the copy; check they belong in what you publish): {', '.join(others)}")


if __name__ == "__main__":
    sys.exit(main())
