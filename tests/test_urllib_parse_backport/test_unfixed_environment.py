"""The stdlib is in the state the environment promises: unfixed in py3X-unfixed, on 2.7.

The py3X-unfixed tox environments run the whole suite on the interpreter's own
``urllib.parse`` and ``cgi`` with the bpo-42967 change reverted
(tools/unfixed_stdlib.py). If the overlay were ever missing, the suite would
silently test a fixed stdlib; these tests make that a failure.
"""

import inspect
import os
import subprocess
import sys

import pytest
from stdlib_state import EXPECTED_UNFIXED, STDLIB, UNFIXED, cgi_module

UNFIXED_3X = pytest.mark.skipif(sys.version_info[0] == 2 or not EXPECTED_UNFIXED,
                                reason="py3X-unfixed environments only")
OVERLAY = os.sep + "unfixed-stdlib" + os.sep


def test_stdlib_is_as_the_environment_promises():
    assert UNFIXED is EXPECTED_UNFIXED
    assert (STDLIB.parse_qsl("a=1;b=2") == [("a", "1"), ("b", "2")]) is EXPECTED_UNFIXED


@UNFIXED_3X
def test_the_reverted_copy_is_what_runs():
    assert OVERLAY in STDLIB.__file__
    assert "separator" not in inspect.signature(STDLIB.parse_qsl).parameters
    assert "separator" not in inspect.signature(STDLIB.parse_qs).parameters
    with pytest.raises(ValueError, match="Max number of fields exceeded"):
        STDLIB.parse_qsl("a=1;b=2", max_num_fields=1)  # ';' counted, as before the fix


@UNFIXED_3X
def test_the_reverted_cgi_is_what_runs():
    cgi = cgi_module()
    assert OVERLAY in cgi.__file__
    for function in (cgi.parse, cgi.parse_multipart, cgi.FieldStorage):
        assert "separator" not in inspect.signature(function).parameters, function
    form = cgi.FieldStorage(environ={"REQUEST_METHOD": "GET", "QUERY_STRING": "a=1;b=2"})
    assert sorted(form.keys()) == ["a", "b"]


@UNFIXED_3X
def test_a_fresh_interpreter_of_the_environment_gets_it_too():
    # The overlay's .pth file sorts before the package's own.
    code = "import urllib.parse, cgi; print(urllib.parse.__file__); print(cgi.__file__)"
    for activation in ("", "1"):
        environ = dict(os.environ, URLLIB_PARSE_BACKPORT_PATCH=activation)
        out = subprocess.check_output([sys.executable, "-W", "ignore", "-c", code],
                                      env=environ, universal_newlines=True)
        assert [OVERLAY in line for line in out.splitlines()] == [True, True], out
