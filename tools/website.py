"""make site: the students' release as a static website, built offline with Jupyter Book.

    python tools/website.py [--out build/site]

One page per lecture: the release's cells (exercise stubs and public tests, as students get them) with
the saved outputs of the solution's demos and proof checks, never those of an exercise or a test; each
explorer shown as a still of its first state, with a line on how to run it; the notation table; search;
formulas typeset by a MathJax served from the site itself; launch links (Binder, and a JupyterHub
through nbgitpuller) set in one place, `site.toml`.

The pages mirror the students' copy (`notebooks/NN-topic/topic.ipynb`), so a launch link opens the
same file in the published copy.
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from course import ROOT, lectures, shown

CONFIG = ROOT / "site.toml"
SOURCE = ROOT / "build" / "site-src"
OUT = ROOT / "build" / "site"
EXPLORER_TAG = "nbval-ignore-output"
# The tab's icon: two classes and a separating line (a browser asks for one; without it, a 404 on every page).
FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#fff"/>'
           '<circle cx="4.5" cy="5" r="2" fill="#1f77b4"/><circle cx="11.5" cy="11" r="2" fill="#d62728"/>'
           '<path d="M2 14 L14 2" stroke="#333" stroke-width="1.4"/></svg>\n')
STILL_NOTE = ("*A still of the explorer's first state: the page cannot run code. Open the lecture in Jupyter "
              "(the launch button at the top of this page, or `make lab` in the students' copy) to move its controls.*")


# The hidden MathML that MathJax 2 adds for screen readers (its AssistiveMML extension) declares web fonts for
# double-struck, script, calligraphic and fraktur letters in MathJax's TeX fonts, which the pinned
# jupyter-server-mathjax does not ship (it has STIX-Web): a 404 for each, on every page. That MathML is never
# shown, so its faces point at local fonts instead, which are looked up and never fetched.
NATIVE_MML_FONTS = {"styles": {f"@font-face /*{i}*/": {"src": f"local('{face}')"} for i, face in enumerate(
    ["MathJax_Caligraphic", "MathJax_Caligraphic Bold", "MathJax_AMS", "MathJax_Script", "MathJax_Fraktur",
     "MathJax_Fraktur Bold"], start=1)}}


# --- settings -----------------------------------------------------------------------------------------

def settings(path: Path = CONFIG) -> dict:
    """The instructor's settings (`site.toml`), checked; a bad value stops the build naming the key."""
    try:
        found = tomllib.loads(path.read_text())
    except FileNotFoundError:
        sys.exit(f"{shown(path)} is missing: it holds the site's title and launch links (docs/instructors.md)")
    except tomllib.TOMLDecodeError as exc:
        sys.exit(f"{shown(path)} is not valid TOML: {exc}")
    for key in ("title", "repository_url", "branch"):
        if not isinstance(found.get(key), str) or not found[key].strip():
            sys.exit(f"{shown(path)}: '{key}' must be a non-empty string")
    for key in ("repository_url", "binderhub_url", "jupyterhub_url", "site_url"):
        value = found.get(key, "")
        if not isinstance(value, str) or (value and not value.startswith("https://")):
            sys.exit(f"{shown(path)}: '{key}' must be an https:// address (or empty to leave its button out), "
                     f"not {value!r}")
    return found


def launch_links(found: dict, path: str = "notebooks") -> list[tuple[str, str]]:
    """Where ``path`` (a file or folder of the students' copy) opens in a running Jupyter: Binder, built from the
    copy's environment.yml (GitHub repositories), and the course's JupyterHub through nbgitpuller, which clones
    the copy into the student's home there (the same links as the site's launch buttons)."""
    from urllib.parse import quote, urlencode

    repository, branch = found["repository_url"].rstrip("/"), found["branch"]
    links = []
    github = re.fullmatch(r"https://github\.com/([^/]+)/([^/]+?)(\.git)?", repository)
    if found.get("binderhub_url") and github:
        binder = found["binderhub_url"].rstrip("/")
        links.append(("Binder", f"{binder}/v2/gh/{github[1]}/{github[2]}/{quote(branch)}?urlpath=lab/tree/{quote(path)}"))
    if found.get("jupyterhub_url"):
        name = repository.rsplit("/", 1)[-1].removesuffix(".git")
        query = urlencode({"repo": repository, "urlpath": f"lab/tree/{name}/{path}", "branch": branch})
        links.append(("your course's JupyterHub", f"{found['jupyterhub_url'].rstrip('/')}/hub/user-redirect/git-pull?{query}"))
    return links


