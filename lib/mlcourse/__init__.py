"""Helper package of the course *Foundations of Machine Learning*.

One module per topic (``perceptron``, ...), plus shared ones: ``data`` (seeded synthetic data
sets), ``plotting`` (one style for every figure), ``widgets`` (the interactive parts) and
``grading`` (the assertions the exercise tests use, with messages that help).
"""

__version__ = "0.1.0"
