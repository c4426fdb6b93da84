"""CVE-2024-6232 (gh-121285): upstream's test, the headers that cost quadratic work,
and honest pax headers.

Mirrors CPython's ``test_tarfile.PaxReadTest.test_pax_header_bad_formats``
(added by gh-121285): each of upstream's ten malformed records in place of an
honest one is refused, ``ReadError('invalid header')``. The crafted headers
(a run of digits, which 3.x's ``hdrcharset`` search scans again from each
digit; ``"2 " * n``, each record of which the stock loop scans to the last
``=``) and an honest header of a long value cost work linear in their size
with the fix (tests/helpers/work.py measures it), and quadratic work on the
stock reader where the interpreter lacks the fix. Honest headers (a
``hdrcharset=BINARY`` name, a GNU sparse 0.0 map, a global header, NUL
padding) read as the stock reader reads them.
"""

import io
import sys
import tarfile

import pytest

import tar_helpers as helpers
from work import growth

PY2 = sys.version_info[0] == 2

#: Upstream's ``pax_header_replacements``, each in place of ``b"11 foo=bar\n"``.
BAD_FORMATS = [b" foo=bar\n", b"0 \n", b"1 \n", b"2 \n", b"3 =\n", b"4 =a\n",
               b"1000000 foo=bar\n", b"0 foo=bar\n", b"-12 foo=bar\n",
               b"000000000000000000000000036 foo=bar\n"]


def record(keyword, value):
    """One pax record, ``b"%d %s=%s\\n"`` with the length that counts itself."""
    body = b" " + keyword + b"=" + value + b"\n"
    length = len(body) + 1
    while len(str(length)) + len(body) != length:
        length += 1
    return str(length).encode("ascii") + body


def _upstream_archive(replacement):
    """Upstream's archive: a member ``pax`` whose pax header's record ``foo=bar`` is
    replaced by *replacement* (the later blocks move with it, as upstream's do)."""
    out = io.BytesIO()
    tar = tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT, encoding="iso8859-1")
    info = tarfile.TarInfo()
    info.name, info.uid, info.pax_headers = "pax", 1, {"foo": "bar"}
    tar.addfile(info)
    tar.close()
    data = out.getvalue()
    assert b"11 foo=bar\n" in data
    return data.replace(b"11 foo=bar\n", replacement)


@pytest.mark.parametrize("replacement", BAD_FORMATS)
def test_cpython_pax_header_bad_formats(tarfile_fixed, replacement):
    # "r:" names the method, so the error is the reader's own on every interpreter
    # (3.10+ lists each method's error for "r", upstream's assertion).
    with pytest.raises(tarfile.ReadError) as raised:
        tarfile.open(fileobj=io.BytesIO(_upstream_archive(replacement)), mode="r:",
                     encoding="iso8859-1")
    assert str(raised.value) == "invalid header"


