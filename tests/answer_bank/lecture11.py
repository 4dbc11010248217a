"""Lecture 11, clustering: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "assign_points": {
        "wrong": {
            "argmax: the farthest centre": (
                "def assign_points(X, centres):\n"
                "    distances = ((X[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)\n"
                "    return np.argmax(distances, axis=1)\n"),
            "ties to the largest index": (
                "def assign_points(X, centres):\n"
                "    distances = ((X[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)\n"
                "    return len(centres) - 1 - np.argmin(distances[:, ::-1], axis=1)\n"),
            "the expansion without the centres' squared norms (-2 x.c alone)": (
                "def assign_points(X, centres):\n"
                "    return np.argmin(-2 * X @ centres.T, axis=1)\n"),
            "Manhattan distances instead of Euclidean": (
                "def assign_points(X, centres):\n"
                "    distances = np.abs(X[:, None, :] - centres[None, :, :]).sum(axis=2)\n"
                "    return np.argmin(distances, axis=1)\n"),
            "SciPy's scipy.cluster.vq.vq": (
                "def assign_points(X, centres):\n"
                "    from scipy.cluster.vq import vq\n"
                "    return vq(X, centres)[0]\n"),
            "SciPy's kmeans2 for one round, from the centres given": (
                "def assign_points(X, centres):\n"
                "    from scipy.cluster.vq import kmeans2\n"
                "    return kmeans2(X, centres, iter=1, minit='matrix')[1]\n"),
            "SciPy's scipy.spatial.distance.cdist and an argmin": (
                "def assign_points(X, centres):\n"
                "    from scipy.spatial.distance import cdist\n"
                "    return np.argmin(cdist(X, centres, 'sqeuclidean'), axis=1)\n"),
            "the library's twin clustering.assign": (
                "def assign_points(X, centres):\n"
                "    return clustering.assign(X, centres)\n"),
            "the library's clustering.squared_distances and an argmin": (
                "def assign_points(X, centres):\n"
                "    return np.argmin(clustering.squared_distances(X, centres), axis=1)\n"),
        },
        "right": {
            "a loop over points and centres, replacing only on a strictly smaller distance": (
                "def assign_points(X, centres):\n"
                "    labels = np.zeros(len(X), dtype=int)\n"
                "    for i, x in enumerate(X):\n"
                "        best = None\n"
                "        for k, c in enumerate(centres):\n"
                "            dist = float(np.sum((x - c) ** 2))\n"
                "            if best is None or dist < best:\n"
                "                best, labels[i] = dist, k\n"
                "    return labels\n"),
            "the expansion ||x||^2 + ||c||^2 - 2 x.c in one matrix product": (
                "def assign_points(X, centres):\n"
                "    D = (X**2).sum(axis=1)[:, None] + (centres**2).sum(axis=1)[None, :] - 2 * X @ centres.T\n"
                "    return D.argmin(axis=1)\n"),
        },
    },
    "update_centres": {
        "wrong": {
            "the sum of each cluster, not its mean": (
                "def update_centres(X, labels, k):\n"
                "    return np.array([X[labels == j].sum(axis=0) for j in range(k)])\n"),
            "each cluster's sum divided by n, the number of all points": (
                "def update_centres(X, labels, k):\n"
                "    return np.array([X[labels == j].sum(axis=0) / len(X) for j in range(k)])\n"),
            "the coordinate-wise median (the centre of the absolute loss)": (
                "def update_centres(X, labels, k):\n"
                "    return np.array([np.median(X[labels == j], axis=0) for j in range(k)])\n"),
            "clusters in the order they first appear in labels, not by their number": (
                "def update_centres(X, labels, k):\n"
                "    first = np.unique(labels, return_index=True)[1]\n"
                "    order = labels[np.sort(first)]\n"
                "    return np.array([X[labels == j].mean(axis=0) for j in order])\n"),
            "SciPy's scipy.ndimage.mean, column by column": (
                "def update_centres(X, labels, k):\n"
                "    from scipy import ndimage\n"
                "    return np.column_stack([ndimage.mean(X[:, c], labels, index=np.arange(k)) for c in range(X.shape[1])])\n"),
            "the library's twin clustering.update_centres": (
                "def update_centres(X, labels, k):\n"
                "    return clustering.update_centres(X, labels, k)\n"),
        },
        "right": {
            "a one-hot matrix: sums by one product, divided by the counts": (
                "def update_centres(X, labels, k):\n"
                "    onehot = (labels[:, None] == np.arange(k)[None, :]).astype(float)\n"
                "    return (onehot.T @ X) / onehot.sum(axis=0)[:, None]\n"),
            "running sums in a loop over the points": (
                "def update_centres(X, labels, k):\n"
                "    sums = np.zeros((k, X.shape[1]))\n"
                "    counts = np.zeros(k)\n"
                "    for x, j in zip(X, labels):\n"
                "        sums[j] += x\n"
                "        counts[j] += 1\n"
                "    return sums / counts[:, None]\n"),
        },
    },
    "kmeans_objective": {
        "wrong": {
            "each point's nearest centre instead of the centre its label names": (
                "def kmeans_objective(X, centres, labels):\n"
                "    return float(((X[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2).min(axis=1).sum())\n"),
            "distances, not squared distances": (
                "def kmeans_objective(X, centres, labels):\n"
                "    return float(np.sqrt(((X - centres[labels]) ** 2).sum(axis=1)).sum())\n"),
            "the mean over the points, not the sum": (
                "def kmeans_objective(X, centres, labels):\n"
                "    return float(((X - centres[labels]) ** 2).sum(axis=1).mean())\n"),
            "about each cluster's mean instead of the centres given": (
                "def kmeans_objective(X, centres, labels):\n"
                "    total = 0.0\n"
                "    for j in np.unique(labels):\n"
                "        total += float(((X[labels == j] - X[labels == j].mean(axis=0)) ** 2).sum())\n"
                "    return total\n"),
            "SciPy's scipy.spatial.distance.cdist": (
                "def kmeans_objective(X, centres, labels):\n"
                "    from scipy.spatial.distance import cdist\n"
                "    return float(cdist(X, centres, 'sqeuclidean')[np.arange(len(X)), labels].sum())\n"),
            "the library's twin clustering.kmeans_objective": (
                "def kmeans_objective(X, centres, labels):\n"
                "    return clustering.kmeans_objective(X, centres, labels)\n"),
        },
        "right": {
            "a loop over the points, dot products of the differences": (
                "def kmeans_objective(X, centres, labels):\n"
                "    total = 0.0\n"
                "    for x, j in zip(X, labels):\n"
                "        diff = x - centres[j]\n"
                "        total += float(diff @ diff)\n"
                "    return total\n"),
            "cluster by cluster, with the squared norm as a trace": (
                "def kmeans_objective(X, centres, labels):\n"
                "    total = 0.0\n"
                "    for j in range(len(centres)):\n"
                "        D = X[labels == j] - centres[j]\n"
                "        total += np.trace(D @ D.T)\n"
                "    return float(total)\n"),
        },
    },
    "responsibilities": {
        "wrong": {
            "densities normalised directly, not in log space (0/0 far from every mean)": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    p = np.column_stack([w * np.exp(gaussian_log_density(X, mu, S)) for w, mu, S in zip(weights, means, covariances)])\n"
                "    return p / p.sum(axis=1, keepdims=True)\n"),
            "log-sum-exp without subtracting the largest term": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    a = np.column_stack([np.log(w) + gaussian_log_density(X, mu, S) for w, mu, S in zip(weights, means, covariances)])\n"
                "    return np.exp(a - np.log(np.exp(a).sum(axis=1, keepdims=True)))\n"),
            "the weights forgotten (equal priors)": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    a = np.column_stack([gaussian_log_density(X, mu, S) for mu, S in zip(means, covariances)])\n"
                "    e = np.exp(a - a.max(axis=1, keepdims=True))\n"
                "    return e / e.sum(axis=1, keepdims=True)\n"),
            "the weight multiplying the log-density instead of adding its log": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    a = np.column_stack([w * gaussian_log_density(X, mu, S) for w, mu, S in zip(weights, means, covariances)])\n"
                "    e = np.exp(a - a.max(axis=1, keepdims=True))\n"
                "    return e / e.sum(axis=1, keepdims=True)\n"),
            "the largest subtracted per component (column) instead of per point": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    a = np.column_stack([np.log(w) + gaussian_log_density(X, mu, S) for w, mu, S in zip(weights, means, covariances)])\n"
                "    e = np.exp(a - a.max(axis=0, keepdims=True))\n"
                "    return e / e.sum(axis=1, keepdims=True)\n"),
            "SciPy's scipy.special.softmax": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    from scipy.special import softmax\n"
                "    a = np.column_stack([np.log(w) + gaussian_log_density(X, mu, S) for w, mu, S in zip(weights, means, covariances)])\n"
                "    return softmax(a, axis=1)\n"),
            "SciPy's scipy.special.logsumexp": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    from scipy.special import logsumexp\n"
                "    a = np.column_stack([np.log(w) + gaussian_log_density(X, mu, S) for w, mu, S in zip(weights, means, covariances)])\n"
                "    return np.exp(a - logsumexp(a, axis=1, keepdims=True))\n"),
            "the library's twin clustering.e_step": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    return clustering.e_step(X, weights, means, covariances)[0]\n"),
            "the library's clustering.gaussian_log_densities": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    a = np.log(weights) + clustering.gaussian_log_densities(X, means, covariances)\n"
                "    e = np.exp(a - a.max(axis=1, keepdims=True))\n"
                "    return e / e.sum(axis=1, keepdims=True)\n"),
        },
        "right": {
            "NumPy's logaddexp.reduce for the log of the denominator": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    a = np.stack([np.log(weights[k]) + gaussian_log_density(X, means[k], covariances[k])\n"
                "                  for k in range(len(weights))], axis=1)\n"
                "    return np.exp(a - np.logaddexp.reduce(a, axis=1)[:, None])\n"),
            "shifted exponentials normalised by their sum, point by point": (
                "def responsibilities(X, weights, means, covariances):\n"
                "    K = len(weights)\n"
                "    logs = [np.log(weights[k]) + gaussian_log_density(X, means[k], covariances[k]) for k in range(K)]\n"
                "    out = np.empty((len(X), K))\n"
                "    for i in range(len(X)):\n"
                "        row = np.array([logs[k][i] for k in range(K)])\n"
                "        e = np.exp(row - row.max())\n"
                "        out[i] = e / e.sum()\n"
                "    return out\n"),
        },
    },
    "m_step": {
        "wrong": {
            "covariances divided by n instead of n_k": (
                "def m_step(X, resp):\n"
                "    counts = resp.sum(axis=0)\n"
                "    means = resp.T @ X / counts[:, None]\n"
                "    covariances = np.array([(resp[:, k, None] * (X - means[k])).T @ (X - means[k]) / len(X) for k in range(resp.shape[1])])\n"
                "    return counts / len(X), means, covariances\n"),
            "covariances divided by n_k - 1": (
                "def m_step(X, resp):\n"
                "    counts = resp.sum(axis=0)\n"
                "    means = resp.T @ X / counts[:, None]\n"
                "    covariances = np.array([(resp[:, k, None] * (X - means[k])).T @ (X - means[k]) / (counts[k] - 1) for k in range(resp.shape[1])])\n"
                "    return counts / len(X), means, covariances\n"),
            "covariances around the mean of all the data, not the component's new mean": (
                "def m_step(X, resp):\n"
                "    counts = resp.sum(axis=0)\n"
                "    means = resp.T @ X / counts[:, None]\n"
                "    Xc = X - X.mean(axis=0)\n"
                "    covariances = np.array([(resp[:, k, None] * Xc).T @ Xc / counts[k] for k in range(resp.shape[1])])\n"
                "    return counts / len(X), means, covariances\n"),
            "the responsibilities on both factors of the outer product (r_ik squared)": (
                "def m_step(X, resp):\n"
                "    counts = resp.sum(axis=0)\n"
                "    means = resp.T @ X / counts[:, None]\n"
                "    covariances = np.array([(resp[:, k, None] * (X - means[k])).T @ (resp[:, k, None] * (X - means[k])) / counts[k]\n"
                "                            for k in range(resp.shape[1])])\n"
                "    return counts / len(X), means, covariances\n"),
            "the weights left as soft counts n_k, not divided by n": (
                "def m_step(X, resp):\n"
                "    counts = resp.sum(axis=0)\n"
                "    means = resp.T @ X / counts[:, None]\n"
                "    covariances = np.array([(resp[:, k, None] * (X - means[k])).T @ (X - means[k]) / counts[k] for k in range(resp.shape[1])])\n"
                "    return counts, means, covariances\n"),
            "np.cov with aweights but without bias=True (an unbiased correction)": (
                "def m_step(X, resp):\n"
                "    counts = resp.sum(axis=0)\n"
                "    means = resp.T @ X / counts[:, None]\n"
                "    d = X.shape[1]\n"
                "    covariances = np.array([np.atleast_2d(np.cov(X.T, aweights=resp[:, k])).reshape(d, d) for k in range(resp.shape[1])])\n"
                "    return counts / len(X), means, covariances\n"),
            "NumPy's weighted covariance, np.cov with aweights and bias=True (withheld: the M-step is the exercise)": (
                "def m_step(X, resp):\n"
                "    n, d = X.shape\n"
                "    weights, means, covariances = [], [], []\n"
                "    for r in resp.T:\n"
                "        weights.append(r.sum() / n)\n"
                "        means.append(np.average(X, axis=0, weights=r))\n"
                "        covariances.append(np.atleast_2d(np.cov(X, rowvar=False, aweights=r, bias=True)).reshape(d, d))\n"
                "    return np.array(weights), np.array(means), np.array(covariances)\n"),
            "the library's twin clustering.m_step": (
                "def m_step(X, resp):\n"
                "    return clustering.m_step(X, resp, covariance_floor=0.0)\n"),
        },
        "right": {
            "einsum over the points, the means by a loop": (
                "def m_step(X, resp):\n"
                "    n, K = resp.shape\n"
                "    counts = np.array([resp[:, k].sum() for k in range(K)])\n"
                "    means = np.array([(resp[:, k, None] * X).sum(axis=0) / counts[k] for k in range(K)])\n"
                "    D = X[:, None, :] - means[None, :, :]\n"
                "    covariances = np.einsum('nk,nkd,nke->kde', resp, D, D) / counts[:, None, None]\n"
                "    return counts / n, means, covariances\n"),
        },
    },
    "adjusted_rand_index": {
        "wrong": {
            "the unadjusted Rand index (the fraction of pairs on which they agree)": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    a = labels_a[:, None] == labels_a[None, :]\n"
                "    b = labels_b[:, None] == labels_b[None, :]\n"
                "    upper = np.triu(np.ones(a.shape, dtype=bool), k=1)\n"
                "    return float(np.mean(a[upper] == b[upper]))\n"),
            "n^2 / 2 pairs in place of n(n - 1)/2 in the expected index": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    rows = np.unique(labels_a, return_inverse=True)[1].ravel()\n"
                "    columns = np.unique(labels_b, return_inverse=True)[1].ravel()\n"
                "    table = np.zeros((rows.max() + 1, columns.max() + 1))\n"
                "    np.add.at(table, (rows, columns), 1)\n"
                "    pairs = lambda c: float(np.sum(c * (c - 1) / 2))\n"
                "    T, A, B = pairs(table), pairs(table.sum(axis=1)), pairs(table.sum(axis=0))\n"
                "    expected = A * B / (len(rows) ** 2 / 2)\n"
                "    return (T - expected) / ((A + B) / 2 - expected)\n"),
            "ordered pairs, a point paired with itself (n_kl^2 and n^2 throughout)": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    rows = np.unique(labels_a, return_inverse=True)[1].ravel()\n"
                "    columns = np.unique(labels_b, return_inverse=True)[1].ravel()\n"
                "    table = np.zeros((rows.max() + 1, columns.max() + 1))\n"
                "    np.add.at(table, (rows, columns), 1)\n"
                "    T, A, B = np.sum(table**2), np.sum(table.sum(axis=1) ** 2), np.sum(table.sum(axis=0) ** 2)\n"
                "    expected = A * B / len(rows) ** 2\n"
                "    return float((T - expected) / ((A + B) / 2 - expected))\n"),
            "the largest index A + B, not (A + B) / 2": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    rows = np.unique(labels_a, return_inverse=True)[1].ravel()\n"
                "    columns = np.unique(labels_b, return_inverse=True)[1].ravel()\n"
                "    table = np.zeros((rows.max() + 1, columns.max() + 1))\n"
                "    np.add.at(table, (rows, columns), 1)\n"
                "    pairs = lambda c: float(np.sum(c * (c - 1) / 2))\n"
                "    T, A, B = pairs(table), pairs(table.sum(axis=1)), pairs(table.sum(axis=0))\n"
                "    expected = A * B / pairs(np.array(len(rows)))\n"
                "    return (T - expected) / (A + B - expected)\n"),
            "the labels used as indices of the table (negative labels wrap around)": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    table = np.zeros((labels_a.max() + 1, labels_b.max() + 1))\n"
                "    np.add.at(table, (labels_a, labels_b), 1)\n"
                "    pairs = lambda c: float(np.sum(c * (c - 1) / 2))\n"
                "    T, A, B = pairs(table), pairs(table.sum(axis=1)), pairs(table.sum(axis=0))\n"
                "    expected = A * B / pairs(np.array(len(labels_a)))\n"
                "    return (T - expected) / ((A + B) / 2 - expected)\n"),
            "the accuracy, the fraction of points with equal labels": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    return float(np.mean(labels_a == labels_b))\n"),
            "scikit-learn's adjusted_rand_score": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    from sklearn.metrics import adjusted_rand_score\n"
                "    return float(adjusted_rand_score(labels_a, labels_b))\n"),
            "the library's twin clustering.adjusted_rand_index": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    return clustering.adjusted_rand_index(labels_a, labels_b)\n"),
            "the library's clustering.contingency_table and the formula": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    table = clustering.contingency_table(labels_a, labels_b)\n"
                "    pairs = lambda c: float(np.sum(c * (c - 1) / 2))\n"
                "    T, A, B = pairs(table), pairs(table.sum(axis=1)), pairs(table.sum(axis=0))\n"
                "    expected = A * B / pairs(np.array(len(labels_a)))\n"
                "    return (T - expected) / ((A + B) / 2 - expected)\n"),
        },
        "right": {
            "every pair of points, counted by broadcasting": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    n = len(labels_a)\n"
                "    upper = np.triu(np.ones((n, n), dtype=bool), k=1)\n"
                "    together_a = (labels_a[:, None] == labels_a[None, :])[upper]\n"
                "    together_b = (labels_b[:, None] == labels_b[None, :])[upper]\n"
                "    T, A, B, N = np.sum(together_a & together_b), together_a.sum(), together_b.sum(), upper.sum()\n"
                "    expected = A * B / N\n"
                "    return float((T - expected) / ((A + B) / 2 - expected))\n"),
            "the two-by-two table of pairs, with dictionaries of counts": (
                "def adjusted_rand_index(labels_a, labels_b):\n"
                "    from collections import Counter\n"
                "    choose2 = lambda m: m * (m - 1) // 2\n"
                "    n = len(labels_a)\n"
                "    both = sum(choose2(c) for c in Counter(zip(labels_a.tolist(), labels_b.tolist())).values())\n"
                "    in_a = sum(choose2(c) for c in Counter(labels_a.tolist()).values())\n"
                "    in_b = sum(choose2(c) for c in Counter(labels_b.tolist()).values())\n"
                "    tp, fp, fn = both, in_b - both, in_a - both\n"
                "    tn = choose2(n) - tp - fp - fn\n"
                "    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))\n"),
        },
    },
}

