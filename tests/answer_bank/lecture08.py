"""Lecture 08, linear regression and regularisation: wrong answers the judge must reject, right ones it must
accept."""

BANK = {
    "hat_matrix": {
        "wrong": {
            "I - H, the residual maker, returned instead of H": (
                "def hat_matrix(X):\n"
                "    Q, _ = np.linalg.qr(X)\n"
                "    return np.eye(X.shape[0]) - Q @ Q.T\n"),
            "the complete Q (n x n) of the QR factorisation, so H = I": (
                "def hat_matrix(X):\n"
                "    Q, _ = np.linalg.qr(X, mode='complete')\n"
                "    return Q @ Q.T\n"),
            "the projections on each column summed, as if the columns were orthogonal": (
                "def hat_matrix(X):\n"
                "    H = np.zeros((X.shape[0], X.shape[0]))\n"
                "    for j in range(X.shape[1]):\n"
                "        H += np.outer(X[:, j], X[:, j]) / (X[:, j] @ X[:, j])\n"
                "    return H\n"),
            "X X^T, the inverse of X^T X forgotten": (
                "def hat_matrix(X):\n"
                "    return X @ X.T\n"),
            "np.linalg.pinv (withheld)": (
                "def hat_matrix(X):\n"
                "    return X @ np.linalg.pinv(X)\n"),
            "the library's hat_matrix (shortcut)": (
                "def hat_matrix(X):\n"
                "    return regression.hat_matrix(X)\n"),
            "the library's pseudo_inverse (shortcut)": (
                "def hat_matrix(X):\n"
                "    return X @ regression.pseudo_inverse(X)\n"),
        },
        "right": {
            "X (X^T X)^{-1} X^T by np.linalg.solve": (
                "def hat_matrix(X):\n"
                "    return X @ np.linalg.solve(X.T @ X, X.T)\n"),
            "U U^T from the thin SVD": (
                "def hat_matrix(X):\n"
                "    U, s, Vt = np.linalg.svd(X, full_matrices=False)\n"
                "    return U @ U.T\n"),
            "modified Gram-Schmidt by hand": (
                "def hat_matrix(X):\n"
                "    n, d = X.shape\n"
                "    Q = np.array(X, dtype=float)\n"
                "    for j in range(d):\n"
                "        for k in range(j):\n"
                "            Q[:, j] -= (Q[:, k] @ Q[:, j]) * Q[:, k]\n"
                "        Q[:, j] /= np.sqrt(Q[:, j] @ Q[:, j])\n"
                "    return sum(np.outer(Q[:, j], Q[:, j]) for j in range(d))\n"),
        },
    },
    "least_squares_qr": {
        "wrong": {
            "the normal equations X^T X w = X^T y": (
                "def least_squares_qr(X, y):\n"
                "    return np.linalg.solve(X.T @ X, X.T @ y)\n"),
            "R^T R w = X^T y: the normal equations again, through R": (
                "def least_squares_qr(X, y):\n"
                "    Q, R = np.linalg.qr(X)\n"
                "    return np.linalg.solve(R.T @ R, X.T @ y)\n"),
            "np.linalg.lstsq (withheld)": (
                "def least_squares_qr(X, y):\n"
                "    return np.linalg.lstsq(X, y, rcond=None)[0]\n"),
            "np.linalg.pinv (withheld)": (
                "def least_squares_qr(X, y):\n"
                "    return np.linalg.pinv(X) @ y\n"),
            "scipy.linalg.lstsq reached through the base interpreter's site-packages": (
                "def least_squares_qr(X, y):\n"
                "    import sys, glob\n"
                "    sys.path += glob.glob(sys.base_prefix + '/lib/python3*/site-packages')\n"
                "    sys.path += glob.glob('/root/.pyenv/versions/*/lib/python3*/site-packages')\n"
                "    sys.path += glob.glob('/usr/lib/python3*/*-packages') + glob.glob('/usr/local/lib/python3*/*-packages')\n"
                "    import scipy.linalg\n"
                "    return scipy.linalg.lstsq(X, y)[0]\n"),
            "scipy.linalg.solve_triangular for the back substitution": (
                "def least_squares_qr(X, y):\n"
                "    from scipy.linalg import solve_triangular\n"
                "    Q, R = np.linalg.qr(X)\n"
                "    return solve_triangular(R, Q.T @ y)\n"),
            "substitution from the first coordinate down, on an upper triangular R": (
                "def least_squares_qr(X, y):\n"
                "    Q, R = np.linalg.qr(X)\n"
                "    z = Q.T @ y\n"
                "    w = np.zeros(X.shape[1])\n"
                "    for j in range(X.shape[1]):\n"
                "        w[j] = (z[j] - R[j, :j] @ w[:j]) / R[j, j]\n"
                "    return w\n"),
            "R^T w = Q^T y solved instead of R w = Q^T y": (
                "def least_squares_qr(X, y):\n"
                "    Q, R = np.linalg.qr(X)\n"
                "    return np.linalg.solve(R.T, Q.T @ y)\n"),
            "Q^T y divided by the diagonal of R, the rest of R ignored": (
                "def least_squares_qr(X, y):\n"
                "    Q, R = np.linalg.qr(X)\n"
                "    return (Q.T @ y) / np.diag(R)\n"),
            "the library's least_squares (shortcut)": (
                "def least_squares_qr(X, y):\n"
                "    return regression.least_squares(X, y)\n"),
            "the library's pseudo_inverse (shortcut)": (
                "def least_squares_qr(X, y):\n"
                "    return regression.pseudo_inverse(X) @ y\n"),
            "the library's fit_least_squares without an intercept (shortcut)": (
                "def least_squares_qr(X, y):\n"
                "    return regression.fit_least_squares(X, y, fit_intercept=False).w\n"),
            "the library's private _solve_upper for the back substitution (shortcut)": (
                "def least_squares_qr(X, y):\n"
                "    Q, R = np.linalg.qr(X)\n"
                "    return regression._solve_upper(R, Q.T @ y)\n"),
        },
        "right": {
            "np.linalg.solve on the triangular system": (
                "def least_squares_qr(X, y):\n"
                "    Q, R = np.linalg.qr(X)\n"
                "    return np.linalg.solve(R, Q.T @ y)\n"),
            "back substitution with an inner loop, no slices": (
                "def least_squares_qr(X, y):\n"
                "    Q, R = np.linalg.qr(X)\n"
                "    d = R.shape[0]\n"
                "    z = [float(sum(Q[i, j] * y[i] for i in range(len(y)))) for j in range(d)]\n"
                "    w = [0.0] * d\n"
                "    for j in reversed(range(d)):\n"
                "        s = z[j]\n"
                "        for k in range(j + 1, d):\n"
                "            s -= R[j, k] * w[k]\n"
                "        w[j] = s / R[j, j]\n"
                "    return np.array(w)\n"),
        },
    },
    "standard_errors": {
        "wrong": {
            "sigma_hat^2 = ||e||^2 / n, the MLE, in place of ||e||^2 / (n - d)": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    XtX_inv = np.linalg.inv(X.T @ X)\n"
                "    e = y - X @ (XtX_inv @ (X.T @ y))\n"
                "    return np.sqrt(e @ e / n * np.diag(XtX_inv))\n"),
            "n - d - 1, one more degree of freedom taken off for an intercept already counted in d": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    XtX_inv = np.linalg.inv(X.T @ X)\n"
                "    e = y - X @ (XtX_inv @ (X.T @ y))\n"
                "    return np.sqrt(e @ e / (n - d - 1) * np.diag(XtX_inv))\n"),
            "the variances returned, no square root": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    XtX_inv = np.linalg.inv(X.T @ X)\n"
                "    e = y - X @ (XtX_inv @ (X.T @ y))\n"
                "    return e @ e / (n - d) * np.diag(XtX_inv)\n"),
            "sigma_hat^2 forgotten: sqrt([(X^T X)^-1]_jj), the standard errors at sigma = 1": (
                "def standard_errors(X, y):\n"
                "    return np.sqrt(np.diag(np.linalg.inv(X.T @ X)))\n"),
            "the inverse of the diagonal of X^T X in place of the diagonal of the inverse": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    w = np.linalg.solve(X.T @ X, X.T @ y)\n"
                "    e = y - X @ w\n"
                "    return np.sqrt(e @ e / (n - d) / np.diag(X.T @ X))\n"),
            "the diagonal of X^T X itself, as if it were the covariance": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    w = np.linalg.solve(X.T @ X, X.T @ y)\n"
                "    e = y - X @ w\n"
                "    return np.sqrt(e @ e / (n - d) * np.diag(X.T @ X))\n"),
            "np.std of the residuals (around their mean, divided by n)": (
                "def standard_errors(X, y):\n"
                "    w = np.linalg.solve(X.T @ X, X.T @ y)\n"
                "    return np.std(y - X @ w) * np.sqrt(np.diag(np.linalg.inv(X.T @ X)))\n"),
            "sigma_hat divided by sqrt(n), the standard error of a mean, for every coefficient": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    w = np.linalg.solve(X.T @ X, X.T @ y)\n"
                "    e = y - X @ w\n"
                "    return np.full(d, np.sqrt(e @ e / (n - d) / n))\n"),
            "np.linalg.lstsq for the residuals (withheld)": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    w, rss, rank, s = np.linalg.lstsq(X, y, rcond=None)\n"
                "    return np.sqrt(rss[0] / (n - d) * np.diag(np.linalg.inv(X.T @ X)))\n"),
            "the library's standard_errors (shortcut)": (
                "def standard_errors(X, y):\n"
                "    return regression.standard_errors(X, y)\n"),
            "the library's least_squares_inference (shortcut)": (
                "def standard_errors(X, y):\n"
                "    return regression.least_squares_inference(X, y).se\n"),
        },
        "right": {
            "the inverse of X^T X by np.linalg.inv": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    XtX_inv = np.linalg.inv(X.T @ X)\n"
                "    e = y - X @ XtX_inv @ X.T @ y\n"
                "    return np.sqrt((e ** 2).sum() / (n - d) * np.diag(XtX_inv))\n"),
            "the thin SVD: [(X^T X)^-1]_jj = sum_k V_jk^2 / s_k^2": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    U, s, Vt = np.linalg.svd(X, full_matrices=False)\n"
                "    e = y - U @ (U.T @ y)\n"
                "    return np.sqrt(e @ e / (n - d) * ((Vt.T / s) ** 2).sum(axis=1))\n"),
            "column by column: 1 / ||(I - H_-j) X_j||^2 through the residual of X_j on the other columns": (
                "def standard_errors(X, y):\n"
                "    n, d = X.shape\n"
                "    e = y - X @ np.linalg.solve(X.T @ X, X.T @ y)\n"
                "    out = []\n"
                "    for j in range(d):\n"
                "        xj, others = X[:, j], np.delete(X, j, axis=1)\n"
                "        if d > 1:\n"
                "            xj = xj - others @ np.linalg.solve(others.T @ others, others.T @ xj)\n"
                "        out.append(np.sqrt(e @ e / (n - d) / (xj @ xj)))\n"
                "    return np.array(out)\n"),
        },
    },
    "ridge_with_intercept": {
        "wrong": {
            "the library's fit_ridge, as a released demo once showed (shortcut)": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    fit = regression.fit_ridge(X, y, lam)\n"
                "    return fit.w, fit.b\n"),
            "the library's ridge_path at one lambda (shortcut)": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    W, b = regression.ridge_path(X, y, [lam])\n"
                "    return W[0], float(b[0])\n"),
            "the intercept penalised: a column of ones, ridge on everything": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    Z = np.column_stack([np.ones(len(y)), X])\n"
                "    theta = np.linalg.solve(Z.T @ Z + lam * np.eye(Z.shape[1]), Z.T @ y)\n"
                "    return theta[1:], float(theta[0])\n"),
            "y centred but X not": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    x_mean, y_mean = X.mean(axis=0), y.mean()\n"
                "    w = np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ (y - y_mean))\n"
                "    return w, float(y_mean - x_mean @ w)\n"),
            "lam / 2 on the diagonal (the 1/2 of the penalty carried into the normal equations)": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    x_mean, y_mean = X.mean(axis=0), y.mean()\n"
                "    Xc = X - x_mean\n"
                "    w = np.linalg.solve(Xc.T @ Xc + lam / 2 * np.eye(X.shape[1]), Xc.T @ (y - y_mean))\n"
                "    return w, float(y_mean - x_mean @ w)\n"),
            "b = mean(y), the means of the features forgotten when un-centring": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    x_mean, y_mean = X.mean(axis=0), y.mean()\n"
                "    Xc = X - x_mean\n"
                "    w = np.linalg.solve(Xc.T @ Xc + lam * np.eye(X.shape[1]), Xc.T @ (y - y_mean))\n"
                "    return w, float(y_mean)\n"),
            "the features standardised before the penalty, then scaled back": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    x_mean, x_std, y_mean = X.mean(axis=0), X.std(axis=0), y.mean()\n"
                "    Xs = (X - x_mean) / x_std\n"
                "    v = np.linalg.solve(Xs.T @ Xs + lam * np.eye(X.shape[1]), Xs.T @ (y - y_mean))\n"
                "    w = v / x_std\n"
                "    return w, float(y_mean - x_mean @ w)\n"),
            "the augmented least-squares problem handed to np.linalg.lstsq (withheld)": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    x_mean, y_mean = X.mean(axis=0), y.mean()\n"
                "    A = np.vstack([X - x_mean, np.sqrt(lam) * np.eye(X.shape[1])])\n"
                "    w = np.linalg.lstsq(A, np.r_[y - y_mean, np.zeros(X.shape[1])], rcond=None)[0]\n"
                "    return w, float(y_mean - x_mean @ w)\n"),
        },
        "right": {
            "the n x n (dual) system: w = Xc^T (Xc Xc^T + lam I)^{-1} yc": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    mx, my = np.mean(X, axis=0), np.mean(y)\n"
                "    Xc, yc = X - mx, y - my\n"
                "    w = Xc.T @ np.linalg.solve(Xc @ Xc.T + lam * np.eye(len(y)), yc)\n"
                "    return w, float(my - w @ mx)\n"),
            "the SVD of the centred X, shrinking along each singular direction": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    mx, my = X.mean(axis=0), y.mean()\n"
                "    U, s, Vt = np.linalg.svd(X - mx, full_matrices=False)\n"
                "    w = Vt.T @ (s / (s**2 + lam) * (U.T @ (y - my)))\n"
                "    return w, float(my - mx @ w)\n"),
            "least squares on the augmented system, by QR": (
                "def ridge_with_intercept(X, y, lam):\n"
                "    n, d = X.shape\n"
                "    mx, my = X.mean(axis=0), y.mean()\n"
                "    Q, R = np.linalg.qr(np.vstack([X - mx, np.sqrt(lam) * np.eye(d)]))\n"
                "    w = np.linalg.solve(R, Q.T @ np.concatenate([y - my, np.zeros(d)]))\n"
                "    return w, float(my - mx @ w)\n"),
        },
    },
    "soft_threshold": {
        "wrong": {
            "hard thresholding: z kept where |z| > t": (
                "def soft_threshold(z, t):\n"
                "    return z * (np.abs(z) > t)\n"),
            "shrunk by t without stopping at 0": (
                "def soft_threshold(z, t):\n"
                "    return z - t * np.sign(z)\n"),
            "max(z - t, 0): the negative side set to 0": (
                "def soft_threshold(z, t):\n"
                "    return np.maximum(z - t, 0.0)\n"),
            "the sign lost: max(|z| - t, 0)": (
                "def soft_threshold(z, t):\n"
                "    return np.maximum(np.abs(z) - t, 0.0)\n"),
            "the sign as z / |z|, nan at z = 0": (
                "def soft_threshold(z, t):\n"
                "    with np.errstate(invalid='ignore', divide='ignore'):\n"
                "        return z / np.abs(z) * np.maximum(np.abs(z) - t, 0.0)\n"),
            "the library's soft_threshold (shortcut)": (
                "def soft_threshold(z, t):\n"
                "    return regression.soft_threshold(z, t)\n"),
        },
        "right": {
            "z minus z clipped to [-t, t]": (
                "def soft_threshold(z, t):\n"
                "    return z - np.clip(z, -t, t)\n"),
            "np.where on the three cases": (
                "def soft_threshold(z, t):\n"
                "    return np.where(z > t, z - t, np.where(z < -t, z + t, 0.0))\n"),
        },
    },
    "lasso_sweep": {
        "wrong": {
            "the library's private _sweeps_on_residual, one sweep (shortcut)": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    norms = (X * X).sum(axis=0)\n"
                "    order = [j for j in range(X.shape[1]) if norms[j] > 0]\n"
                "    new, _, _ = regression._sweeps_on_residual(X, y, np.array(w, dtype=float), lam, 0.0,\n"
                "                                               norms.tolist(), order, -np.inf, 1)\n"
                "    return new\n"),
            "the library's coordinate_descent_sweep (shortcut)": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    return regression.coordinate_descent_sweep(X, y, w, lam)\n"),
            "the library's fit_lasso stopped after one sweep (shortcut)": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    return regression.fit_lasso(X, y, lam, fit_intercept=False, max_sweeps=1, w0=w).w\n"),
            "no division by ||X_j||^2 (right only for unit-norm columns)": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    shrink = lambda z, t: np.sign(z) * max(abs(z) - t, 0.0)\n"
                "    w = np.array(w, dtype=float)\n"
                "    r = y - X @ w\n"
                "    for j in range(X.shape[1]):\n"
                "        norm2 = X[:, j] @ X[:, j]\n"
                "        if norm2 == 0:\n"
                "            continue\n"
                "        new = shrink(X[:, j] @ r + norm2 * w[j], lam)\n"
                "        r -= X[:, j] * (new - w[j])\n"
                "        w[j] = new\n"
                "    return w\n"),
            "every coordinate from the old residual (a Jacobi step, not cyclic)": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    shrink = lambda z, t: np.sign(z) * max(abs(z) - t, 0.0)\n"
                "    w = np.array(w, dtype=float)\n"
                "    r = y - X @ w\n"
                "    new = w.copy()\n"
                "    for j in range(X.shape[1]):\n"
                "        norm2 = X[:, j] @ X[:, j]\n"
                "        if norm2 == 0:\n"
                "            continue\n"
                "        new[j] = shrink(X[:, j] @ r + norm2 * w[j], lam) / norm2\n"
                "    return new\n"),
            "the full residual in place of r_j (the + ||X_j||^2 w_j term forgotten)": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    shrink = lambda z, t: np.sign(z) * max(abs(z) - t, 0.0)\n"
                "    w = np.array(w, dtype=float)\n"
                "    r = y - X @ w\n"
                "    for j in range(X.shape[1]):\n"
                "        norm2 = X[:, j] @ X[:, j]\n"
                "        if norm2 == 0:\n"
                "            continue\n"
                "        new = shrink(X[:, j] @ r, lam) / norm2\n"
                "        r -= X[:, j] * (new - w[j])\n"
                "        w[j] = new\n"
                "    return w\n"),
            "the threshold lam / 2 (the 1/2 of the squared error forgotten)": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    shrink = lambda z, t: np.sign(z) * max(abs(z) - t, 0.0)\n"
                "    w = np.array(w, dtype=float)\n"
                "    r = y - X @ w\n"
                "    for j in range(X.shape[1]):\n"
                "        norm2 = X[:, j] @ X[:, j]\n"
                "        if norm2 == 0:\n"
                "            continue\n"
                "        new = shrink(X[:, j] @ r + norm2 * w[j], lam / 2) / norm2\n"
                "        r -= X[:, j] * (new - w[j])\n"
                "        w[j] = new\n"
                "    return w\n"),
            "a column of zeros not skipped (0 / 0)": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    shrink = lambda z, t: np.sign(z) * max(abs(z) - t, 0.0)\n"
                "    w = np.array(w, dtype=float)\n"
                "    r = y - X @ w\n"
                "    for j in range(X.shape[1]):\n"
                "        norm2 = X[:, j] @ X[:, j]\n"
                "        with np.errstate(invalid='ignore', divide='ignore'):\n"
                "            new = shrink(X[:, j] @ r + norm2 * w[j], lam) / norm2\n"
                "        r -= X[:, j] * (new - w[j])\n"
                "        w[j] = new\n"
                "    return w\n"),
            "the given w changed in place (no copy)": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    shrink = lambda z, t: np.sign(z) * max(abs(z) - t, 0.0)\n"
                "    r = y - X @ w\n"
                "    for j in range(X.shape[1]):\n"
                "        norm2 = X[:, j] @ X[:, j]\n"
                "        if norm2 == 0:\n"
                "            continue\n"
                "        new = shrink(X[:, j] @ r + norm2 * w[j], lam) / norm2\n"
                "        r -= X[:, j] * (new - w[j])\n"
                "        w[j] = new\n"
                "    return w\n"),
            "the residual moved by the new coefficient, not by its change": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    shrink = lambda z, t: np.sign(z) * max(abs(z) - t, 0.0)\n"
                "    w = np.array(w, dtype=float)\n"
                "    r = y - X @ w\n"
                "    for j in range(X.shape[1]):\n"
                "        norm2 = X[:, j] @ X[:, j]\n"
                "        if norm2 == 0:\n"
                "            continue\n"
                "        w[j] = shrink(X[:, j] @ r + norm2 * w[j], lam) / norm2\n"
                "        r -= X[:, j] * w[j]\n"
                "    return w\n"),
            "the coordinates updated last to first": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    shrink = lambda z, t: np.sign(z) * max(abs(z) - t, 0.0)\n"
                "    w = np.array(w, dtype=float)\n"
                "    r = y - X @ w\n"
                "    for j in reversed(range(X.shape[1])):\n"
                "        norm2 = X[:, j] @ X[:, j]\n"
                "        if norm2 == 0:\n"
                "            continue\n"
                "        new = shrink(X[:, j] @ r + norm2 * w[j], lam) / norm2\n"
                "        r -= X[:, j] * (new - w[j])\n"
                "        w[j] = new\n"
                "    return w\n"),
        },
        "right": {
            "on the Gram matrix: X_j . r_j = c_j - (G w)_j + G_jj w_j": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    G, c = X.T @ X, X.T @ y\n"
                "    w = w.copy()\n"
                "    for j in range(len(w)):\n"
                "        if G[j, j] > 0:\n"
                "            rho = c[j] - G[j] @ w + G[j, j] * w[j]\n"
                "            w[j] = np.sign(rho) * max(abs(rho) - lam, 0.0) / G[j, j]\n"
                "    return w\n"),
            "the partial residual r_j formed for each coordinate, the threshold by cases": (
                "def lasso_sweep(X, y, w, lam):\n"
                "    new = [float(v) for v in w]\n"
                "    r = y - X @ np.array(new)\n"
                "    for j in range(X.shape[1]):\n"
                "        col = X[:, j]\n"
                "        sq = float(col @ col)\n"
                "        if sq == 0.0:\n"
                "            continue\n"
                "        r_j = r + col * new[j]\n"
                "        rho = float(col @ r_j)\n"
                "        if rho > lam:\n"
                "            wj = (rho - lam) / sq\n"
                "        elif rho < -lam:\n"
                "            wj = (rho + lam) / sq\n"
                "        else:\n"
                "            wj = 0.0\n"
                "        r = r_j - col * wj\n"
                "        new[j] = wj\n"
                "    return np.array(new)\n"),
        },
    },
}
