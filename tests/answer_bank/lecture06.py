"""Lecture 06, kernels: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "polynomial_kernel": {
        "wrong": {
            "c added after the power": (
                "def polynomial_kernel(A, B, degree, c):\n"
                "    return (A @ B.T) ** degree + c\n"),
            "c ignored (always 1)": (
                "def polynomial_kernel(A, B, degree, c):\n"
                "    return (1 + A @ B.T) ** degree\n"),
            "the power taken coordinate by coordinate, then summed": (
                "def polynomial_kernel(A, B, degree, c):\n"
                "    return ((c + A[:, None, :] * B[None, :, :]) ** degree).sum(axis=2)\n"),
            "the degree as a factor, not a power": (
                "def polynomial_kernel(A, B, degree, c):\n"
                "    return degree * (c + A @ B.T)\n"),
            "the library's kernels.polynomial_kernel": (
                "def polynomial_kernel(A, B, degree, c):\n"
                "    return kernels.polynomial_kernel(A, B, degree, c)\n"),
            "inner products recovered from the k-means module's clustering.squared_distances": (
                "def polynomial_kernel(A, B, degree, c):\n"
                "    from mlcourse import clustering\n"
                "    D = clustering.squared_distances(A, B)\n"
                "    inner = ((A ** 2).sum(axis=1)[:, None] + (B ** 2).sum(axis=1)[None, :] - D) / 2\n"
                "    return (c + inner) ** degree\n"),
        },
        "right": {
            "a loop over the pairs": (
                "def polynomial_kernel(A, B, degree, c):\n"
                "    K = np.empty((A.shape[0], B.shape[0]))\n"
                "    for i in range(A.shape[0]):\n"
                "        for j in range(B.shape[0]):\n"
                "            K[i, j] = (c + float(np.dot(A[i], B[j]))) ** degree\n"
                "    return K\n"),
            "einsum and repeated multiplication": (
                "def polynomial_kernel(A, B, degree, c):\n"
                "    base = np.einsum('ik,jk->ij', A, B) + c\n"
                "    K = np.ones_like(base)\n"
                "    for _ in range(degree):\n"
                "        K = K * base\n"
                "    return K\n"),
        },
    },
    "kernel_perceptron_epoch": {
        "wrong": {
            "a score of exactly 0 not counted as a mistake": (
                "def kernel_perceptron_epoch(G, y, alpha):\n"
                "    alpha = np.array(alpha, dtype=int)\n"
                "    scores = G @ (alpha * y)\n"
                "    for j in range(len(y)):\n"
                "        if y[j] * scores[j] < 0:\n"
                "            alpha[j] += 1\n"
                "            scores = scores + y[j] * G[:, j]\n"
                "    return alpha\n"),
            "the scores computed once before the pass, never updated": (
                "def kernel_perceptron_epoch(G, y, alpha):\n"
                "    alpha = np.array(alpha, dtype=int)\n"
                "    scores = G @ (alpha * y)\n"
                "    for j in range(len(y)):\n"
                "        if y[j] * scores[j] <= 0:\n"
                "            alpha[j] += 1\n"
                "    return alpha\n"),
            "alpha changed in place": (
                "def kernel_perceptron_epoch(G, y, alpha):\n"
                "    scores = G @ (alpha * y)\n"
                "    for j in range(len(y)):\n"
                "        if y[j] * scores[j] <= 0:\n"
                "            alpha[j] += 1\n"
                "            scores = scores + y[j] * G[:, j]\n"
                "    return alpha\n"),
            "the pass started from zero counts, not from alpha": (
                "def kernel_perceptron_epoch(G, y, alpha):\n"
                "    alpha = np.zeros(len(y), dtype=int)\n"
                "    scores = np.zeros(len(y))\n"
                "    for j in range(len(y)):\n"
                "        if y[j] * scores[j] <= 0:\n"
                "            alpha[j] += 1\n"
                "            scores = scores + y[j] * G[:, j]\n"
                "    return alpha\n"),
            "the label left out of the score update": (
                "def kernel_perceptron_epoch(G, y, alpha):\n"
                "    alpha = np.array(alpha, dtype=int)\n"
                "    scores = G @ (alpha * y)\n"
                "    for j in range(len(y)):\n"
                "        if y[j] * scores[j] <= 0:\n"
                "            alpha[j] += 1\n"
                "            scores = scores + G[:, j]\n"
                "    return alpha\n"),
            "the library's kernels.train_kernel_perceptron for one epoch": (
                "def kernel_perceptron_epoch(G, y, alpha):\n"
                "    return kernels.train_kernel_perceptron(G, y, max_epochs=1, alpha0=alpha).alpha\n"),
        },
        "right": {
            "each score computed afresh from the current counts": (
                "def kernel_perceptron_epoch(G, y, alpha):\n"
                "    counts = [int(a) for a in alpha]\n"
                "    n = len(y)\n"
                "    for j in range(n):\n"
                "        f = sum(counts[i] * y[i] * G[j, i] for i in range(n))\n"
                "        if y[j] * f <= 0:\n"
                "            counts[j] += 1\n"
                "    return np.array(counts)\n"),
        },
    },
    "kernel_predict": {
        "wrong": {
            "a score of 0 predicts -1 (> instead of >=)": (
                "def kernel_predict(K_query, y_train, alpha):\n"
                "    return np.where(K_query @ (alpha * y_train) > 0, 1, -1)\n"),
            "np.sign of the scores (a score of 0 stays 0)": (
                "def kernel_predict(K_query, y_train, alpha):\n"
                "    return np.sign(K_query @ (alpha * y_train)).astype(int)\n"),
            "the labels left out of the weights": (
                "def kernel_predict(K_query, y_train, alpha):\n"
                "    return np.where(K_query @ alpha >= 0, 1, -1)\n"),
            "the counts left out of the weights": (
                "def kernel_predict(K_query, y_train, alpha):\n"
                "    return np.where(K_query @ y_train >= 0, 1, -1)\n"),
            "the SVM library's svm.predict with bias 0": (
                "def kernel_predict(K_query, y_train, alpha):\n"
                "    from mlcourse import svm\n"
                "    return svm.predict(K_query, y_train, alpha, 0.0)\n"),
            "the library's kernels.kernel_predict": (
                "def kernel_predict(K_query, y_train, alpha):\n"
                "    return kernels.kernel_predict(K_query, y_train, alpha)\n"),
            "the library's kernels.kernel_decision_function, then the sign": (
                "def kernel_predict(K_query, y_train, alpha):\n"
                "    return np.where(kernels.kernel_decision_function(K_query, y_train, alpha) >= 0, 1, -1)\n"),
        },
        "right": {
            "a loop over the queries": (
                "def kernel_predict(K_query, y_train, alpha):\n"
                "    out = []\n"
                "    for row in K_query:\n"
                "        f = sum(a * t * k for a, t, k in zip(alpha, y_train, row))\n"
                "        out.append(-1 if f < 0 else 1)\n"
                "    return np.array(out)\n"),
            "the sign with 0 mapped to +1": (
                "def kernel_predict(K_query, y_train, alpha):\n"
                "    s = np.sign(np.einsum('qi,i->q', K_query, alpha * y_train))\n"
                "    s[s == 0] = 1\n"
                "    return s.astype(int)\n"),
        },
    },
    "rbf_gram": {
        "wrong": {
            "the expansion ||a||^2 + ||b||^2 - 2 a.b without centring and without clipping": (
                "def rbf_gram(A, B, sigma):\n"
                "    D = (A ** 2).sum(axis=1)[:, None] + (B ** 2).sum(axis=1)[None, :] - 2 * A @ B.T\n"
                "    return np.exp(-D / (2 * sigma ** 2))\n"),
            "the expansion clipped at 0 but not centred": (
                "def rbf_gram(A, B, sigma):\n"
                "    D = (A ** 2).sum(axis=1)[:, None] + (B ** 2).sum(axis=1)[None, :] - 2 * A @ B.T\n"
                "    return np.exp(-np.maximum(D, 0.0) / (2 * sigma ** 2))\n"),
            "sigma not squared": (
                "def rbf_gram(A, B, sigma):\n"
                "    D = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)\n"
                "    return np.exp(-D / (2 * sigma))\n"),
            "the factor 2 forgotten: exp(-D / sigma^2)": (
                "def rbf_gram(A, B, sigma):\n"
                "    D = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)\n"
                "    return np.exp(-D / sigma ** 2)\n"),
            "the distances, not their squares": (
                "def rbf_gram(A, B, sigma):\n"
                "    D = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)\n"
                "    return np.exp(-np.sqrt(D) / (2 * sigma ** 2))\n"),
            "each set centred on its own mean": (
                "def rbf_gram(A, B, sigma):\n"
                "    A, B = A - A.mean(axis=0), B - B.mean(axis=0)\n"
                "    D = (A ** 2).sum(axis=1)[:, None] - 2 * A @ B.T + (B ** 2).sum(axis=1)[None, :]\n"
                "    return np.exp(-np.maximum(D, 0.0) / (2 * sigma ** 2))\n"),
            "the k-means module's clustering.squared_distances": (
                "def rbf_gram(A, B, sigma):\n"
                "    from mlcourse import clustering\n"
                "    return np.exp(-clustering.squared_distances(A, B) / (2 * sigma ** 2))\n"),
            "the k-means module's squared distances, by import mlcourse.clustering": (
                "def rbf_gram(A, B, sigma):\n"
                "    import mlcourse.clustering\n"
                "    return np.exp(-mlcourse.clustering.squared_distances(A, B) / (2 * sigma ** 2))\n"),
            "lecture 05's library neighbours.squared_distances": (
                "def rbf_gram(A, B, sigma):\n"
                "    from mlcourse import neighbours\n"
                "    return np.exp(-neighbours.squared_distances(A, B) / (2 * sigma ** 2))\n"),
            "the library's kernels.rbf_kernel": (
                "def rbf_gram(A, B, sigma):\n"
                "    return kernels.rbf_kernel(A, B, sigma)\n"),
        },
        "right": {
            "a broadcast difference": (
                "def rbf_gram(A, B, sigma):\n"
                "    diff = A[:, None, :] - B[None, :, :]\n"
                "    return np.exp(-np.einsum('ijk,ijk->ij', diff, diff) / (2 * sigma * sigma))\n"),
            "the expansion centred on the mean of A, clipped, the exponential as a product": (
                "def rbf_gram(A, B, sigma):\n"
                "    c = A.mean(axis=0)\n"
                "    A0, B0 = A - c, B - c\n"
                "    D = np.clip(np.sum(A0 * A0, axis=1)[:, None] + np.sum(B0 * B0, axis=1) - 2 * A0 @ B0.T, 0, None)\n"
                "    gamma = 1.0 / (2.0 * sigma ** 2)\n"
                "    return np.exp(-gamma * D)\n"),
        },
    },
    "smallest_gram_eigenvalue": {
        "wrong": {
            "the last eigenvalue (eigvalsh sorts them in increasing order)": (
                "def smallest_gram_eigenvalue(kernel, X):\n"
                "    G = np.asarray(kernel(X, X), dtype=float)\n"
                "    return float(np.linalg.eigvalsh((G + G.T) / 2)[-1])\n"),
            "the smallest singular value (never negative)": (
                "def smallest_gram_eigenvalue(kernel, X):\n"
                "    G = np.asarray(kernel(X, X), dtype=float)\n"
                "    return float(np.linalg.svd((G + G.T) / 2, compute_uv=False).min())\n"),
            "the smallest entry of the Gram matrix": (
                "def smallest_gram_eigenvalue(kernel, X):\n"
                "    G = np.asarray(kernel(X, X), dtype=float)\n"
                "    return float(G.min())\n"),
            "the smallest diagonal entry": (
                "def smallest_gram_eigenvalue(kernel, X):\n"
                "    G = np.asarray(kernel(X, X), dtype=float)\n"
                "    return float(np.diag(G).min())\n"),
            "the Gram matrix of the columns of X (kernel(X.T, X.T))": (
                "def smallest_gram_eigenvalue(kernel, X):\n"
                "    G = np.asarray(kernel(X.T, X.T), dtype=float)\n"
                "    return float(np.linalg.eigvalsh((G + G.T) / 2)[0])\n"),
            "the library's kernels.smallest_eigenvalue of kernels.gram_matrix": (
                "def smallest_gram_eigenvalue(kernel, X):\n"
                "    return kernels.smallest_eigenvalue(kernels.gram_matrix(kernel, X))\n"),
        },
        "right": {
            "np.linalg.eigh of the symmetrised matrix, the minimum of its eigenvalues": (
                "def smallest_gram_eigenvalue(kernel, X):\n"
                "    G = np.array(kernel(X, X), dtype=float)\n"
                "    S = 0.5 * (G + G.T)\n"
                "    values, _ = np.linalg.eigh(S)\n"
                "    return float(values.min())\n"),
        },
    },
    "fourier_features": {
        "wrong": {
            "the scale sqrt(2/D) left out": (
                "def fourier_features(X, omega, b):\n"
                "    return np.cos(X @ omega.T + b)\n"),
            "sqrt(1/D), the 2 forgotten": (
                "def fourier_features(X, omega, b):\n"
                "    return np.sqrt(1 / len(b)) * np.cos(X @ omega.T + b)\n"),
            "D read as the dimension (omega.shape[1])": (
                "def fourier_features(X, omega, b):\n"
                "    return np.sqrt(2 / omega.shape[1]) * np.cos(X @ omega.T + b)\n"),
            "sin instead of cos": (
                "def fourier_features(X, omega, b):\n"
                "    return np.sqrt(2 / len(b)) * np.sin(X @ omega.T + b)\n"),
            "the phases left out": (
                "def fourier_features(X, omega, b):\n"
                "    return np.sqrt(2 / len(b)) * np.cos(X @ omega.T)\n"),
            "the phases added after the cosine": (
                "def fourier_features(X, omega, b):\n"
                "    return np.sqrt(2 / len(b)) * (np.cos(X @ omega.T) + b)\n"),
            "X @ omega without the transpose (omega's rows are frequencies)": (
                "def fourier_features(X, omega, b):\n"
                "    return np.sqrt(2 / len(b)) * np.cos(X @ omega + b)\n"),
            "the library's kernels.fourier_features": (
                "def fourier_features(X, omega, b):\n"
                "    return kernels.fourier_features(X, omega, b)\n"),
            "the library's kernels.FourierFeatures map": (
                "def fourier_features(X, omega, b):\n"
                "    return kernels.FourierFeatures(omega, b, 1.0)(X)\n"),
        },
        "right": {
            "a loop over the frequencies, cos(a + b) expanded": (
                "def fourier_features(X, omega, b):\n"
                "    D = omega.shape[0]\n"
                "    Z = np.empty((X.shape[0], D))\n"
                "    for k in range(D):\n"
                "        a = X @ omega[k]\n"
                "        Z[:, k] = np.cos(a) * np.cos(b[k]) - np.sin(a) * np.sin(b[k])\n"
                "    return Z * (2.0 / D) ** 0.5\n"),
            "einsum and the phases broadcast as a row": (
                "def fourier_features(X, omega, b):\n"
                "    angles = np.einsum('id,kd->ik', X, omega) + b[None, :]\n"
                "    return np.cos(angles) / np.sqrt(len(b) / 2)\n"),
        },
    },
}
