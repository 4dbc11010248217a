"""Seeded synthetic data sets used across the lectures.

Every generator takes ``rng``: a ``numpy.random.Generator`` or an integer seed. The same seed
gives the same data.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ._checks import positive_float, positive_int


@dataclass(frozen=True)
class SeparableData:
    """Points ``X`` (n, d) labelled ``y`` by the unit vector ``w_star`` with margin at least ``gamma``."""

    X: np.ndarray
    y: np.ndarray
    w_star: np.ndarray
    gamma: float


def as_rng(rng) -> np.random.Generator:
    """Accept a Generator or an integer seed; anything else is an error."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise TypeError(f"rng must be a numpy Generator or an integer seed; got {type(rng).__name__}")


def separable_with_margin(n: int, d: int, gamma: float, rng, radius: float = 1.0) -> SeparableData:
    """``n`` points uniform in the ball of radius ``radius`` in R^d, at distance >= ``gamma``
    from the hyperplane through 0 orthogonal to a random unit ``w_star``, labelled by its side.

    Requires ``gamma < radius``. The margin of ``w_star`` on the data is at least ``gamma``.
    """
    n, d = positive_int(n, "n"), positive_int(d, "d")
    gamma, radius = positive_float(gamma, "gamma"), positive_float(radius, "radius")
    if gamma >= radius:
        raise ValueError(f"gamma must be smaller than radius; got gamma={gamma}, radius={radius}")
    rng = as_rng(rng)
    w_star = rng.standard_normal(d)
    w_star /= np.linalg.norm(w_star)
    kept = []
    while sum(len(k) for k in kept) < n:
        batch = uniform_in_ball(max(2 * n, 64), d, radius, rng)
        kept.append(batch[np.abs(batch @ w_star) >= gamma])
    X = np.vstack(kept)[:n]
    y = np.where(X @ w_star > 0, 1, -1)
    return SeparableData(X, y, w_star, gamma)


def uniform_in_ball(n: int, d: int, radius: float, rng) -> np.ndarray:
    """``n`` points drawn uniformly from the ball of radius ``radius`` in R^d."""
    rng = as_rng(rng)
    directions = rng.standard_normal((n, d))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    return directions * radius * rng.uniform(size=(n, 1)) ** (1.0 / d)


def two_gaussians(n: int, rng, distance: float = 3.0, spread: float = 1.0, d: int = 2):
    """Two round Gaussian classes of ``n // 2`` and ``n - n // 2`` points.

    Centres at ``-/+ distance / 2`` along the first axis, shifted by (1, 1, ...) so that the best
    boundary does not pass through the origin. Returns ``X`` (n, d) and ``y`` in {-1, +1}
    (negatives first).
    """
    n, d = positive_int(n, "n"), positive_int(d, "d")
    distance, spread = float(distance), positive_float(spread, "spread")
    rng = as_rng(rng)
    n_neg = n // 2
    y = np.r_[-np.ones(n_neg, dtype=int), np.ones(n - n_neg, dtype=int)]
    centres = np.ones((n, d))
    centres[:, 0] += y * distance / 2
    return centres + spread * rng.standard_normal((n, d)), y


def xor_square():
    """The four corners of the unit square labelled by XOR: no line separates them."""
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([-1, 1, 1, -1])
    return X, y


# --------------------------------------------------------------------------- lecture 01


def labels_from_probability(p, rng) -> np.ndarray:
    """Independent labels in {-1, +1}, ``+1`` with probability ``p`` (an array of probabilities).

    Returns an int array of the shape of ``p``.
    """
    p = np.asarray(p, dtype=float)
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("p must hold probabilities in [0, 1]")
    rng = as_rng(rng)
    return np.where(rng.uniform(size=p.shape) < p, 1, -1)


def step_classification(n: int, rng, breaks, eta):
    """``n`` points ``x`` uniform on [0, 1], labelled +1 with probability ``eta[k]`` on the piece
    ``breaks[k] <= x < breaks[k + 1]`` (lecture 01; ``breaks`` from 0 to 1).

    Returns ``x`` (n,) and ``y`` (n,) in {-1, +1}.
    """
    n = positive_int(n, "n")
    breaks, eta = np.asarray(breaks, dtype=float), np.asarray(eta, dtype=float)
    if breaks.ndim != 1 or eta.shape != (len(breaks) - 1,) or breaks[0] != 0 or breaks[-1] != 1 \
            or np.any(np.diff(breaks) <= 0):
        raise ValueError("breaks must increase strictly from 0 to 1 and eta hold one probability per piece")
    rng = as_rng(rng)
    x = rng.uniform(size=n)
    piece = np.clip(np.searchsorted(breaks, x, side="right") - 1, 0, len(eta) - 1)
    return x, labels_from_probability(eta[piece], rng)


