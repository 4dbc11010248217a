"""`make bench`: speed of the course, as ratios (never asserted by a test).

1. Each solution notebook's run time in a fresh kernel, against the floor: a fresh kernel that only
   imports NumPy and Matplotlib, timed just before each of three runs (medians).
2. The library's perceptron against scikit-learn's `Perceptron` on the same data, same epochs; the
   generative classifiers of lectures 03 and 04 against `QuadraticDiscriminantAnalysis` and `BernoulliNB`;
   lecture 05's k-NN, k-d tree and decision tree against `KNeighborsClassifier`, `KDTree` and
   `DecisionTreeClassifier`; lecture 06's RBF Gram matrix against `rbf_kernel` and the kernel perceptron
   against `Perceptron` on the explicit map; lecture 07's SMO solver against `SVC`; lecture 08's least
   squares, ridge and lasso against `LinearRegression`, `Ridge` and `Lasso`; lecture 09's logistic
   regression by Newton against `LogisticRegression` and the Nadaraya–Watson estimate against the same
   sum written with scikit-learn's `rbf_kernel`; lecture 11's Lloyd's algorithm and EM against `KMeans` and
   `GaussianMixture` from the same start; lecture 12's PCA against `PCA(svd_solver="full")`; lecture 13's AdaBoost with stumps and bagging
   against `AdaBoostClassifier` and `BaggingClassifier`.
3. Grading: the start-up of one nbgrader command (plain, and as the course runs it), and a
   synthetic class graded sequentially (seconds per submission, and as a multiple of the floor),
   with 2 jobs on SQLite and on PostgreSQL (when one is reachable through MLCOURSE_GRADEBOOK or
   .ci/postgres), and with --big-class N, a class of N on 2 jobs.
4. With --dask: grading on a Dask cluster (tools/grade_dask.py) of one and of two local workers (a
   scheduler and workers of one thread each, every one its own process, on loopback): submissions
   per minute, and the seconds one submission takes a worker.

    python tools/bench.py [--class-size 40] [--lecture 02-perceptron] [--skip-grading | --grading-only] [--big-class 300] [--dask]
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import uuid
import time
import warnings
from pathlib import Path

import nbformat
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import course  # noqa: E402


ROUNDS = 5      # a shared machine's speed can swing by half within a minute: three rounds left the ratio +-0.5


def run_seconds(nb, cwd: Path) -> float:
    start = time.perf_counter()
    course.notebook_client(nb, cwd, timeout=600).execute()
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


def bench_generative() -> None:
    """Lectures 03 and 04: fit and predict of the generative classifiers against scikit-learn's."""
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
    from sklearn.naive_bayes import BernoulliNB

    from mlcourse import bayes, mle

    rng = np.random.default_rng(0)
    print("\ngenerative classifiers, fit + predict on the same data (best of 5)")
    print(f"{'model':<40} {'n':>6} {'d':>4} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    for n, d in ((1000, 2), (20000, 20)):
        X = rng.normal(size=(n, d)) + np.repeat([[0.0], [1.0], [2.0]], [n // 3, n // 3, n - 2 * (n // 3)], axis=0)
        y = np.repeat([0, 1, 2], [n // 3, n // 3, n - 2 * (n // 3)])
        ours = best_of(lambda: mle.predict_gaussian_classes(mle.fit_gaussian_classes(X, y), X))
        theirs = best_of(lambda: QuadraticDiscriminantAnalysis().fit(X, y).predict(X))
        print(f"{'Gaussian classes (lecture 03) / QDA':<40} {n:>6} {d:>4} {ours:>11.4f} {theirs:>10.4f} {ours / theirs:>7.1f}")
    for n, d in ((1000, 20), (20000, 200)):
        y = rng.integers(0, 2, size=n)
        X = (rng.uniform(size=(n, d)) < np.where(y[:, None] == 1, 0.6, 0.4)).astype(int)
        ours = best_of(lambda: bayes.predict_naive_bayes(bayes.fit_naive_bayes(X, y, alpha=1.0), X))
        theirs = best_of(lambda: BernoulliNB(alpha=1.0).fit(X, y).predict(X))
        print(f"{'naive Bayes (lecture 04) / BernoulliNB':<40} {n:>6} {d:>4} {ours:>11.4f} {theirs:>10.4f} {ours / theirs:>7.1f}")


def bench_neighbours_and_trees() -> None:
    """Lecture 05: brute-force k-NN against KNeighborsClassifier(algorithm="brute") (goal within 2x),
    the k-d tree against scikit-learn's KDTree (reported), tree fitting against DecisionTreeClassifier
    (goal within 5x)."""
    from sklearn.neighbors import KDTree, KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier

    from mlcourse import neighbours, trees

    rng = np.random.default_rng(0)
    print("\nlecture 05 against scikit-learn, same data (best of 5; goals: k-NN <= 2x, trees <= 5x)")
    print(f"{'what':<44} {'n':>6} {'d':>4} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    n, d = 10_000, 20
    X, Q = rng.normal(size=(n, d)), rng.normal(size=(1000, d))
    y = (X[:, 0] + rng.normal(size=n) > 0).astype(int)
    ours = best_of(lambda: neighbours.knn_predict(X, y, Q, k=5))
    theirs = best_of(lambda: KNeighborsClassifier(n_neighbors=5, algorithm="brute").fit(X, y).predict(Q))
    print(f"{'5-NN predict, 1000 queries (brute force)':<44} {n:>6} {d:>4} {ours:>11.4f} {theirs:>10.4f} {ours / theirs:>7.1f}")
    Xk, Qk = rng.uniform(size=(n, 3)), rng.uniform(size=(200, 3))
    ours = best_of(lambda: neighbours.kd_query(neighbours.build_kd_tree(Xk, leaf_size=16), Qk), 3)
    theirs = best_of(lambda: KDTree(Xk, leaf_size=16).query(Qk, k=1), 3)
    print(f"{'k-d tree build + 200 queries (reported)':<44} {n:>6} {3:>4} {ours:>11.4f} {theirs:>10.4f} {ours / theirs:>7.1f}")
    for n in (1000, 10_000):
        X = rng.normal(size=(n, 10))
        y = np.argmax(X[:, :3] + rng.normal(size=(n, 3)), axis=1)
        ours = best_of(lambda: trees.fit_tree(X, y, criterion="gini"), 3)
        theirs = best_of(lambda: DecisionTreeClassifier(criterion="gini").fit(X, y), 3)
        print(f"{'tree fit, no depth limit':<44} {n:>6} {10:>4} {ours:>11.4f} {theirs:>10.4f} {ours / theirs:>7.1f}")


def bench_kernels() -> None:
    """Lecture 06: the RBF Gram matrix against scikit-learn's rbf_kernel (goal within 2x); the kernel
    perceptron against scikit-learn's Perceptron on the explicit quadratic map (reported)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron
    from sklearn.metrics.pairwise import rbf_kernel

    from mlcourse import kernels

    rng = np.random.default_rng(0)
    print("\nlecture 06 against scikit-learn, same data (best of 5; goal: RBF Gram matrix <= 2x)")
    print(f"{'what':<52} {'n':>6} {'d':>4} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    X = rng.normal(size=(5000, 50))
    ours = best_of(lambda: kernels.rbf_kernel(X, X, sigma=5.0))
    theirs = best_of(lambda: rbf_kernel(X, X, gamma=0.02))
    print(f"{'RBF Gram matrix':<52} {5000:>6} {50:>4} {ours:>11.4f} {theirs:>10.4f} {ours / theirs:>7.1f}")
    X = rng.normal(size=(1000, 5))
    y = np.where((X ** 2).sum(axis=1) > 5, 1, -1)
    ours = best_of(lambda: kernels.train_kernel_perceptron(kernels.polynomial_kernel(X, X, 2), y, max_epochs=10), 3)
    Phi = kernels.polynomial_features(X, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        theirs = best_of(lambda: Perceptron(max_iter=10, tol=None, shuffle=False, fit_intercept=False)
                         .fit(Phi, y), 3)
    print(f"{'kernel perceptron, 10 epochs (sklearn: explicit map)':<52} {1000:>6} {5:>4} {ours:>11.4f} {theirs:>10.4f} {ours / theirs:>7.1f}")


def bench_svm() -> None:
    """Lecture 07: the library's SMO solver (Gram matrix included) against scikit-learn's SVC, same C,
    same stopping tolerance 1e-3, linear and RBF kernels at n = 2000 (goal within 10x)."""
    from sklearn.svm import SVC

    from mlcourse import kernels, svm

    rng = np.random.default_rng(0)
    n = 2000
    X = rng.normal(size=(n, 5))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.5 + 0.5 * rng.normal(size=n) > 0, 1, -1)
    print("\nlecture 07 against scikit-learn's SVC, same data (best of 3; goal: <= 10x)")
    print(f"{'what':<40} {'n':>6} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    for name, gram, options in (("linear kernel, C = 1", lambda: kernels.linear_kernel(X, X), dict(kernel="linear")),
                                ("Gaussian kernel, sigma = 1, C = 1", lambda: kernels.rbf_kernel(X, X, 1.0),
                                 dict(kernel="rbf", gamma=0.5))):
        ours = best_of(lambda: svm.fit_svm(gram(), y, C=1.0, tol=1e-3), 3)
        theirs = best_of(lambda: SVC(C=1.0, tol=1e-3, **options).fit(X, y), 3)
        print(f"{name:<40} {n:>6} {ours:>11.4f} {theirs:>10.4f} {ours / theirs:>7.1f}")


def bench_regression() -> None:
    """Lecture 08: least squares and ridge against LinearRegression and Ridge at n = 1e5, d = 100 (goal
    within 2x); the lasso by coordinate descent against Lasso at n = 1e4, d = 100, same penalty (ours
    lam = n alpha) and the same stopping rule and tolerance (duality gap <= 1e-4 ||y_c||^2; goal within 10x)."""
    from sklearn.linear_model import Lasso, LinearRegression, Ridge

    from mlcourse import regression

    rng = np.random.default_rng(0)
    print("\nlecture 08 against scikit-learn, same data (best of 3; goals: least squares and ridge <= 2x, lasso <= 10x)")
    print(f"{'what':<40} {'n':>7} {'d':>4} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    n, d = 100_000, 100
    X = rng.normal(size=(n, d))
    y = X @ rng.normal(size=d) + rng.normal(size=n)
    for name, ours, theirs in (("least squares (QR), intercept", lambda: regression.fit_least_squares(X, y),
                                lambda: LinearRegression().fit(X, y)),
                               ("ridge, lambda = 1, intercept", lambda: regression.fit_ridge(X, y, 1.0),
                                lambda: Ridge(alpha=1.0).fit(X, y))):
        t_ours, t_theirs = best_of(ours, 3), best_of(theirs, 3)
        print(f"{name:<40} {n:>7} {d:>4} {t_ours:>11.4f} {t_theirs:>10.4f} {t_ours / t_theirs:>7.1f}")
    n = 10_000
    X = rng.normal(size=(n, d))
    w = np.where(rng.uniform(size=d) < 0.2, rng.normal(size=d), 0.0)
    y = X @ w + rng.normal(size=n)
    alpha = 0.05
    fit = regression.fit_lasso(X, y, alpha * n, tol=1e-4)
    t_ours = best_of(lambda: regression.fit_lasso(X, y, alpha * n, tol=1e-4), 3)
    t_theirs = best_of(lambda: Lasso(alpha=alpha, tol=1e-4).fit(X, y), 3)
    name = f"lasso, {np.count_nonzero(fit.w)} of {d} non-zero, {fit.sweeps} sweeps"
    print(f"{name:<40} {n:>7} {d:>4} {t_ours:>11.4f} {t_theirs:>10.4f} {t_ours / t_theirs:>7.1f}")


def bench_logistic_and_smoothing() -> None:
    """Lecture 09: logistic regression by Newton's method against LogisticRegression (lbfgs), same
    penalty (C = 1, our lam = 1 / C) and the same stopping rule (largest gradient entry of the mean loss
    <= 1e-4), at n = 1e5, d = 50 (goal within 2x); the Nadaraya–Watson estimate (vectorised) against the
    same weighted mean computed with scikit-learn's rbf_kernel (reported)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics.pairwise import rbf_kernel

    from mlcourse import logistic, smoothing
    from mlcourse.perceptron import add_bias

    rng = np.random.default_rng(0)
    print("\nlecture 09 against scikit-learn, same data (best of 3; goal: logistic regression <= 2x)")
    print(f"{'what':<40} {'n':>7} {'d':>4} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    n, d = 100_000, 50
    X = rng.normal(size=(n, d))
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-X @ rng.normal(size=d) * 0.3))).astype(int)
    Z = add_bias(X)
    t_ours = best_of(lambda: logistic.fit_logistic(Z, y, lam=1.0, tol=1e-4), 3)
    t_theirs = best_of(lambda: LogisticRegression(C=1.0, tol=1e-4).fit(X, y), 3)
    print(f"{'logistic regression, Newton vs lbfgs':<40} {n:>7} {d:>4} {t_ours:>11.4f} {t_theirs:>10.4f} {t_ours / t_theirs:>7.1f}")
    n, d = 5000, 3
    X, Q = rng.normal(size=(n, d)), rng.normal(size=(n, d))
    y = np.sin(X[:, 0]) + rng.normal(size=n)
    t_ours = best_of(lambda: smoothing.nadaraya_watson(X, y, Q, 0.5), 3)

    def reference():
        K = rbf_kernel(Q, X, gamma=2.0)
        return K @ y / K.sum(axis=1)

    t_theirs = best_of(reference, 3)
    print(f"{'Nadaraya-Watson, Gaussian, 5000 queries':<40} {n:>7} {d:>4} {t_ours:>11.4f} {t_theirs:>10.4f} {t_ours / t_theirs:>7.1f}")


def bench_clustering() -> None:
    """Lecture 11: Lloyd's algorithm against KMeans(algorithm="lloyd") from the same centres, both run to the
    same assignment, at n = 1e5, d = 10, K = 10 (goal within 2x; KMeans runs its loop on every core, the
    library's NumPy steps on one, so the ratio is also shown with both held to one thread); EM for a
    full-covariance mixture against GaussianMixture from the same parameters and for the same number of
    iterations (tol = 0), at n = 2e4, d = 5, K = 5 (goal within 2x)."""
    import warnings

    from sklearn.cluster import KMeans
    from sklearn.mixture import GaussianMixture
    from threadpoolctl import threadpool_limits

    from mlcourse import clustering

    rng = np.random.default_rng(0)
    print("\nlecture 11 against scikit-learn, same start (best of 3; goals: Lloyd <= 2x, EM <= 2x)")
    print(f"{'what':<40} {'n':>7} {'d':>4} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    n, d, k = 100_000, 10, 10
    X = rng.standard_normal((n, d)) + 3 * rng.standard_normal((k, d))[rng.integers(0, k, n)]
    start = X[rng.choice(n, size=k, replace=False)]
    rounds = clustering.lloyd(X, start).n_iter
    for name, threads in ((f"Lloyd, {rounds} rounds", None), ("  the same, both on one thread", 1)):
        with threadpool_limits(threads):              # KMeans's loop runs on every core (OpenMP), ours on one
            t_ours = best_of(lambda: clustering.lloyd(X, start), 3)
            t_theirs = best_of(lambda: KMeans(k, init=start, n_init=1, algorithm="lloyd", tol=0).fit(X), 3)
        print(f"{name:<40} {n:>7} {d:>4} {t_ours:>11.4f} {t_theirs:>10.4f} {t_ours / t_theirs:>7.1f}")
    n, d, k, iterations = 20_000, 5, 5, 30
    X = rng.standard_normal((n, d)) + 3 * rng.standard_normal((k, d))[rng.integers(0, k, n)]
    means, weights = X[rng.choice(n, size=k, replace=False)], np.full(k, 1 / k)
    covariances = np.repeat(np.cov(X.T, bias=True)[None], k, axis=0)
    t_ours = best_of(lambda: clustering.fit_gmm(X, k, means, weights, covariances, tol=0.0, max_iter=iterations), 3)

    def theirs():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            GaussianMixture(k, means_init=means, weights_init=weights, precisions_init=np.linalg.inv(covariances),
                            tol=0, max_iter=iterations).fit(X)

    t_theirs = best_of(theirs, 3)
    print(f"{f'EM, full covariances, {iterations} iterations':<40} {n:>7} {d:>4} {t_ours:>11.4f} {t_theirs:>10.4f} {t_ours / t_theirs:>7.1f}")


def bench_pca() -> None:
    """Lecture 12: fit_pca (all components) against PCA(svd_solver="full").fit on the digits (1797 x 64) and on a
    10^4 x 200 matrix with correlated columns (goal within 2x). Both spend their time in LAPACK (NumPy's OpenBLAS
    for ours, SciPy's for scikit-learn's), whose threads stall each other on a busy machine, so the ratio is also
    shown with both held to one thread."""
    from sklearn.decomposition import PCA
    from threadpoolctl import threadpool_limits

    from mlcourse import data, pca

    rng = np.random.default_rng(0)
    print("\nlecture 12 against scikit-learn, all components (best of 5; goal: PCA <= 2x)")
    print(f"{'what':<40} {'n':>7} {'d':>4} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    for name, X in (("PCA of the digits", data.load_digits().X),
                    ("PCA, correlated columns", rng.standard_normal((10_000, 200)) @ rng.standard_normal((200, 200)))):
        n, d = X.shape
        for label, threads in ((name, None), ("  the same, both on one thread", 1)):
            with threadpool_limits(threads):
                t_ours = best_of(lambda X=X: pca.fit_pca(X), 5)
                t_theirs = best_of(lambda X=X: PCA(svd_solver="full").fit(X), 5)
            print(f"{label:<40} {n:>7} {d:>4} {t_ours:>11.4f} {t_theirs:>10.4f} {t_ours / t_theirs:>7.1f}")


def bench_ensembles() -> None:
    """Lecture 13: AdaBoost with stumps against AdaBoostClassifier(DecisionTreeClassifier(max_depth=1)) (the same
    stumps when ours choose by weighted Gini; goal within 3x), and bagging of lecture 05's trees against
    BaggingClassifier(DecisionTreeClassifier()) (goal within 5x), on the same data."""
    from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier
    from sklearn.tree import DecisionTreeClassifier

    from mlcourse import data, ensembles

    print("\nlecture 13 against scikit-learn (best of 3; goals: AdaBoost <= 3x, bagging <= 5x)")
    print(f"{'what':<40} {'n':>7} {'d':>4} {'mlcourse s':>11} {'sklearn s':>10} {'ratio':>7}")
    for n, d in ((500, 5), (5000, 10)):
        X, y = data.two_gaussians(n, 0, distance=1.5, d=d)
        X = X.astype(np.float32).astype(float)
        t_ours = best_of(lambda: ensembles.fit_adaboost(X, y, 100, criterion="gini"), 3)
        t_theirs = best_of(lambda: AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=100,
                                                      random_state=0).fit(X, y), 3)
        print(f"{'AdaBoost, 100 stumps':<40} {n:>7} {d:>4} {t_ours:>11.4f} {t_theirs:>10.4f} {t_ours / t_theirs:>7.1f}")
        t_ours = best_of(lambda: ensembles.fit_bagging(X, y, 50, 0), 3)
        t_theirs = best_of(lambda: BaggingClassifier(DecisionTreeClassifier(), n_estimators=50, random_state=0).fit(X, y), 3)
        print(f"{'bagging, 50 trees (with out-of-bag error)':<40} {n:>7} {d:>4} {t_ours:>11.4f} {t_theirs:>10.4f} "
              f"{t_ours / t_theirs:>7.1f}")


def bench_startup() -> None:
    def seconds(cmd):
        return statistics.median(best_of(lambda: subprocess.run(cmd, check=True, capture_output=True), 1)
                                 for _ in range(3))

    plain = seconds([sys.executable, "-m", "nbgrader", "--version"])
    ours = seconds([sys.executable, str(ROOT / "tools" / "nbgrader_cli.py"), "--version"])
    print(f"\nnbgrader start-up (median of 3): plain {plain:.2f} s, as the course runs it {ours:.2f} s "
          f"(rfc3987_syntax not imported: {plain - ours:.2f} s saved per command)")


def postgres_url():
    url = os.environ.get("MLCOURSE_GRADEBOOK")
    if url:
        return url
    try:
        base = subprocess.run([str(ROOT / ".ci" / "postgres")], check=True, capture_output=True,
                              text=True, timeout=300).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    import psycopg2

    name = f"bench_{uuid.uuid4().hex[:10]}"
    admin = psycopg2.connect(f"{base}/postgres".replace("+psycopg2", ""))
    admin.autocommit = True
    admin.cursor().execute(f"CREATE DATABASE {name}")
    admin.close()
    return f"{base}/{name}"


def grade_class(lecture: str, size: int, jobs: int, db_url: str | None, sandbox: bool, scheduler: str | None = None,
                seconds: list | None = None) -> float:
    """Seconds per submission to grade `size` perfect submissions of `lecture` (on the Dask cluster at
    ``scheduler`` if given); each submission's own seconds are appended to ``seconds``."""
    import grade

    with tempfile.TemporaryDirectory(prefix="mlcourse-bench-") as tmp:
        root = Path(tmp)
        shutil.copy(ROOT / "nbgrader_config.py", root)
        (root / "tools").symlink_to(ROOT / "tools")
        (root / "solutions").symlink_to(ROOT / "solutions")
        with grade.environment({"MLCOURSE_GRADEBOOK": db_url} if db_url else {}):
            course.nbgrader("generate_assignment", lecture, "--log-level=WARN", root=root)
            for path in sorted((ROOT / "solutions" / lecture).glob("*.ipynb")):
                solution = nbformat.read(path, as_version=4)
                release = nbformat.read(root / "notebooks" / lecture / path.name, as_version=4)
                filled = course.filled_release(release, solution)
                for k in range(size):
                    target = root / "submitted" / f"student{k:03d}" / lecture / path.name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    nbformat.write(filled, target)
            start, cpu = time.perf_counter(), os.times()
            outcomes = grade.run(root, lecture=lecture, jobs=jobs, sandbox=sandbox, out=io.StringIO(), scheduler=scheduler)
            elapsed, after = time.perf_counter() - start, os.times()
            used = sum(after[:4]) - sum(cpu[:4])  # this process and the graders and kernels it waited for
        bad = [o for o in outcomes if o.status != "graded" or o.score != o.max_score]
        if bad:
            print(f"  warning: {len(bad)} submission(s) not at full marks, e.g. {bad[0].submission.name}: {bad[0].why}")
        if seconds is not None:
            seconds.extend(o.seconds for o in outcomes if o.status == "graded")
        if scheduler is None:  # a worker's processes are not this one's children: their time is not counted
            print(f"    ({jobs} job(s): {used / elapsed:.2f} cores busy on average)")
        return elapsed / size


def bench_grading(lecture: str, size: int, floor: float, big_class: int) -> None:
    """Seconds per submission against the bare-kernel floor; the speed-up of 2 jobs on SQLite and on
    PostgreSQL; and, if asked, the minutes a class of ``big_class`` takes on 2 jobs."""
    sandbox = shutil.which("bwrap") is not None and os.geteuid() == 0
    print(f"\ngrading a class of {size} perfect submissions of {lecture} ({'sandboxed' if sandbox else 'unconfined'})")
    sequential = grade_class(lecture, size, 1, None, sandbox)
    print(f"  sequential, SQLite:          {sequential:6.2f} s per submission = {sequential / floor:.1f} x floor (goal <= 2)")
    on_sqlite = grade_class(lecture, size, 2, None, sandbox)
    print(f"  2 jobs, SQLite:              {on_sqlite:6.2f} s per submission, speed-up {sequential / on_sqlite:.2f}x "
          "(goal >= 1.8)")
    url = postgres_url()
    if url is None:
        print("  2 jobs, PostgreSQL: none reachable (set MLCOURSE_GRADEBOOK or run as root for .ci/postgres)")
    else:
        on_postgres = grade_class(lecture, size, 2, url, sandbox)
        print(f"  2 jobs, PostgreSQL:          {on_postgres:6.2f} s per submission, speed-up "
              f"{sequential / on_postgres:.2f}x (goal >= 1.8)")
    if big_class:
        minutes = grade_class(lecture, big_class, 2, None, sandbox) * big_class / 60
        print(f"  a class of {big_class} on 2 jobs, SQLite: {minutes:.1f} minutes (goal <= 10)")


def bench_dask(lecture: str, size: int) -> None:
    """Throughput of grading on Dask with one and with two local workers of one thread each."""
    import grade
    import grade_dask

    sandbox = shutil.which("bwrap") is not None and os.geteuid() == 0
    print(f"\ngrading on Dask, a class of {size} perfect submissions of {lecture} ({'sandboxed' if sandbox else 'unconfined'}; "
          "a scheduler and workers of 1 thread, each its own process, on loopback)")
    rates = {}
    with grade.environment({"MLCOURSE_GRADING_SECRET": os.urandom(32).hex()}):  # the instructor's and the workers'
        for workers in (1, 2):
            with tempfile.TemporaryDirectory(prefix="mlcourse-bench-dask-") as tmp, \
                    grade_dask.local_cluster(Path(tmp), workers=workers) as cluster:
                seconds = []
                per = grade_class(lecture, size, workers, None, sandbox, scheduler=cluster.address, seconds=seconds)
            rates[workers] = 60 / per
            cost = statistics.mean(seconds) if seconds else float("nan")
            print(f"  {workers} worker(s): {rates[workers]:6.1f} submissions per minute "
                  f"({per:.2f} s per submission; a worker takes {cost:.2f} s for one, its nbgrader start included)"
                  + (f", speed-up {rates[2] / rates[1]:.2f}x (at most 2 on 2 cores)" if workers == 2 else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--class-size", type=int, default=40)
    parser.add_argument("--lecture", default="02-perceptron")
    parser.add_argument("--skip-grading", action="store_true")
    parser.add_argument("--big-class", type=int, default=0, metavar="N",
                        help="also time a class of N submissions on 2 jobs (make bench: 300)")
    parser.add_argument("--notebooks-only", nargs="*", metavar="LECTURE",
                        help="time only the solution notebooks (of these lectures, or all)")
    parser.add_argument("--grading-only", action="store_true", help="time only grading (part 3)")
    parser.add_argument("--dask", action="store_true",
                        help="also time grading on Dask with one and two local workers (part 4; needs dask[distributed])")
    args = parser.parse_args()
    notebooks = course.check_lectures(args.notebooks_only or [])   # an unknown name stops here, named
    course.check_lectures([args.lecture])
    floor = floor_seconds()
    print(f"floor: fresh kernel importing numpy and matplotlib: {floor:.2f} s (median of 3)")
    if args.grading_only:
        bench_startup()
        bench_grading(args.lecture, args.class_size, floor, args.big_class)
        if args.dask:
            bench_dask(args.lecture, args.class_size)
        return
    print(f"each notebook: {ROUNDS} rounds of (the floor, then the notebook); medians of the seconds and of the ratios,")
    print("so that a machine whose speed drifts compares each run with a floor taken just before it")
    print(f"{'notebook':<52} {'seconds':>8} {'x floor':>8}")
    for name in notebooks:
        for path in sorted((ROOT / "solutions" / name).glob("*.ipynb")):
            rounds = []
            for _ in range(ROUNDS):
                before = floor_seconds(repeat=1)
                rounds.append((run_seconds(nbformat.read(path, as_version=4), path.parent), before))
            seconds = statistics.median(t for t, _ in rounds)
            ratio = statistics.median(t / f for t, f in rounds)
            print(f"{str(path.relative_to(ROOT)):<52} {seconds:>8.2f} {ratio:>8.1f}")
    if args.notebooks_only is not None:
        return
    bench_perceptron()
    bench_generative()
    bench_neighbours_and_trees()
    bench_kernels()
    bench_svm()
    bench_regression()
    bench_logistic_and_smoothing()
    bench_clustering()
    bench_pca()
    bench_ensembles()
    bench_startup()
    if not args.skip_grading:
        bench_grading(args.lecture, args.class_size, floor, args.big_class)
    if args.dask:
        bench_dask(args.lecture, args.class_size)


if __name__ == "__main__":
    main()
