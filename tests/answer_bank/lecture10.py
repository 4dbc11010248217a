"""Lecture 10, PAC learning: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "realizable_sample_size": {
        "wrong": {
            "int(bound) + 1 in place of the ceiling (one too many when the bound is a whole number)": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    return int((math.log(class_size) + math.log(1 / delta)) / eps) + 1\n"),
            "the bound rounded down (int) instead of up": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    return int((math.log(class_size) + math.log(1 / delta)) / eps)\n"),
            "the bound rounded to the nearest integer": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    return round((math.log(class_size) + math.log(1 / delta)) / eps)\n"),
            "eps squared, as in the agnostic bound": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    return math.ceil((math.log(class_size) + math.log(1 / delta)) / eps**2)\n"),
            "ln(2/delta), the agnostic bound's two tails, in the realizable bound": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    return math.ceil((math.log(class_size) + math.log(2 / delta)) / eps)\n"),
            "logarithms to base 10": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    return math.ceil((math.log10(class_size) + math.log10(1 / delta)) / eps)\n"),
            "np.log of the class size, which fails beyond 2**64": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    return int(np.ceil((np.log(class_size) + np.log(1 / delta)) / eps))\n"),
            "the library's twin pac.realizable_sample_size": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    return pac.realizable_sample_size(eps, delta, class_size)\n"),
        },
        "right": {
            "ln(|H|/delta) in one logarithm, the ceiling by integer division": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    bound = (math.log(class_size) - math.log(delta)) / eps\n"
                "    n = int(bound)\n"
                "    return n if n >= bound else n + 1\n"),
            "the smallest n found by counting up from the floor": (
                "def realizable_sample_size(eps, delta, class_size):\n"
                "    bound = math.log(class_size) / eps + math.log(1 / delta) / eps\n"
                "    n = max(0, math.floor(bound) - 1)\n"
                "    while n < bound:\n"
                "        n += 1\n"
                "    return n\n"),
        },
    },
    "agnostic_sample_size": {
        "wrong": {
            "int(bound) + 1 in place of the ceiling (one too many when the bound is a whole number)": (
                "def agnostic_sample_size(eps, delta, class_size):\n"
                "    return int(2 * (math.log(class_size) + math.log(2 / delta)) / eps**2) + 1\n"),
            "the seeds' constant ln(|H|/delta): Hoeffding's two tails lost": (
                "def agnostic_sample_size(eps, delta, class_size):\n"
                "    return math.ceil(2 / eps**2 * math.log(class_size / delta))\n"),
            "the factor 2 in front missing (the 2 Delta step lost)": (
                "def agnostic_sample_size(eps, delta, class_size):\n"
                "    return math.ceil((math.log(class_size) + math.log(2 / delta)) / eps**2)\n"),
            "1 / (2 eps^2), Hoeffding's exponent without the 2 Delta step": (
                "def agnostic_sample_size(eps, delta, class_size):\n"
                "    return math.ceil((math.log(class_size) + math.log(2 / delta)) / (2 * eps**2))\n"),
            "eps not squared": (
                "def agnostic_sample_size(eps, delta, class_size):\n"
                "    return math.ceil(2 * (math.log(class_size) + math.log(2 / delta)) / eps)\n"),
            "np.log of the class size, which fails beyond 2**64": (
                "def agnostic_sample_size(eps, delta, class_size):\n"
                "    return int(np.ceil(2 * (np.log(class_size) + np.log(2 / delta)) / eps**2))\n"),
            "the library's twin pac.agnostic_sample_size": (
                "def agnostic_sample_size(eps, delta, class_size):\n"
                "    return pac.agnostic_sample_size(eps, delta, class_size)\n"),
        },
        "right": {
            "ln(2|H|/delta) from the union bound, ceiling as minus the floor of minus": (
                "def agnostic_sample_size(eps, delta, class_size):\n"
                "    bound = 2 / eps**2 * (math.log(2) + math.log(class_size) - math.log(delta))\n"
                "    return -int(-bound // 1)\n"),
        },
    },
    "agnostic_epsilon": {
        "wrong": {
            "ln(|H|/delta): Hoeffding's two tails lost": (
                "def agnostic_epsilon(n, delta, class_size):\n"
                "    return math.sqrt(2 * math.log(class_size / delta) / n)\n"),
            "the square root forgotten": (
                "def agnostic_epsilon(n, delta, class_size):\n"
                "    return 2 * (math.log(class_size) + math.log(2 / delta)) / n\n"),
            "sqrt(ln(2|H|/delta) / (2n)): Hoeffding's deviation, not the excess risk": (
                "def agnostic_epsilon(n, delta, class_size):\n"
                "    return math.sqrt((math.log(class_size) + math.log(2 / delta)) / (2 * n))\n"),
            "clipped at 1, although the guarantee may be empty": (
                "def agnostic_epsilon(n, delta, class_size):\n"
                "    return min(1.0, math.sqrt(2 * (math.log(class_size) + math.log(2 / delta)) / n))\n"),
            "np.log of the class size, which fails beyond 2**64": (
                "def agnostic_epsilon(n, delta, class_size):\n"
                "    return float(np.sqrt(2 * (np.log(class_size) + np.log(2 / delta)) / n))\n"),
            "the library's twin pac.agnostic_epsilon": (
                "def agnostic_epsilon(n, delta, class_size):\n"
                "    return pac.agnostic_epsilon(n, delta, class_size)\n"),
        },
        "right": {
            "the union bound 2|H| e^(-n eps^2 / 2) = delta solved for eps, in one logarithm": (
                "def agnostic_epsilon(n, delta, class_size):\n"
                "    return (2 * math.log(2 * class_size / delta) / n) ** 0.5\n"),
        },
    },
    "rectangles_shatter": {
        "wrong": {
            "open rectangles: a point on the edge of the box not counted as inside": (
                "def rectangles_shatter(X):\n"
                "    n = len(X)\n"
                "    for mask in range(1, 2**n):\n"
                "        inside = np.array([(mask >> i) & 1 == 1 for i in range(n)])\n"
                "        low, high = X[inside].min(axis=0), X[inside].max(axis=0)\n"
                "        in_box = np.all((X > low) & (X < high), axis=1)\n"
                "        if np.any(in_box & ~inside):\n"
                "            return False\n"
                "    return True\n"),
            "at most four points is taken to mean shattered (the VC dimension misread)": (
                "def rectangles_shatter(X):\n"
                "    return len(X) <= 4\n"),
            "only pairs of +1 points checked (a point between two others)": (
                "def rectangles_shatter(X):\n"
                "    n = len(X)\n"
                "    for i in range(n):\n"
                "        for j in range(i + 1, n):\n"
                "            low, high = np.minimum(X[i], X[j]), np.maximum(X[i], X[j])\n"
                "            for m in range(n):\n"
                "                if m != i and m != j and np.all((X[m] >= low) & (X[m] <= high)):\n"
                "                    return False\n"
                "    return True\n"),
            "repeated points removed first (two points at one place cannot be told apart)": (
                "def rectangles_shatter(X):\n"
                "    X = np.unique(X, axis=0)\n"
                "    n = len(X)\n"
                "    for mask in range(1, 2**n):\n"
                "        inside = np.array([(mask >> i) & 1 == 1 for i in range(n)])\n"
                "        low, high = X[inside].min(axis=0), X[inside].max(axis=0)\n"
                "        in_box = np.all((X >= low) & (X <= high), axis=1)\n"
                "        if np.any(in_box & ~inside):\n"
                "            return False\n"
                "    return True\n"),
            "the library's twins pac.shatters and pac.rectangle_labelings": (
                "def rectangles_shatter(X):\n"
                "    return bool(pac.shatters(pac.rectangle_labelings(X)))\n"),
        },
        "right": {
            "leave one out: no point lies in the box of all the others": (
                "def rectangles_shatter(X):\n"
                "    for i in range(len(X)):\n"
                "        others = np.delete(X, i, axis=0)\n"
                "        if len(others) and np.all((others.min(axis=0) <= X[i]) & (X[i] <= others.max(axis=0))):\n"
                "            return False\n"
                "    return True\n"),
            "every point strictly extreme in some coordinate": (
                "def rectangles_shatter(X):\n"
                "    n = len(X)\n"
                "    for i in range(n):\n"
                "        extreme = False\n"
                "        for axis in range(2):\n"
                "            rest = [X[j, axis] for j in range(n) if j != i]\n"
                "            if not rest or X[i, axis] < min(rest) or X[i, axis] > max(rest):\n"
                "                extreme = True\n"
                "        if not extreme:\n"
                "            return False\n"
                "    return True\n"),
        },
    },
    "interval_labelings": {
        "wrong": {
            "the empty interval (every point -1) forgotten": (
                "def interval_labelings(x):\n"
                "    ends = np.unique(x)\n"
                "    rows = set()\n"
                "    for i, a in enumerate(ends):\n"
                "        for b in ends[i:]:\n"
                "            rows.add(tuple(np.where((x >= a) & (x <= b), 1, -1)))\n"
                "    return np.array(sorted(rows))\n"),
            "runs of consecutive positions in the order given, not along the line": (
                "def interval_labelings(x):\n"
                "    n = len(x)\n"
                "    rows = {tuple([-1] * n)}\n"
                "    for i in range(n):\n"
                "        for j in range(i, n):\n"
                "            row = [-1] * n\n"
                "            for m in range(i, j + 1):\n"
                "                row[m] = 1\n"
                "            rows.add(tuple(row))\n"
                "    return np.array(sorted(rows))\n"),
            "runs of the sorted points, which splits repeated points": (
                "def interval_labelings(x):\n"
                "    order = np.argsort(x)\n"
                "    n = len(x)\n"
                "    rows = {tuple([-1] * n)}\n"
                "    for i in range(n):\n"
                "        for j in range(i, n):\n"
                "            row = -np.ones(n, dtype=int)\n"
                "            row[order[i:j + 1]] = 1\n"
                "            rows.add(tuple(row))\n"
                "    return np.array(sorted(rows))\n"),
            "every interval's labeling kept, repeated labelings too": (
                "def interval_labelings(x):\n"
                "    rows = [[-1] * len(x)]\n"
                "    for a in x:\n"
                "        for b in x:\n"
                "            if a <= b:\n"
                "                rows.append(list(np.where((x >= a) & (x <= b), 1, -1)))\n"
                "    return np.array(rows)\n"),
            "labels 0 and 1 instead of -1 and +1": (
                "def interval_labelings(x):\n"
                "    ends = np.unique(x)\n"
                "    rows = {tuple([0] * len(x))}\n"
                "    for i, a in enumerate(ends):\n"
                "        for b in ends[i:]:\n"
                "            rows.add(tuple(np.where((x >= a) & (x <= b), 1, 0)))\n"
                "    return np.array(sorted(rows))\n"),
            "the library's twin pac.interval_labelings": (
                "def interval_labelings(x):\n"
                "    return pac.interval_labelings(x)\n"),
        },
        "right": {
            "all 2^n labelings, keeping those whose +1 points leave no -1 point between them": (
                "def interval_labelings(x):\n"
                "    n = len(x)\n"
                "    kept = []\n"
                "    for labels in itertools.product([-1, 1], repeat=n):\n"
                "        plus = [x[i] for i in range(n) if labels[i] == 1]\n"
                "        if plus and any(labels[i] == -1 and min(plus) <= x[i] <= max(plus) for i in range(n)):\n"
                "            continue\n"
                "        kept.append(labels)\n"
                "    return np.array(kept, dtype=int).reshape(len(kept), n)\n"),
        },
    },
    "radon_labeling": {
        "wrong": {
            "a linear dependence: the row of ones (sum of alpha = 1) forgotten": (
                "def radon_labeling(X):\n"
                "    alpha = np.linalg.lstsq(X[:-1].T, X[-1], rcond=None)[0]\n"
                "    return np.append(np.where(alpha > 0, 1, -1), -1)\n"),
            "the last point labelled +1, as if lambda = (alpha, +1)": (
                "def radon_labeling(X):\n"
                "    d = X.shape[1]\n"
                "    alpha = np.linalg.solve(np.vstack([X[:-1].T, np.ones(d + 1)]), np.append(X[-1], 1.0))\n"
                "    return np.append(np.where(alpha > 0, 1, -1), 1)\n"),
            "the signs of alpha swapped (+1 where alpha < 0), the last point still -1": (
                "def radon_labeling(X):\n"
                "    d = X.shape[1]\n"
                "    alpha = np.linalg.solve(np.vstack([X[:-1].T, np.ones(d + 1)]), np.append(X[-1], 1.0))\n"
                "    return np.append(np.where(alpha < 0, 1, -1), -1)\n"),
            "alternating labels, the square's diagonals taken for the rule": (
                "def radon_labeling(X):\n"
                "    n = len(X)\n"
                "    return np.where(np.arange(n) % 2 == (n - 1) % 2, -1, 1)\n"),
            "the corners of the convex hull +1 and the points inside it -1 (right only when a point is inside)": (
                "def radon_labeling(X):\n"
                "    Z = add_bias(X)\n"
                "    labels = np.ones(len(X), dtype=int)\n"
                "    for i in range(len(X)):\n"
                "        alone = -np.ones(len(X))\n"
                "        alone[i] = 1\n"
                "        if not is_linearly_separable(Z, alone).separable:\n"
                "            labels[i] = -1\n"
                "    return labels if labels[-1] == -1 else -labels\n"),
            "the library's twin pac.radon_labeling": (
                "def radon_labeling(X):\n"
                "    return pac.radon_labeling(X)\n"),
        },
        "right": {
            "the dependence as the last right singular vector of the lifted points, oriented by the last entry": (
                "def radon_labeling(X):\n"
                "    lifted = np.vstack([X.T, np.ones(len(X))])\n"
                "    lam = np.linalg.svd(lifted)[2][-1]\n"
                "    if lam[-1] > 0:\n"
                "        lam = -lam\n"
                "    return np.where(lam > 0, 1, -1)\n"),
            "every labeling with the last point -1 tried with Lecture 02's linear program": (
                "def radon_labeling(X):\n"
                "    Z = add_bias(X)\n"
                "    for labels in itertools.product((-1, 1), repeat=len(X) - 1):\n"
                "        y = np.array(labels + (-1,))\n"
                "        if not is_linearly_separable(Z, y).separable:\n"
                "            return y\n"),
        },
    },
}
