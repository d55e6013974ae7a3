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
cp "$OLDPWD/test/api.test.js" .
node --test api.test.js
