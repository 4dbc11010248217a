"""The figures the solution notebooks show, as saved by `make execute`.

Lectures 05-12 draw each figure once, in the layout it was given (`bbox_inches=None`, the cell after
the setup cell), instead of letting Jupyter trim the margins in a second drawing. A label, a title
or a legend that falls off the edge is then cut, not trimmed back in: this test reads every saved
image and asks for a blank border.
"""

from __future__ import annotations

import base64
import io

import nbformat
import numpy as np
import pytest
from PIL import Image

from conftest import LECTURES, ROOT

BORDER = 2          # pixels
INK = 200           # a channel below this is drawn, not background (anti-aliased edges fade above it)


def images(path):
    for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png:
                yield index, np.asarray(Image.open(io.BytesIO(base64.b64decode(png))).convert("RGB")).astype(int)


def inked_edges(image: np.ndarray) -> list[str]:
    edges = {"top": image[:BORDER], "bottom": image[-BORDER:], "left": image[:, :BORDER], "right": image[:, -BORDER:]}
    return [name for name, strip in edges.items() if (strip.min(axis=-1) < INK).any()]


def test_the_border_check_sees_a_cut_label():
    blank = np.full((50, 80, 3), 255)
    assert inked_edges(blank) == []
    cut = blank.copy()
    cut[-1, 30:40] = 0                     # the bottom of a label running off the lower edge
    assert inked_edges(cut) == ["bottom"]


@pytest.mark.parametrize("name", LECTURES)
def test_no_figure_is_cut_at_its_edge(name):
    path = next((ROOT / "solutions" / name).glob("*.ipynb"))
    cut = {index: edges for index, image in images(path) if (edges := inked_edges(image))}
    assert not cut, (f"{name}: figures drawn up to the edge (cell: edges) {cut}; widen the margins in the cell's "
                     "fig.subplots_adjust and look at the figure")
