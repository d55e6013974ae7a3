#!/usr/bin/env bash
# CI: the npm packages as a user gets them. Builds them (npm/build.sh:
# every platform cross-compiled, the checks run on linux-x64), packs
# them, installs the tarballs in a scratch project (no registry publish;
# the AWS SDK v3 comes from the npm registry), then runs there
# `npx dynamoemu -version` (it must say the packages' version),
# npm/test/api.test.js, npm/test/signatures.test.js (signed requests
# through the SDK with and without -credentials) and npm/test/streams.test.js
# (stream handlers and drainStreams), npm/test/consistency.test.js
# (consistency fuzzing finds a suite's planted bugs), npm/test/start8.test.js (eight
# servers started at once, each answering its first request with no
# retry) and npm/test/unpack.test.js (the compressed binary written out
# at its first use) with node --test, Jest and Vitest through the
# package's set-up (npm/test/runners; with DYNAMOEMU_RESET=1,
# npm/test/reset), the README's Jest test as the README writes it,
# docs/iam.md's two-tenant example as the page writes it, a
# project with a global set-up of its own (npm/test/compose), no server
# left behind by a killed parent (npm/test/parent.test.js), a seed loaded
# once and forked per test (npm/test/seed; again in consistency fuzzing);
# then the engine in WebAssembly (@dynamoemu/wasm through
# dynamoemu/wasm) in Node and in a page of headless Chromium, and its
# cost against the native server (npm/test/wasm-bench.js); last, the JS
# blocks of README.md and docs/ marked "<!-- doccheck: run -->".
set -euo pipefail
cd "$(dirname "$0")"
version=0.0.0-ci
./build.sh "$version" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for d in dist/*/; do
	(cd "$d" && npm pack --silent --pack-destination "$work" >/dev/null)
done
ls "$work"
# Sizes, packed (what npm downloads): each platform package is the one
# binary (docs/containers.md, "Size") compressed with brotli, at most
# 5.3 MB; linux-x64 packed to 4.91 MB when the bound was set, windows-x64
# to 5.15 MB before the cold packages' inlining cut (npm's gzip of the
# uncompressed linux-x64 binary was 6.38 MB).
max_platform=$((5300 * 1000))
# @dynamoemu/wasm: the engine compressed with brotli as well (npm's gzip of
# the 25.8 MB file was 6.08 MB packed), at most 5 MB.
max_wasm=$((5000 * 1000))
for f in "$work"/*.tgz; do
	bytes=$(stat -c %s "$f")
	echo "npm/test.sh: size $(basename "$f") $bytes bytes packed"
	case $(basename "$f") in
	dynamoemu-linux-* | dynamoemu-darwin-* | dynamoemu-win32-*)
		((bytes <= max_platform)) || { echo "npm/test.sh: $(basename "$f") is $bytes bytes packed, want <= $max_platform" >&2; exit 1; } ;;
	dynamoemu-wasm-*)
		((bytes <= max_wasm)) || { echo "npm/test.sh: $(basename "$f") is $bytes bytes packed, want <= $max_wasm" >&2; exit 1; } ;;
	esac
done
# docs/containers.md states the linux-x64 package's packed size ("the
# linux-x64 package packs to N MB"): it must be this pack's, at the
# precision written, give or take one in its last digit. brotli's output
# moves by tens of KB when a few KB of the binary change (5,165,205 and
# 5,137,654 bytes, one commit apart), so an exact figure flipped across
# a rounding edge with changes that had nothing to do with the size.
stated=$(grep -o 'the linux-x64 package packs to [0-9.]* MB' ../docs/containers.md | sed -E 's/.* packs to ([0-9.]+) MB/\1/' | head -1)
[[ -n $stated ]] || { echo "npm/test.sh: docs/containers.md no longer states the linux-x64 package's packed size" >&2; exit 1; }
if [[ -f $work/dynamoemu-linux-x64-$version.tgz ]]; then
	packed=$(stat -c %s "$work/dynamoemu-linux-x64-$version.tgz")
	decimals=${stated#*.}
	[[ $stated == *.* ]] || decimals=
	got=$(awk -v b="$packed" -v d="${#decimals}" 'BEGIN { printf "%.*f", d, b / 1e6 }')
	near=$(awk -v g="$got" -v s="$stated" -v d="${#decimals}" 'BEGIN { u = 10 ^ -d; x = g - s; if (x < 0) x = -x; print (x <= u * 1.0001) ? 1 : 0 }')
	[[ $near == 1 ]] || { echo "npm/test.sh: docs/containers.md says the linux-x64 package packs to $stated MB; it packed to $packed bytes ($got MB): write the pack's figure" >&2; exit 1; }
fi
mkdir "$work/project"
cd "$work/project"
npm init -y >/dev/null
host=$(node -p 'process.platform + "-" + process.arch')
npm install --no-audit --no-fund --loglevel=error "$work/dynamoemu-$version.tgz" "$work/dynamoemu-$host-$version.tgz" \
	@aws-sdk/client-dynamodb@3 @aws-sdk/client-dynamodb-streams@3 @aws-sdk/lib-dynamodb@3 @smithy/signature-v4 @aws-crypto/sha256-js
got=$(npx --no-install dynamoemu -version)
[[ $got == "$version" ]] || { echo "npm/test.sh: npx dynamoemu -version says '$got', want $version" >&2; exit 1; }
echo "npm/test.sh: npx dynamoemu -version: $got"
# The conventions check is a subcommand of the one binary: npx dynamoemu
# check ... (and, as before, npx dynamoemu conventions check ...).
for sub in check "conventions check"; do
	# shellcheck disable=SC2086 # $sub is one or two words
	help=$(npx --no-install dynamoemu $sub -h 2>&1) || { echo "npm/test.sh: npx dynamoemu $sub -h failed: $help" >&2; exit 1; }
	[[ $help == *"usage: dynamoemu check"* ]] || { echo "npm/test.sh: npx dynamoemu $sub -h says: $help" >&2; exit 1; }
done
cp "$OLDPWD/test/api.test.js" "$OLDPWD/test/signatures.test.js" "$OLDPWD/test/streams.test.js" "$OLDPWD/test/consistency.test.js" "$OLDPWD/test/start8.test.js" "$OLDPWD/test/unpack.test.js" .
node --test unpack.test.js
node --test api.test.js signatures.test.js streams.test.js consistency.test.js start8.test.js

# Jest and Vitest through the package's set-up files: one server for the
# run, two workers, each in a namespace of its own, the tables of
# DYNAMOEMU_TABLES made in each.
src=$OLDPWD
npm install --no-audit --no-fund --loglevel=error jest@29 vitest@3 >/dev/null
cp "$src"/test/runners/* .
export DYNAMOEMU_TABLES=$PWD/tables.json
npx --no-install jest --ci
npx --no-install vitest run

# drainStreams under Jest (npm/test/drain): 50 cases, each writes an item
# and, after drainStreams() and no sleep, asserts what the handler saw.
mkdir drain
cp "$src"/test/drain/* drain/
(cd drain && npx --no-install jest --ci)

# DYNAMOEMU_RESET=1: a server per worker, rewound before each test file
# (four files on two workers: one worker runs two or more, each must start
# with the table empty).
mkdir reset
cp "$src"/test/reset/* reset/
(cd reset && npx --no-install jest --ci && npx --no-install vitest run)

# The README's Jest test, as the README writes it: each ```js block whose
# first line is "// NAME.js" becomes that file, beside the framework's
# table files (prisma/dynamodbs: cqrs.json, cqrs_desc.json, tasks.json).
unset DYNAMOEMU_TABLES
mkdir readme
cp -r "$src"/test/readme/prisma readme/
awk '
	/^```js$/ { inblock = 1; file = ""; next }
	/^```$/ { inblock = 0; if (file != "") close(file); file = ""; next }
	inblock && file == "" && /^\/\/ [A-Za-z0-9._-]+\.js$/ { file = "readme/" $2 }
	inblock && file != "" { print > file }
' "$src/../README.md"
[[ -f readme/jest.config.js && -f readme/order.test.js ]] || { echo "npm/test.sh: README.md has no jest.config.js and order.test.js blocks" >&2; exit 1; }
echo "npm/test.sh: README's order.test.js ($(wc -l <readme/order.test.js) lines) and jest.config.js"
(cd readme && npx --no-install jest --ci)

# docs/iam.md's two-tenant example, as the page writes it (the same
# extraction): the IAM policy mode with -credentials and -iamPolicies.
mkdir iam
awk '
	/^```js$/ { inblock = 1; file = ""; next }
	/^```$/ { inblock = 0; if (file != "") close(file); file = ""; next }
	inblock && file == "" && /^\/\/ [A-Za-z0-9._-]+\.js$/ { file = "iam/" $2 }
	inblock && file != "" { print > file }
' "$src/../docs/iam.md"
[[ -f iam/jest.config.js && -f iam/tenants.test.js ]] || { echo "npm/test.sh: docs/iam.md has no jest.config.js and tenants.test.js blocks" >&2; exit 1; }
(cd iam && npx --no-install jest --ci)

# A project with a set-up of its own beside the preset (npm/test/compose):
# a JSON Jest configuration, its own globalSetup (calling the exported
# dynamoemu/jest globalSetup; then one that does not, where each worker
# starts its server) and setupFiles, the options in package.json's
# "dynamoemu" key (the framework's table naming). Then no server outlives
# its Node parent: SIGKILL of a process that called start(), SIGTERM of
# npx (npm/test/parent.test.js, checked by pid).
mkdir compose
cp "$src"/test/compose/* compose/
(cd compose && npx --no-install jest --ci -c jest.config.json && npx --no-install jest --ci -c jest.alone.config.json)
cp "$src/test/parent.test.js" .
node --test parent.test.js

# Seed once, fork per test (npm/test/seed): the preset loads a table
# file, an items directory and a seed script (1000 items) once into a
# base; each of 20 tests on two workers starts from a fork of it
# (DYNAMOEMU_BRANCH=test, implied by the seed options), writes, and is
# dropped after. The same tests with 200 tests of a 10,000-item seed,
# against re-seeding and jest-dynalite: npm/test/seedbench/run.sh (on
# demand, not here).
cp -r "$src/test/seed" seed
(cd seed && npx --no-install jest --ci)
# The same suite in consistency fuzzing (docs/consistency.md), as a user
# runs it: its seed goes in with BatchWriteItem, 25 items a call, into a
# table with a GSI and a stream, and its tests read their own writes
# consistently, so it passes whatever the seed; a request that never
# answers fails it (a test's by Jest's 5 s timeout, the seed's, in the
# global set-up, by timeout's bound).
for n in 1 42; do
	(cd seed && DYNAMOEMU_CONSISTENCY=fuzz:$n timeout 300 npx --no-install jest --ci)
done
# A NoSQL Workbench model as the seed, forked once per test file under
# Vitest (npm/test/seedfile: three files on two workers).
cp -r "$src/test/seedfile" seedfile
(cd seedfile && npx --no-install vitest run)

# The engine in WebAssembly: the SDK against dynamoemu/wasm in this
# process with no native binary (wasm.test.js), then in a page of
# headless Chromium (Debian's chromium, driven by playwright-core; the
# page bundled by esbuild), then its cost a call against the native
# server's (wasm-bench.js; DYNAMOEMU_WASM_BENCH_CALLS calls of each kind).
npm install --no-audit --no-fund --loglevel=error "$work/dynamoemu-wasm-$version.tgz" esbuild@0.28 playwright-core@1 >/dev/null
cp "$src"/test/wasm.test.js "$src"/test/wasm.browser.test.js "$src"/test/wasm-page.mjs "$src"/test/wasm-bench.js .
node --test wasm.test.js wasm.browser.test.js
node --no-warnings wasm-bench.js
f=$src/dist/wasm/dynamoemu.wasm
echo "wasm-bench: @dynamoemu/wasm's dynamoemu.wasm: $(wc -c <"$f") bytes, $(gzip -9c "$f" | wc -c) gzipped, $(wc -c <"$f.br") with brotli (the package's)"

# The JS blocks of README.md and docs/ marked "<!-- doccheck: run [NAME=PATH ...]
# -->" (internal/doccheck runs the sh blocks so marked, and checks that each JS
# block's first line names its file, NAME.mjs or NAME.cjs): each in a folder of
# this project with its fixtures (the repository's PATH copied as NAME), written
# as the file its first line names and run as written, with Node.
jsdocs=$PWD/jsdocs
rm -rf "$jsdocs"
mkdir "$jsdocs"
for doc in "$src/../README.md" "$src"/../docs/*.md; do
	awk -v out="$jsdocs" -v doc="$(basename "$doc")" '
		/^<!-- doccheck: run/ { fixtures = $0; sub(/^<!-- doccheck: run ?/, "", fixtures); sub(/ ?-->$/, "", fixtures); marked = NR; next }
		marked == NR - 1 && /^```js$/ { n++; dir = out "/" doc "-" NR; system("mkdir -p " dir); printf "%s", fixtures > (dir "/.fixtures"); close(dir "/.fixtures"); file = dir "/snippet.js"; next }
		file != "" && /^```$/ { close(file); file = ""; next }
		file != "" { print > file }
	' "$doc"
done
ran=0
for dir in "$jsdocs"/*/; do
	[[ -f $dir/snippet.js ]] || continue
	for f in $(cat "$dir/.fixtures"); do
		cp -r "$src/../${f#*=}" "$dir/${f%%=*}"
	done
	name=$(sed -n '1s#^// \([A-Za-z0-9._-]*\.[mc]js\)\([: ].*\)\{0,1\}$#\1#p' "$dir/snippet.js")
	[[ -n $name ]] || { echo "npm/test.sh: the JS block $(basename "$dir") does not name its file (// NAME.mjs or // NAME.cjs) on its first line" >&2; exit 1; }
	cp "$dir/snippet.js" "$dir/$name"
	(cd "$dir" && timeout 120 node "$name") || { echo "npm/test.sh: the JS block $(basename "$dir") failed as $name:" >&2; cat "$dir/snippet.js" >&2; exit 1; }
	echo "npm/test.sh: ran the JS block $(basename "$dir")"
	ran=$((ran + 1))
done
((ran >= 2)) || { echo "npm/test.sh: ran $ran marked JS blocks of README.md and docs/; the markers were lost?" >&2; exit 1; }
