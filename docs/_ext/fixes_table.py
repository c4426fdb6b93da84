"""The ``fixes-table`` directive: the registry's ``FIXES`` as a table.

``.. fixes-table::`` renders one row per fix this distribution carries, read
from ``_cpython_security._registry.FIXES`` of the installed distribution (tox
installs the wheel into the docs environment, as ``conf.py`` expects): the
CVE, the upstream issue, the summary the self-check prints, the stdlib names
the fix replaces on the interpreter that builds the docs, and the knob. The
page never restates the table by hand, so it cannot drift from the registry.
"""

from docutils import nodes
from docutils.parsers.rst import Directive

from _cpython_security._registry import FIXES, keep_off

HEADERS = ("CVE", "Upstream issue", "What it fixes", "Replaces", "Knob")
WIDTHS = (14, 11, 35, 25, 15)


def _link(text, url):
    paragraph = nodes.paragraph()
    paragraph += nodes.reference(text, text, refuri=url)
    return paragraph


def _issue_url(issue):
    kind, _, number = issue.partition("-")
    if kind == "bpo":
        return "https://bugs.python.org/issue" + number
    return "https://github.com/python/cpython/issues/" + number


def _literals(names):
    paragraph = nodes.paragraph()
    for index, name in enumerate(names):
        if index:
            paragraph += nodes.Text(", ")
        paragraph += nodes.literal(name, name)
    return paragraph


def _row(cells):
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell
        row += entry
    return row


def fix_cells(fix):
    """The cells of *fix*'s row, in the order of ``HEADERS``."""
    knob = _literals([fix.variable])
    options = [name for name, _ in fix.options]
    if options:
        knob += nodes.Text(" (values beyond on/off: ")
        knob += _literals(options)
        knob += nodes.Text(")")
    return (_link(fix.cve, "https://www.cve.org/CVERecord?id=" + fix.cve),
            _link(fix.issue, _issue_url(fix.issue)),
            nodes.paragraph(fix.summary, fix.summary),
            _literals(fix.replaces),
            knob)


class FixesTable(Directive):
    """``.. fixes-table::``: no arguments, no options, no content."""

    has_content = False

    def run(self):
        table = nodes.table(classes=["fixes-table"])
        group = nodes.tgroup(cols=len(HEADERS))
        table += group
        for width in WIDTHS:
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row(nodes.paragraph(text, text) for text in HEADERS)
        group += head
        body = nodes.tbody()
        for fix in FIXES:
            body += _row(fix_cells(fix))
        group += body
        return [table]


class BehaviourTable(Directive):
    """``.. behaviour-changes::``: the rows whose ``behaviour`` says what honest callers
    see change, and the ``CPYTHON_SECURITY_SKIP`` value that keeps each off."""

    has_content = False

    def run(self):
        table = nodes.table(classes=["fixes-table"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (16, 54, 30):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row(nodes.paragraph(text, text)
                     for text in ("Fix", "What changes for every caller", "To keep it off"))
        group += head
        body = nodes.tbody()
        for fix in FIXES:
            if fix.behaviour:
                body += _row((_link(fix.cve, "https://www.cve.org/CVERecord?id=" + fix.cve
                                    if fix.cve.startswith("CVE-") else _issue_url(fix.issue)),
                              nodes.paragraph(fix.behaviour, fix.behaviour),
                              _literals(["CPYTHON_SECURITY_SKIP=" + ",".join(keep_off(fix))])))
        group += body
        return [table]


def setup(app):
    app.add_directive("behaviour-changes", BehaviourTable)
    app.add_directive("fixes-table", FixesTable)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
