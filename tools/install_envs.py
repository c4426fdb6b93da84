"""Fresh environments, and one installation checked end to end (for tools/check_install.py).

An installation passes when pip names it ``cpython-security-backports``
at the built version (an sdist that a setuptools could not read installs as
"UNKNOWN 0.0.0" and fails here), every package of the registry imports from
site-packages at that version, the query parser parses the attack query
safely, the ``.pth`` file activates the shim at start-up, and ``pip
uninstall`` leaves site-packages exactly as it found it.
"""

from __future__ import print_function

import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "cpython-security-backports"
ATTACK = "q=common_term&utm_content=s;q=malicious_term"
SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}

SMOKE = (
    "import urllib_parse_backport as u, sys;"
    "from _cpython_security._registry import PACKAGES;"
    "r = u.parse_qs(%r);"
    "assert r == %r, r;"
    "packages = [__import__(name) for name in PACKAGES];"
    "assert [p.__version__ for p in packages] == [u.__version__] * len(packages);"
    "assert all('site-packages' in p.__file__ for p in packages), u.__file__;"
    "print(u.__version__)" % (ATTACK, SAFE)
)

#: Run with the activation variable set: the .pth file must have patched.
#: The ASGI middleware: importable on 3.x, a clear ImportError on 2.7.
ASGI_IMPORT = (
    "import sys\n"
    "try:\n"
    "    import urllib_parse_backport.asgi as asgi\n"
    "except ImportError as exc:\n"
    "    assert sys.version_info[0] == 2 and 'needs Python 3' in str(exc), exc\n"
    "else:\n"
    "    assert sys.version_info[0] == 3 and asgi.protect, asgi\n"
)

ACTIVATED = (
    "import sys;"
    "stdlib = __import__('urlparse' if sys.version_info[0] == 2 else 'urllib.parse',"
    " None, None, ['parse_qs']);"
    "backport = sys.modules.get('urllib_parse_backport');"
    "assert backport is not None and backport.is_patched(), 'not activated at start-up';"
    "r = stdlib.parse_qs(%r);"
    "assert r == %r, r" % (ATTACK, SAFE)
)

PROBE = ("import sys; m = __import__('urlparse' if sys.version_info[0] == 2 else 'urllib.parse',"
         " None, None, ['parse_qsl']); print(len(m.parse_qsl('a=1;b=2')) == 2)")


class InstallError(Exception):
    """A check failed; the message says how."""


def _environ(extra=None, isolated=False):
    # Every virtualenv made here (build's isolated ones too) seeds the pip,
    # setuptools and wheel it ships, never ones it downloaded in the background
    # before: what is tested does not depend on the host's history.
    environ = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", VIRTUALENV_NO_PERIODIC_UPDATE="1")
    environ.pop("URLLIB_PARSE_BACKPORT_PATCH", None)
    environ.pop("PYTHONPATH", None)
    if isolated:  # no index, no find-links, no config but the command line
        for name in list(environ):
            if name.startswith("PIP_"):
                del environ[name]
        environ["PIP_CONFIG_FILE"] = os.devnull
    environ.update(extra or {})
    return environ


def run_status(args, env=None, cwd=None):
    """``(exit status, stdout and stderr)`` of *args*."""
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, cwd=cwd,
                               env=env if env is not None else _environ())
    out = process.communicate()[0]
    return process.returncode, out


def run(args, env=None, cwd=None):
    """The output of *args*; InstallError if it fails."""
    code, out = run_status(args, env=env, cwd=cwd)
    if code != 0:
        raise InstallError("%s failed (%d):\n%s" % (" ".join(args), code, out))
    return out


def interpreter(version):
    python = shutil.which("python" + version)
    if python is None:
        raise InstallError("python%s not found on PATH" % version)
    return python


def fresh_env(version, where):
    """A new environment whose pip is the one the interpreter itself bundles."""
    python = interpreter(version)
    if version == "2.7":
        # 2.7 has no venv module: make a bare virtualenv, then let the
        # interpreter's own ensurepip seed it.
        run([sys.executable, "-m", "virtualenv", "--no-seed", "--no-periodic-update", "-p",
             python, where])
        run([os.path.join(where, "bin", "python"), "-m", "ensurepip"])
    else:
        run([python, "-m", "venv", where])
    return os.path.join(where, "bin", "python")


def legacy_env(version, where, pip, setuptools, app_data):
    """A virtualenv with exactly this pip and setuptools, and no ``wheel``."""
    args = [sys.executable, "-m", "virtualenv", "-p", interpreter(version), "--no-wheel",
            "--no-periodic-update", "--pip", pip, "--app-data", app_data, where]
    if setuptools:
        args[-1:-1] = ["--setuptools", setuptools]
    run(args)
    return os.path.join(where, "bin", "python")


