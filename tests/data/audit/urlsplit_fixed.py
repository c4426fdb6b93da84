"""A copy of urlsplit with all four later fixes, its work split into helpers
as recent releases do (an audit test fixture, never imported): nothing to
report."""

from collections import namedtuple
from ipaddress import ip_address as _ip_address
import re

SplitResult = namedtuple("SplitResult", "scheme netloc path query fragment")
scheme_chars = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789+-.")
#: U+0000-U+001F and the space (CVE-2023-24329).
_CONTROL_OR_SPACE = "".join(map(chr, range(0x20))) + " "
#: Removed anywhere in a URL (CVE-2022-0391).
_REMOVED = ("\t", "\r", "\n")


def _clean(url):
    url = url.lstrip(_CONTROL_OR_SPACE)
    for character in _REMOVED:
        url = url.replace(character, "")
    return url


def _host_check(host):
    if host.startswith("v"):
        if not re.match(r"\Av[a-fA-F0-9]+\..+\Z", host):
            raise ValueError("IPvFuture address is invalid")
    elif _ip_address(host).version == 4:
        raise ValueError("An IPv4 address cannot be in brackets")


def _netloc_check(netloc):
    host_port = netloc.rpartition("@")[2]
    outside, opened, inside = host_port.partition("[")
    if opened:
        if outside:
            raise ValueError("Invalid IPv6 URL")
        host, _, port = inside.partition("]")
        if port and not port.startswith(":"):
            raise ValueError("Invalid IPv6 URL")
    else:
        host = host_port.partition(":")[0]
    _host_check(host)


def _split(url, scheme, allow_fragments):
    url = _clean(url)
    netloc = query = fragment = ""
    i = url.find(":")
    if i > 0 and url[0].isalpha():
        if not url[:i].strip(scheme_chars):
            scheme, url = url[:i].lower(), url[i + 1:]
    if url[:2] == "//":
        end = min([len(url)] + [url.find(c, 2) for c in "/?#" if url.find(c, 2) >= 0])
        netloc, url = url[2:end], url[end:]
        if ("[" in netloc) != ("]" in netloc):
            raise ValueError("Invalid IPv6 URL")
        if "[" in netloc:
            _netloc_check(netloc)
    if allow_fragments and "#" in url:
        url, fragment = url.split("#", 1)
    if "?" in url:
        url, query = url.split("?", 1)
    return scheme, netloc, url, query, fragment


def urlsplit(url, scheme="", allow_fragments=True):
    scheme = scheme.strip(_CONTROL_OR_SPACE)
    return SplitResult(*_split(url, scheme, allow_fragments))