# --- pages ----------------------------------------------------------------------------------------------

def _graded(cell) -> bool:
    meta = cell.metadata.get("nbgrader", {})
    return bool(meta.get("solution") or meta.get("grade"))


def is_explorer(cell) -> bool:
    return cell.cell_type == "code" and EXPLORER_TAG in cell.metadata.get("tags", []) and "mlcourse.widgets" in cell.source


def _strings(node) -> list[str]:
    """The text of a string literal, an f-string's fixed parts with '…' for what it fills in."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else "…" for v in node.values)]
    return []


def alt_text(cell) -> str:
    """What a figure shows, for readers who cannot see it: the cell's `mlcourse.alt` metadata where an author
    wrote one, else the titles and axis labels the cell's code gives its figure."""
    written = cell.metadata.get("mlcourse", {}).get("alt")
    if written:
        return written
    titles, axes = [], []
    try:
        tree = ast.parse(cell.source)
    except SyntaxError:
        tree = ast.Module(body=[], type_ignores=[])
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            name = node.func.attr
            if name in ("suptitle", "set_title", "title"):
                titles += _strings(node.args[0])
            elif name in ("set_xlabel", "set_ylabel", "xlabel", "ylabel"):
                axes += _strings(node.args[0])
    for node in ast.walk(tree):  # ax.set(title=..., xlabel=...)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "set":
            for kw in node.keywords:
                if kw.arg == "title":
                    titles += _strings(kw.value)
                elif kw.arg in ("xlabel", "ylabel"):
                    axes += _strings(kw.value)
    parts = []
    if titles:
        parts.append("Figure: " + "; ".join(dict.fromkeys(t.replace("\n", " ") for t in titles)))
    if axes:
        parts.append("axes: " + ", ".join(dict.fromkeys(a.replace("\n", " ") for a in axes)))
    return ". ".join(parts) or "Figure drawn by the code above it"


def page(release, solution, stills: dict[int, tuple[str, str]]):
    """The site's page of one lecture (see the module's docstring). ``stills``: explorer cell -> (base64 PNG,
    what it shows)."""
    import nbformat

    if len(release.cells) != len(solution.cells):
        raise ValueError("the release and the solution have different cells: run make release first")
    result = copy.deepcopy(release)
    for i, (cell, master) in enumerate(zip(result.cells, solution.cells)):
        if cell.cell_type != "code":
            continue
        cell.outputs, cell.execution_count = [], None
        if _graded(master) or cell.source != master.source:
            continue
        if is_explorer(master):
            if i in stills:
                png, shows = stills[i]
                cell.outputs = [
                    nbformat.v4.new_output("display_data", data={"image/png": png}),
                    nbformat.v4.new_output("display_data", data={"text/markdown": STILL_NOTE})]
                cell.metadata.setdefault("mystnb", {})["image"] = {"alt": f"A still of the explorer. {shows}"}
            continue
        cell.outputs = copy.deepcopy(master.outputs)
        if any("image/png" in o.get("data", {}) for o in cell.outputs):
            cell.metadata.setdefault("mystnb", {})["image"] = {"alt": alt_text(master)}
    return result


STILLS_SCRIPT = r"""
import base64, io, json, sys
import matplotlib
matplotlib.use("agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
import IPython.display

shots = []
def described(fig):
    titles = [fig._suptitle.get_text()] if fig._suptitle else []
    titles += [ax.get_title() for ax in fig.axes if ax.get_title()]
    labels = [text for ax in fig.axes for text in (ax.get_xlabel(), ax.get_ylabel()) if text]
    words = "Figure: " + "; ".join(dict.fromkeys(titles)) if titles else "Figure"
    return words + (". axes: " + ", ".join(dict.fromkeys(labels)) if labels else "")
def grab(fig):
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    shots.append((base64.b64encode(buffer.getvalue()).decode(), described(fig)))
def display(*objects, **options):
    for o in objects:
        if isinstance(o, Figure):
            grab(o)
def show(*args, **options):
    for number in plt.get_fignums():
        grab(plt.figure(number))
    plt.close("all")
IPython.display.display = display
plt.show = show

found = {}
for name, setup, cells in json.load(sys.stdin):
    scope = {}
    exec(setup, scope)
    show(); shots.clear()
    for index, source in cells:
        exec(source, scope)
        show()
        if shots:
            found.setdefault(name, {})[index] = shots[0]
        shots.clear()
print(json.dumps(found))
"""


