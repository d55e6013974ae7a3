'use strict'
// What the Jest and Vitest set-up files share: the run's server (or, with
// DYNAMOEMU_RESET=1, a server per worker), each worker's isolation, the
// tables of DYNAMOEMU_TABLES, and the reset before each test file.
//
// Without DYNAMOEMU_RESET: one server for the run; each worker is a
// namespace of its own (the server keeps a database per access key and
// region: the worker's credentials are its own) with the tables made in
// it before its first test.
//
// With DYNAMOEMU_RESET=1: each worker has a server of its own (-sharedDb,
// in memory), all started once for the run by the global set-up, which
// makes the tables in each and takes a snapshot; before each test file
// the worker's server is rewound to it (snapshot restore: O(1) per table),
// so every file starts with the tables made and empty. A snapshot is of a
// whole server, so a shared server could not be rewound for one worker
// while another runs: hence a server per worker.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { start } = require('./index.js')
const { seedNamespace } = require('./seed.js')

// The set-up's options, each from (first found) the object a global
// set-up of the user's own passes (jest.js's globalSetup), the
// DYNAMOEMU_* variable, or the "dynamoemu" key of package.json in the
// directory the runner starts in (its rootDir): a JSON configuration can
// set every one. Paths in package.json are relative to its directory.
const optionEnv = {
  port: 'DYNAMOEMU_PORT', // the run's server's port (0: a free one)
  dbPath: 'DYNAMOEMU_DB_PATH', // its -dbPath
  conventions: 'DYNAMOEMU_CONVENTIONS', // its -conventions file
  args: 'DYNAMOEMU_ARGS', // more flags (a list; in the variable, separated by spaces)
  tables: 'DYNAMOEMU_TABLES', // the CreateTable inputs: a file or a directory
  tablePrefix: 'DYNAMOEMU_TABLE_PREFIX', // before every table's name
  tableNaming: 'DYNAMOEMU_TABLE_NAMING', // "framework": the prefix is `${NODE_ENV}-${APP_NAME}-`
  reset: 'DYNAMOEMU_RESET', // a server per worker, rewound before each test file (true, or "1")
  isolate: 'DYNAMOEMU_ISOLATE', // each worker in a namespace of its own (default true; false, or "0")
  branch: 'DYNAMOEMU_BRANCH', // "test" or "file": each test (or file) forks the seeded base, dropped after
  seedItems: 'DYNAMOEMU_SEED_ITEMS', // a directory of TABLE.json item files, put in the base once
  seedScript: 'DYNAMOEMU_SEED_SCRIPT', // a module whose default export fills the base, run once
  seedModel: 'DYNAMOEMU_SEED_MODEL', // a NoSQL Workbench model: its tables and sample data in the base
  seedNamespace: 'DYNAMOEMU_SEED_NAMESPACE', // the base's namespace ID (default dynamoemuseed/REGION)
}
const pathOptions = ['dbPath', 'conventions', 'tables', 'seedItems', 'seedScript', 'seedModel']

// packageOptions reads the "dynamoemu" key of dir's package.json.
function packageOptions(dir) {
  const file = path.join(dir, 'package.json')
  let pkg
  try {
    pkg = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    if (err.code === 'ENOENT') return {}
    throw new Error(`dynamoemu: ${file}: ${err.message}`)
  }
  const o = pkg?.dynamoemu
  if (o === undefined) return {}
  if (!o || typeof o !== 'object' || Array.isArray(o)) {
    throw new Error(`dynamoemu: ${file}: "dynamoemu" must be an object of options (${Object.keys(optionEnv).join(', ')})`)
  }
  const out = {}
  for (const [k, v] of Object.entries(o)) {
    if (!(k in optionEnv)) {
      throw new Error(`dynamoemu: ${file}: "dynamoemu" has no option "${k}"; the options are ${Object.keys(optionEnv).join(', ')}`)
    }
    out[k] = pathOptions.includes(k) && typeof v === 'string' ? path.resolve(dir, v) : v
  }
  return out
}

