"""``CPYTHON_SECURITY_PATCH=1`` alone reaches the Django adapter, in fresh interpreters.

The umbrella means every fix this process needs: the stdlib's parsers and the
parsers frameworks wrote themselves (Django 1.11's ``limited_parse_qsl``, the
one the issue found exposed under the umbrella). Also when the framework is
the first module to import the stdlib parser, which then finds it half-imported.
And Django's own fix of ``URLValidator`` (CVE-2021-32052), which the removal of
tab, CR and LF from URLs (CVE-2022-0391's fix) makes necessary.
"""

import json
import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import run_code, run_json

DJANGO_FIRST = """
import json
import django.utils.http as http  # the first module to import the stdlib parser
print(json.dumps(http.limited_parse_qsl("q=a&u=s;q=b")))
"""

QUERYDICT = """
import json
from django.conf import settings
settings.configure()
from django.http import QueryDict
print(json.dumps(QueryDict("q=a&u=s;q=b").getlist("q")))
"""

LOGGED_LATER = """
import sys
import %s  # the stdlib parser: patched now, the adapters wait
import django.utils.http  # before the app configures logging
import logging
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%%(name)s %%(message)s")
logging.getLogger("app").info("configured")
""" % ("urlparse" if sys.version_info[0] == 2 else "urllib.parse",)


def django_parser():
    http = importorskip("django.utils.http")
    if not hasattr(http, "limited_parse_qsl"):
        pytest.skip("this Django has no limited_parse_qsl (removed in 4.0)")
    if len(http.limited_parse_qsl("a=1;b=2")) != 2:
        pytest.skip("this Django's limited_parse_qsl splits on '&' only")


@pytest.mark.parametrize("code", [DJANGO_FIRST, QUERYDICT], ids=["django-first", "querydict"])
def test_the_umbrella_alone_fixes_django(code):
    django_parser()
    assert run_json(code, CPYTHON_SECURITY_PATCH="1") in (
        [["q", "a"], ["u", "s;q=b"]], ["a"])
    # Without any switch, Django's own parser splits on ';'.
    assert run_json(code) in ([["q", "a"], ["u", "s"], ["q", "b"]], ["a", "b"])


def test_the_per_package_frameworks_value_waits_for_a_half_imported_module():
    django_parser()
    assert run_json(DJANGO_FIRST, URLLIB_PARSE_BACKPORT_PATCH="frameworks") == [
        ["q", "a"], ["u", "s;q=b"]]


def test_an_adapter_applied_later_is_in_the_apps_log():
    django_parser()
    code, out, err = run_code(LOGGED_LATER, CPYTHON_SECURITY_PATCH="1")
    assert code == 0, err
    lines = out.splitlines()
    assert any(line.startswith("urllib_parse_backport patched on import of django.utils.http")
               and "limited_parse_qsl" in line for line in lines), out
    assert lines[-1] == "app configured"


VALIDATOR = """
import json, logging, sys
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s %(message)s")
from django.core.validators import URLValidator, ValidationError

def verdict(value):
    try:
        URLValidator()(value)
    except ValidationError as exc:
        return exc.code
    return "accepted"

print(json.dumps([verdict(value) for value in sys.argv[1:]]))
"""

#: CVE-2021-32052's three examples (Django #32713), then an honest URL.
URLS = ["http://www.djangoproject.com/\n", "http://[::ffff:192.9.5.5]\n", "http://exam\tple.com/",
        "http://www.djangoproject.com/"]


def test_the_umbrella_alone_gives_url_validator_djangos_own_fix():
    # 2.7: the umbrella's urlsplit fix removes tab, CR and LF; 3.6+: the
    # interpreter's own does. Either way Django's fix comes with it, at import.
    validators = importorskip("django.core.validators")
    code, out, err = run_code(VALIDATOR, URLS, CPYTHON_SECURITY_PATCH="1")
    assert code == 0, err
    assert json.loads(out.splitlines()[-1]) == ["invalid", "invalid", "invalid", "accepted"]
    # The start-up log names the fix, where this Django lacks it (its fix added
    # URLValidator.unsafe_chars: 2.2.22, 3.1.10, 3.2.2).
    lacks = "unsafe_chars" not in vars(validators.URLValidator)
    assert ("urllib_parse_backport patched on import of django.core.validators: "
            "CVE-2021-32052 applied" in err.splitlines()) is lacks, err
