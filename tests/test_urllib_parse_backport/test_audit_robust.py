"""The audit on hostile and unusual input: it never hangs, never crashes, never
skips a file in silence, and finds the parsers that scan a buffer byte by byte.

Each run is a fresh ``python -m urllib_parse_backport --audit`` (the crash
cases crash its child, never the test process); the hang cases have a time
bound.
"""

import io
import os
import platform
import sys
import time

import pytest

import fresh_interpreter
from test_audit import FIXTURES, audit, installed, marked, run, version_of

PY2 = sys.version_info[0] == 2
QUERY_CODE = u"def parse(qs):\n    return [b for a in qs.split('&') for b in a.split(';')]\n"


def test_buffer_scanners_are_found_at_their_lines():
    path = os.path.join(FIXTURES, "byte_scanners.py")
    status, findings, err = audit(path)
    assert status == 1 and err == ""
    assert set(finding["line"] for finding in findings) == marked("byte_scanners.py")
    whys = set(finding["why"].split(" (")[0] for finding in findings)
    assert whys == set([
        "compares one character with '&' and with ';' to end a field",
        "looks for '&'",
        "finds fields with the regular expression '([^&;=]+)=([^&;]*)', whose class "
        "holds '&' and ';'"])


INTEGER_SCANNERS = {
    "literals.py": u"def ends(data):\n"
                   u"    for i, c in enumerate(bytearray(data)):\n"
                   u"        if c == 38 or c == 59:\n"
                   u"            yield i\n",
    "membership.py": u"def ends(data):\n"
                     u"    return [i for i, c in enumerate(bytearray(data))\n"
                     u"            if c in (0x26, 0x3B)]\n",
    "constants.py": u"AMP, SEMI = 0x26, 0x3B\n\n\n"
                    u"def field_end(data, i):\n"
                    u"    while i < len(data) and data[i] != AMP and data[i] != SEMI:\n"
                    u"        i += 1\n"
                    u"    return i\n",
}


def test_byte_scanners_comparing_integer_codes_are_found(tmpdir):
    # No '&' or ';' in these files' bytes: the old audit never parsed them, and
    # its checks knew only characters, b'&'[0] and ord('&').
    for name, code in INTEGER_SCANNERS.items():
        assert u"&" not in code and u";" not in code
        tmpdir.join(name).write(code)
    status, findings, err = audit(str(tmpdir))
    assert status == 1, err
    assert sorted((os.path.basename(f["path"]), f["line"], f["why"]) for f in findings) == [
        ("constants.py", 5, "compares one character with '&' and with ';' to end a field"),
        ("literals.py", 3, "compares one character with '&' and with ';' to end a field"),
        ("membership.py", 3, "compares one character with '&' and with ';' to end a field")]


@pytest.mark.skipif(sys.version_info < (3, 8), reason="python-multipart 0.0.20 needs 3.8")
def test_python_multipart_querystring_parser():
    assert version_of("python_multipart") == "0.0.20"  # the dist-info name
    path = installed("python_multipart/multipart.py")
    with io.open(path, encoding="utf-8") as stream:
        lines = stream.read().split(u"\n")
    start = next(number for number, line in enumerate(lines, 1)
                 if line.startswith(u"class QuerystringParser"))
    end = next(number for number, line in enumerate(lines, 1)
               if number > start and line.startswith(u"class "))
    status, findings, err = audit(os.path.dirname(path))
    assert status == 1
    assert findings, "python-multipart's parser not found"
    for finding in findings:
        assert finding["parser"] == "python_multipart.multipart.QuerystringParser._internal_write"
        assert start < finding["line"] < end
        assert finding["distribution"] == "python_multipart"
        assert finding["version"] == "0.0.20"
        assert finding["fixed_by"] == "patch(frameworks=True)"  # the python-multipart adapter
    codes = set(finding["code"] for finding in findings)
    assert "if ch == AMPERSAND or ch == SEMICOLON:" in codes
    assert 'sep_pos = data.find(b";", i)' in codes


def test_constant_subscripts_are_texts_of_their_own(tmpdir):
    path = tmpdir.join("app.py")
    path.write("def fields(environ):\n"
               "    query = environ['QUERY_STRING'].split('&')\n"
               "    cookies = environ['HTTP_COOKIE'].split(';')\n"
               "    same = environ['QUERY_STRING'].split(';')\n"
               "    return query, cookies, same\n")
    status, findings, err = audit(str(path))
    assert [finding["line"] for finding in findings] == [4]


def test_line_numbers_as_the_tokenizer_counts_them(tmpdir):
    # Form feeds, and on 3.x NEL and U+2028 in a comment: str.splitlines()
    # breaks at each, the tokenizer at none.
    padding = u"# \x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\n"
    if not PY2:
        padding += u"# next line \x85 and \u2028 separator\n"
    path = tmpdir.join("form_feeds.py")
    path.write_binary((padding + QUERY_CODE).encode("utf-8"))
    status, findings, err = audit(str(path))
    line = padding.count(u"\n") + 2
    assert [(f["line"], f["code"]) for f in findings] == \
        [(line, u"return [b for a in qs.split('&') for b in a.split(';')]")]


