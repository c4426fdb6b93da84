"""CVE-2025-6069 (gh-135462): what close() reports for a construct EOF leaves open.

Upstream's tests of commit 6eb6c5db (``Lib/test/test_htmlparser.py``):
``test_eof_in_comments``, ``test_eof_in_declarations`` (with its CDATA
lines), the lines of ``test_starttag_junk_chars`` and
``test_tolerant_parsing`` the commit changed, and
``test_eof_no_quadratic_complexity`` as counted work at n and 4n. Each
expected list is upstream's; each also runs on the stock parser, where it
shows the unfixed rescan (or, where the stock parser has the fix, passes).
"""

import pytest

from html_events import expect, growth, stdlib
from html_parser_backport import is_vulnerable

# test_eof_in_comments
EOF_IN_COMMENTS = [
    ('<!--', [('comment', '')]),
    ('<!---', [('comment', '')]),
    ('<!----', [('comment', '')]),
    ('<!-----', [('comment', '-')]),
    ('<!------', [('comment', '--')]),
    ('<!----!', [('comment', '')]),
    ('<!---!', [('comment', '-!')]),
    ('<!---!>', [('comment', '-!>')]),
    ('<!--foo', [('comment', 'foo')]),
    ('<!--foo-', [('comment', 'foo')]),
    ('<!--foo--', [('comment', 'foo')]),
    ('<!--foo--!', [('comment', 'foo')]),
    ('<!--<!--', [('comment', '<!')]),
    ('<!--<!--!', [('comment', '<!')]),
]

# test_eof_in_declarations (the CDATA lines: 6eb6c5db's, before gh-102555 moved them)
EOF_IN_DECLARATIONS = [
    ('<!', [('comment', '')]),
    ('<!-', [('comment', '-')]),
    ('<![', [('comment', '[')]),
    ('<![CDATA[', [('unknown decl', 'CDATA[')]),
    ('<![CDATA[x', [('unknown decl', 'CDATA[x')]),
    ('<![CDATA[x]', [('unknown decl', 'CDATA[x]')]),
    ('<![CDATA[x]]', [('unknown decl', 'CDATA[x]]')]),
    ('<!DOCTYPE', [('decl', 'DOCTYPE')]),
    ('<!DOCTYPE ', [('decl', 'DOCTYPE ')]),
    ('<!DOCTYPE html', [('decl', 'DOCTYPE html')]),
    ('<!DOCTYPE html ', [('decl', 'DOCTYPE html ')]),
    ('<!DOCTYPE html PUBLIC', [('decl', 'DOCTYPE html PUBLIC')]),
    ('<!DOCTYPE html PUBLIC "foo', [('decl', 'DOCTYPE html PUBLIC "foo')]),
    ('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "foo',
     [('decl', 'DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "foo')]),
]

# test_starttag_junk_chars: the lines gh-135462 changed, and those around them it kept
JUNK_CHARS = [
    ("<", [('data', '<')]),
    ("<>", [('data', '<>')]),
    ("< >", [('data', '< >')]),
    ("< ", [('data', '< ')]),
    ("</>", []),
    ("<$>", [('data', '<$>')]),
    ("</$>", [('comment', '$')]),
    ("</", [('data', '</')]),
    ("</a", []),
    ("</ a", [('comment', ' a')]),
    ("<a<a>", [('starttag', 'a<a', [])]),
    ("</a<a>", [('endtag', 'a<a')]),
    ("<!", [('comment', '')]),
    ("<a", []),
    ("<a foo='bar'", []),
    ("<a foo='bar", []),
    ("<a foo='>'", []),
    ("<a foo='>", []),
    ("<a$>", [('starttag', 'a$', [])]),
    ("<a$b>", [('starttag', 'a$b', [])]),
    ("<a$b/>", [('startendtag', 'a$b', [])]),
    ("<a$b  >", [('starttag', 'a$b', [])]),
    ("<a$b  />", [('startendtag', 'a$b', [])]),
]

# test_tolerant_parsing: the start tag whose quoted value EOF leaves open is dropped
TOLERANT = ('<html <html>te>>xt&a<<bc</a></html>\n'
            '<img src="URL><//img></html</html>')
TOLERANT_EVENTS = [
    ('starttag', 'html', [('<html', None)]),
    ('data', 'te>>xt'),
    ('entityref', 'a'),
    ('data', '<'),
    ('starttag', 'bc<', [('a', None)]),
    ('endtag', 'html'),
    ('data', '\n'),
]

CASES = EOF_IN_COMMENTS + EOF_IN_DECLARATIONS + JUNK_CHARS + [(TOLERANT, TOLERANT_EVENTS)]


@pytest.mark.parametrize("source, expected", CASES)
def test_upstream_expectations(html_patched, source, expected):
    assert expect(source) == expected
    assert expect(list(source)) == expected  # fed a character at a time


@pytest.mark.parametrize("source, expected", EOF_IN_COMMENTS + EOF_IN_DECLARATIONS)
def test_the_stock_parser_reports_them_as_data(source, expected):
    # Unfixed: each construct EOF leaves open comes out as data (the rescan).
    events = expect(source)
    assert (events == [('data', source)]) is is_vulnerable()
    assert (events == expected) is not is_vulnerable()


@pytest.mark.parametrize("convert_charrefs", [False, True])
def test_what_comes_before_the_open_construct_is_as_stock(convert_charrefs):
    source = "<p class=x>a &amp; b</p><!-- c -->"
    stock = expect(source + "<a href='", convert_charrefs)
    assert stock[:-1] == expect(source, convert_charrefs)
    import html_parser_backport
    html_parser_backport.patch(force=True)
    assert expect(source + "<a href='", convert_charrefs) == stock[:-1]
    assert expect(source + "<!--x--", convert_charrefs) == stock[:-1] + [("comment", "x")]


# test_eof_no_quadratic_complexity: upstream's inputs, n of each unit
UPSTREAM_UNITS = [("<a ", 1), ("<a a=", 1), ("</a ", 14), ("</a a=", 11), ("<!--", 4),
                  ("<!", 60), ("<?", 19), ("</$", 15), ("<![CDATA[", 9), ("<!doctype", 35)]


@pytest.mark.parametrize("unit, times", UPSTREAM_UNITS)
def test_close_works_linearly(html_patched, unit, times):
    assert growth(lambda n: [unit * (times * n // 20 + 1)]) < 4 * 1.5


@pytest.mark.parametrize("unit", ["<a ", "<!--", "</$"])
def test_the_measure_sees_the_quadratic_stock_close(unit):
    assert (growth(lambda n: [unit * n]) > 4 * 2.5) is is_vulnerable()


def test_the_brief_s_attack_is_linear(html_patched):
    assert growth(lambda n: ["<a " * n + "<!--" * (4 * n)]) < 4 * 1.5


def test_needs_fix_reads_behaviour_not_the_version(html_unpatched):
    from internals import shared_registry
    rows = shared_registry.fixes_of("html_parser_backport")
    eof = __import__(rows[0].fix, None, None, ("needs_fix",))
    assert eof.needs_fix(stdlib) is is_vulnerable()
    html_unpatched.patch(force=True)
    assert not eof.needs_fix(stdlib)
