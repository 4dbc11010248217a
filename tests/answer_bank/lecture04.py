"""Lecture 04, the Bayes-optimal classifier: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "bayes_rule_table": {
        "wrong": {
            "np.argmax alone: a tie goes to the smallest class": (
                "def bayes_rule_table(joint):\n"
                "    return np.argmax(joint, axis=1)\n"),
            "the columns read backwards but the index not mapped back": (
                "def bayes_rule_table(joint):\n"
                "    return np.argmax(joint[:, ::-1], axis=1)\n"),
            "the likelihood P(x | y) maximised instead of the posterior (the prior forgotten)": (
                "def bayes_rule_table(joint):\n"
                "    likelihood = joint / joint.sum(axis=0, keepdims=True)\n"
                "    K = joint.shape[1]\n"
                "    return K - 1 - np.argmax(likelihood[:, ::-1], axis=1)\n"),
            "the rows reversed instead of the columns": (
                "def bayes_rule_table(joint):\n"
                "    K = joint.shape[1]\n"
                "    return K - 1 - np.argmax(joint[::-1], axis=1)\n"),
            "the library's bayes_classifier": (
                "def bayes_rule_table(joint):\n"
                "    return bayes.bayes_classifier(joint)\n"),
        },
        "right": {
            "a loop over the rows, keeping the last maximiser": (
                "def bayes_rule_table(joint):\n"
                "    out = []\n"
                "    for row in joint:\n"
                "        best = 0\n"
                "        for k in range(len(row)):\n"
                "            if row[k] >= row[best]:\n"
                "                best = k\n"
                "        out.append(best)\n"
                "    return np.array(out, dtype=int)\n"),
            "the largest index where the row reaches its maximum": (
                "def bayes_rule_table(joint):\n"
                "    hits = joint == joint.max(axis=1, keepdims=True)\n"
                "    return (hits * np.arange(joint.shape[1])).max(axis=1)\n"),
        },
    },
    "bayes_error_table": {
        "wrong": {
            "the two-class formula: the sum of the row minima": (
                "def bayes_error_table(joint):\n"
                "    return float(joint.min(axis=1).sum())\n"),
            "the maxima over the wrong axis (columns)": (
                "def bayes_error_table(joint):\n"
                "    return float(1.0 - joint.max(axis=0).sum())\n"),
            "the mean of the row maxima instead of their sum": (
                "def bayes_error_table(joint):\n"
                "    return float(1.0 - joint.max(axis=1).mean())\n"),
            "one minus the largest entry of the whole table": (
                "def bayes_error_table(joint):\n"
                "    return float(1.0 - joint.max())\n"),
            "the library's bayes_error": (
                "def bayes_error_table(joint):\n"
                "    return float(bayes.bayes_error(joint))\n"),
        },
        "right": {
            "the mass off the Bayes rule's column, row by row": (
                "def bayes_error_table(joint):\n"
                "    total = 0.0\n"
                "    for row in joint:\n"
                "        total += row.sum() - row.max()\n"
                "    return float(total)\n"),
        },
    },
    "fit_bernoulli_nb": {
        "wrong": {
            "alpha added once to the denominator, not 2 alpha": (
                "def fit_bernoulli_nb(X, y, alpha=1.0):\n"
                "    pi = np.array([np.mean(y == 0), np.mean(y == 1)])\n"
                "    p = np.vstack([(X[y == k].sum(axis=0) + alpha) / (np.sum(y == k) + alpha) for k in (0, 1)])\n"
                "    return pi, p\n"),
            "the priors smoothed too": (
                "def fit_bernoulli_nb(X, y, alpha=1.0):\n"
                "    n = len(y)\n"
                "    pi = np.array([(np.sum(y == k) + alpha) / (n + 2 * alpha) for k in (0, 1)])\n"
                "    p = np.vstack([(X[y == k].sum(axis=0) + alpha) / (np.sum(y == k) + 2 * alpha) for k in (0, 1)])\n"
                "    return pi, p\n"),
            "the counts of a class divided by n, not by N_k": (
                "def fit_bernoulli_nb(X, y, alpha=1.0):\n"
                "    n = len(y)\n"
                "    pi = np.array([np.mean(y == 0), np.mean(y == 1)])\n"
                "    p = np.vstack([(X[y == k].sum(axis=0) + alpha) / (n + 2 * alpha) for k in (0, 1)])\n"
                "    return pi, p\n"),
            "P(Y = k | x_j = 1) instead of P(x_j = 1 | Y = k)": (
                "def fit_bernoulli_nb(X, y, alpha=1.0):\n"
                "    pi = np.array([np.mean(y == 0), np.mean(y == 1)])\n"
                "    p = np.vstack([(X[y == k].sum(axis=0) + alpha) / (X.sum(axis=0) + 2 * alpha) for k in (0, 1)])\n"
                "    return pi, p\n"),
            "the classes in the wrong order": (
                "def fit_bernoulli_nb(X, y, alpha=1.0):\n"
                "    pi = np.array([np.mean(y == 1), np.mean(y == 0)])\n"
                "    p = np.vstack([(X[y == k].sum(axis=0) + alpha) / (np.sum(y == k) + 2 * alpha) for k in (1, 0)])\n"
                "    return pi, p\n"),
            "the library's fit_naive_bayes": (
                "def fit_bernoulli_nb(X, y, alpha=1.0):\n"
                "    model = bayes.fit_naive_bayes(X, y, alpha=alpha)\n"
                "    return model.priors, model.p\n"),
        },
        "right": {
            "counts by matrix products with one-hot labels": (
                "def fit_bernoulli_nb(X, y, alpha=1.0):\n"
                "    Y = np.stack([1 - y, y]).astype(float)          # (2, n)\n"
                "    N = Y.sum(axis=1)\n"
                "    pi = N / len(y)\n"
                "    p = (Y @ X + alpha) / (N[:, None] + 2 * alpha)\n"
                "    return pi, p\n"),
            "loops over the points and features": (
                "def fit_bernoulli_nb(X, y, alpha=1.0):\n"
                "    n, d = X.shape\n"
                "    N = [0, 0]\n"
                "    C = [[0] * d, [0] * d]\n"
                "    for i in range(n):\n"
                "        k = int(y[i])\n"
                "        N[k] += 1\n"
                "        for j in range(d):\n"
                "            C[k][j] += int(X[i, j])\n"
                "    pi = np.array([N[0] / n, N[1] / n])\n"
                "    p = np.array([[(C[k][j] + alpha) / (N[k] + 2 * alpha) for j in range(d)] for k in (0, 1)])\n"
                "    return pi, p\n"),
        },
    },
    "nb_weights": {
        "wrong": {
            "only the evidence of the ones: u_j = log(p_1j / p_0j), u_0 = log(pi_1 / pi_0)": (
                "def nb_weights(pi, p):\n"
                "    return np.r_[np.log(pi[1] / pi[0]), np.log(p[1] / p[0])]\n"),
            "the product p(1 - p) in place of the odds p / (1 - p)": (
                "def nb_weights(pi, p):\n"
                "    off = np.log((1 - p[1]) / (1 - p[0]))\n"
                "    u = np.log(p[1] * (1 - p[1]) / (p[0] * (1 - p[0])))\n"
                "    return np.r_[np.log(pi[1] / pi[0]) + off.sum(), u]\n"),
            "the prior ratio upside down": (
                "def nb_weights(pi, p):\n"
                "    on = np.log(p[1] / p[0])\n"
                "    off = np.log((1 - p[1]) / (1 - p[0]))\n"
                "    return np.r_[np.log(pi[0] / pi[1]) + off.sum(), on - off]\n"),
            "the terms without x_j left out of u_0": (
                "def nb_weights(pi, p):\n"
                "    on = np.log(p[1] / p[0])\n"
                "    off = np.log((1 - p[1]) / (1 - p[0]))\n"
                "    return np.r_[np.log(pi[1] / pi[0]), on - off]\n"),
            "the library's naive_bayes_weights": (
                "def nb_weights(pi, p):\n"
                "    return bayes.naive_bayes_weights(bayes.naive_bayes_model(pi, p))\n"),
        },
        "right": {
            "log-odds of each class, then differences, with a loop over features": (
                "def nb_weights(pi, p):\n"
                "    d = p.shape[1]\n"
                "    u = np.empty(d + 1)\n"
                "    u[0] = np.log(pi[1]) - np.log(pi[0])\n"
                "    for j in range(d):\n"
                "        logit1 = np.log(p[1, j]) - np.log1p(-p[1, j])\n"
                "        logit0 = np.log(p[0, j]) - np.log1p(-p[0, j])\n"
                "        u[j + 1] = logit1 - logit0\n"
                "        u[0] += np.log1p(-p[1, j]) - np.log1p(-p[0, j])\n"
                "    return u\n"),
        },
    },
    "predict_from_weights": {
        "wrong": {
            "a score of 0 predicts 0 (> instead of >=)": (
                "def predict_from_weights(u, X):\n"
                "    return (u[0] + X @ u[1:] > 0).astype(int)\n"),
            "the bias taken as the last weight": (
                "def predict_from_weights(u, X):\n"
                "    return (X @ u[:-1] + u[-1] >= 0).astype(int)\n"),
            "the bias forgotten": (
                "def predict_from_weights(u, X):\n"
                "    return (X @ u[1:] >= 0).astype(int)\n"),
            "labels -1 and +1 instead of 0 and 1": (
                "def predict_from_weights(u, X):\n"
                "    return np.where(u[0] + X @ u[1:] >= 0, 1, -1)\n"),
            "the library's predict_linear": (
                "def predict_from_weights(u, X):\n"
                "    return bayes.predict_linear(u, X)\n"),
        },
        "right": {
            "a column of ones prepended, and a loop": (
                "def predict_from_weights(u, X):\n"
                "    Z = np.hstack([np.ones((X.shape[0], 1)), X])\n"
                "    return np.array([1 if z @ u >= 0 else 0 for z in Z], dtype=int)\n"),
            "the score's sign bit": (
                "def predict_from_weights(u, X):\n"
                "    s = X @ u[1:] + u[0]\n"
                "    return 1 - (s < 0).astype(np.int64)\n"),
        },
    },
}
