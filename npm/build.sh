#!/usr/bin/env bash
# Builds the npm packages into npm/dist: dynamoemu (the JS API, its types
# and the npx bin) and one package per platform holding cmd/dynamoemu
# cross-compiled for it (platforms.json), every package at one version,
# which the server's -version also says. The platform package holds that
# one binary: the server, and its subcommands ("npx dynamoemu check ...",
# the conventions check; "mcp"; "healthcheck"), built -trimpath -s -w and
# without net/http's HTTP/2 (-tags nethttpomithttp2: the Dockerfile says why),
# with no inlining in the packages no API call runs through
# (cmd/dynamoemu/cold.gcflags),
# compressed with brotli (bin/dynamoemu.br; platform.js writes it out).
#
#   npm/build.sh [VERSION]        # default: dynamoemu/package.json's
#   DYNAMOEMU_NPM_PLATFORMS="linux-x64" npm/build.sh   # only these
#   DYNAMOEMU_NPM_BINARIES=DIR npm/build.sh VERSION    # binaries built already
#
# With DYNAMOEMU_NPM_BINARIES, each platform package gets DIR's
# dynamoemu-GOOS-GOARCH (.exe on windows) instead of a build of its own:
# .ci/release packs the very binaries it checks and publishes.
# DYNAMOEMU_VERSION (default VERSION) is what the binaries' -version
# says: .ci/release gives the tag (v1.2.3) to packages versioned 1.2.3.
set -euo pipefail
cd "$(dirname "$0")"
version=${1:-$(node -p 'require("./dynamoemu/package.json").version')}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || { echo "npm/build.sh: $version is not a semver version" >&2; exit 1; }
only=${DYNAMOEMU_NPM_PLATFORMS:-}
goversion=${DYNAMOEMU_VERSION:-$version}
rm -rf dist
mkdir -p dist/dynamoemu/bin
cp dynamoemu/*.js dynamoemu/*.mjs dynamoemu/*.d.ts dynamoemu/README.md dist/dynamoemu/
cp dynamoemu/bin/dynamoemu.js dist/dynamoemu/bin/
n=$(node -p 'require("./platforms.json").length')
for ((i = 0; i < n; i++)); do
	read -r pkg os cpu goos goarch < <(node -p "const p=require('./platforms.json')[$i]; [p.package,p.os,p.cpu,p.goos,p.goarch].join(' ')")
	short=${pkg#@dynamoemu/}
	if [[ -n $only && " $only " != *" $short "* ]]; then
		continue
	fi
	dir=dist/$short
	mkdir -p "$dir/bin"
	exe=dynamoemu
	[[ $goos == windows ]] && exe=dynamoemu.exe
	if [[ -n ${DYNAMOEMU_NPM_BINARIES:-} ]]; then
		ext=
		[[ $goos == windows ]] && ext=.exe
		cp -L "$DYNAMOEMU_NPM_BINARIES/dynamoemu-$goos-$goarch$ext" "$dir/bin/$exe"
		chmod 755 "$dir/bin/$exe"
	else
		# shellcheck disable=SC2046 # one flag a line of cold.gcflags
		(cd .. && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -tags nethttpomithttp2 -trimpath -buildvcs=false \
			$(sed '/^#/d' cmd/dynamoemu/cold.gcflags) \
			-ldflags "-s -w -X github.com/dynamoemu/dynamoemu/emulator.version=$goversion" -o "npm/$dir/bin/$exe" ./cmd/dynamoemu)
	fi
	# The binary goes in compressed with brotli at its best (quality 11,
	# a 16 MB window): npm's gzip of the linux-x64 binary was 6.60 MB,
	# this is about 5.3 MB. npm/dynamoemu/platform.js writes it out at
	# its first use and checks it against the size and SHA-256 named here.
	node -e '
		const fs = require("fs"), zlib = require("zlib"), crypto = require("crypto")
		const [pkg, os, cpu, version, dir, exe] = process.argv.slice(1)
		const bin = fs.readFileSync(`${dir}/bin/${exe}`)
		const C = zlib.constants
		fs.writeFileSync(`${dir}/bin/${exe}.br`, zlib.brotliCompressSync(bin, { params: {
			[C.BROTLI_PARAM_QUALITY]: 11, [C.BROTLI_PARAM_LGWIN]: 24, [C.BROTLI_PARAM_SIZE_HINT]: bin.length } }))
		fs.rmSync(`${dir}/bin/${exe}`)
		fs.writeFileSync(dir + "/package.json", JSON.stringify({
			name: pkg, version, description: `The dynamoemu server for ${os}-${cpu}: installed by the dynamoemu package`,
			license: "Apache-2.0", os: [os], cpu: [cpu], files: ["bin"], preferUnplugged: true,
			dynamoemu: { binary: exe, size: bin.length, sha256: crypto.createHash("sha256").update(bin).digest("hex") },
		}, null, 2) + "\n")' "$pkg" "$os" "$cpu" "$version" "$dir" "$exe"
	echo "npm/build.sh: $pkg $version ($(du -k "$dir/bin/$exe.br" | cut -f1) kB compressed)"
done
node -e '
	const fs = require("fs")
	const [version] = process.argv.slice(1)
	const p = JSON.parse(fs.readFileSync("dynamoemu/package.json", "utf8"))
	p.version = version
	p.optionalDependencies = Object.fromEntries(require("./platforms.json").map((x) => [x.package, version]))
	fs.writeFileSync("dist/dynamoemu/package.json", JSON.stringify(p, null, 2) + "\n")' "$version"
# @dynamoemu/wasm: the engine in WebAssembly (cmd/dynamoemu-wasm, a WASI
# reactor) for dynamoemu/wasm, which the main package lists as an
# optional peer at the same version; "wasm" in DYNAMOEMU_NPM_PLATFORMS
# selects it like a platform.
if [[ -z $only || " $only " == *" wasm "* ]]; then
	mkdir -p dist/wasm
	(cd .. && CGO_ENABLED=0 GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -buildvcs=false \
		-ldflags "-s -w -X github.com/dynamoemu/dynamoemu/emulator.version=$goversion" -o npm/dist/wasm/dynamoemu.wasm ./cmd/dynamoemu-wasm)
	# Compressed with brotli as the platform packages' binaries are: npm's
	# gzip of the file was 6.08 MB, over the 5 MB the package is held to
	# (npm/test.sh); brotli at quality 11 is about 4.3 MB. wasm-node.js
	# writes the file out at its first use (platform.js's unpacked).
	node -e '
		const fs = require("fs"), zlib = require("zlib"), crypto = require("crypto")
		const [version] = process.argv.slice(1)
		const wasm = fs.readFileSync("dist/wasm/dynamoemu.wasm")
		const C = zlib.constants
		fs.writeFileSync("dist/wasm/dynamoemu.wasm.br", zlib.brotliCompressSync(wasm, { params: {
			[C.BROTLI_PARAM_QUALITY]: 11, [C.BROTLI_PARAM_LGWIN]: 24, [C.BROTLI_PARAM_SIZE_HINT]: wasm.length } }))
		fs.writeFileSync("dist/wasm/package.json", JSON.stringify({
			name: "@dynamoemu/wasm", version, description: "The dynamoemu engine in WebAssembly (WASI): loaded by dynamoemu/wasm",
			license: "Apache-2.0", files: ["dynamoemu.wasm.br"],
			dynamoemu: { file: "dynamoemu.wasm", size: wasm.length, sha256: crypto.createHash("sha256").update(wasm).digest("hex") },
		}, null, 2) + "\n")
		const p = JSON.parse(fs.readFileSync("dist/dynamoemu/package.json", "utf8"))
		p.peerDependencies = { ...p.peerDependencies, "@dynamoemu/wasm": version }
		p.peerDependenciesMeta = { ...p.peerDependenciesMeta, "@dynamoemu/wasm": { optional: true } }
		fs.writeFileSync("dist/dynamoemu/package.json", JSON.stringify(p, null, 2) + "\n")' "$version"
	echo "npm/build.sh: @dynamoemu/wasm $version ($(wc -c <dist/wasm/dynamoemu.wasm) bytes, $(gzip -9c dist/wasm/dynamoemu.wasm | wc -c) gzipped, $(wc -c <dist/wasm/dynamoemu.wasm.br) with brotli, as packed)"
fi
echo "npm/build.sh: dynamoemu $version in npm/dist"