@pytest.mark.parametrize("name", ["long_name", "long_subscript"])
def test_text_search_takes_linear_time(tmpdir, name):
    line = {"long_name": "a" * 200000, "long_subscript": "a[" * 200000}[name]
    path = tmpdir.join("unparseable.py")
    path.write("def parse(qs):\n    pairs = [b for a in qs.split('&') for b in a.split(';')]\n"
               "    %s\n$ not python\n" % (line,))
    start = time.time()
    status, findings, err = audit(str(path))
    assert time.time() - start < 20  # was minutes: quadratic on long lines
    assert [(f["line"], f["text_match"]) for f in findings] == [(2, True)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_named_pipes_and_devices_are_not_read(tmpdir):
    os.mkfifo(str(tmpdir.join("pipe.py")))
    os.symlink("/dev/zero", str(tmpdir.join("zero.py")))
    tmpdir.join("app.py").write(QUERY_CODE)
    start = time.time()
    status, findings, err = audit(str(tmpdir))
    assert time.time() - start < 20  # was forever (the pipe), MemoryError (/dev/zero)
    assert status == 1 and [os.path.basename(f["path"]) for f in findings] == ["app.py"]
    assert "pipe.py: not a regular file, not read" in err
    assert "zero.py: not a regular file, not read" in err


def test_files_over_the_size_cap_are_listed(tmpdir):
    path = tmpdir.join("huge.py")
    with open(str(path), "wb") as stream:
        stream.write(QUERY_CODE.encode("ascii"))
        stream.write(b"#" * (8 * 1024 * 1024))
    status, findings, err = audit(str(path))
    assert (status, findings) == (0, [])
    assert "huge.py: larger than 8388608 bytes, not read" in err


class _Stat(object):
    """An ``fstat`` answer with a smaller size: a file that grew after it (or a file of
    ``/proc``, whose size reads 0)."""

    def __init__(self, real, size):
        self.st_mode, self.st_size = real.st_mode, size


@pytest.mark.parametrize("length, read_whole", [(5000, True), (8 * 1024 * 1024 + 1, False)])
def test_a_file_longer_than_fstat_says_is_read_to_the_cap(tmpdir, monkeypatch, length,
                                                          read_whole):
    # The read asks for fstat's size and one byte more (PyPy zeroes the buffer it is
    # asked for: 8 MiB a file took a scan from 4 s to 58 s), then for the rest.
    from internals import audit_source
    path = str(tmpdir.join("grown.py"))
    with open(path, "wb") as stream:
        stream.write(b"#" * length)
    real = os.fstat
    monkeypatch.setattr(os, "fstat", lambda descriptor: _Stat(real(descriptor), 10))
    if read_whole:
        assert audit_source.read(path) == b"#" * length
    else:
        with pytest.raises(audit_source.Skipped, match="larger than 8388608 bytes"):
            audit_source.read(path)


@pytest.mark.parametrize("codec", ["zlib", "base64", "hex", "no-such-codec"])
def test_a_coding_cookie_of_any_codec_is_listed_not_fatal(tmpdir, codec):
    tmpdir.join("cookie.py").write("# coding: %s\n%s" % (codec, QUERY_CODE))
    tmpdir.join("app.py").write(QUERY_CODE)
    status, findings, err = audit(str(tmpdir))
    assert status == 1, err
    assert [os.path.basename(f["path"]) for f in findings] in (["app.py"],
                                                               ["app.py", "cookie.py"])
    assert "cookie.py: cannot decode as %s" % (codec,) in err or len(findings) == 2


def test_a_parser_crash_loses_one_file_not_the_scan(tmpdir):
    # A 400 KB chain of additions: CPython 2.7 and 3.8 crash in compile()
    # (a segmentation fault), 3.13 raises RecursionError.
    tmpdir.join("deep.py").write(QUERY_CODE + "x = " + "1+" * 200000 + "1\n")
    tmpdir.join("zapp.py").write(QUERY_CODE)
    status, findings, err = audit(str(tmpdir))
    assert status == 1
    assert [(os.path.basename(f["path"]), f["line"], f["text_match"]) for f in findings] == \
        [("deep.py", 2, True), ("zapp.py", 2, False)]
    assert "deep.py: searched by text only: " in err


#: About 2 MB that the ast checks must parse: 0.5-4 s and 600-800 MB of memory.
SLOW_TO_PARSE = (QUERY_CODE + u"x = 1\n" * 300000).encode("ascii")


@pytest.mark.skipif(os.name != "posix", reason="the time limit needs select() and SIGSTOP")
def test_a_file_the_parser_takes_too_long_for_loses_only_the_ast_checks():
    # The child is stopped (SIGSTOP) before the file is sent (small enough for
    # the pipe's buffer): it cannot answer within any limit, however loaded
    # the machine. A 0.3 s limit on a real 2 MB parse failed on py27 under
    # load: the new child, started within those 0.3 s, took longer than them
    # to answer for app.py.
    import signal
    from internals import audit_worker
    checks = audit_worker.Checks(seconds=60)
    try:
        assert checks(QUERY_CODE.encode("ascii"), "first.py")[1] is None  # a child runs
        os.kill(checks.process.pid, signal.SIGSTOP)
        checks.seconds = 0.3
        started = time.time()
        assert checks(QUERY_CODE.encode("ascii"), "slow.py") == (
            None, "the parser took longer than 0.3 s")
        assert time.time() - started < 30
        checks.seconds = 60
        found, why_not = checks(QUERY_CODE.encode("ascii"), "app.py")  # a new child
        assert why_not is None and [finding[0] for finding in found] == [2]
    finally:
        if checks.process is not None:  # never leave a stopped child behind
            os.kill(checks.process.pid, signal.SIGCONT)
        checks.close()


@pytest.mark.skipif(os.name != "posix", reason="the memory limit is RLIMIT_AS")
def test_a_file_the_parser_needs_too_much_memory_for_loses_only_the_ast_checks():
    from internals import audit_worker
    # PyPy's own start-up, with its JIT and GC arenas, comes close to 256 MiB of
    # address space: a fresh child there sometimes aborts before reading a file.
    mib = 512 if platform.python_implementation() == "PyPy" else 256
    checks = audit_worker.Checks(seconds=120, memory=mib << 20)
    try:
        found, why_not = checks(SLOW_TO_PARSE, "big.py")
        assert found is None
        assert why_not == "the parser needed more than the %d MiB it may use" % mib or \
            why_not.startswith("the parser crashed"), why_not
        found, why_not = checks(QUERY_CODE.encode("ascii"), "app.py")
        assert why_not is None and [finding[0] for finding in found] == [2]
    finally:
        checks.close()


def test_an_internal_failure_has_its_own_exit_status(monkeypatch, capsys):
    from internals import audit_main

    def broken(paths, progress=None):
        raise RuntimeError("a bug in the audit")

    monkeypatch.setattr(audit_main, "audit", broken)
    assert audit_main.main([FIXTURES]) == audit_main.EXIT_FAILED == 3
    assert "audit: failed: " in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [[], ["--json"]])
