"""Sample outputs produced by the code while the docs are built, never pasted.

``.. command-output::`` runs a command with the docs' interpreter (tox installs
the wheel into the docs environment, so its ``.pth`` files run) in a fresh
process whose environment has none of the distribution's variables but those
the directive names, and shows the command line and what it printed::

    .. command-output:: cpython-security-check
       :env: CPYTHON_SECURITY_PATCH=1
       :returncode: 0

The first word is the console script of the environment, ``python``
(``sys.executable``) or ``python -c``'s code in ``:code:`` (not shown: the
``:shown:`` option is what the reader sees). ``:stderr:`` shows stderr
instead of stdout. ``:returncode:`` is what the command must exit with: any
other fails the build, so a sample cannot show a verdict the code no longer
gives (without it, any status: what an unswitched check says depends on the
interpreter that builds the docs). A caption names the interpreter that
produced it and the exit status.

``.. interpreter-table::`` renders ``docs/_data/interpreters.json``, which
``tools/interpreter_table.py`` writes by running the self-check on each
interpreter of the test matrix.
"""

import json
import os
import platform
import shlex
import subprocess
import sys

from docutils import nodes
from docutils.parsers.rst import Directive, directives

#: What the fresh process must not inherit from whoever builds the docs.
VARIABLES = ("PYTHON_URLLIB_QS_SEPARATOR", "URLLIB_PARSE_BACKPORT_WARN",
             "URLLIB_PARSE_BACKPORT_PATCH", "CTYPES_SAFE_PATCH", "HTTP_COOKIES_BACKPORT_PATCH",
             "CPYTHON_SECURITY_PATCH", "CPYTHON_SECURITY_SKIP", "PYTHONWARNINGS")

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "_data", "interpreters.json")
INTERPRETER = "%s %s" % (platform.python_implementation(), platform.python_version())


def _environment(assignments):
    env = dict(os.environ)
    for name in VARIABLES:
        env.pop(name, None)
    env.update(assignments)
    return env


def _argv(words):
    command = words[0]
    if command == "python":
        return [sys.executable] + words[1:]
    script = os.path.join(os.path.dirname(sys.executable), command)
    return [script if os.path.exists(script) else command] + words[1:]


class CommandOutput(Directive):
    """``.. command-output:: COMMAND``: run it now, show it and its output."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {
        "env": directives.unchanged,
        "code": directives.unchanged,
        "shown": directives.unchanged,
        "stderr": directives.flag,
        "returncode": directives.nonnegative_int,
    }

    def run(self):
        words = shlex.split(self.arguments[0])
        assignments = dict(item.split("=", 1) for item in
                           shlex.split(self.options.get("env", "")))
        argv = _argv(words)
        if "code" in self.options:
            argv += ["-c", self.options["code"].replace("\\n", "\n")]
        process = subprocess.Popen(argv, env=_environment(assignments),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   universal_newlines=True, cwd=os.path.dirname(HERE))
        out, err = process.communicate()
        wanted = self.options.get("returncode")
        if wanted is not None and process.returncode != wanted:
            raise self.error("%r exited %s, not %s:\n%s%s" % (
                argv, process.returncode, wanted, out, err))
        shown = self.options.get("shown") or " ".join(
            ["%s=%s" % (name, shlex.quote(value)) for name, value in sorted(assignments.items())]
            + words)
        text = "$ %s\n%s" % (shown, (err if "stderr" in self.options else out).rstrip("\n"))
        block = nodes.literal_block(text, text, language="console")
        caption = "Generated when these docs were built, by %s (exit status %d)" % (
            INTERPRETER, process.returncode)
        container = nodes.container("", literal_block=True, classes=["literal-block-wrapper"])
        container += nodes.caption(caption, caption)
        container += block
        return [container]


def _entry(text):
    entry = nodes.entry()
    entry += nodes.paragraph(text, text)
    return entry


def _ids_entry(ids, prefix=""):
    """A cell listing fix ids, each kept on one line (``fix-id``: wrapped between
    ids, never at an id's own hyphens), or "none"."""
    entry = nodes.entry()
    paragraph = nodes.paragraph()
    paragraph += nodes.Text(prefix if ids else "none")
    for index, name in enumerate(ids):
        if index:
            paragraph += nodes.Text(", ")
        paragraph += nodes.inline(name, name, classes=["fix-id"])
    entry += paragraph
    return entry


class InterpreterTable(Directive):
    """``.. interpreter-table::``: which fixes each interpreter of the matrix lacks.

    A row per interpreter, the fixes it lacks and those it has listed by name
    (in the registry's order): a column per fix (27 of them) wrapped each id a
    letter a line in a 742 px column, and a phone's."""

    def run(self):
        with open(DATA) as handle:
            data = json.load(handle)
        cves = data["cves"]
        table = nodes.table(classes=["interpreter-table"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (22, 39, 39):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        row = nodes.row()
        for title in ("Interpreter", "Lacks (of the %d fixes)" % len(cves), "Has"):
            row += _entry(title)
        head += row
        group += head
        body = nodes.tbody()
        for interpreter in data["interpreters"]:
            lacks = [cve for cve in cves if interpreter["lacks"][cve]]
            has = [cve for cve in cves if not interpreter["lacks"][cve]]
            row = nodes.row()
            row += _entry(interpreter["name"])
            row += _ids_entry(lacks, "%d: " % len(lacks))
            row += _ids_entry(has)
            body += row
        group += body
        caption = "Measured %s by tools/interpreter_table.py (%s of this distribution)" % (
            data["date"], data["version"])
        paragraph = nodes.paragraph(caption, caption)
        return [table, paragraph]


def setup(app):
    app.add_directive("command-output", CommandOutput)
    app.add_directive("interpreter-table", InterpreterTable)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
