"""Lecture 01, the learning problem: wrong answers the judge must reject, right ones it must accept."""

BANK = {
    "empirical_risk": {
        "wrong": {
            "the total loss, not its mean": (
                "def empirical_risk(f, X, y, loss):\n"
                "    return float(np.sum(loss(f(X), y)))\n"),
            "dividing by n - 1": (
                "def empirical_risk(f, X, y, loss):\n"
                "    losses = loss(f(X), y)\n"
                "    return float(np.sum(losses) / (len(losses) - 1))\n"),
            "f called once per point, in a loop": (
                "def empirical_risk(f, X, y, loss):\n"
                "    losses = [loss(f(X[i:i + 1]), y[i:i + 1])[0] for i in range(len(y))]\n"
                "    return float(np.mean(losses))\n"),
            "the 0-1 error whatever the loss": (
                "def empirical_risk(f, X, y, loss):\n"
                "    return float(np.mean(f(X) != y))\n"),
            "the median loss": (
                "def empirical_risk(f, X, y, loss):\n"
                "    return float(np.median(loss(f(X), y)))\n"),
            "dividing by the number of entries of X (n d), not by n": (
                "def empirical_risk(f, X, y, loss):\n"
                "    return float(np.sum(loss(f(X), y)) / np.size(X))\n"),
            "the mean rounded to two decimals": (
                "def empirical_risk(f, X, y, loss):\n"
                "    return round(float(np.mean(loss(f(X), y))), 2)\n"),
            "the library's empirical_risk": (
                "def empirical_risk(f, X, y, loss):\n"
                "    return risk.empirical_risk(f, X, y, loss)\n"),
        },
        "right": {
            "a loop summing the losses": (
                "def empirical_risk(f, X, y, loss):\n"
                "    losses = loss(f(X), y)\n"
                "    total = 0.0\n"
                "    for value in losses:\n"
                "        total += float(value)\n"
                "    return total / len(losses)\n"),
            "np.average of the losses, through a copy of X": (
                "def empirical_risk(f, X, y, loss):\n"
                "    predictions = f(np.array(X, copy=True))\n"
                "    return np.average(loss(predictions, y)).item()\n"),
        },
    },
    "margin_losses": {
        "wrong": {
            "the logistic loss with log(1 + exp(-m)), which overflows": (
                "def hinge_loss(m):\n"
                "    return np.maximum(0.0, 1.0 - m)\n\n\n"
                "def logistic_loss(m):\n"
                "    return np.log(1.0 + np.exp(-m))\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    return (1.0 - np.tanh(m)) ** 2\n"),
            "the logistic loss in base 2": (
                "def hinge_loss(m):\n"
                "    return np.maximum(0.0, 1.0 - m)\n\n\n"
                "def logistic_loss(m):\n"
                "    return np.logaddexp2(0.0, -m)\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    return (1.0 - np.tanh(m)) ** 2\n"),
            "the hinge loss without its shift (the perceptron loss)": (
                "def hinge_loss(m):\n"
                "    return np.maximum(0.0, -m)\n\n\n"
                "def logistic_loss(m):\n"
                "    return np.logaddexp(0.0, -m)\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    return (1.0 - np.tanh(m)) ** 2\n"),
            "the logistic sigmoid in place of tanh": (
                "def hinge_loss(m):\n"
                "    return np.maximum(0.0, 1.0 - m)\n\n\n"
                "def logistic_loss(m):\n"
                "    return np.logaddexp(0.0, -m)\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    return (1.0 - 1.0 / (1.0 + np.exp(-m))) ** 2\n"),
            "the sigmoid-squared loss not squared": (
                "def hinge_loss(m):\n"
                "    return np.maximum(0.0, 1.0 - m)\n\n\n"
                "def logistic_loss(m):\n"
                "    return np.logaddexp(0.0, -m)\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    return 1.0 - np.tanh(m)\n"),
            "the logistic loss taken as -m for every negative margin": (
                "def hinge_loss(m):\n"
                "    return np.maximum(0.0, 1.0 - m)\n\n\n"
                "def logistic_loss(m):\n"
                "    return np.where(m < 0, -m, np.log1p(np.exp(-np.maximum(m, 0.0))))\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    return (1.0 - np.tanh(m)) ** 2\n"),
            "the hinge loss clipping m in place": (
                "def hinge_loss(m):\n"
                "    np.minimum(m, 1.0, out=m)\n"
                "    return 1.0 - m\n\n\n"
                "def logistic_loss(m):\n"
                "    return np.logaddexp(0.0, -m)\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    return (1.0 - np.tanh(m)) ** 2\n"),
            "the library's losses": (
                "def hinge_loss(m):\n"
                "    return ls.hinge_loss(m)\n\n\n"
                "def logistic_loss(m):\n"
                "    return ls.logistic_loss(m)\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    return ls.sigmoid_squared_loss(m)\n"),
        },
        "right": {
            "np.where, the stable split of the logistic loss, and 1 - tanh m = 2 / (1 + e^(2m))": (
                "def hinge_loss(m):\n"
                "    return np.where(m < 1, 1.0 - m, 0.0)\n\n\n"
                "def logistic_loss(m):\n"
                "    return np.maximum(-m, 0.0) + np.log1p(np.exp(-np.abs(m)))\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    with np.errstate(over='ignore'):\n"
                "        return (2.0 / (1.0 + np.exp(2.0 * m))) ** 2\n"),
            "np.clip for the hinge, the logistic loss in two branches, the square as a product": (
                "def hinge_loss(m):\n"
                "    return np.clip(1.0 - m, 0.0, None)\n\n\n"
                "def logistic_loss(m):\n"
                "    with np.errstate(over='ignore'):\n"
                "        return np.where(m >= 0, np.log1p(np.exp(-m)), -m + np.log1p(np.exp(m)))\n\n\n"
                "def sigmoid_squared_loss(m):\n"
                "    t = np.tanh(m)\n"
                "    return (1.0 - t) * (1.0 - t)\n"),
        },
    },
    "erm_threshold": {
        "wrong": {
            "a strict inequality: x > theta says +1": (
                "def erm_threshold(x, y, thresholds):\n"
                "    predictions = np.where(x[None, :] > thresholds[:, None], 1, -1)\n"
                "    risks = np.mean(predictions != y[None, :], axis=1)\n"
                "    k = int(np.argmin(risks))\n"
                "    return float(thresholds[k]), float(risks[k])\n"),
            "ties go to the last threshold": (
                "def erm_threshold(x, y, thresholds):\n"
                "    predictions = np.where(x[None, :] >= thresholds[:, None], 1, -1)\n"
                "    risks = np.mean(predictions != y[None, :], axis=1)\n"
                "    k = len(risks) - 1 - int(np.argmin(risks[::-1]))\n"
                "    return float(thresholds[k]), float(risks[k])\n"),
            "the thresholds sorted first (ties go to the smallest)": (
                "def erm_threshold(x, y, thresholds):\n"
                "    thresholds = np.sort(thresholds)\n"
                "    predictions = np.where(x[None, :] >= thresholds[:, None], 1, -1)\n"
                "    risks = np.mean(predictions != y[None, :], axis=1)\n"
                "    k = int(np.argmin(risks))\n"
                "    return float(thresholds[k]), float(risks[k])\n"),
            "the number of mistakes, not their fraction": (
                "def erm_threshold(x, y, thresholds):\n"
                "    predictions = np.where(x[None, :] >= thresholds[:, None], 1, -1)\n"
                "    mistakes = np.sum(predictions != y[None, :], axis=1)\n"
                "    k = int(np.argmin(mistakes))\n"
                "    return float(thresholds[k]), float(mistakes[k])\n"),
            "+1 on the left of the threshold": (
                "def erm_threshold(x, y, thresholds):\n"
                "    predictions = np.where(x[None, :] < thresholds[:, None], 1, -1)\n"
                "    risks = np.mean(predictions != y[None, :], axis=1)\n"
                "    k = int(np.argmin(risks))\n"
                "    return float(thresholds[k]), float(risks[k])\n"),
            "the inputs overwritten so that the expected value changes too": (
                "def erm_threshold(x, y, thresholds):\n"
                "    x[:] = 1.0\n"
                "    y[:] = 1\n"
                "    thresholds[:] = 0.0\n"
                "    return 0.0, 0.0\n"),
            "the library's erm_threshold": (
                "def erm_threshold(x, y, thresholds):\n"
                "    result = risk.erm_threshold(x, y, thresholds)\n"
                "    return result.theta, result.empirical_risk\n"),
            "the library's threshold_predict for each threshold": (
                "def erm_threshold(x, y, thresholds):\n"
                "    risks = np.array([np.mean(risk.threshold_predict(t, x) != y) for t in thresholds])\n"
                "    k = int(np.argmin(risks))\n"
                "    return float(thresholds[k]), float(risks[k])\n"),
            "the library's threshold_empirical_risks": (
                "def erm_threshold(x, y, thresholds):\n"
                "    risks = risk.threshold_empirical_risks(x, y, thresholds)\n"
                "    k = int(np.argmin(risks))\n"
                "    return float(thresholds[k]), float(risks[k])\n"),
        },
        "right": {
            "a loop over the thresholds, keeping the first strict improvement": (
                "def erm_threshold(x, y, thresholds):\n"
                "    best_theta, best_risk = None, None\n"
                "    for theta in thresholds:\n"
                "        wrong = 0\n"
                "        for xi, yi in zip(x, y):\n"
                "            label = 1 if xi >= theta else -1\n"
                "            wrong += label != yi\n"
                "        r = wrong / len(x)\n"
                "        if best_risk is None or r < best_risk:\n"
                "            best_theta, best_risk = float(theta), float(r)\n"
                "    return best_theta, best_risk\n"),
            "counting the mistakes on each side with broadcasting": (
                "def erm_threshold(x, y, thresholds):\n"
                "    right_side = x[None, :] >= thresholds[:, None]\n"
                "    wrong = np.sum(right_side & (y == -1), axis=1) + np.sum(~right_side & (y == 1), axis=1)\n"
                "    k = np.flatnonzero(wrong == wrong.min())[0]\n"
                "    return float(thresholds[k]), wrong[k] / len(x)\n"),
        },
    },
    "approximation_error_B": {
        "wrong": {
            "the best threshold's risk, without subtracting the Bayes risk": (
                "approximation_error_B = float(np.min(risk.threshold_risk(dist_B, thetas)))\n"
                "print(f\"approximation_error_B = {approximation_error_B:.4f}\")\n"),
            "the distribution of section 4, dist_A": (
                "approximation_error_B = float(np.min(risk.threshold_risk(dist_A, thetas)) - risk.bayes_risk(dist_A))\n"
                "print(f\"approximation_error_B = {approximation_error_B:.4f}\")\n"),
            "the worst threshold instead of the best": (
                "approximation_error_B = float(np.max(risk.threshold_risk(dist_B, thetas)) - risk.bayes_risk(dist_B))\n"
                "print(f\"approximation_error_B = {approximation_error_B:.4f}\")\n"),
            "the Bayes risk without weighting the pieces by their lengths": (
                "eta_B = np.array([0.9, 0.6, 0.2])\n"
                "bayes_B = np.mean(np.minimum(eta_B, 1 - eta_B))\n"
                "approximation_error_B = float(np.min(risk.threshold_risk(dist_B, thetas)) - bayes_B)\n"
                "print(f\"approximation_error_B = {approximation_error_B:.4f}\")\n"),
            "thresholds that say +1 on the left (1 - R), which no class member does": (
                "flipped_B = np.min(1 - risk.threshold_risk(dist_B, thetas))\n"
                "approximation_error_B = abs(float(flipped_B - risk.bayes_risk(dist_B)))\n"
                "print(f\"approximation_error_B = {approximation_error_B:.4f}\")\n"),
            "the library's excess_risk, which the lecture does not list": (
                "best_B = float(thetas[np.argmin(risk.threshold_risk(dist_B, thetas))])\n"
                "approximation_error_B = risk.excess_risk(dist_B, thetas, best_B).approximation\n"
                "print(f\"approximation_error_B = {approximation_error_B:.4f}\")\n"),
        },
        "right": {
            "the integrals by hand: the best threshold is 0 (all +1), risk 0.47; R* = 0.23": (
                "widths = np.array([0.3, 0.3, 0.4])\n"
                "eta_B = np.array([0.9, 0.6, 0.2])\n"
                "risk_all_plus = np.sum(widths * (1 - eta_B))\n"
                "bayes_B = np.sum(widths * np.minimum(eta_B, 1 - eta_B))\n"
                "approximation_error_B = float(risk_all_plus - bayes_B)\n"
                "print(f\"approximation_error_B = {approximation_error_B:.4f}\")\n"),
            "a loop over the thresholds with the exact risk of each": (
                "risks_B = [float(risk.threshold_risk(dist_B, t)) for t in thetas]\n"
                "approximation_error_B = min(risks_B) - risk.bayes_risk(dist_B)\n"
                "print(f\"approximation_error_B = {approximation_error_B:.4f}\")\n"),
        },
    },
    "bias_variance": {
        "wrong": {
            "the variance with n - 1 (ddof=1)": (
                "def bias_variance(predictions, truth):\n"
                "    mean_fit = predictions.mean(axis=0)\n"
                "    bias2 = np.mean((mean_fit - truth) ** 2)\n"
                "    variance = np.mean(predictions.var(axis=0, ddof=1))\n"
                "    return float(bias2), float(variance)\n"),
            "the mean over the test inputs (axis 1) as the mean fit": (
                "def bias_variance(predictions, truth):\n"
                "    mean_fit = predictions.mean(axis=1, keepdims=True)\n"
                "    bias2 = np.mean((mean_fit - truth) ** 2)\n"
                "    variance = np.mean((predictions - mean_fit) ** 2)\n"
                "    return float(bias2), float(variance)\n"),
            "the square of the mean bias, not the mean of its squares": (
                "def bias_variance(predictions, truth):\n"
                "    mean_fit = predictions.mean(axis=0)\n"
                "    bias2 = np.mean(mean_fit - truth) ** 2\n"
                "    variance = np.mean(predictions.var(axis=0))\n"
                "    return float(bias2), float(variance)\n"),
            "the variance of all predictions pooled together": (
                "def bias_variance(predictions, truth):\n"
                "    mean_fit = predictions.mean(axis=0)\n"
                "    bias2 = np.mean((mean_fit - truth) ** 2)\n"
                "    return float(bias2), float(np.var(predictions))\n"),
            "the mean squared error of the fits as bias2": (
                "def bias_variance(predictions, truth):\n"
                "    mean_fit = predictions.mean(axis=0)\n"
                "    bias2 = np.mean((predictions - truth) ** 2)\n"
                "    variance = np.mean((predictions - mean_fit) ** 2)\n"
                "    return float(bias2), float(variance)\n"),
            "the predictions centred in place": (
                "def bias_variance(predictions, truth):\n"
                "    mean_fit = predictions.mean(axis=0)\n"
                "    bias2 = np.mean((mean_fit - truth) ** 2)\n"
                "    predictions -= mean_fit\n"
                "    variance = np.mean(predictions ** 2)\n"
                "    return float(bias2), float(variance)\n"),
            "the library's bias_variance_terms": (
                "def bias_variance(predictions, truth):\n"
                "    terms = risk.bias_variance_terms(predictions, truth)\n"
                "    return terms.bias2, terms.variance\n"),
        },
        "right": {
            "loops over the columns and the rows": (
                "def bias_variance(predictions, truth):\n"
                "    B, M = predictions.shape\n"
                "    bias2 = variance = 0.0\n"
                "    for j in range(M):\n"
                "        column = [float(predictions[s, j]) for s in range(B)]\n"
                "        mean_j = sum(column) / B\n"
                "        bias2 += (mean_j - float(truth[j])) ** 2 / M\n"
                "        variance += sum((v - mean_j) ** 2 for v in column) / (B * M)\n"
                "    return bias2, variance\n"),
            "variance as the mean squared error minus bias2": (
                "def bias_variance(predictions, truth):\n"
                "    mse = np.mean((predictions - truth[None, :]) ** 2)\n"
                "    bias2 = np.mean((np.mean(predictions, axis=0) - truth) ** 2)\n"
                "    return float(bias2), float(mse - bias2)\n"),
        },
    },
}
