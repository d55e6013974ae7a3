'use strict'
// The driver of .ci/serverless-offline, from the scratch project's root:
//
//   node e2e.js migrate          the CLI template's prisma/ddb.ts makes the tables
//   node e2e.js arn              prints the master command table's stream ARN (what
//                                the template's trigger_ddb_stream.sh puts in .env)
//   node e2e.js run MODE N R     N commands through the framework's publishAsync, one
//                                at a time; each must reach the data table through the
//                                handler serverless-offline runs (MODE dynamoemu: seen
//                                right after POST /dynamoemu/streams/drain; MODE poller:
//                                polled for; R: serverless-offline's reloadHandler).
//                                Prints the figures.
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { DynamoDBClient, DescribeTableCommand, GetItemCommand } = require('@aws-sdk/client-dynamodb')
const ts = require('typescript')
const { Framework, asTenant } = require('./dist/harness')
const { generateId } = require('@mbc-cqrs-serverless/core/dist/helpers/key')

const endpoint = process.env.DYNAMODB_ENDPOINT || 'http://localhost:8000'
process.env.AWS_ACCESS_KEY_ID ||= 'local'
process.env.AWS_SECRET_ACCESS_KEY ||= 'local'
const fw = new Framework(endpoint, ['master'])
const raw = new DynamoDBClient({ endpoint, region: fw.env.DYNAMODB_REGION })
const logFile = path.join(__dirname, 'e2e-log.jsonl')

function migrate() {
  const templates = path.join(path.dirname(require.resolve('@mbc-cqrs-serverless/cli/package.json')), 'templates')
  fs.cpSync(path.join(templates, 'prisma'), path.join(__dirname, 'prisma'), { recursive: true })
  fs.writeFileSync(path.join(__dirname, 'prisma', 'dynamodbs', 'cqrs.json'), JSON.stringify(['master']))
  const src = fs.readFileSync(path.join(__dirname, 'prisma', 'ddb.ts'), 'utf8')
  const out = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true } })
  fs.writeFileSync(path.join(__dirname, 'prisma', 'ddb.js'), out.outputText)
  process.stdout.write(execFileSync(process.execPath, [path.join(__dirname, 'prisma', 'ddb.js')], { cwd: __dirname, encoding: 'utf8' }))
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// dataRow polls the data table for key until it is there (60 s at most).
async function dataRow(key) {
  const table = fw.modules.master.dataTable
  for (const end = Date.now() + 60000; Date.now() < end; await sleep(5)) {
    const got = await raw.send(new GetItemCommand({ TableName: table, Key: { pk: { S: key.pk }, sk: { S: key.sk } }, ConsistentRead: true }))
    if (got.Item) return got.Item
  }
  throw new Error(`no data row ${key.pk} ${key.sk} in ${table} after 60 s: the stream did not reach the handler`)
}

// handlerSaw is the handler's first log line naming the command key (60 s at most).
async function handlerSaw(pk, sk) {
  for (const end = Date.now() + 60000; Date.now() < end; await sleep(5)) {
    const lines = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean) : []
    for (const l of lines) {
      const e = JSON.parse(l)
      if (e.keys.some((k) => k.pk?.S === pk && k.sk?.S?.startsWith(sk))) return e
    }
  }
  throw new Error(`the handler never saw ${pk} ${sk}`)
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]

async function run(mode, n, reloadHandler) {
  const toLoad = [] // write -> the handler's file begins to load (when each call loads it afresh)
  const toHandler = [] // write -> the handler is called
  const toData = []
  for (let i = 0; i < n; i++) {
    const pk = 'MASTER#tenant001'
    const sk = `${mode}#${i}`
    const t0 = Date.now()
    await asTenant('tenant001', ({ invokeContext }) => fw.modules.master.commandService.publishAsync({
      pk, sk, id: generateId(pk, sk), tenantCode: 'tenant001', code: `${mode}${i}`, name: `item ${i}`,
      type: 'MASTER', version: 0, attributes: { n: i },
    }, { invokeContext }))
    if (mode === 'dynamoemu') { // the drain: no polling, the row is there when it returns
      const res = await fetch(`${endpoint}/dynamoemu/streams/drain`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"timeout":"45s"}' })
      if (res.status !== 200) {
        const mappings = await (await fetch(`${endpoint}/dynamoemu/streams/mappings`)).text()
        throw new Error(`drain: HTTP ${res.status} ${await res.text()}; mappings: ${mappings}`)
      }
    }
    const row = mode === 'dynamoemu' ? (await raw.send(new GetItemCommand({ TableName: fw.modules.master.dataTable,
      Key: { pk: { S: pk }, sk: { S: sk } }, ConsistentRead: true }))).Item : await dataRow({ pk, sk })
    assert.ok(row, `no data row ${pk} ${sk} after the drain`)
    const done = Date.now()
    assert.equal(row.name.S, `item ${i}`)
    assert.equal(row.version.N, '1')
    const saw = await handlerSaw(pk, sk)
    toLoad.push(saw.loadedAt - t0)
    toHandler.push(saw.at - t0)
    toData.push(done - t0)
  }
  const fig = (xs) => ({ median: pct(xs, 0.5), p95: pct(xs, 0.95), max: Math.max(...xs) })
  console.log(JSON.stringify({ mode, reloadHandler, commands: n, writeToInvokeMs: toLoad.every((x) => x >= 0) ? fig(toLoad) : undefined, writeToHandlerMs: fig(toHandler), writeToDataRowMs: fig(toData) }))
}

async function main() {
  const [cmd, mode, n] = process.argv.slice(2)
  if (cmd === 'migrate') return migrate()
  if (cmd === 'arn') {
    const d = await raw.send(new DescribeTableCommand({ TableName: fw.modules.master.commandTable }))
    return console.log(d.Table.LatestStreamArn)
  }
  if (cmd === 'run') return run(mode, Number(n || 20), process.argv[5] || 'true')
  throw new Error(`unknown command ${cmd}`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
