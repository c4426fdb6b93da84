"""``python -m urllib_parse_backport --audit``: the query parsers that split on ';'.

The fixtures in tests/data/audit mark each line the audit must report with
``# AUDIT: found`` (``ast``: only where this interpreter parses the file,
``text``: only where it is searched line by line); every other line must not
be reported. Real installed frameworks: test_audit_installed.py.
"""

import io
import json
import os
import re
import shutil
import sys

import pytest

import fresh_interpreter

PY2 = sys.version_info[0] == 2
FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "data", "audit")
#: The fixture this interpreter's grammar cannot parse: searched by text.
TEXT_SEARCHED = "python3_only.py" if PY2 else "python2_only.py"
ADAPTER, SHIM, STDLIB_SHIM = "patch(frameworks=True)", "patch()", "the stdlib shim, patch()"


def run(*args, **options):
    """``python -m urllib_parse_backport --audit ARGS``: (status, stdout, stderr)."""
    return fresh_interpreter.run(
        ["-W", "error", "-m", "urllib_parse_backport", "--audit"] + list(args),
        cwd=options.get("cwd"), **options.get("env", {}))


def audit(*args, **options):
    """The ``--json`` findings for ARGS: (status, findings, stderr)."""
    status, out, err = run("--json", *args, **options)
    assert status in (0, 1), err
    return status, json.loads(out), err


def audit_once(path):
    """:func:`audit` of *path*, memoised for the test session: a whole environment's
    scan, which several tests read (nothing a test does changes site-packages)."""
    status, out, err = fresh_interpreter.run_once(
        ["-W", "error", "-m", "urllib_parse_backport", "--audit", "--json", path])
    assert status in (0, 1), err
    return status, json.loads(out), err


def read_lines(path):
    with io.open(path, encoding="utf-8") as stream:
        return stream.read().splitlines()


def marked(name):
    """The lines of fixture *name* marked to be reported by this interpreter."""
    wanted = ("found", "text" if name == TEXT_SEARCHED else "ast")
    return set(number for number, line in enumerate(read_lines(os.path.join(FIXTURES, name)), 1)
               if re.search(r"# AUDIT: (\w+)", line)
               and re.search(r"# AUDIT: (\w+)", line).group(1) in wanted)


def installed(relative):
    """The path of an installed file (relative to a sys.path entry), or None."""
    for entry in sys.path:
        path = os.path.join(entry or os.curdir, *relative.split("/"))
        if "site-packages" in path and os.path.isfile(path):
            return path
    return None


def version_of(project):
    """The installed version of *project*, from its ``*.dist-info`` directory name."""
    for entry in sys.path:
        if "site-packages" in entry and os.path.isdir(entry):
            for name in os.listdir(entry):
                stem, _, version = name.rpartition(".dist-info")[0].partition("-")
                if name.endswith(".dist-info") and stem.lower() == project.lower():
                    return version
    return None


def lines_in(path, function, fragment):
    """The lines of *path*'s ``def function`` whose text contains *fragment*."""
    lines, inside, found = read_lines(path), False, set()
    for number, line in enumerate(lines, 1):
        if re.match(r"\s*def %s\(" % function, line):
            inside, indent = True, len(line) - len(line.lstrip())
        elif inside and line.strip() and len(line) - len(line.lstrip()) <= indent:
            inside = False
        if inside and fragment in line:
            found.add(number)
    assert found, "%s not found in %s of %s" % (fragment, function, path)
    return found


# -- fixtures written for the purpose ---------------------------------------

@pytest.mark.parametrize("name", ["vendored_stdlib.py", "regex_helper.py", "normaliser.py",
                                  "python2_only.py", "python3_only.py"])
def test_fixture_parsers_are_found_at_their_lines(name):
    path = os.path.join(FIXTURES, name)
    status, findings, err = audit(path)
    assert status == 1
    assert set(finding["line"] for finding in findings) == marked(name)
    lines = read_lines(path)
    for finding in findings:
        assert finding["path"] == path
        assert finding["code"] == lines[finding["line"] - 1].strip()
        assert finding["text_match"] is (name == TEXT_SEARCHED)
        assert finding["fixed_by"] is None  # not a parser patch() knows
        assert finding["distribution"] is None
    assert ("searched by text only" in err) is (name == TEXT_SEARCHED)


