"""The response fixes through the package's public face: what ``patch()`` binds, by
identity, and how the bounded ``begin`` hands the final status line to the stock one.
"""

import pytest

import http_client_backport
import responses_helpers as h
from responses_helpers import STOCK

ROWS = {
    h.CONTINUE: ["begin"],
    h.INTERIM: ["begin", "_read_chunked" if h.PY2 else "_read_and_discard_trailer"],
    h.LENGTH: ["_safe_read"],
}
NAMES = sorted(set(name for names in ROWS.values() for name in names))


def _methods():
    return dict((name, STOCK.HTTPResponse.__dict__[name]) for name in NAMES)


def test_patch_binds_what_each_lacking_row_names_and_unpatch_puts_it_back():
    stock = _methods()
    report = http_client_backport.patch()
    due = set(name for cve, names in ROWS.items() if h.lacks(cve) for name in names)
    labels = set(label.rsplit(".", 1)[1] for label in report.changed
                 if ".HTTPResponse." in label)
    assert labels == due
    patched = _methods()
    for name in NAMES:
        assert (patched[name] is stock[name]) == (name not in due)
        for attribute in ("__name__", "__doc__", "__qualname__"):
            assert (getattr(patched[name], attribute, None)
                    == getattr(stock[name], attribute, None))
    http_client_backport.unpatch()
    assert all(STOCK.HTTPResponse.__dict__[name] is stock[name] for name in NAMES)


def test_forced_patch_binds_every_response_fix_and_unpatch_restores_identity():
    stock = _methods()
    http_client_backport.patch(force=True)
    assert all(STOCK.HTTPResponse.__dict__[name] is not stock[name] for name in NAMES)
    assert http_client_backport.status()["fixes"][h.INTERIM]["state"] == "patched"
    http_client_backport.unpatch()
    assert _methods() == stock
    assert all(STOCK.HTTPResponse.__dict__[name] is stock[name] for name in NAMES)


def test_gh_150743_alone_bounds_the_header_lines_too():
    """With CVE-2021-3737's row left out, gh-150743's ``begin`` (upstream's fixed loop)
    still bounds each ``100 Continue``'s header lines."""
    http_client_backport.patch(force=True, _leave_out=(h.CONTINUE,))
    results, _ = h.outcome(h.interim(1, 5000) + h.final())
    assert results == [("HTTPException", "got more than 100 headers")]


@pytest.mark.parametrize("data", [h.interim(3) + h.final(), h.interim(100) + h.final(),
                                  h.interim(1, 200) + h.final(), b"HTTP/1.1 200"])
def test_no_status_line_is_left_on_the_response(data):
    """The hand-off's one-call ``_read_status`` is gone afterwards, however begin ended."""
    with h.bound():
        resp = h.response(data)
        try:
            resp.begin()
        except STOCK.HTTPException:
            pass
    assert "_read_status" not in vars(resp)
    resp.close()


class LoggingResponse(STOCK.HTTPResponse):
    """A subclass with a ``_read_status`` of its own, as some clients have."""

    def _read_status(self):
        status = STOCK.HTTPResponse._read_status(self)
        self.seen = getattr(self, "seen", []) + [status[1]]
        return status


def test_a_subclass_status_reader_reads_every_status_line():
    with h.bound():
        resp = LoggingResponse(h.FakeSocket(h.interim(2) + h.final()))
        resp.begin()
        assert resp.read() == b"abc"
    assert resp.seen == [100, 100, 200]


def test_begin_twice_reads_nothing_more():
    with h.bound():
        resp = h.response(h.interim(2) + h.final() + b"HTTP/1.1 500 Next\r\n\r\n")
        resp.begin()
        lines = resp.fp.lines
        resp.begin()
        assert (resp.status, resp.fp.lines) == (200, lines)
    resp.close()


def test_is_vulnerable_reads_the_stock_module_while_patched():
    before = http_client_backport.is_vulnerable()
    http_client_backport.patch(force=True)
    assert http_client_backport.is_vulnerable() == before
    assert before  # gh-150743: every interpreter of the matrix lacks it
