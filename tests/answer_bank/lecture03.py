"""Lecture 03, maximum likelihood: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "gaussian_log_likelihood": {
        "wrong": {
            "sigma2 taken as the standard deviation": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    n = len(x)\n"
                "    s = sigma2 ** 2\n"
                "    return float(-0.5 * n * np.log(2 * np.pi * s) - np.sum((x - mu) ** 2) / (2 * s))\n"),
            "the log of the product of the densities": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    densities = np.exp(-(x - mu) ** 2 / (2 * sigma2)) / np.sqrt(2 * np.pi * sigma2)\n"
                "    return float(np.log(np.prod(densities)))\n"),
            "the 1/2 of the log term forgotten (the square root of 2 pi sigma2)": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    n = len(x)\n"
                "    return float(-n * np.log(2 * np.pi * sigma2) - np.sum((x - mu) ** 2) / (2 * sigma2))\n"),
            "dividing the squares by sigma2, not 2 sigma2": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    n = len(x)\n"
                "    return float(-0.5 * n * np.log(2 * np.pi * sigma2) - np.sum((x - mu) ** 2) / sigma2)\n"),
            "the mean log-density, not the sum": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    return float(np.mean(-0.5 * np.log(2 * np.pi * sigma2) - (x - mu) ** 2 / (2 * sigma2)))\n"),
            "the log taken only once, not n times": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    return float(-0.5 * np.log(2 * np.pi * sigma2) - np.sum((x - mu) ** 2) / (2 * sigma2))\n"),
            "log base 10": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    n = len(x)\n"
                "    squares = np.sum((x - mu) ** 2) / (2 * sigma2)\n"
                "    return float(-0.5 * n * np.log10(2 * np.pi * sigma2) - squares / np.log(10))\n"),
            "computed in single precision": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    x32 = x.astype(np.float32)\n"
                "    n = len(x)\n"
                "    squares = np.sum((x32 - np.float32(mu)) ** 2) / np.float32(2 * sigma2)\n"
                "    return float(-0.5 * n * np.log(np.float32(2 * np.pi * sigma2)) - squares)\n"),
            "x centred in place": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    x -= mu\n"
                "    return float(-0.5 * len(x) * np.log(2 * np.pi * sigma2) - np.sum(x ** 2) / (2 * sigma2))\n"),
            "the library's gaussian_log_likelihood": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    return float(mle.gaussian_log_likelihood(mu, sigma2, x))\n"),
            "the library's multivariate_gaussian_log_likelihood in one dimension": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    return mle.multivariate_gaussian_log_likelihood(np.array([mu]), np.array([[sigma2]]), x[:, None])\n"),
            "the library's linear_gaussian_log_likelihood with a constant model": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    return mle.linear_gaussian_log_likelihood(np.array([mu, 0.0]), sigma2, np.zeros((len(x), 1)), x)\n"),
            "SciPy's norm.logpdf": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    from scipy.stats import norm\n"
                "    return float(np.sum(norm.logpdf(x, loc=mu, scale=np.sqrt(sigma2))))\n"),
        },
        "right": {
            "a loop of log-densities with the math module": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    import math\n"
                "    total = 0.0\n"
                "    for value in x:\n"
                "        total += -0.5 * math.log(2 * math.pi * sigma2) - (float(value) - mu) ** 2 / (2 * sigma2)\n"
                "    return total\n"),
            "through the standard deviation and a dot product": (
                "def gaussian_log_likelihood(mu, sigma2, x):\n"
                "    sigma = np.sqrt(sigma2)\n"
                "    z = (x - mu) / sigma\n"
                "    return float(-len(x) * (np.log(sigma) + 0.5 * np.log(2 * np.pi)) - 0.5 * (z @ z))\n"),
        },
    },
    "categorical_mle": {
        "wrong": {
            "np.unique: the categories that never occur are left out": (
                "def categorical_mle(x, K):\n"
                "    values, counts = np.unique(x, return_counts=True)\n"
                "    return counts / len(x)\n"),
            "np.bincount without minlength": (
                "def categorical_mle(x, K):\n"
                "    return np.bincount(x) / len(x)\n"),
            "add-one (Laplace) smoothing": (
                "def categorical_mle(x, K):\n"
                "    return (np.bincount(x, minlength=K) + 1) / (len(x) + K)\n"),
            "the counts, not divided by n": (
                "def categorical_mle(x, K):\n"
                "    return np.bincount(x, minlength=K).astype(float)\n"),
            "divided by K instead of n": (
                "def categorical_mle(x, K):\n"
                "    return np.bincount(x, minlength=K) / K\n"),
            "np.histogram with K bins over the range of the data": (
                "def categorical_mle(x, K):\n"
                "    counts, _ = np.histogram(x, bins=K)\n"
                "    return counts / len(x)\n"),
            "x sorted in place to count runs": (
                "def categorical_mle(x, K):\n"
                "    x.sort()\n"
                "    p = np.zeros(K)\n"
                "    for j in range(K):\n"
                "        p[j] = np.searchsorted(x, j, side='right') - np.searchsorted(x, j, side='left')\n"
                "    return p / len(x)\n"),
            "the library's categorical_mle": (
                "def categorical_mle(x, K):\n"
                "    return mle.categorical_mle(x, n_categories=K)\n"),
        },
        "right": {
            "a loop counting each category": (
                "def categorical_mle(x, K):\n"
                "    counts = [0] * K\n"
                "    for value in x:\n"
                "        counts[int(value)] += 1\n"
                "    return np.array(counts, dtype=float) / len(x)\n"),
            "comparing x with every category at once": (
                "def categorical_mle(x, K):\n"
                "    return np.mean(x[:, None] == np.arange(K)[None, :], axis=0)\n"),
            "np.histogram with one bin per category, on [0, K]": (
                "def categorical_mle(x, K):\n"
                "    counts, _ = np.histogram(x, bins=K, range=(0, K))\n"
                "    return counts / counts.sum()\n"),
        },
    },
    "gaussian_mle": {
        "wrong": {
            "the variance with n - 1": (
                "def gaussian_mle(x):\n"
                "    return float(np.mean(x)), float(np.var(x, ddof=1))\n"),
            "the standard deviation in place of the variance": (
                "def gaussian_mle(x):\n"
                "    return float(np.mean(x)), float(np.std(x))\n"),
            "the squares not centred (the variance around 0)": (
                "def gaussian_mle(x):\n"
                "    return float(np.mean(x)), float(np.mean(x ** 2))\n"),
            "the pair in the wrong order": (
                "def gaussian_mle(x):\n"
                "    return float(np.var(x)), float(np.mean(x))\n"),
            "the median as the mean": (
                "def gaussian_mle(x):\n"
                "    m = np.median(x)\n"
                "    return float(m), float(np.mean((x - m) ** 2))\n"),
            "x centred in place": (
                "def gaussian_mle(x):\n"
                "    mu = float(np.mean(x))\n"
                "    x -= mu\n"
                "    return mu, float(np.mean(x ** 2))\n"),
            "the library's gaussian_mle": (
                "def gaussian_mle(x):\n"
                "    fit = mle.gaussian_mle(x)\n"
                "    return fit.mu, fit.sigma2\n"),
        },
        "right": {
            "np.var with its default ddof = 0": (
                "def gaussian_mle(x):\n"
                "    return float(np.mean(x)), float(np.var(x))\n"),
            "sums in a loop, two passes": (
                "def gaussian_mle(x):\n"
                "    n = len(x)\n"
                "    mu = sum(float(v) for v in x) / n\n"
                "    return mu, sum((float(v) - mu) ** 2 for v in x) / n\n"),
        },
    },
    "multivariate_gaussian_mle": {
        "wrong": {
            "np.cov's default, 1/(n - 1)": (
                "def multivariate_gaussian_mle(X):\n"
                "    return X.mean(axis=0), np.cov(X, rowvar=False).reshape(X.shape[1], X.shape[1])\n"),
            "np.cov without rowvar=False (rows taken as variables)": (
                "def multivariate_gaussian_mle(X):\n"
                "    return X.mean(axis=0), np.cov(X, bias=True)\n"),
            "np.cov with bias=True, which is 0-dimensional when d = 1": (
                "def multivariate_gaussian_mle(X):\n"
                "    return X.mean(axis=0), np.cov(X, rowvar=False, bias=True)\n"),
            "the data not centred": (
                "def multivariate_gaussian_mle(X):\n"
                "    return X.mean(axis=0), X.T @ X / X.shape[0]\n"),
            "only the variances, on the diagonal": (
                "def multivariate_gaussian_mle(X):\n"
                "    return X.mean(axis=0), np.diag(X.var(axis=0))\n"),
            "the mean of each row (axis 1)": (
                "def multivariate_gaussian_mle(X):\n"
                "    mu = X.mean(axis=1)\n"
                "    R = X - mu[:, None]\n"
                "    return mu, R.T @ R / X.shape[0]\n"),
            "X centred in place": (
                "def multivariate_gaussian_mle(X):\n"
                "    mu = X.mean(axis=0)\n"
                "    X -= mu\n"
                "    return mu, X.T @ X / X.shape[0]\n"),
            "the library's multivariate_gaussian_mle": (
                "def multivariate_gaussian_mle(X):\n"
                "    fit = mle.multivariate_gaussian_mle(X)\n"
                "    return fit.mu, fit.Sigma\n"),
        },
        "right": {
            "a sum of outer products, one per row": (
                "def multivariate_gaussian_mle(X):\n"
                "    n, d = X.shape\n"
                "    mu = np.zeros(d)\n"
                "    for x in X:\n"
                "        mu = mu + x / n\n"
                "    Sigma = np.zeros((d, d))\n"
                "    for x in X:\n"
                "        Sigma = Sigma + np.outer(x - mu, x - mu) / n\n"
                "    return mu, Sigma\n"),
            "the scatter matrix of the centred rows by einsum": (
                "def multivariate_gaussian_mle(X):\n"
                "    mu = np.mean(X, axis=0)\n"
                "    R = X - mu\n"
                "    return mu, np.einsum('ni,nj->ij', R, R) / len(X)\n"),
            "np.cov with rowvar=False and bias=True, reshaped to (d, d)": (
                "def multivariate_gaussian_mle(X):\n"
                "    d = X.shape[1]\n"
                "    return X.mean(axis=0), np.cov(X, rowvar=False, bias=True).reshape(d, d)\n"),
        },
    },
    "fit_class_gaussians": {
        "wrong": {
            "the covariances around the overall mean": (
                "def fit_class_gaussians(X, y, K):\n"
                "    center = X.mean(axis=0)\n"
                "    priors = np.array([np.mean(y == k) for k in range(K)])\n"
                "    means = np.array([X[y == k].mean(axis=0) for k in range(K)])\n"
                "    covs = np.array([(X[y == k] - center).T @ (X[y == k] - center) / np.sum(y == k) for k in range(K)])\n"
                "    return priors, means, covs\n"),
            "one pooled covariance for every class": (
                "def fit_class_gaussians(X, y, K):\n"
                "    priors = np.array([np.mean(y == k) for k in range(K)])\n"
                "    means = np.array([X[y == k].mean(axis=0) for k in range(K)])\n"
                "    R = X - means[y]\n"
                "    pooled = R.T @ R / len(y)\n"
                "    return priors, means, np.array([pooled] * K)\n"),
            "equal priors 1/K": (
                "def fit_class_gaussians(X, y, K):\n"
                "    means = np.array([X[y == k].mean(axis=0) for k in range(K)])\n"
                "    covs = np.array([(X[y == k] - means[k]).T @ (X[y == k] - means[k]) / np.sum(y == k) for k in range(K)])\n"
                "    return np.full(K, 1 / K), means, covs\n"),
            "each class's covariance divided by n, not by n_k": (
                "def fit_class_gaussians(X, y, K):\n"
                "    priors = np.array([np.mean(y == k) for k in range(K)])\n"
                "    means = np.array([X[y == k].mean(axis=0) for k in range(K)])\n"
                "    covs = np.array([(X[y == k] - means[k]).T @ (X[y == k] - means[k]) / len(y) for k in range(K)])\n"
                "    return priors, means, covs\n"),
            "each class's covariance with 1/(n_k - 1)": (
                "def fit_class_gaussians(X, y, K):\n"
                "    priors = np.array([np.mean(y == k) for k in range(K)])\n"
                "    means = np.array([X[y == k].mean(axis=0) for k in range(K)])\n"
                "    covs = np.array([(X[y == k] - means[k]).T @ (X[y == k] - means[k]) / (np.sum(y == k) - 1)\n"
                "                     for k in range(K)])\n"
                "    return priors, means, covs\n"),
            "np.cov per class with bias=True, 0-dimensional when d = 1": (
                "def fit_class_gaussians(X, y, K):\n"
                "    priors = np.array([np.mean(y == k) for k in range(K)])\n"
                "    means = np.array([X[y == k].mean(axis=0) for k in range(K)])\n"
                "    covs = np.array([np.cov(X[y == k], rowvar=False, bias=True) for k in range(K)])\n"
                "    return priors, means, covs\n"),
            "the classes in the order they first occur": (
                "def fit_class_gaussians(X, y, K):\n"
                "    classes = list(dict.fromkeys(int(v) for v in y))\n"
                "    priors = np.array([np.mean(y == k) for k in classes])\n"
                "    means = np.array([X[y == k].mean(axis=0) for k in classes])\n"
                "    covs = np.array([(X[y == k] - means[i]).T @ (X[y == k] - means[i]) / np.sum(y == k)\n"
                "                     for i, k in enumerate(classes)])\n"
                "    return priors, means, covs\n"),
            "X and y sorted by class in place": (
                "def fit_class_gaussians(X, y, K):\n"
                "    order = np.argsort(y, kind='stable')\n"
                "    X[:] = X[order]\n"
                "    y[:] = y[order]\n"
                "    starts = np.searchsorted(y, np.arange(K + 1))\n"
                "    priors = np.diff(starts) / len(y)\n"
                "    means = np.array([X[starts[k]:starts[k + 1]].mean(axis=0) for k in range(K)])\n"
                "    covs = np.array([(X[starts[k]:starts[k + 1]] - means[k]).T @ (X[starts[k]:starts[k + 1]] - means[k])\n"
                "                     / (starts[k + 1] - starts[k]) for k in range(K)])\n"
                "    return priors, means, covs\n"),
            "the library's fit_gaussian_classes": (
                "def fit_class_gaussians(X, y, K):\n"
                "    model = mle.fit_gaussian_classes(X, y)\n"
                "    return model.priors, model.means, model.covariances\n"),
        },
        "right": {
            "one-hot weights: counts, weighted means and weighted scatter matrices": (
                "def fit_class_gaussians(X, y, K):\n"
                "    Y = (y[:, None] == np.arange(K)[None, :]).astype(float)     # (n, K)\n"
                "    counts = Y.sum(axis=0)\n"
                "    means = (Y.T @ X) / counts[:, None]\n"
                "    R = X[None, :, :] - means[:, None, :]                       # (K, n, d)\n"
                "    covs = np.einsum('nk,kni,knj->kij', Y, R, R) / counts[:, None, None]\n"
                "    return counts / len(y), means, covs\n"),
            "a loop over the classes with multivariate_gaussian_mle": (
                "def fit_class_gaussians(X, y, K):\n"
                "    priors, means, covs = [], [], []\n"
                "    for k in range(K):\n"
                "        Xk = X[y == k]\n"
                "        mu, Sigma = multivariate_gaussian_mle(Xk)\n"
                "        priors.append(len(Xk) / len(X))\n"
                "        means.append(mu)\n"
                "        covs.append(Sigma)\n"
                "    return np.array(priors), np.stack(means), np.stack(covs)\n"),
        },
    },
    "predict_class_gaussians": {
        "wrong": {
            "np.argmax: ties go to the smallest class": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    scores = np.column_stack([np.log(priors[k]) + mle.gaussian_log_density(X, means[k], covariances[k])\n"
                "                              for k in range(len(priors))])\n"
                "    return np.argmax(scores, axis=1)\n"),
            "the priors left out": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    K = len(priors)\n"
                "    scores = np.column_stack([mle.gaussian_log_density(X, means[k], covariances[k]) for k in range(K)])\n"
                "    return K - 1 - np.argmax(scores[:, ::-1], axis=1)\n"),
            "the log-determinants left out of a hand-written density": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    K = len(priors)\n"
                "    scores = []\n"
                "    for k in range(K):\n"
                "        R = X - means[k]\n"
                "        quad = np.sum(R * np.linalg.solve(covariances[k], R.T).T, axis=1)\n"
                "        scores.append(np.log(priors[k]) - 0.5 * quad)\n"
                "    scores = np.column_stack(scores)\n"
                "    return K - 1 - np.argmax(scores[:, ::-1], axis=1)\n"),
            "the covariance in the quadratic form, not its inverse": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    K = len(priors)\n"
                "    scores = []\n"
                "    for k in range(K):\n"
                "        R = X - means[k]\n"
                "        quad = np.einsum('ni,ij,nj->n', R, covariances[k], R)\n"
                "        scores.append(np.log(priors[k]) - 0.5 * np.linalg.slogdet(covariances[k])[1] - 0.5 * quad)\n"
                "    scores = np.column_stack(scores)\n"
                "    return K - 1 - np.argmax(scores[:, ::-1], axis=1)\n"),
            "the priors added without their log": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    K = len(priors)\n"
                "    scores = np.column_stack([priors[k] + mle.gaussian_log_density(X, means[k], covariances[k])\n"
                "                              for k in range(K)])\n"
                "    return K - 1 - np.argmax(scores[:, ::-1], axis=1)\n"),
            "the reversed index returned (np.argmax of the reversed scores)": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    K = len(priors)\n"
                "    scores = np.column_stack([np.log(priors[k]) + mle.gaussian_log_density(X, means[k], covariances[k])\n"
                "                              for k in range(K)])\n"
                "    return np.argmax(scores[:, ::-1], axis=1)\n"),
            "ties found with np.isclose: a near tie goes to the larger class": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    K = len(priors)\n"
                "    scores = np.column_stack([np.log(priors[k]) + mle.gaussian_log_density(X, means[k], covariances[k])\n"
                "                              for k in range(K)])\n"
                "    tied = np.isclose(scores, scores.max(axis=1, keepdims=True))\n"
                "    return K - 1 - np.argmax(tied[:, ::-1], axis=1)\n"),
            "the library's predict_gaussian_classes": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    model = mle.GaussianClassModel(np.arange(len(priors)), priors, means, covariances)\n"
                "    return mle.predict_gaussian_classes(model, X)\n"),
            "the library's log_posterior": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    K = len(priors)\n"
                "    model = mle.GaussianClassModel(np.arange(K), priors, means, covariances)\n"
                "    posterior = mle.log_posterior(model, X)\n"
                "    return K - 1 - np.argmax(posterior[:, ::-1], axis=1)\n"),
            "the library's class_log_scores": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    K = len(priors)\n"
                "    model = mle.GaussianClassModel(np.arange(K), priors, means, covariances)\n"
                "    scores = mle.class_log_scores(model, X)\n"
                "    return K - 1 - np.argmax(scores[:, ::-1], axis=1)\n"),
        },
        "right": {
            "a hand-written log-density with a Cholesky factor, and a loop for the ties": (
                "def predict_class_gaussians(X, priors, means, covariances):\n"
                "    K, d = means.shape\n"
                "    scores = np.empty((len(X), K))\n"
                "    for k in range(K):\n"
                "        L = np.linalg.cholesky(covariances[k])\n"
                "        Z = np.linalg.solve(L, (X - means[k]).T)\n"
                "        scores[:, k] = (np.log(priors[k]) - np.sum(np.log(np.diag(L))) - 0.5 * d * np.log(2 * np.pi)\n"
                "                        - 0.5 * np.sum(Z ** 2, axis=0))\n"
                "    labels = np.zeros(len(X), dtype=int)\n"
                "    for i in range(len(X)):\n"
                "        best = 0\n"
                "        for k in range(1, K):\n"
                "            if scores[i, k] >= scores[i, best]:\n"
                "                best = k\n"
                "        labels[i] = best\n"
                "    return labels\n"),
        },
    },
}
