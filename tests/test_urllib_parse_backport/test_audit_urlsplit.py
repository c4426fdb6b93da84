"""The audit's second check: copies of ``urlsplit`` without its four later fixes.

CVE-2023-24329 (gh-102153), CVE-2022-0391 (bpo-43882), CVE-2024-11168
(gh-103848), CVE-2025-0938 (gh-105704): each one a copy lacks is one
finding, told apart by its ``cve`` field, never by the wording of ``why``.
The fixtures are in tests/data/audit (``urlsplit_*.py``); the interpreter's
own ``urllib/parse.py`` is judged against what its ``urlsplit`` does.
"""

import io
import os
import shutil
import sys
import time

import pytest

from test_audit import FIXTURES, audit, audit_once, installed, run, version_of

ALL = ["CVE-2022-0391", "CVE-2023-24329", "CVE-2024-11168", "CVE-2025-0938"]
QUERY_CODE = u"def parse(qs):\n    return [b for a in qs.split('&') for b in a.split(';')]\n"


def missing(findings, path=None):
    """``{(basename, line): [cve, ...]}`` of the urlsplit findings."""
    found = {}
    for finding in findings:
        if finding["cve"] != "CVE-2021-23336" and (path is None or finding["path"] == path):
            key = (os.path.basename(finding["path"]), finding["line"])
            found.setdefault(key, []).append(finding["cve"])
    return dict((key, sorted(cves)) for key, cves in found.items())


def fixture(name):
    return os.path.join(FIXTURES, name)


def test_a_hand_copied_unfixed_urlsplit_lacks_all_four():
    status, findings, err = audit(fixture("urlsplit_unfixed.py"))
    assert (status, err) == (1, "")
    assert missing(findings) == {("urlsplit_unfixed.py", 20): ALL}
    issues = dict((f["cve"], f["issue"]) for f in findings)
    assert issues == {"CVE-2022-0391": "bpo-43882", "CVE-2023-24329": "gh-102153",
                      "CVE-2024-11168": "gh-103848", "CVE-2025-0938": "gh-105704"}
    for finding in findings:
        assert finding["parser"] == "urlsplit_unfixed.urlsplit"
        assert finding["function"] == "urlsplit"
        assert finding["code"].startswith("def urlsplit(url")
        assert finding["fixed_by"] is None and finding["text_match"] is False


def test_a_partial_copy_is_reported_with_just_what_it_lacks():
    status, findings, err = audit(fixture("urlsplit_partial.py"))
    assert status == 1
    assert missing(findings) == {("urlsplit_partial.py", 13): ["CVE-2023-24329",
                                                               "CVE-2025-0938"]}


def test_a_fixed_copy_and_a_wrapper_are_not_reported():
    status, out, err = run(fixture("urlsplit_fixed.py"), fixture("urlsplit_wrapper.py"))
    assert (status, err) == (0, "")
    assert out.startswith("No query string split on ';' (CVE-2021-23336) and no copy of "
                          "urlsplit without a later fix in 2 files (")


#: One fix taken out of urlsplit_fixed.py at a time: (old text, new text, the CVE).
MUTATIONS = [
    ("url = url.lstrip(_CONTROL_OR_SPACE)", "url = url.lstrip()", "CVE-2023-24329"),
    ("range(0x20)", "range(0x10)", "CVE-2023-24329"),
    ('_REMOVED = ("\\t", "\\r", "\\n")', '_REMOVED = ("\\t", "\\r\\n")', "CVE-2022-0391"),
    ("_ip_address(host).version == 4", "host.count('.') == 3", "CVE-2024-11168"),
    ("        if outside:\n", "        if not opened:\n", "CVE-2025-0938"),
    ('        if port and not port.startswith(":"):\n', "        if not host:\n",
     "CVE-2025-0938"),
]


@pytest.mark.parametrize("old, new, cve", MUTATIONS)
def test_each_fix_taken_out_of_the_fixed_copy_is_reported(tmpdir, old, new, cve):
    with io.open(fixture("urlsplit_fixed.py"), encoding="utf-8") as stream:
        source = stream.read()
    assert source.count(old) == 1
    path = tmpdir.join("copy.py")
    path.write_binary(source.replace(old, new).encode("utf-8"))
    status, findings, err = audit(str(path))
    assert status == 1
    assert [f["cve"] for f in findings] == [cve]


