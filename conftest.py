"""Loaded by every pytest run of the course (tests/ and the nbval runs on solutions/).

`make test` runs nbval on the solutions under two OpenBLAS kernel sets (OPENBLAS_CORETYPE), so a
saved output that depends on the CPU's round-off fails here and not on someone else's machine.
This makes sure the kernel set asked for is the one in use, and names it in the report header.
"""

from __future__ import annotations

import os

import pytest

# OpenBLAS names some kernel sets after an older core that shares them (seen: Prescott -> Katmai).
SAME_KERNELS = {"prescott": {"prescott", "katmai"}}


def blas_architecture() -> str | None:
    import numpy  # noqa: F401  (loads OpenBLAS)
    from threadpoolctl import threadpool_info

    return next((i.get("architecture") for i in threadpool_info() if i.get("internal_api") == "openblas"), None)


def pytest_report_header(config):
    return f"BLAS kernels: {blas_architecture()} (OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', 'unset')})"


def pytest_sessionstart(session):
    wanted = os.environ.get("OPENBLAS_CORETYPE")
    if not wanted:
        return
    got = (blas_architecture() or "none").lower()
    if got not in SAME_KERNELS.get(wanted.lower(), {wanted.lower()}):
        pytest.exit(f"OPENBLAS_CORETYPE={wanted} asked for, but OpenBLAS runs its {got} kernels: the check "
                    f"of outputs under several BLAS kernels would not test what it says", returncode=3)
