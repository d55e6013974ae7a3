#!/usr/bin/env node
'use strict'
// npx dynamoemu [flags]: runs the server with the flags given
// (npx dynamoemu --port 8000, npx dynamoemu -version), its output and
// exit status as its own; SIGINT and SIGTERM reach it. Without the
// platform package's binary it exits with 127 (the shell's "command not
// found"), apart from the conventions check's 1 (violations found) and 2.
const EXIT_MISSING = 127
const { spawn } = require('node:child_process')
const { binaryPath } = require('../platform.js')

let bin
try {
  bin = binaryPath()
} catch (err) {
  console.error(err.message)
  process.exit(EXIT_MISSING)
}
const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit' })
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => child.kill(sig))
}
child.on('error', (err) => {
  console.error(`dynamoemu: cannot run ${bin}: ${err.message}`)
  process.exit(err.code === 'ENOENT' ? EXIT_MISSING : 1)
})
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal)
  process.exit(code ?? 1)
})
