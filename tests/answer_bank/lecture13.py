"""Lecture 13, ensembles: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "average_variance": {
        "wrong": {
            "independent predictions assumed (sigma^2 / B)": (
                "def average_variance(sigma2, rho, B):\n"
                "    return sigma2 / B\n"),
            "the 1 - rho dropped (rho sigma^2 + sigma^2 / B)": (
                "def average_variance(sigma2, rho, B):\n"
                "    return rho * sigma2 + sigma2 / B\n"),
            "divided by B twice ((1 - rho) sigma^2 / B^2)": (
                "def average_variance(sigma2, rho, B):\n"
                "    return rho * sigma2 + (1 - rho) * sigma2 / B ** 2\n"),
            "the floor divided by B as well": (
                "def average_variance(sigma2, rho, B):\n"
                "    return (rho * sigma2 + (1 - rho) * sigma2) / B\n"),
            "the covariances counted once per pair (B(B - 1)/2 of them)": (
                "def average_variance(sigma2, rho, B):\n"
                "    return (B * sigma2 + B * (B - 1) / 2 * rho * sigma2) / B ** 2\n"),
            "the library's ensembles.correlated_average_variance": (
                "def average_variance(sigma2, rho, B):\n"
                "    return ensembles.correlated_average_variance(sigma2, rho, B)\n"),
        },
        "right": {
            "the quadratic form 1' C 1 / B^2": (
                "def average_variance(sigma2, rho, B):\n"
                "    C = sigma2 * (rho * np.ones((B, B)) + (1 - rho) * np.eye(B))\n"
                "    return float(C.sum() / B ** 2)\n"),
            "sigma^2 (1 + (B - 1) rho) / B": (
                "def average_variance(sigma2, rho, B):\n"
                "    return sigma2 * (1 + (B - 1) * rho) / B\n"),
        },
    },
    "out_of_bag": {
        "wrong": {
            "the in-bag mask (True for the points drawn)": (
                "def out_of_bag(indices, n):\n"
                "    in_bag = np.zeros((indices.shape[0], n), dtype=bool)\n"
                "    for b in range(indices.shape[0]):\n"
                "        in_bag[b, indices[b]] = True\n"
                "    return in_bag\n"),
            "one mask for all samples together, repeated on every row": (
                "def out_of_bag(indices, n):\n"
                "    out = ~np.isin(np.arange(n), indices)\n"
                "    return np.tile(out, (indices.shape[0], 1))\n"),
            "points numbered from 1 (np.arange(1, n + 1))": (
                "def out_of_bag(indices, n):\n"
                "    return np.array([~np.isin(np.arange(1, n + 1), row) for row in indices])\n"),
            "the out-of-bag mask built for the transposed indices (samples as columns)": (
                "def out_of_bag(indices, n):\n"
                "    return np.array([[i not in col for i in range(n)] for col in indices.T])[:indices.shape[0]]\n"),
            "the library's ensembles.out_of_bag_mask": (
                "def out_of_bag(indices, n):\n"
                "    return ensembles.out_of_bag_mask(indices, n)\n"),
        },
        "right": {
            "np.isin row by row": (
                "def out_of_bag(indices, n):\n"
                "    return np.array([~np.isin(np.arange(n), row) for row in indices], dtype=bool).reshape(len(indices), n)\n"),
            "counts of each point per row": (
                "def out_of_bag(indices, n):\n"
                "    B = indices.shape[0]\n"
                "    counts = np.zeros((B, n), dtype=int)\n"
                "    np.add.at(counts, (np.repeat(np.arange(B), indices.shape[1]), indices.ravel()), 1)\n"
                "    return counts == 0\n"),
        },
    },
    "stump_error": {
        "wrong": {
            "the weights not divided by their sum": (
                "def stump_error(x, y, w, threshold, left):\n"
                "    h = np.where(x <= threshold, left, -left)\n"
                "    return float(w[h != y].sum())\n"),
            "mistakes counted without their weights": (
                "def stump_error(x, y, w, threshold, left):\n"
                "    h = np.where(x <= threshold, left, -left)\n"
                "    return float(np.mean(h != y))\n"),
            "a point at the threshold sent right (x < threshold)": (
                "def stump_error(x, y, w, threshold, left):\n"
                "    h = np.where(x < threshold, left, -left)\n"
                "    return float(w[h != y].sum() / w.sum())\n"),
            "the left side always predicting +1 (left ignored)": (
                "def stump_error(x, y, w, threshold, left):\n"
                "    h = np.where(x <= threshold, 1, -1)\n"
                "    return float(w[h != y].sum() / w.sum())\n"),
            "the library's ensembles.weighted_error": (
                "def stump_error(x, y, w, threshold, left):\n"
                "    s = ensembles.Stump(0, threshold, left, -left)\n"
                "    return ensembles.weighted_error(s, x[:, None], y, w)\n"),
        },
        "right": {
            "one minus the weighted accuracy": (
                "def stump_error(x, y, w, threshold, left):\n"
                "    h = left * (2 * (x <= threshold) - 1)\n"
                "    return 1.0 - float(np.dot(w, h == y) / np.sum(w))\n"),
            "a loop": (
                "def stump_error(x, y, w, threshold, left):\n"
                "    wrong = total = 0.0\n"
                "    for xi, yi, wi in zip(x, y, w):\n"
                "        pred = left if xi <= threshold else -left\n"
                "        total += wi\n"
                "        wrong += wi * (pred != yi)\n"
                "    return wrong / total\n"),
        },
    },
    "adaboost_round": {
        "wrong": {
            "alpha without the 1/2 (SAMME's vote)": (
                "def adaboost_round(w, y, h):\n"
                "    w = w / w.sum()\n"
                "    eps = w[h != y].sum()\n"
                "    alpha = np.log((1 - eps) / eps)\n"
                "    w_new = w * np.exp(-alpha * y * h)\n"
                "    return float(alpha), w_new / w_new.sum()\n"),
            "the new weights not normalised": (
                "def adaboost_round(w, y, h):\n"
                "    w = w / w.sum()\n"
                "    eps = w[h != y].sum()\n"
                "    alpha = 0.5 * np.log((1 - eps) / eps)\n"
                "    return float(alpha), w * np.exp(-alpha * y * h)\n"),
            "the sign of the update flipped (right points gain weight)": (
                "def adaboost_round(w, y, h):\n"
                "    w = w / w.sum()\n"
                "    eps = w[h != y].sum()\n"
                "    alpha = 0.5 * np.log((1 - eps) / eps)\n"
                "    w_new = w * np.exp(alpha * y * h)\n"
                "    return float(alpha), w_new / w_new.sum()\n"),
            "eps from the weights before normalising them": (
                "def adaboost_round(w, y, h):\n"
                "    eps = w[h != y].sum()\n"
                "    alpha = 0.5 * np.log(abs((1 - eps) / eps))\n"
                "    w_new = w * np.exp(-alpha * y * h)\n"
                "    return float(alpha), w_new / w_new.sum()\n"),
            "a logarithm in base 2": (
                "def adaboost_round(w, y, h):\n"
                "    w = w / w.sum()\n"
                "    eps = w[h != y].sum()\n"
                "    alpha = 0.5 * np.log2((1 - eps) / eps)\n"
                "    w_new = w * np.exp(-alpha * y * h)\n"
                "    return float(alpha), w_new / w_new.sum()\n"),
            "the library's ensembles.adaboost_alpha and adaboost_update": (
                "def adaboost_round(w, y, h):\n"
                "    w = w / w.sum()\n"
                "    alpha = ensembles.adaboost_alpha(w[h != y].sum())\n"
                "    return alpha, ensembles.adaboost_update(w, y, h, alpha)[0]\n"),
        },
        "right": {
            "wrong points scaled to 1/2, right ones to 1/2 (the update's closed form)": (
                "def adaboost_round(w, y, h):\n"
                "    p = w / np.sum(w)\n"
                "    wrong = h != y\n"
                "    eps = p[wrong].sum()\n"
                "    new = np.where(wrong, p / (2 * eps), p / (2 * (1 - eps)))\n"
                "    return 0.5 * np.log((1 - eps) / eps), new\n"),
            "without normalising w first (the factor cancels)": (
                "def adaboost_round(w, y, h):\n"
                "    eps = w[h != y].sum() / w.sum()\n"
                "    alpha = np.log(np.sqrt((1 - eps) / eps))\n"
                "    v = w * np.exp(-alpha * (y * h))\n"
                "    return alpha, v / v.sum()\n"),
        },
    },
    "margins": {
        "wrong": {
            "not normalised (y f)": (
                "def margins(alphas, H, y):\n"
                "    return y * (alphas @ H)\n"),
            "divided by sum alpha, not sum |alpha|": (
                "def margins(alphas, H, y):\n"
                "    return y * (alphas @ H) / alphas.sum()\n"),
            "divided by T": (
                "def margins(alphas, H, y):\n"
                "    return y * (alphas @ H) / len(alphas)\n"),
            "the scores, without y": (
                "def margins(alphas, H, y):\n"
                "    return (alphas @ H) / np.abs(alphas).sum()\n"),
            "divided by the Euclidean norm of alpha": (
                "def margins(alphas, H, y):\n"
                "    return y * (alphas @ H) / np.linalg.norm(alphas)\n"),
        },
        "right": {
            "a loop over the stumps": (
                "def margins(alphas, H, y):\n"
                "    f = np.zeros(H.shape[1])\n"
                "    for a, h in zip(alphas, H):\n"
                "        f = f + a * h\n"
                "    return y * f / sum(abs(a) for a in alphas)\n"),
            "einsum": (
                "def margins(alphas, H, y):\n"
                "    return np.einsum('t,tn,n->n', alphas, H, y) / np.sum(np.abs(alphas))\n"),
        },
    },
}
