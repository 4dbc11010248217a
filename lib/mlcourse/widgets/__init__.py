"""Interactive parts of the lectures (ipywidgets on live Matplotlib plots), one module per lecture:
``lecture01`` to ``lecture13``.

Each explorer builds its controls and returns the widget box, so a notebook cell ends with it and
Jupyter displays it; its ``draw_...`` function draws one frame and can be called (and tested) alone.
Nothing here runs at import, so autograding never touches it.
"""

from importlib import import_module

# Each name is imported from its lecture's module when first asked for (PEP 562): importing all twelve
# modules, and through them the whole library, cost every lecture's explorer cell about 0.1 s.
_WHERE = {
    "bandwidth_explorer": "lecture09",
    "bayes_explorer": "lecture04",
    "boosting_explorer": "lecture13",
    "draw_bandwidth": "lecture09",
    "draw_bayes_explorer": "lecture04",
    "draw_boosting": "lecture13",
    "draw_em_step": "lecture11",
    "draw_gaussian_likelihood": "lecture03",
    "draw_kernel_perceptron": "lecture06",
    "draw_knn_explorer": "lecture05",
    "draw_penalties": "lecture08",
    "draw_perceptron_step": "lecture02",
    "draw_polynomial_fit": "lecture01",
    "draw_reconstructions": "lecture12",
    "draw_sample_sizes": "lecture10",
    "draw_svm": "lecture07",
    "em_explorer": "lecture11",
    "kernel_perceptron_explorer": "lecture06",
    "knn_classes": "lecture05",
    "knn_explorer": "lecture05",
    "likelihood_explorer": "lecture03",
    "perceptron_stepper": "lecture02",
    "polynomial_explorer": "lecture01",
    "reconstruction_explorer": "lecture12",
    "regularisation_explorer": "lecture08",
    "sample_size_explorer": "lecture10",
    "svm_explorer": "lecture07",
    "two_gaussian_classes": "lecture04",
}

__all__ = sorted(_WHERE)
_MODULES = sorted(set(_WHERE.values()))


def __getattr__(name):
    if name in _MODULES:
        return import_module(f".{name}", __name__)
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value                     # later lookups find it without coming here
    return value


def __dir__():
    return sorted(set(globals()) | set(_WHERE) | set(_MODULES))
