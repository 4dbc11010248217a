"""`make student-copy DEST=...`: write the course as students get it, with no answer in it.

The copy holds the released notebooks (`notebooks/`, with NOTATION.md), the helper package `mlcourse`,
`lab-config/`, a `pyproject.toml` and `environment.yml` with the same runtime pins as this repository
(the test tools left out), and a README and Makefile made from the templates in `tools/student-copy/`
(edit those to change what students read). It holds no `solutions/`, no test, no grading tool, sandbox or
gradebook: this repository stays private, and the copy is what is published (a public repository, or a
zip on the course platform). `tests/test_student_copy.py` searches it for every hidden test, model answer
and grading note.

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
# What the copy takes from this repository, as it is (the rest is generated).
COPIED = ("notebooks", "lib/mlcourse", "lab-config")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".ipynb_checkpoints", ".pytest_cache")


def runtime_pins() -> list[str]:
    """The pinned runtime dependencies of this repository's pyproject.toml (the test extras left out)."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]


def pyproject() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = "\n".join(f'    "{spec}",' for spec in runtime_pins())
    return f"""[build-system]
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
    lines = []
    for spec in runtime_pins():
        name, version = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", spec).groups()
        lines.append(f"  - {name}={version}")
    return ("# conda / Binder environment: the same pins as pyproject.toml.\nname: mlcourse\nchannels:\n  - conda-forge\n"
            "dependencies:\n  - python=3.11\n  - pip\n" + "\n".join(lines) + "\n  - pip:\n      - -e .\n")


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
        raise SystemExit(f"DEST={dest} is a file, not a folder")
    if dest.exists() and any(dest.iterdir()) and not force:
        raise SystemExit(f"DEST={dest} is not empty; nothing was written. Choose an empty folder, or run again with "
                         "FORCE=1 (make) or --force to replace what it holds")


def build(dest: Path, force: bool = False) -> Path:
    """Write the students' copy into ``dest`` and return it."""
    dest = dest.resolve()
    check_destination(dest, force)
    if dest.exists():
        shutil.rmtree(dest)
    for part in COPIED:
        shutil.copytree(ROOT / part, dest / part, ignore=IGNORED)
    (dest / "pyproject.toml").write_text(pyproject())
    (dest / "environment.yml").write_text(environment_yml())
    (dest / "README.md").write_text((TEMPLATES / "README.md").read_text().replace("{lectures}", lectures_table()))
    shutil.copy(TEMPLATES / "Makefile", dest / "Makefile")
    return dest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dest", type=Path, help="an empty folder outside this repository")
    parser.add_argument("--force", action="store_true", help="replace what DEST holds")
    args = parser.parse_args()
    dest = build(args.dest, args.force)
    lectures = sorted(p.name for p in (dest / "notebooks").iterdir() if p.is_dir())
    print(f"wrote the students' copy to {dest}: {len(lectures)} lectures ({lectures[0]} to {lectures[-1]}), the mlcourse "
          "package, README.md and Makefile (`make lab`). Publish that folder; keep this repository private.")


if __name__ == "__main__":
    sys.exit(main())
