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


class PlayedFrames:
    """An Output showing ``draw(**values)`` of named controls, one of which, ``step``, a Play button steps.

    The Play button moves the step slider from the kernel, after the frame it names is drawn: linked in the
    browser (``jslink``), the slider's number moved first and the figure followed a frame later, so a
    student saw the slider and the figure's title disagree on the step while playing.
    """

    def __init__(self, draw, controls: dict, step: str, play):
        import ipywidgets as W

        self.draw, self.controls, self.step, self.play = draw, controls, controls[step], play
        self.name = step
        self.out = W.Output()
        self.busy = False
        for control in controls.values():
            control.observe(self._control_moved, "value")
        play.observe(self._played, "value")
        self.show()

    def values(self, **override) -> dict:
        return {name: control.value for name, control in self.controls.items()} | override

    def show(self, **override) -> None:
        with self.out:
            self.out.clear_output(wait=True)
            self.draw(**self.values(**override))

    def quietly(self, change) -> None:
        """Run ``change()`` (which may move the controls) without drawing."""
        busy, self.busy = self.busy, True
        try:
            change()
        finally:
            self.busy = busy

    def _control_moved(self, change) -> None:
        if self.busy:
            return
        self.show()
        if change.owner is self.step:  # the Play button goes on from where the student put the slider
            self.quietly(lambda: setattr(self.play, "value", change.new))

    def _played(self, change) -> None:
        if self.busy:
            return
        value = min(max(change.new, self.step.min), self.step.max)
        self.show(**{self.name: value})
        self.quietly(lambda: setattr(self.step, "value", value))
