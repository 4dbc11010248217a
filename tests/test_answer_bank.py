"""The bank of answers (tests/answer_bank/): through the real judge, in the grading sandbox, every wrong
answer loses its exercise on every seed tried and every differently written right answer keeps it; and
the grading kernel offers each lecture its allowance and nothing else (tools/allowance.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import nbformat
import pytest

from conftest import LECTURES, ROOT

from allowance import Allowance, grading_library
from answer_bank import SEEDS, exercises, judge_bank, load_bank

_missing = ("bubblewrap (bwrap) is not installed" if shutil.which("bwrap") is None
            else "the grading sandbox needs root" if os.geteuid() != 0 else "")
needs_sandbox = pytest.mark.skipif(bool(_missing) and os.environ.get("CI") != "true", reason=_missing)

MIN_WRONG, MIN_RIGHT = 3, 1


def solution(lecture):
    [path] = sorted((ROOT / "solutions" / lecture).glob("*.ipynb"))
    return nbformat.read(path, as_version=4)


@pytest.mark.parametrize("lecture", LECTURES)
def test_every_exercise_has_its_wrong_and_right_answers_in_the_bank(lecture):
    bank, found = load_bank(lecture), exercises(solution(lecture))
    assert set(bank) == set(found), (f"{lecture}: exercises without a bank entry: {sorted(set(found) - set(bank))}; "
                                     f"entries that are not exercises: {sorted(set(bank) - set(found))}")
    for answer, entry in bank.items():
        assert set(entry) <= {"wrong", "right"}, f"{lecture} {answer}: only 'wrong' and 'right' answers"
        assert len(entry.get("wrong", {})) >= MIN_WRONG, f"{lecture} {answer}: fewer than {MIN_WRONG} wrong answers"
        assert len(entry.get("right", {})) >= MIN_RIGHT, f"{lecture} {answer}: no right answer written differently"
        for kind, variants in entry.items():
            for label, source in variants.items():
                compile(source, f"{lecture} {answer} {label}", "exec")
                assert source.strip() != found[answer].source.strip(), f"{lecture} {answer}: {label} is the model answer"


@pytest.fixture(scope="module")
def judged():
    results = {}

    def judged_lecture(lecture):
        if lecture not in results:
            if _missing:
                pytest.fail(f"the answer bank needs the grading sandbox: {_missing}")
            results[lecture] = judge_bank(lecture)
        return results[lecture]

    return judged_lecture


@needs_sandbox
@pytest.mark.grading
@pytest.mark.parametrize("lecture", LECTURES)
def test_the_judge_rejects_every_wrong_answer_and_accepts_every_right_one(lecture, judged):
    verdicts, _ = judged(lecture)
    survivors = [f"{v.exercise}: {v.label} (passed for {', '.join(s for s, ok in zip(SEEDS, v.passed) if ok)})"
                 for v in verdicts if v.kind == "wrong" and any(v.passed)]
    rejected = [f"{v.exercise}: {v.label}: {next(m for m in v.messages if m)[:300]}"
                for v in verdicts if v.kind == "right" and not all(v.passed)]
    assert not survivors, f"{lecture}: wrong answers that kept their points:\n" + "\n".join(survivors)
    assert not rejected, f"{lecture}: right answers that lost their points:\n" + "\n".join(rejected)
    bank = load_bank(lecture)
    assert len(verdicts) == sum(len(v) for entry in bank.values() for v in entry.values())
    print(f"{lecture}: {sum(v.kind == 'wrong' for v in verdicts)} wrong answers rejected and "
          f"{sum(v.kind == 'right' for v in verdicts)} right ones accepted, each on {len(SEEDS)} seeds")


@needs_sandbox
@pytest.mark.grading
@pytest.mark.parametrize("lecture", LECTURES)
def test_the_grading_kernel_offers_the_allowance_and_nothing_else(lecture, judged):
    """What a student's code in the grading kernel finds, as it can look for it: of the library only what
    the allowance reaches (never the library's answer to an exercise), of NumPy no withheld function under
    any name, no package beyond the allowed ones, and no other Python's packages."""
    _, report = judged(lecture)
    allowance = Allowance.of(solution(lecture).metadata)
    folder, site = grading_library(ROOT, allowance)
    offered = set(json.loads((folder / "offered.json").read_text())["library"])
    found = {name.removeprefix("mlcourse.") for name in report["library"]}
    assert found == offered, (f"{lecture}: the kernel offers {sorted(found - offered)} beyond what the build says, "
                              f"and lacks {sorted(offered - found)}")
    twins = {name.removeprefix("mlcourse.") for name in allowance.twins}
    assert not found & twins, f"{lecture}: the kernel offers the library's answers {sorted(found & twins)}"
    public = {n for n in found if not n.rpartition(".")[2].startswith("_")}
    allowed_modules = {n.removeprefix("mlcourse.") for n in allowance.library if n.count(".") == 1}
    allowed = {n.removeprefix("mlcourse.") for n in allowance.library}
    beyond = sorted(n for n in public if n not in allowed and n.partition(".")[0] not in allowed_modules)
    print(f"{lecture}: offered beyond the allowance because an allowed function needs it: {beyond}")
    assert report["numpy"] == [], f"{lecture}: withheld NumPy functions still reachable: {report['numpy']}"
    assert report["other_site_packages"] == [], f"{lecture}: other Pythons' packages visible: {report['other_site_packages']}"
    loaded = modules_loaded_by(allowance.packages)
    for name, importable in report["importable"].items():
        expected = name in loaded
        assert importable == expected, (f"{lecture}: {name} is {'' if importable else 'not '}importable in the "
                                        f"grading kernel; the allowance {allowance.packages} "
                                        f"{'loads' if expected else 'does not load'} it")


def modules_loaded_by(packages) -> set[str]:
    """The modules importing ``packages`` loads (what the sandbox must offer for them, and no more)."""
    code = (f"import importlib, json, sys\nfor n in {list(packages)!r}:\n    importlib.import_module(n)\n"
            "print(json.dumps(sorted(sys.modules)))")
    return set(json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                         check=True).stdout))
