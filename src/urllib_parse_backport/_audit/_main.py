"""``python -m urllib_parse_backport --audit [--json] [PATH...]``: parsers no shim reaches.

Why: ``patch()`` fixes the stdlib and ``patch(frameworks=True)`` the parsers
of the frameworks it knows; every other query parser that splits on ``';'``
(CVE-2021-23336, bpo-42967) stays exposed, and so does every copy of
``urlsplit`` without its four later fixes (``_splitcopy``); a copy of a
stdlib module the fixes' registry knows (python-future's ``future.backports``)
is fixed only at run time, by the engine (``_copies``). This reads the
Python source under each PATH (default: the current directory and every
site-packages on ``sys.path``) with ``ast``, never importing it, and lists
those parsers and copies by distribution. Exit status 1 when it finds one, 0
when it finds none, 2 on a usage error, 3 when the audit itself failed or
could not write its report.
"""

import argparse
import errno
import json
import os
import re
import sys
import time
import traceback

from . import _copies, _known, _source, _splitcopy, _walk, _worker
from ._dists import Distributions
from .._compat import fsdecode, text_type

_SURROGATE = re.compile(u"[\ud800-\udfff]")
#: Each finding's CVE -> the upstream issue of its fix.
_ISSUES = dict(_splitcopy.ISSUES, **{_source.QUERY_CVE: _source.QUERY_ISSUE})
_ISSUES.update(_copies.ISSUES)

EXIT_CLEAN = 0
EXIT_FOUND = 1
EXIT_USAGE = 2
EXIT_FAILED = 3  # the audit itself failed: its answer is unknown


class _Progress(object):
    """``audit: 812/4231 files`` on a terminal's stderr, once a scan takes over a second."""

    def __init__(self, stream):
        self.stream = stream if stream.isatty() else None
        self.start = self.last = time.time()
        self.shown = False

    def update(self, done, total):
        now = time.time()
        if self.stream is None or now - self.start < 1 or now - self.last < 0.1:
            return
        self.last, self.shown = now, True
        self.stream.write(u"\raudit: %d/%d files" % (done, total))
        self.stream.flush()

    def close(self):
        if self.shown:
            self.stream.write(u"\r%s\r" % (u" " * 40,))
            self.stream.flush()


def audit(paths, progress=None):
    """Scan *paths*: ``(findings, skipped, files)``. Each finding is a dict (path,
    line, function, code, why, cve, issue, parser, fixed_by, text_match,
    distribution, version); *skipped* lists ``(path, reason)``, *files* counts
    the files read."""
    skipped = []
    files = list(_walk.source_files(paths, skipped))
    skipped = [(_text(path), _text(why)) for path, why in skipped]
    owners, checks = Distributions(), _worker.Checks()
    findings = []
    try:
        for done, path in enumerate(files, 1):
            found, not_parsed = _scan(path, checks, skipped)
            copy = _copies.copy_of(path)
            if found or copy:
                module = _text(_known.module_name(path))  # 2.7: a str of the path's bytes
                name, version = owners.owner(path) or (None, None)
            found = [entry + (_known.fixed_by(_dotted(module, entry[1]), path),)
                     for entry in found]
            if copy:
                found.extend(_copies.check(path, module, copy))
            for line, function, why, cve, code, fixed_by in found:
                findings.append({
                    "path": _text(path), "line": line, "function": function, "code": code,
                    "why": why, "cve": cve, "issue": _ISSUES[cve],
                    "parser": _dotted(module, function), "fixed_by": fixed_by,
                    "text_match": not_parsed is not None,
                    "distribution": name, "version": version,
                })
            if progress is not None:
                progress.update(done, len(files))
    finally:
        checks.close()
    return findings, skipped, len(files)


def _dotted(module, function):
    """The finding's ``parser``: *module*'s *function* (a module-level finding: *module*)."""
    return ".".join(part for part in (module, function) if part != "<module>")


def _scan(path, checks, skipped):
    """One file's ``(findings, why it was searched by text)``; what stopped it is
    appended to *skipped*, and no failure on one file ends the scan."""
    try:
        found, not_parsed = _source.scan(path, checks)
    except _source.Skipped as exc:
        skipped.append((_text(path), _text(exc)))
        return [], None
    except Exception as exc:  # a bug of ours on this file: said, and the scan goes on
        skipped.append((_text(path), u"the audit failed on this file: %s: %s"
                        % (type(exc).__name__, _text(exc))))
        return [], None
    if not_parsed is not None:
        skipped.append((_text(path), u"searched by text only: %s" % (_text(not_parsed),)))
    return found, not_parsed


def _text(value):
    """*value* as text; on 2.7 a str (path, message) is decoded as the file system's,
    each byte it cannot decode escaped as on 3.x (``caf\\udce9``), so a path in
    the report names the file it came from."""
    if not isinstance(value, (bytes, text_type)):
        value = str(value)
    if isinstance(value, bytes):
        return fsdecode(value)
    return value


def render(findings, skipped, files, seconds):
    """The human-readable report: findings grouped by distribution, then skipped files."""
    scanned = "%d file%s (%.1f s)" % (files, "" if files == 1 else "s", seconds)
    lines = [_summary(findings, scanned)]
    groups = {}
    for finding in findings:
        key = (finding["distribution"] is None, finding["distribution"] or "",
               finding["version"] or "")
        groups.setdefault(key, []).append(finding)
    for key in sorted(groups):
        lines.append("")
        lines.append(("%s %s" % key[1:]).strip() if not key[0] else
                     "Not part of an installed distribution")
        for finding in groups[key]:
            lines.extend(_describe(finding))
    if skipped:
        lines.append("")
        lines.append("Not fully read (%d):" % (len(skipped),))
        lines.extend("  %s: %s" % entry for entry in skipped)
    return "\n".join(lines)


