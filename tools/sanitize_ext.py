"""Whatever a student wrote or printed reaches the instructor's and the student's browser inert.

``SanitizeStudentContent`` runs in autograding (nbgrader_config.py), before the graded notebook is
saved, so the formgrader (which renders it in the instructor's Jupyter session) and the feedback
pages (made from it) never hold live script from a submission:

- Markdown (written answers, any Markdown cell): HTML tags outside a small list of formatting tags
  are escaped, and attributes outside a small list dropped, so ``<script>``, ``<img onerror=...>``,
  ``<svg onload=...>`` and ``<iframe>`` become text; a Markdown link to anything but http(s), mailto
  or a relative address (``javascript:``, ``data:``...) loses its target. Maths (``$...$``,
  ``$$...$$``) and code (spans and fenced blocks) are left as written: the Markdown renderers escape
  them themselves, and escaping them here would show ``&lt;`` in place of ``<``.
- Outputs: ``text/html`` is cleaned the same way, ``text/markdown`` too, its links included; any other rich output
  (JavaScript, SVG, widget views, PDF...) is dropped, text and PNG/JPEG images are kept.
- The notebook's own metadata may not carry widget state (nbconvert would render it as live widgets).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from bleach.css_sanitizer import CSSSanitizer
from traitlets import Bool
from nbconvert.preprocessors.sanitize import SanitizeHTML

TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "del", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6",
    "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "s", "small", "span", "strong", "sub", "sup",
    "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul",
}
ATTRIBUTES = {
    "a": ["href", "title"], "abbr": ["title"], "img": ["src", "alt", "title", "width", "height"],
    "td": ["colspan", "rowspan", "align"], "th": ["colspan", "rowspan", "align"], "*": ["class"],
}
PROTOCOLS = {"http", "https", "mailto", "data"}
# Maths as the Markdown renderers read it: $$...$$, then $...$ on one line (unescaped dollars).
MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$(?!\$)[^\n$]+?(?<!\\)\$", re.S)

# Link destinations of Markdown: inline [text](dest) and ![alt](dest), and reference definitions.
LINK = re.compile(r"(\]\s*\(\s*)(<[^>\n]*>|[^)\s]*)|(^[ ]{0,3}\[[^\]\n]+\]:[ \t]*)(<[^>\n]*>|\S+)", re.M)
SAFE_SCHEMES = {"http", "https", "mailto"}


def safe_destination(dest: str) -> bool:
    """A link target that cannot run script: relative, an anchor, or http(s)/mailto. Browsers drop
    tabs and newlines from URLs and decode character references, so the test does too."""
    url = re.sub(r"[\x00-\x20]", "", html.unescape(dest.strip("<>"))).lower()
    scheme = re.match(r"([a-z][a-z0-9+.-]*):", url)
    return scheme is None or scheme.group(1) in SAFE_SCHEMES


def neutralise_links(markdown: str) -> str:
    def fix(m):
        lead, dest = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
        return m.group(0) if safe_destination(dest) else lead + "#unsafe-link-removed"
    return LINK.sub(fix, markdown)


def clean_html(text: str) -> str:
    from bleach import clean

    return clean(text, tags=sorted(TAGS), attributes=ATTRIBUTES, protocols=PROTOCOLS, strip=False,
                 strip_comments=True, css_sanitizer=CSSSanitizer(allowed_css_properties=[]))


def clean_markdown(markdown: str) -> str:
    """Markdown with every HTML tag outside TAGS escaped and every unsafe link target removed.

    The whole text is cleaned, maths included (a formula inside a raw HTML block is not escaped by
    the renderer). So that formulas survive: < and > in maths are first written \\lt and \\gt, which
    MathJax reads the same, and the & that cleaning escapes in maths (LaTeX's alignment) is put back.
    """
    markdown = MATH.sub(lambda m: m.group(0).replace("<", r"\lt ").replace(">", r"\gt "), markdown)
    cleaned = neutralise_links(clean_html(markdown))
    return MATH.sub(lambda m: m.group(0).replace("&amp;", "&"), cleaned)


class SanitizeStudentContent(SanitizeHTML):
    """See the module's docstring. Markdown cells exactly as the release has them are the
    instructor's and are left alone."""

    enabled = Bool(True)  # nbconvert's preprocessors are off unless enabled

    def preprocess(self, nb, resources):
        nb.metadata.pop("widgets", None)
        self._trusted = release_markdown(resources)
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, index):
        cell.get("metadata", {}).pop("attachments", None)
        cell.pop("attachments", None)  # an attachment is shown as given: an SVG image could script
        if cell.cell_type in ("markdown", "raw"):
            if cell.source not in self._trusted:
                cell.source = clean_markdown(cell.source)
            return cell, resources
        return super().preprocess_cell(cell, resources, index)

    def sanitize_html_tags(self, html_str):
        return clean_html(html_str)

    def sanitize_code_outputs(self, outputs):
        """As nbconvert's, but a Markdown output is cleaned as Markdown (its links too), not as HTML."""
        markdown = {}
        for k, output in enumerate(outputs):
            data = output.get("data") if output.get("output_type") not in ("stream", "error") else None
            if isinstance(data, dict) and "text/markdown" in data:
                markdown[k] = clean_markdown(str(data.pop("text/markdown")))
        super().sanitize_code_outputs(outputs)
        for k, text in markdown.items():
            outputs[k]["data"]["text/markdown"] = text
        return outputs


def release_markdown(resources) -> set:
    """The Markdown of the lecture's release notebook (notebooks/<lecture>/<name>.ipynb), if found."""
    import nbformat

    info = resources.get("nbgrader", {})
    path = Path.cwd() / "notebooks" / str(info.get("assignment", "")) / f"{info.get('notebook', '')}.ipynb"
    try:
        nb = nbformat.read(path, as_version=4)
    except (OSError, ValueError):
        return set()
    return {c.source for c in nb.cells if c.cell_type == "markdown"}
