#!/usr/bin/env node
'use strict'
// npx dynamoemu [flags]: runs the server with the flags given
// (npx dynamoemu --port 8000, npx dynamoemu -version), its output and
// exit status as its own; SIGINT, SIGTERM and SIGHUP reach it, and it
// stops when this process or its parent (npx) is gone. Without the
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
// The server stops once this process is gone, even by SIGKILL
// (-parentPid); a subcommand (mcp, conventions) takes its own flags.
const args = process.argv.slice(2)
const server = args.length === 0 || args[0].startsWith('-')
const child = spawn(bin, server ? ['-parentPid', String(process.pid), ...args] : args, { stdio: 'inherit' })
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => child.kill(sig))
}
// npx runs this file through a shell, which a SIGTERM to npx may kill
// without a word to this process: once its parent is gone (this process
// handed to init), it stops the server and so ends too.
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) child.kill('SIGTERM')
}, 250).unref()
child.on('error', (err) => {
  console.error(`dynamoemu: cannot run ${bin}: ${err.message}`)
  process.exit(err.code === 'ENOENT' ? EXIT_MISSING : 1)
})
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal)
  process.exit(code ?? 1)
})
