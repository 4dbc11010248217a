"""What the grading kernel offers a lecture's answers: its allowance, not a list of what it lacks.

A lecture's notebook metadata says (``mlcourse`` in the solution's metadata):

- ``kernel_allows``: what the needed-for-grading cells and the answers may use besides Python's standard
  library and NumPy: modules of the course's library (``mlcourse.data``: all its public functions),
  single functions of it (``mlcourse.perceptron.is_linearly_separable``), and third-party packages or
  subpackages (``scipy.special``). Nothing else of the library or of the environment is there.
- ``kernel_lacks``: NumPy's shortcuts (``numpy.linalg.lstsq``: withdrawn from every NumPy module that
  holds a function of that name, ``numpy.ma.cov`` as well as ``numpy.cov``), and the library's twins of
  the exercises (``mlcourse.perceptron.predict``), which the release names to students and which the
  allowance must not reach.

From that, ``grading_library`` builds the copy of the library the kernel imports: the allowed functions
and what they need (the helpers they call, in their module or another, found in their code), every other
function and class replaced by one that raises saying it is not available. ``kernel_site`` says which
entries of the course environment's site-packages the sandbox shows (what the kernel itself needs, with
the allowed packages and their dependencies) and which subpackages of those it hides (of SciPy, for
``scipy.special``, everything importing it does not load). tools/sandbox-kernel hides every other
Python's packages.
"""

from __future__ import annotations

import ast
import compileall
import functools
import hashlib
import importlib.metadata as metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

# The distributions the kernel needs whatever the lecture: the kernel, NumPy, Matplotlib (the setup cells
# import pyplot). Of the course's own package, only its files (its path file: the sandbox shows lib/),
# not what it requires (JupyterLab, nbgrader, scikit-learn...).
KERNEL_NEEDS = ("ipykernel", "numpy", "matplotlib")
COURSE = "mlcourse"
# NumPy modules loaded before withdrawing, so that their twins of a withheld function go too.
NUMPY_MODULES = ("numpy.ma", "numpy.ma.extras", "numpy.polynomial", "numpy.matlib")
TWIN = "the exercise asks you to write it yourself"
NOT_ALLOWED = "your answers may use only what the lecture's first cell lists"


@dataclass(frozen=True)
class Allowance:
    allows: tuple[str, ...]
    lacks: tuple[str, ...]

    @classmethod
    def of(cls, nb_metadata: dict, where: str = "the notebook") -> "Allowance":
        meta = nb_metadata.get("mlcourse", {})
        parts = []
        for key in ("kernel_allows", "kernel_lacks"):
            value = meta.get(key, [])
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise ValueError(f"{where}: metadata mlcourse.{key} must be a list of dotted names")
            parts.append(tuple(sorted(set(value))))
        return cls(*parts)

    @property
    def library(self) -> list[str]:
        return [n for n in self.allows if n.split(".")[0] == "mlcourse"]

    @property
    def packages(self) -> list[str]:
        return [n for n in self.allows if n.split(".")[0] != "mlcourse"]

    @property
    def twins(self) -> list[str]:
        return [n for n in self.lacks if n.split(".")[0] == "mlcourse"]

    @property
    def numpy(self) -> list[str]:
        return [n for n in self.lacks if n.split(".")[0] == "numpy"]


# ----------------------------------------------------------------------------- the library's code


@dataclass
class Module:
    """One module of the library, as the closure needs it."""
    name: str  # "perceptron"
    tree: ast.Module
    defs: dict  # top-level function and class names -> their nodes
    imported: dict  # local name -> (module, name) for `from .m import name as local`
    modules: dict  # local name -> module for `from . import m as local`

    @classmethod
    def parse(cls, name: str, source: str) -> "Module":
        tree = ast.parse(source)
        defs, imported, modules = {}, {}, {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defs[node.name] = node
            elif isinstance(node, ast.ImportFrom) and node.level == 1:
                for alias in node.names:
                    if node.module is None:
                        modules[alias.asname or alias.name] = alias.name
                    else:
                        imported[alias.asname or alias.name] = (node.module, alias.name)
        return cls(name, tree, defs, imported, modules)

    def statements(self):
        """The module-level statements that run on import, but for imports and definitions."""
        return [n for n in self.tree.body if not isinstance(
            n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))]

    def references(self, node) -> set[tuple[str, str]]:
        """(module, name) pairs of the library that the code of ``node`` uses."""
        found, modules = set(), dict(self.modules)
        for sub in ast.walk(node):
            if isinstance(sub, ast.ImportFrom) and sub.level == 1:  # an import inside a function
                for alias in sub.names:
                    if sub.module is None:
                        modules[alias.asname or alias.name] = alias.name
                    else:
                        found.add((sub.module, alias.name))
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id in modules:
                found.add((modules[sub.value.id], sub.attr))
            elif isinstance(sub, ast.Name):
                if sub.id in self.defs:
                    found.add((self.name, sub.id))
                elif sub.id in self.imported:
                    found.add(self.imported[sub.id])
        return found


