"""The course's website (`make site`, tools/website.py): built once, offline, from the committed release.

What it must hold: a page per lecture with the solution's demo outputs and none of an exercise or a test, a
still for every explorer, alternative text on every figure, launch links into the students' copy, no hidden
test, model answer or grading note anywhere in it (the students' copy's leak search, run over the site's
pages and sources), and links that resolve. Then Chromium reads every page with the network cut off:
formulas typeset (no raw TeX), every image loaded, no console error, and the search finds Lecture 12.
"""

from __future__ import annotations

import functools
import html.parser
import http.server
import re
import socketserver
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

from browser.lab import RAW_TEX, chromium_for_tests
from conftest import LECTURES, ROOT, nbgrader_meta
from test_student_copy import leaks, secrets

import website as course_site  # tools/website.py

HUB = "https://hub.example.edu"
SETTINGS = f"""
title = "Foundations of Machine Learning"
repository_url = "https://github.com/example-org/ml-course-students"
branch = "main"
binderhub_url = "https://mybinder.org"
jupyterhub_url = "{HUB}"
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("site")
    (where / "site.toml").write_text(SETTINGS)
    return course_site.build(out=where / "site", config_path=where / "site.toml", source=where / "src")


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "_static" not in p.parts and "mathjax" not in p.parts)


def lecture_page(site: Path, name: str) -> Path:
    return next((site / "notebooks" / name).glob("*.html"))


class _Parsed(html.parser.HTMLParser):
    """A page's text (scripts and styles left out), ids, links, and images with their alternative text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.ids, self.links, self.images, self._skip = [], set(), [], [], 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in ("img", "script", "link") and (attrs.get("src") or attrs.get("href")):
            self.links.append(attrs.get("src") or attrs.get("href"))
        if tag == "img":
            self.images.append((attrs.get("src", ""), attrs.get("alt", "")))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


@functools.cache
def parsed(path: Path) -> _Parsed:
    page = _Parsed()
    page.feed(path.read_text())
    return page


def test_every_lecture_has_a_page_with_its_demos_and_none_of_its_answers(site):
    source = site.parent / "src"
    for name in LECTURES:
        solution_path = next((ROOT / "solutions" / name).glob("*.ipynb"))
        solution = nbformat.read(solution_path, as_version=4)
        shown = nbformat.read(source / "notebooks" / name / solution_path.name, as_version=4)
        assert lecture_page(site, name).is_file(), f"no page for {name}"
        for i, (cell, master) in enumerate(zip(shown.cells, solution.cells)):
            if cell.cell_type != "code":
                continue
            meta = nbgrader_meta(master)
            if meta.get("solution") or meta.get("grade"):
                assert not cell.outputs, f"{name} cell {i} ({meta.get('grade_id')}): an exercise's or a test's output is on the site"
            elif course_site.is_explorer(master):
                kinds = [next(iter(o.get("data", {})), o.output_type) for o in cell.outputs]
                assert kinds == ["image/png", "text/markdown"], f"{name} cell {i}: the explorer has no still ({kinds})"
            else:
                assert cell.outputs == master.outputs, f"{name} cell {i}: the demo's outputs are not the solution's"
        images = parsed(lecture_page(site, name)).images
        assert len(images) >= 2, f"{name}: only {len(images)} figures on its page"


def test_every_figure_says_what_it_shows(site):
    for name in LECTURES:
        for src, alt in parsed(lecture_page(site, name)).images:
            assert alt.strip() and not alt.endswith((".png", ".svg")), f"{name}: the figure {src} has no alternative text"


def test_the_site_holds_no_hidden_test_no_model_answer_no_grading_note(site, tmp_path):
    """The students' copy's search for what no student may see, over the pages' text and the book's sources."""
    text = tmp_path / "text"
    for path in pages(site):
        target = text / path.relative_to(site).with_suffix(".txt")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(parsed(path).text))
    found = leaks(text, secrets()) + leaks(site / "_sources", secrets()) + leaks(site.parent / "src", secrets())
    assert not found, "\n".join(found[:20])


def test_every_internal_link_resolves(site):
    broken = []
    for path in pages(site):
        for link in parsed(path).links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//") or not (parts.path or parts.fragment):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{path.relative_to(site)}: {link}")
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in parsed(target).ids:
                broken.append(f"{path.relative_to(site)}: {link} (no such anchor)")
    assert not broken, "\n".join(broken[:20])


def test_every_lecture_launches_in_binder_and_the_hub(site):
    for name in LECTURES:
        notebook = next((ROOT / "notebooks" / name).glob("*.ipynb")).name
        links = parsed(lecture_page(site, name)).links
        binder = [l for l in links if l.startswith("https://mybinder.org/v2/gh/example-org/ml-course-students/main")]
        hub = [l for l in links if l.startswith(f"{HUB}/hub/user-redirect/git-pull?")]
        assert binder and binder[0].endswith(f"notebooks/{name}/{notebook}"), f"{name}: Binder link {binder}"
        assert hub and f"notebooks%2F{name}%2F{notebook}" in hub[0] or f"notebooks/{name}/{notebook}" in hub[0], \
            f"{name}: JupyterHub link {hub}"