def _summary(findings, scanned):
    """The report's first line: how many of each kind of finding, in how many files."""
    queries = sum(1 for finding in findings if finding["cve"] == _source.QUERY_CVE)
    modules = sum(1 for finding in findings if finding["cve"] in _copies.ISSUES)
    copies = len(findings) - queries - modules
    if not findings:
        return ("No query string split on ';' (CVE-2021-23336) and no copy of urlsplit "
                "without a later fix in %s." % (scanned,))
    parts = []
    if queries:
        parts.append("%d place%s where a query string is split on ';' (CVE-2021-23336)"
                     % (queries, "" if queries == 1 else "s"))
    if copies:
        parts.append("%d fix%s missing from copies of urlsplit"
                     % (copies, "" if copies == 1 else "es"))
    if modules:
        parts.append("%d fix%s for copies of stdlib modules"
                     % (modules, "" if modules == 1 else "es"))
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return "%s, in %s:" % (listed, scanned)


def _describe(finding):
    """The report's lines for one finding."""
    lines = ["  %(path)s:%(line)d in %(function)s" % finding,
             "      %(code)s" % finding,
             "      why: %(why)s" % finding]
    if finding["fixed_by"]:
        lines.append("      %(parser)s: fixed at run time by %(fixed_by)s" % finding)
    return lines


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m urllib_parse_backport --audit",
        description="List the places where Python source splits a query string on ';' "
                    "(CVE-2021-23336), and the copies of urlsplit without its later fixes "
                    "(CVE-2023-24329, CVE-2022-0391, CVE-2024-11168, CVE-2025-0938), "
                    "and the copies of stdlib modules whose fixes only a patch() at run "
                    "time reaches (python-future's future.backports), reading it with ast, "
                    "never importing it.")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files or directories (default: the current directory and "
                             "every site-packages on sys.path)")
    parser.add_argument("--json", action="store_true",
                        help="print the findings as a JSON list")
    return parser


def main(argv=None):
    """Run the audit; returns the exit status (1: something found, 0: clean, 2: usage,
    3: the audit itself failed, or its report could not be written)."""
    parser = _parser()
    try:
        options = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
        missing = [path for path in options.paths if not os.path.exists(path)]
        if missing:
            parser.error("no such file or directory: %s" % (", ".join(missing),))
    except SystemExit as exc:  # argparse's usage errors (2) and --help (0)
        return exc.code or 0
    start = time.time()
    progress = _Progress(sys.stderr)
    try:
        findings, skipped, files = audit(options.paths or _walk.default_paths(), progress)
    except Exception:  # not an answer: say so, with a status no answer has
        progress.close()
        try:
            _print(u"audit: failed: %s" % (_text(traceback.format_exc()).rstrip(),), sys.stderr)
        except ReportLost:  # stderr is lost too: the status alone says it
            pass
        return EXIT_FAILED
    progress.close()
    status = EXIT_FOUND if findings else EXIT_CLEAN
    try:
        if options.json:
            _print(json.dumps(findings, indent=2, sort_keys=True, separators=(",", ": ")))
            for entry in skipped:
                _print(u"audit: not fully read: %s: %s" % entry, sys.stderr)
        else:
            _print(render(findings, skipped, files, time.time() - start))
    except ReportLost as lost:
        _discard_output()
        if lost.reader_gone:  # `audit | head`: the reader took what it wanted
            return status
        try:
            _print(u"audit: cannot write the report: %s" % (_text(lost.error),), sys.stderr)
        except ReportLost:  # stderr is lost too: the status alone says it
            pass
        return EXIT_FAILED
    return status


class ReportLost(Exception):
    """The report could not be written (*error*, an ``OSError``). Why: a report
    lost on a full disk is no answer, so the status is 3, not the 1 of an
    uncaught exception that a CI gate reads as "found"; a reader that closed
    the pipe (``EPIPE``, ``audit | head``) chose to stop, and is not told so."""

    def __init__(self, error):
        Exception.__init__(self, error)
        self.error = error
        self.reader_gone = getattr(error, "errno", None) == errno.EPIPE


def _discard_output():
    """Point standard output at the null device. Why: what is still buffered
    would fail again when the interpreter flushes it at exit, with a message
    of its own and status 120."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (AttributeError, ValueError, IOError, OSError):  # not a file: nothing buffered
        pass


def _print(text, stream=None):
    """Print *text*, escaping what the stream's encoding cannot show (a code line
    with non-ASCII text, piped under the C locale) rather than failing; raises
    :class:`ReportLost` when the stream cannot take it."""
    stream = stream or sys.stdout
    encoding = getattr(stream, "encoding", None) or "ascii"
    # A lone surrogate (a file name byte no encoding decodes) is escaped here:
    # 2.7's UTF-8 codec encodes it (tox sets PYTHONIOENCODING=utf-8) where
    # 3.x's refuses it and backslashreplace escapes it the same way.
    text = _SURROGATE.sub(lambda match: u"\\u%04x" % ord(match.group()), text)
    data = (text + u"\n").encode(encoding, "backslashreplace")
    try:
        stream.flush()
        getattr(stream, "buffer", stream).write(data)
        stream.flush()
    except (IOError, OSError) as error:  # 2.7 raises IOError
        raise ReportLost(error)
