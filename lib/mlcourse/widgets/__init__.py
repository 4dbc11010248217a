"""Interactive parts of the lectures (ipywidgets on live Matplotlib plots), one module per lecture:
``lecture01`` to ``lecture12``.

Each explorer builds its controls and returns the widget box, so a notebook cell ends with it and
Jupyter displays it; its ``draw_...`` function draws one frame and can be called (and tested) alone.
Nothing here runs at import, so autograding never touches it.
"""

from .lecture01 import draw_polynomial_fit, polynomial_explorer
from .lecture02 import draw_perceptron_step, perceptron_stepper
from .lecture03 import draw_gaussian_likelihood, likelihood_explorer
from .lecture04 import bayes_explorer, draw_bayes_explorer, two_gaussian_classes
from .lecture05 import _knn_reference, _knn_sample, draw_knn_explorer, knn_classes, knn_explorer
from .lecture06 import draw_kernel_perceptron, kernel_perceptron_explorer
from .lecture07 import draw_svm, svm_explorer
from .lecture08 import draw_penalties, regularisation_explorer
from .lecture09 import bandwidth_explorer, draw_bandwidth
from .lecture10 import draw_sample_sizes, sample_size_explorer
from .lecture11 import draw_em_step, em_explorer
from .lecture12 import draw_reconstructions, reconstruction_explorer

__all__ = [
    "bandwidth_explorer", "bayes_explorer", "draw_bandwidth", "draw_bayes_explorer", "draw_gaussian_likelihood", "draw_kernel_perceptron",
    "draw_knn_explorer", "draw_penalties", "draw_perceptron_step", "draw_polynomial_fit", "draw_svm", "kernel_perceptron_explorer",
    "knn_classes", "knn_explorer", "likelihood_explorer", "perceptron_stepper", "polynomial_explorer",
    "regularisation_explorer", "draw_sample_sizes", "sample_size_explorer", "draw_em_step", "em_explorer", "draw_reconstructions", "reconstruction_explorer",
    "svm_explorer", "two_gaussian_classes",
]
