'use strict'
// The engine in WebAssembly: the emulator inside this JavaScript process
// (cmd/dynamoemu-wasm, built for WASI preview 1 into the @dynamoemu/wasm
// package), for a web page or a Node test with no server and no native
// binary. The AWS SDK v3 reaches it through a requestHandler:
//
//   const { start } = require('dynamoemu/wasm')
//   const emu = await start()           // in a page: start({ wasm: '/dynamoemu.wasm' })
//   const client = new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1',
//     credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
//     requestHandler: emu.requestHandler })
//
// This file runs anywhere (a browser, Node, a worker); wasm-node.js, what
// Node gets for 'dynamoemu/wasm', adds the engine's file as the default.

// endpoint is the URL of the engine's clients: no request leaves the
// process, and the engine answers any Host.
const endpoint = 'http://wasm'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

// WASI's error numbers the shim returns.
const ESUCCESS = 0
const EBADF = 8
const ENOSYS = 52

// compile makes a WebAssembly.Module of src: a module, its bytes, a
// Response, or a URL (a string or a URL) to fetch.
async function compile(src) {
  if (src instanceof WebAssembly.Module) return src
  if (typeof src === 'string' || src instanceof URL) src = await fetch(src)
  if (typeof Response !== 'undefined' && src instanceof Response) {
    if (!src.ok) throw new Error(`dynamoemu/wasm: cannot load the engine from ${src.url}: ${src.status} ${src.statusText}`)
    // Streaming compiles as the bytes arrive, but only from a response of
    // type application/wasm; the bytes compile whatever the type.
    if (WebAssembly.compileStreaming && /^application\/wasm\b/.test(src.headers.get('content-type') ?? '')) {
      return WebAssembly.compileStreaming(src)
    }
    return WebAssembly.compile(await src.arrayBuffer())
  }
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return WebAssembly.compile(src)
  throw new TypeError('dynamoemu/wasm: options.wasm is the engine: a WebAssembly.Module, its bytes, a Response or a URL')
}

// ExitError is the Go runtime's proc_exit: the engine stopped (a fatal
// error, its log says which).
class ExitError extends Error {
  constructor(code) {
    super(`dynamoemu/wasm: the engine exited (status ${code})`)
    this.code = code
  }
}

// wasi returns the WASI preview 1 functions the Go runtime calls, over
// the memory that memory() returns; the module's other WASI imports (files,
// directories) answer ENOSYS. args are the program's arguments; log gets
// what the engine writes to stdout and stderr, a line at a time; random
// fills a Uint8Array with random bytes (Web Crypto's getRandomValues).
function wasi(module, memory, args, log, random) {
  const argv = args.map((a) => encoder.encode(a + '\0'))
  const view = () => new DataView(memory().buffer)
  const bytes = () => new Uint8Array(memory().buffer)
  const lines = ['', '', '']
  const nanos = (ms) => BigInt(Math.round(ms * 1e6))
  const fns = {
    args_sizes_get(countPtr, sizePtr) {
      view().setUint32(countPtr, argv.length, true)
      view().setUint32(sizePtr, argv.reduce((n, a) => n + a.length, 0), true)
      return ESUCCESS
    },
    args_get(argvPtr, bufPtr) {
      for (const a of argv) {
        view().setUint32(argvPtr, bufPtr, true)
        bytes().set(a, bufPtr)
        argvPtr += 4
        bufPtr += a.length
      }
      return ESUCCESS
    },
    environ_sizes_get(countPtr, sizePtr) {
      view().setUint32(countPtr, 0, true)
      view().setUint32(sizePtr, 0, true)
      return ESUCCESS
    },
    environ_get() {
      return ESUCCESS
    },
    // Clock 0 is the wall clock; the others (monotonic, CPU time) are
    // the monotonic clock.
    clock_time_get(id, _precision, timePtr) {
      const ms = id === 0 ? performance.timeOrigin + performance.now() : performance.now()
      view().setBigUint64(timePtr, nanos(ms), true)
      return ESUCCESS
    },
    random_get(ptr, len) {
      for (let i = 0; i < len; i += 65536) { // getRandomValues' limit a call
        random(bytes().subarray(ptr + i, ptr + Math.min(len, i + 65536)))
      }
      return ESUCCESS
    },
    fd_write(fd, iovs, iovsLen, writtenPtr) {
      if (fd !== 1 && fd !== 2) return EBADF
      let n = 0
      for (let i = 0; i < iovsLen; i++) {
        const ptr = view().getUint32(iovs + 8 * i, true)
        const len = view().getUint32(iovs + 8 * i + 4, true)
        lines[fd] += decoder.decode(bytes().subarray(ptr, ptr + len))
        n += len
      }
      const parts = lines[fd].split('\n')
      lines[fd] = parts.pop()
      for (const line of parts) log(line)
      view().setUint32(writtenPtr, n, true)
      return ESUCCESS
    },
    // stdin, stdout and stderr are character devices; no other file is
    // open, and there are no preopened directories.
    fd_fdstat_get(fd, statPtr) {
      if (fd > 2) return EBADF
      bytes().fill(0, statPtr, statPtr + 24)
      view().setUint8(statPtr, 2) // character device
      return ESUCCESS
    },
    fd_prestat_get() {
      return EBADF
    },
    // The Go runtime polls when every goroutine waits: on a timer here
    // (the engine opens no file). The wait blocks the thread, as WASI's
    // does: Atomics.wait where the thread may block, a loop on the clock
    // where it may not (a page's main thread).
    poll_oneoff(subsPtr, eventsPtr, nsubs, neventsPtr) {
      const now = performance.now()
      let wake = Infinity
      const subs = []
      for (let i = 0; i < nsubs; i++) {
        const s = subsPtr + 48 * i
        const tag = view().getUint8(s + 8)
        let at = now
        if (tag === 0) { // a clock
          const timeout = Number(view().getBigUint64(s + 24, true)) / 1e6
          const absolute = view().getUint16(s + 40, true) & 1
          const base = view().getUint32(s + 16, true) === 0 ? performance.timeOrigin + now : now
          at = absolute ? now + (timeout - base) : now + timeout
        }
        subs.push({ userdata: view().getBigUint64(s, true), tag, at })
        wake = Math.min(wake, at)
      }
      sleepUntil(wake)
      let n = 0
      for (const s of subs) {
        if (s.at > wake) continue
        const e = eventsPtr + 32 * n++
        bytes().fill(0, e, e + 32)
        view().setBigUint64(e, s.userdata, true)
        view().setUint16(e + 8, s.tag === 0 ? ESUCCESS : EBADF, true)
        view().setUint8(e + 10, s.tag)
      }
      view().setUint32(neventsPtr, n, true)
      return ESUCCESS
    },
    sched_yield() {
      return ESUCCESS
    },
    proc_exit(code) {
      for (const line of lines) if (line) log(line)
      throw new ExitError(code)
    },
  }
  const imports = {}
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.module === 'wasi_snapshot_preview1') imports[imp.name] = fns[imp.name] ?? (() => ENOSYS)
  }
  return imports
}

