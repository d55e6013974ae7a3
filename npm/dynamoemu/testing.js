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

// serverOptions are start()'s options from the environment.
function serverOptions() {
  return {
    port: Number(process.env.DYNAMOEMU_PORT || 0),
    dbPath: process.env.DYNAMOEMU_DB_PATH || undefined,
    conventions: process.env.DYNAMOEMU_CONVENTIONS || undefined,
    args: process.env.DYNAMOEMU_ARGS ? process.env.DYNAMOEMU_ARGS.split(/\s+/).filter(Boolean) : [],
  }
}

// exportEndpoint gives the workers the endpoint (DYNAMODB_ENDPOINT, and
// AWS_ENDPOINT_URL_DYNAMODB, which the AWS SDK v3 reads by itself).
function exportEndpoint(endpoint) {
  process.env.DYNAMODB_ENDPOINT = endpoint
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint
  process.env.AWS_REGION = process.env.AWS_REGION || 'us-east-1'
}

// startForTests starts the run's servers: one, or with DYNAMOEMU_RESET=1
// one for each of the run's workers (workers: the runner's maximum). It
// resolves the servers started, for the teardown to stop.
async function startForTests(workers) {
  if (process.env.DYNAMOEMU_RESET !== '1') {
    const emu = await start(serverOptions())
    exportEndpoint(emu.endpoint)
    return [emu]
  }
  const opts = serverOptions()
  if (opts.dbPath || opts.port) {
    throw new Error('dynamoemu: DYNAMOEMU_RESET=1 gives each worker a server of its own, in memory, on a free port: leave DYNAMOEMU_DB_PATH and DYNAMOEMU_PORT unset')
  }
  const n = Math.max(1, Math.floor(Number(workers)) || os.availableParallelism())
  const emus = await Promise.all(Array.from({ length: n }, () => start({ ...opts, sharedDb: true })))
  const servers = []
  try {
    for (const emu of emus) {
      await createTables(emu.endpoint)
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

// setUpWorker isolates this worker (workerId: JEST_WORKER_ID,
// VITEST_POOL_ID) and returns what to run before each of its test files:
// the tables made (once), or with DYNAMOEMU_RESET=1 its server rewound.
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
  if (process.env.DYNAMOEMU_ISOLATE !== '0') credentials(`dynamoemuworker${id}`)
  let made
  return () => (made ??= createTables(process.env.DYNAMODB_ENDPOINT))
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

// tableInputs reads the CreateTable inputs of DYNAMOEMU_TABLES: a JSON
// file (one input, or a list of them) or a directory of such files. A
// directory in mbc-cqrs-serverless's layout (prisma/dynamodbs) is read as
// its prisma/ddb.ts reads it: cqrs.json lists modules, each made as
// <module>-command (cqrs_desc.json's input), <module>-data and
// <module>-history (the same without its stream); the other files are
// inputs. DYNAMOEMU_TABLE_PREFIX goes before every table name (ddb.ts's
// `${NODE_ENV}-${APP_NAME}-`).
function tableInputs() {
  const at = process.env.DYNAMOEMU_TABLES
  if (!at) return []
  const read = (f) => {
    try {
      return JSON.parse(fs.readFileSync(f, 'utf8'))
    } catch (err) {
      throw new Error(`dynamoemu: DYNAMOEMU_TABLES: ${f}: ${err.message}`)
    }
  }
  let inputs = []
  if (fs.statSync(at).isDirectory()) {
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
  const prefix = process.env.DYNAMOEMU_TABLE_PREFIX || ''
  return inputs.map((input) => {
    if (!input || typeof input !== 'object' || !input.TableName) {
      throw new Error(`dynamoemu: DYNAMOEMU_TABLES: ${JSON.stringify(input)} is not a CreateTable input (it has no TableName)`)
    }
    return { ...input, TableName: prefix + input.TableName }
  })
}

// createTables makes the tables of DYNAMOEMU_TABLES at endpoint, in this
// process's namespace (those that exist are left as they are).
async function createTables(endpoint) {
  const key = process.env.AWS_ACCESS_KEY_ID || 'dynamoemu'
  const region = process.env.AWS_REGION || 'us-east-1'
  for (const input of tableInputs()) {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.CreateTable',
        authorization: `AWS4-HMAC-SHA256 Credential=${key}/20260101/${region}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
      },
      body: JSON.stringify(input),
    })
    const text = await res.text()
    if (!res.ok && !text.includes('ResourceInUseException')) {
      throw new Error(`dynamoemu: CreateTable ${input.TableName}: ${res.status} ${text}`)
    }
  }
}

module.exports = { startForTests, setUpWorker, createTables, tableInputs }
