"""The pins of pyproject.toml (the one source of truth) and environment.yml agree."""

import re
import tomllib

import yaml

from conftest import ROOT


def pip_pins() -> dict:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = project["dependencies"] + [d for group in project["optional-dependencies"].values() for d in group]
    pins = {}
    for spec in specs:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==([0-9][^\s;]*)", spec)
        assert match, f"pyproject.toml: {spec!r} is not pinned as name==version"
        pins[match[1].lower()] = match[2]
    return pins


def conda_pins() -> dict:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pins = {}
    for dep in env["dependencies"]:
        if isinstance(dep, str) and dep not in ("pip",) and not dep.startswith("python="):
            name, _, version = dep.partition("=")
            pins[name.lower()] = version
        elif isinstance(dep, dict):                      # the pip: section, for what conda-forge lacks
            for spec in dep.get("pip", []):
                if "==" in spec:
                    name, _, version = spec.partition("==")
                    pins[name.strip().lower()] = version.split("#")[0].strip()
    return pins


def test_environment_yml_has_the_same_pins_as_pyproject():
    pip, conda = pip_pins(), conda_pins()
    assert set(conda) == set(pip), (
        f"only in pyproject.toml: {sorted(set(pip) - set(conda))}; "
        f"only in environment.yml: {sorted(set(conda) - set(pip))}")
    differ = {name: (pip[name], conda[name]) for name in pip if pip[name] != conda[name]}
    assert not differ, f"versions differ (pyproject, environment.yml): {differ}"


def test_environment_yml_uses_python_3_11_from_conda_forge():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge"]
    assert "python=3.11" in env["dependencies"]


def test_bench_names_an_unknown_lecture_before_timing_anything():
    """`make bench` with a misspelt lecture used to time nothing and say nothing."""
    import subprocess
    import sys

    for args in (["--notebooks-only", "01-risk"], ["--grading-only", "--lecture", "99-none"]):
        done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), *args], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode != 0 and "unknown lecture(s)" in done.stderr and "01-learning-problem" in done.stderr
        assert "floor" not in done.stdout
