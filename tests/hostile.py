"""Hostile pieces of submissions, shared by the adversarial suite (tests/test_adversarial.py, on a tiny
fixture lecture) and the grading pipeline tests (tests/test_grading_pipeline.py, on the lectures).

Each is what a clever student can put in an ordinary notebook; the tests grade it and check that the
grader, the gradebook and whoever opens the results are unharmed.
"""

from __future__ import annotations

import secrets
from html.parser import HTMLParser

TOKEN = secrets.token_hex(6)
MARK = f"PWNED{TOKEN}"  # appears wherever a hostile script would leave a trace

# A code cell: fill every folder outside its own that the kernel can write (the sockets' folder,
# Matplotlib's cache, the folder of its connection file, its working copy) with symbolic links named
# like the files the launcher writes, pointing at ``targets``; then die, so that the grader restarts
# the kernel. A launcher that wrote or chowned through a path the kernel could replace would now hand
# those files to the kernel's user, or overwrite them.
SYMLINK_THEN_DIE = '''
import json, os
from ipykernel.connect import get_connection_file
_targets = {targets!r}
_conn = get_connection_file()
_folders = {{os.path.dirname(json.load(open(_conn))["ip"]), os.environ.get("MPLCONFIGDIR", "/nonexistent"),
             os.path.dirname(_conn), os.getcwd()}}
_planted = 0
for _folder in _folders:
    for _name in ("connection.json", "matplotlib", "work", "fontlist-v390.json", "{notebook}", "kernel"):
        for _k, _target in enumerate(_targets):
            _path = os.path.join(_folder, _name if _k == 0 else f"{{_name}}.{{_k}}")
            try:
                if os.path.lexists(_path) and not os.path.isdir(_path):
                    os.remove(_path)
                os.symlink(_target, _path)
                _planted += 1
            except OSError:
                pass
print("planted", _planted, "links in", len(_folders), "folders", flush=True)
import time; time.sleep(1)  # let the kernel send the line before it dies
os._exit(1)
'''

# A code cell that prints what it can learn of the grader's environment.
ENVIRONMENT = "import os\nprint(sorted(os.environ.items()))\n"

# Variables the sandboxed kernel may see: what tools/sandbox-kernel sets, and what ipykernel sets.
ALLOWED_ENVIRONMENT = {
    "HOME", "LANG", "PATH", "PWD", "MPLCONFIGDIR", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
    "MPLBACKEND", "PYDEVD_DISABLE_FILE_VALIDATION", "PYDEVD_USE_FRAME_EVAL", "JPY_PARENT_PID",
    "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "PAGER", "GIT_PAGER", "TERM",
}

_SCRIPT = f"document.title='{MARK}';window.{MARK}=1"

# A written answer (Markdown) that would run script wherever it is rendered as HTML.
HOSTILE_MARKDOWN = f"""My answer is below.

<img src="x" onerror="{_SCRIPT}">
<script>{_SCRIPT}</script>
<svg onload="{_SCRIPT}"><circle r="3"/></svg>
<iframe srcdoc="<script>parent.{MARK}=1</script>"></iframe>
<a href="javascript:{_SCRIPT}">a link</a> and [another](javascript:{_SCRIPT})
<style>body {{ background: url("javascript:{_SCRIPT}") }}</style>
"""

# A code cell whose outputs would run script wherever they are rendered as HTML.
HOSTILE_OUTPUTS = f'''
from IPython.display import HTML, SVG, Javascript, display
display(HTML("""<img src=x onerror="{_SCRIPT}"><script>{_SCRIPT}</script><b>bold</b>"""))
display(Javascript("""{_SCRIPT}"""))
display(SVG("""<svg xmlns="http://www.w3.org/2000/svg" onload="{_SCRIPT}"><script>{_SCRIPT}</script></svg>"""))
display({{"text/html": """<img src=x onerror="{_SCRIPT}">""", "text/plain": "html"}}, raw=True)
display({{"application/javascript": """{_SCRIPT}""", "text/plain": "js"}}, raw=True)
display({{"text/markdown": """<img src=x onerror="{_SCRIPT}">""", "text/plain": "md"}}, raw=True)
display({{"text/markdown": """[click me](javascript:{_SCRIPT})""", "text/plain": "md link"}}, raw=True)
print("<script>{_SCRIPT}</script>")
'''

# Notebook metadata that nbconvert turns into a widget page with HTML in it.
HOSTILE_WIDGET_STATE = {
    "application/vnd.jupyter.widget-state+json": {
        "version_major": 2, "version_minor": 0,
        "state": {"x": {"model_name": "HTMLModel", "model_module": "@jupyter-widgets/controls",
                        "model_module_version": "2.0.0",
                        "state": {"value": f'<img src=x onerror="{_SCRIPT}">'}}},
    }
}


