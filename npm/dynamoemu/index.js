'use strict'
// The JS API: start a dynamoemu server as a child process and talk to
// its admin endpoints.
//
//   const { start } = require('dynamoemu')
//   const emu = await start()          // a free port on 127.0.0.1
//   // new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials: {...} })
//   await emu.stop()
const { spawn } = require('node:child_process')
const { binaryPath } = require('./platform.js')

// The servers this process started: killed when it exits, normally or by
// SIGINT, SIGTERM or SIGHUP (then, if nothing else handles the signal,
// it is raised again so that the process ends as it would have). A
// SIGKILL of this process cannot be seen here: each server is started
// with -parentPid of this process and stops by itself once it is gone.
const children = new Set()
let watching = false
function watchExit() {
  if (watching) return
  watching = true
  process.once('exit', killAll)
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    const onSignal = () => {
      killAll()
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, onSignal)
        process.kill(process.pid, sig)
      }
    }
    process.on(sig, onSignal)
  }
}
function killAll() {
  for (const c of children) c.kill('SIGKILL') // never leave a server behind
}

// start runs the server and resolves once it listens. Options: port (0:
// a free one), host ('127.0.0.1'), dbPath, sharedDb, conventions (a
// configuration file), args (more flags, as the server takes them),
// env, timeoutMs for the start (60000), and adminToken: with
// args ['-credentials', FILE], one of the file's adminTokens, which the
// snapshot calls send (a server with -credentials refuses them without).
async function start(opts = {}) {
  const port = opts.port ?? 0
  const host = opts.host ?? '127.0.0.1'
  const args = ['-host', host, '-port', String(port), '-parentPid', String(process.pid)]
  if (opts.dbPath) args.push('-dbPath', opts.dbPath)
  if (opts.sharedDb) args.push('-sharedDb')
  if (opts.conventions) args.push('-conventions', opts.conventions)
  args.push(...(opts.args ?? []))
  const bin = binaryPath()
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...(opts.env ?? {}) } })
  children.add(child)
  watchExit()
  let log = ''
  const addr = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`dynamoemu: the server did not start within ${opts.timeoutMs ?? 60000} ms; its log:\n${log}`))
    }, opts.timeoutMs ?? 60000)
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(new Error(`dynamoemu: cannot run ${bin}: ${err.message}`))
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      children.delete(child)
      if (/address already in use/.test(log)) {
        reject(new Error(`dynamoemu: port ${port} on ${host} is taken: stop what listens there, or start with { port: 0 } for a free one`))
        return
      }
      reject(new Error(`dynamoemu: the server exited at start-up (status ${code}); its log:\n${log}`))
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk) => {
      log += chunk
      const m = /dynamoemu listening"? addr=(\S+)/.exec(log)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
  })
  child.removeAllListeners('exit')
  child.on('exit', () => children.delete(child))
  child.stderr.resume()
  const listenPort = Number(addr.slice(addr.lastIndexOf(':') + 1))
  const endpoint = `http://${host.includes(':') ? `[${host}]` : host}:${listenPort}`
  const headers = { 'content-type': 'application/json' }
  if (opts.adminToken) headers.authorization = `Bearer ${opts.adminToken}`
  const admin = async (method, path, body) => {
    const res = await fetch(endpoint + path, { method, headers, body: body && JSON.stringify(body) })
    const text = await res.text()
    if (!res.ok) throw new Error(`dynamoemu: ${method} ${path}: ${res.status} ${text}`)
    return text ? JSON.parse(text) : {}
  }
  let empty
  try {
    empty = (await admin('POST', '/dynamoemu/snapshots')).id
  } catch (err) {
    child.kill('SIGKILL') // not left running behind a failed start
    throw err
  }
  return {
    endpoint,
    port: listenPort,
    process: child,
    // log is what the server has written so far.
    log: () => log,
    // snapshot takes a snapshot of every table and resolves its id.
    snapshot: async () => (await admin('POST', '/dynamoemu/snapshots')).id,
    // restore rewinds every table to snapshot id.
    restore: async (id) => { await admin('POST', `/dynamoemu/snapshots/${encodeURIComponent(id)}/restore`) },
    // reset rewinds to the server as it started (no tables).
    reset: async () => { await admin('POST', `/dynamoemu/snapshots/${encodeURIComponent(empty)}/restore`) },
    // stop stops the server (SIGTERM: a clean stop) and resolves once it exited.
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    }),
  }
}

module.exports = { start, binaryPath }
