#!/usr/bin/env bash
# Checks a wheel as a user gets it: a fresh virtual environment (with the
# system's site packages, for pytest, pytest-xdist and boto3: Debian's
# python3-pytest, python3-pytest-xdist and python3-boto3), the wheel
# installed from its file with no index, no Go on PATH, then the plugin's
# own tests (python/tests) and the example suite (python/example) with
# four pytest-xdist workers.
#
#   python/test.sh WHEEL
#
# PYTHON (default /usr/bin/python3, else python3) makes the environment.
set -euo pipefail
[[ $# -eq 1 && -f $1 ]] || { echo "usage: python/test.sh WHEEL" >&2; exit 2; }
wheel=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")"
py=${PYTHON:-}
if [[ -z $py ]]; then
	py=python3
	[[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
fi
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
"$py" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --quiet --no-index --no-deps "$wheel"
# No Go and no dynamoemu on PATH: the wheel's binary is what runs.
clean_path=$(dirname "$venv/bin/python")
for d in /usr/local/bin /usr/bin /bin; do clean_path+=:$d; done
run() {
	env -u DYNAMOEMU_BINARY PATH="$clean_path" DYNAMOEMU_TEST_TIMEOUT_SCALE="${DYNAMOEMU_TEST_TIMEOUT_SCALE:-1}" "$@"
}
if run command -v go >/dev/null 2>&1; then
	echo "python/test.sh: note: go is on $clean_path; the wheel's binary is still the one found first" >&2
fi
run "$venv/bin/python" -c 'import dynamoemu, sys; b = dynamoemu.find_binary(); sys.exit(0 if "site-packages" in b else "the binary is not the wheel'"'"'s: " + b)'
# pytest exits 0 when every test passed, 1 when some failed, 5 when none ran.
status=0
(cd tests && run "$venv/bin/python" -m pytest -q -p no:cacheprovider -n 2) || status=$?
[[ $status -eq 0 ]] || { echo "python/test.sh: the plugin's tests failed (pytest exit $status)" >&2; exit 1; }
(cd example && run "$venv/bin/python" -m pytest -q -p no:cacheprovider -n 4) || status=$?
[[ $status -eq 0 ]] || { echo "python/test.sh: the example suite failed (pytest exit $status)" >&2; exit 1; }
echo "python/test.sh: $(basename "$wheel"): the plugin's tests and the example suite passed"
