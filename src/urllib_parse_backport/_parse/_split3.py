"""``urlsplit``/``urlparse`` for Python 3: the interpreter's own, plus the four later fixes.

What is the interpreter's own: the result classes, ``str``/``bytes``
coercion and its errors (``_coerce_args``), the NFKC netloc check
(bpo-36216), ``urlparse``'s ``;params`` split, the cache, and the scheme
rules, read from the interpreter's own ``urlsplit`` by probing it (see
:func:`own`). What is added, as the fixed releases do it:

* CVE-2023-24329 (gh-102153): leading C0 controls and spaces are stripped
  from the URL, and from both ends of *scheme*.
* CVE-2022-0391 (bpo-43882): ASCII tab, CR and LF are removed anywhere.
* CVE-2024-11168 (gh-103848) and CVE-2025-0938 (gh-105704): bracketed hosts
  are checked (``_hosts.check_brackets``); the two can be left out one by one.

``urllib.parse`` is imported on the first split, not before.
"""

import sys

from ._hosts import check_brackets

__all__ = ["make_urlsplit", "make_urlparse", "own", "cleaner", "C0_CONTROL_OR_SPACE"]

#: gh-102153's ``_WHATWG_C0_CONTROL_OR_SPACE``: U+0000-U+001F and the space.
C0_CONTROL_OR_SPACE = "".join(map(chr, range(0x21)))

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_tuple_new = tuple.__new__


class _Own(object):
    """What the fixes leave as the interpreter has it (see :func:`own`)."""

    def __init__(self, module, original):
        self.module = module
        self.SplitResult = module.SplitResult
        self.ParseResult = module.ParseResult
        self.coerce_args = module._coerce_args
        self.splitparams = module._splitparams
        self.uses_params = module.uses_params
        self.scheme_chars = module.scheme_chars
        self.max_cache = getattr(module, "MAX_CACHE_SIZE", 20)
        # bpo-36216: the NFKC check of non-ASCII netlocs, where present.
        self.checknetloc = getattr(module, "_checknetloc", None)
        probe = getattr(original, "__wrapped__", original)
        # 3.6-3.8 (bpo-27657 undone): "path:80" keeps a port-like rest as the
        # path, unless the scheme is exactly 'http' (their fast path).
        self.port_rule = probe("path:80")[0] == ""
        # gh-99418 (3.11.1+): a scheme must start with an ASCII letter.
        self.first_letter = probe("1a:b")[0] == ""
        # 3.11+: urlsplit is an lru_cache(typed=True); before, _parse_cache.
        self.lru = hasattr(original, "cache_info")


_OWN = {}


class _Namespace(object):
    """A module's namespace read as attributes: the module a function runs in,
    which may no longer be the one ``sys.modules`` holds (imported anew)."""

    def __init__(self, namespace):
        self.__dict__ = namespace


def own(original=None):
    """The facts (:class:`_Own`) of the ``urllib.parse`` *original* (its ``urlsplit``)
    runs in, computed once per module (and
    reload); default: the module ``sys.modules`` holds."""
    if original is None:
        # Not "import urllib.parse as module": on 3.6 that reads the attribute
        # of the package, which a post-import hook (the start-up switch) runs
        # before the import system sets (bpo-30024, fixed in 3.7).
        module = sys.modules.get("urllib.parse") or __import__(
            "urllib.parse", None, None, ("urlsplit",))
        namespace, original = vars(module), module.urlsplit
    else:
        namespace = getattr(original, "__wrapped__", original).__globals__
    found = _OWN.get(id(namespace))
    # A module reloaded keeps its namespace and gets new classes.
    if found is None or found[0] is not namespace or (
            found[1].SplitResult is not namespace.get("SplitResult")):
        found = _OWN[id(namespace)] = (namespace, _Own(_Namespace(namespace), original))
    return found[1]


def _clean(url, scheme):
    """The two fixes that change the input, exactly as the fixed releases write them."""
    url = url.lstrip(C0_CONTROL_OR_SPACE)  # gh-102153
    scheme = scheme.strip(C0_CONTROL_OR_SPACE)
    for unsafe in ("\t", "\r", "\n"):  # bpo-43882
        url = url.replace(unsafe, "")
        scheme = scheme.replace(unsafe, "")
    return url, scheme


def _strip_only(url, scheme):
    """gh-102153 alone (bpo-43882 left out)."""
    return url.lstrip(C0_CONTROL_OR_SPACE), scheme.strip(C0_CONTROL_OR_SPACE)


def _remove_only(url, scheme):
    """bpo-43882 alone (gh-102153 left out)."""
    for unsafe in ("\t", "\r", "\n"):
        url = url.replace(unsafe, "")
        scheme = scheme.replace(unsafe, "")
    return url, scheme


def _unchanged(url, scheme):
    return url, scheme