def test_functions_and_reasons_are_named():
    status, findings, err = audit(os.path.join(FIXTURES, "vendored_stdlib.py"),
                                  os.path.join(FIXTURES, "regex_helper.py"))
    by_function = dict((finding["function"], finding["why"]) for finding in findings)
    assert by_function["parse_qsl"].startswith("splits the same text on '&' (line 9) and on ';'")
    assert by_function["FormParser.parse"].startswith("splits the same text on '&' (line 24)")
    assert by_function["Request.fields"] == (
        "splits on the regular expression '[;&]', which matches '&' and ';'")
    assert "'\\\\s*(?:&|;)\\\\s*'" in by_function["query_params_inline"]


def test_splitting_on_semicolon_for_other_reasons_is_not_flagged():
    status, out, err = run(os.path.join(FIXTURES, "not_queries.py"))
    assert (status, err) == (0, "")
    assert out.startswith("No query string split on ';' (CVE-2021-23336) and no copy of urlsplit"
                          " without a later fix in 1 file (")


def test_scanned_code_is_never_imported(tmpdir):
    sentinel = str(tmpdir.join("imported"))
    path = os.path.join(FIXTURES, "regex_helper.py")
    status, findings, err = audit(path, env={"AUDIT_SENTINEL": sentinel})
    assert status == 1 and findings
    assert not os.path.exists(sentinel)
    # The sentinel works: importing the fixture does write it.
    assert fresh_interpreter.run([path], AUDIT_SENTINEL=sentinel)[0] == 0
    assert os.path.exists(sentinel)


def test_directories_are_walked_and_hidden_ones_skipped(tmpdir):
    for name in ("app", ".hidden", "__pycache__"):
        shutil.copy(os.path.join(FIXTURES, "vendored_stdlib.py"), str(tmpdir.mkdir(name)))
    shutil.copy(os.path.join(FIXTURES, "not_queries.py"), str(tmpdir.join("app")))
    status, findings, err = audit(str(tmpdir))
    assert status == 1
    assert set(os.path.relpath(finding["path"], str(tmpdir)) for finding in findings) == \
        set([os.path.join("app", "vendored_stdlib.py")])


def test_undecodable_unreadable_and_coded_files(tmpdir):
    query_code = u"def parse(qs):\n    return [b for a in qs.split('&') for b in a.split(';')]"
    tmpdir.join("latin1.py").write_binary(
        (u"# -*- coding: latin-1 -*-\n" + query_code + u"  # caf\xe9\n").encode("latin-1"))
    tmpdir.join("broken.py").write_binary(b"# caf\xe9\n" + query_code.encode("ascii"))
    os.symlink(str(tmpdir.join("missing.py")), str(tmpdir.join("dangling.py")))
    status, findings, err = audit(str(tmpdir))
    assert status == 1
    assert [(os.path.basename(f["path"]), f["line"], f["code"][-6:]) for f in findings] == \
        [("latin1.py", 3, u"# caf\xe9")]
    assert re.search(r"broken\.py: cannot decode as utf-8", err)
    assert re.search(r"dangling\.py: cannot read", err)
    # The text report escapes what the output's encoding cannot show.
    status, out, err = run(str(tmpdir), env={"LC_ALL": "C", "LANG": "C",
                                             "PYTHONIOENCODING": "ascii"})
    assert status == 1, err
    assert "# caf\\xe9" in out


def test_code_too_deep_for_the_parser_or_the_checks_is_searched_by_text(tmpdir):
    deep = tmpdir.join("deep.py")
    deep.write("def parse(qs):\n    pairs = [b for a in qs.split('&') for b in a.split(';')]\n"
               "    return %s1\n" % ("-" * 5000,))
    status, findings, err = audit(str(deep))
    assert [(f["line"], f["function"], f["text_match"]) for f in findings] == \
        [(2, "parse", True)]
    assert "deep.py: searched by text only: " in err


