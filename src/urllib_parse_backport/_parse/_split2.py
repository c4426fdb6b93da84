"""``urlsplit``/``urlparse`` for Python 2.7: 2.7.18's ``urlparse`` plus the four later fixes.

2.7 never got these fixes upstream; they are applied as the 3.x releases
apply them (see ``_split3``): CVE-2023-24329 (gh-102153) strips leading C0
controls and spaces, CVE-2022-0391 (bpo-43882) removes tab, CR and LF,
CVE-2024-11168 (gh-103848) and CVE-2025-0938 (gh-105704) check bracketed
hosts. Everything else is 2.7.18's: ``str`` in, ``str`` out, ``unicode`` in,
``unicode`` out, no coercion, the ``_parse_cache`` dict, the scheme rules
(a port-like rest stays in the path unless the scheme is ``http``) and the
NFKC check of ``unicode`` netlocs (bpo-36216). ``urlparse`` is imported on
the first split.
"""

from .._compat import string_types, text_type
from ._hosts import check_brackets

__all__ = ["make_urlsplit", "make_urlparse", "own", "cleaner", "C0_CONTROL_OR_SPACE"]

#: gh-102153's ``_WHATWG_C0_CONTROL_OR_SPACE``: \x00-\x1f and the space.
C0_CONTROL_OR_SPACE = "".join(map(chr, range(0x21)))

_tuple_new = tuple.__new__


class _Own(object):
    """What the fixes leave as 2.7's ``urlparse`` has it."""

    def __init__(self, module):
        self.module = module
        self.SplitResult = module.SplitResult
        self.ParseResult = module.ParseResult
        self.splitparams = module._splitparams
        self.uses_params = module.uses_params
        self.scheme_chars = module.scheme_chars
        self.max_cache = getattr(module, "MAX_CACHE_SIZE", 20)
        self.checknetloc = getattr(module, "_checknetloc", None)  # bpo-36216, 2.7.17+
        self.lru = False


_OWN = {}


class _Namespace(object):
    """A module's namespace read as attributes: the module a function runs in,
    which may no longer be the one ``sys.modules`` holds (imported anew)."""

    def __init__(self, namespace):
        self.__dict__ = namespace


def own(original=None):
    """The facts of the ``urlparse`` *original* (its ``urlsplit``) runs in, computed
    once per module; default: the module ``sys.modules`` holds."""
    if original is None:
        import urlparse as module
        namespace = vars(module)
    else:
        namespace = original.__globals__
    found = _OWN.get(id(namespace))
    # A module reloaded keeps its namespace and gets new classes.
    if found is None or found[0] is not namespace or (
            found[1].SplitResult is not namespace.get("SplitResult")):
        found = _OWN[id(namespace)] = (namespace, _Own(_Namespace(namespace)))
    return found[1]


def _strip(text):
    """gh-102153: leading C0 controls and spaces."""
    return text.lstrip(C0_CONTROL_OR_SPACE)


def _remove(text):
    """bpo-43882: tab, CR and LF anywhere."""
    for unsafe in ("\t", "\r", "\n"):
        text = text.replace(unsafe, "")
    return text


def _clean(text):
    """gh-102153's lstrip, then bpo-43882's removals, for a ``str`` or ``unicode`` URL."""
    return _remove(text.lstrip(C0_CONTROL_OR_SPACE))


def _unchanged(text):
    return text


def cleaner(strip=True, remove=True):
    """``(clean URL, clean scheme)``: the input fixes to apply, *strip*
    (CVE-2023-24329: the scheme is stripped at both ends) and *remove*
    (CVE-2022-0391)."""
    url = {(True, True): _clean, (True, False): _strip,
           (False, True): _remove, (False, False): _unchanged}[bool(strip), bool(remove)]
    if strip:
        return url, lambda scheme: url(scheme.rstrip(C0_CONTROL_OR_SPACE))
    return url, url


def make_urlsplit(cache=None, clear=None, hosts=True, netloc_rule=True, original=None,
                  strip=True, remove=True):
    """A fixed 2.7 ``urlsplit`` keeping results in the dict *cache* (a new one by
    default), emptied with *clear()* at ``MAX_CACHE_SIZE`` entries. *hosts*,
    *netloc_rule*: see ``_hosts.check_brackets``; *strip*, *remove*: see
    :func:`cleaner` (each fix can be left out alone)."""
    facts = own(original)
    clean_url, clean_scheme = cleaner(strip, remove)
    split_result = facts.SplitResult
    checknetloc = facts.checknetloc
    scheme_chars = facts.scheme_chars
    max_cache = facts.max_cache
    if cache is None:
        cache = {}
    if clear is None:
        clear = cache.clear
    cache_get = cache.get

    def urlsplit(url, scheme="", allow_fragments=True):
        if allow_fragments is not True:  # bool(True) is True: the default skips a call
            allow_fragments = bool(allow_fragments)
        # Keys are stored cleaned, and cleaning a clean URL changes nothing:
        # a URL found as it came is clean, and its result is the fixed one.
        # An unhashable argument raises TypeError here, as in 2.7.18.
        key = url, scheme, allow_fragments, type(url), type(scheme)
        cached = cache_get(key, None)
        if cached:
            return cached
        if isinstance(url, string_types):
            raw = url, scheme
            if url[:1] <= " " or "\t" in url or "\r" in url or "\n" in url:
                url = clean_url(url)
            if scheme and isinstance(scheme, string_types):
                scheme = clean_scheme(scheme)
            if (url, scheme) != raw:
                key = url, scheme, allow_fragments, type(url), type(scheme)
                cached = cache_get(key, None)
                if cached:
                    return cached
        if len(cache) >= max_cache:
            clear()
        netloc = query = fragment = ""
        i = url.find(":")
        if i > 0:
            candidate = url[:i]
            if not candidate.lstrip(scheme_chars):
                rest = url[i + 1:]
                if candidate == "http" or not rest or rest.lstrip("0123456789"):
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
        if allow_fragments and "#" in url:
            url, fragment = url.split("#", 1)
        if "?" in url:
            url, query = url.split("?", 1)
        if checknetloc is not None and netloc and isinstance(netloc, text_type):
            checknetloc(netloc)
        result = _tuple_new(split_result, (scheme, netloc, url, query, fragment))
        cache[key] = result
        return result

    urlsplit.__doc__ = facts.module.urlsplit.__doc__
    return urlsplit


def make_urlparse(urlsplit):
    """2.7.18's own ``urlparse``, splitting with *urlsplit*."""
    facts = own()
    parse_result = facts.ParseResult
    splitparams = facts.splitparams
    uses_params = facts.uses_params

    def urlparse(url, scheme="", allow_fragments=True):
        scheme, netloc, url, query, fragment = urlsplit(url, scheme, allow_fragments)
        if scheme in uses_params and ";" in url:
            url, params = splitparams(url)
        else:
            params = ""
        return _tuple_new(parse_result, (scheme, netloc, url, params, query, fragment))

    urlparse.__doc__ = facts.module.urlparse.__doc__
    return urlparse
