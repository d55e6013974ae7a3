#!/usr/bin/env bash
# On demand: the example suite's wall time (python/example, four
# pytest-xdist workers) with the plugin, beside the same suite with
# per-test tables (bench/per_test_tables.py) on DynamoDB Local
# (conformance/oracle/dynamodb-local.sh, which needs Java and npm), on
# moto's mock_aws where moto is importable, and on dynamoemu itself.
# Each way runs RUNS times (default 3); the best and the median are printed.
#
#   python/bench.sh WHEEL [RUNS]
#
# The suite runs in a fresh virtual environment with the wheel installed
# (as python/test.sh makes it). docs/python.md, "Figures", has the figures.
set -euo pipefail
[[ $# -ge 1 && -f $1 ]] || { echo "usage: python/bench.sh WHEEL [RUNS]" >&2; exit 2; }
wheel=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${2:-3}
cd "$(dirname "$0")"
here=$(pwd)
py=${PYTHON:-}
if [[ -z $py ]]; then
	py=python3
	[[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
fi
venv=$(mktemp -d)
emu_pid=
cleanup() {
	[[ -n $emu_pid ]] && kill "$emu_pid" 2>/dev/null
	rm -rf "$venv"
}
trap cleanup EXIT
"$py" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --quiet --no-index --no-deps "$wheel"
vpy=$venv/bin/python

# timed NAME ENV... -- ARGS: runs the suite RUNS times, prints its times.
timed() {
	local name=$1
	shift
	local envs=()
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	local times=()
	for ((i = 0; i < runs; i++)); do
		local t0 t1 status=0
		t0=$(date +%s.%N)
		(cd example && env "${envs[@]}" "$vpy" -m pytest -q -p no:cacheprovider -n 4 "$@" >"$venv/out.txt" 2>&1) || status=$?
		t1=$(date +%s.%N)
		if [[ $status -ne 0 ]]; then
			tail -20 "$venv/out.txt" >&2
			echo "python/bench.sh: $name: pytest exit $status" >&2
			return 1
		fi
		times+=("$(echo "$t1 - $t0" | bc)")
	done
	printf '%s\n' "${times[@]}" | sort -n | awk -v name="$name" '{ t[NR] = $1 } END { printf "%-44s best %6.2f s   median %6.2f s   (%s)\n", name, t[1], t[int((NR + 1) / 2)], tail(NR) } function tail(n,  s, i) { for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") t[i]; return s }'
}

echo "python/bench.sh: $(cd example && "$vpy" -m pytest -q --collect-only -p no:cacheprovider 2>/dev/null | tail -1), four workers, $runs runs each"
timed "dynamoemu, the plugin (a branch per test)" X=1 -- 
bin=$("$vpy" -c 'import dynamoemu; print(dynamoemu.find_binary())')
"$bin" -port 0 -host 127.0.0.1 2>"$venv/emu.log" &
emu_pid=$!
for _ in $(seq 100); do grep -q 'dynamoemu listening' "$venv/emu.log" && break; sleep 0.1; done
emu=http://$(sed -n 's/.*dynamoemu listening"\{0,1\} addr=\([^ ]*\).*/\1/p' "$venv/emu.log" | head -1)
timed "dynamoemu, per-test tables" PYTHONPATH="$here/bench" BENCH_ENDPOINT="$emu" -- -p no:dynamoemu -p per_test_tables
# A DynamoDB Local of this run's own (DYNAMODB_LOCAL_RUN), stopped at the
# end; one another run started is left alone.
export DYNAMODB_LOCAL_RUN=$venv/ddblocal
mkdir -p "$DYNAMODB_LOCAL_RUN"
if local_url=$(../conformance/oracle/dynamodb-local.sh start); then
	timed "DynamoDB Local, per-test tables" PYTHONPATH="$here/bench" BENCH_ENDPOINT="$local_url" -- -p no:dynamoemu -p per_test_tables
	../conformance/oracle/dynamodb-local.sh stop >/dev/null 2>&1 || true
else
	echo "python/bench.sh: DynamoDB Local did not start: left out" >&2
fi
if "$vpy" -c 'import moto' 2>/dev/null; then
	timed "moto mock_aws, per-test tables" PYTHONPATH="$here/bench" BENCH_MOTO=1 -- -p no:dynamoemu -p per_test_tables
else
	echo "python/bench.sh: moto is not installed: its run is left out"
fi
