"""Lecture 05, nearest neighbours and trees: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "squared_distances": {
        "wrong": {
            "the expansion without centring (clipped at 0)": (
                "def squared_distances(A, B):\n"
                "    D = (A ** 2).sum(axis=1)[:, None] - 2 * A @ B.T + (B ** 2).sum(axis=1)[None, :]\n"
                "    return np.maximum(D, 0.0)\n"),
            "centred on the mean of B but not clipped at 0": (
                "def squared_distances(A, B):\n"
                "    centre = B.mean(axis=0)\n"
                "    A, B = A - centre, B - centre\n"
                "    return (A ** 2).sum(axis=1)[:, None] - 2 * A @ B.T + (B ** 2).sum(axis=1)[None, :]\n"),
            "each set centred on its own mean": (
                "def squared_distances(A, B):\n"
                "    A, B = A - A.mean(axis=0), B - B.mean(axis=0)\n"
                "    D = (A ** 2).sum(axis=1)[:, None] - 2 * A @ B.T + (B ** 2).sum(axis=1)[None, :]\n"
                "    return np.maximum(D, 0.0)\n"),
            "the distances, not their squares (a square root taken)": (
                "def squared_distances(A, B):\n"
                "    centre = B.mean(axis=0)\n"
                "    A, B = A - centre, B - centre\n"
                "    D = (A ** 2).sum(axis=1)[:, None] - 2 * A @ B.T + (B ** 2).sum(axis=1)[None, :]\n"
                "    return np.sqrt(np.maximum(D, 0.0))\n"),
            "the factor 2 of the cross term forgotten": (
                "def squared_distances(A, B):\n"
                "    centre = B.mean(axis=0)\n"
                "    A, B = A - centre, B - centre\n"
                "    D = (A ** 2).sum(axis=1)[:, None] - A @ B.T + (B ** 2).sum(axis=1)[None, :]\n"
                "    return np.maximum(D, 0.0)\n"),
            "the library's neighbours.squared_distances": (
                "def squared_distances(A, B):\n"
                "    return neighbours.squared_distances(A, B)\n"),
            "the k-means module's clustering.squared_distances (from mlcourse import clustering)": (
                "def squared_distances(A, B):\n"
                "    from mlcourse import clustering\n"
                "    return clustering.squared_distances(A, B)\n"),
            "the k-means module's squared distances, by import mlcourse.clustering": (
                "def squared_distances(A, B):\n"
                "    import mlcourse.clustering\n"
                "    return mlcourse.clustering.squared_distances(A, B)\n"),
            "SciPy's cdist, reached through the base interpreter's site-packages": (
                "def squared_distances(A, B):\n"
                "    import sys, glob\n"
                "    sys.path += glob.glob(sys.base_prefix + '/lib/python3*/site-packages')\n"
                "    sys.path += glob.glob('/usr/lib/python3/dist-packages')\n"
                "    from scipy.spatial.distance import cdist\n"
                "    return cdist(A, B, 'sqeuclidean')\n"),
        },
        "right": {
            "a broadcast difference": (
                "def squared_distances(A, B):\n"
                "    diff = A[:, None, :] - B[None, :, :]\n"
                "    return (diff ** 2).sum(axis=2)\n"),
            "a loop over the rows of A": (
                "def squared_distances(A, B):\n"
                "    D = np.empty((A.shape[0], B.shape[0]))\n"
                "    for i in range(A.shape[0]):\n"
                "        diff = B - A[i]\n"
                "        D[i] = np.einsum('jk,jk->j', diff, diff)\n"
                "    return D\n"),
            "the expansion centred on the mean of both sets together": (
                "def squared_distances(A, B):\n"
                "    c = np.vstack([A, B]).mean(axis=0)\n"
                "    A0, B0 = A - c, B - c\n"
                "    D = np.einsum('ik,ik->i', A0, A0)[:, None] + np.einsum('jk,jk->j', B0, B0)[None, :] - 2 * (A0 @ B0.T)\n"
                "    return np.clip(D, 0.0, None)\n"),
        },
    },
    "knn_predict": {
        "wrong": {
            "a tied vote to the smaller label (np.argmax of the votes)": (
                "def knn_predict(X_train, y_train, X_query, k):\n"
                "    D = ((X_query[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)\n"
                "    order = np.argsort(D, axis=1, kind='stable')[:, :k]\n"
                "    labels = np.unique(y_train)\n"
                "    votes = (y_train[order][:, :, None] == labels).sum(axis=1)\n"
                "    return labels[np.argmax(votes, axis=1)]\n"),
            "equally near points in the reverse order of X_train": (
                "def knn_predict(X_train, y_train, X_query, k):\n"
                "    D = ((X_query[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)\n"
                "    order = np.argsort(-D, axis=1, kind='stable')[:, ::-1][:, :k]\n"
                "    labels = np.unique(y_train)\n"
                "    votes = (y_train[order][:, :, None] == labels).sum(axis=1)\n"
                "    return labels[len(labels) - 1 - np.argmax(votes[:, ::-1], axis=1)]\n"),
            "the default sort (not stable) for the neighbours": (
                "def knn_predict(X_train, y_train, X_query, k):\n"
                "    D = ((X_query[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)\n"
                "    order = np.argsort(D, axis=1)[:, :k]\n"
                "    labels = np.unique(y_train)\n"
                "    votes = (y_train[order][:, :, None] == labels).sum(axis=1)\n"
                "    return labels[len(labels) - 1 - np.argmax(votes[:, ::-1], axis=1)]\n"),
            "the nearest point skipped (as if leaving the query out of its own neighbours)": (
                "def knn_predict(X_train, y_train, X_query, k):\n"
                "    D = ((X_query[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)\n"
                "    order = np.argsort(D, axis=1, kind='stable')[:, 1:k + 1]\n"
                "    labels = np.unique(y_train)\n"
                "    votes = (y_train[order][:, :, None] == labels).sum(axis=1)\n"
                "    return labels[len(labels) - 1 - np.argmax(votes[:, ::-1], axis=1)]\n"),
            "votes counted with np.bincount, as if labels were 0, 1, ..., K - 1": (
                "def knn_predict(X_train, y_train, X_query, k):\n"
                "    D = ((X_query[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)\n"
                "    order = np.argsort(D, axis=1, kind='stable')[:, :k]\n"
                "    out = []\n"
                "    for row in y_train[order]:\n"
                "        votes = np.bincount(row, minlength=2)\n"
                "        out.append(len(votes) - 1 - np.argmax(votes[::-1]))\n"
                "    return np.array(out)\n"),
            "the library's neighbours.knn_predict": (
                "def knn_predict(X_train, y_train, X_query, k):\n"
                "    return neighbours.knn_predict(X_train, y_train, X_query, k=k)\n"),
        },
        "right": {
            "a loop over the queries, sorting (distance, index) pairs and counting with a dict": (
                "def knn_predict(X_train, y_train, X_query, k):\n"
                "    out = []\n"
                "    for q in X_query:\n"
                "        d = ((X_train - q) ** 2).sum(axis=1)\n"
                "        nearest = sorted(range(len(d)), key=lambda i: (d[i], i))[:k]\n"
                "        votes = {}\n"
                "        for i in nearest:\n"
                "            votes[int(y_train[i])] = votes.get(int(y_train[i]), 0) + 1\n"
                "        top = max(votes.values())\n"
                "        out.append(max(lab for lab, v in votes.items() if v == top))\n"
                "    return np.array(out)\n"),
            "np.lexsort on (index, distance), votes compared label by label": (
                "def knn_predict(X_train, y_train, X_query, k):\n"
                "    D = np.stack([((X_train - q) ** 2).sum(axis=1) for q in X_query])\n"
                "    idx = np.arange(X_train.shape[0])\n"
                "    out = np.empty(len(X_query), dtype=y_train.dtype)\n"
                "    for r in range(len(X_query)):\n"
                "        near = y_train[np.lexsort((idx, D[r]))[:k]]\n"
                "        labels, counts = np.unique(near, return_counts=True)\n"
                "        out[r] = labels[counts == counts.max()].max()\n"
                "    return out\n"),
        },
    },
    "standardise": {
        "wrong": {
            "the other array scaled with its own statistics": (
                "def standardise(X_train, X_other):\n"
                "    def z(X):\n"
                "        sd = X.std(axis=0)\n"
                "        return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)\n"
                "    return z(X_train), z(X_other)\n"),
            "the standard deviation with n - 1 (ddof=1)": (
                "def standardise(X_train, X_other):\n"
                "    mean, sd = X_train.mean(axis=0), X_train.std(axis=0, ddof=1)\n"
                "    sd = np.where(sd > 0, sd, 1.0)\n"
                "    return (X_train - mean) / sd, (X_other - mean) / sd\n"),
            "a constant column divided by 0": (
                "def standardise(X_train, X_other):\n"
                "    mean, sd = X_train.mean(axis=0), X_train.std(axis=0)\n"
                "    return (X_train - mean) / sd, (X_other - mean) / sd\n"),
            "X_train changed in place": (
                "def standardise(X_train, X_other):\n"
                "    mean, sd = X_train.mean(axis=0), X_train.std(axis=0)\n"
                "    sd = np.where(sd > 0, sd, 1.0)\n"
                "    X_train -= mean\n"
                "    X_train /= sd\n"
                "    return X_train, (X_other - mean) / sd\n"),
            "one mean and one standard deviation for the whole array, not per column": (
                "def standardise(X_train, X_other):\n"
                "    mean, sd = X_train.mean(), X_train.std()\n"
                "    sd = sd if sd > 0 else 1.0\n"
                "    return (X_train - mean) / sd, (X_other - mean) / sd\n"),
            "the library's neighbours.standardise": (
                "def standardise(X_train, X_other):\n"
                "    return neighbours.standardise(X_train, X_other)\n"),
        },
        "right": {
            "the statistics by hand, a loop over the columns": (
                "def standardise(X_train, X_other):\n"
                "    n, d = X_train.shape\n"
                "    Z_train, Z_other = np.empty(X_train.shape), np.empty(X_other.shape)\n"
                "    for j in range(d):\n"
                "        mu = X_train[:, j].sum() / n\n"
                "        sd = np.sqrt(((X_train[:, j] - mu) ** 2).sum() / n)\n"
                "        if sd == 0:\n"
                "            sd = 1.0\n"
                "        Z_train[:, j] = (X_train[:, j] - mu) / sd\n"
                "        Z_other[:, j] = (X_other[:, j] - mu) / sd\n"
                "    return Z_train, Z_other\n"),
        },
    },
    "one_nn_limit": {
        "wrong": {
            "the squares of the class totals (the priors), not of eta at each value": (
                "def one_nn_limit(w, eta):\n"
                "    priors = w @ eta\n"
                "    return float(1 - (priors ** 2).sum())\n"),
            "the plain mean over the values, w ignored": (
                "def one_nn_limit(w, eta):\n"
                "    return float(np.mean(1 - (eta ** 2).sum(axis=1)))\n"),
            "the two-class formula 2 eta (1 - eta) on class 1": (
                "def one_nn_limit(w, eta):\n"
                "    return float(w @ (2 * eta[:, 1] * (1 - eta[:, 1])))\n"),
            "the Bayes error R*": (
                "def one_nn_limit(w, eta):\n"
                "    return float(w @ (1 - eta.max(axis=1)))\n"),
            "the upper bound R*(2 - K R*/(K - 1)) as the value": (
                "def one_nn_limit(w, eta):\n"
                "    r = float(w @ (1 - eta.max(axis=1)))\n"
                "    K = eta.shape[1]\n"
                "    return r * (2 - K / (K - 1) * r)\n"),
            "the library's neighbours.one_nn_limit": (
                "def one_nn_limit(w, eta):\n"
                "    return neighbours.one_nn_limit(w, eta)\n"),
        },
        "right": {
            "sum of w eta (1 - eta), by einsum": (
                "def one_nn_limit(w, eta):\n"
                "    return float(np.einsum('v,vy,vy->', w, eta, 1 - eta))\n"),
            "a loop over the values, pairs of different labels": (
                "def one_nn_limit(w, eta):\n"
                "    total = 0.0\n"
                "    for wv, row in zip(w, eta):\n"
                "        total += wv * sum(a * b for i, a in enumerate(row) for j, b in enumerate(row) if i != j)\n"
                "    return total\n"),
        },
    },
    "entropy": {
        "wrong": {
            "the natural logarithm (nats, not bits)": (
                "def entropy(y):\n"
                "    _, counts = np.unique(y, return_counts=True)\n"
                "    p = counts / counts.sum()\n"
                "    return float(-(p * np.log(p)).sum())\n"),
            "the Gini impurity instead of the entropy": (
                "def entropy(y):\n"
                "    _, counts = np.unique(y, return_counts=True)\n"
                "    p = counts / counts.sum()\n"
                "    return float(1 - (p ** 2).sum())\n"),
            "np.bincount, as if the labels were 0, 1, 2, ...": (
                "def entropy(y):\n"
                "    counts = np.bincount(y)\n"
                "    p = counts[counts > 0] / len(y)\n"
                "    return float(-(p * np.log2(p)).sum())\n"),
            "counts over every label from the smallest to the largest, 0 log 0 left as NaN": (
                "def entropy(y):\n"
                "    counts = np.bincount(y - y.min())\n"
                "    p = counts / len(y)\n"
                "    return float(-(p * np.log2(p)).sum())\n"),
            "the library's trees.label_impurity": (
                "def entropy(y):\n"
                "    return trees.label_impurity(y, 'entropy')\n"),
        },
        "right": {
            "a dictionary of counts and math.log2": (
                "def entropy(y):\n"
                "    import math\n"
                "    counts = {}\n"
                "    for v in y.tolist():\n"
                "        counts[v] = counts.get(v, 0) + 1\n"
                "    n = len(y)\n"
                "    return sum((c / n) * math.log2(n / c) for c in counts.values())\n"),
        },
    },
    "best_threshold": {
        "wrong": {
            "the largest of equally good thresholds": (
                "def best_threshold(x, y):\n"
                "    order = np.argsort(x, kind='stable')\n"
                "    xs, onehot = x[order], (y[order][:, None] == np.unique(y)).astype(float)\n"
                "    n = len(x)\n"
                "    left = np.cumsum(onehot, axis=0)[:-1]\n"
                "    right = onehot.sum(axis=0) - left\n"
                "    n_left = np.arange(1, n)\n"
                "    gini = lambda c, m: 1 - ((c / m[:, None]) ** 2).sum(axis=1)\n"
                "    parent = 1 - ((onehot.sum(axis=0) / n) ** 2).sum()\n"
                "    gain = parent - (n_left * gini(left, n_left) + (n - n_left) * gini(right, n - n_left)) / n\n"
                "    valid = np.flatnonzero(xs[1:] > xs[:-1])\n"
                "    best = valid[len(valid) - 1 - np.argmax(gain[valid][::-1])]\n"
                "    return float((xs[best] + xs[best + 1]) / 2), float(gain[best])\n"),
            "the last of equally good thresholds (>= in a loop)": (
                "def best_threshold(x, y):\n"
                "    values = np.unique(x)\n"
                "    classes = np.unique(y)\n"
                "    def gini(v):\n"
                "        if len(v) == 0:\n"
                "            return 0.0\n"
                "        p = np.array([np.mean(v == c) for c in classes])\n"
                "        return 1 - np.sum(p ** 2)\n"
                "    best_t, best_g = None, -np.inf\n"
                "    for t in (values[1:] + values[:-1]) / 2:\n"
                "        l, r = y[x <= t], y[x > t]\n"
                "        g = gini(y) - (len(l) * gini(l) + len(r) * gini(r)) / len(y)\n"
                "        if g >= best_g:\n"
                "            best_t, best_g = t, g\n"
                "    return float(best_t), float(best_g)\n"),
            "the middle one of equally good thresholds (right for two, wrong for three or more)": (
                "def best_threshold(x, y):\n"
                "    values = np.unique(x)\n"
                "    cands = (values[1:] + values[:-1]) / 2\n"
                "    classes = np.unique(y)\n"
                "    def gini(v):\n"
                "        p = np.array([np.mean(v == c) for c in classes])\n"
                "        return 1 - np.sum(p ** 2)\n"
                "    gains = np.array([gini(y) - (np.sum(x <= t) * gini(y[x <= t]) + np.sum(x > t) * gini(y[x > t])) / len(y)\n"
                "                      for t in cands])\n"
                "    tied = np.flatnonzero(gains == gains.max())\n"
                "    best = tied[(len(tied) - 1) // 2]\n"
                "    return float(cands[best]), float(gains[best])\n"),
            "cuts between equal values of x allowed": (
                "def best_threshold(x, y):\n"
                "    order = np.argsort(x, kind='stable')\n"
                "    xs, onehot = x[order], (y[order][:, None] == np.unique(y)).astype(float)\n"
                "    n = len(x)\n"
                "    left = np.cumsum(onehot, axis=0)[:-1]\n"
                "    right = onehot.sum(axis=0) - left\n"
                "    n_left = np.arange(1, n)\n"
                "    gini = lambda c, m: 1 - ((c / m[:, None]) ** 2).sum(axis=1)\n"
                "    parent = 1 - ((onehot.sum(axis=0) / n) ** 2).sum()\n"
                "    gain = parent - (n_left * gini(left, n_left) + (n - n_left) * gini(right, n - n_left)) / n\n"
                "    best = np.argmax(gain)\n"
                "    return float((xs[best] + xs[best + 1]) / 2), float(gain[best])\n"),
            "the children's impurities averaged without their weights": (
                "def best_threshold(x, y):\n"
                "    order = np.argsort(x, kind='stable')\n"
                "    xs, onehot = x[order], (y[order][:, None] == np.unique(y)).astype(float)\n"
                "    n = len(x)\n"
                "    left = np.cumsum(onehot, axis=0)[:-1]\n"
                "    right = onehot.sum(axis=0) - left\n"
                "    n_left = np.arange(1, n)\n"
                "    gini = lambda c, m: 1 - ((c / m[:, None]) ** 2).sum(axis=1)\n"
                "    parent = 1 - ((onehot.sum(axis=0) / n) ** 2).sum()\n"
                "    gain = parent - (gini(left, n_left) + gini(right, n - n_left)) / 2\n"
                "    valid = np.flatnonzero(xs[1:] > xs[:-1])\n"
                "    best = valid[np.argmax(gain[valid])]\n"
                "    return float((xs[best] + xs[best + 1]) / 2), float(gain[best])\n"),
            "the threshold at the left value, not the midpoint": (
                "def best_threshold(x, y):\n"
                "    order = np.argsort(x, kind='stable')\n"
                "    xs, onehot = x[order], (y[order][:, None] == np.unique(y)).astype(float)\n"
                "    n = len(x)\n"
                "    left = np.cumsum(onehot, axis=0)[:-1]\n"
                "    right = onehot.sum(axis=0) - left\n"
                "    n_left = np.arange(1, n)\n"
                "    gini = lambda c, m: 1 - ((c / m[:, None]) ** 2).sum(axis=1)\n"
                "    parent = 1 - ((onehot.sum(axis=0) / n) ** 2).sum()\n"
                "    gain = parent - (n_left * gini(left, n_left) + (n - n_left) * gini(right, n - n_left)) / n\n"
                "    valid = np.flatnonzero(xs[1:] > xs[:-1])\n"
                "    best = valid[np.argmax(gain[valid])]\n"
                "    return float(xs[best]), float(gain[best])\n"),
            "the entropy gain instead of the Gini gain": (
                "def best_threshold(x, y):\n"
                "    values = np.unique(x)\n"
                "    cands = (values[1:] + values[:-1]) / 2\n"
                "    def h(v):\n"
                "        _, c = np.unique(v, return_counts=True)\n"
                "        p = c / c.sum()\n"
                "        return -(p * np.log2(p)).sum()\n"
                "    gains = [h(y) - (np.sum(x <= t) * h(y[x <= t]) + np.sum(x > t) * h(y[x > t])) / len(y) for t in cands]\n"
                "    best = int(np.argmax(gains))\n"
                "    return float(cands[best]), float(gains[best])\n"),
            "the library's trees.best_threshold": (
                "def best_threshold(x, y):\n"
                "    split = trees.best_threshold(x, y)\n"
                "    return split.threshold, split.gain\n"),
        },
        "right": {
            "a loop over the candidate thresholds, keeping the first strictly better one": (
                "def best_threshold(x, y):\n"
                "    values = np.unique(x)\n"
                "    def gini(v):\n"
                "        _, c = np.unique(v, return_counts=True)\n"
                "        p = c / len(v)\n"
                "        return float(np.sum(p * (1 - p)))\n"
                "    best_t, best_g = None, -1.0\n"
                "    for t in (values[1:] + values[:-1]) / 2:\n"
                "        mask = x <= t\n"
                "        g = gini(y) - len(y[mask]) / len(y) * gini(y[mask]) - len(y[~mask]) / len(y) * gini(y[~mask])\n"
                "        if g > best_g:\n"
                "            best_t, best_g = t, g\n"
                "    return float(best_t), float(best_g)\n"),
            "cumulative counts per distinct value, Gini from sums of squared counts": (
                "def best_threshold(x, y):\n"
                "    values, inverse = np.unique(x, return_inverse=True)\n"
                "    classes, code = np.unique(y, return_inverse=True)\n"
                "    table = np.zeros((len(values), len(classes)))\n"
                "    np.add.at(table, (inverse, code), 1)\n"
                "    left = np.cumsum(table, axis=0)[:-1]\n"
                "    total = table.sum(axis=0)\n"
                "    right = total - left\n"
                "    nl, nr, n = left.sum(axis=1), right.sum(axis=1), total.sum()\n"
                "    weighted = (nl - (left ** 2).sum(axis=1) / nl) + (nr - (right ** 2).sum(axis=1) / nr)\n"
                "    gain = (1 - (total ** 2).sum() / n ** 2) - weighted / n\n"
                "    i = int(np.argmax(gain))\n"
                "    return float((values[i] + values[i + 1]) / 2), float(gain[i])\n"),
        },
    },
}
