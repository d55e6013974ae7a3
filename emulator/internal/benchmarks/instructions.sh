#!/usr/bin/env bash
# Instructions per operation of BenchmarkOps/<op>/handler, counted by
# valgrind's callgrind: Ir(N=7000) - Ir(N=1000), divided by 6000, so the
# process's start-up and the benchmark's set-up cancel out. Counts, not
# seconds: repeatable whatever else the machine is doing.
#   emulator/internal/benchmarks/instructions.sh [DIR] [OPS...]
# DIR: a checkout (default: this one). Needs valgrind (Debian: valgrind).
# TAGS=nostages counts a build that installs no stage ("no stage
# watching"); a checkout without the tag builds as it always does.
set -euo pipefail
dir=${1:-$(git rev-parse --show-toplevel)}; shift || true
ops=${*:-PutItem GetItem UpdateItemCondition QueryPartition10 ScanFiltered TransactWrite2 TransactGet2}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pkg=./emulator/internal/benchmarks; [[ -d $dir/$pkg ]] || pkg=./emulator/benchmarks # an older checkout
(cd "$dir" && go test -c -tags "${TAGS:-}" -o "$tmp/bench.test" "$pkg")
ir() { # op n
	GOMAXPROCS=1 GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1.$2" \
		"$tmp/bench.test" -test.run XXX -test.bench "BenchmarkOps/$1/handler\$" -test.benchtime "$2x" >/dev/null 2>"$tmp/vg.err" || { cat "$tmp/vg.err" >&2; exit 1; }
	grep -E '^(summary|totals):' "$tmp/cg.$1.$2" | head -1 | awk '{print $2}'
}
for op in $ops; do
	a=$(ir "$op" 1000); b=$(ir "$op" 7000)
	echo "$op $(( (b - a) / 6000 ))"
done
