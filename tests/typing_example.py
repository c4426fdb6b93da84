"""Type-checked against the .pyi stubs by the lint environment (mypy --strict).

Also runs as an ordinary module, so the example stays true at run time.
"""

import ctypes
from typing import Any, Callable, Dict, List  # noqa: F401 (type comments)

import ctypes_safe
import http_cookies_backport
import urllib_parse_backport
from urllib_parse_backport import parse_qs, parse_qsl
from urllib_parse_backport.wsgi import ORIGINAL_QUERY_STRING, protect

pairs = parse_qsl("q=common_term&utm_content=s;q=malicious_term")
first_name = pairs[0][0]  # type: str
raw = parse_qs(b"a=1&a=2", separator=b"&")
values = raw[b"a"]  # type: list[bytes]
report = urllib_parse_backport.patch()
active = urllib_parse_backport.is_patched()  # type: bool
restored = urllib_parse_backport.unpatch().changed  # type: list[str]
verdict = urllib_parse_backport.status()["exposed"]
safe = ctypes_safe.from_param(ctypes.c_double, 1e300)
text = repr(safe)  # type: str
ctypes_report = ctypes_safe.patch()
mode = ctypes_report.mode  # type: str | None
changed_names = ctypes_report.changed  # type: list[str]
health = ctypes_safe.status()["exposed"]  # type: bool
ctypes_safe.unpatch()
cookie_value = http_cookies_backport.unquote('"a\\"b"')  # type: str
cookie_report = http_cookies_backport.patch()
cookies_changed = cookie_report.changed  # type: list[str]
cookies_exposed = http_cookies_backport.status()["exposed"]  # type: bool
http_cookies_backport.unpatch()


def hello(environ, start_response):
    # type: (Dict[str, Any], Callable[..., Any]) -> List[bytes]
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [environ.get(ORIGINAL_QUERY_STRING, "").encode("latin-1")]


application = protect(hello)
legacy_application = protect(hello, separator="legacy", max_body_size=None)
