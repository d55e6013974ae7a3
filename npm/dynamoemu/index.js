'use strict'
// The JS API: start a dynamoemu server as a child process and talk to
// its admin endpoints.
//
//   const { start } = require('dynamoemu')
//   const emu = await start()          // a free port on 127.0.0.1
//   // new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials: {...} })
//   await emu.stop()
const { spawn } = require('node:child_process')
const http = require('node:http')
const { binaryPath } = require('./platform.js')
const { seedNamespace } = require('./seed.js')

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
// configuration file), consistency ('fuzz:SEED': consistency fuzzing,
// docs/consistency.md; default the server's DYNAMOEMU_CONSISTENCY),
// args (more flags, as the server takes them),
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
  if (opts.lambdaEndpoint) args.push('-lambdaEndpoint', opts.lambdaEndpoint)
  if (opts.eventSourceMappings) args.push('-eventSourceMappings', opts.eventSourceMappings)
  if (opts.consistency) args.push('-consistency', opts.consistency)
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
  const handlers = streamHandlers(admin)
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
    // branch forks a namespace into a new branch (O(1) whatever it holds)
    // and resolves { name, namespace, credentials, headers, use, drop }: a
    // client made with credentials, or any client given to use(client)
    // (which sends the X-Dynamoemu-Branch header), reaches the branch,
    // whose writes no other namespace sees. base is the namespace to
    // fork: its credentials ({ accessKeyId, region }) or its ID
    // ('AKID/us-east-1'; with sharedDb 'shared'). With sharedDb the
    // header alone reaches a branch (credentials is undefined).
    branch: async (base, name) => {
      name = name ?? `branch${process.pid}n${++branchSeq}`
      let ns = base ?? (opts.sharedDb ? 'shared' : undefined)
      if (base && typeof base === 'object') ns = `${base.accessKeyId}/${base.region ?? 'us-east-1'}`
      const b = await admin('POST', '/dynamoemu/branches', { base: ns, name })
      return {
        name: b.name,
        namespace: b.namespace,
        credentials: b.accessKey ? { accessKeyId: b.accessKey, secretAccessKey: 'branch' } : undefined,
        headers: { 'x-dynamoemu-branch': b.name },
        use: (client) => useBranch(client, b.name),
        drop: async () => { await admin('DELETE', `/dynamoemu/branches/${encodeURIComponent(b.name)}`) },
      }
    },
    // staleReads resolves consistency fuzzing's report: { mode, seed,
    // staleReads: [{ op, table, index, view, key, missed: [{ commit, op,
    // key, event }] }], dropped }; with { reset: true } it then forgets
    // them, so the next call names only the stale reads after this one.
    staleReads: async ({ reset = false } = {}) => {
      const rep = await admin('GET', '/dynamoemu/consistency')
      if (reset) await admin('DELETE', '/dynamoemu/consistency')
      return rep
    },
    // seed fills a namespace ({ accessKeyId, region }) once, for branches
    // to fork: tables (CreateTable inputs), items (a directory of
    // TABLE.json files: DynamoDB JSON or plain JSON), then script (a
    // function, or a module's path, called with { endpoint, region,
    // credentials }).
    seed: async (base, what = {}) => {
      await seedNamespace(endpoint, base.accessKeyId, base.region ?? 'us-east-1', what)
    },
    // drainStreams resolves once every stream handler (event source
    // mapping) handled every record written before the call: delivered,
    // filtered out, or sent to its on-failure destination. It rejects
    // after timeoutMs (30000) naming the mappings still behind.
    drainStreams: async ({ timeoutMs = 30000 } = {}) => {
      await admin('POST', '/dynamoemu/streams/drain', { timeout: `${timeoutMs}ms` })
    },
    // createEventSourceMapping is Lambda's CreateEventSourceMapping
    // (TableName may stand for EventSourceArn); resolves the mapping.
    createEventSourceMapping: (mapping) => admin('POST', '/2015-03-31/event-source-mappings/', mapping),
    // deleteEventSourceMapping is Lambda's DeleteEventSourceMapping.
    deleteEventSourceMapping: (uuid) => admin('DELETE', `/2015-03-31/event-source-mappings/${encodeURIComponent(uuid)}`),
    // onStream calls handler(event) in this process with each batch of a
    // table's stream (mapping: CreateEventSourceMapping's members, with
    // TableName or EventSourceArn); a throw is a function error, and
    // what it returns is the function's answer (batchItemFailures).
    // Resolves the mapping's UUID.
    onStream: (mapping, handler) => handlers.add(mapping, handler),
    // stop stops the server (SIGTERM: a clean stop) and resolves once it exited.
    stop: () => new Promise((resolve) => {
      handlers.close()
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    }),
  }
}

let branchSeq = 0

// useBranch makes an AWS SDK v3 client send every request to branch
// name: a middleware at the build step (before signing) that sets the
// X-Dynamoemu-Branch header.
function useBranch(client, name) {
  client.middlewareStack.add((next) => (args) => {
    args.request.headers['x-dynamoemu-branch'] = name
    return next(args)
  }, { step: 'build', name: 'dynamoemuBranch', override: true })
  return client
}
// streamHandlers serves JS stream handlers to the server: a local
// endpoint in the Lambda Invoke API's shape (POST
// /2015-03-31/functions/NAME/invocations), started with the first one.
function streamHandlers(admin) {
  const fns = new Map()
  let server
  let url
  const listen = () => new Promise((resolve, reject) => {
    server = http.createServer((req, res) => {
      const m = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url)
      const fn = m && fns.get(decodeURIComponent(m[1]))
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (c) => { body += c })
      req.on('end', async () => {
        if (!fn) {
          res.writeHead(404, { 'content-type': 'application/json' })
          return res.end(JSON.stringify({ message: `no function ${m ? m[1] : req.url}` }))
        }
        try {
          const out = await fn(JSON.parse(body))
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify(out ?? null))
        } catch (err) {
          res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' })
          res.end(JSON.stringify({ errorMessage: String(err && err.message ? err.message : err), errorType: (err && err.name) || 'Error' }))
        }
      })
    })
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      url = `http://127.0.0.1:${server.address().port}`
      server.unref()
      resolve()
    })
  })
  return {
    add: async (mapping, handler) => {
      if (!server) await listen()
      const name = mapping.FunctionName ?? `js-handler-${fns.size + 1}`
      fns.set(name, handler)
      const created = await admin('POST', '/2015-03-31/event-source-mappings/', {
        StartingPosition: 'LATEST', ...mapping, FunctionName: name, Endpoint: url,
      })
      return created.UUID
    },
    close: () => { if (server) server.close() },
  }
}

module.exports = { start, binaryPath, useBranch }
