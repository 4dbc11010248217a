"""mlcourse.regression against scikit-learn (LinearRegression, Ridge, Lasso, ElasticNet, with their
scaling of the penalty), NumPy's lstsq and pinv, SciPy's Student t, brute force, and the theory: the
projection, the minimum-norm solution, the soft threshold, the optimality conditions, the duality gap,
and the standard errors and confidence intervals (against the Frisch-Waugh-Lovell route, the one-sample
t interval and simulated coverage)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import ElasticNet, Lasso, LinearRegression, Ridge

from mlcourse import regression


def problem(rng, n, d, scale_columns=True):
    X = rng.standard_normal((n, d)) + rng.standard_normal(d)
    if scale_columns:
        X *= 10 ** rng.uniform(-1, 1, size=d)
    w = rng.standard_normal(d) * (rng.uniform(size=d) < 0.6)
    y = X @ w + rng.standard_normal(n) * 10 ** rng.uniform(-1, 0.5) + 3 * rng.standard_normal()
    return X, y


def with_condition_number(rng, n, d, kappa):
    U, _ = np.linalg.qr(rng.standard_normal((n, d)))
    V, _ = np.linalg.qr(rng.standard_normal((d, d)))
    return (U * np.geomspace(1, 1 / kappa, d)) @ V.T


# --------------------------------------------------------------------------- least squares


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_least_squares_equals_linear_regression(fit_intercept):
    rng = np.random.default_rng(0)
    for _ in range(10):
        n, d = int(rng.integers(5, 200)), int(rng.integers(1, 5))
        X, y = problem(rng, n, d)
        reference = LinearRegression(fit_intercept=fit_intercept).fit(X, y)
        for method in regression.LEAST_SQUARES_METHODS:
            fit = regression.fit_least_squares(X, y, fit_intercept=fit_intercept, method=method)
            np.testing.assert_allclose(fit.w, reference.coef_, rtol=1e-6, atol=1e-9)
            assert fit.b == pytest.approx(reference.intercept_, rel=1e-6, abs=1e-9)
            np.testing.assert_allclose(regression.predict(X, fit.w, fit.b), reference.predict(X), rtol=1e-6, atol=1e-9)


def test_least_squares_by_blocks_of_rows_equals_lstsq():
    """Above 8192 rows the QR works a block at a time; the result is the same."""
    rng = np.random.default_rng(1)
    X, y = problem(rng, 20_000, 7)
    np.testing.assert_allclose(regression.least_squares(X, y), np.linalg.lstsq(X, y, rcond=None)[0], rtol=1e-8)


@pytest.mark.parametrize("d", [1, 2, 7, 150])
def test_triangular_solves_equal_scipys(d):
    from scipy.linalg import solve_triangular

    rng = np.random.default_rng(d)
    A = rng.standard_normal((d, d))
    L = np.tril(A) + d * np.eye(d)            # well away from singular, so both agree to round-off
    z = rng.standard_normal(d)
    np.testing.assert_allclose(regression._solve_lower(L, z), solve_triangular(L, z, lower=True), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(regression._solve_upper(L.T, z), solve_triangular(L.T, z, lower=False), rtol=1e-12, atol=1e-14)


def test_qr_keeps_the_digits_the_normal_equations_lose():
    rng = np.random.default_rng(2)
    for kappa in (1e6, 1e7):
        X = with_condition_number(rng, 100, 5, kappa)
        w = rng.standard_normal(5)
        error = {m: np.linalg.norm(regression.least_squares(X, X @ w, m) - w) / np.linalg.norm(w)
                 for m in regression.LEAST_SQUARES_METHODS}
        assert error["qr"] < 1e3 * kappa * 2.2e-16 and error["svd"] < 1e3 * kappa * 2.2e-16
        assert error["normal"] > 10 * error["qr"]


def test_pseudo_inverse_equals_numpys_and_has_the_penrose_properties():
    rng = np.random.default_rng(3)
    for _ in range(10):
        n, d, r = int(rng.integers(2, 30)), int(rng.integers(2, 30)), int(rng.integers(1, 5))
        X = rng.standard_normal((n, r)) @ rng.standard_normal((r, d)) * 10 ** rng.uniform(-2, 2)
        P = regression.pseudo_inverse(X)
        np.testing.assert_allclose(P, np.linalg.pinv(X), rtol=1e-6, atol=1e-10 * np.abs(P).max())
        for A, B in ((X @ P @ X, X), (P @ X @ P, P), (X @ P, (X @ P).T), (P @ X, (P @ X).T)):
            np.testing.assert_allclose(A, B, atol=1e-8 * np.abs(B).max())
        assert regression.numerical_rank(X) == min(r, n, d)


def test_svd_least_squares_is_the_solution_of_smallest_norm():
    rng = np.random.default_rng(4)
    for _ in range(10):
        n, d = int(rng.integers(3, 20)), int(rng.integers(4, 25))
        X = rng.standard_normal((n, 2)) @ rng.standard_normal((2, d))
        y = rng.standard_normal(n)
        w = regression.least_squares(X, y, "svd")
        np.testing.assert_allclose(X.T @ (y - X @ w), 0, atol=1e-9 * np.linalg.norm(X) * np.linalg.norm(y))
        null = np.linalg.svd(X)[2][2:]                          # rows spanning the null space
        for z in rng.standard_normal((20, d - 2)) @ null:
            assert np.linalg.norm(y - X @ (w + z)) == pytest.approx(np.linalg.norm(y - X @ w), rel=1e-9)
            assert np.linalg.norm(w + z) > np.linalg.norm(w)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 40), d=st.integers(1, 8), seed=st.integers(0, 2**32 - 1))
def test_hat_matrix_is_the_orthogonal_projection_onto_the_columns(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * 10 ** rng.uniform(-2, 2, size=d)
    H = regression.hat_matrix(X)
    np.testing.assert_allclose(H, H.T, atol=1e-10)
    np.testing.assert_allclose(H @ H, H, atol=1e-10)
    np.testing.assert_allclose(H @ X, X, atol=1e-9 * np.abs(X).max())
    assert np.trace(H) == pytest.approx(np.linalg.matrix_rank(X), abs=1e-8)


# --------------------------------------------------------------------------- ridge


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_ridge_equals_scikit_learns(fit_intercept):
    rng = np.random.default_rng(5)
    for _ in range(10):
        n, d = int(rng.integers(3, 60)), int(rng.integers(1, 80))        # tall and wide
        X, y = problem(rng, n, d)
        lam = float(10 ** rng.uniform(-2, 3))
        reference = Ridge(alpha=lam, fit_intercept=fit_intercept, solver="svd").fit(X, y)
        fit = regression.fit_ridge(X, y, lam, fit_intercept=fit_intercept)
        np.testing.assert_allclose(fit.w, reference.coef_, rtol=1e-6, atol=1e-9 * np.abs(reference.coef_).max())
        assert fit.b == pytest.approx(reference.intercept_, rel=1e-6, abs=1e-9)
        W, b = regression.ridge_path(X, y, [lam, 2 * lam], fit_intercept=fit_intercept)
        np.testing.assert_allclose(W[0], fit.w, rtol=1e-6, atol=1e-9 * np.abs(fit.w).max())
        assert b[0] == pytest.approx(fit.b, rel=1e-6, abs=1e-9)


def test_ridge_at_zero_is_minimum_norm_least_squares():
    rng = np.random.default_rng(6)
    X, y = problem(rng, 10, 30)
    np.testing.assert_allclose(regression.fit_ridge(X, y, 0.0, fit_intercept=False).w,
                               np.linalg.pinv(X) @ y, rtol=1e-8, atol=1e-12)


def test_effective_degrees_of_freedom_is_the_trace_of_the_ridge_hat_matrix():
    rng = np.random.default_rng(7)
    for fit_intercept in (True, False):
        for _ in range(5):
            n, d = int(rng.integers(3, 40)), int(rng.integers(1, 50))
            X, _ = problem(rng, n, d)
            lam = float(10 ** rng.uniform(-2, 2))
            Xc = X - X.mean(axis=0) if fit_intercept else X
            H = Xc @ np.linalg.solve(Xc.T @ Xc + lam * np.eye(d), Xc.T)
            assert regression.effective_degrees_of_freedom(X, lam, fit_intercept) == pytest.approx(
                np.trace(H) + fit_intercept, rel=1e-8)
        rank = np.linalg.matrix_rank(X - X.mean(axis=0) if fit_intercept else X)
        assert regression.effective_degrees_of_freedom(X, 0.0, fit_intercept) == pytest.approx(rank + fit_intercept)


# --------------------------------------------------------------------------- lasso and elastic net


@settings(max_examples=60, deadline=None)
@given(z=st.floats(-1e3, 1e3), t=st.floats(0, 1e3))
def test_soft_threshold_minimises_the_one_dimensional_problem(z, t):
    w = float(regression.soft_threshold(z, t))
    f = lambda v: 0.5 * (v - z) ** 2 + t * abs(v)
    grid = np.r_[0.0, np.linspace(z - 2 * t - 1, z + 2 * t + 1, 20_001)]
    assert f(w) <= min(f(v) for v in grid[::50]) + 1e-9 * (1 + z * z)
    assert f(w) <= np.min(0.5 * (grid - z) ** 2 + t * np.abs(grid)) + 1e-9 * (1 + z * z)


def test_coordinate_descent_sweep_minimises_each_coordinate_in_turn():
    """Against a brute-force exact minimisation of the objective along each coordinate, in order."""
    rng = np.random.default_rng(8)
    for _ in range(10):
        n, d = int(rng.integers(1, 30)), int(rng.integers(1, 8))
        X, y = problem(rng, n, d)
        X[:, 0] *= rng.uniform() < 0.3                          # sometimes a zero column
        w0, lam1, lam2 = rng.standard_normal(d), float(10 ** rng.uniform(-1, 2)), float(rng.uniform() * 2)
        expected = w0.copy()
        for j in range(d):
            a = X[:, j] @ X[:, j] + lam2
            if a == 0:
                continue
            r = y - X @ expected + X[:, j] * expected[j]
            candidates = [0.0, (X[:, j] @ r - lam1) / a, (X[:, j] @ r + lam1) / a]
            objective = lambda v: regression.elastic_net_objective(X, y, np.r_[expected[:j], v, expected[j + 1:]], lam1, lam2)
            expected[j] = min(candidates, key=objective)
        got = regression.coordinate_descent_sweep(X, y, w0, lam1, lam2)
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)
        assert regression.elastic_net_objective(X, y, got, lam1, lam2) <= regression.elastic_net_objective(X, y, w0, lam1, lam2) + 1e-9


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("shape", [(80, 6), (15, 40)])                 # the Gram and the residual forms
def test_lasso_and_elastic_net_equal_scikit_learns(fit_intercept, shape):
    rng = np.random.default_rng(9)
    n, d = shape
    for _ in range(4):
        X, y = problem(rng, n, d)
        top = regression.lambda_max(X, y, fit_intercept)
        lam1, lam2 = float(rng.uniform(0.02, 0.5) * top), float(10 ** rng.uniform(-1, 2))
        for ours, theirs in (
                (regression.fit_lasso(X, y, lam1, fit_intercept, tol=1e-12, max_sweeps=200_000),
                 Lasso(alpha=lam1 / n, fit_intercept=fit_intercept, tol=1e-12, max_iter=200_000).fit(X, y)),
                (regression.fit_elastic_net(X, y, lam1, lam2, fit_intercept, tol=1e-12, max_sweeps=200_000),
                 ElasticNet(alpha=(lam1 + lam2) / n, l1_ratio=lam1 / (lam1 + lam2), fit_intercept=fit_intercept,
                            tol=1e-12, max_iter=200_000).fit(X, y))):
            assert ours.converged
            scale = np.abs(theirs.coef_).max() + 1e-12
            np.testing.assert_allclose(ours.w, theirs.coef_, atol=1e-5 * scale)
            assert ours.b == pytest.approx(theirs.intercept_, abs=1e-5 * (abs(theirs.intercept_) + scale))
            assert ((ours.w == 0) == (theirs.coef_ == 0)).mean() >= 0.9


def test_the_stopping_rule_is_scikit_learns():
    """Both stop when the duality gap is at most tol * ||y_c||^2; scikit-learn reports its gap divided by n."""
    rng = np.random.default_rng(10)
    X, y = problem(rng, 200, 10, scale_columns=False)
    lam = 0.1 * regression.lambda_max(X, y)
    fit = regression.fit_lasso(X, y, lam, tol=1e-4)
    reference = Lasso(alpha=lam / 200, tol=1e-4).fit(X, y)
    yc = y - y.mean()
    assert fit.converged and fit.gap <= 1e-4 * yc @ yc and reference.dual_gap_ * 200 <= 1e-4 * yc @ yc
    Xc = X - X.mean(axis=0)
    assert regression.duality_gap(Xc, yc, fit.w, lam) == pytest.approx(fit.gap, rel=1e-6, abs=1e-9 * yc @ yc)
    assert regression.duality_gap(Xc, yc, reference.coef_, lam) == pytest.approx(reference.dual_gap_ * 200, rel=1e-6)


def test_duality_gap_bounds_the_distance_to_the_optimum():
    rng = np.random.default_rng(11)
    for _ in range(10):
        n, d = int(rng.integers(5, 50)), int(rng.integers(1, 10))
        X, y = problem(rng, n, d)
        lam1, lam2 = float(rng.uniform(0.05, 0.5) * regression.lambda_max(X, y, False)), float(rng.uniform())
        best = regression.fit_elastic_net(X, y, lam1, lam2, fit_intercept=False, tol=1e-13, max_sweeps=500_000)
        optimum = regression.elastic_net_objective(X, y, best.w, lam1, lam2)
        assert best.gap <= 1e-13 * y @ y
        for w in (rng.standard_normal(d), np.zeros(d), best.w + 0.01 * rng.standard_normal(d)):
            gap = regression.duality_gap(X, y, w, lam1, lam2)
            assert gap >= regression.elastic_net_objective(X, y, w, lam1, lam2) - optimum - 1e-9 * (1 + abs(optimum))


def test_optimality_conditions_hold_at_the_lasso_solution():
    rng = np.random.default_rng(12)
    for shape in ((60, 8), (10, 30)):
        X, y = problem(rng, *shape)
        lam = 0.2 * regression.lambda_max(X, y, False)
        w = regression.fit_lasso(X, y, lam, fit_intercept=False, tol=1e-14, max_sweeps=500_000).w
        c = X.T @ (y - X @ w)
        on = w != 0
        np.testing.assert_allclose(c[on], lam * np.sign(w[on]), rtol=1e-5)
        assert np.all(np.abs(c[~on]) <= lam * (1 + 1e-6))


def test_lambda_max_is_where_the_lasso_becomes_zero():
    rng = np.random.default_rng(13)
    for fit_intercept in (True, False):
        X, y = problem(rng, 50, 6)
        top = regression.lambda_max(X, y, fit_intercept)
        assert not regression.fit_lasso(X, y, top * (1 + 1e-9), fit_intercept).w.any()
        assert regression.fit_lasso(X, y, 0.99 * top, fit_intercept).w.any()


def test_paths_with_warm_starts_equal_cold_fits():
    rng = np.random.default_rng(14)
    X, y = problem(rng, 60, 8)
    lams = np.geomspace(1, 0.01, 6) * regression.lambda_max(X, y)
    W, b = regression.elastic_net_path(X, y, lams, lam2=0.5, tol=1e-12, max_sweeps=100_000)
    for k, lam in enumerate(lams):
        cold = regression.fit_elastic_net(X, y, float(lam), 0.5, tol=1e-12, max_sweeps=100_000)
        np.testing.assert_allclose(W[k], cold.w, atol=1e-6 * (np.abs(cold.w).max() + 1))
        assert b[k] == pytest.approx(cold.b, abs=1e-6 * (abs(cold.b) + 1))


def test_max_sweeps_reached_is_reported():
    rng = np.random.default_rng(15)
    x = rng.uniform(-1, 1, 40)
    X = x[:, None] ** np.arange(1, 9)                      # powers of x: nearly collinear, slow to converge
    y = np.sin(3 * x) + 0.1 * rng.standard_normal(40)
    fit = regression.fit_lasso(X, y, 1e-3, tol=1e-10, max_sweeps=3)
    assert fit.sweeps == 3 and not fit.converged and fit.gap > 1e-10 * np.sum((y - y.mean()) ** 2)
    longer = regression.fit_lasso(X, y, 1e-3, tol=1e-10, max_sweeps=10)
    assert regression.elastic_net_objective(X - X.mean(axis=0), y - y.mean(), longer.w, 1e-3) < \
        regression.elastic_net_objective(X - X.mean(axis=0), y - y.mean(), fit.w, 1e-3)


def test_constant_targets_give_zero_weights():
    fit = regression.fit_lasso(np.arange(12.0).reshape(6, 2), np.full(6, 4.0), 1.0)
    assert not fit.w.any() and fit.b == 4.0 and fit.converged


def test_inputs_are_not_changed():
    rng = np.random.default_rng(16)
    X, y = problem(rng, 20, 4)
    w0 = rng.standard_normal(4)
    copies = X.copy(), y.copy(), w0.copy()
    regression.fit_elastic_net(X, y, 1.0, 0.5, w0=w0)
    regression.coordinate_descent_sweep(X, y, w0, 1.0)
    regression.fit_ridge(X, y, 1.0)
    regression.fit_least_squares(X, y)
    for before, after in zip(copies, (X, y, w0)):
        np.testing.assert_array_equal(before, after)


# --------------------------------------------------------------------------- inference


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 10, 29, 30, 64, 101, 1000])
def test_t_cdf_and_quantile_equal_scipys(df):
    from scipy import stats

    t = np.r_[-np.geomspace(1e4, 1e-6, 40), 0.0, np.linspace(-30, 30, 121), np.geomspace(1e-6, 1e4, 40)]
    np.testing.assert_allclose(regression.t_cdf(t, df), stats.t.cdf(t, df), rtol=0, atol=1e-9)
    q = np.r_[1e-6, 1e-4, np.linspace(0.001, 0.499, 50), np.linspace(0.501, 0.999, 50), 1 - 1e-4, 1 - 1e-6]
    np.testing.assert_allclose(regression.t_quantile(q, df), stats.t.ppf(q, df), rtol=1e-9, atol=0)
    assert regression.t_quantile(0.5, df) == 0.0
    np.testing.assert_allclose(regression.t_cdf(regression.t_quantile(q, df), df), q, rtol=1e-9, atol=0)
    assert np.ndim(regression.t_quantile(0.975, df)) == 0 and np.ndim(regression.t_cdf(1.0, df)) == 0


def test_t_in_closed_form_at_one_and_two_degrees_of_freedom():
    # Cauchy: t = tan(pi (q - 1/2)); two degrees of freedom: P(|T| <= t) = t / sqrt(2 + t^2)
    q = np.linspace(0.01, 0.99, 99)
    np.testing.assert_allclose(regression.t_quantile(q, 1), np.tan(np.pi * (q - 0.5)), rtol=1e-10, atol=1e-14)
    a = np.abs(2 * q - 1)
    np.testing.assert_allclose(regression.t_quantile(q, 2), np.sign(q - 0.5) * np.sqrt(2 * a**2 / (1 - a**2)),
                               rtol=1e-10, atol=1e-14)


def test_standard_errors_equal_the_frisch_waugh_lovell_route():
    # se_j = sigma_hat / ||x_j - (projection of x_j on the other columns)||, each projection by scikit-learn
    rng = np.random.default_rng(30)
    for _ in range(10):
        d = int(rng.integers(1, 6))
        n = int(rng.integers(d + 1, 40))
        X = (rng.standard_normal((n, d)) @ rng.standard_normal((d, d))) * 10 ** rng.uniform(-2, 2, size=d)
        y = X @ rng.standard_normal(d) + rng.standard_normal(n) * 10 ** rng.uniform(-2, 2)
        residual = y - LinearRegression(fit_intercept=False).fit(X, y).predict(X)
        sigma2 = residual @ residual / (n - d)
        expected = []
        for j in range(d):
            others = np.delete(X, j, axis=1)
            xj = X[:, j] - (LinearRegression(fit_intercept=False).fit(others, X[:, j]).predict(others) if d > 1 else 0)
            expected.append(np.sqrt(sigma2 / (xj @ xj)))
        inference = regression.least_squares_inference(X, y)
        np.testing.assert_allclose(inference.se, expected, rtol=1e-8)
        np.testing.assert_allclose(regression.standard_errors(X, y), expected, rtol=1e-8)
        assert inference.sigma2 == pytest.approx(sigma2, rel=1e-8) and inference.df == n - d


def test_one_column_of_ones_gives_the_one_sample_t_interval():
    from scipy import stats

    rng = np.random.default_rng(31)
    for n, alpha in ((2, 0.05), (5, 0.1), (30, 0.01)):
        y = rng.standard_normal(n) * 3 + 7
        inference = regression.least_squares_inference(np.ones((n, 1)), y, alpha=alpha)
        lower, upper = stats.t.interval(1 - alpha, n - 1, loc=y.mean(), scale=stats.sem(y))
        np.testing.assert_allclose([inference.lower[0], inference.upper[0]], [lower, upper], rtol=1e-9)
        assert inference.se[0] == pytest.approx(y.std(ddof=1) / np.sqrt(n), rel=1e-10)


def test_intervals_cover_the_true_weights_as_often_as_they_claim():
    # brute force: 2000 data sets from y = X w* + N(0, sigma^2 I) per design, each fitted by the library;
    # coverage of each coordinate within 5 binomial standard errors of 1 - alpha, for n - d from 1 to 30
    rng = np.random.default_rng(32)
    m = 2000
    for n_minus_d, d, alpha in ((1, 2, 0.05), (3, 3, 0.2), (8, 1, 0.01), (30, 4, 0.05)):
        n = d + n_minus_d
        X = rng.standard_normal((n, d)) * 10 ** rng.uniform(-1, 1, size=d)
        w_star, sigma = rng.standard_normal(d), 10 ** rng.uniform(-1, 1)
        covered = np.zeros(d)
        for _ in range(m):
            inference = regression.least_squares_inference(X, X @ w_star + sigma * rng.standard_normal(n), alpha)
            covered += (inference.lower <= w_star) & (w_star <= inference.upper)
        assert np.all(np.abs(covered / m - (1 - alpha)) < 5 * np.sqrt(alpha * (1 - alpha) / m)), covered / m


def test_inference_leaves_its_inputs_alone_and_is_frozen():
    rng = np.random.default_rng(33)
    X, y = problem(rng, 20, 3)
    copies = X.copy(), y.copy()
    inference = regression.least_squares_inference(X, y)
    np.testing.assert_array_equal(copies[0], X)
    np.testing.assert_array_equal(copies[1], y)
    np.testing.assert_allclose(inference.w, regression.least_squares(X, y))
    with pytest.raises(AttributeError):
        inference.alpha = 0.1


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: regression.least_squares(np.ones((3, 2)), np.ones(4)), ValueError, r"y has shape \(4,\), expected \(3,\)"),
    (lambda: regression.least_squares(np.ones(3), np.ones(3)), ValueError, "X must be a 2-d array"),
    (lambda: regression.least_squares(np.eye(3), np.ones(3), "cholesky"), ValueError, "method must be one of"),
    (lambda: regression.least_squares(np.ones((3, 2)), np.ones(3)), ValueError, "does not have full column rank.*svd"),
    (lambda: regression.least_squares(np.ones((3, 2)), np.ones(3), "normal"), ValueError, "singular.*svd"),
    (lambda: regression.least_squares(np.ones((2, 3)), np.ones(2)), ValueError, "full column rank"),
    (lambda: regression.fit_ridge(np.eye(3), np.ones(3), -1.0), ValueError, "lam must be a finite number >= 0"),
    (lambda: regression.fit_ridge(np.eye(3), np.ones(3), 1.0, fit_intercept="yes"), TypeError, "fit_intercept must be True or False"),
    (lambda: regression.ridge_path(np.eye(3), np.ones(3), [1.0, -2.0]), ValueError, "lams must be >= 0"),
    (lambda: regression.fit_lasso(np.eye(3), np.ones(3), 0.0), ValueError, "lam1 must be a finite number > 0"),
    (lambda: regression.fit_elastic_net(np.eye(3), np.ones(3), 1.0, -1.0), ValueError, "lam2 must be"),
    (lambda: regression.fit_lasso(np.eye(3), np.ones(3), 1.0, w0=np.ones(2)), ValueError, r"w0 has shape \(2,\), expected \(3,\)"),
    (lambda: regression.fit_lasso(np.eye(3), np.ones(3), 1.0, max_sweeps=0), ValueError, "max_sweeps must be at least 1"),
    (lambda: regression.coordinate_descent_sweep(np.eye(3), np.ones(3), np.ones(4), 1.0), ValueError, r"w has shape \(4,\)"),
    (lambda: regression.soft_threshold([1.0], -1.0), ValueError, "t must be a finite number >= 0"),
    (lambda: regression.duality_gap(np.eye(3), np.ones(3), np.zeros(3), 0.0), ValueError, "lam1 must be"),
    (lambda: regression.predict(np.eye(3), np.ones(2)), ValueError, r"w has shape \(2,\), expected \(3,\)"),
    (lambda: regression.fit_ridge(np.eye(3), [1.0, np.nan, 2.0], 1.0), ValueError, "y contains NaN"),
    (lambda: regression.t_quantile(1.0, 3), ValueError, "q must be strictly between 0 and 1"),
    (lambda: regression.t_quantile(0.5, 0), ValueError, "df must be at least 1"),
    (lambda: regression.t_quantile(0.5, 2.5), TypeError, "df must be an integer"),
    (lambda: regression.t_cdf([0.0, np.nan], 3), ValueError, "t contains NaN"),
    (lambda: regression.least_squares_inference(np.eye(3), np.ones(3)), ValueError, r"needs more rows than columns \(n > d\)"),
    (lambda: regression.least_squares_inference(np.ones((4, 2)), np.ones(4)), ValueError, "full column rank"),
    (lambda: regression.least_squares_inference(np.ones((4, 1)), np.ones(4), alpha=1.5), ValueError, "alpha must be strictly between 0 and 1"),
    (lambda: regression.standard_errors(np.ones((4, 1)), np.ones(3)), ValueError, r"y has shape \(3,\), expected \(4,\)"),
])
def test_bad_input_is_named(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()