// sleepUntil blocks the thread until performance.now() reaches at.
function sleepUntil(at) {
  const ms = at - performance.now()
  if (!(ms > 0) || ms === Infinity) return
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
  } catch {
    // No SharedArrayBuffer, or a thread that may not block: wait on the clock.
  }
  while (performance.now() < at) { /* wait */ }
}

// Engine is one instance of the module: one emulator, in memory.
class Engine {
  constructor(instance, logTail) {
    this.x = instance.exports
    this.logTail = logTail
    this.failure = null
  }

  // serve sends one request (headers: an object of names and values;
  // body: a string or bytes) and returns its answer: { status, headers
  // (lower-case names), body (a Uint8Array) }.
  serve(method, path, headers, body) {
    if (this.failure) throw this.failure
    let head = `${method} ${path}\n`
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined && value !== null) head += `${name}: ${value}\n`
    }
    const h = encoder.encode(head + '\n')
    const b = body === undefined || body === null ? new Uint8Array(0) : typeof body === 'string' ? encoder.encode(body) : toBytes(body)
    let n
    try {
      const ptr = this.x.dynamoemu_buffer(h.length + b.length)
      const mem = new Uint8Array(this.x.memory.buffer, ptr, h.length + b.length)
      mem.set(h)
      mem.set(b, h.length)
      n = this.x.dynamoemu_serve()
    } catch (err) {
      this.failure = err instanceof ExitError ? err : new Error(`dynamoemu/wasm: the engine failed: ${err.message}`, { cause: err })
      const tail = this.logTail()
      if (tail) this.failure.message += `; its log:\n${tail}`
      throw this.failure
    }
    return parseAnswer(new Uint8Array(this.x.memory.buffer, this.x.dynamoemu_answer(), n))
  }
}

// toBytes is a body of bytes as a Uint8Array.
function toBytes(body) {
  if (body instanceof Uint8Array) return body
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  throw new TypeError('dynamoemu/wasm: a request body is a string or bytes (no streams)')
}

// parseAnswer reads an answer frame (a status line, header lines, an
// empty line, the body) out of the engine's memory; the body is copied,
// as the memory is reused by the next call.
function parseAnswer(frame) {
  let end = 0
  while (end + 1 < frame.length && !(frame[end] === 10 && frame[end + 1] === 10)) end++
  const [status, ...lines] = decoder.decode(frame.subarray(0, end)).split('\n')
  const headers = {}
  for (const line of lines) {
    const i = line.indexOf(': ')
    const name = line.slice(0, i).toLowerCase()
    headers[name] = name in headers ? `${headers[name]}, ${line.slice(i + 2)}` : line.slice(i + 2)
  }
  return { status: Number(status), headers, body: frame.slice(end + 2) }
}