def test_a_vendored_python_future_copy_in_a_tree(tmpdir):
    # python-future's future.backports.urllib.parse: 3.3's urlsplit, vendored
    # into an application's package.
    source = installed("future/backports/urllib/parse.py")
    directory = tmpdir
    for part in ("myapp", "_vendor", "future", "backports", "urllib"):
        directory = directory.mkdir(part)
        directory.join("__init__.py").write("")
    shutil.copy(source, str(directory.join("parse.py")))
    tmpdir.join("myapp", "views.py").write("from ._vendor.future.backports.urllib import parse\n")
    status, findings, err = audit(str(tmpdir))
    assert status == 1
    copies = [f for f in findings if f["cve"] != "CVE-2021-23336"]
    assert sorted(f["cve"] for f in copies) == ALL
    line = _def_line(source)
    for finding in copies:
        assert finding["parser"] == "myapp._vendor.future.backports.urllib.parse.urlsplit"
        assert finding["line"] == line and finding["distribution"] is None


def test_a_vendored_top_level_urlparse_is_not_called_fixed_at_run_time(tmpdir):
    # Issue 46, trial 6: an application's own top-level urlparse.py (here python-future's
    # copy of 3.3's parser) is no module patch() reaches, on 2.7 as on 3.x (before: "fixed
    # at run time by the stdlib shim" on 3.x). The interpreter's own file still is.
    shutil.copy(installed("future/backports/urllib/parse.py"), str(tmpdir.join("urlparse.py")))
    status, findings, err = audit(str(tmpdir))
    assert status == 1
    assert set(f["parser"] for f in findings) >= set(["urlparse.urlsplit", "urlparse.parse_qsl"])
    assert [f["fixed_by"] for f in findings] == [None] * len(findings)
    own, _ = _own_module()
    status, findings, err = audit(own)
    assert set(f["fixed_by"] for f in findings) <= set(["the stdlib shim, patch()"])


def test_the_installed_python_future_copy():
    path = installed("future/backports/urllib/parse.py")
    status, findings, err = audit(path)
    copies = [f for f in findings if f["cve"] != "CVE-2021-23336"]
    assert sorted(f["cve"] for f in copies) == ALL
    assert set((f["parser"], f["line"], f["distribution"], f["version"]) for f in copies) == \
        set([("future.backports.urllib.parse.urlsplit", _def_line(path), "future",
              version_of("future"))])


def test_the_whole_environment_holds_just_python_futures_copy():
    site_packages = os.path.dirname(os.path.dirname(installed("future/__init__.py")))
    status, findings, err = audit_once(site_packages)
    # The copies of urlsplit (test_audit_copies: the registry's copies of other modules).
    copies = set((f["parser"], f["cve"]) for f in findings if f["cve"] in ALL)
    assert copies == set(("future.backports.urllib.parse.urlsplit", cve) for cve in ALL)