def read_library(library: Path) -> dict[str, Module]:
    """The library's top-level modules by name (its subpackage ``widgets`` is never offered)."""
    return {p.stem: Module.parse(p.stem, p.read_text()) for p in sorted(library.glob("*.py")) if p.stem != "__init__"}


def library_closure(modules: dict[str, Module], allows: list[str]) -> tuple[dict[tuple[str, str], str], set[str]]:
    """Every (module, name) of the library the kernel offers for ``allows``, each with the reason it is
    there (the allowance, or the name that needs it); and the modules that are imported as a result,
    whose module-level code must run (what it uses is offered too). Every other module is not there."""
    keep: dict[tuple[str, str], str] = {}
    todo: list[tuple[tuple[str, str], str]] = []
    for entry in allows:
        parts = entry.split(".")
        if len(parts) not in (2, 3) or parts[1] not in modules:
            raise ValueError(f"kernel_allows: {entry} is neither mlcourse.<module> nor mlcourse.<module>.<name>")
        module = modules[parts[1]]
        if len(parts) == 3:
            if parts[2] not in module.defs:
                raise ValueError(f"kernel_allows: {entry}: mlcourse.{parts[1]} has no function or class {parts[2]}")
            todo.append(((parts[1], parts[2]), "allowed"))
        else:
            todo += [((parts[1], name), "allowed") for name in module.defs if not name.startswith("_")]
    loaded: set[str] = set()

    def load(name: str) -> None:
        if name in loaded or name not in modules:
            return
        loaded.add(name)
        module = modules[name]
        for statement in module.statements():
            todo.extend((ref, f"mlcourse.{name} itself") for ref in module.references(statement))
        for imported in {m for m, _ in module.imported.values()} | set(module.modules.values()):
            load(imported)

    while todo:
        (module_name, name), why = todo.pop()
        if module_name not in modules:
            continue
        load(module_name)
        if (module_name, name) in keep or name not in modules[module_name].defs:
            continue
        keep[(module_name, name)] = why
        module = modules[module_name]
        todo += [(ref, f"mlcourse.{module_name}.{name}") for ref in module.references(module.defs[name])]
    return keep, loaded


def withheld_source(module: Module, keep: set[str], twins: set[str]) -> str:
    """The module with every function and class not in ``keep`` replaced by a function that raises."""
    body = []
    for node in module.tree.body:
        name = getattr(node, "name", None)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and name not in keep:
            why = TWIN if name in twins else NOT_ALLOWED
            message = f"mlcourse.{module.name}.{name} is not available when your work is graded: {why}"
            stub = ast.parse(f"def {name}(*args, **kwargs):\n    raise RuntimeError({message!r})\n"
                             f"{name}.__mlcourse_withheld__ = True\n").body
            body += stub
        else:
            body.append(node)
    module.tree.body = body
    return ast.unparse(module.tree) + "\n"


def unavailable_module(name: str) -> str:
    return (f'"""{name} is not available when your work is graded."""\n\n'
            f"def __getattr__(name):\n    raise AttributeError(f\"{name}.{{name}} is not available when "
            f"your work is graded: {NOT_ALLOWED}\")\n")


# ----------------------------------------------------------------------------- NumPy


def numpy_function(name: str) -> str:
    """``name`` if it is a function of NumPy (``numpy.linalg.lstsq``), else a ValueError naming it."""
    module, _, function = name.rpartition(".")
    if not module:
        raise ValueError("kernel_lacks: numpy cannot be hidden (every lecture needs it); name the functions "
                         "an answer must not call, such as numpy.linalg.lstsq")
    try:
        import importlib

        target = getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError):
        raise ValueError(f"kernel_lacks: {name}: {module} has no function {function}") from None
    if not callable(target) or isinstance(target, type) or type(target).__name__ == "module":
        raise ValueError(f"kernel_lacks: {name} is not a function of NumPy (NumPy and its subpackages cannot "
                         "be hidden: name the functions an answer must not call)")
    return name


