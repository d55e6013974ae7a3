#!/usr/bin/env bash
# Builds the Python package's wheels into OUTDIR: one wheel per platform of
# npm/platforms.json (the npm packages' platforms), each holding
# cmd/dynamoemu built as npm/build.sh builds it (-trimpath -s -w, without
# net/http's HTTP/2, cold.gcflags), uncompressed (pip unpacks wheels; there
# is no first-use step). The wheel is py3-none-PLATFORM: any Python 3 on
# that platform. Built with hatchling from the Python packages already
# installed (python3-build and python3-hatchling on Debian): no index, and
# no dependency check (Debian's hatchling is not seen by build's check).
#
#   python/build.sh OUTDIR            # the wheel for this machine's platform
#   python/build.sh -all OUTDIR       # every platform of npm/platforms.json
#   python/build.sh -platform         # print this machine's wheel platform tag
#   DYNAMOEMU_PY_BINARIES=DIR python/build.sh -all OUTDIR  # binaries built already
#
# The version is npm/dynamoemu/package.json's, or DYNAMOEMU_PY_VERSION
# (a PEP 440 version); DYNAMOEMU_VERSION (default the same) is what the
# binaries' -version says. With DYNAMOEMU_PY_BINARIES each wheel gets
# DIR's dynamoemu-GOOS-GOARCH (.exe on windows), as npm/build.sh's
# DYNAMOEMU_NPM_BINARIES: .ci/release packs the binaries it checks.
# PYTHON (default /usr/bin/python3, else python3) runs the build.
set -euo pipefail
all=
if [[ ${1:-} == -all ]]; then
	all=1
	shift
fi

# wheel_platform names the wheel platform tag of a Go GOOS/GOARCH. Linux
# builds are static (CGO_ENABLED=0): any glibc or musl. Go needs macOS 11.
wheel_platform() {
	case $1/$2 in
	linux/amd64) echo manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64 ;;
	linux/arm64) echo manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64 ;;
	darwin/amd64) echo macosx_11_0_x86_64 ;;
	darwin/arm64) echo macosx_11_0_arm64 ;;
	windows/amd64) echo win_amd64 ;;
	*) echo "python/build.sh: no wheel platform for $1/$2" >&2; return 1 ;;
	esac
}

here="$(go env GOOS 2>/dev/null || uname -s | tr A-Z a-z)/$(go env GOARCH 2>/dev/null || uname -m)"
here=${here/x86_64/amd64}
here=${here/aarch64/arm64}
if [[ ${1:-} == -platform ]]; then
	wheel_platform "${here%/*}" "${here#*/}"
	exit
fi
[[ $# -eq 1 ]] || { echo "usage: python/build.sh [-all] OUTDIR | -platform" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
py=${PYTHON:-}
if [[ -z $py ]]; then
	py=python3
	[[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
fi
"$py" -c 'import build, hatchling' 2>/dev/null || { echo "python/build.sh: $py lacks build and hatchling (apt-get install python3-build python3-hatchling)" >&2; exit 1; }
version=${DYNAMOEMU_PY_VERSION:-$("$py" -c 'import json; print(json.load(open("npm/dynamoemu/package.json"))["version"])')}
goversion=${DYNAMOEMU_VERSION:-$version}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
"$py" -c 'import json; [print(p["goos"], p["goarch"]) for p in json.load(open("npm/platforms.json"))]' |
while read -r goos goarch; do
	[[ -n $all || $goos/$goarch == "$here" ]] || continue
	plat=$(wheel_platform "$goos" "$goarch")
	rm -rf "$stage/pkg"
	mkdir -p "$stage/pkg"
	cp -R python/pyproject.toml python/hatch_build.py python/README.md python/src "$stage/pkg/"
	rm -rf "$stage/pkg/src/dynamoemu/bin" "$stage/pkg/src/dynamoemu/__pycache__"
	mkdir -p "$stage/pkg/src/dynamoemu/bin"
	sed -i "s/^version = \"0.0.0\"/version = \"$version\"/" "$stage/pkg/pyproject.toml"
	sed -i "s/^__version__ = \"0.0.0\"/__version__ = \"$version\"/" "$stage/pkg/src/dynamoemu/__init__.py"
	exe=dynamoemu
	[[ $goos == windows ]] && exe=dynamoemu.exe
	if [[ -n ${DYNAMOEMU_PY_BINARIES:-} ]]; then
		ext=
		[[ $goos == windows ]] && ext=.exe
		cp -L "$DYNAMOEMU_PY_BINARIES/dynamoemu-$goos-$goarch$ext" "$stage/pkg/src/dynamoemu/bin/$exe"
	else
		# shellcheck disable=SC2046 # one flag a line of cold.gcflags
		CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -tags nethttpomithttp2 -trimpath -buildvcs=false \
			$(sed '/^#/d' cmd/dynamoemu/cold.gcflags) \
			-ldflags "-s -w -X github.com/dynamoemu/dynamoemu/emulator.version=$goversion" \
			-o "$stage/pkg/src/dynamoemu/bin/$exe" ./cmd/dynamoemu
	fi
	chmod 755 "$stage/pkg/src/dynamoemu/bin/$exe"
	DYNAMOEMU_WHEEL_PLATFORM=$plat "$py" -m build --wheel --no-isolation --skip-dependency-check --outdir "$out" "$stage/pkg" >"$stage/build.log" 2>&1 ||
		{ cat "$stage/build.log" >&2; echo "python/build.sh: the $goos/$goarch wheel did not build" >&2; exit 1; }
	whl=$(ls "$out"/dynamoemu-"$version"-py3-none-"$plat".whl)
	chmod 644 "$whl" # hatchling writes it 0600
	echo "python/build.sh: $(basename "$whl") ($(du -k "$whl" | cut -f1) kB)"
done