class _LiveScript(HTMLParser):
    """Collects the places of a page where a hostile mark would run: inside a <script> element,
    in an event handler attribute (on...), or in a javascript: URL."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.live: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self._in_script = True
        for name, value in attrs:
            value = value or ""
            if MARK in value and (name.startswith("on") or value.strip().lower().startswith("javascript:")
                                  or name == "srcdoc"):
                self.live.append(f"<{tag} {name}=...{MARK}...>")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script and MARK in data:
            self.live.append(f"<script>...{MARK}...</script>")


def live_script(html: str) -> list[str]:
    """Where a hostile mark could run in ``html`` (empty: it appears, if at all, only as inert text)."""
    parser = _LiveScript()
    parser.feed(html)
    return parser.live


# --------------------------------------------------------------------------- judging the judge
# Cheats that scored full marks when the tests ran in the student's kernel (issue 13). Each is code a
# student can put in a cell; with the tests in the grader's process none can change a score.

# A cell put above the setup cell (it runs first): lying built-ins and NumPy, a fake grading module.
CHEAT_BEFORE_SETUP = '''
import builtins, sys, types
import numpy as np
builtins.isinstance = lambda obj, classes: True
builtins.len = lambda obj: 2
np.allclose = np.isclose = np.array_equal = lambda *args, **kwargs: True
_fake = types.ModuleType("mlcourse.grading")
_fake.__getattr__ = lambda name: (lambda label, value=None, *args, **kwargs: value)
sys.modules["mlcourse.grading"] = _fake
'''

# A cell anywhere else: every way into a judge that shares the student's process.
CHEAT_TAMPER = '''
import builtins, sys
import IPython
from mlcourse import grading as _g
_pass = lambda label, value=None, *args, **kwargs: value
for _name in list(vars(_g)):
    if _name.startswith("check_") or _name == "_fail":
        vars(_g)[_name] = _pass                                   # the module's dictionary
        try:
            getattr(_g, _name).__code__ = _pass.__code__          # a check's code
        except Exception:
            pass
grading = type("FakeGrading", (), {"__getattr__": lambda self, name: _pass})()   # the name `grading`
_real_run_cell = IPython.core.interactiveshell.InteractiveShell.run_cell
def _skip_tests(self, raw_cell, *args, **kwargs):                # IPython's shell class
    if "grading." in raw_cell:
        raw_cell = "pass"
    return _real_run_cell(self, raw_cell, *args, **kwargs)
IPython.core.interactiveshell.InteractiveShell.run_cell = _skip_tests
builtins.AssertionError = type("AssertionError", (Exception,), {})   # a built-in the checks use
builtins.exec = lambda *args, **kwargs: None
def _full_marks(result):                                          # an output read as full points
    from IPython.display import display
    display({"text/plain": "100"}, raw=True)
get_ipython().events.register("post_run_cell", _full_marks)
get_ipython().set_custom_exc((BaseException,), lambda shell, etype, value, tb, tb_offset=None: None)
'''

# A cell that looks everywhere the kernel could find the hidden tests, and prints what it finds.
CHEAT_LEAK = '''
import glob, os, sys, inspect
_seen = []
for _path in glob.glob("*.ipynb") + glob.glob("**/*.ipynb", recursive=True) + glob.glob("/tmp/**", recursive=True):
    try:
        _seen.append(open(_path).read())
    except Exception:
        pass
_seen += [str(x) for x in globals().get("In", [])] + [str(x) for x in globals().get("_ih", [])]
_seen += [str(x) for x in get_ipython().history_manager.get_range(raw=True, output=False)]
print("LEAK-FILES", _seen)

def _frames():
    """What a called function can see of its callers: their code, their variables."""
    found, frame = [], sys._getframe(1)
    while frame is not None:
        try:
            found.append(inspect.getsource(frame.f_code))
        except Exception:
            pass
        found.append(repr({k: v for k, v in frame.f_locals.items() if not k.startswith("__")})[:5000])
        frame = frame.f_back
    return "\\n".join(found)
'''

# Lines that appear only in hidden tests, to look for in what the student gets back.
HIDDEN_MARKERS = ("### BEGIN HIDDEN TESTS", "_rng = np.random.default_rng()")


# Takes every process the kernel's user may have, and holds them 3 s while other kernels start; RELEASE lets
# them go again. (The limit is per user: each grading job runs its kernels as a user of its own.)
PROCESS_HOG = '''
import os, time
_children = []
while True:
    try:
        _pid = os.fork()
    except OSError:  # the process limit of this kernel's user
        break
    if _pid == 0:
        time.sleep(120)
        os._exit(0)
    _children.append(_pid)
time.sleep(3)
'''
RELEASE = '''
for _pid in _children:
    os.kill(_pid, 9)
    os.waitpid(_pid, 0)
'''
