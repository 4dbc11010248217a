"""Rules every lecture's proof checks follow (course guide, section 2; docs/authors.md, "Proof checks").

A proof check is a Markdown cell holding ``**Proof check`` and the code cells after it, up to the
next Markdown cell. What it prints is read by these tests, line by line:

- ``... held on K/N <cases>`` (or ``held in K/N``): the claim, tried on N cases; it holds when K = N.
  A line with ``FAILED`` is a claim that failed.
- ``negative control: <the wrong claim> fails on K/N <cases>`` (or ``fails in K/N``): the claim made
  wrong the way a student or a textbook gets it wrong (a constant halved, a factor dropped, the source
  notes' version); it must fail, K > 0. A straw man (a broken solver, a bound as an equality) is no
  control of a bound.
- ``tightness: r``: for a bound, the largest observed/bound over the cases (for a lower bound,
  bound/observed). It is at most 1 when the bound holds, and a saved output shows at least 0.5
  unless the line says ``sanity check`` (a bound never approached within a factor of 2 checks
  nothing). A check of an identity or an equality says so instead: ``tightness: an identity ...``,
  ``an equality``, ``exact``.

Every check has at least one line of each kind; every check holds, and every control fails, under
20 other seeds as well as the notebook's (each check is run again where it stands, after the cells
before it, with ``rng`` reseeded). And no printed line may show the size of floating-point
round-off, which changes with the CPU's BLAS kernels.
"""

from __future__ import annotations

import re

import pytest

from conftest import LECTURES, ROOT, load

CONTROL = re.compile(r"^negative control: .*\bfails\b")
NO_FAILURE = re.compile(r"\bfails on 0/")
HELD = re.compile(r"\bheld (?:on|in) (\d+)/(\d+)\b")
FAILS = re.compile(r"^negative control: .*?\bfails (?:on|in) (\d+)/(\d+)\b")
TIGHTNESS = re.compile(r"^tightness: (?:(?P<r>\d+(?:\.\d+)?)\b|.*\b(?:identity|equality|exact)\b)")
SEEDS = range(1001, 1021)  # the other seeds every check must pass under
# A number of 1e-7 or less: printed as a result it is round-off; printed as a tolerance it is so close
# to round-off that the verdict it gives can change with the CPU's kernels. Either way, not printed.
ROUND_OFF = re.compile(r"(?<![\w.])\d(?:\.\d+)?e-0?(?:[7-9]|[1-9]\d)\b")


