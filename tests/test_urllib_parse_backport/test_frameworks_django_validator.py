# -*- coding: utf-8 -*-
"""Django's own fix of CVE-2021-32052, which ``patch(frameworks=True)`` carries.

bpo-43882 (CVE-2022-0391) makes ``urlsplit`` remove tab, CR and LF; Django's
``URLValidator`` re-checks ``urlunsplit(urlsplit(value))``, and so accepts
``'http://www.djangoproject.com/\\n'`` once they are removed (Django ticket
#32713). Django fixed it in 2.2.22, 3.1.10 and 3.2.2; 1.11 never got it. The
pinned releases (tests/requirements/frameworks.txt): 1.11.29 on 2.7-3.7 and
3.1.6 on 3.8, both without the fix (2.7's urlsplit removes them once patched,
3.6+'s on its own); 2.2.28 on 3.9 and 5.2 on 3.10+, both with it.
"""

import types

import pytest

from dependencies import importorskip
from internals import FAILURE, _checks, kind_of

try:
    from urllib.parse import urlsplit
except ImportError:  # Python 2.7
    from urlparse import urlsplit

#: Django's own test values for the fix (tests/validators/tests.py, TEST_DATA,
#: "Newlines and tabs are not accepted."), and the issue's third example.
UNSAFE = [
    "http://www.djangoproject.com/\n",
    "http://[::ffff:192.9.5.5]\n",
    "http://www.djangoproject.com/\r",
    "http://[::ffff:192.9.5.5]\r",
    "http://www.django\rproject.com/",
    "http://[::\rffff:192.9.5.5]",
    "http://\twww.djangoproject.com/",
    "http://\t[::ffff:192.9.5.5]",
    "http://exam\tple.com/",
]

#: Values without tab, CR or LF, accepted or refused (Django's VALID_URLS and
#: TEST_DATA): each keeps the verdict of the unpatched validator.
OTHERS = [
    "http://www.djangoproject.com/",
    "HTTP://EXAMPLE.COM/",
    "http://[::ffff:192.9.5.5]",
    "http://[2001:db8::1]:8080/path?q=1#frag",
    u"http://例子.测试",
    "http://xn--7sbb4ac0ad0be6cf.xn--p1ai",
    "ftps://example.com/",
    "no_scheme",
    "http://www.asdasdasdasdsadfm.com.br z",
    "http://[::zzz]",
    "http://.com",
]

LABEL = "django.core.validators.URLValidator.__call__"


def validators():
    return importorskip("django.core.validators")


def verdict(module, value):
    """``"accepted"``, or the code of the ``ValidationError`` raised."""
    try:
        module.URLValidator()(value)
    except module.ValidationError as exc:
        return exc.code
    return "accepted"


def has_own_fix(module):
    """Django's fix added ``URLValidator.unsafe_chars`` (2.2.22, 3.1.10, 3.2.2)."""
    return "unsafe_chars" in vars(module.URLValidator)


def urlsplit_removes_tab():
    return urlsplit("http://a\tb/")[1] == "ab"


def test_patched_validator_refuses_tab_cr_lf_with_djangos_error(unpatched):
    module = validators()
    before = dict((value, verdict(module, value)) for value in OTHERS)
    unpatched.patch(frameworks=True)
    for value in UNSAFE:
        with pytest.raises(module.ValidationError) as caught:
            module.URLValidator()(value)
        assert caught.value.code == "invalid", value
        assert caught.value.message is module.URLValidator.message, value
    # Everything else is judged as before.
    assert dict((value, verdict(module, value)) for value in OTHERS) == before
    assert before["http://www.djangoproject.com/"] == "accepted"


def test_a_subclass_keeps_its_message_and_code(unpatched):
    module = validators()

    class HomePage(module.URLValidator):
        message = "Enter your home page."
        code = "home_page"

    unpatched.patch(frameworks=True)
    with pytest.raises(module.ValidationError) as caught:
        HomePage()("http://www.djangoproject.com/\n")
    assert (caught.value.message, caught.value.code) == ("Enter your home page.", "home_page")


def test_the_adapter_is_bound_and_unpatch_restores_the_original(unpatched):
    module = validators()
    if has_own_fix(module):
        pytest.skip("this Django carries its own fix of CVE-2021-32052")
    original = vars(module.URLValidator)["__call__"]
    report = unpatched.patch(frameworks=True)
    assert LABEL in report.changed
    assert report.fixes["CVE-2021-32052"] == "applied"
    assert vars(module.URLValidator)["__call__"] is not original
    restored = unpatched.unpatch()
    assert LABEL in restored.changed
    assert vars(module.URLValidator)["__call__"] is original
    assert not unpatched.is_patched()
    # The stock validator again: it accepts the newline where urlsplit removes it.
    assert verdict(module, UNSAFE[0]) == ("accepted" if urlsplit_removes_tab() else "invalid")