// resolveOptions returns the set-up's options, normalized: given's, then
// the environment's, then package.json's in dir.
function resolveOptions(given = {}, dir = process.cwd()) {
  const pkg = packageOptions(dir)
  const raw = {}
  for (const [k, env] of Object.entries(optionEnv)) {
    if (given[k] !== undefined) raw[k] = given[k]
    else if (process.env[env] !== undefined && process.env[env] !== '') raw[k] = process.env[env]
    else raw[k] = pkg[k]
  }
  const flag = (v, name) => {
    if (v === undefined) return undefined
    if (v === true || v === '1' || v === 'true') return true
    if (v === false || v === '0' || v === 'false') return false
    throw new Error(`dynamoemu: ${name} is ${JSON.stringify(v)}: say true or false (or 1 or 0)`)
  }
  const o = {
    port: Number(raw.port ?? 0),
    dbPath: raw.dbPath || undefined,
    conventions: raw.conventions || undefined,
    args: Array.isArray(raw.args) ? raw.args.map(String) : String(raw.args ?? '').split(/\s+/).filter(Boolean),
    tables: raw.tables || undefined,
    tablePrefix: raw.tablePrefix || undefined,
    tableNaming: raw.tableNaming || undefined,
    reset: flag(raw.reset, 'reset (DYNAMOEMU_RESET)') ?? false,
    isolate: flag(raw.isolate, 'isolate (DYNAMOEMU_ISOLATE)') ?? true,
    branch: raw.branch || undefined,
    seedItems: raw.seedItems || undefined,
    seedScript: raw.seedScript || undefined,
    seedModel: raw.seedModel || undefined,
    seedNamespace: raw.seedNamespace || undefined,
  }
  if (!o.branch && (o.seedItems || o.seedScript || o.seedModel || o.seedNamespace)) o.branch = 'test'
  if (o.branch !== undefined && o.branch !== 'test' && o.branch !== 'file') {
    throw new Error(`dynamoemu: branch (DYNAMOEMU_BRANCH) is ${JSON.stringify(o.branch)}: say "test" (a fork of the seed per test) or "file" (per test file)`)
  }
  if (o.branch && (o.reset || !o.isolate)) {
    throw new Error(`dynamoemu: branch (DYNAMOEMU_BRANCH) gives each worker its fork of the seed, in one server: it cannot be combined with ${o.reset ? 'reset (DYNAMOEMU_RESET)' : 'isolate false (DYNAMOEMU_ISOLATE=0)'}`)
  }
  if (o.seedNamespace && !/^[A-Za-z0-9]+\/[a-z0-9-]+$/.test(o.seedNamespace)) {
    throw new Error(`dynamoemu: seedNamespace (DYNAMOEMU_SEED_NAMESPACE) is ${JSON.stringify(o.seedNamespace)}: a namespace ID, ACCESSKEY/REGION`)
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) {
    throw new Error(`dynamoemu: port (DYNAMOEMU_PORT) is ${JSON.stringify(raw.port)}: a port number, or 0 for a free one`)
  }
  if (o.tableNaming !== undefined && o.tableNaming !== 'framework') {
    throw new Error(`dynamoemu: tableNaming (DYNAMOEMU_TABLE_NAMING) is ${JSON.stringify(o.tableNaming)}: the one naming is "framework" (\`\${NODE_ENV}-\${APP_NAME}-<table>\`)`)
  }
  if (o.tableNaming && o.tablePrefix) {
    throw new Error('dynamoemu: tablePrefix (DYNAMOEMU_TABLE_PREFIX) and tableNaming (DYNAMOEMU_TABLE_NAMING) both set a prefix: give one')
  }
  return o
}