def printed(cell) -> str:
    return "".join("".join(o.get("text", "")) for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def proof_checks(nb):
    """(index of the Markdown cell, its first line, the printed output of its code cells)."""
    cells, found = nb["cells"], []
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "markdown" and "**Proof check" in "".join(cell["source"]):
            j, out = i + 1, []
            while j < len(cells) and cells[j]["cell_type"] == "code":
                out.append(printed(cells[j]))
                j += 1
            found.append((i, "".join(cells[i]["source"]).split("**Proof check")[1][:60], "".join(out)))
    return found


def solution_notebooks():
    return [p for name in LECTURES for p in sorted((ROOT / "solutions" / name).glob("*.ipynb"))]


@pytest.mark.parametrize("path", solution_notebooks(), ids=lambda p: p.parent.name)
def test_every_proof_check_shows_its_negative_control_failing(path):
    checks = proof_checks(load(path))
    assert checks, f"{path.name} states no proof check"
    missing = [f"cell {i} ({head.strip()!r}...)" for i, head, out in checks
               if not any(CONTROL.match(line) for line in out.splitlines())]
    assert not missing, (f"{path.relative_to(ROOT)}: these proof checks print no line "
                         f"'negative control: <the wrong version> fails ...': " + "; ".join(missing))
    passing = [line for _, _, out in checks for line in out.splitlines()
               if CONTROL.match(line) and NO_FAILURE.search(line)]
    assert not passing, f"{path.relative_to(ROOT)}: negative controls that never failed: {passing}"


@pytest.mark.parametrize("path", solution_notebooks(), ids=lambda p: p.parent.name)
def test_no_printed_line_shows_round_off(path):
    bad = []
    for i, cell in enumerate(load(path)["cells"]):
        for line in printed(cell).splitlines():
            if ROUND_OFF.search(line):
                bad.append(f"cell {i}: {line.strip()[:100]}")
    assert not bad, (f"{path.relative_to(ROOT)} prints numbers at the scale of round-off (1e-7 or less), as "
                     "results or as tolerances; either can change with the CPU's BLAS kernels (print a verdict "
                     "against a tolerance of 1e-6 or more instead):\n" + "\n".join(bad))


def test_the_rules_catch_what_they_are_for():
    nb = {"cells": [
        {"cell_type": "markdown", "source": ["**Proof check.** A claim."]},
        {"cell_type": "code", "outputs": [{"output_type": "stream", "text": ["held on 10/10\n"]}]},
        {"cell_type": "markdown", "source": ["**Proof check.** Another."]},
        {"cell_type": "code", "outputs": [{"output_type": "stream", "text": [
            "held on 5/5\n", "negative control: with r^2 in place of r the bound fails on 3/5 sets\n"]}]},
    ]}
    checks = proof_checks(nb)
    assert [any(CONTROL.match(x) for x in out.splitlines()) for _, _, out in checks] == [False, True]
    assert ROUND_OFF.search("largest gap 3e-15") and not ROUND_OFF.search("p = 0.031, 1e-3 steps")
    assert ROUND_OFF.search("held (relative tolerance 1e-9)") and ROUND_OFF.search("within 1.0e-08")
    assert not ROUND_OFF.search("slope below 1e-06: yes") and not ROUND_OFF.search("from 1e-4 to 1e4")


def problems(out: str, saved: bool = True) -> list[str]:
    """What is wrong with the printed output of one proof check (see the module's docstring)."""
    lines, found = out.splitlines(), []
    held = [(line, HELD.findall(line)) for line in lines if HELD.search(line)]
    fails = [(line, FAILS.match(line)) for line in lines if line.startswith("negative control:")]
    tight = [(line, TIGHTNESS.match(line)) for line in lines if line.startswith("tightness:")]
    if not held:
        found.append("no line 'held on K/N <cases>'")
    if not fails:
        found.append("no line 'negative control: <the wrong claim> fails on K/N <cases>'")
    if not tight:
        found.append("no line 'tightness: r' (or, for an identity, 'tightness: an identity ...')")
    found += [f"the claim failed: {line.strip()}" for line in lines if "FAILED" in line]
    found += [f"the claim failed: {line.strip()}" for line, counts in held if any(k != n for k, n in counts)]
    found += [f"not in the form 'fails on K/N': {line.strip()}" for line, m in fails if not m]
    found += [f"the negative control did not fail: {line.strip()}" for line, m in fails if m and int(m[1]) == 0]
    found += [f"not in the form 'tightness: r': {line.strip()}" for line, m in tight if not m]
    for line, m in tight:
        if m and m["r"] is not None:
            r = float(m["r"])
            if r > 1:
                found.append(f"a tightness above 1 is a bound that failed: {line.strip()}")
            elif saved and r < 0.5 and "sanity check" not in line:
                found.append(f"a bound not approached within a factor of 2 (say 'sanity check' if that is all it is): "
                             f"{line.strip()}")
    return found


@pytest.mark.parametrize("path", solution_notebooks(), ids=lambda p: p.parent.name)
def test_every_proof_check_prints_its_verdict_control_and_tightness(path):
    bad = [f"cell {i} ({head.strip()[:40]!r}...): {p}" for i, head, out in proof_checks(load(path))
           for p in problems(out)]
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


# Only what the checks print is read: the kernel draws no figure (Agg, closed after every cell), which
# spares the seeds' runs the cost of rendering each check's figure 20 times.
NO_DRAWING = """
import matplotlib
matplotlib.use("agg")
import matplotlib.pyplot as plt
plt.show = lambda *args, **kwargs: plt.close("all")
get_ipython().events.register("post_execute", lambda: plt.close("all"))
"""


def run_checks_under_seeds(path, seeds) -> list[str]:
    """Run the notebook in a fresh kernel; at each proof check, before running it as it is, run its
    code cells once for each seed with ``rng`` reseeded, and collect what is wrong with their output."""
    import nbformat

    import course

    nb = nbformat.read(path, as_version=4)
    client = course.notebook_client(nb, path.parent, timeout=300, record_timing=False)
    checks = {i: head for i, head, _ in proof_checks(nb)}
    found = []
    with client.setup_kernel():
        client.execute_cell(nbformat.v4.new_code_cell(NO_DRAWING), 0)
        for i, cell in enumerate(nb.cells):
            if i in checks:
                code = []
                for j in range(i + 1, len(nb.cells)):
                    if nb.cells[j].cell_type != "code":
                        break
                    code.append(j)
                for seed in seeds:
                    client.execute_cell(nbformat.v4.new_code_cell(f"rng = np.random.default_rng({seed})"), i)
                    runs = [nbformat.from_dict(nb.cells[j]) for j in code]
                    for j, copy in zip(code, runs):
                        client.execute_cell(copy, j)
                    out = "".join(printed(copy) for copy in runs)
                    found += [f"cell {i} ({checks[i].strip()[:40]!r}...), seed {seed}: {p}"
                              for p in problems(out, saved=False)]
            client.execute_cell(cell, i)
    return found


@pytest.mark.parametrize("path", solution_notebooks(), ids=lambda p: p.parent.name)
def test_every_proof_check_holds_under_other_seeds(path):
    bad = run_checks_under_seeds(path, SEEDS)
    assert not bad, f"{path.relative_to(ROOT)}: under other seeds:\n" + "\n".join(bad[:40])


def test_the_line_rules_catch_what_they_are_for():
    good = ("bound held on 20/20 sets\nnegative control: with R in place of R^2 it fails on 3/20 sets\n"
            "tightness: 0.83\n")
    assert problems(good) == []
    assert any("failed" in p for p in problems(good.replace("20/20", "19/20")))
    assert any("did not fail" in p for p in problems(good.replace("3/20", "0/20")))
    assert any("above 1" in p for p in problems(good.replace("0.83", "1.2")))
    assert any("factor of 2" in p for p in problems(good.replace("0.83", "0.3")))
    assert problems(good.replace("0.83", "0.3 (a sanity check: ...)")) == []
    assert problems(good.replace("0.83", "0.3"), saved=False) == []
    assert problems(good.replace("0.83", "an identity, to a relative 1e-6")) == []
    assert len(problems("the claim: FAILED\n")) == 4