def withdrawing(names: list[str]) -> str:
    """Code for the end of the grading library's ``mlcourse/__init__.py`` (which the tagged setup cells
    import before any answer runs): every function of NumPy named like one in ``names`` (its last part) is
    replaced by one that raises, in every NumPy module loaded (``numpy.linalg`` and
    ``numpy.linalg._linalg``, ``numpy.cov`` and ``numpy.ma.cov``: a twin goes with the original). The
    modules of ``NUMPY_MODULES`` are loaded first. It stops an answer that calls one; it cannot stop a
    student set on restoring one, who still has to return right values to the hidden tests."""
    return f'''

def _withdraw(names, preload):
    import importlib
    import sys
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for module in preload:
            try:
                importlib.import_module(module)
            except ImportError:
                pass
    for name in names:
        function = name.rpartition(".")[2]

        def withdrawn(*args, _name=name, **kwargs):
            raise RuntimeError(f"{{_name}} is not available when your work is graded: the exercise asks "
                               "you to write what it does yourself")

        withdrawn.__mlcourse_withheld__ = True
        for key, held in list(sys.modules.items()):
            if (key == "numpy" or key.startswith("numpy.")) and callable(getattr(held, function, None)):
                setattr(held, function, withdrawn)


_withdraw({names!r}, {list(NUMPY_MODULES)!r})
del _withdraw
'''


# ----------------------------------------------------------------------------- the copy and the site


def grading_library(root: Path, allowance: Allowance) -> tuple[Path, "Site"]:
    """The copy of lib/ the grading kernel imports, and what of the environment it sees (``kernel_site``).

    Built once per content under build/grading-lib/, compiled, readable by all; found again by an index
    of what it was built from (the allowance, the site, the library's files), without parsing the library."""
    library = root / "lib" / "mlcourse"
    site = kernel_site(tuple(sorted(allowance.packages)))
    inputs = hashlib.sha256(json.dumps([allowance.allows, allowance.lacks, str(site.folder), site.entries,
                                        [str(p) for p in site.hidden]]).encode())
    for path in sorted(library.rglob("*.py")):
        inputs.update(str(path.relative_to(library)).encode() + b"\0" + path.read_bytes())
    index = root / "build" / "grading-lib" / "index" / inputs.hexdigest()[:24]
    if index.is_file():
        built = index.parent.parent / index.read_text().strip()
        if (built / "mlcourse").is_dir():
            return built, site
    modules = read_library(library)
    keep, loaded = library_closure(modules, allowance.library)
    twins = set()
    for name in allowance.twins:
        parts = name.split(".")
        if len(parts) != 3 or parts[1] not in modules or parts[2] not in modules[parts[1]].defs:
            raise ValueError(f"kernel_lacks: {name} is not a function of mlcourse (mlcourse.<module>.<function>)")
        if (parts[1], parts[2]) in keep:
            raise ValueError(f"kernel_lacks withholds {name}, but the allowance reaches it "
                             f"(needed by {keep[(parts[1], parts[2])]})")
        twins.add(name)
    numpy = sorted(numpy_function(n) for n in allowance.numpy)
    others = [n for n in allowance.lacks if n.split(".")[0] not in ("mlcourse", "numpy")]
    if others:
        raise ValueError(f"kernel_lacks: {', '.join(others)}: the kernel has only what kernel_allows names, so "
                         "packages need not be withheld")
    kept = sorted(f"{m}.{n}" for m, n in keep)
    digest = hashlib.sha256(json.dumps([kept, sorted(loaded), sorted(twins), numpy, site.entries,
                                        [str(p) for p in site.hidden]]).encode())  # (not site.others: not in the copy)
    for path in sorted(library.rglob("*.py")):
        digest.update(str(path.relative_to(library)).encode() + path.read_bytes())
    target = root / "build" / "grading-lib" / digest.hexdigest()[:16]
    if not (target / "mlcourse").is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix="new-", dir=target.parent))
        (staging / "mlcourse").mkdir()
        init = (library / "__init__.py").read_text() + (withdrawing(numpy) if numpy else "")
        (staging / "mlcourse" / "__init__.py").write_text(init)
        for name, module in modules.items():
            names = {n for m, n in keep if m == name}
            source = (withheld_source(module, names, {t.split(".")[2] for t in twins if t.split(".")[1] == name})
                      if name in loaded else unavailable_module(f"mlcourse.{name}"))
            (staging / "mlcourse" / f"{name}.py").write_text(source)
        for package in sorted(p for p in library.iterdir() if p.is_dir() and (p / "__init__.py").is_file()):
            (staging / "mlcourse" / package.name).mkdir()
            (staging / "mlcourse" / package.name / "__init__.py").write_text(unavailable_module(f"mlcourse.{package.name}"))
        (staging / "offered.json").write_text(json.dumps({"library": kept, "modules": sorted(loaded), "site": site.entries,
                                                          "hidden": [str(p) for p in site.hidden]}, indent=1))
        compileall.compile_dir(str(staging), quiet=1)
        for folder, dirs, files in os.walk(staging):
            os.chmod(folder, 0o755)
            for f in files:
                os.chmod(os.path.join(folder, f), 0o644)
        try:
            staging.rename(target)
        except OSError:  # built by another grader at the same time
            shutil.rmtree(staging, ignore_errors=True)
    index.parent.mkdir(parents=True, exist_ok=True)
    written = index.with_name(f"{index.name}.{os.getpid()}")
    written.write_text(target.name)
    written.replace(index)  # atomic: a grader reading it at the same time sees all of it or nothing
    return target, site


