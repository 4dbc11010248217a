"""`make bench`: speed of the course, as ratios (never asserted by a test).

1. Each solution notebook's run time in a fresh kernel, against the floor: a fresh kernel that only
   imports NumPy and Matplotlib.
2. The library's perceptron against scikit-learn's `Perceptron` on the same data, same epochs.
"""

from __future__ import annotations

import statistics
import sys
import time
import warnings
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from course import KERNEL, lectures  # noqa: E402


def run_seconds(nb, cwd: Path) -> float:
    start = time.perf_counter()
    NotebookClient(nb, kernel_name=KERNEL, timeout=600, resources={"metadata": {"path": str(cwd)}}).execute()
    return time.perf_counter() - start


def floor_seconds(repeat: int = 3) -> float:
    cell = nbformat.v4.new_code_cell("import numpy as np\nimport matplotlib.pyplot as plt")
    return statistics.median(run_seconds(nbformat.v4.new_notebook(cells=[cell]), ROOT) for _ in range(repeat))


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_perceptron() -> None:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    from mlcourse import data
    from mlcourse import perceptron as pc

    print("\nperceptron training, same data and epochs (best of 5)")
    print(f"{'n':>6} {'d':>4} {'epochs':>6} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    for n, d, gamma in ((200, 2, 0.05), (2000, 10, 0.02), (10000, 50, 0.01)):
        s = data.separable_with_margin(n, d, gamma, rng=0)
        epochs = pc.train_perceptron(s.X, s.y).n_epochs
        ours = best_of(lambda: pc.train_perceptron(s.X, s.y, max_epochs=epochs))
        model = Perceptron(fit_intercept=False, shuffle=False, eta0=1.0, tol=None, max_iter=epochs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            theirs = best_of(lambda: model.fit(s.X, s.y))
        print(f"{n:>6} {d:>4} {epochs:>6} {ours:>11.4f} {theirs:>10.4f} {ours / theirs:>7.1f}")


def main() -> None:
    floor = floor_seconds()
    print(f"floor: fresh kernel importing numpy and matplotlib: {floor:.2f} s (median of 3)")
    print(f"{'notebook':<40} {'seconds':>8} {'x floor':>8}")
    for name in lectures():
        for path in sorted((ROOT / "solutions" / name).glob("*.ipynb")):
            seconds = run_seconds(nbformat.read(path, as_version=4), path.parent)
            print(f"{str(path.relative_to(ROOT)):<40} {seconds:>8.2f} {seconds / floor:>8.1f}")
    bench_perceptron()


if __name__ == "__main__":
    main()
