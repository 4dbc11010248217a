"""What the explorers share."""

from __future__ import annotations

import numpy as np


def _readable(box):
    """Give every control in ``box`` a label as wide as its text ("sample se..." was cut off at
    ipywidgets' default width), and return the box."""
    for child in getattr(box, "children", ()):
        _readable(child)
    if getattr(box, "description", "") and hasattr(box, "style") and hasattr(box.style, "description_width"):
        box.style.description_width = "initial"
    return box


def _two_classes(data_set: str, m: int, rng):
    """``m`` points of one of the explorers' two-class data sets in the plane, labels +1 and -1 in turn:
    "two overlapping clouds", "disc and ring", or anything else: the "exclusive or" of four clouds."""
    y = np.where(np.arange(m) % 2 == 0, 1, -1)
    if data_set == "two overlapping clouds":
        return np.c_[0.9 * y, 0.6 * y] + rng.standard_normal((m, 2)) * 0.9, y
    if data_set == "disc and ring":
        radius = np.where(y == 1, 2.0, 1.0) + 0.25 * rng.standard_normal(m)
        angle = rng.uniform(0, 2 * np.pi, m)
        return np.c_[radius * np.cos(angle), radius * np.sin(angle)], y
    signs = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]])[np.arange(m) % 4]
    return signs + 0.45 * rng.standard_normal((m, 2)), np.where(signs[:, 0] * signs[:, 1] > 0, 1, -1)
