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
    around the points and the axes named (``xlabel``, ``ylabel``; ``None`` leaves a name as it is)."""
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
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
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
