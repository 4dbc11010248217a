"""Lecture 09, logistic regression and nonparametric regression: wrong answers the judge must reject, right ones
it must accept."""

BANK = {
    "log_loss": {
        "wrong": {
            "log(1 + e^a) computed directly (overflows for large a)": (
                "def log_loss(a, y):\n"
                "    with np.errstate(over='ignore'):\n"
                "        return float(np.sum(np.log(1 + np.exp(a)) - y * a))\n"),
            "the scores clipped to +-500 before the exponential": (
                "def log_loss(a, y):\n"
                "    return float(np.sum(np.log1p(np.exp(np.clip(a, -500, 500))) - y * a))\n"),
            "the label term added, not subtracted": (
                "def log_loss(a, y):\n"
                "    return float(np.sum(np.maximum(a, 0) + np.log1p(np.exp(-np.abs(a))) + y * a))\n"),
            "the -1/+1 form log(1 + e^{-y a}) used with labels 0 and 1": (
                "def log_loss(a, y):\n"
                "    return float(np.sum(np.logaddexp(0.0, -y * a)))\n"),
            "the mean over the points instead of the sum": (
                "def log_loss(a, y):\n"
                "    return float(np.mean(np.maximum(a, 0) + np.log1p(np.exp(-np.abs(a))) - y * a))\n"),
            "log base 2": (
                "def log_loss(a, y):\n"
                "    return float(np.sum(np.logaddexp2(0.0, a / np.log(2)) - y * a / np.log(2)))\n"),
            "the library's log_loss (shortcut)": (
                "def log_loss(a, y):\n"
                "    return logistic.log_loss(np.array([0.0, 1.0]), np.column_stack([np.zeros(len(a)), a]), y)\n"),
            "the library's log_one_plus_exp (shortcut)": (
                "def log_loss(a, y):\n"
                "    return float(np.sum(logistic.log_one_plus_exp(a) - y * a))\n"),
        },
        "right": {
            "np.logaddexp(0, a)": (
                "def log_loss(a, y):\n"
                "    return float(np.logaddexp(0.0, a).sum() - np.dot(y, a))\n"),
            "a loop over the points, a branch on the sign of a": (
                "import math\n"
                "\n"
                "def log_loss(a, y):\n"
                "    total = 0.0\n"
                "    for a_i, y_i in zip(a, y):\n"
                "        if a_i > 0:\n"
                "            total += a_i + math.log1p(math.exp(-a_i)) - y_i * a_i\n"
                "        else:\n"
                "            total += math.log1p(math.exp(a_i)) - y_i * a_i\n"
                "    return total\n"),
            "the -log p form, by labels: -log sigm(a) for y = 1 and -log sigm(-a) for y = 0": (
                "def log_loss(a, y):\n"
                "    s = np.where(y == 1, a, -a)                 # the score of the observed label\n"
                "    return float(np.sum(np.maximum(-s, 0) + np.log1p(np.exp(-np.abs(s)))))\n"),
        },
    },
    "log_loss_gradient": {
        "wrong": {
            "the sign flipped: Z^T (y - p)": (
                "def log_loss_gradient(theta, Z, y):\n"
                "    return Z.T @ (y - logistic.sigmoid(Z @ theta))\n"),
            "the sigmoid forgotten: Z^T (Z theta - y), the gradient of least squares": (
                "def log_loss_gradient(theta, Z, y):\n"
                "    return Z.T @ (Z @ theta - y)\n"),
            "the gradient of the mean loss (divided by n)": (
                "def log_loss_gradient(theta, Z, y):\n"
                "    return Z.T @ (logistic.sigmoid(Z @ theta) - y) / len(y)\n"),
            "sigm(-Z theta) for p": (
                "def log_loss_gradient(theta, Z, y):\n"
                "    return Z.T @ (logistic.sigmoid(-(Z @ theta)) - y)\n"),
            "the bias coordinate left out (set to 0)": (
                "def log_loss_gradient(theta, Z, y):\n"
                "    g = Z.T @ (logistic.sigmoid(Z @ theta) - y)\n"
                "    g[0] = 0.0\n"
                "    return g\n"),
            "the library's gradient (shortcut)": (
                "def log_loss_gradient(theta, Z, y):\n"
                "    return logistic.gradient(theta, Z, y)\n"),
        },
        "right": {
            "a loop over the rows, the sigmoid by tanh": (
                "def log_loss_gradient(theta, Z, y):\n"
                "    g = np.zeros(Z.shape[1])\n"
                "    for z_i, y_i in zip(Z, y):\n"
                "        p_i = 0.5 * (1.0 + np.tanh(0.5 * (z_i @ theta)))\n"
                "        g += (p_i - y_i) * z_i\n"
                "    return g\n"),
            "the residuals weighting the rows, summed down the columns": (
                "def log_loss_gradient(theta, Z, y):\n"
                "    r = logistic.sigmoid(Z @ theta) - y\n"
                "    return (Z * r[:, None]).sum(axis=0)\n"),
        },
    },
    "newton_step": {
        "wrong": {
            "the step added: theta + H^{-1} g": (
                "def newton_step(theta, Z, y):\n"
                "    p = logistic.sigmoid(Z @ theta)\n"
                "    H = Z.T @ (Z * (p * (1 - p))[:, None])\n"
                "    return theta + np.linalg.solve(H, Z.T @ (p - y))\n"),
            "S built as an n x n diagonal matrix": (
                "def newton_step(theta, Z, y):\n"
                "    p = logistic.sigmoid(Z @ theta)\n"
                "    S = np.diag(p * (1 - p))\n"
                "    return theta - np.linalg.solve(Z.T @ S @ Z, Z.T @ (p - y))\n"),
            "a gradient step, the Hessian left out": (
                "def newton_step(theta, Z, y):\n"
                "    return theta - Z.T @ (logistic.sigmoid(Z @ theta) - y)\n"),
            "the weights p instead of p (1 - p)": (
                "def newton_step(theta, Z, y):\n"
                "    p = logistic.sigmoid(Z @ theta)\n"
                "    H = Z.T @ (Z * p[:, None])\n"
                "    return theta - np.linalg.solve(H, Z.T @ (p - y))\n"),
            "the weights applied to both sides without a square root (squared weights)": (
                "def newton_step(theta, Z, y):\n"
                "    p = logistic.sigmoid(Z @ theta)\n"
                "    A = Z * (p * (1 - p))[:, None]\n"
                "    return theta - np.linalg.solve(A.T @ A, Z.T @ (p - y))\n"),
            "only the diagonal of the Hessian": (
                "def newton_step(theta, Z, y):\n"
                "    p = logistic.sigmoid(Z @ theta)\n"
                "    h = (Z * Z * (p * (1 - p))[:, None]).sum(axis=0)\n"
                "    return theta - Z.T @ (p - y) / h\n"),
            "the library's newton_step (shortcut)": (
                "def newton_step(theta, Z, y):\n"
                "    return logistic.newton_step(theta, Z, y)\n"),
            "the library's hessian (shortcut)": (
                "def newton_step(theta, Z, y):\n"
                "    p = logistic.sigmoid(Z @ theta)\n"
                "    return theta - np.linalg.solve(logistic.hessian(theta, Z, y), Z.T @ (p - y))\n"),
        },
        "right": {
            "the Hessian by einsum, the step by a Cholesky factor and two triangular solves": (
                "def newton_step(theta, Z, y):\n"
                "    p = logistic.sigmoid(Z @ theta)\n"
                "    H = np.einsum('ni,n,nj->ij', Z, p * (1 - p), Z)\n"
                "    L = np.linalg.cholesky(H)\n"
                "    step = np.linalg.solve(L.T, np.linalg.solve(L, Z.T @ (p - y)))\n"
                "    return theta - step\n"),
            "A^T A with A = sqrt(p (1 - p)) Z, the new theta solved for directly (IRLS)": (
                "def newton_step(theta, Z, y):\n"
                "    a = Z @ theta\n"
                "    p = logistic.sigmoid(a)\n"
                "    s = p * (1 - p)\n"
                "    A = Z * np.sqrt(s)[:, None]\n"
                "    return np.linalg.solve(A.T @ A, Z.T @ (s * a - (p - y)))\n"),
        },
    },
    "softmax_log_loss_gradient": {
        "wrong": {
            "the sign flipped: (1/n) Z^T (Y - P), the log-likelihood's gradient": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    A = Z @ Theta\n"
                "    E = np.exp(A - A.max(axis=1, keepdims=True))\n"
                "    P = E / E.sum(axis=1, keepdims=True)\n"
                "    return Z.T @ (np.eye(Theta.shape[1])[y] - P) / len(y)\n"),
            "no shift: the softmax as written (overflows for large scores)": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    with np.errstate(over='ignore', invalid='ignore'):\n"
                "        E = np.exp(Z @ Theta)\n"
                "        P = E / E.sum(axis=1, keepdims=True)\n"
                "    return Z.T @ (P - np.eye(Theta.shape[1])[y]) / len(y)\n"),
            "one maximum for the whole array, not each row's": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    A = Z @ Theta\n"
                "    E = np.exp(A - A.max())\n"
                "    with np.errstate(invalid='ignore'):\n"
                "        P = E / E.sum(axis=1, keepdims=True)\n"
                "    return Z.T @ (P - np.eye(Theta.shape[1])[y]) / len(y)\n"),
            "the scores clipped to +-700 before the exponential": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    E = np.exp(np.clip(Z @ Theta, -700, 700))\n"
                "    P = E / E.sum(axis=1, keepdims=True)\n"
                "    return Z.T @ (P - np.eye(Theta.shape[1])[y]) / len(y)\n"),
            "the 1/n forgotten: the gradient of the summed loss": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    A = Z @ Theta\n"
                "    E = np.exp(A - A.max(axis=1, keepdims=True))\n"
                "    P = E / E.sum(axis=1, keepdims=True)\n"
                "    return Z.T @ (P - np.eye(Theta.shape[1])[y])\n"),
            "transposed: (P - Y)^T Z / n, one row per class": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    A = Z @ Theta\n"
                "    E = np.exp(A - A.max(axis=1, keepdims=True))\n"
                "    P = E / E.sum(axis=1, keepdims=True)\n"
                "    return (P - np.eye(Theta.shape[1])[y]).T @ Z / len(y)\n"),
            "the softmax over the points (axis 0), not over the classes": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    A = Z @ Theta\n"
                "    E = np.exp(A - A.max(axis=0, keepdims=True))\n"
                "    P = E / E.sum(axis=0, keepdims=True)\n"
                "    return Z.T @ (P - np.eye(Theta.shape[1])[y]) / len(y)\n"),
            "the labels read as 1, ..., K (one-hot of y - 1)": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    A = Z @ Theta\n"
                "    E = np.exp(A - A.max(axis=1, keepdims=True))\n"
                "    P = E / E.sum(axis=1, keepdims=True)\n"
                "    return Z.T @ (P - np.eye(Theta.shape[1])[y - 1]) / len(y)\n"),
            "the library's softmax_gradient (shortcut)": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    return logistic.softmax_gradient(Theta, Z, y)\n"),
            "the library's softmax (shortcut)": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    return Z.T @ (logistic.softmax(Z @ Theta) - np.eye(Theta.shape[1])[y]) / len(y)\n"),
        },
        "right": {
            "a loop over the points, with math": (
                "import math\n"
                "\n"
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    n, K = len(y), Theta.shape[1]\n"
                "    G = np.zeros(Theta.shape)\n"
                "    for z_i, y_i in zip(Z, y):\n"
                "        a = [float(z_i @ Theta[:, k]) for k in range(K)]\n"
                "        m = max(a)\n"
                "        e = [math.exp(a_k - m) for a_k in a]\n"
                "        s = sum(e)\n"
                "        for k in range(K):\n"
                "            G[:, k] += (e[k] / s - (1.0 if k == y_i else 0.0)) * z_i\n"
                "    return G / n\n"),
            "P from the log-probabilities A - LSE, the gradient by einsum": (
                "def softmax_log_loss_gradient(Theta, Z, y):\n"
                "    A = Z @ Theta\n"
                "    m = A.max(axis=1, keepdims=True)\n"
                "    log_P = A - (m + np.log(np.exp(A - m).sum(axis=1, keepdims=True)))\n"
                "    Y = (y[:, None] == np.arange(Theta.shape[1])).astype(float)\n"
                "    return np.einsum('ij,ik->jk', Z, np.exp(log_P) - Y) / Z.shape[0]\n"),
        },
    },
    "nadaraya_watson_1d": {
        "wrong": {
            "no 1/2 in the exponent, e^{-u^2} (a bandwidth h / sqrt 2)": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u2 = ((x_query[:, None] - x_train[None, :]) / h) ** 2\n"
                "    K = np.exp(-(u2 - u2.min(axis=1, keepdims=True)))\n"
                "    return (K @ y_train) / K.sum(axis=1)\n"),
            "h taken as the variance, e^{-d^2 / (2h)}": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    d2 = (x_query[:, None] - x_train[None, :]) ** 2 / h\n"
                "    K = np.exp(-0.5 * (d2 - d2.min(axis=1, keepdims=True)))\n"
                "    return (K @ y_train) / K.sum(axis=1)\n"),
            "the bandwidth applied twice, e^{-d^2 / (2h^4)}": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u2 = ((x_query[:, None] - x_train[None, :]) / h) ** 2 / h ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min(axis=1, keepdims=True)))\n"
                "    return (K @ y_train) / K.sum(axis=1)\n"),
            "each row's smallest u subtracted before squaring, e^{-(u - u_min)^2 / 2}": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u = np.abs(x_query[:, None] - x_train[None, :]) / h\n"
                "    K = np.exp(-0.5 * (u - u.min(axis=1, keepdims=True)) ** 2)\n"
                "    return (K @ y_train) / K.sum(axis=1)\n"),
            "each column's smallest u^2 subtracted (axis 0), not each row's": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u2 = ((x_query[:, None] - x_train[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min(axis=0, keepdims=True)))\n"
                "    return (K @ y_train) / K.sum(axis=1)\n"),
            "the smallest u^2 of the whole array subtracted, not each row's": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u2 = ((x_query[:, None] - x_train[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min()))\n"
                "    with np.errstate(invalid='ignore'):\n"
                "        return (K @ y_train) / K.sum(axis=1)\n"),
            "the nearest target where every weight underflowed, the direct ratio elsewhere": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u2 = ((x_query[:, None] - x_train[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * u2)\n"
                "    total = K.sum(axis=1)\n"
                "    nearest = y_train[np.argmin(u2, axis=1)]\n"
                "    with np.errstate(invalid='ignore'):\n"
                "        return np.where(total > 0, (K @ y_train) / total, nearest)\n"),
            "no care for underflow: the direct ratio, 0 / 0 read as 0": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    K = np.exp(-0.5 * ((x_query[:, None] - x_train[None, :]) / h) ** 2)\n"
                "    with np.errstate(invalid='ignore'):\n"
                "        return np.nan_to_num((K @ y_train) / K.sum(axis=1))\n"),
            "the row's largest u^2 subtracted instead of its smallest (overflows)": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u2 = ((x_query[:, None] - x_train[None, :]) / h) ** 2\n"
                "    with np.errstate(over='ignore', invalid='ignore'):\n"
                "        K = np.exp(-0.5 * (u2 - u2.max(axis=1, keepdims=True)))\n"
                "        return (K @ y_train) / K.sum(axis=1)\n"),
            "the weights floored at 1e-300 so that no row sums to 0": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    K = np.maximum(np.exp(-0.5 * ((x_query[:, None] - x_train[None, :]) / h) ** 2), 1e-300)\n"
                "    return (K @ y_train) / K.sum(axis=1)\n"),
            "the kernel density's normalisation, sum K y / (n h sqrt(2 pi)), not the ratio": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u2 = ((x_query[:, None] - x_train[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * u2) / (h * np.sqrt(2 * np.pi))\n"
                "    return (K @ y_train) / len(x_train)\n"),
            "squared distances by the expansion q^2 - 2 q x + x^2 (cancellation far from 0)": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    d2 = x_query[:, None] ** 2 - 2 * np.outer(x_query, x_train) + x_train[None, :] ** 2\n"
                "    u2 = np.maximum(d2, 0.0) / h ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min(axis=1, keepdims=True)))\n"
                "    return (K @ y_train) / K.sum(axis=1)\n"),
            "extended precision (np.longdouble) to put off the underflow, no shift": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u2 = ((x_query[:, None] - x_train[None, :]).astype(np.longdouble) / h) ** 2\n"
                "    K = np.exp(-0.5 * u2)\n"
                "    with np.errstate(invalid='ignore'):\n"
                "        return ((K @ y_train.astype(np.longdouble)) / K.sum(axis=1)).astype(float)\n"),
            "the library's nadaraya_watson (shortcut)": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    return smoothing.nadaraya_watson(x_train[:, None], y_train, x_query[:, None], h)\n"),
            "the library's nadaraya_watson_weights (shortcut)": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    return smoothing.nadaraya_watson_weights(x_train[:, None], x_query[:, None], h) @ y_train\n"),
        },
        "right": {
            "the nearest point found by argmin, (u - u_min)(u + u_min) for the shift": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u = np.abs(x_query[:, None] - x_train[None, :]) / h\n"
                "    u_min = np.take_along_axis(u, np.argmin(u, axis=1)[:, None], axis=1)\n"
                "    W = np.exp(-0.5 * (u - u_min) * (u + u_min))\n"
                "    W /= W.sum(axis=1, keepdims=True)\n"
                "    return W @ y_train\n"),
            "log-weights shifted by their row maximum (a softmax), h^2 divided last": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    logw = -np.subtract.outer(x_query, x_train) ** 2 / (2 * h * h)\n"
                "    logw = logw - logw.max(axis=1)[:, None]\n"
                "    w = np.exp(logw)\n"
                "    return np.einsum('qi,i->q', w, y_train) / np.einsum('qi->q', w)\n"),
            "the Gaussian density's constant kept: it cancels in the ratio": (
                "def nadaraya_watson_1d(x_train, y_train, x_query, h):\n"
                "    u2 = (x_query[:, None] / h - x_train[None, :] / h) ** 2\n"
                "    K = np.exp(-u2 / 2 + u2.min(axis=1, keepdims=True) / 2) / (np.sqrt(2 * np.pi) * h)\n"
                "    return (K * y_train).sum(axis=1) / K.sum(axis=1)\n"),
        },
    },
    "loo_error_1d": {
        "wrong": {
            "the training error: no leave-one-out correction": (
                "def loo_error_1d(x, y, h):\n"
                "    u2 = ((x[:, None] - x[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min(axis=1, keepdims=True)))\n"
                "    H = K / K.sum(axis=1, keepdims=True)\n"
                "    return float(np.mean((y - H @ y) ** 2))\n"),
            "the diagonal of H zeroed without renormalising the rest": (
                "def loo_error_1d(x, y, h):\n"
                "    u2 = ((x[:, None] - x[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min(axis=1, keepdims=True)))\n"
                "    H = K / K.sum(axis=1, keepdims=True)\n"
                "    np.fill_diagonal(H, 0.0)\n"
                "    return float(np.mean((y - H @ y) ** 2))\n"),
            "the squared residual divided by 1 - H_ii once, not by its square": (
                "def loo_error_1d(x, y, h):\n"
                "    u2 = ((x[:, None] - x[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min(axis=1, keepdims=True)))\n"
                "    H = K / K.sum(axis=1, keepdims=True)\n"
                "    return float(np.mean((y - H @ y) ** 2 / (1 - np.diag(H))))\n"),
            "generalised cross-validation, 1 - tr(H) / n for every point": (
                "def loo_error_1d(x, y, h):\n"
                "    u2 = ((x[:, None] - x[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min(axis=1, keepdims=True)))\n"
                "    H = K / K.sum(axis=1, keepdims=True)\n"
                "    return float(np.mean((y - H @ y) ** 2) / (1 - np.trace(H) / len(y)) ** 2)\n"),
            "the weights normalised down the columns (axis 0), not along the rows": (
                "def loo_error_1d(x, y, h):\n"
                "    u2 = ((x[:, None] - x[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * u2)\n"
                "    H = K / K.sum(axis=0, keepdims=True)\n"
                "    return float(np.mean(((y - H @ y) / (1 - np.diag(H))) ** 2))\n"),
            "the sum of the squared residuals, not their mean": (
                "def loo_error_1d(x, y, h):\n"
                "    u2 = ((x[:, None] - x[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min(axis=1, keepdims=True)))\n"
                "    H = K / K.sum(axis=1, keepdims=True)\n"
                "    return float(np.sum(((y - H @ y) / (1 - np.diag(H))) ** 2))\n"),
            "the library's loo_error (shortcut)": (
                "def loo_error_1d(x, y, h):\n"
                "    return smoothing.loo_error(x[:, None], y, h)\n"),
            "the library's loo_residuals on its own weights (shortcut)": (
                "def loo_error_1d(x, y, h):\n"
                "    u2 = ((x[:, None] - x[None, :]) / h) ** 2\n"
                "    K = np.exp(-0.5 * (u2 - u2.min(axis=1, keepdims=True)))\n"
                "    return float(np.mean(smoothing.loo_residuals(K / K.sum(axis=1, keepdims=True), y) ** 2))\n"),
        },
        "right": {
            "n refits, each without one point": (
                "def loo_error_1d(x, y, h):\n"
                "    n = len(x)\n"
                "    errors = []\n"
                "    for i in range(n):\n"
                "        keep = np.arange(n) != i\n"
                "        u2 = ((x[i] - x[keep]) / h) ** 2\n"
                "        w = np.exp(-0.5 * (u2 - u2.min()))\n"
                "        errors.append((y[i] - w @ y[keep] / w.sum()) ** 2)\n"
                "    return float(np.mean(errors))\n"),
            "the diagonal zeroed and each row renormalised over the others": (
                "def loo_error_1d(x, y, h):\n"
                "    K = np.exp(-0.5 * np.subtract.outer(x, x) ** 2 / h ** 2)\n"
                "    np.fill_diagonal(K, 0.0)\n"
                "    prediction = (K @ y) / K.sum(axis=1)\n"
                "    return float(((y - prediction) ** 2).mean())\n"),
        },
    },
}
