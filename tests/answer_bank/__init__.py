"""The bank of answers: for every autograded exercise, wrong answers the real judge must reject and
differently written right answers it must accept, on every seed tried.

Each lecture has a module ``lectureNN.py`` here with one dictionary::

    BANK = {
        "<grade id of the answer cell>": {
            "wrong": {"<what the mistake is>": "<the answer cell's source>", ...},   # three at least
            "right": {"<how it is written>": "<source>", ...},                       # one at least
        },
        ...
    }

A wrong answer is a misconception the lecture warns about (n - 1 for n, a missing centring, a wrong tie
rule, a forgotten factor, an off-by-one), or a call to someone else's implementation of the exercise
(the library's twin, a NumPy or SciPy shortcut): it must lose its exercise on every seed. Where one
survives, strengthen the hidden test, never the bank.

``judge_bank`` grades the whole bank of a lecture through the judge of tools/judge.py, in the grading
sandbox, with one kernel: the setup cells run once, then round after round the answer cells (round k
holds the k-th wrong answer of every exercise, the model answer where an exercise has fewer), and after
each round every test cell of the exercises it changed, once per seed (each seed is another student's
hidden inputs, drawn as grading draws them). The names the answers define are cleared between rounds.
A wrong answer is graded beside the other exercises' answers of its round, which are wrong too: one
that calls another exercise's function should carry its own copy of it.
"""

from __future__ import annotations

import importlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat
from traitlets.config import Config

import grade
import judge
from mlcourse import grading

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ("student-a", "student-b", "student-c")


@dataclass(frozen=True)
class Exercise:
    answer: str  # grade id of the answer cell
    test: str  # grade id of the test cell that checks it
    source: str  # the model answer


def exercises(nb) -> dict[str, Exercise]:
    """Each autograded code exercise of a solution notebook: its answer cell and the test cell after it."""
    found, pending = {}, []
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code":
            continue
        if meta.get("solution") and not meta.get("grade"):
            pending.append(cell)
        elif meta.get("grade") and pending:
            for answer in pending:
                found[answer.metadata.nbgrader.grade_id] = Exercise(answer.metadata.nbgrader.grade_id,
                                                                    meta["grade_id"], answer.source)
            pending = []
    return found


def load_bank(lecture: str) -> dict:
    return importlib.import_module(f"answer_bank.lecture{lecture[:2]}").BANK


@dataclass
class Verdict:
    exercise: str
    kind: str  # "wrong" or "right"
    label: str
    passed: list  # per seed: did the exercise's test pass?
    messages: list  # per seed: the failure, if any


