"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

from typing import Any, Callable, Dict, List  # noqa: F401 (type comments)

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


def hello(environ, start_response):
    # type: (Dict[str, Any], Callable[..., Any]) -> List[bytes]
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [environ.get(ORIGINAL_QUERY_STRING, "").encode("latin-1")]


application = protect(hello)
legacy_application = protect(hello, separator="legacy", max_body_size=None)
