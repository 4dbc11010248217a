# Foundations of Machine Learning: every command a student, an instructor or CI needs.
# `make lab` and `make test` set everything up on a fresh machine (a .venv beside this file).

PYTHON ?= python3
VENV   := $(CURDIR)/.venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# nbgrader calls `alembic` through PATH when it creates a gradebook: the venv comes first.
export PATH := $(BIN):$(PATH)

# make lab LAB_ARGS="--no-browser --port=8899"  (headless use)
LAB_ARGS ?=
# make autograde LECTURE=02-perceptron STUDENT=alice   (both optional)
LECTURE ?=
STUDENT ?=
# make autograde JOBS=8 (needs MLCOURSE_GRADEBOOK=postgresql://...), FORCE=1 regrades all,
# SANDBOX=0 runs student code unconfined
JOBS ?=
SANDBOX ?=
# make bench BENCH_ARGS="--class-size 80"
BENCH_ARGS ?=
# make test PYTEST_ARGS="-k perceptron"
PYTEST_ARGS ?=
# make release FORCE=1 overwrites notebooks/ even where it has changes git does not know
FORCE ?=

.PHONY: setup lab test execute release autograde feedback export bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml tools/course.py
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	$(BIN)/python -m ipykernel install --sys-prefix --name mlcourse --display-name "Python 3 (ML course)"
	$(BIN)/python tools/course.py install-sandbox-kernel
	@touch $(STAMP)

# The grading sandbox's kernel (mlcourse-sandbox) is for `make autograde` only: Lab does not offer it.
lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks \
		--KernelSpecManager.allowed_kernelspecs=mlcourse --KernelSpecManager.allowed_kernelspecs=python3 $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

# Saved outputs must not depend on the CPU: nbval re-runs the solutions under two sets of OpenBLAS
# kernels (AVX2 and SSE on x86-64; elsewhere the machine's own and the generic ARMv8 set).
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
ifeq ($(shell uname -m),x86_64)
BLAS_FIRST := OPENBLAS_CORETYPE=Haswell
BLAS_SECOND := OPENBLAS_CORETYPE=Prescott
else
BLAS_FIRST :=
BLAS_SECOND := OPENBLAS_CORETYPE=ARMV8
endif

test: $(STAMP)
	$(BLAS_FIRST) $(BIN)/python -m pytest -n 2 --dist loadscope $(NBVAL) tests solutions $(PYTEST_ARGS)
	$(BLAS_SECOND) $(BIN)/python -m pytest -n 2 -p no:cacheprovider $(NBVAL) solutions

execute: $(STAMP)
	$(BIN)/python tools/course.py execute $(LECTURE)

release: $(STAMP)
	$(BIN)/python tools/course.py release $(if $(FORCE),--force) $(LECTURE)

autograde: $(STAMP)
	$(BIN)/python tools/grade.py $(if $(LECTURE),--lecture $(LECTURE)) $(if $(STUDENT),--student $(STUDENT)) \
		$(if $(JOBS),--jobs $(JOBS)) $(if $(FORCE),--force) $(if $(filter 0,$(SANDBOX)),--no-sandbox)

feedback: $(STAMP)
	$(BIN)/python tools/course.py feedback $(if $(LECTURE),--lecture $(LECTURE)) $(if $(STUDENT),--student $(STUDENT))

export: $(STAMP)
	$(BIN)/python tools/course.py export

bench: $(STAMP)
	$(BIN)/python tools/bench.py $(BENCH_ARGS)

clean:
	rm -rf .pytest_cache .hypothesis build
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
