"""`make similarity`: a copying report for each lecture, from the answers in `submitted/`.

For each lecture, every student's autograded answers (the code of the cells nbgrader marks as solutions,
matched by their grade ids) are joined into one document, and every pair of documents is compared with
copydetect, which fingerprints code the way MOSS does: names, strings and numbers are replaced by
placeholders, comments dropped, and k-grams of what is left hashed and winnowed, so renaming variables or
reordering independent lines does not hide a copy. What the release already holds (the signatures and
docstrings of the exercises) is taken out before anything is compared or shown. Every single answer is also compared with
the code of the `mlcourse` package, whose reference implementations a student can read and paste.

A pair is flagged when each side shares at least `PAIR_SHARE` of its fingerprinted code with the other and
at least `MIN_TOKENS` characters of filtered code overlap; an answer is flagged against the package when it
shares at least `PACKAGE_SHARE` of its code with one module. The report (`similarity/<lecture>.html`) shows
the flagged pairs side by side with the shared code marked, and the table printed at the end names them.
A flag is a reason to look, not a verdict: short answers to short exercises look alike by necessity, and
the thresholds are set so that independently written answers of the course's own lectures are not flagged
(tests/test_similarity.py).

Submissions are read as data: a notebook that is not valid JSON is named and left out, and everything a
submission holds is escaped in the report, which carries a policy that forbids scripts.

    python tools/similarity.py [--lecture 12-pca]
"""

from __future__ import annotations

import argparse
import html
import io
import itertools
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from course import lectures  # noqa: E402
from staging import discover, read_submission, shown  # noqa: E402

NOISE = 25            # copydetect's k: the shortest run of filtered code that can count as shared
WINDOW = 1            # winnow with window 1: every k-gram is kept (answers are short; speed is no concern)
PAIR_SHARE = 0.6
PACKAGE_SHARE = 0.6
MIN_TOKENS = 60


@dataclass
class Pair:
    first: str
    second: str
    share_first: float
    share_second: float
    overlap: int
    marked: tuple = ()


@dataclass
class PackageMatch:
    student: str
    exercise: str
    module: str
    share: float
    overlap: int
    marked: tuple = ()


@dataclass
class Report:
    lecture: str
    students: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    pairs: list = field(default_factory=list)
    package: list = field(default_factory=list)


def _fingerprint(name: str, code: str, boilerplate=()):
    from copydetect.detector import CodeFingerprint

    return CodeFingerprint(name + ".py", NOISE, WINDOW, boilerplate=list(boilerplate), fp=io.StringIO(code))


def answer_cells(release: Path) -> dict[str, str]:
    """The code answer cells of a released notebook: grade id -> the source students start from."""
    cells = json.loads(release.read_text())["cells"]
    return {c["metadata"]["nbgrader"]["grade_id"]: "".join(c["source"]) for c in cells
            if c["cell_type"] == "code" and c.get("metadata", {}).get("nbgrader", {}).get("solution")}


def student_answers(nb: dict, ids) -> dict[str, str]:
    """The student's code in the answer cells ``ids`` of the notebook ``nb`` (cells matched by grade id)."""
    found = {}
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        meta = cell.get("metadata", {}).get("nbgrader", {}) if isinstance(cell, dict) else {}
        source = cell.get("source", "") if isinstance(cell, dict) else ""
        source = "".join(source) if isinstance(source, list) else str(source)
        if isinstance(meta, dict) and meta.get("grade_id") in ids and cell.get("cell_type") == "code":
            found[meta["grade_id"]] = source
    return found


def own_code(answer: str, start: str) -> str:
    """The lines of ``answer`` that the release's cell ``start`` does not hold (its signature, docstring and
    stub): what the student wrote, the only part worth comparing or showing."""
    given = {line.strip() for line in start.splitlines() if line.strip()}
    return "\n".join(line for line in answer.splitlines() if line.strip() and line.strip() not in given)


def package_modules(root: Path) -> dict[str, str]:
    package = root / "lib" / "mlcourse"
    return {str(p.relative_to(package.parent)): p.read_text() for p in sorted(package.rglob("*.py"))}


def _marked(code: str, slices, context: int = -1) -> str:
    """``code`` escaped, the shared parts marked; with ``context`` lines, only those around a marked part."""
    from copydetect.utils import highlight_overlap

    if len(slices) == 0 or len(slices[0]) == 0:
        return html.escape(code)
    return highlight_overlap(code, slices, "<mark>", "</mark>", truncate=context, escape_html=True)[0]


