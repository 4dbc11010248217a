"""Lecture 12, principal component analysis: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "centre": {
        "wrong": {
            "the mean of each row subtracted (axis=1)": (
                "def centre(X):\n"
                "    return X - X.mean(axis=1, keepdims=True)\n"),
            "the mean of all entries subtracted": (
                "def centre(X):\n"
                "    return X - X.mean()\n"),
            "X centred in place (the caller's data changed)": (
                "def centre(X):\n"
                "    X -= X.mean(axis=0)\n"
                "    return X\n"),
            "standardised: divided by the standard deviations as well": (
                "def centre(X):\n"
                "    return (X - X.mean(axis=0)) / X.std(axis=0)\n"),
            "the median of each column subtracted": (
                "def centre(X):\n"
                "    return X - np.median(X, axis=0)\n"),
            "the library's twin pca.centre": (
                "def centre(X):\n"
                "    return pca.centre(X)\n"),
        },
        "right": {
            "the centring matrix I - 11^T/n": (
                "def centre(X):\n"
                "    n = len(X)\n"
                "    return (np.eye(n) - np.ones((n, n)) / n) @ X\n"),
            "column by column, the mean as a sum over n": (
                "def centre(X):\n"
                "    out = np.empty_like(X, dtype=float)\n"
                "    for j in range(X.shape[1]):\n"
                "        out[:, j] = X[:, j] - X[:, j].sum() / len(X)\n"
                "    return out\n"),
        },
    },
    "covariance": {
        "wrong": {
            "divided by n - 1": (
                "def covariance(X):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    return Xc.T @ Xc / (len(X) - 1)\n"),
            "not centred: the second-moment matrix X^T X / n": (
                "def covariance(X):\n"
                "    return X.T @ X / len(X)\n"),
            "centred with the rows' means": (
                "def covariance(X):\n"
                "    Xc = X - X.mean(axis=1, keepdims=True)\n"
                "    return Xc.T @ Xc / len(X)\n"),
            "np.cov (withheld; it divides by n - 1 too)": (
                "def covariance(X):\n"
                "    return np.cov(X.T)\n"),
            "np.cov with bias=True (withheld)": (
                "def covariance(X):\n"
                "    return np.atleast_2d(np.cov(X, rowvar=False, bias=True))\n"),
            "np.ma.cov with bias=True, the masked-array twin (withheld)": (
                "def covariance(X):\n"
                "    return np.asarray(np.atleast_2d(np.ma.cov(X, rowvar=False, bias=True)))\n"),
            "np.corrcoef rescaled by the standard deviations (withheld with np.cov)": (
                "def covariance(X):\n"
                "    s = X.std(axis=0)\n"
                "    return np.atleast_2d(np.corrcoef(X, rowvar=False)) * np.outer(s, s)\n"),
            "the library's twin pca.covariance": (
                "def covariance(X):\n"
                "    return pca.covariance(X)\n"),
        },
        "right": {
            "the mean of the outer products of the centred rows": (
                "def covariance(X):\n"
                "    mean = X.mean(axis=0)\n"
                "    total = np.zeros((X.shape[1], X.shape[1]))\n"
                "    for x in X:\n"
                "        total += np.outer(x - mean, x - mean)\n"
                "    return total / len(X)\n"),
            "einsum over the points, entry by entry": (
                "def covariance(X):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    return np.einsum('ni,nj->ij', Xc, Xc) / X.shape[0]\n"),
        },
    },
    "top_components": {
        "wrong": {
            "eigh's increasing order kept: the smallest eigenvalues first": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, V = np.linalg.eigh(Xc.T @ Xc / len(X))\n"
                "    rows = V[:, :k].T\n"
                "    largest = rows[np.arange(k), np.argmax(np.abs(rows), axis=1)]\n"
                "    return rows * np.sign(largest)[:, None]\n"),
            "rows of eigh's matrix taken as the eigenvectors (they are its columns)": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, V = np.linalg.eigh(Xc.T @ Xc / len(X))\n"
                "    rows = V[::-1][:k]\n"
                "    largest = rows[np.arange(k), np.argmax(np.abs(rows), axis=1)]\n"
                "    return rows * np.sign(largest)[:, None]\n"),
            "sign rule: the largest entry (not the largest absolute entry) made positive": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, V = np.linalg.eigh(Xc.T @ Xc / len(X))\n"
                "    rows = V[:, ::-1][:, :k].T\n"
                "    largest = rows[np.arange(k), np.argmax(rows, axis=1)]\n"
                "    return rows * np.sign(largest)[:, None]\n"),
            "sign rule: the first entry made positive": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, V = np.linalg.eigh(Xc.T @ Xc / len(X))\n"
                "    rows = V[:, ::-1][:, :k].T\n"
                "    return rows * np.where(rows[:, :1] < 0, -1.0, 1.0)\n"),
            "sign rule: the sum of the entries made positive": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, V = np.linalg.eigh(Xc.T @ Xc / len(X))\n"
                "    rows = V[:, ::-1][:, :k].T\n"
                "    return rows * np.where(rows.sum(axis=1) < 0, -1.0, 1.0)[:, None]\n"),
            "sign rule: the largest absolute coordinate of the projected points made positive (old scikit-learn)": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, V = np.linalg.eigh(Xc.T @ Xc / len(X))\n"
                "    rows = V[:, ::-1][:, :k].T\n"
                "    Z = Xc @ rows.T\n"
                "    largest = Z[np.argmax(np.abs(Z), axis=0), np.arange(k)]\n"
                "    return rows * np.sign(largest)[:, None]\n"),
            "no sign convention: eigh's signs as they come": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, V = np.linalg.eigh(Xc.T @ Xc / len(X))\n"
                "    return V[:, ::-1][:, :k].T\n"),
            "not centred: eigenvectors of X^T X / n": (
                "def top_components(X, k):\n"
                "    w, V = np.linalg.eigh(X.T @ X / len(X))\n"
                "    rows = V[:, ::-1][:, :k].T\n"
                "    largest = rows[np.arange(k), np.argmax(np.abs(rows), axis=1)]\n"
                "    return rows * np.sign(largest)[:, None]\n"),
            "np.cov for the covariance (withheld)": (
                "def top_components(X, k):\n"
                "    w, V = np.linalg.eigh(np.atleast_2d(np.cov(X, rowvar=False, bias=True)))\n"
                "    rows = V[:, ::-1][:, :k].T\n"
                "    largest = rows[np.arange(k), np.argmax(np.abs(rows), axis=1)]\n"
                "    return rows * np.sign(largest)[:, None]\n"),
            "the library's pca.sign_convention on eigh's vectors": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, V = np.linalg.eigh(Xc.T @ Xc / len(X))\n"
                "    return pca.sign_convention(V[:, ::-1][:, :k].T)\n"),
            "the library's twin pca.fit_pca": (
                "def top_components(X, k):\n"
                "    return np.array(pca.fit_pca(X, k).components)\n"),
        },
        "right": {
            "the SVD of the centred data, the sign fixed row by row in a loop": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    Vt = np.linalg.svd(Xc, full_matrices=False)[2]\n"
                "    rows = []\n"
                "    for v in Vt[:k]:\n"
                "        j = int(np.argmax(np.abs(v)))\n"
                "        rows.append(v if v[j] > 0 else -v)\n"
                "    return np.array(rows)\n"),
            "eigh, sorted by argsort of minus the eigenvalues, of Xc^T Xc without the 1/n": (
                "def top_components(X, k):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, V = np.linalg.eigh(Xc.T @ Xc)\n"
                "    order = np.argsort(-w)[:k]\n"
                "    out = np.empty((k, X.shape[1]))\n"
                "    for row, j in enumerate(order):\n"
                "        v = V[:, j]\n"
                "        out[row] = v * (1.0 if v[np.argmax(np.abs(v))] >= 0 else -1.0)\n"
                "    return out\n"),
        },
    },
    "reconstruct": {
        "wrong": {
            "the mean not added back": (
                "def reconstruct(X, components):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    return Xc @ components.T @ components\n"),
            "not centred: projected about the origin": (
                "def reconstruct(X, components):\n"
                "    return X @ components.T @ components\n"),
            "projected about the origin, then the mean added": (
                "def reconstruct(X, components):\n"
                "    return X.mean(axis=0) + X @ components.T @ components\n"),
            "the principal components of X used instead of the components given": (
                "def reconstruct(X, components):\n"
                "    mean = X.mean(axis=0)\n"
                "    Xc = X - mean\n"
                "    B = np.linalg.svd(Xc, full_matrices=False)[2][:len(components)]\n"
                "    return mean + Xc @ B.T @ B\n"),
            "the library's twins pca.project and pca.reconstruct": (
                "def reconstruct(X, components):\n"
                "    fit = pca.fit_pca(X, len(components))\n"
                "    return pca.reconstruct(fit, pca.project(fit, X))\n"),
        },
        "right": {
            "one component at a time: the sum of the projections (b . x) b": (
                "def reconstruct(X, components):\n"
                "    mean = X.mean(axis=0)\n"
                "    out = np.tile(mean, (len(X), 1))\n"
                "    for b in components:\n"
                "        out = out + np.outer((X - mean) @ b, b)\n"
                "    return out\n"),
            "the projection matrix P = B B^T, applied to each centred row": (
                "def reconstruct(X, components):\n"
                "    P = components.T @ components\n"
                "    mean = X.mean(axis=0)\n"
                "    return np.array([mean + P @ (x - mean) for x in X]).reshape(X.shape)\n"),
        },
    },
    "explained_variance_ratio": {
        "wrong": {
            "eigh's increasing order kept": (
                "def explained_variance_ratio(X):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w = np.linalg.eigvalsh(Xc.T @ Xc / len(X))\n"
                "    return w / w.sum()\n"),
            "singular values, not their squares": (
                "def explained_variance_ratio(X):\n"
                "    s = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)\n"
                "    return s / s.sum()\n"),
            "not centred: eigenvalues of X^T X / n": (
                "def explained_variance_ratio(X):\n"
                "    w = np.linalg.eigvalsh(X.T @ X / len(X))[::-1]\n"
                "    return w / w.sum()\n"),
            "each feature's variance over the total, sorted (the diagonal, not the eigenvalues)": (
                "def explained_variance_ratio(X):\n"
                "    v = np.sort(X.var(axis=0))[::-1]\n"
                "    return v / v.sum()\n"),
            "the cumulative ratios": (
                "def explained_variance_ratio(X):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w = np.linalg.eigvalsh(Xc.T @ Xc / len(X))[::-1]\n"
                "    return np.cumsum(w) / w.sum()\n"),
            "np.cov, whose n - 1 cancels in the ratio (withheld)": (
                "def explained_variance_ratio(X):\n"
                "    w = np.linalg.eigvalsh(np.atleast_2d(np.cov(X, rowvar=False)))[::-1]\n"
                "    return w / w.sum()\n"),
            "the library's twin pca.fit_pca": (
                "def explained_variance_ratio(X):\n"
                "    return np.array(pca.fit_pca(X).explained_variance_ratio)\n"),
        },
        "right": {
            "squared singular values of the centred data over the trace": (
                "def explained_variance_ratio(X):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    s2 = np.linalg.svd(Xc, compute_uv=False) ** 2\n"
                "    return s2 / (Xc**2).sum()\n"),
            "eigenvalues sorted by np.sort, over the trace of the covariance": (
                "def explained_variance_ratio(X):\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    C = Xc.T @ Xc / len(X)\n"
                "    w = -np.sort(-np.linalg.eigvalsh(C))\n"
                "    return w / np.trace(C)\n"),
        },
    },
    "gram_pca": {
        "wrong": {
            "mapped back without the division: Xc^T u (length sqrt(n lambda))": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, U = np.linalg.eigh(Xc @ Xc.T)\n"
                "    w, U = w[::-1][:k], U[:, ::-1][:, :k]\n"
                "    variances = w / n\n"
                "    rows = (Xc.T @ U).T\n"
                "    size = np.abs(rows)\n"
                "    first = np.argmax(size >= size.max(axis=1, keepdims=True) * (1 - 1e-8), axis=1)\n"
                "    return rows * np.where(rows[np.arange(k), first] < 0, -1.0, 1.0)[:, None], variances\n"),
            "divided by sqrt(lambda), the variance in place of G's eigenvalue n lambda (length sqrt(n))": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, U = np.linalg.eigh(Xc @ Xc.T)\n"
                "    w, U = w[::-1][:k], U[:, ::-1][:, :k]\n"
                "    variances = w / n\n"
                "    rows = (Xc.T @ U / np.sqrt(variances)).T\n"
                "    size = np.abs(rows)\n"
                "    first = np.argmax(size >= size.max(axis=1, keepdims=True) * (1 - 1e-8), axis=1)\n"
                "    return rows * np.where(rows[np.arange(k), first] < 0, -1.0, 1.0)[:, None], variances\n"),
            "the uncentred Gram matrix X X^T": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    w, U = np.linalg.eigh(X @ X.T)\n"
                "    w, U = w[::-1][:k], U[:, ::-1][:, :k]\n"
                "    variances = w / n\n"
                "    rows = (X.T @ U / np.sqrt(w)).T\n"
                "    size = np.abs(rows)\n"
                "    first = np.argmax(size >= size.max(axis=1, keepdims=True) * (1 - 1e-8), axis=1)\n"
                "    return rows * np.where(rows[np.arange(k), first] < 0, -1.0, 1.0)[:, None], variances\n"),
            "G's eigenvalues as the variances (not divided by n)": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, U = np.linalg.eigh(Xc @ Xc.T)\n"
                "    w, U = w[::-1][:k], U[:, ::-1][:, :k]\n"
                "    variances = w\n"
                "    rows = (Xc.T @ U / np.sqrt(w)).T\n"
                "    size = np.abs(rows)\n"
                "    first = np.argmax(size >= size.max(axis=1, keepdims=True) * (1 - 1e-8), axis=1)\n"
                "    return rows * np.where(rows[np.arange(k), first] < 0, -1.0, 1.0)[:, None], variances\n"),
            "variances divided by n - 1 (np.cov's convention)": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, U = np.linalg.eigh(Xc @ Xc.T)\n"
                "    w, U = w[::-1][:k], U[:, ::-1][:, :k]\n"
                "    variances = w / (n - 1)\n"
                "    rows = (Xc.T @ U / np.sqrt(w)).T\n"
                "    size = np.abs(rows)\n"
                "    first = np.argmax(size >= size.max(axis=1, keepdims=True) * (1 - 1e-8), axis=1)\n"
                "    return rows * np.where(rows[np.arange(k), first] < 0, -1.0, 1.0)[:, None], variances\n"),
            "eigh's increasing order kept: the zero eigenvalue and the smallest first": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, U = np.linalg.eigh(Xc @ Xc.T)\n"
                "    w, U = w[:k], U[:, :k]\n"
                "    variances = w / n\n"
                "    rows = (Xc.T @ U / np.sqrt(np.abs(w) + 1e-300)).T\n"
                "    size = np.abs(rows)\n"
                "    first = np.argmax(size >= size.max(axis=1, keepdims=True) * (1 - 1e-8), axis=1)\n"
                "    return rows * np.where(rows[np.arange(k), first] < 0, -1.0, 1.0)[:, None], variances\n"),
            "rows of eigh's matrix taken as G's eigenvectors (they are its columns)": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, U = np.linalg.eigh(Xc @ Xc.T)\n"
                "    w, U = w[::-1][:k], U[::-1][:k].T\n"
                "    variances = w / n\n"
                "    rows = (Xc.T @ U / np.sqrt(w)).T\n"
                "    size = np.abs(rows)\n"
                "    first = np.argmax(size >= size.max(axis=1, keepdims=True) * (1 - 1e-8), axis=1)\n"
                "    return rows * np.where(rows[np.arange(k), first] < 0, -1.0, 1.0)[:, None], variances\n"),
            "no sign convention: the signs eigh gives": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, U = np.linalg.eigh(Xc @ Xc.T)\n"
                "    w, U = w[::-1][:k], U[:, ::-1][:, :k]\n"
                "    variances = w / n\n"
                "    return (Xc.T @ U / np.sqrt(w)).T, variances\n"),
            "sign rule: the first entry made positive": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    w, U = np.linalg.eigh(Xc @ Xc.T)\n"
                "    w, U = w[::-1][:k], U[:, ::-1][:, :k]\n"
                "    variances = w / n\n"
                "    rows = (Xc.T @ U / np.sqrt(w)).T\n"
                "    return rows * np.where(rows[:, :1] < 0, -1.0, 1.0), variances\n"),
            "the library's twin pca.fit_pca_via_gram": (
                "def gram_pca(X, k):\n"
                "    fit = pca.fit_pca_via_gram(X, k)\n"
                "    return np.array(fit.components), np.array(fit.variances)\n"),
            "the library's pca.fit_pca (the SVD route, withheld)": (
                "def gram_pca(X, k):\n"
                "    fit = pca.fit_pca(X, k)\n"
                "    return np.array(fit.components), np.array(fit.variances)\n"),
        },
        "right": {
            "the Gram matrix divided by n (eigenvalues lambda), mapped back by Xc^T u / sqrt(n lambda), signs in a loop": (
                "def gram_pca(X, k):\n"
                "    n = len(X)\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    lam, U = np.linalg.eigh(Xc @ Xc.T / n)\n"
                "    order = np.argsort(lam)[::-1][:k]\n"
                "    components = []\n"
                "    for j in order:\n"
                "        v = Xc.T @ U[:, j] / np.sqrt(n * lam[j])\n"
                "        top = v[np.argmax(np.abs(v))]\n"
                "        components.append(v if top > 0 else -v)\n"
                "    return np.array(components), lam[order]\n"),
            "each mapped vector divided by its own length, the Gram matrix built entry by entry": (
                "def gram_pca(X, k):\n"
                "    n, d = X.shape\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    G = np.array([[Xc[i] @ Xc[l] for l in range(n)] for i in range(n)])\n"
                "    w, U = np.linalg.eigh(G)\n"
                "    keep = np.argsort(-w)[:k]\n"
                "    V = Xc.T @ U[:, keep]\n"
                "    V = V / np.linalg.norm(V, axis=0)\n"
                "    signs = np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(k)])\n"
                "    return (V * signs).T, w[keep] / n\n"),
        },
    },
}