class BankJudge(judge.Judge):
    """The judge, grading rounds of answers in one kernel, each round's tests once per seed."""

    rounds: list = []  # [(answers by grade id, [(exercise id, kind, label, test id)])]
    verdicts: list = []
    report: dict = {}  # what the kernel offers, found by ``PROBE`` after the last round

    def _judge(self, nb, spec, start):
        order = [c.metadata.nbgrader.grade_id for c in nb.cells
                 if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade_id") in spec.answers]
        self.verdicts = []
        with self.setup_kernel(**start):
            self._prepare_kernel()
            for source in spec.setup:
                self._run_quietly(source)
            for answers, entries in self.rounds:
                # the previous round's answers go first: a wrong answer whose cell fails before its
                # def must not be graded as the function the round before defined
                self._run_quietly(f"for _name in {sorted(spec.student_names)!r}:\n    globals().pop(_name, None)\n")
                for grade_id in order:
                    self._run_quietly(answers[grade_id])
                namespace = self._test_namespace(spec)
                results = {entry: ([], []) for entry in entries}
                for seed in SEEDS:
                    with grading.hidden_inputs(grading.hidden_key(b"answer bank", self.lecture, seed)):
                        self._seed_label = f"{seed} in {self.lecture}"
                        for entry in entries:
                            outputs = self._run_test(entry[3], spec.tests[entry[3]], dict(namespace))
                            errors = [o for o in outputs if o.output_type == "error"]
                            results[entry][0].append(not errors)
                            results[entry][1].append(errors[0].evalue if errors else "")
                for (exercise, kind, label, _), (passed, messages) in results.items():
                    self.verdicts.append(Verdict(exercise, kind, label, passed, messages))
            self.report = self._probe(spec)

    def _probe(self, spec) -> dict:
        """Run ``PROBE`` in the kernel: what a student's code there can find (the importable packages, the
        library's callables, NumPy's withheld functions still there, other Pythons' packages folders)."""
        import json

        cell = nbformat.v4.new_code_cell(f"WITHHELD = {spec.allowance.numpy!r}\nSHORTCUTS = {SHORTCUTS!r}\n" + PROBE)
        self.nb.cells.append(cell)
        self._run_cell(cell, len(self.nb.cells) - 1)
        described = self.describe(["probe_report"])["probe_report"]
        if "value" not in described:
            raise RuntimeError(f"the probe failed in the kernel: {cell.outputs}")
        return json.loads(judge.wire.decode(described["value"]))


def rounds_of(bank: dict, found: dict[str, Exercise]) -> list:
    """Rounds of answers: round k holds the k-th wrong answer of every exercise (or its k-th right one,
    in the rounds after the wrong ones), the model answer elsewhere."""
    rounds = []
    for kind in ("wrong", "right"):
        depth = max((len(entry.get(kind, {})) for entry in bank.values()), default=0)
        for k in range(depth):
            answers = {grade_id: ex.source for grade_id, ex in found.items()}
            entries = []
            for grade_id, entry in bank.items():
                variants = list(entry.get(kind, {}).items())
                if k < len(variants):
                    label, source = variants[k]
                    answers[grade_id] = source
                    entries.append((grade_id, kind, label, found[grade_id].test))
            rounds.append((answers, entries))
    return rounds


def judge_bank(lecture: str, bank: dict | None = None) -> tuple[list[Verdict], dict]:
    """Grade the bank of ``lecture`` (its module here, or ``bank``) in the grading sandbox; and probe what
    its grading kernel offers (``PROBE``)."""
    [path] = sorted((ROOT / "solutions" / lecture).glob("*.ipynb"))
    nb = nbformat.read(path, as_version=4)
    found = exercises(nb)
    bank = load_bank(lecture) if bank is None else bank
    unknown = set(bank) - set(found)
    if unknown:
        raise ValueError(f"{lecture}: the bank names answer cells the lecture does not have: {sorted(unknown)}")
    with tempfile.TemporaryDirectory(prefix="mlcourse-bank-") as tmp:
        (Path(tmp) / "ipc").mkdir()
        sockets = grade.sandbox_sockets(Path(tmp) / "ipc")
        (Path(tmp) / "work").mkdir()
        os.chmod(Path(tmp) / "work", 0o755)
        config = Config({"KernelManager": {"transport": "ipc", "ip": f"{sockets}/kernel"}})
        bank_judge = BankJudge(config=config, kernel_name="mlcourse-sandbox", timeout=60, course_root=str(ROOT))
        bank_judge.rounds, bank_judge.lecture = rounds_of(bank, found), lecture
        resources = {"nbgrader": {"assignment": lecture, "notebook": path.stem, "student": "answer-bank"},
                     "metadata": {"path": str(Path(tmp) / "work")}}
        bank_judge.preprocess(nb, resources)
        return bank_judge.verdicts, bank_judge.report


# ----------------------------------------------------------------------------- what the kernel offers

# Modules with functions that answer exercises of some lecture: importable only where a lecture allows them.
SHORTCUTS = ("sklearn", "scipy", "scipy.spatial.distance", "scipy.cluster.vq", "scipy.special", "scipy.stats",
             "scipy.linalg", "scipy.optimize", "pandas", "statsmodels", "sympy", "torch")

PROBE = r'''
def _probe(withheld):
    import importlib, json, os, pkgutil, sys, warnings
    report = {"packages": sorted({m.name for m in pkgutil.iter_modules() if m.name not in sys.stdlib_module_names
                                  and not m.name.startswith("_")})}
    import mlcourse
    offered = []
    for f in sorted(os.listdir(os.path.dirname(mlcourse.__file__))):
        if f.endswith(".py") and f != "__init__.py":
            module = importlib.import_module("mlcourse." + f[:-3])
            offered += [f"{module.__name__}.{n}" for n, v in vars(module).items() if callable(v) and not n.startswith("__")
                        and getattr(v, "__module__", None) == module.__name__ and not getattr(v, "__mlcourse_withheld__", False)]
    report["library"] = offered
    report["importable"] = {}
    for name in SHORTCUTS:
        try:
            module = importlib.import_module(name)
            report["importable"][name] = getattr(module, "__file__", None) is not None  # not an empty folder
        except Exception:
            report["importable"][name] = False
    import numpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for info in pkgutil.walk_packages(numpy.__path__, "numpy.", onerror=lambda name: None):
            if not any(p in info.name for p in (".tests", "f2py", "distutils", "_pyinstaller", "testing", "conftest")):
                try:
                    importlib.import_module(info.name)
                except Exception:
                    pass
    report["numpy"] = sorted({f"{key}.{n.rpartition('.')[2]}" for key, m in list(sys.modules.items())
                              if key == "numpy" or key.startswith("numpy.") for n in withheld
                              if callable(getattr(m, n.rpartition(".")[2], None))
                              and not getattr(getattr(m, n.rpartition(".")[2]), "__mlcourse_withheld__", False)})
    found = []
    for top in ("/usr", "/opt", "/root", "/home", "/srv", "/var", sys.base_prefix):
        for folder, dirs, files in os.walk(top):
            if os.path.basename(folder) in ("site-packages", "dist-packages") and (dirs or files):
                if os.path.realpath(folder) != os.path.realpath(os.path.dirname(os.path.dirname(numpy.__file__))):
                    found.append(folder)
                dirs[:] = []
    report["other_site_packages"] = found
    return json.dumps(report)

probe_report = _probe(WITHHELD)
'''
