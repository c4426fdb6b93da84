"""Framework adapters change the separator and nothing else.

For every framework parser installed here, the adapter's replacement is built
directly (no global patch) and compared with the framework's own parser on
generated queries, with each of the parser's flags:

* default policy: ``replacement(q) == original(q with ';' as '%3B')``, results
  and exceptions alike: ``;`` becomes data, everything else (types, blank
  values, ``+``, percent-decoding, errors) is the framework's;
* ``PYTHON_URLLIB_QS_SEPARATOR=;``: ``'&'`` becomes data and ``';'`` the separator;
* ``legacy``: the framework's own split on both.
"""

import importlib
import random
import warnings

import pytest

from internals import _frameworks, _policy

FIELDS = [u"a=1", u"a=", u"a", u"=b", u"", u"q=x+y", u"q=%3B", u"q=%26", u"bad=%",
          u"k%20=v", u"a=b=c", u"+=+", u"q=%E2%82%AC", u"q=%ZZ", u"\u00e9=\u00fc", u"x=1"]


def queries(count=400, seed=42023):
    rng = random.Random(seed)
    found = [u"", u";", u"&", u";;&&", u"a=1;b=2", u"q=common_term&utm_content=s;q=malicious_term"]
    for _ in range(count):
        pieces = [rng.choice(FIELDS) for _ in range(rng.randint(1, 5))]
        query = pieces[0]
        for piece in pieces[1:]:
            query += rng.choice(u"&;") + piece
        found.append(query)
    return found


def _outcome(call):
    try:
        return "ok", call()
    except Exception as exc:
        return "raised", type(exc).__name__, str(exc)


def _load(adapter):
    """The framework's own parser (a function, or a method as its class holds
    it), or skip: not installed, or no fix needed here."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = importlib.import_module(adapter.module)
    except ImportError as exc:
        pytest.skip("%s not importable: %s" % (adapter.module, exc))
    needs_fix, reason = adapter.assess(module, {})
    if not needs_fix:
        pytest.skip("%s: %s" % (adapter.module, reason))
    found = module
    for name in adapter.attribute.split("."):
        found = getattr(found, name)
    return found


def _text(query):
    return query


def _utf8(query):
    return query.encode("utf-8")


def _body_call(process):
    """process_urlencoded(entity) as a function of the body: the params it sets."""
    def call(query):
        entity = _frameworks._ProbeEntity(query)
        process(entity)
        return entity.params
    return call


class _Streamed(object):
    """A streaming parser's ``write(self, data)``: the fields a fresh
    ``QuerystringParser`` (with *strict_parsing*) reports for one body."""

    def __init__(self, module, strict_parsing):
        self.module, self.strict_parsing = module, strict_parsing

    def call(self, write):
        parser_class = importlib.import_module(self.module).QuerystringParser

        def fields_of(body):
            fields, current = [], []

            def start():
                current[:] = [b"", b""]

            def part(index):
                def add(data, begin, end):
                    current[index] += data[begin:end]
                return add

            parser = parser_class(callbacks={
                "on_field_start": start, "on_field_name": part(0), "on_field_data": part(1),
                "on_field_end": lambda: fields.append(tuple(current))},
                strict_parsing=self.strict_parsing)
            write(parser, body)
            parser.finalize()
            return fields
        return fields_of


#: module -> (how a query is given to the parser, the flag combinations to try)
CASES = {
    "webob.compat": (_text, [()]),
    "cherrypy.lib.httputil": (_text, [(), (1,), (0, 1), (1, 1)]),
    "cherrypy._cpreqbody": (_utf8, [None]),
    "twisted.web.http": (_utf8, [(), (1,), (0, 1), (1, 1)]),
    "bottle": (_text, [()]),
    "django.utils.http": (_text, [(), (True,)]),
    "python_multipart.multipart": (_utf8, [_Streamed("python_multipart.multipart", False),
                                           _Streamed("python_multipart.multipart", True)]),
    "multipart.multipart": (_utf8, [_Streamed("multipart.multipart", False),
                                    _Streamed("multipart.multipart", True)]),
}


def _calls(parser, extra):
    if extra is None:  # a body processor, called with an entity
        return _body_call(parser)
    if isinstance(extra, _Streamed):  # a streaming parser's write()
        return extra.call(parser)
    return lambda query: _materialise(parser(query, *extra))


def _materialise(result):
    return result if isinstance(result, dict) else list(result)


@pytest.fixture
def policy():
    def use(setting):
        _policy.read_environment({} if setting is None else
                                 {"PYTHON_URLLIB_QS_SEPARATOR": setting})
    yield use
    _policy.read_environment()


ADAPTERS = [pytest.param(adapter, id=adapter.module) for adapter in _frameworks.ADAPTERS]

#: policy setting -> how the original must see the query for the same result
EQUIVALENT = [
    (None, lambda q: q.replace(u";", u"%3B")),
    (u";", lambda q: q.replace(u"&", u"%26").replace(u";", u"&")),
    (u"legacy", lambda q: q),
]


@pytest.mark.parametrize("setting, rewrite", EQUIVALENT, ids=["default", "semicolon", "legacy"])
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_only_the_separator_changes(adapter, setting, rewrite, policy):
    original = _load(adapter)
    replacement = adapter.wrap(original, None)
    assert replacement is not None
    policy(setting)
    encode, flag_sets = CASES[adapter.module]
    compared = 0
    for extra in flag_sets:
        fixed, own = _calls(replacement, extra), _calls(original, extra)
        for query in queries():
            expected = _outcome(lambda: own(encode(rewrite(query))))
            assert _outcome(lambda: fixed(encode(query))) == expected, (query, extra)
            compared += 1
        if setting is None:  # and the adapter does change something
            attack = encode(u"q=common_term&utm_content=s;q=malicious_term")
            assert _outcome(lambda: fixed(attack)) != _outcome(lambda: own(attack))
    assert compared >= 400


def test_every_adapter_has_a_case():
    assert sorted(CASES) == sorted(adapter.module for adapter in _frameworks.ADAPTERS)
