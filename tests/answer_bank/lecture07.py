"""Lecture 07, the support vector machine and duality: wrong answers the judge must reject, right ones it must
accept."""

BANK = {
    "soft_margin_objective": {
        "wrong": {
            "the regulariser without its 1/2 (and the gradient to match)": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    m = y * (X @ w + b)\n"
                "    active = m < 1\n"
                "    value = w @ w + C * np.sum(1 - m[active])\n"
                "    return float(value), 2 * w - C * (y[active] @ X[active]), float(-C * np.sum(y[active]))\n"),
            "the hinge term of the subgradient with the wrong sign": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    m = y * (X @ w + b)\n"
                "    active = m < 1\n"
                "    value = 0.5 * w @ w + C * np.sum(1 - m[active])\n"
                "    return float(value), w + C * (y[active] @ X[active]), float(C * np.sum(y[active]))\n"),
            "the hinge losses averaged (C / n) instead of summed": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    n = len(y)\n"
                "    m = y * (X @ w + b)\n"
                "    active = m < 1\n"
                "    value = 0.5 * w @ w + C / n * np.sum(1 - m[active])\n"
                "    return float(value), w - C / n * (y[active] @ X[active]), float(-C / n * np.sum(y[active]))\n"),
            "the margin without the label, m = w . x + b": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    m = X @ w + b\n"
                "    active = m < 1\n"
                "    value = 0.5 * w @ w + C * np.sum(1 - m[active])\n"
                "    return float(value), w - C * (y[active] @ X[active]), float(-C * np.sum(y[active]))\n"),
            "the bias penalised with w, 1/2 (||w||^2 + b^2)": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    m = y * (X @ w + b)\n"
                "    active = m < 1\n"
                "    value = 0.5 * (w @ w + b * b) + C * np.sum(1 - m[active])\n"
                "    return float(value), w - C * (y[active] @ X[active]), float(b - C * np.sum(y[active]))\n"),
            "only the misclassified points (m < 0) in the subgradient": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    m = y * (X @ w + b)\n"
                "    value = 0.5 * w @ w + C * np.sum(np.maximum(0.0, 1 - m))\n"
                "    wrong = m < 0\n"
                "    return float(value), w - C * (y[wrong] @ X[wrong]), float(-C * np.sum(y[wrong]))\n"),
            "C on the regulariser instead of on the hinge losses": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    m = y * (X @ w + b)\n"
                "    active = m < 1\n"
                "    value = 0.5 * C * w @ w + np.sum(1 - m[active])\n"
                "    return float(value), C * w - y[active] @ X[active], float(-np.sum(y[active]))\n"),
            "the library's primal_objective for the value (shortcut)": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    m = y * (X @ w + b)\n"
                "    active = m < 1\n"
                "    value = svm.primal_objective(w, b, X, y, C)\n"
                "    return float(value), w - C * (y[active] @ X[active]), float(-C * np.sum(y[active]))\n"),
            "the library's hinge_loss (shortcut)": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    m = y * (X @ w + b)\n"
                "    active = m < 1\n"
                "    value = 0.5 * w @ w + C * svm.hinge_loss(m).sum()\n"
                "    return float(value), w - C * (y[active] @ X[active]), float(-C * np.sum(y[active]))\n"),
        },
        "right": {
            "a loop over the points": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    value = 0.5 * float(np.dot(w, w))\n"
                "    g_w = np.array(w, dtype=float)\n"
                "    g_b = 0.0\n"
                "    for x_i, y_i in zip(X, y):\n"
                "        margin = y_i * (np.dot(w, x_i) + b)\n"
                "        if margin < 1:\n"
                "            value += C * (1 - margin)\n"
                "            g_w = g_w - C * y_i * x_i\n"
                "            g_b -= C * y_i\n"
                "    return float(value), g_w, float(g_b)\n"),
            "slacks by np.maximum and the active set as 0/1 weights": (
                "def soft_margin_objective(w, b, X, y, C):\n"
                "    xi = np.maximum(0.0, 1.0 - y * (X @ w + b))\n"
                "    on = (xi > 0).astype(float) * y\n"
                "    return float(np.sum(w ** 2) / 2 + C * xi.sum()), w - C * (X.T @ on), float(-C * on.sum())\n"),
        },
    },
    "dual_objective": {
        "wrong": {
            "the quadratic term without its 1/2": (
                "def dual_objective(alpha, K, y):\n"
                "    ay = alpha * y\n"
                "    return float(alpha.sum() - ay @ K @ ay)\n"),
            "the labels left out, alpha^T K alpha": (
                "def dual_objective(alpha, K, y):\n"
                "    return float(alpha.sum() - 0.5 * alpha @ K @ alpha)\n"),
            "the quadratic term added": (
                "def dual_objective(alpha, K, y):\n"
                "    ay = alpha * y\n"
                "    return float(alpha.sum() + 0.5 * ay @ K @ ay)\n"),
            "elementwise products where the quadratic form is meant": (
                "def dual_objective(alpha, K, y):\n"
                "    ay = alpha * y\n"
                "    return float(alpha.sum() - 0.5 * np.sum(ay * K * ay))\n"),
            "the sum of the multipliers forgotten": (
                "def dual_objective(alpha, K, y):\n"
                "    ay = alpha * y\n"
                "    return float(-0.5 * ay @ K @ ay)\n"),
            "the library's dual_objective (shortcut)": (
                "def dual_objective(alpha, K, y):\n"
                "    return svm.dual_objective(alpha, K, y)\n"),
        },
        "right": {
            "a double loop over the pairs": (
                "def dual_objective(alpha, K, y):\n"
                "    n = len(alpha)\n"
                "    quad = 0.0\n"
                "    for i in range(n):\n"
                "        for j in range(n):\n"
                "            quad += alpha[i] * alpha[j] * y[i] * y[j] * K[i, j]\n"
                "    return float(sum(alpha) - quad / 2)\n"),
            "the outer product of y with itself, weighted by K": (
                "def dual_objective(alpha, K, y):\n"
                "    Q = np.outer(y, y) * K\n"
                "    return float(np.sum(alpha) - 0.5 * np.einsum('i,ij,j->', alpha, Q, alpha))\n"),
        },
    },
    "w_and_b": {
        "wrong": {
            "w without the labels, alpha @ X": (
                "def w_and_b(X, y, alpha, C):\n"
                "    w = alpha @ X\n"
                "    on_margin = (alpha > 1e-8 * C) & (alpha < (1 - 1e-8) * C)\n"
                "    return w, float(np.mean(y[on_margin] - X[on_margin] @ w))\n"),
            "b averaged over every support vector, the bounded ones too": (
                "def w_and_b(X, y, alpha, C):\n"
                "    w = (alpha * y) @ X\n"
                "    support = alpha > 1e-8 * C\n"
                "    return w, float(np.mean(y[support] - X[support] @ w))\n"),
            "b averaged over all the points": (
                "def w_and_b(X, y, alpha, C):\n"
                "    w = (alpha * y) @ X\n"
                "    return w, float(np.mean(y - X @ w))\n"),
            "b with the sign flipped, w . x_i - y_i": (
                "def w_and_b(X, y, alpha, C):\n"
                "    w = (alpha * y) @ X\n"
                "    on_margin = (alpha > 1e-8 * C) & (alpha < (1 - 1e-8) * C)\n"
                "    return w, float(np.mean(X[on_margin] @ w - y[on_margin]))\n"),
            "exact comparisons 0 < alpha < C instead of the tolerances": (
                "def w_and_b(X, y, alpha, C):\n"
                "    w = (alpha * y) @ X\n"
                "    on_margin = (alpha > 0) & (alpha < C)\n"
                "    return w, float(np.mean(y[on_margin] - X[on_margin] @ w))\n"),
            "the library's weights (shortcut)": (
                "def w_and_b(X, y, alpha, C):\n"
                "    w = svm.weights(X, y, alpha)\n"
                "    on_margin = (alpha > 1e-8 * C) & (alpha < (1 - 1e-8) * C)\n"
                "    return w, float(np.mean(y[on_margin] - X[on_margin] @ w))\n"),
            "the library's solver for b (shortcut)": (
                "def w_and_b(X, y, alpha, C):\n"
                "    w = (alpha * y) @ X\n"
                "    return w, float(svm.fit_svm(X @ X.T, y, C=C, tol=1e-10, max_iter=200_000).b)\n"),
        },
        "right": {
            "loops: w accumulated point by point, b from a running sum": (
                "def w_and_b(X, y, alpha, C):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    for a_i, y_i, x_i in zip(alpha, y, X):\n"
                "        w += a_i * y_i * x_i\n"
                "    total, count = 0.0, 0\n"
                "    for a_i, y_i, x_i in zip(alpha, y, X):\n"
                "        if 1e-8 * C < a_i < (1 - 1e-8) * C:\n"
                "            total += y_i - x_i @ w\n"
                "            count += 1\n"
                "    return w, total / count\n"),
            "X^T (alpha y), and the margin points found by index": (
                "def w_and_b(X, y, alpha, C):\n"
                "    w = X.T @ (alpha * y)\n"
                "    idx = np.flatnonzero(np.abs(alpha - C / 2) < C / 2 * (1 - 2e-8))\n"
                "    return w, float((y[idx] - X[idx] @ w).sum() / idx.size)\n"),
        },
    },
    "support_vector_kinds": {
        "wrong": {
            "exact comparisons with 0 and C": (
                "def support_vector_kinds(alpha, C):\n"
                "    kinds = np.ones(len(alpha), dtype=int)\n"
                "    kinds[alpha == 0] = 0\n"
                "    kinds[alpha == C] = 2\n"
                "    return kinds\n"),
            "absolute tolerances 1e-8 instead of 1e-8 C": (
                "def support_vector_kinds(alpha, C):\n"
                "    kinds = np.ones(len(alpha), dtype=int)\n"
                "    kinds[alpha <= 1e-8] = 0\n"
                "    kinds[alpha >= C - 1e-8] = 2\n"
                "    return kinds\n"),
            "the kinds of the margin and the bounded points swapped": (
                "def support_vector_kinds(alpha, C):\n"
                "    kinds = np.full(len(alpha), 2)\n"
                "    kinds[alpha <= 1e-8 * C] = 0\n"
                "    kinds[alpha >= (1 - 1e-8) * C] = 1\n"
                "    return kinds\n"),
            "C taken as 1": (
                "def support_vector_kinds(alpha, C):\n"
                "    kinds = np.ones(len(alpha), dtype=int)\n"
                "    kinds[alpha <= 1e-8] = 0\n"
                "    kinds[alpha >= 1 - 1e-8] = 2\n"
                "    return kinds\n"),
            "a tolerance of 1e-6 C, too loose": (
                "def support_vector_kinds(alpha, C):\n"
                "    kinds = np.ones(len(alpha), dtype=int)\n"
                "    kinds[alpha <= 1e-6 * C] = 0\n"
                "    kinds[alpha >= (1 - 1e-6) * C] = 2\n"
                "    return kinds\n"),
        },
        "right": {
            "a loop with if / elif": (
                "def support_vector_kinds(alpha, C):\n"
                "    out = []\n"
                "    for a in alpha:\n"
                "        if a <= 1e-8 * C:\n"
                "            out.append(0)\n"
                "        elif a >= (1 - 1e-8) * C:\n"
                "            out.append(2)\n"
                "        else:\n"
                "            out.append(1)\n"
                "    return np.array(out, dtype=int)\n"),
            "a sum of two indicators": (
                "def support_vector_kinds(alpha, C):\n"
                "    return (alpha > 1e-8 * C).astype(int) + (alpha >= (1 - 1e-8) * C).astype(int)\n"),
        },
    },
    "margin_from_alpha": {
        "wrong": {
            "the square root forgotten": (
                "def margin_from_alpha(G, y, alpha):\n"
                "    ay = alpha * y\n"
                "    return float(1.0 / (ay @ G @ ay))\n"),
            "||w|| returned, not 1 / ||w||": (
                "def margin_from_alpha(G, y, alpha):\n"
                "    ay = alpha * y\n"
                "    return float(np.sqrt(ay @ G @ ay))\n"),
            "the width of the band, 2 / ||w||": (
                "def margin_from_alpha(G, y, alpha):\n"
                "    ay = alpha * y\n"
                "    return float(2.0 / np.sqrt(ay @ G @ ay))\n"),
            "the labels left out": (
                "def margin_from_alpha(G, y, alpha):\n"
                "    return float(1.0 / np.sqrt(alpha @ G @ alpha))\n"),
            "||w||^2 taken as sum(alpha), true only at an exact hard-margin optimum": (
                "def margin_from_alpha(G, y, alpha):\n"
                "    return float(1.0 / np.sqrt(np.sum(alpha)))\n"),
            "||w||^2 from the library's dual_objective (shortcut)": (
                "def margin_from_alpha(G, y, alpha):\n"
                "    return float(1.0 / np.sqrt(2 * (alpha.sum() - svm.dual_objective(alpha, G, y))))\n"),
            "||w||^2 from the library's decision_function (shortcut)": (
                "def margin_from_alpha(G, y, alpha):\n"
                "    return float(1.0 / np.sqrt((alpha * y) @ svm.decision_function(G, y, alpha, 0.0)))\n"),
        },
        "right": {
            "a double loop, then a power of -1/2": (
                "def margin_from_alpha(G, y, alpha):\n"
                "    total = 0.0\n"
                "    for i in range(len(y)):\n"
                "        for j in range(len(y)):\n"
                "            total += alpha[i] * y[i] * alpha[j] * y[j] * G[i, j]\n"
                "    return total ** -0.5\n"),
            "einsum with the outer product of the labels": (
                "def margin_from_alpha(G, y, alpha):\n"
                "    norm2 = np.einsum('i,j,ij->', alpha, alpha, G * np.outer(y, y))\n"
                "    return float(np.reciprocal(np.sqrt(norm2)))\n"),
        },
    },
    "pegasos_step": {
        "wrong": {
            "the shrinking (1 - 1/t) w forgotten": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    new = w + (y * z / (lam * t) if y * (w @ z) < 1 else 0.0)\n"
                "    length = np.sqrt(new @ new)\n"
                "    return new / (np.sqrt(lam) * length) if length > 1 / np.sqrt(lam) else new\n"),
            "the step 1/t, lambda forgotten in it": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    g = lam * w - (y * z if y * (w @ z) < 1 else 0.0)\n"
                "    new = w - g / t\n"
                "    length = np.sqrt(new @ new)\n"
                "    return new / (np.sqrt(lam) * length) if length > 1 / np.sqrt(lam) else new\n"),
            "a margin of exactly 1 counted (m <= 1)": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    new = (1 - 1 / t) * w\n"
                "    if y * (w @ z) <= 1:\n"
                "        new = new + y * z / (lam * t)\n"
                "    length = np.sqrt(new @ new)\n"
                "    return new / (np.sqrt(lam) * length) if length > 1 / np.sqrt(lam) else new\n"),
            "the margin taken after the shrinking": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    new = (1 - 1 / t) * w\n"
                "    if y * (new @ z) < 1:\n"
                "        new = new + y * z / (lam * t)\n"
                "    length = np.sqrt(new @ new)\n"
                "    return new / (np.sqrt(lam) * length) if length > 1 / np.sqrt(lam) else new\n"),
            "no projection onto the ball": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    new = (1 - 1 / t) * w\n"
                "    if y * (w @ z) < 1:\n"
                "        new = new + y * z / (lam * t)\n"
                "    return new\n"),
            "the ball of radius 1 / lam instead of 1 / sqrt(lam)": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    new = (1 - 1 / t) * w\n"
                "    if y * (w @ z) < 1:\n"
                "        new = new + y * z / (lam * t)\n"
                "    length = np.sqrt(new @ new)\n"
                "    return new / (lam * length) if length > 1 / lam else new\n"),
            "the label left out of the margin": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    new = (1 - 1 / t) * w\n"
                "    if w @ z < 1:\n"
                "        new = new + y * z / (lam * t)\n"
                "    length = np.sqrt(new @ new)\n"
                "    return new / (np.sqrt(lam) * length) if length > 1 / np.sqrt(lam) else new\n"),
            "w changed in place": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    active = y * (w @ z) < 1\n"
                "    w *= 1 - 1 / t\n"
                "    if active:\n"
                "        w += y * z / (lam * t)\n"
                "    length = np.sqrt(w @ w)\n"
                "    if length > 1 / np.sqrt(lam):\n"
                "        w /= np.sqrt(lam) * length\n"
                "    return w\n"),
            "the library's pegasos_step (shortcut)": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    return svm.pegasos_step(w, z, y, lam, t)\n"),
        },
        "right": {
            "w minus tau times the subgradient, the projection as a factor min(1, ...)": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    hinge_part = y * z if y * np.dot(w, z) < 1 else np.zeros_like(w)\n"
                "    v = w - (lam * w - hinge_part) / (lam * t)\n"
                "    length = np.linalg.norm(v)\n"
                "    return v * min(1.0, 1.0 / (np.sqrt(lam) * length)) if length > 0 else v\n"),
            "a loop over the coordinates": (
                "def pegasos_step(w, z, y, lam, t):\n"
                "    margin = y * sum(a * b for a, b in zip(w, z))\n"
                "    out = []\n"
                "    for a, b in zip(w, z):\n"
                "        out.append((1 - 1 / t) * a + (y * b / (lam * t) if margin < 1 else 0.0))\n"
                "    out = np.array(out, dtype=float)\n"
                "    radius = lam ** -0.5\n"
                "    length = float(np.sqrt(np.sum(out ** 2)))\n"
                "    if length > radius:\n"
                "        out = out * (radius / length)\n"
                "    return out\n"),
        },
    },
}
