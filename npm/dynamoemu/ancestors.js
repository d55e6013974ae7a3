'use strict'
// The processes whose end stops the server that `npx dynamoemu` or an npm
// script runs: the wrapper's parent and, when a package manager ran it
// (npm_execpath or npm_command in the environment: npm, pnpm and yarn
// set them), every shell between it and the package manager's process,
// and that process. A shell alone is not watched up the chain: `nohup
// dynamoemu &` from a terminal outlives the terminal.
//
// Where a process's parent and name are read: Linux's /proc/PID/stat,
// elsewhere `ps -o ppid=,comm= -p PID` (macOS, the BSDs); on Windows
// neither, and only the parent is watched.
const fs = require('node:fs')
const { execFileSync } = require('node:child_process')
const path = require('node:path')

// shells are the command names of the shells a package manager runs a
// bin through.
const shells = new Set(['sh', 'bash', 'dash', 'zsh', 'ash', 'ksh', 'mksh', 'busybox', 'cmd.exe', 'cmd'])

// maxDepth bounds the walk up the chain.
const maxDepth = 5

// proc returns pid's parent and command name, or null when it is gone or
// cannot be read.
function proc(pid) {
  if (process.platform === 'linux') {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      const fields = stat.slice(close + 2).split(' ')
      return { ppid: Number(fields[1]), name: stat.slice(stat.indexOf('(') + 1, close), state: fields[0] }
    } catch {
      return null
    }
  }
  if (process.platform === 'win32') return null
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,comm=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const m = /^(\d+)\s+(.*)$/.exec(out)
    return m ? { ppid: Number(m[1]), name: path.basename(m[2]) } : null
  } catch {
    return null
  }
}

// watched lists the pids to watch above a process whose parent is ppid,
// run with the environment env.
function watched(ppid, env) {
  const out = [ppid]
  if (!env.npm_execpath && !env.npm_command) return out
  let pid = ppid
  for (let i = 0; i < maxDepth; i++) {
    const p = proc(pid)
    if (!p || !shells.has(p.name) || p.ppid <= 1) return out
    pid = p.ppid // a shell: its parent too
    out.push(pid)
  }
  return out
}

// gone reports whether pid has ended (a zombie nobody reaped has).
function gone(pid) {
  if (process.platform === 'linux') {
    const p = proc(pid)
    return p === null || p.state === 'Z'
  }
  try {
    process.kill(pid, 0)
    return false
  } catch (err) {
    return err.code !== 'EPERM'
  }
}

module.exports = { watched, gone }
