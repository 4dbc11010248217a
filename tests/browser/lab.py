"""JupyterLab started as `make lab` starts it, and a lecture driven in it the way a student drives it.

Chromium is Debian's (/usr/bin/chromium), driven by Playwright: Playwright cannot download its own
browsers here, and the machine has no network but the package registries, hence the flags below.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps calling home and floods refused connections.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 1000}

KERNEL_START = 180  # seconds for the kernel of a freshly opened notebook to be ready
RUN_ALL = 420       # seconds for Run All of one lecture
WIDGET = 60         # seconds for a figure to be redrawn after a control moved


def missing_browser() -> str | None:
    """Why the browser test cannot run here, or None."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium; .ci/run does it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install -e '.[test]')"
    return None


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_env() -> dict:
    """The environment for a make run from inside `make test`: no make flags inherited from it."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return env


def make_lab_command(lab_args: str) -> tuple[dict, list[str]]:
    """The command `make lab LAB_ARGS=...` runs, read from make itself (a dry run, setup skipped):
    the variables it sets (``NAME=value`` before the command) and the command.

    `make lab` fixes ``--ServerApp.root_dir=notebooks`` and Jupyter refuses a second root_dir in
    LAB_ARGS, so the tests read what make lab passes and point root_dir at a scratch copy instead.
    """
    stamp = ROOT / ".venv" / ".installed"
    out = subprocess.run(["make", "-s", "--no-print-directory", "-n", "-o", str(stamp), "lab",
                          f"LAB_ARGS={lab_args}"], cwd=ROOT, env=make_env(), check=True,
                         capture_output=True, text=True).stdout
    lines = [ln for ln in out.replace("\\\n", " ").splitlines() if ln.strip()]
    commands = [shlex.split(ln) for ln in lines if re.search(r"\bjupyter(-lab)?\b", ln)]
    assert len(commands) == 1, f"`make -n lab` printed no single jupyter lab command:\n{out}"
    words, env = commands[0], {}
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    return env, words


class LabServer:
    """`make lab` on a scratch copy of notebooks/, on a free port with a random token."""

    def __init__(self, scratch: Path):
        self.scratch = scratch
        self.notebooks = scratch / "notebooks"
        shutil.copytree(ROOT / "notebooks", self.notebooks)
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = scratch / "jupyterlab.log"
        lab_env, command = make_lab_command(f"--no-browser --port={self.port} --IdentityProvider.token={self.token}")
        # Jupyter takes the last of repeated single-valued options only if it is given once: replace.
        self.command = [f"--ServerApp.root_dir={self.notebooks}" if a.startswith("--ServerApp.root_dir=") else a
                        for a in command]
        assert f"--ServerApp.root_dir={self.notebooks}" in self.command, (
            f"make lab no longer passes --ServerApp.root_dir: {shlex.join(command)}")
        self.env = make_env() | lab_env
        self.env["PATH"] = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{self.env.get('PATH', '')}"  # as make exports it
        # A student's first start: no settings of their own (lab-config/settings turns the news off),
        # no workspace to restore; nothing written into ~/.jupyter or ~/.local.
        settings = scratch / "lab-settings"
        settings.mkdir()
        self.env.update(JUPYTERLAB_SETTINGS_DIR=str(settings),
                        JUPYTERLAB_WORKSPACES_DIR=str(scratch / "lab-workspaces"),
                        JUPYTER_RUNTIME_DIR=str(scratch / "jupyter-runtime"))
        self.process = None

    def start(self, timeout: float = 120) -> LabServer:
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(self.command, cwd=self.scratch, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                self.api("GET", "/api/status")
                return self
            except OSError:
                time.sleep(0.5)
        raise RuntimeError(f"JupyterLab did not answer within {timeout} s:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def log_tail(self, n: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])

    def api(self, method: str, path: str):
        request = urllib.request.Request(f"{self.url}{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shut_down_kernels(self) -> None:
        for session in self.api("GET", "/api/sessions"):
            self.api("DELETE", f"/api/sessions/{session['id']}")

    def open_url(self, rel_path: str, workspace: str) -> str:
        # A workspace of its own per lecture: JupyterLab restores no tab of an earlier lecture.
        return f"{self.url}/lab/workspaces/{workspace}/tree/{rel_path}?token={self.token}"


# --------------------------------------------------------------------------- a notebook in the page


class Screenshots:
    """Screenshots into one folder; the names tell the lecture, the cell and the step."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def path(self, name: str) -> Path:
        return self.folder / (re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") + ".png")

    def page(self, page, name: str) -> Path:
        path = self.path(name)
        page.screenshot(path=str(path))
        return path

    def element(self, locator, name: str) -> Path:
        path = self.path(name)
        try:
            locator.screenshot(path=str(path), timeout=15_000)
        except Exception:  # an element that cannot be shot: the page as a student sees it
            locator.page.screenshot(path=str(path))
        return path


STATUS_JS = """() => {
  const bar = document.querySelector('#jp-main-statusbar');
  const kernel = bar ? [...bar.querySelectorAll('.jp-StatusBar-TextItem, span')]
      .map(e => e.textContent.trim()).find(t => / \\| [A-Z][a-z]+/.test(t)) : undefined;
  const indicator = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator');
  const prompts = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')]
      .map(e => e.textContent.trim());
  return {kernel: kernel || '', indicator: indicator ? indicator.getAttribute('data-status') : '', prompts};
}"""


class Notebook:
    """One lecture's release notebook, opened in JupyterLab in its own browser context."""

    def __init__(self, lab: LabServer, browser, rel_path: str, shots: Screenshots):
        self.lab, self.rel_path, self.shots = lab, rel_path, shots
        self.path = lab.notebooks / rel_path
        self.name = Path(rel_path).parent.name
        self.context = browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()
        self.console_errors: list[str] = []
        self.page.on("console", lambda m: self.console_errors.append(m.text) if m.type == "error" else None)

    def close(self) -> None:
        self.context.close()

    def status(self) -> dict:
        return self.page.evaluate(STATUS_JS)

    def open(self) -> None:
        """Open the notebook and wait until its kernel is ready (status bar: '<kernel> | Idle')."""
        self.page.goto(self.lab.open_url(self.rel_path, f"browser-test-{self.name}"))
        self.page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=KERNEL_START * 1000)
        deadline = time.monotonic() + KERNEL_START
        while time.monotonic() < deadline:
            kernel = self.status()["kernel"]
            if kernel.endswith("| Idle") and not kernel.startswith("No Kernel"):
                return
            time.sleep(0.25)
        shot = self.shots.page(self.page, f"{self.name}-kernel-not-ready")
        raise AssertionError(f"{self.name}: the kernel of {self.rel_path} was not ready after {KERNEL_START} s "
                             f"(status bar: {self.status()['kernel']!r}); screenshot {shot}")

    def menu(self, top: str, item: str) -> None:
        self.page.locator(".lm-MenuBar-content").get_by_role("menuitem", name=top, exact=True).click()
        self.page.locator(".lm-Menu-content").get_by_role("menuitem", name=item, exact=True).click()

    def run_all(self) -> float:
        """Run > Run All Cells, then wait until the kernel is idle and no cell is queued; seconds taken."""
        start = time.monotonic()
        self.menu("Run", "Run All Cells")
        self.wait_until_idle(RUN_ALL, started=lambda s: s["indicator"] == "busy" or any(
            p not in ("", "[ ]:") for p in s["prompts"]))
        return time.monotonic() - start

    def wait_until_idle(self, timeout: float, started=lambda s: True, quiet: float = 1.5) -> None:
        """Wait for the kernel to be idle with nothing queued, for ``quiet`` seconds in a row."""
        deadline, idle_since, seen_start = time.monotonic() + timeout, None, False
        while time.monotonic() < deadline:
            s = self.status()
            seen_start = seen_start or started(s)
            idle = (seen_start and s["kernel"].endswith("| Idle") and s["indicator"] == "idle"
                    and not any("*" in p for p in s["prompts"]))
            if not idle:
                idle_since = None
            elif idle_since is None:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since >= quiet:
                return
            time.sleep(0.25)
        shot = self.shots.page(self.page, f"{self.name}-not-idle")
        raise AssertionError(f"{self.name}: the kernel was still busy after {timeout} s (status bar "
                             f"{self.status()['kernel']!r}); screenshot {shot}")

    def save_and_read(self):
        """Save with Ctrl+S (as a student does) and read back what JupyterLab wrote."""
        import nbformat

        before = self.path.stat().st_mtime_ns
        self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").first.focus()
        self.page.keyboard.press("Escape")  # command mode
        self.page.keyboard.press("Control+s")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            dirty = self.page.locator(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty").count()
            if not dirty and self.path.stat().st_mtime_ns != before:
                saved = nbformat.read(self.path, as_version=4)
                self.attach_all_cells(len(saved.cells))
                return saved
            time.sleep(0.25)
        shot = self.shots.page(self.page, f"{self.name}-not-saved")
        raise AssertionError(f"{self.name}: Ctrl+S did not save {self.rel_path} within 60 s; screenshot {shot}")

    CELLS = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell"

    def attach_all_cells(self, count: int, timeout: float = 60) -> None:
        """Wait until JupyterLab has put all ``count`` cells in the page (it adds them while idle)."""
        deadline = time.monotonic() + timeout
        while self.page.locator(self.CELLS).count() < count and time.monotonic() < deadline:
            time.sleep(0.25)
        found = self.page.locator(self.CELLS).count()
        assert found == count, f"{self.name}: the page shows {found} cells, the notebook has {count}"

    def cell(self, index: int):
        return self.page.locator(self.CELLS).nth(index)

    def scroll_to(self, index: int) -> None:
        """Bring cell ``index`` to the top of the notebook's view."""
        try:
            self.cell(index).evaluate("e => e.scrollIntoView({block: 'start'})", timeout=10_000)
            time.sleep(0.5)  # JupyterLab renders what came into view
        except Exception:
            pass

    def shoot_cell(self, index: int, name: str) -> Path:
        self.scroll_to(index)
        return self.shots.page(self.page, name)


# --------------------------------------------------------------------------- what Run All must give


def nbgrader_meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def is_exercise(cell) -> bool:
    """An answer or test cell of nbgrader: the only cells whose errors are expected before the work is done."""
    meta = nbgrader_meta(cell)
    return bool(meta.get("solution") or meta.get("grade"))


def first_line(cell) -> str:
    lines = [ln for ln in cell.source.splitlines() if ln.strip()]
    return repr(lines[0][:70]) if lines else "(empty)"


def figure_count(cell) -> int:
    return sum(1 for o in cell.get("outputs", []) for mime in o.get("data", {}) if mime.startswith("image/"))


WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def has_widget(cell) -> bool:
    return any(WIDGET_MIME in o.get("data", {}) for o in cell.get("outputs", []))


def masters(ran, solution) -> list:
    """For each cell of the release, its cell in the solution (same id; else same place), or None."""
    by_id = {c.get("id"): c for c in solution.cells if c.get("id")}
    if all(c.get("id") in by_id for c in ran.cells):
        return [by_id[c["id"]] for c in ran.cells]
    same = len(ran.cells) == len(solution.cells)
    return [solution.cells[i] if same else None for i in range(len(ran.cells))]


def run_all_problems(ran, solution) -> list[tuple[int, str]]:
    """(cell index, what is wrong) for each code cell of the notebook as Run All left it: did not run,
    an error outside the exercises, fewer figures than the solution's saved outputs, no widget."""
    problems = []
    for index, (cell, master) in enumerate(zip(ran.cells, masters(ran, solution))):
        if cell.cell_type != "code":
            continue
        where = f"cell {index} {first_line(cell)}"
        if cell.get("execution_count") is None:
            problems.append((index, f"{where} did not run (no execution count)"))
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if errors and not is_exercise(cell):
            problems.append((index, f"{where} is not an exercise but failed: {errors[0].ename}: "
                                    f"{errors[0].evalue[:200]}"))
        if master is None or master.cell_type != "code":
            continue
        if figure_count(cell) < figure_count(master):
            problems.append((index, f"{where} shows {figure_count(cell)} figure(s), the solution's saved "
                                    f"outputs {figure_count(master)}"))
        if has_widget(master) and not has_widget(cell):
            problems.append((index, f"{where} shows no widget (the solution's saved outputs have one)"))
    return problems


# --------------------------------------------------------------------------- widgets

# Every ipywidgets control in a cell's output area (outside its Output widgets), tagged so Playwright
# can find each again, with its kind and label. Kinds the test does not know how to move are
# reported as such, so a new kind of control gets taught here rather than silently skipped.
CONTROLS_JS = """(area) => {
  const kinds = [['widget-play', 'play'], ['widget-slider', 'slider'], ['widget-dropdown', 'dropdown'],
                 ['widget-checkbox', 'checkbox'], ['widget-toggle-buttons', 'toggle-buttons'],
                 ['widget-radio', 'radio'], ['widget-toggle-button', 'toggle-button'], ['widget-button', 'button'],
                 ['widget-text', 'text'], ['widget-textarea', 'text'], ['widget-select', 'select'],
                 ['widget-select-multiple', 'select'], ['widget-colorpicker', 'other'],
                 ['widget-datepicker', 'other'], ['widget-upload', 'other'], ['widget-combobox', 'other']];
  const found = [];
  for (const el of area.querySelectorAll('.jupyter-widgets')) {
    if (el.closest('.widget-output')) continue;
    const hit = kinds.find(([cls]) => el.classList.contains(cls));
    if (!hit) continue;
    const label = el.querySelector(':scope > .widget-label');
    el.setAttribute('data-browser-test-control', String(found.length));
    found.push({index: found.length, kind: hit[1], classes: el.className,
                label: (label && label.textContent.trim()) || el.getAttribute('title') || el.textContent.trim().slice(0, 30)});
  }
  return found;
}"""

# What the student sees in the widget's Output widgets: the image data of each figure, and text.
FIGURES_JS = """(area) => {
  const outs = [...area.querySelectorAll('.widget-output')];
  const images = outs.flatMap(o => [...o.querySelectorAll('img')].map(i => i.getAttribute('src') || ''));
  const svgs = outs.flatMap(o => [...o.querySelectorAll('svg')].map(s => s.outerHTML));
  const canvases = outs.flatMap(o => [...o.querySelectorAll('canvas')].map(c => c.toDataURL()));
  const errors = outs.flatMap(o => [...o.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]')]
      .map(e => e.textContent.trim()).filter(t => /Error|Traceback/.test(t)));
  return {outputs: outs.length, images: images.concat(svgs, canvases), errors};
}"""


def digest(figures: dict) -> tuple:
    return tuple(hashlib.sha1(src.encode()).hexdigest() for src in figures["images"])


class WidgetCell:
    """The widget of one cell: its controls and the figures of its Output widgets."""

    def __init__(self, notebook: Notebook, index: int):
        self.nb, self.index = notebook, index
        self.area = notebook.cell(index).locator(".jp-Cell-outputArea").first
        self.where = f"{notebook.name}, cell {index}"

    def controls(self) -> list[dict]:
        return self.area.evaluate(CONTROLS_JS)

    def control(self, index: int):
        return self.area.locator(f'[data-browser-test-control="{index}"]')

    def figures(self) -> dict:
        return self.area.evaluate(FIGURES_JS)

    def shoot(self, name: str) -> Path:
        return self.nb.shots.element(self.area, f"{self.nb.name}-cell{self.index}-{name}")

    def wait_for_figure(self, timeout: float = WIDGET) -> dict:
        """Wait until the widget is drawn with a figure in its output; its figures."""
        self.nb.scroll_to(self.index)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.area.inner_text()
            if "Error displaying widget" in text or "Error rendering" in text:
                break
            figures = self.figures()
            if figures["images"]:
                return figures
            time.sleep(0.25)
        shot = self.shoot("not-drawn")
        raise AssertionError(f"{self.where}: the widget shows no figure after {timeout} s "
                             f"(it reads {self.area.inner_text()[:200]!r}); screenshot {shot}")

    def wait_for_change(self, before: tuple, timeout: float = WIDGET, settle: bool = True):
        """Wait until the figures differ from ``before`` (and, with settle, stay the same for a moment
        with the kernel idle); the new figures, or None if they never changed."""
        deadline, last, since = time.monotonic() + timeout, None, None
        while time.monotonic() < deadline:
            figures = self.figures()
            now = digest(figures)
            if figures["images"] and now != before:
                if not settle:
                    return figures
                idle = self.nb.status()["kernel"].endswith("| Idle")
                if now == last and idle:
                    if time.monotonic() - since >= 0.8:
                        return figures
                else:
                    last, since = now, time.monotonic()
            time.sleep(0.2)
        return None

    def settle(self, timeout: float = WIDGET) -> None:
        """Wait until the figures stop changing and the kernel is idle."""
        deadline, last, since = time.monotonic() + timeout, None, time.monotonic()
        while time.monotonic() < deadline:
            now = digest(self.figures())
            idle = self.nb.status()["kernel"].endswith("| Idle")
            if now != last or not idle:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= 1.0:
                return
            time.sleep(0.2)

    def move(self, control: dict) -> str:
        """Move one control as a student would; what was done (for messages)."""
        loc = self.control(control["index"])
        loc.scroll_into_view_if_needed(timeout=10_000)
        kind = control["kind"]
        if kind == "slider":
            handle = loc.locator(".noUi-handle").first
            value = handle.get_attribute("aria-valuetext")
            for key in ("ArrowRight", "ArrowLeft"):  # ArrowLeft when the slider stands at its maximum
                handle.press(key)
                for _ in range(10):
                    now = handle.get_attribute("aria-valuetext")
                    if now != value:
                        return f"slider {control['label']!r}: {key} moved it from {value} to {now}"
                    time.sleep(0.1)
            raise AssertionError(f"{self.where}: slider {control['label']!r} did not move on ArrowRight nor "
                                 f"ArrowLeft (it stays at {value})")
        if kind in ("dropdown", "select"):
            select = loc.locator("select").first
            options = select.locator("option").all_text_contents()
            if len(options) < 2:
                raise AssertionError(f"{self.where}: {kind} {control['label']!r} has fewer than two options")
            current = select.evaluate("s => s.selectedIndex")
            target = (current + 1) % len(options)
            select.select_option(index=target)
            return f"{kind} {control['label']!r}: chose {options[target]!r} instead of {options[current]!r}"
        if kind == "play":
            loc.locator("button").first.click()
            return f"play button {control['label']!r}: clicked play"
        if kind == "checkbox":
            loc.locator("input").first.click()
            return f"checkbox {control['label']!r}: clicked"
        if kind in ("toggle-buttons", "radio"):
            other = loc.locator("button:not(.mod-active), input:not(:checked)").first
            other.click()
            return f"{kind} {control['label']!r}: chose another option"
        if kind in ("toggle-button", "button"):
            loc.locator("button").first.click() if loc.locator("button").count() else loc.click()
            return f"{kind} {control['label']!r}: clicked"
        raise AssertionError(f"{self.where}: the browser test does not know how to move a {kind} control "
                             f"({control['classes']}); teach tests/browser/lab.py")

    def stop_playing(self, control: dict) -> None:
        """Press the play widget's stop button (pause, back to the start)."""
        buttons = self.control(control["index"]).locator("button")
        if buttons.count() > 1:
            buttons.nth(1).click()


# --------------------------------------------------------------------------- the feedback page

RAW_TEX = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$|\\\(.+?\\\)|\\\[.+?\\\]|\\begin\{", re.S)
MATHS_JS = """() => {
  const texts = [...document.querySelectorAll('.text_cell_render, .jp-RenderedMarkdown')]
      .map(e => e.innerText);
  const rendered = document.querySelectorAll(
      'mjx-container, .MathJax, .MathJax_CHTML, .MathJax_SVG, .MathJax_Display, .katex').length;
  const busy = document.querySelectorAll('.MathJax_Processing').length;
  return {texts, rendered, busy, body: document.body.innerText,
          mathjax: typeof window.MathJax !== 'undefined'};
}"""


def raw_tex(texts: list[str]) -> list[str]:
    return [m.group(0)[:80] for t in texts for m in RAW_TEX.finditer(t)]


def chromium_for_tests():
    """A generator for a pytest fixture: Chromium under Playwright, closed afterwards. Where the
    browser is missing the test is skipped, except in CI (CI set), where it fails."""
    import pytest

    reason = missing_browser()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; in CI the browser tests must run, not be skipped")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def wait_until_serving(base: str, token: str, server, timeout: float = 120, why=lambda: "") -> None:
    """Wait for a Jupyter server started as ``server`` (a Popen) to answer at ``base``; fail, saying
    ``why()``, if it exits or does not answer within ``timeout`` seconds."""
    import urllib.request

    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5)
            return
        except OSError:
            assert time.monotonic() < deadline and server.poll() is None, f"the server did not start: {why()}"
            time.sleep(0.5)
