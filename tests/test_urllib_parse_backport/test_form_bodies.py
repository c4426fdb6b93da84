"""Urlencoded POST bodies through ``cgi.FieldStorage`` and its copies: WebOb, Paste.

WebOb's ``request.POST`` reads urlencoded bodies with ``cgi.FieldStorage``
(``legacy-cgi`` on 3.13), which calls the stdlib's ``parse_qsl``; Paste 3.x
carries a copy of 3.x's ``FieldStorage`` that passes ``separator=`` to it, and
Paste on 2.7 uses 2.7's ``cgi``. So bodies are exactly as safe as the stdlib
parser: on an unfixed stdlib (2.7.18, the py3X-unfixed environments) the
smuggled field reaches the app until ``patch()`` (unforced there) fixes it,
and Paste 3.x cannot parse them at all (``separator`` unknown). Each case runs
in a fresh interpreter, the framework imported before ``patch()`` or after.
"""

import inspect
import sys

import pytest

from dependencies import importorskip
from stdlib_state import FORCE, UNFIXED, cgi_module

from fresh_interpreter import ATTACK, run_json

SCRIPT = """
import io, json, sys, warnings
FRAMEWORK, ORDER, FORCE = sys.argv[1], sys.argv[2], sys.argv[3] == 'force'
ATTACK = %(attack)r
BODY = ATTACK.encode('ascii')
ENVIRON = {'REQUEST_METHOD': 'POST', 'CONTENT_TYPE': 'application/x-www-form-urlencoded',
           'CONTENT_LENGTH': str(len(BODY)), 'QUERY_STRING': ''}


def shim():
    import urllib_parse_backport
    return urllib_parse_backport.patch(force=FORCE)


report = shim() if ORDER == 'patch-first' else None
with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    if FRAMEWORK == 'cgi':
        import cgi

        def serve():
            form = cgi.FieldStorage(fp=io.BytesIO(BODY), environ=dict(ENVIRON))
            return form.getlist('q'), form.getfirst('utm_content')
    elif FRAMEWORK == 'webob':
        import webob

        def serve():
            request = webob.Request.blank('/search', POST=ATTACK)
            return request.POST.getall('q'), request.POST.get('utm_content')
    else:
        from paste.request import parse_formvars

        def serve():
            environ = dict(ENVIRON, **{'wsgi.input': io.BytesIO(BODY)})
            fields = parse_formvars(environ, include_get_vars=False)
            return fields.getall('q'), fields.get('utm_content')
if ORDER == 'framework-first':
    report = shim()
try:
    q, utm_content = serve()
    result = {'q': q, 'utm_content': utm_content}
except Exception as exc:
    result = {'error': '%%s: %%s' %% (type(exc).__name__, exc)}
result['patched'] = bool(report)
print(json.dumps(result))
"""

SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": "s"}
SAFE = {"q": ["common_term"], "utm_content": "s;q=malicious_term"}
FRAMEWORKS = {"cgi": "cgi", "webob": "webob", "paste": "paste.request"}


def run_body(framework, order):
    if framework == "cgi":
        if cgi_module() is None:
            pytest.skip("no cgi module (3.13)")
    else:
        importorskip(FRAMEWORKS[framework])
    result = run_json(SCRIPT % {"attack": ATTACK},
                      [framework, order, "force" if FORCE else "plain"])
    return result.pop("patched"), result


def paste_passes_separator():
    """Paste 3.x's own FieldStorage copy calls parse_qsl(..., separator=...)."""
    try:
        from paste.util.field_storage import FieldStorage
    except ImportError:  # Paste on 2.7 uses the cgi module
        return False
    return "separator" in inspect.signature(FieldStorage).parameters


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
def test_without_the_shim(framework):
    patched, seen = run_body(framework, "no-shim")
    assert patched is False
    if not UNFIXED:
        assert seen == SAFE
    elif framework == "paste" and paste_passes_separator():
        assert seen["error"].startswith("TypeError: ") and "separator" in seen["error"]
    else:
        assert seen == SMUGGLED


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_patched_stdlib_parses_bodies_safely(framework, order):
    patched, seen = run_body(framework, order)
    assert patched is True
    assert seen == SAFE


def test_fieldstorage_bodies_in_this_process_follow_the_stdlib_parser():
    # In-process twin of the above for the stdlib cgi: the body parse goes
    # through the module-level parse_qsl that patch() replaces.
    import io

    import urllib_parse_backport as backport

    cgi = cgi_module()
    if cgi is None or not hasattr(cgi, "FieldStorage"):
        pytest.skip("no cgi module (3.13)")
    body = ATTACK.encode("ascii")

    def form_fields():
        form = cgi.FieldStorage(fp=io.BytesIO(body), environ={
            "REQUEST_METHOD": "POST", "CONTENT_TYPE": "application/x-www-form-urlencoded",
            "CONTENT_LENGTH": str(len(body))})
        return {"q": form.getlist("q"), "utm_content": form.getfirst("utm_content")}

    assert form_fields() == (SMUGGLED if UNFIXED else SAFE)
    backport.unpatch()
    try:
        assert bool(backport.patch(force=FORCE))
        assert form_fields() == SAFE
    finally:
        backport.unpatch()
    assert form_fields() == (SMUGGLED if UNFIXED else SAFE)
    assert sys.modules["cgi"] is cgi