def cleaner(strip=True, remove=True):
    """The input fixes to apply: *strip* (CVE-2023-24329), *remove* (CVE-2022-0391)."""
    return {(True, True): _clean, (True, False): _strip_only,
            (False, True): _remove_only, (False, False): _unchanged}[bool(strip), bool(remove)]


def make_urlsplit(cache=None, clear=None, hosts=True, netloc_rule=True, original=None,
                  strip=True, remove=True):
    """A fixed ``urlsplit`` with the interpreter's own caching.

    3.11+: an ``lru_cache(typed=True)`` (*cache* unused). Before: results
    kept in the dict *cache* under upstream's key, emptied with *clear()*
    when it holds ``MAX_CACHE_SIZE`` entries. *hosts*, *netloc_rule*: see
    ``_hosts.check_brackets``; *strip*, *remove*: see :func:`cleaner`
    (each fix can be left out alone). *original*: the interpreter's own
    urlsplit.
    """
    facts = own(original)
    clean = cleaner(strip, remove)
    coerce_args = facts.coerce_args
    split_result = facts.SplitResult
    checknetloc = facts.checknetloc
    scheme_chars = facts.scheme_chars
    port_rule = facts.port_rule
    first_letter = facts.first_letter
    if not facts.lru:
        if cache is None:
            cache = {}
        if clear is None:
            clear = cache.clear
        max_cache = facts.max_cache

    def urlsplit(url, scheme="", allow_fragments=True):
        if type(url) is str and type(scheme) is str:
            coerce_result = None
            if cache is not None:
                # Keys are stored cleaned, and cleaning a clean URL changes
                # nothing: a URL found as it came is clean.
                cached = cache.get((url, scheme, bool(allow_fragments), str, str), None)
                if cached:
                    return cached
            if url[:1] <= " " or not url.isprintable():
                url, scheme = clean(url, scheme)
            elif scheme:
                scheme = clean("", scheme)[1]
        else:
            url, scheme, coerce_result = coerce_args(url, scheme)
            url, scheme = clean(url, scheme)
        # Where upstream calls bool(): first before 3.11 (the cache's key), after
        # the cleaning from 3.11 (an error of bool() comes before the host check).
        allow_fragments = bool(allow_fragments)
        if cache is not None:
            key = url, scheme, allow_fragments, type(url), type(scheme)
            cached = cache.get(key, None)
            if cached:
                return coerce_result(cached) if coerce_result else cached
            if len(cache) >= max_cache:
                clear()
        netloc = query = fragment = ""
        i = url.find(":")
        if i > 0 and (not first_letter or url[0] in _LETTERS):
            candidate = url[:i]
            if not candidate.lstrip(scheme_chars):
                rest = url[i + 1:]
                if (not port_rule or candidate == "http" or not rest
                        or rest.lstrip("0123456789")):
                    scheme, url = candidate.lower(), rest
        if url[:2] == "//":
            end = len(url)
            for delimiter in "/?#":
                found = url.find(delimiter, 2)
                if 0 <= found < end:
                    end = found
            netloc, url = url[2:end], url[end:]
            if "[" in netloc or "]" in netloc:
                check_brackets(netloc, hosts, netloc_rule)
        if allow_fragments:
            url, _, fragment = url.partition("#")
        url, _, query = url.partition("?")
        if checknetloc is not None and netloc and not _is_ascii(netloc):
            checknetloc(netloc)
        result = _tuple_new(split_result, (scheme, netloc, url, query, fragment))
        if cache is not None:
            cache[key] = result
        return coerce_result(result) if coerce_result else result

    urlsplit.__doc__ = facts.module.urlsplit.__doc__
    if facts.lru:
        import functools
        return functools.lru_cache(typed=True)(urlsplit)
    return urlsplit


def _is_ascii(text):
    """``str.isascii`` (3.7+, bpo-32677); 3.6 compares the largest character."""
    return max(text) < "\x80"


if hasattr(str, "isascii"):
    _is_ascii = str.isascii  # noqa: F811


def make_urlparse(urlsplit):
    """The interpreter's own ``urlparse``, splitting with *urlsplit*."""
    facts = own()
    coerce_args = facts.coerce_args
    parse_result = facts.ParseResult
    splitparams = facts.splitparams
    uses_params = facts.uses_params

    def urlparse(url, scheme="", allow_fragments=True):
        url, scheme, coerce_result = coerce_args(url, scheme)
        scheme, netloc, url, query, fragment = urlsplit(url, scheme, allow_fragments)
        if scheme in uses_params and ";" in url:
            url, params = splitparams(url)
        else:
            params = ""
        return coerce_result(_tuple_new(parse_result,
                                        (scheme, netloc, url, params, query, fragment)))

    urlparse.__doc__ = facts.module.urlparse.__doc__
    return urlparse
