"""What the explorers share."""

from __future__ import annotations


def _readable(box):
    """Give every control in ``box`` a label as wide as its text ("sample se..." was cut off at
    ipywidgets' default width), and return the box."""
    for child in getattr(box, "children", ()):
        _readable(child)
    if getattr(box, "description", "") and hasattr(box, "style") and hasattr(box.style, "description_width"):
        box.style.description_width = "initial"
    return box
