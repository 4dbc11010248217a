"""Lecture 02, the perceptron: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "predict_with_bias": {
        "wrong": {
            "a score of 0 labelled -1": (
                "def predict_with_bias(w, X):\n"
                "    return np.where(w[0] + X @ w[1:] > 0, 1, -1)\n"),
            "the bias taken as the last weight": (
                "def predict_with_bias(w, X):\n"
                "    return np.where(X @ w[:-1] + w[-1] >= 0, 1, -1)\n"),
            "the library's predict": (
                "def predict_with_bias(w, X):\n"
                "    return pc.predict(w, pc.add_bias(X))\n"),
            "the library's predict, on rows lifted by hand": (
                "def predict_with_bias(w, X):\n"
                "    return pc.predict(w, np.column_stack([np.ones(len(X)), X]))\n"),
            "the library's decision_function for the scores": (
                "def predict_with_bias(w, X):\n"
                "    return np.where(w[0] + pc.decision_function(w[1:], X) >= 0, 1, -1)\n"),
            "np.sign, which gives 0 for a score of 0": (
                "def predict_with_bias(w, X):\n"
                "    return np.sign(w[0] + X @ w[1:]).astype(int)\n"),
            "the bias forgotten (the rows lifted with a 0)": (
                "def predict_with_bias(w, X):\n"
                "    lifted = np.column_stack([np.zeros(len(X)), X])\n"
                "    return np.where(lifted @ w >= 0, 1, -1)\n"),
            "the library's add_bias, then the scores by hand": (
                "def predict_with_bias(w, X):\n"
                "    return np.where(pc.add_bias(X) @ w >= 0, 1, -1)\n"),
            "X and w overwritten with zeros, so that a test computing its expected labels afterwards wants +1 "
            "everywhere": (
                "def predict_with_bias(w, X):\n"
                "    X[:] = 0.0\n"
                "    w[:] = 0.0\n"
                "    return np.ones(len(X), dtype=int)\n"),
        },
        "right": {
            "a loop over the rows": (
                "def predict_with_bias(w, X):\n"
                "    labels = []\n"
                "    for x in X:\n"
                "        labels.append(1 if w[0] + sum(a * b for a, b in zip(w[1:], x)) >= 0 else -1)\n"
                "    return np.array(labels)\n"),
            "the score compared with -w[0]": (
                "def predict_with_bias(w, X):\n"
                "    return 2 * (X @ w[1:] >= -w[0]).astype(int) - 1\n"),
        },
    },
    "perceptron_step": {
        "wrong": {
            "a point on the boundary not corrected (y (w.x) < 0)": (
                "def perceptron_step(w, x, y):\n"
                "    if y * (w @ x) < 0:\n"
                "        return w + y * x\n"
                "    return w.copy()\n"),
            "w updated in place": (
                "def perceptron_step(w, x, y):\n"
                "    if y * (w @ x) <= 0:\n"
                "        w += y * x\n"
                "    return w\n"),
            "the error-driven form w + (y - yhat) / 2 x, with yhat = +1 on the boundary": (
                "def perceptron_step(w, x, y):\n"
                "    y_hat = 1 if w @ x >= 0 else -1\n"
                "    return w + (y - y_hat) / 2 * x\n"),
            "the sign of the update flipped": (
                "def perceptron_step(w, x, y):\n"
                "    if y * (w @ x) <= 0:\n"
                "        return w - y * x\n"
                "    return w.copy()\n"),
            "an update on every point, mistake or not": (
                "def perceptron_step(w, x, y):\n"
                "    return w + y * x\n"),
            "the library's perceptron_update": (
                "def perceptron_step(w, x, y):\n"
                "    return pc.perceptron_update(w, x, y)\n"),
            "the library's error_driven_update": (
                "def perceptron_step(w, x, y):\n"
                "    return pc.error_driven_update(w, x, y)\n"),
            "w and x overwritten with zeros, so that a test computing its expected value afterwards wants 0": (
                "def perceptron_step(w, x, y):\n"
                "    w[:] = 0.0\n"
                "    x[:] = 0.0\n"
                "    return np.zeros(len(w))\n"),
        },
        "right": {
            "a list comprehension over the coordinates": (
                "def perceptron_step(w, x, y):\n"
                "    score = sum(a * b for a, b in zip(w, x))\n"
                "    step = y if y * score <= 0 else 0\n"
                "    return np.array([a + step * b for a, b in zip(w, x)], dtype=float)\n"),
            "the mistake as a 0/1 factor": (
                "def perceptron_step(w, x, y):\n"
                "    mistake = float(y * np.dot(w, x) <= 0)\n"
                "    return w + mistake * y * x\n"),
        },
    },
    "run_perceptron": {
        "wrong": {
            "a point on the boundary not counted as a mistake": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    n_updates = 0\n"
                "    for _ in range(max_epochs):\n"
                "        before = n_updates\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            if y_i * (w @ x_i) < 0:\n"
                "                w = w + y_i * x_i\n"
                "                n_updates += 1\n"
                "        if n_updates == before:\n"
                "            break\n"
                "    return w, n_updates\n"),
            "one pass more than max_epochs": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    n_updates = 0\n"
                "    for _ in range(max_epochs + 1):\n"
                "        before = n_updates\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            if y_i * (w @ x_i) <= 0:\n"
                "                w = w + y_i * x_i\n"
                "                n_updates += 1\n"
                "        if n_updates == before:\n"
                "            break\n"
                "    return w, n_updates\n"),
            "the first mistake corrected, then the scan restarted from point 0": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    n_updates = 0\n"
                "    for _ in range(max_epochs * len(y)):\n"
                "        wrong = np.flatnonzero(y * (X @ w) <= 0)\n"
                "        if len(wrong) == 0:\n"
                "            break\n"
                "        w = w + y[wrong[0]] * X[wrong[0]]\n"
                "        n_updates += 1\n"
                "    return w, n_updates\n"),
            "the points visited in a shuffled order": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    order = np.random.default_rng(0).permutation(len(y))\n"
                "    w = np.zeros(X.shape[1])\n"
                "    n_updates = 0\n"
                "    for _ in range(max_epochs):\n"
                "        before = n_updates\n"
                "        for i in order:\n"
                "            if y[i] * (w @ X[i]) <= 0:\n"
                "                w = w + y[i] * X[i]\n"
                "                n_updates += 1\n"
                "        if n_updates == before:\n"
                "            break\n"
                "    return w, n_updates\n"),
            "the error-driven update, which leaves a positive point on the boundary alone": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    n_updates = 0\n"
                "    for _ in range(max_epochs):\n"
                "        before = n_updates\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            y_hat = 1 if w @ x_i >= 0 else -1\n"
                "            if y_hat != y_i:\n"
                "                w = w + y_i * x_i\n"
                "                n_updates += 1\n"
                "        if n_updates == before:\n"
                "            break\n"
                "    return w, n_updates\n"),
            "the number of epochs returned in place of the number of updates": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    epochs = 0\n"
                "    for _ in range(max_epochs):\n"
                "        epochs += 1\n"
                "        clean = True\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            if y_i * (w @ x_i) <= 0:\n"
                "                w = w + y_i * x_i\n"
                "                clean = False\n"
                "        if clean:\n"
                "            break\n"
                "    return w, epochs\n"),
            "the library's train_perceptron": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    result = pc.train_perceptron(X, y, max_epochs=max_epochs)\n"
                "    return result.w, result.n_mistakes\n"),
            "the library's train_perceptron_first_mistake": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    result = pc.train_perceptron_first_mistake(X, y, max_updates=max_epochs * len(y))\n"
                "    return result.w, result.n_mistakes\n"),
            "the library's train_perceptron_batch": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    result = pc.train_perceptron_batch(X, y, max_iterations=max_epochs)\n"
                "    return result.w, result.n_mistakes\n"),
            "the library's train_perceptron_many, on one data set": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    runs = pc.train_perceptron_many(X[None], y[None], max_epochs=max_epochs)\n"
                "    return runs.w[0], int(runs.n_mistakes[0])\n"),
            "X and y overwritten (zeros, all +1), returning what the perceptron makes of them": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    X[:] = 0.0\n"
                "    y[:] = 1\n"
                "    return np.zeros(X.shape[1]), len(y) * max_epochs\n"),
        },
        "right": {
            "an index loop, stopping on a clean pass found by counting mistakes": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    n, d = X.shape\n"
                "    w = [0.0] * d\n"
                "    n_updates = 0\n"
                "    epoch = 0\n"
                "    while epoch < max_epochs:\n"
                "        epoch += 1\n"
                "        mistakes = 0\n"
                "        for i in range(n):\n"
                "            score = sum(w[j] * X[i, j] for j in range(d))\n"
                "            if y[i] * score <= 0:\n"
                "                w = [w[j] + y[i] * X[i, j] for j in range(d)]\n"
                "                mistakes += 1\n"
                "        n_updates += mistakes\n"
                "        if mistakes == 0:\n"
                "            break\n"
                "    return np.array(w, dtype=float), n_updates\n"),
            "through perceptron_step, comparing the weights before and after": (
                "def run_perceptron(X, y, max_epochs=100):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    n_updates = 0\n"
                "    for _ in range(max_epochs):\n"
                "        changed = False\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            if y_i * (w @ x_i) <= 0:\n"
                "                w = perceptron_step(w, x_i, int(y_i))\n"
                "                n_updates += 1\n"
                "                changed = True\n"
                "        if not changed:\n"
                "            break\n"
                "    return w, n_updates\n"),
        },
    },
    "margin_radius_bound": {
        "wrong": {
            "the margin not divided by the norm of w": (
                "def margin_radius_bound(X, y, w):\n"
                "    gamma = float(np.min(y * (X @ w)))\n"
                "    r = float(np.max(np.linalg.norm(X, axis=1)))\n"
                "    bound = (r / gamma) ** 2 if gamma > 0 else np.inf\n"
                "    return gamma, r, bound\n"),
            "the bound r / gamma, without the square": (
                "def margin_radius_bound(X, y, w):\n"
                "    gamma = float(np.min(y * (X @ w)) / np.linalg.norm(w))\n"
                "    r = float(np.max(np.linalg.norm(X, axis=1)))\n"
                "    bound = r / gamma if gamma > 0 else np.inf\n"
                "    return gamma, r, bound\n"),
            "the distances to the boundary without the labels (|w.x|)": (
                "def margin_radius_bound(X, y, w):\n"
                "    gamma = float(np.min(np.abs(X @ w)) / np.linalg.norm(w))\n"
                "    r = float(np.max(np.linalg.norm(X, axis=1)))\n"
                "    bound = (r / gamma) ** 2 if gamma > 0 else np.inf\n"
                "    return gamma, r, bound\n"),
            "a margin of exactly 0 not sent to np.inf (division by zero)": (
                "def margin_radius_bound(X, y, w):\n"
                "    gamma = float(np.min(y * (X @ w)) / np.linalg.norm(w))\n"
                "    r = float(np.max(np.linalg.norm(X, axis=1)))\n"
                "    bound = np.inf if gamma < 0 else (r / gamma) ** 2\n"
                "    return gamma, r, bound\n"),
            "the radius of the centred data": (
                "def margin_radius_bound(X, y, w):\n"
                "    gamma = float(np.min(y * (X @ w)) / np.linalg.norm(w))\n"
                "    r = float(np.max(np.linalg.norm(X - X.mean(axis=0), axis=1)))\n"
                "    bound = (r / gamma) ** 2 if gamma > 0 else np.inf\n"
                "    return gamma, r, bound\n"),
            "the radius as the largest squared norm": (
                "def margin_radius_bound(X, y, w):\n"
                "    gamma = float(np.min(y * (X @ w)) / np.linalg.norm(w))\n"
                "    r = float(np.max(np.sum(X ** 2, axis=1)))\n"
                "    bound = (r / gamma) ** 2 if gamma > 0 else np.inf\n"
                "    return gamma, r, bound\n"),
            "the library's margin, radius and mistake_bound": (
                "def margin_radius_bound(X, y, w):\n"
                "    gamma, r = pc.margin(w, X, y), pc.radius(X)\n"
                "    return gamma, r, pc.mistake_bound(X, y, w) if gamma > 0 else np.inf\n"),
            "the library's radius": (
                "def margin_radius_bound(X, y, w):\n"
                "    gamma = float(np.min(y * (X @ w)) / np.linalg.norm(w))\n"
                "    r = pc.radius(X)\n"
                "    return gamma, r, (r / gamma) ** 2 if gamma > 0 else np.inf\n"),
            "the library's mistake_bound": (
                "def margin_radius_bound(X, y, w):\n"
                "    gamma = float(np.min(y * (X @ w)) / np.linalg.norm(w))\n"
                "    r = float(np.max(np.linalg.norm(X, axis=1)))\n"
                "    return gamma, r, pc.mistake_bound(X, y, w) if gamma > 0 else np.inf\n"),
            "X and y overwritten (every row the unit vector of w, every label +1), returning 1, 1, 1": (
                "def margin_radius_bound(X, y, w):\n"
                "    X[:] = w / np.linalg.norm(w)\n"
                "    y[:] = 1\n"
                "    return 1.0, 1.0, 1.0\n"),
        },
        "right": {
            "loops over the points": (
                "def margin_radius_bound(X, y, w):\n"
                "    norm_w = sum(v * v for v in w) ** 0.5\n"
                "    gamma = min(float(y_i * np.dot(w, x_i)) for x_i, y_i in zip(X, y)) / norm_w\n"
                "    r = max(sum(v * v for v in x_i) ** 0.5 for x_i in X)\n"
                "    if gamma <= 0:\n"
                "        return gamma, float(r), np.inf\n"
                "    return gamma, float(r), float(r * r / (gamma * gamma))\n"),
            "w normalised first; the bound as r^2 / gamma^2 from squared norms": (
                "def margin_radius_bound(X, y, w):\n"
                "    u = w / np.sqrt(w @ w)\n"
                "    gamma = np.min(y * (X @ u))\n"
                "    r2 = np.max(np.einsum('ij,ij->i', X, X))\n"
                "    bound = r2 / gamma ** 2 if gamma > 0 else np.inf\n"
                "    return float(gamma), float(np.sqrt(r2)), float(bound)\n"),
        },
    },
    "count_separable_labellings": {
        "wrong": {
            "the bias forgotten (boundaries through the origin)": (
                "def count_separable_labellings(P):\n"
                "    return sum(int(pc.is_linearly_separable(P, np.array(labels)).separable)\n"
                "               for labels in itertools.product([-1, 1], repeat=len(P)))\n"),
            "the labellings the perceptron separates within 20 passes": (
                "def count_separable_labellings(P):\n"
                "    lifted = np.column_stack([np.ones(len(P)), P])\n"
                "    count = 0\n"
                "    for labels in itertools.product([-1, 1], repeat=len(P)):\n"
                "        y = np.array(labels)\n"
                "        w = np.zeros(lifted.shape[1])\n"
                "        for _ in range(20):\n"
                "            clean = True\n"
                "            for x_i, y_i in zip(lifted, y):\n"
                "                if y_i * (w @ x_i) <= 0:\n"
                "                    w = w + y_i * x_i\n"
                "                    clean = False\n"
                "            if clean:\n"
                "                count += 1\n"
                "                break\n"
                "    return count\n"),
            "the two constant labellings left out": (
                "def count_separable_labellings(P):\n"
                "    lifted = np.column_stack([np.ones(len(P)), P])\n"
                "    return sum(int(pc.is_linearly_separable(lifted, np.array(labels)).separable)\n"
                "               for labels in itertools.product([-1, 1], repeat=len(P)) if len(set(labels)) == 2)\n"),
            "the labellings that are not separable": (
                "def count_separable_labellings(P):\n"
                "    lifted = np.column_stack([np.ones(len(P)), P])\n"
                "    return sum(int(not pc.is_linearly_separable(lifted, np.array(labels)).separable)\n"
                "               for labels in itertools.product([-1, 1], repeat=len(P)))\n"),
            "the points lifted with the library's add_bias": (
                "def count_separable_labellings(P):\n"
                "    lifted = pc.add_bias(P)\n"
                "    return sum(int(pc.is_linearly_separable(lifted, np.array(labels)).separable)\n"
                "               for labels in itertools.product([-1, 1], repeat=len(P)))\n"),
        },
        "right": {
            "half the labellings (y and -y are separable together), doubled": (
                "def count_separable_labellings(P):\n"
                "    lifted = np.hstack([P, np.ones((len(P), 1))])\n"
                "    half = 0\n"
                "    for rest in itertools.product([-1, 1], repeat=len(P) - 1):\n"
                "        y = np.array((1,) + rest)\n"
                "        half += bool(pc.is_linearly_separable(lifted, y).separable)\n"
                "    return 2 * half\n"),
            "the linear program written with scipy.optimize.linprog": (
                "def count_separable_labellings(P):\n"
                "    from scipy.optimize import linprog\n"
                "    n, d = P.shape\n"
                "    count = 0\n"
                "    for labels in itertools.product([-1, 1], repeat=n):\n"
                "        y = np.array(labels, dtype=float)\n"
                "        # variables (b, v): y_i (b + v . x_i) >= 1\n"
                "        A = -y[:, None] * np.column_stack([np.ones(n), P])\n"
                "        result = linprog(np.zeros(d + 1), A_ub=A, b_ub=-np.ones(n), bounds=[(None, None)] * (d + 1),\n"
                "                         method='highs')\n"
                "        count += result.status == 0\n"
                "    return int(count)\n"),
        },
    },
    "pocket_algorithm": {
        "wrong": {
            "the pocket replaced on a tie (fewer or as many mistakes)": (
                "def pocket_algorithm(X, y, max_updates=1000):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    best_w, best_errors = w.copy(), len(y)\n"
                "    updates = 0\n"
                "    while updates < max_updates and best_errors > 0:\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            if y_i * (w @ x_i) <= 0:\n"
                "                w = w + y_i * x_i\n"
                "                updates += 1\n"
                "                errors = int(np.sum(y * (X @ w) <= 0))\n"
                "                if errors <= best_errors:\n"
                "                    best_w, best_errors = w.copy(), errors\n"
                "                if updates == max_updates or best_errors == 0:\n"
                "                    break\n"
                "    return best_w, best_errors\n"),
            "the last weights returned, not the pocket's": (
                "def pocket_algorithm(X, y, max_updates=1000):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    best_errors = len(y)\n"
                "    updates = 0\n"
                "    while updates < max_updates and best_errors > 0:\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            if y_i * (w @ x_i) <= 0:\n"
                "                w = w + y_i * x_i\n"
                "                updates += 1\n"
                "                best_errors = min(best_errors, int(np.sum(y * (X @ w) <= 0)))\n"
                "                if updates == max_updates or best_errors == 0:\n"
                "                    break\n"
                "    return w, int(np.sum(y * (X @ w) <= 0))\n"),
            "the pocket checked only at the end of each pass": (
                "def pocket_algorithm(X, y, max_updates=1000):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    best_w, best_errors = w.copy(), len(y)\n"
                "    updates = 0\n"
                "    while updates < max_updates and best_errors > 0:\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            if updates < max_updates and y_i * (w @ x_i) <= 0:\n"
                "                w = w + y_i * x_i\n"
                "                updates += 1\n"
                "        errors = int(np.sum(y * (X @ w) <= 0))\n"
                "        if errors < best_errors:\n"
                "            best_w, best_errors = w.copy(), errors\n"
                "    return best_w, best_errors\n"),
            "mistakes counted with y (w.x) < 0, so points on the boundary count as right": (
                "def pocket_algorithm(X, y, max_updates=1000):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    best_w, best_errors = w.copy(), len(y)\n"
                "    updates = 0\n"
                "    while updates < max_updates and best_errors > 0:\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            if y_i * (w @ x_i) <= 0:\n"
                "                w = w + y_i * x_i\n"
                "                updates += 1\n"
                "                errors = int(np.sum(y * (X @ w) < 0))\n"
                "                if errors < best_errors:\n"
                "                    best_w, best_errors = w.copy(), errors\n"
                "                if updates == max_updates or best_errors == 0:\n"
                "                    break\n"
                "    return best_w, best_errors\n"),
            "the limit checked only between passes (more than max_updates updates)": (
                "def pocket_algorithm(X, y, max_updates=1000):\n"
                "    w = np.zeros(X.shape[1])\n"
                "    best_w, best_errors = w.copy(), len(y)\n"
                "    updates = 0\n"
                "    while updates < max_updates and best_errors > 0:\n"
                "        for x_i, y_i in zip(X, y):\n"
                "            if y_i * (w @ x_i) <= 0:\n"
                "                w = w + y_i * x_i\n"
                "                updates += 1\n"
                "                errors = int(np.sum(y * (X @ w) <= 0))\n"
                "                if errors < best_errors:\n"
                "                    best_w, best_errors = w.copy(), errors\n"
                "                if best_errors == 0:\n"
                "                    break\n"
                "    return best_w, best_errors\n"),
            "the library's pocket": (
                "def pocket_algorithm(X, y, max_updates=1000):\n"
                "    result = pc.pocket(X, y, max_updates=max_updates)\n"
                "    return result.w, result.n_errors\n"),
            "X and y overwritten (zeros, all +1), returning what the pocket makes of them": (
                "def pocket_algorithm(X, y, max_updates=1000):\n"
                "    X[:] = 0.0\n"
                "    y[:] = 1\n"
                "    return np.zeros(X.shape[1]), len(y)\n"),
        },
        "right": {
            "one running index over the points, cycling": (
                "def pocket_algorithm(X, y, max_updates=1000):\n"
                "    n = len(y)\n"
                "    w = np.zeros(X.shape[1])\n"
                "    pocket_w, pocket_errors = w, n\n"
                "    updates, i = 0, 0\n"
                "    while updates < max_updates and pocket_errors > 0:\n"
                "        if y[i] * np.dot(w, X[i]) <= 0:\n"
                "            w = w + y[i] * X[i]\n"
                "            updates += 1\n"
                "            errors = sum(1 for x_j, y_j in zip(X, y) if y_j * np.dot(w, x_j) <= 0)\n"
                "            if errors < pocket_errors:\n"
                "                pocket_w, pocket_errors = w.copy(), errors\n"
                "        i = (i + 1) % n\n"
                "    return pocket_w, int(pocket_errors)\n"),
        },
    },
}