def sine_target(x) -> np.ndarray:
    """The regression function of lecture 01: ``f*(x) = sin(pi x + 1/2)``.

    On [-1, 1] it has mean 0 and mean square 1/2 (a whole period).
    """
    return np.sin(np.pi * np.asarray(x, dtype=float) + 0.5)


def midpoint_grid(n: int, low: float = -1.0, high: float = 1.0) -> np.ndarray:
    """The midpoints of ``n`` equal cells of [low, high]: a fixed design of ``n`` inputs."""
    n = positive_int(n, "n")
    return low + (np.arange(n) + 0.5) * (high - low) / n


def noisy_sine(n: int, rng, noise: float = 0.3, design: str = "random"):
    """``n`` pairs with ``y = sine_target(x) + noise * z``, ``z`` standard normal (lecture 01).

    ``design="random"``: ``x`` independent and uniform on [-1, 1]; ``design="grid"``: ``x`` is
    :func:`midpoint_grid` and only the noise is random. Returns ``x`` (n,) and ``y`` (n,).
    """
    n, noise = positive_int(n, "n"), positive_float(noise, "noise")
    rng = as_rng(rng)
    if design == "random":
        x = rng.uniform(-1.0, 1.0, size=n)
    elif design == "grid":
        x = midpoint_grid(n)
    else:
        raise ValueError(f"design must be 'random' or 'grid'; got {design!r}")
    return x, sine_target(x) + noise * rng.standard_normal(n)


# --------------------------------------------------------------------------- lectures 03 and 04


def random_covariance(d: int, rng, ridge: float = 0.3) -> np.ndarray:
    """A random covariance matrix ``B B^T + ridge I`` with ``B`` a (d, d) standard normal draw.

    Symmetric positive definite (its eigenvalues are at least ``ridge``); used by the proof checks
    of lectures 03 and 04 to try claims on many random Gaussians.
    """
    d, ridge = positive_int(d, "d"), positive_float(ridge, "ridge")
    B = as_rng(rng).normal(size=(d, d))
    return B @ B.T + ridge * np.eye(d)


# --------------------------------------------------------------------------- lecture 04


def random_joint_table(m: int, K: int, rng, concentration: float = 1.0) -> np.ndarray:
    """A random joint distribution ``P(X = x, Y = y)`` on ``m`` inputs and ``K`` classes (lecture 04).

    The ``m K`` entries are a draw from the Dirichlet distribution with all parameters
    ``concentration`` (1 = uniform on the simplex). Returns a float array (m, K) summing to 1.
    """
    m, K = positive_int(m, "m"), positive_int(K, "K")
    concentration = positive_float(concentration, "concentration")
    rng = as_rng(rng)
    return rng.dirichlet(np.full(m * K, concentration)).reshape(m, K)


def sample_joint_table(joint, n: int, rng):
    """``n`` i.i.d. pairs ``(x, y)`` drawn from a joint table ``joint`` (m, K) (lecture 04).

    Returns two int arrays of shape (n,): the inputs (row indices) and the classes (column indices).
    """
    from .bayes import check_joint

    joint = check_joint(joint)
    n = positive_int(n, "n")
    rng = as_rng(rng)
    flat = rng.choice(joint.size, size=n, p=joint.ravel() / joint.sum())
    x, y = np.divmod(flat, joint.shape[1])
    return x.astype(int), y.astype(int)


def sample_gaussian_classes(model, n: int, rng):
    """``n`` i.i.d. pairs from Gaussian classes (lecture 04): ``Y`` with probabilities
    ``model.priors``, then ``X | Y = k ~ N(model.means[k], model.covariances[k])``.

    ``model`` is a :class:`mlcourse.mle.GaussianClassModel`. Returns ``X`` (n, d) and ``y`` (n,)
    holding ``model.classes``.
    """
    from .mle import _check_model

    classes, priors, means, covs = _check_model(model)
    n = positive_int(n, "n")
    rng = as_rng(rng)
    k = rng.choice(len(classes), size=n, p=priors / priors.sum())
    z = rng.standard_normal((n, means.shape[1]))
    chol = np.linalg.cholesky(covs)  # (K, d, d)
    X = means[k] + np.einsum("nij,nj->ni", chol[k], z)
    return X, classes[k]


# --------------------------------------------------------------------------- real data (lecture 05 on)


@dataclass(frozen=True)
class RealData:
    """A real data set: ``X`` (n, d) floats, ``y`` (n,) integer classes ``0, ..., K - 1`` (or, for a
    regression data set, real targets and no class names), the names of the features and of the
    classes, and where the file came from."""

    X: np.ndarray
    y: np.ndarray
    feature_names: tuple
    target_names: tuple
    source: str


