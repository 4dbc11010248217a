# Foundations of Machine Learning: every command a student, an instructor or CI needs.
# `make lab` and `make test` set everything up on a fresh machine (a .venv beside this file).

PYTHON ?= python3
# bash with pipefail: a failing step of a pipe (pip under a filter) fails the recipe.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
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
# make autograde JOBS=8 (default: the number of cores; SQLite or MLCOURSE_GRADEBOOK=postgresql://...),
# FORCE=1 regrades all,
# SANDBOX=0 runs student code unconfined,
# SCHEDULER=tcp://host:8786 grades on the workers of that Dask scheduler (or MLCOURSE_SCHEDULER; docs/instructors.md)
JOBS ?=
SANDBOX ?=
SCHEDULER ?=
# make bench BENCH_ARGS="--class-size 80" (the default times a class of 300 as well)
BENCH_ARGS ?= --big-class 300
# make test PYTEST_ARGS="-k perceptron"
PYTEST_ARGS ?=
# make release FORCE=1 overwrites notebooks/ even where it has changes git does not know
FORCE ?=
# make collect ZIP=submissions.zip LECTURE=12-pca ROSTER=roster.csv  (FORCE=1 replaces what submitted/ holds)
ZIP ?=
ROSTER ?=
# make hub-release / hub-collect LECTURE=12-pca: nbgrader's exchange on a shared JupyterHub
EXCHANGE ?= /srv/nbgrader/exchange
# make student-copy DEST=../ml-course-students   (FORCE=1 replaces the copy's own parts there, keeps the rest: .git...)
DEST ?=

.PHONY: setup lab test execute release collect hub-release hub-collect autograde formgrader feedback export similarity bench student-copy site clean

setup: $(STAMP)

$(STAMP): pyproject.toml tools/course.py
	@echo "Setting up the course in .venv/ (first time only: a few minutes, most of it downloading packages)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "[1/4] updating pip"
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "[2/4] installing the course's pinned packages (each is named as it comes)"
	@$(BIN)/python -m pip install --progress-bar off -e ".[test,instructor,site]" | awk '/^(Collecting|Successfully)/ {print "      " $$0; fflush()} /^Installing collected packages/ {n = split($$0, names, ","); print "      installing " n " packages: the longest step, a minute or two, silent"; fflush()}'
	@echo "[3/4] registering the Jupyter kernel 'Python 3 (ML course)'"
	@$(BIN)/python -m ipykernel install --sys-prefix --name mlcourse --display-name "Python 3 (ML course)" >/dev/null
	@echo "[4/4] registering the grading sandbox's kernel (instructors)"
	@$(BIN)/python tools/course.py install-sandbox-kernel >/dev/null
	@touch $(STAMP)
	@echo "The course is set up."

# The grading sandbox's kernel (mlcourse-sandbox) is for `make autograde` only: Lab does not offer it.
# lab-config/ turns off nbgrader's instructor tools (formgrader, create assignment) for students.
lab: $(STAMP)
	JUPYTER_CONFIG_PATH=$(CURDIR)/lab-config$(if $(JUPYTER_CONFIG_PATH),:$(JUPYTER_CONFIG_PATH)) \
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks --LabApp.app_settings_dir=$(CURDIR)/lab-config/settings \
		--KernelSpecManager.allowed_kernelspecs=mlcourse --KernelSpecManager.allowed_kernelspecs=python3 $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

# Saved outputs must not depend on the CPU: nbval re-runs the solutions under two sets of OpenBLAS
# kernels (AVX2 and SSE on x86-64; elsewhere the machine's own and the generic ARMv8 set). A cell with
# no reply in 300 s (its kernel dead or stuck) fails instead of leaving nbval waiting forever.
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=300
# A set the CPU lacks the instructions for kills the kernel, so the first set is the widest this CPU
# runs (AVX2, else AVX, else OpenBLAS's own choice), the second SSE3's, which every x86-64 CPU runs.
CPU_FLAGS := $(shell grep -m1 -o -w -e avx2 -e avx /proc/cpuinfo 2>/dev/null | sort -u | tr '\n' ' ')
ifeq ($(shell uname -m),x86_64)
BLAS_FIRST := $(if $(filter avx2,$(CPU_FLAGS)),OPENBLAS_CORETYPE=Haswell,$(if $(filter avx,$(CPU_FLAGS)),OPENBLAS_CORETYPE=Sandybridge,))
BLAS_SECOND := OPENBLAS_CORETYPE=Prescott
else
BLAS_FIRST :=
BLAS_SECOND := OPENBLAS_CORETYPE=ARMV8
endif

