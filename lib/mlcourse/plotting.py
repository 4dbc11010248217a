"""One style for the figures of every lecture: class colours, points, boundaries, regions."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._checks import as_labels, as_matrix, as_vector

CLASS_STYLE = {
    -1: dict(color="#d95f02", marker="o", label="$y=-1$"),
    1: dict(color="#1b9e77", marker="s", label="$y=+1$"),
}


def axes(ax=None, figsize=(4.5, 4.5)):
    """Return ``ax``, or a new square axes of ``figsize``."""
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def plot_points(X, y, ax=None, size=30, legend=True, xlabel="$x_1$", ylabel="$x_2$"):
    """Scatter 2-d points ``X`` (n, 2) coloured by their label in {-1, +1}, on square axes with room
    around the points and the axes named (``xlabel``, ``ylabel``, in a large font; ``None`` leaves a name as it is)."""
    X = as_matrix(X)
    if X.shape[1] != 2:
        raise ValueError(f"plot_points draws 2-d points; X has shape {X.shape}")
    y = as_labels(y, X.shape[0])
    ax = axes(ax)
    for label, style in CLASS_STYLE.items():
        pts = X[y == label]
        ax.scatter(pts[:, 0], pts[:, 1], s=size, edgecolor="k", linewidth=0.5, **style)
    _square_limits(ax, X)
    if xlabel is not None:
        ax.set_xlabel(xlabel, fontsize="large")         # readable when a panel of three is shrunk to the page
    if ylabel is not None:
        ax.set_ylabel(ylabel, fontsize="large")
    if legend:
        ax.legend(loc="best", fontsize="small")
    return ax


def plot_boundary(w, ax, bias: bool = True, **line_style):
    """Draw the line where the linear classifier ``w`` scores zero, within the current limits.

    With ``bias=True``, ``w = (b, w1, w2)`` and the line is ``b + w1 x1 + w2 x2 = 0``; otherwise
    ``w = (w1, w2)`` and the line passes through the origin.
    """
    w = as_vector(w, "w", 3 if bias else 2)
    b, w1, w2 = (w if bias else np.r_[0.0, w])
    if w1 == 0 and w2 == 0:
        return None  # the zero vector has no boundary
    (x_lo, x_hi), (y_lo, y_hi) = ax.get_xlim(), ax.get_ylim()
    style = dict(color="k", linewidth=1.5) | line_style
    if abs(w2) >= abs(w1):
        xs = np.array([x_lo, x_hi])
        line = ax.plot(xs, -(b + w1 * xs) / w2, **style)
    else:
        ys = np.array([y_lo, y_hi])
        line = ax.plot(-(b + w2 * ys) / w1, ys, **style)
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_hi)
    return line[0]


def plot_regions(predict, ax, resolution: int = 200, alpha: float = 0.15):
    """Shade the plane by the label ``predict`` gives, over the current limits of ``ax``.

    ``predict`` maps an array (m, 2) of points to labels (m,) in {-1, +1}.
    """
    (x_lo, x_hi), (y_lo, y_hi) = ax.get_xlim(), ax.get_ylim()
    gx, gy = np.meshgrid(np.linspace(x_lo, x_hi, resolution), np.linspace(y_lo, y_hi, resolution))
    labels = np.asarray(predict(np.c_[gx.ravel(), gy.ravel()])).reshape(gx.shape)
    colors = [CLASS_STYLE[-1]["color"], CLASS_STYLE[1]["color"]]
    ax.contourf(gx, gy, labels, levels=[-2, 0, 2], colors=colors, alpha=alpha)
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_hi)
    return ax


def _square_limits(ax, X, pad: float = 0.25):
    """Equal scales on both axes, with a square view around the points and a margin of ``pad``
    times half their extent, so no marker sits on the frame."""
    lo, hi = X.min(axis=0), X.max(axis=0)
    centre, half = (lo + hi) / 2, (hi - lo).max() / 2 * (1 + pad) + 1e-9
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_aspect("equal", adjustable="box")


def plot_dendrogram(Z, ax=None, colours=None, link_colour="0.35"):
    """Draw the tree of a linkage matrix ``Z`` (SciPy's format, shape (n - 1, 4): the two clusters merged,
    the merge height, the new cluster's size; new clusters numbered n, n + 1, ...), leaves at height 0 in the
    order that keeps every branch together, each merge a U at its height. ``colours`` (n colours, one per
    point) marks the leaves; a link whose leaves all share a colour takes that colour. Returns the leaf order."""
    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[1] != 4 or Z.shape[0] < 1:
        raise ValueError(f"Z must be a linkage matrix of shape (n - 1, 4); got shape {Z.shape}")
    n = Z.shape[0] + 1
    if colours is not None and len(colours) != n:
        raise ValueError(f"colours must hold one colour per point ({n}); got {len(colours)}")
    children = {n + i: (int(a), int(b)) for i, (a, b) in enumerate(Z[:, :2])}
    order, stack = [], [2 * n - 2]
    while stack:                                    # depth first, left child first
        node = stack.pop()
        if node < n:
            order.append(node)
        else:
            stack.extend(reversed(children[node]))
    ax = axes(ax, figsize=(6, 3.5))
    x = {leaf: float(position) for position, leaf in enumerate(order)}
    height = {leaf: 0.0 for leaf in range(n)}
    colour = {leaf: (colours[leaf] if colours is not None else link_colour) for leaf in range(n)}
    for i, (a, b) in enumerate(Z[:, :2].astype(int)):
        node, h = n + i, Z[i, 2]
        same = colour[a] if colour[a] == colour[b] else link_colour
        ax.plot([x[a], x[a], x[b], x[b]], [height[a], h, h, height[b]], color=same, lw=1)
        x[node], height[node], colour[node] = (x[a] + x[b]) / 2, h, same
    if colours is not None:
        ax.scatter(range(n), np.zeros(n), c=[colours[leaf] for leaf in order], s=12, zorder=3, clip_on=False)
    ax.set_xticks([])
    ax.set_xlim(-1, n)
    ax.set_ylim(bottom=0)
    return order


def plot_gaussian_ellipses(mean, covariance, ax=None, colour="C0", n_std=(1, 2)):
    """Draw the contours of a 2-d Gaussian at ``n_std`` standard deviations: the ellipses
    ``(x - mean)^T covariance^{-1} (x - mean) = r^2``, whose axes lie along the eigenvectors of the
    covariance with half-lengths ``r sqrt(eigenvalue)``; the mean marked with a cross."""
    from matplotlib.patches import Ellipse

    mean = as_vector(mean, "mean", 2)
    covariance = np.asarray(covariance, dtype=float)
    if covariance.shape != (2, 2) or not np.allclose(covariance, covariance.T):
        raise ValueError(f"covariance must be a symmetric 2 x 2 matrix; got shape {covariance.shape}")
    eigenvalues, eigenvectors = np.linalg.eigh(covariance)
    if eigenvalues[0] < 0:
        raise ValueError(f"covariance must be positive semidefinite; it has the eigenvalue {eigenvalues[0]:.3g}")
    ax = axes(ax)
    angle = np.degrees(np.arctan2(eigenvectors[1, 1], eigenvectors[0, 1]))     # of the long axis
    for r in n_std:
        ax.add_patch(Ellipse(mean, 2 * r * np.sqrt(eigenvalues[1]), 2 * r * np.sqrt(eigenvalues[0]), angle=angle,
                             fill=False, edgecolor=colour, lw=1.5 if r == n_std[0] else 0.8))
    ax.plot(*mean, marker="X", color=colour, markeredgecolor="k", markersize=10)
    return ax


def plot_image_grid(images, ax=None, columns: int = 8, shape=(8, 8), cmap="gray_r", vmin=None, vmax=None):
    """Draw images, given as rows of ``images`` (each an image of ``shape`` flattened row by row, as the digits of
    lecture 12 are), in a grid of ``columns`` columns in one axes, one pixel of background between them (one
    ``imshow`` for the whole grid, far quicker than an axes per image). Returns the ``AxesImage``."""
    images = np.asarray(images, dtype=float)
    rows, cols = shape
    if images.ndim != 2 or images.shape[1] != rows * cols:
        raise ValueError(f"images must have shape (m, {rows * cols}), one flattened {rows} x {cols} image per row; got shape {images.shape}")
    if isinstance(columns, bool) or not isinstance(columns, (int, np.integer)) or columns < 1:
        raise ValueError(f"columns must be an integer >= 1; got {columns!r}")
    lines = -(-len(images) // columns)
    grid = np.full((lines * (rows + 1) - 1, columns * (cols + 1) - 1), np.nan)
    for t, image in enumerate(images):
        r, c = divmod(t, columns)
        grid[r * (rows + 1): r * (rows + 1) + rows, c * (cols + 1): c * (cols + 1) + cols] = image.reshape(rows, cols)
    ax = axes(ax)
    shown = ax.imshow(grid, cmap=cmap, vmin=vmin, vmax=vmax, interpolation="nearest")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_frame_on(False)
    return shown


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten_label(value, _position=None) -> str:
    """A tick label for a log axis as plain text: ``10⁻³`` for a power of ten, ``%g`` otherwise."""
    if value <= 0 or not np.isfinite(value):
        return ""
    exponent = round(np.log10(value))
    if np.isclose(value, 10.0**exponent, rtol=1e-9, atol=0):
        return "1" if exponent == 0 else "10" + str(exponent).translate(_SUPERSCRIPT)
    return f"{value:g}"


def _plain_label(value, _position=None) -> str:
    return f"{value:g}"


def log_ticks(ax, which: str = "both"):
    """On an axes whose ``which`` axis ("x", "y" or "both") is already on a log scale, called once the data are
    drawn: major ticks only, labelled as plain text. An axis within 0.001 to 10000 reads as ordinary numbers
    (0.01, 20, 500), ticked at 1, 2 and 5 times the powers of ten when it spans less than three decades; a wider
    one reads as powers of ten (``10⁻³``). Matplotlib's defaults (minor ticks, and major labels typeset as
    mathematics) make a log axis cost five times the drawing time of a linear one; this brings it back to a
    linear one's."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    if which not in ("x", "y", "both"):
        raise ValueError(f'which must be "x", "y" or "both"; got {which!r}')
    chosen = [ax.xaxis, ax.yaxis] if which == "both" else [ax.xaxis if which == "x" else ax.yaxis]
    for axis in chosen:
        if axis.get_scale() != "log":
            raise ValueError(f"the {axis.axis_name} axis is not on a log scale (set the scale first: ax.set_{axis.axis_name}scale('log'))")
        low, high = sorted(axis.get_view_interval())
        if low > 0 and np.log10(high / low) < 3:
            axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        axis.set_minor_locator(NullLocator())
        plain = 1e-3 <= low and high <= 1e4
        axis.set_major_formatter(FuncFormatter(_plain_label if plain else power_of_ten_label))
    return ax