// queryString is an SDK request's query object as a URL's query.
function queryString(query) {
  const parts = []
  for (const [k, v] of Object.entries(query ?? {})) {
    for (const value of Array.isArray(v) ? v : [v]) {
      parts.push(value === null || value === undefined ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(value)}`)
    }
  }
  return parts.join('&')
}

// start makes an engine: a new emulator with no tables. Options: wasm
// (the engine: a WebAssembly.Module, its bytes, a Response or a URL;
// wasm-node.js defaults to @dynamoemu/wasm's file), sharedDb (one database
// for every access key and region), args (more of the server's flags that
// the engine takes: ['-ttlSweepInterval', '1s']), log (gets each line the
// engine logs; console.error by default).
async function start(opts = {}) {
  if (opts.wasm === undefined) {
    throw new TypeError("dynamoemu/wasm: in a page, start({ wasm }) takes the engine's URL (the file dynamoemu.wasm of @dynamoemu/wasm)")
  }
  const module = await compile(opts.wasm)
  const log = opts.log ?? ((line) => console.error(line))
  const kept = []
  const keep = (line) => {
    kept.push(line)
    if (kept.length > 50) kept.shift()
    log(line)
  }
  const args = ['dynamoemu']
  if (opts.sharedDb) args.push('-sharedDb')
  args.push(...(opts.args ?? []))
  let instance = null
  instance = await WebAssembly.instantiate(module, {
    // opts.random: wasm-node.js's Web Crypto where Node has no global one (18).
    wasi_snapshot_preview1: wasi(module, () => instance.exports.memory, args, keep, opts.random ?? ((b) => crypto.getRandomValues(b))),
  })
  instance.exports._initialize()
  if (instance.exports.dynamoemu_open() !== 0) {
    throw new Error(`dynamoemu/wasm: the engine did not start: ${kept.join('\n')}`)
  }
  let engine = new Engine(instance, () => kept.join('\n'))
  const live = () => {
    if (!engine) throw new Error('dynamoemu/wasm: the engine is stopped')
    return engine
  }

  const requestHandler = {
    // handle answers an SDK HttpRequest with an HttpResponse.
    async handle(request, options = {}) {
      if (options.abortSignal?.aborted) {
        const err = new Error('Request aborted')
        err.name = 'AbortError'
        throw err
      }
      const q = queryString(request.query)
      const path = (request.path || '/') + (q ? `?${q}` : '')
      const headers = { ...request.headers }
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'host')) headers.host = request.hostname
      const ans = live().serve(request.method, path, headers, request.body)
      return { response: { statusCode: ans.status, headers: ans.headers, body: ans.body } }
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs() {
      return {}
    },
    destroy() {},
  }

  // fetchEngine is fetch() answered by the engine, for clients other than
  // the SDK's: fetch(emu.endpoint, { method: 'POST', headers, body }).
  async function fetchEngine(input, init) {
    const req = new Request(input, init)
    const url = new URL(req.url)
    const headers = { host: url.host }
    req.headers.forEach((value, name) => { headers[name] = value })
    const body = new Uint8Array(await req.arrayBuffer())
    const ans = live().serve(req.method, url.pathname + url.search, headers, body)
    const empty = ans.status === 204 || ans.status === 205 || ans.status === 304
    return new Response(empty ? null : ans.body, { status: ans.status, headers: ans.headers })
  }

  // admin calls an admin endpoint (as index.js's start() does over HTTP).
  const admin = (method, path) => {
    const ans = live().serve(method, path, { host: 'wasm', 'content-type': 'application/json' }, '')
    const text = decoder.decode(ans.body)
    if (ans.status !== 200) throw new Error(`dynamoemu/wasm: ${method} ${path}: ${ans.status} ${text}`)
    return text ? JSON.parse(text) : {}
  }
  const empty = admin('POST', '/dynamoemu/snapshots').id

  return {
    endpoint,
    requestHandler,
    fetch: fetchEngine,
    // snapshot takes a snapshot of every table and resolves its id.
    snapshot: async () => admin('POST', '/dynamoemu/snapshots').id,
    // restore rewinds every table to snapshot id.
    restore: async (id) => { admin('POST', `/dynamoemu/snapshots/${encodeURIComponent(id)}/restore`) },
    // reset rewinds to the engine as it started (no tables).
    reset: async () => { admin('POST', `/dynamoemu/snapshots/${encodeURIComponent(empty)}/restore`) },
    // stop lets the engine go: later calls fail.
    stop: async () => { engine = null },
  }
}

module.exports = { start, compile, endpoint }