// exportOptions hands the options to the workers, which inherit the
// environment of the process that ran the global set-up.
function exportOptions(o) {
  const set = (k, v) => { if (v !== undefined) process.env[optionEnv[k]] = String(v) }
  set('port', o.port || undefined)
  set('dbPath', o.dbPath)
  set('conventions', o.conventions)
  set('args', o.args.length ? o.args.join(' ') : undefined)
  set('tables', o.tables)
  set('tablePrefix', o.tablePrefix)
  set('tableNaming', o.tableNaming)
  set('reset', o.reset ? '1' : undefined)
  set('isolate', o.isolate ? undefined : '0')
  set('branch', o.branch)
  set('seedItems', o.seedItems)
  set('seedScript', o.seedScript)
  set('seedModel', o.seedModel)
  set('seedNamespace', o.seedNamespace)
}

// baseOf is the namespace ID of the seeded base the branches fork.
function baseOf(o) {
  return o.seedNamespace ?? `dynamoemuseed/${process.env.AWS_REGION || 'us-east-1'}`
}

// seedBase fills the base at endpoint once: the tables, seedItems, then
// seedScript (seedModel is loaded by the server at start: serverOptions).
async function seedBase(endpoint, o) {
  const [key, region] = baseOf(o).split('/')
  await seedNamespace(endpoint, key, region, { tables: tableInputs(o), items: o.seedItems, script: o.seedScript, prefix: tablePrefix(o) })
}

// branchHooks returns, with the branch option, the hooks that fork the
// seeded base for this worker (workerId) and drop the fork: each: true
// for a fork per test (beforeEach, afterEach), false for one per test
// file (beforeAll, afterAll). The fork is the namespace of the worker's
// access key, so clients made once with the environment's credentials
// reach each new fork. null without the branch option.
function branchHooks(workerId) {
  const o = resolveOptions()
  if (!o.branch) return null
  const name = `dynamoemuworker${Number(workerId) || 1}`
  const admin = async (method, p, body) => {
    const res = await fetch(process.env.DYNAMOEMU_ENDPOINT + p, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) })
    if (!res.ok) throw new Error(`dynamoemu: ${method} ${p}: ${res.status} ${await res.text()}`)
  }
  return {
    each: o.branch === 'test',
    fork: () => admin('POST', '/dynamoemu/branches', { base: baseOf(o), name }),
    drop: () => admin('DELETE', `/dynamoemu/branches/${name}`),
  }
}

// serverOptions are start()'s options from the set-up's.
function serverOptions(o) {
  const args = o.seedModel ? [...o.args, '-load', o.seedModel, '-mcpNamespace', baseOf(o)] : o.args
  return { port: o.port, dbPath: o.dbPath, conventions: o.conventions, args }
}

// exportEndpoint gives the workers the endpoint (DYNAMODB_ENDPOINT, and
// AWS_ENDPOINT_URL_DYNAMODB, which the AWS SDK v3 reads by itself);
// DYNAMOEMU_ENDPOINT says that the set-up started it.
function exportEndpoint(endpoint, o) {
  process.env.DYNAMOEMU_ENDPOINT = endpoint
  process.env.DYNAMODB_ENDPOINT = endpoint
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint
  process.env.AWS_REGION = process.env.AWS_REGION || 'us-east-1'
  if (o?.branch) process.env.AWS_REGION = baseOf(o).split('/')[1] // a fork is in its base's region
}

// startForTests starts the run's servers: one, or with reset one for
// each of the run's workers (workers: the runner's maximum). It resolves
// the servers started, for the teardown to stop (stopForTests). given:
// options that win over the environment's and package.json's; dir: the
// directory of that package.json (the runner's rootDir).
async function startForTests(workers, given = {}, dir = process.cwd()) {
  const o = resolveOptions(given, dir)
  tableInputs(o) // a bad tables path fails here, once, before any server starts
  exportOptions(o)
  if (!o.reset) {
    const emu = await start(serverOptions(o))
    try {
      if (o.branch) await seedBase(emu.endpoint, o)
    } catch (err) {
      await emu.stop()
      throw err
    }
    exportEndpoint(emu.endpoint, o)
    return [emu]
  }
  if (o.dbPath || o.port) {
    throw new Error('dynamoemu: reset (DYNAMOEMU_RESET=1) gives each worker a server of its own, in memory, on a free port: leave dbPath and port (DYNAMOEMU_DB_PATH, DYNAMOEMU_PORT) unset')
  }
  const n = Math.max(1, Math.floor(Number(workers)) || os.availableParallelism())
  const emus = await Promise.all(Array.from({ length: n }, () => start({ ...serverOptions(o), sharedDb: true })))
  const servers = []
  try {
    for (const emu of emus) {
      await createTables(emu.endpoint, o)
      servers.push({ endpoint: emu.endpoint, snapshot: await emu.snapshot() })
    }
  } catch (err) {
    await Promise.all(emus.map((e) => e.stop()))
    throw err
  }
  process.env.DYNAMOEMU_SERVERS = JSON.stringify(servers)
  exportEndpoint(servers[0].endpoint)
  return emus
}

