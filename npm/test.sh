#!/usr/bin/env bash
# CI: the npm packages as a user gets them. Builds them (npm/build.sh:
# every platform cross-compiled, the checks run on linux-x64), packs
# them, installs the tarballs in a scratch project (no registry publish;
# the AWS SDK v3 comes from the npm registry), then runs there
# `npx dynamoemu -version` (it must say the packages' version) and
# npm/test/api.test.js with node --test.
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
mkdir "$work/project"
cd "$work/project"
npm init -y >/dev/null
host=$(node -p 'process.platform + "-" + process.arch')
npm install --no-audit --no-fund --loglevel=error "$work/dynamoemu-$version.tgz" "$work/dynamoemu-$host-$version.tgz" \
	@aws-sdk/client-dynamodb@3 @aws-sdk/lib-dynamodb@3
got=$(npx --no-install dynamoemu -version)
[[ $got == "$version" ]] || { echo "npm/test.sh: npx dynamoemu -version says '$got', want $version" >&2; exit 1; }
echo "npm/test.sh: npx dynamoemu -version: $got"
# The conventions check ships beside the server: npx dynamoemu conventions ...
help=$(npx --no-install dynamoemu conventions check -h 2>&1) || { echo "npm/test.sh: npx dynamoemu conventions check -h failed: $help" >&2; exit 1; }
[[ $help == *"usage: dynamoemu-conventions check"* ]] || { echo "npm/test.sh: npx dynamoemu conventions check -h says: $help" >&2; exit 1; }
cp "$OLDPWD/test/api.test.js" .
node --test api.test.js

# Jest and Vitest through the package's set-up files: one server for the
# run, two workers, each in a namespace of its own, the tables of
# DYNAMOEMU_TABLES made in each.
npm install --no-audit --no-fund --loglevel=error jest@29 vitest@3 >/dev/null
cp "$OLDPWD"/test/runners/* .
export DYNAMOEMU_TABLES=$PWD/tables.json
npx --no-install jest --ci
npx --no-install vitest run
