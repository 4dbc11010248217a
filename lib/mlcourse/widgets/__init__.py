"""Interactive parts of the lectures (ipywidgets on live Matplotlib plots), one module per lecture.

Each explorer builds its controls and returns the widget box, so a notebook cell ends with it and
Jupyter displays it; its ``draw_...`` function draws one frame and can be called (and tested) alone.
Nothing here runs at import, so autograding never touches it.
"""

from .bayes_explorer import bayes_explorer, draw_bayes_explorer, two_gaussian_classes
from . import kernel_explorer
from .kernel_explorer import draw_kernel_perceptron, kernel_perceptron_explorer
from .knn_explorer import _knn_reference, _knn_sample, draw_knn_explorer, knn_classes, knn_explorer
from .likelihood_explorer import draw_gaussian_likelihood, likelihood_explorer
from .perceptron_stepper import draw_perceptron_step, perceptron_stepper
from .polynomial_explorer import draw_polynomial_fit, polynomial_explorer

__all__ = [
    "bayes_explorer", "draw_bayes_explorer", "draw_gaussian_likelihood", "draw_kernel_perceptron",
    "draw_knn_explorer", "draw_perceptron_step", "draw_polynomial_fit", "kernel_perceptron_explorer",
    "knn_classes", "knn_explorer", "likelihood_explorer", "perceptron_stepper", "polynomial_explorer",
    "two_gaussian_classes",
]