def test_a_report_that_cannot_be_written_is_a_failure(args):
    # It was an uncaught OSError: a traceback and status 1, which reads as "found".
    with open("/dev/full", "w") as full:
        status, _, err = fresh_interpreter.run(
            ["-m", "urllib_parse_backport", "--audit"] + args + [FIXTURES], stdout=full)
    assert status == 3
    assert err.splitlines() == ["audit: cannot write the report: "
                                "[Errno 28] No space left on device"]


@pytest.mark.skipif(not hasattr(os, "pipe") or os.name != "posix", reason="POSIX pipes")
def test_a_reader_that_closed_the_pipe_is_not_told(tmpdir):
    # `audit | head`: it was a BrokenPipeError traceback and status 1.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        status, _, err = fresh_interpreter.run(
            ["-m", "urllib_parse_backport", "--audit", FIXTURES], stdout=write_end)
    finally:
        os.close(write_end)
    assert (status, err) == (1, "")  # the answer's status: the fixtures hold parsers


def test_one_file_failing_is_listed_and_the_scan_goes_on(monkeypatch, tmpdir):
    from internals import audit_main

    tmpdir.join("a.py").write(QUERY_CODE)
    tmpdir.join("b.py").write(QUERY_CODE)
    scan = audit_main._source.scan

    def flaky(path, checks):
        if path.endswith("a.py"):
            raise TypeError("a bug of ours")
        return scan(path, checks)

    monkeypatch.setattr(audit_main._source, "scan", flaky)
    findings, skipped, files = audit_main.audit([str(tmpdir)])
    assert [os.path.basename(f["path"]) for f in findings] == ["b.py"]
    assert [(os.path.basename(path), why) for path, why in skipped] == \
        [("a.py", "the audit failed on this file: TypeError: a bug of ours")]


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="names must be valid there")
def test_file_names_that_are_not_utf8_are_reported(tmpdir):
    # On 2.7 the parser's dotted name mixed the path's bytes with text: exit 3.
    folder = os.path.join(str(tmpdir).encode("ascii"), b"bad\xffname")
    os.mkdir(folder)
    with open(os.path.join(folder, b"m\xfe.py"), "wb") as stream:
        stream.write(QUERY_CODE.encode("ascii"))
    status, findings, err = audit(str(tmpdir))
    assert status == 1, err
    # Each undecodable byte as a lone surrogate, as os.fsdecode gives on 3.x:
    # 2.7 gave U+FFFD, and the report no longer named the file.
    assert [f["parser"] for f in findings] == [u"m\udcfe.parse"]
    assert findings[0]["path"] == os.path.join(u"%s" % (tmpdir,), u"bad\udcffname", u"m\udcfe.py")
    status, out, err = run(str(tmpdir))  # the text report: the same escape
    assert os.path.join("bad\\udcffname", "m\\udcfe.py:2") in out, out
