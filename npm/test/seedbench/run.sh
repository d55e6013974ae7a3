#!/usr/bin/env bash
# On demand (not in CI: minutes of CPU): the seed-once benchmark. A Jest
# suite of FILES x TESTS tests (10 x 20 = 200), each reading a seeded
# item, checking that no earlier test's write is there and writing,
# against a seed of ITEMS items (10,000), on two workers, run three ways:
#   fork     dynamoemu's preset: the seed loaded once, forked per test
#   reseed   dynamoemu's preset, the table made again and its items
#            written with BatchWriteItem before each test
#   dynalite jest-dynalite's preset (tables made with their data before
#            each test, deleted after), when it is installed
# Run in a project whose node_modules hold dynamoemu, jest@29,
# @aws-sdk/client-dynamodb (and jest-dynalite); DYNAMOEMU_BINARY may name a
# server you built. Prints each mode's wall time.
#   npm/test/seedbench/run.sh PROJECT_DIR [MODES...]
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
project=$(cd "${1:?usage: run.sh PROJECT_DIR [fork reseed dynalite]}" && pwd)
shift
modes=("${@:-fork reseed dynalite}")
work="$project/seedbench.$$"
mkdir "$work"
trap 'rm -rf "$work"' EXIT
cp "$src"/bench.shared.js "$src"/reseed.setup.js "$src"/*.config.js "$work/"
cd "$work"
node "$src/gen.js"
echo "seedbench: $(ls *.bench.test.js | wc -l) files x ${TESTS:-20} tests, ${ITEMS:-10000} items, 2 workers"
for mode in ${modes[@]}; do
	if [[ $mode == dynalite ]] && ! node -e "require.resolve('jest-dynalite')" 2>/dev/null; then
		echo "seedbench: dynalite: jest-dynalite is not installed in $project"
		continue
	fi
	start=$(date +%s.%N)
	status=passed
	npx --no-install jest --ci -c "$mode.config.js" --rootDir . >"$mode.log" 2>&1 || status="FAILED (its log: $project/seedbench.$mode.log)"
	end=$(date +%s.%N)
	echo "seedbench: $mode: $status: $(grep -E '^Tests:' "$mode.log") wall $(echo "$end - $start" | bc) s"
	[[ $status == passed ]] || cp "$mode.log" "$project/seedbench.$mode.log"
done
