#!/usr/bin/env node
'use strict'
// npx dynamoemu [flags]: runs the server with the flags given
// (npx dynamoemu --port 8000, npx dynamoemu -version), its output and
// exit status as its own; SIGINT, SIGTERM and SIGHUP reach it, and it
// stops when this process, its parent or, run by npx or npm run, the npm
// process above the shell that runs it is gone, however it ends. Without the
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
// npx (npm exec) and npm run run this file through a shell (sh -c): when
// npm is killed, even by SIGKILL (a CI runner cancelling a job), the
// shell and this process live on, handed to init, and nothing tells them.
// So, run by a package manager, this process watches the chain above it,
// every shell up to the process that started it (npm exec), and stops the
// server when any of them is gone; the server watches this process
// (-parentPid), so a SIGKILL of this one stops it as well.
const { watched, gone } = require('../ancestors.js')
const parent = process.ppid
const chain = watched(parent, process.env)
const watch = setInterval(() => {
  if (process.ppid !== parent || chain.some(gone)) {
    clearInterval(watch) // once: a second SIGTERM would cut the server's clean stop short
    child.kill('SIGTERM')
  }
}, 250)
watch.unref()
child.on('error', (err) => {
  console.error(`dynamoemu: cannot run ${bin}: ${err.message}`)
  process.exit(err.code === 'ENOENT' ? EXIT_MISSING : 1)
})
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal)
  process.exit(code ?? 1)
})
