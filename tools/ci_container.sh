#!/usr/bin/env bash
# Run one tox environment of tox.ini where tox 4 cannot run: in a container
# whose only interpreter is the one under test, the official image that
# tox.ini's ci_image names for it (tools/ci_matrix.py; .github/workflows/ci.yml
# runs each such environment this way).
# It does what tox does for that environment: a virtualenv with
# [testenv]'s deps, the wheel built from this tree installed into it, the
# environment's setenv and commands_pre, then [testenv]'s command (compat-*:
# that environment's own deps and command).
# tools/check_release.py checks that these lines still say what tox.ini says.
#
#   bash tools/ci_container.sh ENV
set -euo pipefail
env=${1:?usage: bash tools/ci_container.sh ENV (an environment of tox.ini with a ci_image)}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! image=$(python tools/ci_matrix.py image "$env"); then
    echo "tools/ci_container.sh: not a container environment: $env" >&2
    exit 2
fi
echo "tools/ci_container.sh: $env (tox.ini: ci_image = $image)"

venv=/tmp/ci-$env
dist=/tmp/ci-$env-dist
# The last virtualenv that runs on 2.7 (tooling.txt's 20.21.1 creates such
# environments but runs on 3.7+); it seeds the same pips for 2.7 and 3.6.
python -m pip install --quiet virtualenv==20.15.1
# Its own seed packages, never ones a background update fetched (as tox).
python -m virtualenv --quiet --no-periodic-update "$venv"
case "$env" in
    compat-*)
        # deps of tox.ini's [testenv:compat-py27]:
        "$venv/bin/python" -m pip install -r tests/requirements/compat.txt ;;
    *)
        # deps of tox.ini's [testenv], and its setenv's BACKPORT_TEST_REQUIREMENTS:
        deps="-r tests/requirements/test.txt -r tests/requirements/frameworks.txt
              -r tests/requirements/audit.txt -r tests/requirements/asgi.txt"
        # shellcheck disable=SC2086
        "$venv/bin/python" -m pip install $deps
        export BACKPORT_TEST_REQUIREMENTS="$deps" ;;
esac
rm -rf "$dist"
"$venv/bin/python" -m pip wheel --no-deps --wheel-dir "$dist" .
"$venv/bin/python" -m pip install --no-deps "$dist"/*.whl
export PYTHONDONTWRITEBYTECODE=1
if [[ "$env" = *-unfixed ]]; then
    export BACKPORT_TEST_UNFIXED_STDLIB=1
    "$venv/bin/python" tools/unfixed_stdlib.py "$venv/unfixed-stdlib"
fi
if [[ "$env" = compat-* ]]; then
    # commands of tox.ini's [testenv:compat-py27]:
    exec "$venv/bin/python" tools/compat_suites.py "$env" "$venv/compat"
fi
# commands of tox.ini's [testenv]:
exec "$venv/bin/python" -m pytest -p no:cacheprovider tests