def stills(solutions: dict) -> dict[str, dict[int, tuple[str, str]]]:
    """The first frame of every explorer (base64 PNG and what it shows, by cell index), drawn in a plain Python with Agg: the
    explorers draw with Matplotlib and show through IPython's display, which the script catches."""
    jobs = []
    for name, nb in solutions.items():
        setup = "\n".join(c.source for c in nb.cells
                          if c.cell_type == "code" and "needed-for-grading" in c.metadata.get("tags", []))
        cells = [(i, c.source) for i, c in enumerate(nb.cells) if is_explorer(c)]
        if cells:
            jobs.append((name, setup, cells))
    env = dict(os.environ, MPLBACKEND="agg", PYTHONPATH=os.pathsep.join([str(ROOT / "lib"), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", STILLS_SCRIPT], input=json.dumps(jobs), capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        sys.exit(f"drawing the explorers' stills failed:\n{done.stderr[-2000:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return {name: {int(i): tuple(shot) for i, shot in cells.items()} for name, cells in found.items()}


# --- a Sphinx extension of the site's own (this module, loaded by the book) ------------------------------

def _scripts_once(app, pagename, templatename, context, doctree) -> None:
    """Drop repeated scripts: sphinx-thebe (which Jupyter Book always loads) adds its inline configuration
    twice, and its second `const THEBE_JS_URL` is a script error on every page."""
    seen, kept = set(), []
    for script in context.get("script_files", []):
        key = (str(script.filename or ""), tuple(sorted((k, str(v)) for k, v in getattr(script, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            kept.append(script)
    context["script_files"][:] = kept


def setup(app):
    # early: the event stops at the first handler that names a template, and later ones never run
    app.connect("html-page-context", _scripts_once, priority=1)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


# --- the book -------------------------------------------------------------------------------------------

def _yaml(value) -> str:
    return json.dumps(value)  # JSON is YAML: no YAML writer needed, and every string is quoted


def config(found: dict) -> str:
    launch = {"notebook_interface": "jupyterlab", "binderhub_url": found.get("binderhub_url", ""),
              "jupyterhub_url": found.get("jupyterhub_url", ""), "thebe": False}
    book = {
        "title": found["title"], "author": found.get("author", ""), "copyright": found.get("copyright", ""),
        "only_build_toc_files": True,
        "execute": {"execute_notebooks": "off"},
        "repository": {"url": found["repository_url"], "branch": found["branch"], "path_to_book": ""},
        "launch_buttons": launch,
        "html": {"favicon": "favicon.svg", "use_repository_button": False, "use_issues_button": False, "use_edit_page_button": False,
                 "home_page_in_navbar": True, "extra_footer": ""},
        "parse": {"myst_enable_extensions": ["dollarmath", "amsmath", "colon_fence"],
                  "myst_url_schemes": ["mailto", "http", "https"]},
        "sphinx": {"local_extensions": {"website": str(Path(__file__).resolve().parent)}, "config": {
            # MathJax 2 from this site's own _static/mathjax (the course's pinned jupyter-server-mathjax):
            # no CDN, so formulas render offline and nothing is fetched from elsewhere.
            # (outside _static: Jupyter Book adds every script found there to every page)
            "mathjax_path": "../mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe",
            "html_extra_path": ["_extra"],
            "html_context": {"default_mode": "light"},
            "mathjax3_config": None,
            "mathjax2_config": {"messageStyle": "none", "NativeMML": NATIVE_MML_FONTS, "HTML-CSS": {
                "availableFonts": [], "preferredFont": None, "webFont": "STIX-Web", "imageFont": None,
                "linebreaks": {"automatic": True},
                # MathJax 2 probes font loading with a face that never loads, from url('about:blank'), which
                # Chromium reports as a console error; a local() face that does not exist never loads either.
                "styles": {"@font-face": {"font-family": "MathJax_Blank", "src": "local('MathJax_Blank')"}}}},
            "myst_update_mathjax": False,
            # $$...$$ inside a paragraph or a list item is display maths, as Jupyter renders it (Jupyter Book's
            # parse section does not pass this one on to MyST)
            "myst_dmath_double_inline": True,
            "html_static_path": ["_static"],
            "html_show_sphinx": False,
            "html_last_updated_fmt": None,
            "suppress_warnings": ["mystnb.unknown_mime_type"],
        }},
    }
    return "\n".join(f"{key}: {_yaml(value)}" for key, value in book.items()) + "\n"


def toc(names: list[str]) -> str:
    chapters = [{"file": f"notebooks/{name}/{name[3:]}"} for name in names]
    chapters.append({"file": "notebooks/NOTATION"})
    return "\n".join([f"format: {_yaml('jb-book')}", f"root: {_yaml('intro')}",
                       f"chapters: {_yaml(chapters)}"]) + "\n"


def intro(found: dict) -> str:
    """The home page: what the course is, its lectures, and how to run them."""
    from student_copy import lectures_table

    places = (["on Binder (nothing to install)"] if found.get("binderhub_url") else []) + \
        (["on your course's JupyterHub"] if found.get("jupyterhub_url") else [])
    run = "Each lecture is a notebook: read it here, or run it"
    run += (f": the launch button (the rocket) at the top of a lecture opens it {' or '.join(places)}." if places
            else " in Jupyter.")
    lines = [f"# {found['title']}", "",
             "An open course in Jupyter notebooks: the theory of learning with code you can run and check. Every",
             "lecture has demos, numerical *proof checks* of each theorem it states, an interactive explorer and",
             "exercises that test themselves.", "",
             run + " Or work on your own machine with the students' copy of the course "
             f"([{found['repository_url']}]({found['repository_url']})): `make lab` sets it up and opens it.", "",
             lectures_table(), "",
             "The symbols of every lecture are in one table: [the notation](notebooks/NOTATION.md).", ""]
    return "\n".join(lines)


def write_source(target: Path, found: dict, root: Path = ROOT) -> list[str]:
    """Write the book's source into ``target`` (emptied first); return the lectures it holds."""
    import nbformat

    names = lectures(root)
    solutions = {name: nbformat.read(next((root / "solutions" / name).glob("*.ipynb")), as_version=4)
                 for name in names}
    drawn = stills(solutions)
    if target.exists():
        shutil.rmtree(target)
    (target / "_static").mkdir(parents=True)
    for name in names:
        solution_path = next((root / "solutions" / name).glob("*.ipynb"))
        release_path = root / "notebooks" / name / solution_path.name
        if not release_path.is_file():
            sys.exit(f"{shown(release_path)} is missing: run make release first")
        release = nbformat.read(release_path, as_version=4)
        (target / "notebooks" / name).mkdir(parents=True)
        nbformat.write(page(release, solutions[name], drawn.get(name, {})), target / "notebooks" / name / release_path.name)
    shutil.copy(root / "notebooks" / "NOTATION.md", target / "notebooks" / "NOTATION.md")
    (target / "_config.yml").write_text(config(found))
    (target / "_toc.yml").write_text(toc(names))
    (target / "intro.md").write_text(intro(found))
    (target / "favicon.svg").write_text(FAVICON)
    return names


def build(out: Path = OUT, root: Path = ROOT, config_path: Path = CONFIG, source: Path = SOURCE,
          stream=sys.stdout) -> Path:
    """Build the site into ``out`` from a book written into ``source`` (both replaced whole: they are
    generated, nothing in them is anyone's work)."""
    from nbgrader_ext import install_mathjax

    found = settings(config_path)
    start = time.monotonic()
    print("site: writing the pages (release cells, the solution's demo outputs, the explorers' stills)", file=stream, flush=True)
    names = write_source(source, found, root)
    install_mathjax(source / "_extra" / "mathjax")
    print(f"site: building {len(names)} lectures with Jupyter Book (about a minute)", file=stream, flush=True)
    done = subprocess.run([str(Path(sys.executable).parent / "jupyter-book"), "build", str(source), "--builder", "html",
                           "--warningiserror", "--quiet", "--keep-going"],
                          capture_output=True, text=True, cwd=root, check=False)
    if done.returncode:
        sys.exit(f"the site did not build:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    html = source / "_build" / "html"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(html, out)
    (out / ".nojekyll").write_text("")  # GitHub Pages served from a branch would hide _static/ and _images/
    print(f"site: {shown(out)} in {time.monotonic() - start:.0f} s; open {shown(out / 'index.html')}", file=stream)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where the site goes (replaced whole)")
    args = parser.parse_args(argv)
    build(args.out.resolve())


if __name__ == "__main__":
    main()
