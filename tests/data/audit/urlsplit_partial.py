"""A copy of urlsplit with two of the four later fixes (an audit test fixture,
never imported): it strips whitespace only (str.lstrip() leaves U+0000-U+0008
and U+000E-U+001B: CVE-2023-24329 missing), removes tab, CR and LF, checks the
bracketed host (gh-103848) but not the text around the brackets
(CVE-2025-0938 missing)."""

import ipaddress
from collections import namedtuple

SplitResult = namedtuple("SplitResult", "scheme netloc path query fragment")


def urlsplit(url, scheme="", allow_fragments=True):  # AUDIT: found
    url = url.lstrip().replace("\t", "").replace("\r", "").replace("\n", "")
    netloc = query = fragment = ""
    i = url.find(":")
    if i > 0 and url[:i].isalpha():
        scheme, url = url[:i].lower(), url[i + 1:]
    if url[:2] == "//":
        end = len(url)
        for c in "/?#":
            if 0 <= url.find(c, 2) < end:
                end = url.find(c, 2)
        netloc, url = url[2:end], url[end:]
        if ("[" in netloc) != ("]" in netloc):
            raise ValueError("Invalid IPv6 URL")
        if "[" in netloc:
            host = netloc.partition("[")[2].partition("]")[0]
            if ipaddress.ip_address(host).version == 4:
                raise ValueError("An IPv4 address cannot be in brackets")
    if allow_fragments and "#" in url:
        url, fragment = url.split("#", 1)
    if "?" in url:
        url, query = url.split("?", 1)
    return SplitResult(scheme, netloc, url, query, fragment)


def urlparse(url, scheme="", allow_fragments=True):
    return urlsplit(url, scheme, allow_fragments)