def _def_line(path):
    with io.open(path, encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    return next(number for number, line in enumerate(lines, 1)
                if line.startswith("def urlsplit("))


# -- the interpreter's own urlsplit: what its code does, read and run ----------

def _own_module():
    """The interpreter's own ``urllib/parse.py`` (2.7: ``urlparse.py``), the file it
    imports under that name (py38-unfixed: a copy with bpo-42967 reverted), run
    afresh from its file: no patch this process may hold reaches it."""
    name = "urlparse" if sys.version_info[0] == 2 else "urllib.parse"
    path = __import__(name, None, None, ("urlsplit",)).__file__
    if path.endswith((".pyc", ".pyo")):
        path = path[:-1]
    if sys.version_info[0] == 2:
        import imp
        return path, imp.load_source("_audit_own_urlparse", path)
    import importlib.util
    spec = importlib.util.spec_from_file_location("_audit_own_urlparse", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return path, module


def _refuses(urlsplit, url):
    try:
        urlsplit(url)
    except ValueError:
        return True
    return False


def _lacks(urlsplit):
    """The fixes the interpreter's own *urlsplit* shows it lacks, by what it does."""
    lacks = set()
    if urlsplit(u" http://h/")[0] != u"http":
        lacks.add("CVE-2023-24329")
    if urlsplit(u"http://h/a\tb")[2] != u"/ab":
        lacks.add("CVE-2022-0391")
    if not _refuses(urlsplit, u"http://[not-an-address]/"):
        lacks.add("CVE-2024-11168")
    if not _refuses(urlsplit, u"http://a[::1]/"):
        lacks.add("CVE-2025-0938")
    return sorted(lacks)


def test_the_stdlib_is_reported_as_what_its_urlsplit_does():
    path, module = _own_module()
    status, findings, err = audit(path)
    assert err == ""
    lacks = _lacks(module.urlsplit)
    found = missing(findings)
    assert sorted(cve for cves in found.values() for cve in cves) == lacks
    name = "urlparse.urlsplit" if sys.version_info[0] == 2 else "urllib.parse.urlsplit"
    for finding in findings:
        if finding["cve"] != "CVE-2021-23336":
            assert finding["parser"] == name
            assert finding["fixed_by"] == "the stdlib shim, patch()"


# -- hostile input -------------------------------------------------------------

def test_a_copy_this_interpreter_cannot_parse_is_searched_by_text(tmpdir):
    with io.open(fixture("urlsplit_unfixed.py"), encoding="utf-8") as stream:
        source = stream.read()
    tmpdir.join("old.py").write_binary(
        (source + u"\n$ not python\n_WHATWG_C0_CONTROL_OR_SPACE = 1\n").encode("utf-8"))
    status, findings, err = audit(str(tmpdir))
    assert status == 1
    assert missing(findings) == {("old.py", 20): ["CVE-2022-0391", "CVE-2024-11168",
                                                  "CVE-2025-0938"]}
    assert all(f["text_match"] for f in findings)
    assert "old.py: searched by text only: " in err


def test_a_copy_the_parser_crashes_on_loses_only_that_file(tmpdir):
    with io.open(fixture("urlsplit_unfixed.py"), encoding="utf-8") as stream:
        source = stream.read()
    tmpdir.join("deep.py").write(source + "x = " + "1+" * 200000 + "1\n")
    tmpdir.join("zapp.py").write(source)
    status, findings, err = audit(str(tmpdir))
    assert status == 1
    assert missing(findings) == {("deep.py", 20): ALL, ("zapp.py", 20): ALL}
    assert [f["text_match"] for f in findings] == [True] * 4 + [False] * 4
    assert "deep.py: searched by text only: " in err


def test_undecodable_and_huge_copies_are_listed(tmpdir):
    with io.open(fixture("urlsplit_unfixed.py"), encoding="utf-8") as stream:
        source = stream.read().encode("utf-8")
    tmpdir.join("broken.py").write_binary(b"# caf\xe9\n" + source)
    with open(str(tmpdir.join("huge.py")), "wb") as stream:
        stream.write(source + b"#" * (8 * 1024 * 1024))
    status, findings, err = audit(str(tmpdir))
    assert (status, findings) == (0, [])
    assert "broken.py: cannot decode as utf-8" in err
    assert "huge.py: larger than 8388608 bytes, not read" in err


def test_hostile_call_graphs_take_linear_time(tmpdir):
    # 3,000 copies of urlsplit over a chain of 3,000 helpers, with a cycle, and
    # a constant of 400 sums: each copy joining its callees' facts one by one
    # would take 9 million steps; the evaluator of constants stops at 16 levels.
    count = 3000
    lines = [u"C = " + u" + ".join([u"'a'"] * 400)]
    lines += [u"def f%d(url):\n    return f%d(url)" % (i, (i + 1) % count) for i in range(count)]
    lines += [u"def urlsplit(url):\n    url = f0(url).lstrip(C)\n    return url[:2] == '//'"
              for _ in range(count)]
    tmpdir.join("hostile.py").write(u"\n".join(lines) + u"\n")
    start = time.time()
    status, findings, err = audit(str(tmpdir))
    assert time.time() - start < 30
    assert (status, err) == (1, "")
    assert len(missing(findings)) == count
    assert not any(f["text_match"] for f in findings)


def test_each_finding_carries_its_cve_and_issue():
    path = fixture("vendored_stdlib.py")
    status, findings, err = audit(path, fixture("urlsplit_partial.py"))
    kinds = set((f["cve"], f["issue"]) for f in findings)
    assert ("CVE-2021-23336", "bpo-42967") in kinds
    assert ("CVE-2025-0938", "gh-105704") in kinds
    status, out, err = run(path, fixture("urlsplit_partial.py"))
    first = out.splitlines()[0]
    assert " where a query string is split on ';' (CVE-2021-23336) and 2 fixes missing " \
           "from copies of urlsplit, in 2 files (" in first


def test_a_directory_no_import_can_name_ends_the_module_name(tmpdir):
    # Debian's PyPy keeps an __init__.py in /usr/lib/pypy3.9, its stdlib
    # directory: the stdlib's urllib/parse.py is still "urllib.parse".
    from internals import audit_known
    root = tmpdir.mkdir("pypy3.9")
    root.join("__init__.py").write("")
    package = root.mkdir("urllib")
    package.join("__init__.py").write("")
    package.join("parse.py").write("")
    assert audit_known.module_name(str(package.join("parse.py"))) == "urllib.parse"
    assert audit_known.module_name(str(package.join("__init__.py"))) == "urllib"