def test_distributions_from_installed_metadata(tmpdir):
    site = tmpdir.mkdir("site-packages")
    for package, fixture in (("foo", "vendored_stdlib.py"), ("bar", "normaliser.py"),
                             ("baz", "regex_helper.py"), ("loose", "vendored_stdlib.py")):
        site.mkdir(package).join("__init__.py").write("")
        shutil.copy(os.path.join(FIXTURES, fixture), str(site.join(package, "compat.py")))
    site.mkdir("foo-1.0.dist-info").join("RECORD").write(
        "foo/__init__.py,,\nfoo/compat.py,sha256=x,12\nfoo-1.0.dist-info/RECORD,,\n")
    site.mkdir("bar-2.0-py3.13.egg-info").join("installed-files.txt").write("../bar/compat.py\n")
    site.mkdir("baz-3.0-py3.13.egg-info").join("top_level.txt").write("baz\n")
    status, findings, err = audit(str(site))
    owners = dict((finding["path"].split(os.sep)[-2],
                   (finding["distribution"], finding["version"])) for finding in findings)
    assert owners == {"foo": ("foo", "1.0"), "bar": ("bar", "2.0"), "baz": ("baz", "3.0"),
                      "loose": (None, None)}
    status, out, err = run(str(site))
    headings = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert headings[1:] == ["bar 2.0", "baz 3.0", "foo 1.0",
                            "Not part of an installed distribution"]


def test_default_paths_are_the_current_directory_and_site_packages(tmpdir):
    shutil.copy(os.path.join(FIXTURES, "vendored_stdlib.py"), str(tmpdir.join("app.py")))
    status, findings, err = audit(cwd=str(tmpdir))
    parsers = set(finding["parser"] for finding in findings)
    assert "app.parse_qsl" in parsers
    assert "future.backports.urllib.parse.parse_qsl" in parsers  # from site-packages


@pytest.mark.parametrize("args, message", [
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["no/such/path.py"], "no such file or directory: no/such/path.py"),
])
def test_usage_errors(args, message):
    status, out, err = run(*args)
    assert status == 2
    assert out == ""
    assert err.startswith("usage: python -m urllib_parse_backport --audit")
    assert message in err


def test_help():
    status, out, err = run("--help")
    assert status == 0 and "--json" in out and err == ""


# -- pieces ------------------------------------------------------------------

def test_the_parsers_patch_fixes_are_named_with_what_fixes_them():
    from internals import audit_known

    adapters = ["webob.compat.parse_qsl_text", "cherrypy.lib.httputil._parse_qs",
                "cherrypy._cpreqbody.process_urlencoded", "twisted.web.http.parse_qs",
                "bottle._parse_qsl", "django.utils.http.limited_parse_qsl",
                "python_multipart.multipart.QuerystringParser.write",
                "python_multipart.multipart.QuerystringParser._internal_write",
                "multipart.multipart.QuerystringParser._internal_write"]
    assert dict((name, audit_known.fixed_by(name)) for name in adapters) == \
        dict((name, "patch(frameworks=True)") for name in adapters)
    # Only this interpreter's stdlib module is patched (issue 46).
    assert audit_known.fixed_by("urlparse.parse_qsl") == ("the stdlib shim, patch()"
                                                          if PY2 else None)
    assert audit_known.fixed_by("urllib.parse.parse_qsl") == (None if PY2 else
                                                              "the stdlib shim, patch()")
    assert audit_known.fixed_by("future.backports.urllib.parse.parse_qsl") == "patch()"
    assert audit_known.fixed_by("myapp.parse_qsl") is None


@pytest.mark.parametrize("pattern, chars", [
    ("[&;]", "&;"), ("[;&]+", "&;"), ("&|;", "&;"), (r"\s*(?:&|;)\s*", "&;"),
    (r"\&|\;", "&;"), ("[&;,]", "&,;"), ("&", "&"), (r"\s*;\s*", ";"),
    ("[^&;]", ""), ("&amp;", ""), ("&([^;]+);", ""), (u"([\x00-\x7f]+)", ""),
])
def test_separator_chars_of_a_pattern(pattern, chars):
    from internals import audit_regex

    assert sorted(audit_regex.separator_chars(pattern)) == sorted(chars)


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_after_a_second(monkeypatch):
    from internals import audit_main as _audit

    clock = [1000.0]
    monkeypatch.setattr(_audit.time, "time", lambda: clock[0])
    stream = _Terminal()
    progress = _audit._Progress(stream)
    progress.update(1, 3)
    assert stream.getvalue() == u""  # under a second: nothing
    clock[0] += 1.5
    progress.update(2, 3)
    assert stream.getvalue() == u"\raudit: 2/3 files"
    progress.close()
    assert stream.getvalue().endswith(u"\r")
    quiet = io.StringIO()  # not a terminal: never
    progress = _audit._Progress(quiet)
    clock[0] += 5
    progress.update(3, 3)
    progress.close()
    assert quiet.getvalue() == u""
