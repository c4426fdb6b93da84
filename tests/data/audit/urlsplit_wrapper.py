"""Functions named urlsplit that are not copies (an audit test fixture, never
imported): they call the interpreter's own, which the audit does not report
here."""

try:
    from urllib.parse import urlsplit as _stdlib_urlsplit
except ImportError:  # 2.7
    from urlparse import urlsplit as _stdlib_urlsplit


def urlsplit(url, scheme="", allow_fragments=True):
    return _stdlib_urlsplit(url.strip(), scheme, allow_fragments)