// stopForTests stops the servers startForTests resolved.
async function stopForTests(emus) {
  await Promise.all((emus ?? []).map((emu) => emu.stop()))
}

// setUpWorker isolates this worker (workerId: JEST_WORKER_ID,
// VITEST_POOL_ID) and returns what to run before each of its test files:
// the tables made (once), or with reset its server rewound. Without a
// server of the global set-up (a globalSetup of the configuration's own
// replaced the preset's and does not call this package's), the worker
// starts a server of its own on its first file, which the later files of
// the worker share and which stops with the worker (-parentPid).
function setUpWorker(workerId) {
  const id = Number(workerId) || 1
  if (process.env.DYNAMOEMU_SERVERS) {
    const servers = JSON.parse(process.env.DYNAMOEMU_SERVERS)
    const server = servers[id - 1]
    if (!server) {
      throw new Error(`dynamoemu: worker ${id}, but the global set-up started ${servers.length} servers (one per worker): ` +
        'set the runner\'s maximum of workers (Jest maxWorkers, Vitest poolOptions maxForks/maxThreads) in its configuration')
    }
    exportEndpoint(server.endpoint)
    credentials(`dynamoemuworker${id}`)
    return () => restore(server)
  }
  const o = resolveOptions()
  if (process.env.DYNAMOEMU_ENDPOINT) {
    if (o.isolate) credentials(`dynamoemuworker${id}`)
    if (o.branch) return async () => {} // the global set-up seeded the base; branchHooks fork it
    const snapshot = process.env.DYNAMOEMU_WORKER_SNAPSHOT
    if (snapshot) return () => restore({ endpoint: process.env.DYNAMOEMU_ENDPOINT, snapshot })
    let made
    return () => (made ??= createTables(process.env.DYNAMOEMU_ENDPOINT, o))
  }
  return async () => {
    const emu = await start({ ...serverOptions(o), port: 0, sharedDb: o.reset })
    emu.process.unref()
    emu.process.stderr.unref?.()
    exportEndpoint(emu.endpoint, o)
    if (o.isolate) credentials(`dynamoemuworker${id}`)
    if (o.branch) return seedBase(emu.endpoint, o)
    await createTables(emu.endpoint, o)
    if (o.reset) process.env.DYNAMOEMU_WORKER_SNAPSHOT = await emu.snapshot()
  }
}

// credentials sets this worker's access key.
function credentials(key) {
  process.env.AWS_ACCESS_KEY_ID = key
  process.env.AWS_SECRET_ACCESS_KEY = 'dynamoemu'
  delete process.env.AWS_SESSION_TOKEN
  delete process.env.AWS_PROFILE
}

// restore rewinds server to its snapshot.
async function restore(server) {
  const res = await fetch(`${server.endpoint}/dynamoemu/snapshots/${encodeURIComponent(server.snapshot)}/restore`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
  })
  if (!res.ok) throw new Error(`dynamoemu: resetting ${server.endpoint}: ${res.status} ${await res.text()}`)
}

