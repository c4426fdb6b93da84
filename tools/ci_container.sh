#!/usr/bin/env bash
# Run one tox environment of tox.ini (py27, py36, py36-unfixed, compat-py27) where tox 4
# cannot run: in a container whose only interpreter is the one under test (the
# official python:2.7.18 and python:3.6.15 images; see .github/workflows/ci.yml).
# It does what tox does for that environment: a virtualenv with
# [testenv]'s deps, the wheel built from this tree installed into it, the
# environment's setenv and commands_pre, then [testenv]'s command (compat-py27:
# that environment's own deps and command).
# tools/check_release.py checks that these lines still say what tox.ini says.
#
#   bash tools/ci_container.sh py27
set -euo pipefail
env=${1:?usage: bash tools/ci_container.sh ENV (py27, py36, py36-unfixed, compat-py27)}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
case "$env" in
    py27|py36|py36-unfixed|compat-py27) ;;
    *) echo "tools/ci_container.sh: not a container environment: $env" >&2; exit 2 ;;
esac

venv=/tmp/ci-$env
dist=/tmp/ci-$env-dist
# The last virtualenv that runs on 2.7 (tooling.txt's 20.21.1 creates such
# environments but runs on 3.7+); it seeds the same pips for 2.7 and 3.6.
python -m pip install --quiet virtualenv==20.15.1
python -m virtualenv --quiet "$venv"
if [ "$env" = compat-py27 ]; then
    # deps of tox.ini's [testenv:compat-py27]:
    "$venv/bin/python" -m pip install -r tests/requirements/compat.txt
else
    # deps of tox.ini's [testenv]:
    "$venv/bin/python" -m pip install -r tests/requirements/test.txt \
        -r tests/requirements/frameworks.txt -r tests/requirements/audit.txt \
        -r tests/requirements/asgi.txt
fi
rm -rf "$dist"
"$venv/bin/python" -m pip wheel --no-deps --wheel-dir "$dist" .
"$venv/bin/python" -m pip install --no-deps "$dist"/*.whl
export PYTHONDONTWRITEBYTECODE=1
if [ "$env" = py36-unfixed ]; then
    export BACKPORT_TEST_UNFIXED_STDLIB=1
    "$venv/bin/python" tools/unfixed_stdlib.py "$venv/unfixed-stdlib"
fi
if [ "$env" = compat-py27 ]; then
    # commands of tox.ini's [testenv:compat-py27]:
    exec "$venv/bin/python" tools/compat_suites.py compat-py27 "$venv/compat"
fi
# commands of tox.ini's [testenv]:
exec "$venv/bin/python" -m pytest -p no:cacheprovider tests
