#!/usr/bin/env bash
# Instructions per operation of BenchmarkOps/<op>/handler, counted by
# valgrind's callgrind: Ir(N=7000) - Ir(N=1000), divided by 6000, so the
# process's start-up and the benchmark's set-up cancel out. Counts, not
# seconds, but not blind to load: the server's timers run by the wall
# clock, so a loaded machine (valgrind runs slower) adds their work to
# each op. UpdateItemCondition counted 49,049 beside a race run and
# 48,513 on a quiet machine, the same tree. Count on a quiet machine.
#   emulator/internal/benchmarks/instructions.sh [DIR] [OPS...]
# DIR: a checkout (default: this one). Needs valgrind (Debian: valgrind).
# TAGS=nostages counts a build that installs no stage ("no stage
# watching"); a checkout without the tag builds as it always does.
#
# The figure: each process draws its own map hash seeds, which moves a
# count by up to about 170 instructions from one process to the next. So
# each op is counted RUNS times (default 3; each run is its own pair of
# processes, N=1000 and N=7000) and the figure printed is the median of
# the runs, followed by every run's count in brackets:
#   GetItem 28412 [28398 28412 28561]
# With an even RUNS the median is the lower of the two middle counts.
# KEEP=dir keeps every callgrind output there (cg.<op>.<N>.<run>), for
# callgrind_annotate's per-function counts.
set -euo pipefail
dir=${1:-$(git rev-parse --show-toplevel)}; shift || true
ops=${*:-PutItem GetItem UpdateItemCondition QueryPartition10 ScanFiltered TransactWrite2 TransactGet2}
runs=${RUNS:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=${KEEP:-$tmp}; mkdir -p "$out"
pkg=./emulator/internal/benchmarks; [[ -d $dir/$pkg ]] || pkg=./emulator/benchmarks # an older checkout
(cd "$dir" && go test -c -tags "${TAGS:-}" -o "$tmp/bench.test" "$pkg")
ir() { # op n run
	GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1.$2.$3" \
		"$tmp/bench.test" -test.run XXX -test.bench "BenchmarkOps/$1/handler\$" -test.benchtime "$2x" >/dev/null 2>"$tmp/vg.err" || { cat "$tmp/vg.err" >&2; exit 1; }
	grep -E '^(summary|totals):' "$out/cg.$1.$2.$3" | head -1 | awk '{print $2}'
}
for op in $ops; do
	counts=()
	for ((r = 1; r <= runs; r++)); do
		a=$(ir "$op" 1000 "$r"); b=$(ir "$op" 7000 "$r")
		counts+=($(( (b - a) / 6000 )))
	done
	sorted=($(printf '%s\n' "${counts[@]}" | sort -n))
	echo "$op ${sorted[$(( (runs - 1) / 2 ))]} [${counts[*]}]"
done