def stdlib_unfixed(python):
    """Whether that interpreter's stdlib splits on ';' (decided by behaviour)."""
    return run([python, "-c", PROBE]).strip() == "True"


#: Whether the stdlib's urllib.parse lacks any fix the package carries: parse_qsl
#: splits on ';', or urlsplit keeps a leading blank or a tab, or accepts an IPv4
#: address in brackets or text after them (the registry's probes, by behaviour).
LACKS_PROBE = """
import sys
m = __import__('urlparse' if sys.version_info[0] == 2 else 'urllib.parse', None, None, ['x'])
def accepts(url):
    try:
        m.urlsplit(url)
    except ValueError:
        return False
    return True
print(len(m.parse_qsl('a=1;b=2')) == 2 or m.urlsplit(' http://h/')[1] != 'h'
      or m.urlsplit('http://a\\tb/')[1] != 'ab' or accepts('http://[1.2.3.4]/')
      or accepts('http://[::1]evil/'))
"""


def stdlib_lacks_a_fix(python):
    """Whether that interpreter's urllib.parse lacks any fix of the package."""
    return run([python, "-c", LACKS_PROBE]).strip() == "True"


def site_packages(python):
    return run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
               ).strip()


def snapshot(directory):
    found = set()
    for parent, dirs, files in os.walk(directory):
        for name in dirs + files:
            found.add(os.path.relpath(os.path.join(parent, name), directory))
    return found


def uncompiled(added):
    """The modules among *added* (paths under site-packages) without a compiled file,
    when the installer compiled any (a ``setup.py install`` under
    PYTHONDONTWRITEBYTECODE compiles none)."""
    missing, compiled = [], 0
    for name in added:
        if not name.endswith(".py"):
            continue
        folder, base = os.path.split(name)
        cache = os.path.join(folder, "__pycache__", base[:-3] + ".")
        if name + "c" not in added and not any(
                other.startswith(cache) and other.endswith(".pyc") for other in added):
            missing.append(name)
        else:
            compiled += 1
    return sorted(missing) if compiled else []


def install_and_check(python, pip_args, expect=None, isolated=False):
    """Install with ``pip install *pip_args*``, check everything, uninstall; a summary."""
    where = site_packages(python)
    before = snapshot(where)
    pip = [python, "-m", "pip"]
    output = run(pip + ["install", "--disable-pip-version-check"] + list(pip_args),
                 env=_environ(isolated=isolated))
    added = snapshot(where) - before
    # pip byte-compiles every module (2.7 included, the ASGI ones too): a
    # SyntaxError leaves a module without its compiled file, and shows.
    shown = [line for line in output.splitlines()
             if "SyntaxError" in line or "Error compiling" in line or "SyntaxWarning" in line]
    if shown or uncompiled(added):
        raise InstallError("byte-compiling at install failed: %s; not compiled: %s"
                           % (shown, uncompiled(added)))
    run([python, "-c", ASGI_IMPORT])
    if "cpython_security_patch.pth" not in added:
        raise InstallError("no .pth file installed; added: %s" % sorted(added))
    version = run([python, "-c", SMOKE]).strip()
    shown = run(pip + ["show", "--disable-pip-version-check", NAME]).splitlines()
    if "Name: " + NAME not in shown or "Version: " + version not in shown:
        raise InstallError("pip show does not name %s %s:\n%s" % (NAME, version, shown))
    metadata = [name for name in added if re.match(
        r"cpython_security_backports-%s(-py\d\.\d+)?\.(dist|egg)-info$"
        % re.escape(version), name)]
    if len(metadata) != 1 or (expect and not metadata[0].endswith(expect)):
        raise InstallError("expected one %s directory, added: %s" % (expect, sorted(added)))
    value = "1" if stdlib_unfixed(python) else "force"
    run([python, "-c", ACTIVATED], env=_environ({"URLLIB_PARSE_BACKPORT_PATCH": value}))
    run(pip + ["uninstall", "--disable-pip-version-check", "-y", NAME])
    after = snapshot(where)
    if after != before:
        raise InstallError("pip uninstall left %s and removed %s"
                           % (sorted(after - before), sorted(before - after)))
    pth = sorted(name for name in added if name.endswith(".pth"))
    return "%s %s, URLLIB_PARSE_BACKPORT_PATCH=%s at start-up, uninstall removed all %d " \
           "(%s)" % (version, metadata[0].rpartition(".")[2], value, len(added), ", ".join(pth))
