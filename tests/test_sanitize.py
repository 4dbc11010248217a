"""tools/sanitize_ext.py: what a student wrote or printed is inert in any page made from it."""

from __future__ import annotations

import nbformat
from nbconvert import HTMLExporter
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

import hostile
from sanitize_ext import SanitizeStudentContent, clean_markdown, safe_destination

M = hostile.MARK


def hostile_notebook():
    outputs = [
        new_output("display_data", data={"text/html": f'<img src=x onerror="{M}"><script>{M}</script><b>ok</b>',
                                         "text/plain": "html"}),
        new_output("display_data", data={"application/javascript": M, "text/plain": "js"}),
        new_output("display_data", data={"image/svg+xml": f"<svg onload='{M}'></svg>", "text/plain": "svg"}),
        new_output("display_data", data={"text/markdown": f'<img src=x onerror="{M}">', "text/plain": "md"}),
        new_output("display_data", data={"text/markdown": f"[click me](javascript:{M})", "text/plain": "md link"}),
        new_output("stream", name="stdout", text=f"<script>{M}</script>\n"),
    ]
    nb = new_notebook(cells=[new_markdown_cell(hostile.HOSTILE_MARKDOWN),
                             new_code_cell("x = 1", outputs=outputs)])
    nb.metadata["widgets"] = hostile.HOSTILE_WIDGET_STATE
    return nb


def test_a_hostile_notebook_exports_to_html_without_live_script():
    raw_html, _ = HTMLExporter().from_notebook_node(hostile_notebook())
    assert hostile.live_script(raw_html), "the control: unsanitised, the page would run the student's script"
    nb, _ = SanitizeStudentContent()(hostile_notebook(), {})  # as nbconvert calls it
    page, _ = HTMLExporter().from_notebook_node(nb)
    assert hostile.live_script(page) == []
    assert "widget-state" not in page and "<b>ok</b>" in page  # harmless formatting survives
    markdown = [o.data["text/markdown"] for o in nb.cells[1].outputs if "text/markdown" in o.get("data", {})]
    assert markdown[1] == "[click me](#unsafe-link-removed)", markdown  # a Markdown output's link, as in a cell


def test_maths_and_formatting_survive_cleaning():
    text = "**bold** and $a < b$ and $$x > y \\quad a &= b$$ and [a link](https://example.org)"
    cleaned = clean_markdown(text)
    assert "$a \\lt  b$" in cleaned and "$$x \\gt  y \\quad a &= b$$" in cleaned
    assert "**bold**" in cleaned and "(https://example.org)" in cleaned


def test_unsafe_link_targets_are_removed_however_written():
    for dest in ("javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:x", "jav&#x61;script:x",
                 "data:text/html,<script>", "vbscript:x", "<javascript:x>"):
        assert not safe_destination(dest), dest
    for dest in ("https://example.org", "#section", "figures/a.png", "mailto:a@b.c"):
        assert safe_destination(dest), dest
    assert "#unsafe-link-removed" in clean_markdown(f"[x](javascript:{M}) ![y](data:image/svg+xml,...)")


def test_the_instructors_own_markdown_is_left_as_the_release_has_it(tmp_path, monkeypatch):
    release = new_notebook(cells=[new_markdown_cell("Ours: `a < b` stays <u>as written</u>")])
    (tmp_path / "notebooks" / "07-x").mkdir(parents=True)
    nbformat.write(release, tmp_path / "notebooks" / "07-x" / "x.ipynb")
    monkeypatch.chdir(tmp_path)
    submitted = new_notebook(cells=[new_markdown_cell(release.cells[0].source),
                                    new_markdown_cell(f"Mine: <script>{M}</script>")])
    nb, _ = SanitizeStudentContent()(submitted, {"nbgrader": {"assignment": "07-x", "notebook": "x"}})
    assert nb.cells[0].source == release.cells[0].source
    assert "<script>" not in nb.cells[1].source