def test_launch_links_follow_the_settings():
    found = {"repository_url": "https://github.com/org/copy", "branch": "main", "binderhub_url": "https://mybinder.org",
             "jupyterhub_url": "https://hub.example.edu/"}
    links = dict(course_site.launch_links(found, "notebooks/12-pca/pca.ipynb"))
    assert links["Binder"] == "https://mybinder.org/v2/gh/org/copy/main?urlpath=lab/tree/notebooks/12-pca/pca.ipynb"
    assert links["your course's JupyterHub"] == (
        "https://hub.example.edu/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Forg%2Fcopy"
        "&urlpath=lab%2Ftree%2Fcopy%2Fnotebooks%2F12-pca%2Fpca.ipynb&branch=main")
    # Binder's links here are GitHub's; a hub clones any git repository; an empty setting leaves its link out.
    assert list(dict(course_site.launch_links(found | {"repository_url": "https://gitlab.com/org/copy"}))) == \
        ["your course's JupyterHub"]
    assert course_site.launch_links(found | {"binderhub_url": "", "jupyterhub_url": ""}) == []


def test_the_students_readme_carries_the_launch_links(tmp_path):
    import student_copy

    (tmp_path / "site.toml").write_text(SETTINGS + 'site_url = "https://org.github.io/copy/"\n')
    section = student_copy.launch_section(tmp_path)
    assert "(https://mybinder.org/v2/gh/example-org/ml-course-students/main?urlpath=lab/tree/notebooks)" in section
    assert f"({HUB}/hub/user-redirect/git-pull?" in section and "(https://org.github.io/copy/)" in section
    (tmp_path / "site.toml").write_text(SETTINGS.replace("https://mybinder.org", "").replace(HUB, ""))
    assert student_copy.launch_section(tmp_path) == ""


def test_the_publishing_workflow_builds_the_site_and_uploads_it():
    import yaml

    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "site.yml").read_text())
    steps = workflow["jobs"]["build"]["steps"]
    assert {"run": "make site"} in steps
    assert any(s.get("with", {}).get("path") == "build/site" for s in steps)
    assert workflow["permissions"]["pages"] == "write"


@pytest.mark.parametrize("text, message", [
    ('title = "T"\nbranch = "main"\n', "'repository_url' must be a non-empty string"),
    ('title = "T"\nbranch = "main"\nrepository_url = "http://example.org/x"\n', "'repository_url' must be an https://"),
    ('title = "T"\nbranch = "main"\nrepository_url = "https://e.org/x"\njupyterhub_url = "hub"\n', "'jupyterhub_url' must be"),
    ('title = "T\n', "is not valid TOML"),
])
def test_bad_settings_are_named(tmp_path, text, message):
    path = tmp_path / "site.toml"
    path.write_text(text)
    with pytest.raises(SystemExit, match=re.escape(message)):
        course_site.settings(path)


# --------------------------------------------------------------------------- in a browser, offline

@pytest.fixture(scope="module")
def chromium():
    yield from chromium_for_tests()


@pytest.fixture(scope="module")
def served(site):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


PAGE_JS = """() => {
  const article = document.querySelector('article') || document.body;
  const copy = article.cloneNode(true);
  copy.querySelectorAll('pre, code, script, .cell_input').forEach(e => e.remove());
  return {
    text: copy.innerText,
    typeset: document.querySelectorAll('.MathJax, .MathJax_Display').length,
    errors: document.querySelectorAll('.MathJax_Error, merror').length,
    images: [...document.images].map(i => ({src: i.src, ok: i.complete && i.naturalWidth > 0})),
  };
}"""


def test_every_page_reads_offline(site, served, chromium):
    context = chromium.new_context()
    outside = []
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(served)
                  else (outside.append(route.request.url), route.abort()))
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"{r.status} for {r.url}") if r.status >= 400 else None)
    problems = []
    for path in pages(site):
        if path.name in ("genindex.html", "search.html", "index.html"):
            continue
        errors.clear()
        relative = path.relative_to(site).as_posix()
        page.goto(f"{served}/{relative}")
        page.wait_for_load_state("load")
        if page.evaluate("typeof MathJax !== 'undefined'"):
            page.wait_for_function("MathJax.Hub && MathJax.isReady && MathJax.Hub.queue.pending === 0"
                                   " && document.querySelectorAll('.MathJax_Processing, .MathJax_Preview:not(:empty)').length === 0",
                                   timeout=60_000)
        seen = page.evaluate(PAGE_JS)
        raw = [m.group(0)[:60] for m in RAW_TEX.finditer(seen["text"])]
        broken = [i["src"] for i in seen["images"] if not i["ok"]]
        if raw or broken or errors or seen["errors"]:
            problems.append(f"{relative}: raw TeX {raw[:3]}, images not loaded {broken[:3]}, console {errors[:3]}, "
                            f"{seen['errors']} MathJax errors")
        if relative.startswith("notebooks/") and relative.count("/") == 2:
            assert seen["typeset"] > 10, f"{relative}: only {seen['typeset']} formulas typeset"
    assert not problems, "\n".join(problems)
    assert not outside, f"the site asked the network for {outside[:5]}"
    context.close()


def test_the_search_finds_lecture_12(site, served, chromium):
    page = chromium.new_page()
    page.goto(f"{served}/search.html?q=eigenvectors")
    page.wait_for_selector("#search-results li a", timeout=30_000)
    found = page.eval_on_selector_all("#search-results li a", "links => links.map(a => a.getAttribute('href'))")
    assert any("12-pca" in link for link in found), found[:10]
    page.close()
