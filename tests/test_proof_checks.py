"""Rules every lecture's proof checks follow (course guide, section 2; README, "For authors").

A proof check is a Markdown cell holding ``**Proof check`` and the code cells after it, up to the
next Markdown cell. Its saved output must show its negative control failing: a line
``negative control: <the wrong version> fails ...``. And no printed line may show the size of
floating-point round-off, which changes with the CPU's BLAS kernels.
"""

from __future__ import annotations

import re

import pytest

from conftest import LECTURES, ROOT, load

CONTROL = re.compile(r"^negative control: .*\bfails\b")
NO_FAILURE = re.compile(r"\bfails on 0/")
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