test: $(STAMP)
	$(BLAS_FIRST) $(BIN)/python -m pytest -n 2 --dist loadscope $(NBVAL) tests solutions $(PYTEST_ARGS)
	$(BLAS_SECOND) $(BIN)/python -m pytest -n 2 --dist loadscope -p no:cacheprovider $(NBVAL) solutions

execute: $(STAMP)
	$(BIN)/python tools/course.py execute $(LECTURE)

release: $(STAMP)
	$(BIN)/python tools/course.py release $(if $(FORCE),--force) $(LECTURE)

# Fill submitted/ from a learning platform's zip (Canvas or Moodle), names mapped to ids by the roster.
collect: $(STAMP)
	@test -n "$(ZIP)" -a -n "$(LECTURE)" -a -n "$(ROSTER)" || { echo "make collect needs ZIP=<the platform's zip> LECTURE=<NN-topic> ROSTER=<roster.csv>"; exit 2; }
	$(BIN)/python tools/collect.py "$(ZIP)" --lecture "$(LECTURE)" --roster "$(ROSTER)" $(if $(FORCE),--force)

hub-release: $(STAMP)
	@test -n "$(LECTURE)" || { echo "make hub-release needs LECTURE=<NN-topic>"; exit 2; }
	$(BIN)/python tools/nbgrader_cli.py release_assignment "$(LECTURE)" --Exchange.root="$(EXCHANGE)"

hub-collect: $(STAMP)
	@test -n "$(LECTURE)" || { echo "make hub-collect needs LECTURE=<NN-topic>"; exit 2; }
	$(BIN)/python tools/hub_collect.py "$(LECTURE)" --exchange "$(EXCHANGE)" $(if $(FORCE),--force)

autograde: $(STAMP)
	$(BIN)/python tools/grade.py $(if $(LECTURE),--lecture $(LECTURE)) $(if $(STUDENT),--student $(STUDENT)) \
		$(if $(JOBS),--jobs $(JOBS)) $(if $(FORCE),--force) $(if $(filter 0,$(SANDBOX)),--no-sandbox) \
		$(if $(SCHEDULER),--scheduler "$(SCHEDULER)")

# nbgrader's formgrader, to grade written answers by hand: prints its address (loopback only; forward
# the port from a machine without a screen); FORMGRADER_ARGS="--port 8890 --browser".
FORMGRADER_ARGS ?=
formgrader: $(STAMP)
	$(BIN)/python tools/formgrader.py $(FORMGRADER_ARGS)

feedback: $(STAMP)
	$(BIN)/python tools/course.py feedback $(if $(LECTURE),--lecture $(LECTURE)) $(if $(STUDENT),--student $(STUDENT))

export: $(STAMP)
	$(BIN)/python tools/course.py export

# make similarity LECTURE=12-pca: the copying report, similarity/<lecture>.html (every lecture with submissions if none)
similarity: $(STAMP)
	$(BIN)/python tools/similarity.py $(if $(LECTURE),--lecture $(LECTURE))

bench: $(STAMP)
	$(BIN)/python tools/bench.py $(BENCH_ARGS)

# The course as students get it, to publish: no solutions, hidden tests, grading notes or grading tools.
student-copy: $(STAMP)
	@test -n "$(DEST)" || { echo "make student-copy needs DEST=<an empty folder outside this repository>"; exit 2; }
	$(BIN)/python tools/student_copy.py "$(DEST)" $(if $(FORCE),--force)

# The course's website, from the committed release and the solutions' demo outputs: build/site/ (site.toml
# sets its title and launch links). Open build/site/index.html, or publish the folder (docs/instructors.md).
site: $(STAMP)
	$(BIN)/python tools/website.py

clean:
	rm -rf .pytest_cache .hypothesis build
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