CRAFTED = {
    "digits": lambda n: b"1" * n,
    "records": lambda n: b"2 " * (n // 2) + b"=\n",
}


def _reading(payload):
    """A call that opens an archive whose pax header is *payload* and lists it."""
    buffer = helpers.pax_archive(payload)

    def read():
        try:
            return helpers.members(buffer)
        except tarfile.ReadError as exc:
            return str(exc)
    return read


@pytest.mark.parametrize("kind", sorted(CRAFTED))
def test_a_crafted_header_is_refused_in_linear_work(tarfile_fixed, kind):
    make = CRAFTED[kind]
    assert "could not be opened" in _reading(make(100))()
    ratio = growth(_reading(make(16000)), _reading(make(64000)))
    assert ratio < 8, "work grew %.1fx from n to 4n" % ratio


def _long_value(n):
    return record(b"comment", b"1" * n)


def test_an_honest_header_of_a_long_value_reads_in_linear_work(tarfile_fixed):
    assert _reading(_long_value(10))() == [("m", 0)]
    ratio = growth(_reading(_long_value(16000)), _reading(_long_value(64000)))
    assert ratio < 8, "work grew %.1fx from n to 4n" % ratio


def test_the_stock_reader_costs_quadratic_work_where_it_lacks_the_fix(tarfile_unpatched):
    # The can-fail side of the two tests above.
    if not tarfile_unpatched.status()["fixes"]["CVE-2024-6232"]["lacks"]:
        pytest.skip("this interpreter's tarfile has gh-121285")
    # 2.7 has no hdrcharset search; its record loop needs 4 KB before the quadratic
    # part outweighs the rest (at 2 KB and 8 KB a run read 7.4x).
    make, n = (CRAFTED["records"], 4000) if PY2 else (_long_value, 2000)
    ratio = growth(_reading(make(n)), _reading(make(4 * n)), tries=3)
    assert ratio > 8, ratio


def _honest_cases():
    sparse = [(b"GNU.sparse.size", b"2048"), (b"GNU.sparse.numblocks", b"2"),
              (b"GNU.sparse.offset", b"0"), (b"GNU.sparse.numbytes", b"512"),
              (b"GNU.sparse.offset", b"1536"), (b"GNU.sparse.numbytes", b"512")]
    return {
        "binary name": [(b"hdrcharset", b"BINARY"), (b"path", b"caf\xe9")],
        "utf-8 name": [(b"path", u"caf\u00e9".encode("utf-8")), (b"uname", b"u=v")],
        "numbers": [(b"mtime", b"1041808783.5"), (b"uid", b"123"), (b"gid", b"45"),
                    (b"comment", b"")],
        "sparse 0.0": sparse,
        "NUL padded": [(b"path", b"padded")],
    }


@pytest.mark.parametrize("case", sorted(_honest_cases()))
@pytest.mark.parametrize("kind", ["extended", "global"])
def test_honest_pax_headers_read_as_the_stock_reader_reads_them(
        tarfile_unpatched, case, kind):
    payload = b"".join(record(keyword, value) for keyword, value in _honest_cases()[case])
    if case == "NUL padded":
        payload += b"\0" * 40
    buffer = helpers.pax_archive(payload, kind == "global") + b"\0" * 1024

    def read():
        with tarfile.open(mode="r", fileobj=io.BytesIO(buffer), encoding="iso8859-1",
                          errors="surrogateescape" if not PY2 else "strict") as tar:
            return [(m.name, m.size, m.mtime, m.uid, m.gid, m.uname, m.pax_headers,
                     getattr(m, "sparse", None)) for m in tar.getmembers()]
    stock = helpers.outcome(read)
    tarfile_unpatched.patch(force=True)
    assert helpers.outcome(read) == stock
    if not (PY2 and case == "binary name"):  # 2.7 reads every value as UTF-8
        assert stock[0] == "ok" and len(stock[1]) == 1, stock


def test_a_body_the_fix_does_not_know_is_left_alone_and_exposed(tarfile_unpatched):
    # A distributor's edit of the stock reader (here: a wrapper around it) is no body
    # the fix knows: nothing is bound, and where the interpreter lacks the fix the
    # status says it is exposed.
    original = vars(tarfile.TarInfo)["_proc_pax"]

    def edited(self, tar):
        return original(self, tar)
    tarfile.TarInfo._proc_pax = edited
    try:
        tarfile_unpatched.patch()
        entry = tarfile_unpatched.status()["fixes"]["CVE-2024-6232"]
        assert vars(tarfile.TarInfo)["_proc_pax"] is edited
        if entry["lacks"]:
            assert entry["exposed"] is True
            assert entry["state"].startswith("not patched: CVE-2024-6232 cannot be applied")
    finally:
        tarfile_unpatched.unpatch()
        tarfile.TarInfo._proc_pax = original


def test_kept_off_it_leaves_the_reader_to_the_other_fix(tarfile_unpatched):
    # What CPYTHON_SECURITY_SKIP=CVE-2024-6232 does (the start-up switch passes the
    # skip list on): the stock reader stays, bpo-39017's fix only where lacking.
    report = tarfile_unpatched.patch(_leave_out=("CVE-2024-6232",))
    fixes = tarfile_unpatched.status()["fixes"]
    assert fixes["CVE-2024-6232"]["state"] != "patched"
    assert fixes["CVE-2024-6232"]["exposed"] is fixes["CVE-2024-6232"]["lacks"]
    assert fixes["CVE-2019-20907"]["exposed"] is False
    assert ("CVE-2024-6232", "left out by CPYTHON_SECURITY_SKIP") in report.skipped