def test_a_django_with_its_own_fix_is_left_alone(unpatched):
    module = validators()
    if not has_own_fix(module):
        pytest.skip("this Django lacks its own fix of CVE-2021-32052")
    original = vars(module.URLValidator)["__call__"]
    report = unpatched.patch(frameworks=True)
    assert LABEL not in report.changed
    assert "CVE-2021-32052" not in report.fixes
    assert vars(module.URLValidator)["__call__"] is original
    reasons = dict(report.skipped)
    assert reasons["django.core.validators"] == (
        "refuses tab, CR and LF (its own check, or a urlsplit that keeps them)")
    assert verdict(module, UNSAFE[0]) == "invalid"


def test_bound_only_where_urlsplit_as_called_removes_the_newline(unpatched):
    # Leaving bpo-43882's fix out keeps 2.7's urlsplit as it is: Django then
    # refuses the newline on its own and nothing is bound. Where the
    # interpreter removes it itself (3.6+), Django's fix is needed all the same.
    module = validators()
    if has_own_fix(module):
        pytest.skip("this Django carries its own fix of CVE-2021-32052")
    report = unpatched.patch(frameworks=True, leave_out="CVE-2022-0391")
    assert (LABEL in report.changed) is urlsplit_removes_tab()
    assert verdict(module, UNSAFE[0]) == "invalid"


def test_status_names_the_check_and_its_cve(unpatched):
    module = validators()
    stock = verdict(module, UNSAFE[0]) == "accepted"  # 3.6+'s own urlsplit, unfixed Django
    entry, = [entry for entry in unpatched.status()["framework_checks"]
              if entry["check"] == LABEL]
    assert (entry["cve"], entry["after"], entry["installed"]) == (
        "CVE-2021-32052", "CVE-2022-0391", True)
    assert entry["exposed"] is stock
    unpatched.patch(frameworks=True)
    info = unpatched.status()
    entry, = [entry for entry in info["framework_checks"] if entry["check"] == LABEL]
    assert entry["exposed"] is False
    assert entry["patched"] is not has_own_fix(module)


def test_patch_without_frameworks_leaves_it_exposed_and_says_so(unpatched):
    # 2.7: the urlsplit fix alone makes an unfixed Django accept the newline;
    # the self-check reports it, and patch(frameworks=True) is what fixes it.
    module = validators()
    if has_own_fix(module):
        pytest.skip("this Django carries its own fix of CVE-2021-32052")
    unpatched.patch()
    info = unpatched.status()
    entry, = [entry for entry in info["framework_checks"] if entry["check"] == LABEL]
    assert entry["exposed"] is True
    assert info["exposed"] is True
    unpatched.patch(frameworks=True)
    entry, = [entry for entry in unpatched.status()["framework_checks"]
              if entry["check"] == LABEL]
    assert entry["exposed"] is False


# --------------------------------------------------------------------------
# The adapter on stand-in validators: Django's error as each release raises it.
# --------------------------------------------------------------------------

STAND_IN = '''
class ValidationError(Exception):
    def __init__(self, message, code=None, params=None):
        Exception.__init__(self, message)
        self.message, self.code, self.params = message, code, params


class URLValidator(object):
    message = "Enter a valid URL."
    code = "invalid"

    def __call__(self, value):
        # As Django 3.2.0/3.2.1 (WITH_VALUE) or 3.1.x: refuse a value with no scheme;
        # accept the rest, as an unfixed one does once urlsplit removes tab, CR, LF.
        if "://" not in value:
            if WITH_VALUE:
                raise ValidationError(self.message, code=self.code, params={"value": value})
            raise ValidationError(self.message, code=self.code)
'''


def stand_in(with_value):
    namespace = {"WITH_VALUE": with_value, "__name__": "django.core.validators"}
    exec(compile(STAND_IN, "<stand-in django.core.validators>", "exec"), namespace)
    return namespace


def check_adapter():
    adapter, = _checks.CHECKS
    return adapter


@pytest.mark.parametrize("with_value", [False, True], ids=["3.1", "3.2.0"])
def test_the_refusal_carries_the_value_where_this_djangos_refusals_do(with_value):
    namespace = stand_in(with_value)
    original = vars(namespace["URLValidator"])["__call__"]
    checked = check_adapter().wrap(original, None)
    with pytest.raises(namespace["ValidationError"]) as caught:
        checked(namespace["URLValidator"](), "http://www.djangoproject.com/\n")
    assert (caught.value.message, caught.value.code) == ("Enter a valid URL.", "invalid")
    assert caught.value.params == ({"value": "http://www.djangoproject.com/\n"}
                                   if with_value else None)
    assert checked(namespace["URLValidator"](), "http://www.djangoproject.com/") is None


def test_assess_says_why_it_leaves_a_validator_alone():
    adapter = check_adapter()
    missing = types.ModuleType("django.core.validators")
    assert adapter.assess(missing, {}) == (
        False, "django.core.validators.URLValidator.__call__ not found: unknown version")
    module = types.ModuleType("django.core.validators")
    module.URLValidator = object  # calling an instance raises TypeError: no probe result
    needs, reason = adapter.assess(module, {})
    assert needs is False
    assert kind_of(reason) == FAILURE
    module.__dict__.update(stand_in(False))
    assert adapter.assess(module, {}) == (True, adapter.exposed)