def _balanced_lines(marked: str) -> list[str]:
    """The lines of marked HTML, each with its own <mark> tags closed (a mark may span lines)."""
    lines, inside = [], False
    for line in marked.split("\n"):
        start = "<mark>" if inside else ""
        opened, closed = line.rfind("<mark>"), line.rfind("</mark>")
        inside = opened > closed if max(opened, closed) >= 0 else inside
        lines.append(start + line + ("</mark>" if inside else ""))
    return lines


def _plain(line: str) -> str:
    return html.unescape(line.replace("<mark>", "").replace("</mark>", ""))


def whole_answers(marked: str, whole: dict[str, str], starts: dict[str, str]) -> str:
    """The student's answers in full, from the marked document of their own code (``# <id>`` then its
    lines, exercise after exercise): the lines the release gave (signature, docstring, stub) in grey,
    which never count, and the student's own lines with the shared parts marked."""
    own: dict[str, list[str]] = {}
    current = None
    for line in _balanced_lines(marked):
        text = _plain(line)
        if text.startswith("# ") and text[2:].strip() in whole and text[2:].strip() not in own:
            current = own.setdefault(text[2:].strip(), [])
        elif text.strip() and current is not None:
            current.append(line)
    parts = []
    for exercise, answer in whole.items():
        given = {line.strip() for line in starts.get(exercise, "").splitlines() if line.strip()}
        mine = iter(own.get(exercise, []))
        lines = [f"<span class='exercise'># {html.escape(exercise)}</span>"]
        for line in answer.splitlines():
            if not line.strip():
                lines.append("")
            elif line.strip() in given:
                lines.append(f"<span class='given'>{html.escape(line)}</span>")
            else:
                lines.append(next(mine, html.escape(line)))
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def compare(root: Path, lecture: str) -> Report:
    from copydetect.detector import compare_files

    report = Report(lecture)
    release = next((root / "notebooks" / lecture).glob("*.ipynb"))
    starts = answer_cells(release)
    boilerplate = _fingerprint("release", "\n\n".join(starts.values())).hashes
    documents, answers, wholes = {}, {}, {}
    subs, problems = discover(root, lecture, None)  # the grader's own checks: names, links, pipes, sizes
    report.skipped += [(problem, "not compared") for problem in problems]
    for sub in subs:
        student = sub.student
        _, notebooks = read_submission(root, sub)
        if not notebooks:
            report.skipped.append((student, "; ".join(sub.notes) or "no notebook"))
            continue
        wholes[student] = {i: code for i, code in student_answers(next(iter(notebooks.values())), starts).items()
                           if own_code(code, starts[i])}
        answers[student] = {i: own_code(code, starts[i]) for i, code in wholes[student].items()}
        text = "\n\n".join(f"# {i}\n{answers[student][i]}" for i in starts if answers[student].get(i))
        documents[student] = (text, _fingerprint(student, text, boilerplate))
    report.students = sorted(documents)
    for a, b in itertools.combinations(report.students, 2):
        overlap, (share_a, share_b), slices = compare_files(documents[a][1], documents[b][1])
        if min(share_a, share_b) >= PAIR_SHARE and overlap >= MIN_TOKENS:
            report.pairs.append(Pair(a, b, float(share_a), float(share_b), int(overlap), (
                whole_answers(_marked(documents[a][0], slices[0]), wholes[a], starts),
                whole_answers(_marked(documents[b][0], slices[1]), wholes[b], starts))))
    modules = {name: (code, _fingerprint(name, code, boilerplate)) for name, code in package_modules(root).items()}
    for student in report.students:
        for exercise, code in answers[student].items():
            mine = _fingerprint(f"{student}-{exercise}", code, boilerplate)
            best = None
            for name, (module_code, theirs) in modules.items():
                overlap, (share, _), slices = compare_files(mine, theirs)
                if share >= PACKAGE_SHARE and overlap >= MIN_TOKENS and (best is None or share > best.share):
                    mine_marked = f"# {exercise}\n" + _marked(code, slices[0])
                    best = PackageMatch(student, exercise, name, float(share), int(overlap), (
                        whole_answers(mine_marked, {exercise: wholes[student][exercise]}, starts),
                        _marked(module_code, slices[1], context=4)))
            if best:
                report.package.append(best)
    report.pairs.sort(key=lambda p: -min(p.share_first, p.share_second))
    return report


PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Copying report: {lecture}</title>
<style>body {{ font-family: sans-serif; margin: 2em; }} table {{ border-collapse: collapse; }}
td, th {{ border: 1px solid #999; padding: 0.3em 0.6em; }} .side {{ display: flex; gap: 1em; }}
.side pre {{ flex: 1; min-width: 0; background: #f6f6f6; padding: 0.6em; font-size: 0.85em;
  white-space: pre-wrap; overflow-wrap: anywhere; }}
.given {{ color: #8a8a8a; }} .exercise {{ color: #2a5db0; font-weight: bold; }}
mark {{ background: #ffd27f; }}</style></head><body>
<h1>Copying report: {lecture}</h1>
<p>{summary}</p>
<p>A flag is a reason to look, not a verdict. Each answer is shown whole; marked code is what the two sides
share once names, strings and numbers are set aside. Grey lines are the release's own (the exercises'
signatures, docstrings and stubs): they never count, and are never marked.</p>
{body}
</body></html>
"""


def _section(title: str, header: tuple, rows: list, none: str) -> list[str]:
    """A heading, a table (``rows`` of (cells, heading of the side-by-side view, marked code pair)) and, under
    it, each row's two sides. Every cell and heading is escaped here; the marked code is escaped already."""
    e = html.escape
    if not rows:
        return [f"<h2>{e(title)}</h2>", f"<p>{e(none)}</p>"]
    parts = [f"<h2>{e(title)}</h2>", "<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>"]
    parts += ["<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in cells) + "</tr>" for cells, _, _ in rows]
    parts.append("</table>")
    parts += [f"<h3>{e(heading)}</h3><div class='side'><pre>{left}</pre><pre>{right}</pre></div>"
              for _, heading, (left, right) in rows]
    return parts


def render(report: Report) -> str:
    e = html.escape
    parts = _section("Pairs of students",
                     ("student", "student", "share of the first's code", "share of the second's code", "shared characters"),
                     [((p.first, p.second, f"{p.share_first:.0%}", f"{p.share_second:.0%}", p.overlap),
                       f"{p.first} and {p.second}", p.marked) for p in report.pairs], "No pair flagged.")
    parts += _section("Answers that match the mlcourse package", ("student", "exercise", "module", "share of the answer"),
                      [((m.student, m.exercise, m.module, f"{m.share:.0%}"), f"{m.student}, {m.exercise}, and {m.module}",
                        m.marked) for m in report.package], "No answer flagged.")
    if report.skipped:
        parts.append("<h2>Left out</h2><ul>" + "".join(f"<li>{e(s)}: {e(why)}</li>" for s, why in report.skipped) + "</ul>")
    return PAGE.format(lecture=e(report.lecture), summary=e(summary(report)), body="\n".join(parts))


def summary(report: Report) -> str:
    return (f"{len(report.students)} submissions compared, {len(report.pairs)} pair(s) flagged, "
            f"{len(report.package)} answer(s) matching the mlcourse package"
            + (f", {len(report.skipped)} left out" if report.skipped else ""))


def run(root: Path = ROOT, lecture: str | None = None, out=sys.stdout) -> list[Report]:
    reports = []
    names = [lecture] if lecture else [name for name in lectures(root) if list((root / "submitted").glob(f"*/{name}"))]
    if lecture and lecture not in lectures(root):
        raise SystemExit(f"no lecture {lecture!r}; the lectures are {', '.join(lectures(root))}")
    if not names:
        print("nothing to compare: submitted/ holds no submissions", file=out)
    for name in names:
        report = compare(root, name)
        target = root / "similarity" / f"{name}.html"
        target.parent.mkdir(exist_ok=True)
        target.write_text(render(report))
        print(f"{name}: {summary(report)} -> {target.relative_to(root)}", file=out)
        for p in report.pairs:
            print(f"  pair     {p.first} / {p.second}: {p.share_first:.0%} / {p.share_second:.0%} of their code shared", file=out)
        for m in report.package:
            print(f"  package  {m.student}, {m.exercise}: {m.share:.0%} of the answer matches {m.module}", file=out)
        for student, why in report.skipped:
            print(f"  left out {shown(student)}: {shown(why)}", file=out)
        reports.append(report)
    return reports


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lecture", help="one lecture (default: every lecture with submissions)")
    args = parser.parse_args()
    run(lecture=args.lecture)


if __name__ == "__main__":
    main()