@dataclass(frozen=True)
class Site:
    """What the sandbox shows of the course environment's site-packages."""
    folder: Path  # the site-packages folder
    entries: list[str]  # its top-level files and folders the kernel sees
    hidden: list[Path]  # subpackages of those it does not
    others: list[Path]  # the packages folders of every other Python on the machine, which it does not see


@functools.lru_cache(maxsize=None)
def other_site_packages(own: Path) -> tuple[Path, ...]:
    """Every site-packages or dist-packages folder under /usr and the base interpreter's prefix but ``own``
    (the base interpreter's, Debian's, a Python bundled with some tool): the kernel sees /usr read-only."""
    found = []
    for top in sorted({"/usr", os.path.realpath(sys.base_prefix)}):
        for folder, dirs, _ in os.walk(top):
            for name in [d for d in dirs if d in ("site-packages", "dist-packages")]:
                path = Path(folder) / name
                if not path.is_symlink() and path.resolve() != own:
                    found.append(path)
                dirs.remove(name)
    return tuple(sorted(set(found)))


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def distributions_needed(names) -> dict[str, metadata.Distribution]:
    """The distributions named, with every distribution they require (extras left out)."""
    from packaging.requirements import Requirement

    found, todo = {}, list(names)
    while todo:
        name = todo.pop()
        if _key(name) in found:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise ValueError(f"{name} is not installed in the course's environment") from None
        found[_key(name)] = dist
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return found


SITES = "MLCOURSE_KERNEL_SITES"  # a file of kernel_site's answers, made by `make autograde` for its graders


def share_kernel_sites(packages_of_lectures, folder: Path) -> dict[str, str]:
    """Work out ``kernel_site`` once for each lecture's packages, into a file in ``folder``; the environment
    (SITES) with which the nbgrader processes of this grading run read it instead of working it out
    each (a second each: the walk through /usr and the distributions' metadata)."""
    answers = {}
    for packages in {tuple(sorted(p)) for p in packages_of_lectures}:
        site = kernel_site(packages)
        answers[json.dumps(packages)] = {"folder": str(site.folder), "entries": site.entries,
                                         "hidden": [str(p) for p in site.hidden],
                                         "others": [str(p) for p in site.others]}
    path = folder / "kernel-sites.json"
    path.write_text(json.dumps(answers))
    return {SITES: str(path)}


@functools.lru_cache(maxsize=None)
def kernel_site(packages: tuple[str, ...]) -> Site:
    """The site-packages entries of what the kernel needs and of ``packages`` (``scipy.special``), with
    what each requires; and, of a package allowed only in part, the subpackages importing the allowed
    parts does not load. (Read from the file SITES names when this grading run worked it out already.)"""
    shared = os.environ.get(SITES)
    if shared and Path(shared).is_file():
        known = json.loads(Path(shared).read_text()).get(json.dumps(list(packages)))
        if known is not None:
            return Site(Path(known["folder"]), known["entries"], [Path(p) for p in known["hidden"]],
                        [Path(p) for p in known["others"]])
    folder = Path(next(p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir())).resolve()
    owners = metadata.packages_distributions()
    wanted = list(KERNEL_NEEDS)
    partial: dict[str, list[str]] = {}
    for name in packages:
        top = name.split(".")[0]
        spec = importlib.util.find_spec(top)
        if top not in owners or spec is None:
            raise ValueError(f"kernel_allows: {name} is not an installed package (name a package such as "
                             "scipy.special, or mlcourse.<module>)")
        if importlib.util.find_spec(name) is None:
            raise ValueError(f"kernel_allows: {name} is not a package or module of {top}")
        wanted += owners[top]
        partial.setdefault(top, []).append(name)
    entries = set()
    for dist in [*distributions_needed(wanted).values(), metadata.distribution(COURSE)]:
        for file in dist.files or []:
            if file.parts[0] not in ("..", "__pycache__"):
                entries.add(file.parts[0])
    hidden = []
    for top, names in sorted(partial.items()):
        if top in names:
            continue  # the whole package
        code = (f"import importlib, sys\nfor n in {names!r}:\n    importlib.import_module(n)\n"
                f"print('\\n'.join(sorted({{k.split('.')[1] for k in sys.modules if k.startswith('{top}.')}})))")
        loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
                     .stdout.split())
        base = folder / top
        hidden += [p for p in sorted(base.iterdir()) if p.is_dir() and (p / "__init__.py").is_file()
                   and p.name not in loaded]
    return Site(folder, sorted(entries), hidden, list(other_site_packages(folder)))