// tableInputs reads the CreateTable inputs of the tables option
// (DYNAMOEMU_TABLES): a JSON file (one input, or a list of them) or a
// directory of such files. A directory in mbc-cqrs-serverless's layout
// (prisma/dynamodbs) is read as its prisma/ddb.ts reads it: cqrs.json
// lists modules, each made as <module>-command (cqrs_desc.json's input),
// <module>-data and <module>-history (the same without its stream); the
// other files are inputs. tablePrefix goes before every table name;
// tableNaming "framework" makes it ddb.ts's `${NODE_ENV}-${APP_NAME}-`.
function tableInputs(o = resolveOptions()) {
  const at = o.tables
  if (!at) return []
  const read = (f) => {
    try {
      return JSON.parse(fs.readFileSync(f, 'utf8'))
    } catch (err) {
      throw new Error(`dynamoemu: tables (DYNAMOEMU_TABLES): ${f}: ${err.message}`)
    }
  }
  let st
  try {
    st = fs.statSync(at)
  } catch (err) {
    const where = path.isAbsolute(at) ? '' : ` (relative to ${process.cwd()})`
    throw new Error(`dynamoemu: tables (DYNAMOEMU_TABLES) is ${at}${where}, which ` +
      (err.code === 'ENOENT' ? 'does not exist' : `cannot be read: ${err.message}`) +
      ': give a JSON file of CreateTable inputs or a directory of them (such as prisma/dynamodbs)')
  }
  let inputs = []
  if (st.isDirectory()) {
    const files = fs.readdirSync(at).filter((f) => f.endsWith('.json')).sort()
    const cqrs = files.includes('cqrs.json') && files.includes('cqrs_desc.json')
    if (cqrs) {
      const desc = read(path.join(at, 'cqrs_desc.json'))
      for (const name of read(path.join(at, 'cqrs.json')) ?? []) {
        inputs.push({ ...desc, TableName: `${name}-command` })
        inputs.push({ ...desc, StreamSpecification: undefined, TableName: `${name}-data` })
        inputs.push({ ...desc, StreamSpecification: undefined, TableName: `${name}-history` })
      }
    }
    for (const f of files) {
      if (cqrs && (f === 'cqrs.json' || f === 'cqrs_desc.json')) continue
      inputs = inputs.concat(read(path.join(at, f)))
    }
  } else {
    inputs = [].concat(read(at))
  }
  const prefix = tablePrefix(o)
  return inputs.map((input) => {
    if (!input || typeof input !== 'object' || !input.TableName) {
      throw new Error(`dynamoemu: tables (DYNAMOEMU_TABLES): ${JSON.stringify(input)} is not a CreateTable input (it has no TableName)`)
    }
    return { ...input, TableName: prefix + input.TableName }
  })
}

// tablePrefix is what goes before every table's name: tablePrefix, or
// with tableNaming "framework" `${NODE_ENV}-${APP_NAME}-` as
// mbc-cqrs-serverless names its tables.
function tablePrefix(o) {
  if (o.tableNaming !== 'framework') return o.tablePrefix || ''
  const { NODE_ENV: env, APP_NAME: app } = process.env
  if (!env || !app) {
    throw new Error(`dynamoemu: tableNaming "framework" names tables \`\${NODE_ENV}-\${APP_NAME}-<table>\`, but ${!env ? 'NODE_ENV' : 'APP_NAME'} is not set ` +
      '(set it in the environment, or load the .env that sets it before the set-up runs)')
  }
  return `${env}-${app}-`
}

// createTables makes the tables of the tables option at endpoint, in
// this process's namespace (those that exist are left as they are).
async function createTables(endpoint, o = resolveOptions()) {
  const key = process.env.AWS_ACCESS_KEY_ID || 'dynamoemu'
  const region = process.env.AWS_REGION || 'us-east-1'
  await seedNamespace(endpoint, key, region, { tables: tableInputs(o) })
}

// hookTimeout bounds the set-up before a test file (a server may start in
// it): generous, it only catches a hang.
const hookTimeout = 120000

module.exports = { startForTests, stopForTests, setUpWorker, branchHooks, createTables, tableInputs, resolveOptions, hookTimeout }