_WINE_FEATURES = ("alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols",
                  "flavanoids", "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue",
                  "od280/od315_of_diluted_wines", "proline")
_CANCER_BASE = ("radius", "texture", "perimeter", "area", "smoothness", "compactness", "concavity",
                "concave points", "symmetry", "fractal dimension")
_CANCER_FEATURES = (tuple(f"mean {name}" for name in _CANCER_BASE) + tuple(f"{name} error" for name in _CANCER_BASE)
                    + tuple(f"worst {name}" for name in _CANCER_BASE))
_IRIS_FEATURES = ("sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)")


def _sklearn_data_folder() -> Path:
    """The folder of the data files that ship inside scikit-learn, found without importing it."""
    from importlib.util import find_spec

    spec = find_spec("sklearn")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("the real data sets ship inside scikit-learn, which is not installed "
                                  "(run `make lab` or `make setup` to install the course's packages)")
    return Path(spec.origin).parent / "datasets" / "data"


def _shipped_csv(file: str, feature_names: tuple) -> RealData:
    """Read one of the CSV files that ship inside scikit-learn without importing scikit-learn (its
    import alone takes longer than a lecture may). The first line holds n, d and the class names;
    each row then holds d features and the class."""
    path = _sklearn_data_folder() / file
    with open(path) as f:
        header = f.readline().strip().split(",")
        table = np.loadtxt(f, delimiter=",", ndmin=2)
    n, d = int(header[0]), int(header[1])
    if table.shape != (n, d + 1) or len(feature_names) != d:
        raise ValueError(f"{path} holds a table of shape {table.shape}, expected ({n}, {d + 1}): a "
                         "scikit-learn version this course does not know")
    return RealData(table[:, :d], table[:, d].astype(int), feature_names, tuple(header[2:]), str(path))


def load_wine() -> RealData:
    """The wine data (178 wines from three cultivars, 13 chemical measurements whose scales differ by
    orders of magnitude: proline is in the hundreds, hue near 1), as scikit-learn ships it."""
    return _shipped_csv("wine_data.csv", _WINE_FEATURES)


def load_breast_cancer() -> RealData:
    """The Wisconsin breast cancer data (569 tumours, 30 features; class 0 malignant, 1 benign)."""
    return _shipped_csv("breast_cancer.csv", _CANCER_FEATURES)


def load_iris() -> RealData:
    """Fisher's iris data (150 flowers, 4 measurements in cm, three species)."""
    return _shipped_csv("iris.csv", _IRIS_FEATURES)


_DIABETES_FEATURES = ("age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6")


def load_diabetes() -> RealData:
    """The diabetes data (Efron et al., 2004) as scikit-learn ships it, unscaled: 442 patients, 10
    baseline measurements (age in years, sex coded 1 or 2, body-mass index, mean blood pressure and six
    blood serum measurements s1 to s6), and ``y`` a real number, a measure of how the disease
    progressed one year later. ``target_names`` is empty: the target is not a class."""
    folder = _sklearn_data_folder()
    X = np.loadtxt(folder / "diabetes_data_raw.csv.gz", ndmin=2)
    y = np.loadtxt(folder / "diabetes_target.csv.gz")
    if X.shape != (442, len(_DIABETES_FEATURES)) or y.shape != (442,):
        raise ValueError(f"{folder} holds diabetes data of shapes {X.shape} and {y.shape}, expected (442, 10) "
                         "and (442,): a scikit-learn version this course does not know")
    return RealData(X, y, _DIABETES_FEATURES, (), str(folder / "diabetes_data_raw.csv.gz"))


def load_digits() -> RealData:
    """The handwritten digits as scikit-learn ships them (a test set of the UCI "optical recognition of
    handwritten digits" data): 1797 images of 8 x 8 pixels, each pixel a count from 0 to 16 (a 4 x 4 block
    of a 32 x 32 bitmap), flattened row by row into ``d = 64`` features; ``y`` the digit 0 to 9.
    ``feature_names`` are ``pixel_r_c`` (row r, column c); ``X[i].reshape(8, 8)`` is image i."""
    path = _sklearn_data_folder() / "digits.csv.gz"
    table = np.loadtxt(path, delimiter=",", ndmin=2)
    if table.shape != (1797, 65):
        raise ValueError(f"{path} holds a table of shape {table.shape}, expected (1797, 65): a "
                         "scikit-learn version this course does not know")
    names = tuple(f"pixel_{r}_{c}" for r in range(8) for c in range(8))
    return RealData(table[:, :64], table[:, 64].astype(int), names, tuple(str(j) for j in range(10)), str(path))
