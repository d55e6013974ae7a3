'use strict'
// The framework test: @mbc-cqrs-serverless/core (the npm package, as
// published) against the emulator with every conventions rule enforced.
// The legitimate flows (tables made by the CLI template's own migration,
// publishAsync create / update v1..N / delete, rapid versions with
// concurrent executions, publishSync, duplicate,
// master data with TTL settings, sequences, tasks, a time-series module,
// reads by a tenant-bound caller) must make no violation at all; each
// deliberate violation must be refused, naming its rule. Run by
// ../framework_test.go (FRAMEWORK_TEST=1 go test ./conventions/internal/frameworktest),
// which starts the emulator with conventions.json; alone:
// DYNAMODB_ENDPOINT=http://127.0.0.1:8000 node framework.test.js.

const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const {
  DynamoDBClient,
  CreateTableCommand,
  DeleteItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} = require('@aws-sdk/client-dynamodb')
const { marshall } = require('@aws-sdk/util-dynamodb')
const ts = require('typescript')

const { Framework, LostResumeError, asTenant, outsideRequests } = require('./harness')
const { generateId, addSortKeyVersion, masterPk } = require('@mbc-cqrs-serverless/core/dist/helpers/key')

const endpoint = process.env.DYNAMODB_ENDPOINT
if (!endpoint) {
  console.error('DYNAMODB_ENDPOINT is not set')
  process.exit(2)
}
process.env.AWS_ACCESS_KEY_ID ||= 'local'
process.env.AWS_SECRET_ACCESS_KEY ||= 'local'

const MODULES = ['master', 'order', 'log']
const T1 = 'tenant001'
const CREATE_GUARD = 'attribute_not_exists(pk) AND attribute_not_exists(sk)'

// The emulator's conventions report (README: Seeing violations).
const report = async () => (await fetch(`${endpoint}/dynamoemu/conventions`)).json()
const resetReport = async () => {
  const res = await fetch(`${endpoint}/dynamoemu/conventions`, { method: 'DELETE', headers: { 'Content-Type': 'application/json' } })
  assert.equal(res.status, 200)
}

const results = { flows: [], cases: [], refusedViolations: 0 }
let fw

// flow runs one legitimate flow and asserts that it made no violation.
async function flow(name, fn) {
  await resetReport()
  await fn()
  const r = await report()
  if (r.violations !== 0) {
    throw new Error(`flow "${name}" made ${r.violations} violations:\n${JSON.stringify(r.tables, null, 1)}`)
  }
  results.flows.push(name)
}

// refused runs fn, which must fail with errorName naming rule, and asserts
// that the report holds the refusal.
async function refused(name, rule, fn, errorName = 'ValidationException') {
  await resetReport()
  let err
  try {
    await fn()
  } catch (e) {
    err = e
  }
  assert.ok(err, `${name}: the request succeeded, want ${errorName} [conventions ${rule}]`)
  assert.equal(err.name, errorName, `${name}: got ${err.name}: ${err.message}`)
  assert.ok(err.message.includes(`[conventions ${rule}]`), `${name}: message ${JSON.stringify(err.message)} does not name ${rule}`)
  const r = await report()
  const entries = r.tables.flatMap((t) => t.entries)
  assert.ok(entries.some((e) => e.rule === rule && e.refused > 0), `${name}: report lacks a refused ${rule}: ${JSON.stringify(r)}`)
  results.cases.push({ name, rule, message: err.message })
  results.refusedViolations += r.refused
}

// migrate runs the CLI template's prisma/ddb.ts (npm run migrate:ddb) in a
// project scaffolded from the template, as the framework's users do.
function migrate(project) {
  const script = path.join(project, 'prisma', 'ddb.js')
  if (!fs.existsSync(script)) {
    const templates = path.dirname(require.resolve('@mbc-cqrs-serverless/cli/package.json'))
    fs.cpSync(path.join(templates, 'templates', 'prisma'), path.join(project, 'prisma'), { recursive: true })
    fs.writeFileSync(path.join(project, 'prisma', 'dynamodbs', 'cqrs.json'), JSON.stringify(MODULES))
    const src = fs.readFileSync(path.join(project, 'prisma', 'ddb.ts'), 'utf8')
    const out = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true } })
    fs.writeFileSync(script, out.outputText)
    fs.writeFileSync(path.join(project, '.env'), Object.entries({ ...fw.env, AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY }).map(([k, v]) => `${k}=${v}`).join('\n') + '\n')
  }
  return execFileSync(process.execPath, [script], {
    cwd: project, encoding: 'utf8',
    env: { ...process.env, NODE_PATH: path.join(__dirname, 'node_modules') },
  })
}

// entity is the command input of one item, as the CLI-generated services
// build it: pk PREFIX#tenant, id = generateId(pk, sk).
function entity(pk, sk, tenantCode, fields = {}) {
  return { pk, sk, id: generateId(pk, sk), tenantCode, code: sk.split('#').pop(), name: fields.name || sk,
    type: pk.split('#')[0], version: 0, attributes: {}, ...fields }
}

// rapidVersions is the rapid-versions flow, in the deployed runtime's
// manner: stream records start executions at once, and an execution of
// version N runs set_ttl_command (updateTtl: GetItem of N-1, then an
// unconditional PutItem of the whole row with its ttl) while N-1's own
// execution is still writing its status (updateStatus: UpdateItem SET
// status, updatedAt), so the rewrite can carry N-1's status and updatedAt
// as they were a moment earlier. Each of rounds entities (sort keys
// prefix + two digits) gets v1..versions. It returns the rounds begun,
// those whose data row reached the last version and the executions'
// counts. An error (a stall: Framework.live's LostResumeError) is
// thrown, or, with keepStalls (the rapid-only run), returned: the
// stall's waits as stalled, any other error in errors.
async function rapidVersions(order, orderPk, prefix, rounds, versions, { keepStalls = false, stallMs } = {}) {
  const out = { rounds, versions, begun: 0, reachedLast: 0 }
  const started = fw.sfnRuns.started
  const waited = fw.sfnRuns.waited
  const overlapped = fw.sfnRuns.overlapped
  const sortKey = (r) => `${prefix}${String(r).padStart(2, '0')}`
  try {
    await fw.live(() => asTenant(T1, async (opts) => {
      const round = async (r) => {
        const sk = sortKey(r)
        out.begun++
        await order.commandService.publishAsync(entity(orderPk, sk, T1, { name: `rapid ${r}`, attributes: { total: 0 } }), opts)
        for (let v = 1; v < versions; v++) {
          // A user's next edit comes at once (the execution of v is not
          // synced yet, so v+1's check_version waits for it), or as v's
          // execution syncs its data or finishes (v+1's check_version may
          // pass and its set_ttl_command rewrite v's row while v's
          // execution still writes v's status).
          const when = ['now', 'sync_data', 'finish'][Math.floor(Math.random() * 3)]
          if (when !== 'now') await fw.whenReached(orderPk, sk, v, when)
          await order.commandService.publishPartialUpdateAsync({ pk: orderPk, sk, version: v, attributes: { total: v } }, opts)
        }
      }
      // Four entities at a time, each its versions back to back.
      for (let r = 0; r < rounds; r += 4) await Promise.all([0, 1, 2, 3].filter((i) => r + i < rounds).map((i) => round(r + i)))
    }), { stallMs })
  } catch (err) {
    if (!keepStalls) throw err
    if (err instanceof LostResumeError) out.stalled = err.stalled
    else out.errors = [`${err.name}: ${err.message}`]
    fw.waiters.clear()
    fw.stateWaiters.clear()
  }
  out.executions = fw.sfnRuns.started - started
  out.waited = fw.sfnRuns.waited - waited
  out.overlapped = fw.sfnRuns.overlapped - overlapped
  await asTenant(T1, async () => {
    for (let r = 0; r < rounds; r++) {
      const data = await order.dataService.getItem({ pk: orderPk, sk: sortKey(r) })
      if (data?.version === versions) out.reachedLast++
    }
  })
  return out
}

async function main() {
  fw = new Framework(endpoint, MODULES)
  const { master, order, log } = fw.modules
  const raw = new DynamoDBClient({ endpoint, region: fw.env.DYNAMODB_REGION })
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'mbc-demo-'))
  const seqTable = fw.ddb.getTableName('sequences')
  const tasksTable = fw.ddb.getTableName('tasks')
  const docsTable = fw.ddb.getTableName('docs')

  // ---- Legitimate flows: no violation at all.

  await flow('migrate: the CLI template creates every table (prisma/ddb.ts)', async () => {
    const out = migrate(project)
    assert.match(out, /11 tables were created successfully/, out)
  })
  await flow('migrate again: the template enables TTL on the existing tables', async () => {
    const out = migrate(project)
    assert.match(out, /enable time to live for table: local-demo-order-command/, out)
  })

  await flow('stream warm-up rows (trigger_ddb_stream.sh) and the executions they start', async () => {
    const epoch = String(Math.floor(Date.now() / 1000))
    for (const m of Object.values(fw.modules)) {
      await raw.send(new PutItemCommand({ TableName: m.commandTable, Item: { pk: { S: 'test' }, sk: { S: epoch } } }))
    }
    // The 1.2.5 script's tasks row (the 0.1.12 template has none).
    await raw.send(new PutItemCommand({ TableName: tasksTable, Item: marshall({ code: 'test', updatedBy: 'u', createdIp: '127.0.0.1',
      tenantCode: 'test', type: 'test', version: 0, createdAt: '2024-10-11T13:46:59+07:00', input: {}, updatedIp: '127.0.0.1',
      createdBy: 'u', requestId: 'r', name: 'test', sk: epoch, id: 'test', pk: 'test', status: 'QUEUED', updatedAt: '2024-10-11T13:47:00+07:00' }) }))
    await fw.sync()
    assert.equal(fw.sfnRuns.failed, MODULES.length, 'each warm-up execution fails check_version, as with the real script')
  })

  await flow('master data: TTL settings of the order and log modules (publishAsync + sync)', () =>
    asTenant(T1, async (opts) => {
      for (const [module, days] of [['order', { command: 30, data: 365, history: 90 }], ['log', { command: 7, data: 30, history: 30 }]]) {
        for (const [type, n] of Object.entries(days)) {
          const table = fw.ddb.getTableName(module, type)
          await master.commandService.publishAsync(entity(masterPk(T1), `TTL#${table}`, T1, { attributes: { days: n } }), opts)
        }
      }
      await master.commandService.publishAsync(entity(masterPk(T1), 'MASTER_SETTING#currency', T1, { attributes: { code: 'JPY' } }), opts)
      await master.commandService.publishAsync(entity(masterPk('common'), 'MASTER_SETTING#locale', 'common', { attributes: { code: 'ja' } }), opts)
      await fw.sync()
      const ttl = await master.dataService.getItem({ pk: masterPk(T1), sk: `TTL#${order.dataTable}` })
      assert.equal(ttl?.attributes?.days, 365)
    }))

  // FRAMEWORK_RAPID_ONLY=B: the rapid-versions flow alone, B batches of
  // 20 rounds, each stall kept and counted rather than thrown; for
  // framework_test.go's TestRapidVersionsByMode, which compares modes.
  if (process.env.FRAMEWORK_RAPID_ONLY) {
    const out = { rounds: 0, begun: 0, reachedLast: 0, stalledRounds: 0, stalled: [], errors: [], executions: 0, waited: 0, overlapped: 0 }
    for (let b = 0; b < Number(process.env.FRAMEWORK_RAPID_ONLY); b++) {
      const r = await rapidVersions(order, `ORDER#${T1}`, `ORDER#RAPID${b}-`, 20, 5,
        { keepStalls: true, stallMs: Number(process.env.FRAMEWORK_STALL_MS || 30000) })
      for (const k of ['rounds', 'begun', 'reachedLast', 'executions', 'waited', 'overlapped']) out[k] += r[k]
      out.stalledRounds += new Set((r.stalled || []).map((x) => x.sk)).size
      out.stalled.push(...(r.stalled || []))
      out.errors.push(...(r.errors || []))
    }
    console.log(JSON.stringify({ rapidOnly: out }))
    process.exit(0)
  }

  await flow('master data: TTL settings put straight into master-data, as the framework\'s e2e suite seeds them', async () => {
    // publish-async.e2e-spec.ts and publish-sync.e2e-spec.ts putItem
    // {pk: 'MASTER#MBC', sk: 'TTL#<table>', ..., version: 0, attributes:
    // {days: n}} into the master data table: no command row behind them.
    const T2 = 'tenant002'
    for (const [type, days] of Object.entries({ command: 30, history: 45, data: 90 })) {
      const sk = `TTL#${fw.ddb.getTableName('order', type)}`
      const id = `${masterPk(T2)}#${sk}`
      await raw.send(new PutItemCommand({ TableName: master.dataTable, Item: marshall({ pk: masterPk(T2), sk, id, code: id,
        type: 'TTL', name: sk, version: 0, attributes: { days } }) }))
    }
    assert.equal(await order.ttlService.getTtlConfiguration('data', T2), 90, 'TtlService reads the seeded setting')
  })

  const orderPk = `ORDER#${T1}`
  const orderSk = 'ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M'
  await flow('order: create (publishAsync, version 0) and sync', () =>
    asTenant(T1, async (opts) => {
      await order.commandService.publishAsync(entity(orderPk, orderSk, T1, { name: 'first order', attributes: { total: 100 } }), opts)
      await fw.sync()
      const data = await order.dataService.getItem({ pk: orderPk, sk: orderSk })
      assert.equal(data.version, 1)
      assert.equal(data.csk, `${orderSk}@1`)
      assert.ok(data.ttl > Date.now() / 1000, 'the data row got its TTL from master data')
    }))

  const N = 6
  await flow(`order: update v1..v${N} (publishPartialUpdateAsync, each synced)`, () =>
    asTenant(T1, async (opts) => {
      for (let v = 1; v < N; v++) {
        await order.commandService.publishPartialUpdateAsync({ pk: orderPk, sk: orderSk, version: v, attributes: { total: 100 + v } }, opts)
        await fw.sync()
      }
      const data = await order.dataService.getItem({ pk: orderPk, sk: orderSk })
      assert.equal(data.version, N)
      const hist = await order.historyService.getItem({ pk: orderPk, sk: `${orderSk}@${N - 1}` })
      assert.equal(hist.version, N - 1)
      const prev = await order.commandService.getItem({ pk: orderPk, sk: `${orderSk}@${N - 1}` })
      assert.ok(prev.ttl > Date.now() / 1000, 'updateTtl set the previous version\'s TTL')
    }))

  await flow('order: an unchanged publish writes nothing (not dirty)', () =>
    asTenant(T1, async (opts) => {
      const latest = await order.commandService.getItem({ pk: orderPk, sk: `${orderSk}@${N}` })
      const again = await order.commandService.publishAsync({ ...latest, sk: orderSk, version: N }, opts)
      assert.equal(again, null)
    }))

  await flow('order: a stale version loses with ConditionalCheckFailedException (the framework\'s 409)', () =>
    asTenant(T1, async (opts) => {
      await order.commandService.publishPartialUpdateAsync({ pk: orderPk, sk: orderSk, version: N, name: 'winner' }, opts)
      await assert.rejects(
        order.commandService.publishPartialUpdateAsync({ pk: orderPk, sk: orderSk, version: N, name: 'loser' }, opts),
        { name: 'ConditionalCheckFailedException', message: 'The conditional request failed' })
      await fw.sync()
    }))

  await flow('order: duplicate a version (commandService.duplicate)', () =>
    asTenant(T1, async (opts) => {
      const dup = await order.commandService.duplicate({ pk: orderPk, sk: `${orderSk}@${N + 1}` }, opts)
      assert.equal(dup.version, N + 2)
      await fw.sync()
    }))

  await flow('order: delete (publishPartialUpdateAsync isDeleted, as the generated remove does)', () =>
    asTenant(T1, async (opts) => {
      await order.commandService.publishPartialUpdateAsync({ pk: orderPk, sk: orderSk, version: N + 2, isDeleted: true }, opts)
      await fw.sync()
      const data = await order.dataService.getItem({ pk: orderPk, sk: orderSk })
      assert.equal(data.isDeleted, true)
      assert.equal(data.version, N + 3)
    }))

  const syncSk = 'ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT3N'
  await flow('order: publishSync create and updates (data row csk is the unversioned sk)', () =>
    asTenant(T1, async (opts) => {
      await order.commandService.publishSync(entity(orderPk, syncSk, T1, { name: 'sync order' }), opts)
      await order.commandService.publishSync({ ...entity(orderPk, syncSk, T1, { name: 'sync order v2' }), version: 1 }, opts)
      await order.commandService.publishPartialUpdateSync({ pk: orderPk, sk: syncSk, version: 2, name: 'sync order v3' }, opts)
      const data = await order.dataService.getItem({ pk: orderPk, sk: syncSk })
      assert.equal(data.version, 3)
      assert.equal(data.csk, syncSk)
    }))

  await flow('order items: the hierarchy pattern, listed by begins_with in pages', () =>
    asTenant(T1, async (opts) => {
      for (const i of ['001', '002', '003']) {
        await order.commandService.publishAsync(entity(orderPk, `ORDER_ITEM#01HX7MBJK3V9WQBZ7XNDK5ZT2M#${i}`, T1), opts)
      }
      await fw.sync()
      const skOpt = { skExpession: 'begins_with(sk, :sk)', skAttributeValues: { ':sk': 'ORDER_ITEM#01HX7MBJK3V9WQBZ7XNDK5ZT2M#' } }
      const page1 = await order.dataService.listItemsByPk(orderPk, { sk: skOpt, limit: 2 })
      const page2 = await order.dataService.listItemsByPk(orderPk, { sk: skOpt, limit: 2, startFromSk: page1.lastSk })
      assert.equal(page1.items.length + page2.items.length, 3)
    }))

  const ROUNDS = 20
  const VERSIONS = 5
  const rapid = { rounds: ROUNDS, reachedLast: 0 }
  results.rapid = rapid
  await flow(`order: rapid versions, ${ROUNDS} rounds of v1..v${VERSIONS} published in quick succession, executions concurrent`, async () => {
    Object.assign(rapid, await rapidVersions(order, orderPk, 'ORDER#RAPID', ROUNDS, VERSIONS))
    assert.equal(rapid.reachedLast, ROUNDS, `rapid versions: ${rapid.reachedLast} of ${ROUNDS} rounds reached v${VERSIONS}`)
  })

  // The race above, made to happen: version N's set_ttl_command reads N-1
  // (whose execution is at finish:STARTED), N-1's execution writes
  // finish:FINISHED, and then updateTtl's PutItem lands, carrying the
  // status and updatedAt it read with the new ttl. The framework's own
  // two calls, in the order the runtime can run them.
  await flow('order: updateTtl of a version rewrites it while that version\'s execution updates its status', () =>
    asTenant(T1, async () => {
      let carried = 0
      for (let r = 0; r < ROUNDS; r++) {
        const sk = `ORDER#RAPID${String(r).padStart(2, '0')}`
        const prev = { pk: orderPk, sk: `${sk}@${VERSIONS - 1}` }
        await order.commandService.updateStatus(prev, 'finish:STARTED')
        const hold = fw.holdNextPut(order.commandTable, prev.pk, prev.sk)
        const ttl = order.commandService.updateTtl({ pk: orderPk, sk: `${sk}@${VERSIONS}` })
        await hold.reached
        await order.commandService.updateStatus(prev, 'finish:FINISHED')
        hold.release()
        await ttl
        const row = await order.commandService.getItem(prev)
        assert.ok(row.ttl > Date.now() / 1000, 'updateTtl set the ttl')
        if (row.status === 'finish:STARTED') carried++
      }
      rapid.staleStatusRewrites = carried
      assert.equal(carried, ROUNDS, 'every rewrite carried the status it read')
    }))

  const logPk = `LOG#${T1}#2026-11`
  await flow('log: the guide\'s time-series keys (tenant segment 1); the TTL lookup of MASTER#2026-11 is let through', () =>
    asTenant(T1, async (opts) => {
      for (const e of ['evt001', 'evt002']) {
        await log.commandService.publishAsync(entity(logPk, `2026-11-22T11:00:00.000Z#${e}`, T1, { attributes: { level: 'info' } }), opts)
      }
      await fw.sync()
      await log.commandService.publishPartialUpdateAsync({ pk: logPk, sk: '2026-11-22T11:00:00.000Z#evt001', version: 1, attributes: { level: 'warn' } }, opts)
      await fw.sync()
      const data = await log.dataService.getItem({ pk: logPk, sk: '2026-11-22T11:00:00.000Z#evt001' })
      assert.equal(data.version, 2)
    }))

  const seqKey = { pk: `SEQ#${T1}`, sk: 'ORDER#2026' }
  await flow('sequences: generateSequenceItem\'s atomic UpdateItem, and genNewSequence\'s read-then-set', () =>
    asTenant(T1, async () => {
      // The sequence package is not on this registry: its two calls, made
      // with the core's DynamoDbService as SequencesService makes them.
      const now = new Date()
      for (let want = 1; want <= 3; want++) {
        const item = await fw.ddb.updateItem(seqTable, seqKey, { set: { code: 'ORDER#2026', name: 'yearly', tenantCode: T1, type: 'ORDER',
          seq: { ifNotExists: 0, incrementBy: 1 }, createdAt: { ifNotExists: now }, createdBy: { ifNotExists: 'user-0001' },
          attributes: { formatted_no: `${want}`, fiscal_year: 74, issued_at: now.toISOString() } } })
        assert.equal(item.seq, want)
      }
      const oldKey = { pk: `SEQ#${T1}`, sk: 'INVOICE' }
      for (let want = 1; want <= 2; want++) {
        const cur = await fw.ddb.getItem(seqTable, oldKey)
        const item = await fw.ddb.updateItem(seqTable, oldKey, { set: { code: 'INVOICE', name: 'none', tenantCode: T1, type: 'INVOICE',
          seq: cur ? cur.seq + 1 : 1, createdAt: { ifNotExists: now }, attributes: { formatted_no: `${want}` } } })
        assert.equal(item.seq, want)
      }
    }))

  await flow('tasks: createTask and updateStatus (the task package\'s calls)', () =>
    asTenant(T1, async () => {
      const pk = `TASK#${T1}`
      const sk = 'import_csv#01HX7MBJK3V9WQBZ7XNDK5ZT4P'
      await fw.ddb.putItem(tasksTable, { id: `${pk}#${sk}`, pk, sk, version: 0, code: '01HX7MBJK3V9WQBZ7XNDK5ZT4P', type: 'import_csv',
        name: 'import_csv', tenantCode: T1, status: 'CREATED', input: { file: 'a.csv' }, createdAt: new Date(), updatedAt: new Date() })
      await fw.ddb.updateItem(tasksTable, { pk, sk }, { set: { status: 'COMPLETED', attributes: { result: { rows: 3 } } } })
    }))

  await flow('reads: a tenant-bound caller reads its data and the common tenant\'s master data', () =>
    asTenant(T1, async () => {
      assert.ok(await order.dataService.getItem({ pk: orderPk, sk: orderSk }))
      assert.ok(await master.dataService.getItem({ pk: masterPk('common'), sk: 'MASTER_SETTING#locale' }))
      const list = await order.dataService.listItemsByPk(orderPk, { limit: 10 })
      assert.ok(list.items.length >= 2)
    }))

  // Seed 000's user-tenant association under the common tenant
  // (USER_TENANT#common / <tenantCode>#<userCode>), published by a
  // tenant-bound caller for its own tenant and synced.
  const userTenantPk = 'USER_TENANT#common'
  await flow('user-tenant: a tenant-bound caller attaches its user under the common tenant (seed 000), synced', () =>
    asTenant(T1, async (opts) => {
      await order.commandService.publishAsync(entity(userTenantPk, `${T1}#user123`, 'common'), opts)
      await fw.sync()
      const data = await order.dataService.getItem({ pk: userTenantPk, sk: `${T1}#user123` })
      assert.equal(data.csk, `${T1}#user123@1`)
    }))

  // Seed 002's 'latest' pattern on a table of its own, opted in by tags,
  // kept in step both ways the seed names.
  await flow('seed 002: versions with a \'latest\' item by TransactWriteItems, then by a conditional write; an old version deleted', async () => {
    await raw.send(new CreateTableCommand({ TableName: docsTable, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'documentVersion', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'documentVersion', KeyType: 'HASH' }],
      Tags: [{ Key: 'dynamoemu:conventions', Value: '' }, { Key: 'dynamoemu:conventions-latest', Value: 'latest' }] }))
    for (const [v, content] of [['v1', 'hello'], ['v2', 'hello again']]) {
      await raw.send(new TransactWriteItemsCommand({ TransactItems: [
        { Put: { TableName: docsTable, Item: marshall({ documentVersion: v, content }) } },
        { Put: { TableName: docsTable, Item: marshall({ documentVersion: 'latest', content, actualVersion: v }) } }] }))
    }
    // The conditional way: the version, then the latest item, whose write
    // fails if another writer moved it since it was read.
    await raw.send(new PutItemCommand({ TableName: docsTable, Item: marshall({ documentVersion: 'v3', content: 'third' }),
      ConditionExpression: 'attribute_not_exists(documentVersion)' }))
    await raw.send(new UpdateItemCommand({ TableName: docsTable, Key: marshall({ documentVersion: 'latest' }),
      UpdateExpression: 'SET content = :c, actualVersion = :v', ConditionExpression: 'actualVersion = :seen',
      ExpressionAttributeValues: marshall({ ':c': 'third', ':v': 'v3', ':seen': 'v2' }) }))
    await raw.send(new DeleteItemCommand({ TableName: docsTable, Key: marshall({ documentVersion: 'v1' }) }))
  })

  // ---- Deliberate violations: each refused, naming its rule.

  const cmdRow = async (v) => order.commandService.getItem({ pk: orderPk, sk: `${orderSk}@${v}` })
  const latestV = N + 3
  await refused('an empty pk prefix (#mbc)', 'A2', () =>
    asTenant('mbc', (opts) => order.commandService.publishAsync(entity('#mbc', 'ORDER#X', 'mbc'), opts)))
  await refused('a command version jump (v9 -> v12)', 'B5', () =>
    asTenant(T1, async () => {
      const row = await cmdRow(latestV)
      await fw.ddb.putItem(order.commandTable, { ...row, sk: `${orderSk}@${latestV + 3}`, version: latestV + 3 }, CREATE_GUARD)
    }))
  await refused('a data version jump (v9 -> v15)', 'B8', () =>
    asTenant(T1, async () => {
      const row = await cmdRow(latestV)
      await order.dataService.publish({ ...row, sk: addSortKeyVersion(orderSk, latestV + 6), version: latestV + 6 })
    }))
  await refused('a data version going down (v9 -> v8)', 'B8', () =>
    asTenant(T1, async () => {
      const row = await cmdRow(latestV - 1)
      await order.dataService.publish(row)
    }))
  await refused('tenantCode different from the pk\'s tenant', 'B9', () =>
    asTenant(T1, (opts) => order.commandService.publishAsync(entity(orderPk, 'ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT9Z', 'tenant002'), opts)))
  await refused('an unconditional PutItem over an existing command version', 'B6', () =>
    asTenant(T1, async () => {
      const row = await cmdRow(1)
      await fw.ddb.putItem(order.commandTable, { ...row, name: 'rewritten history' })
    }))
  await refused('DeleteItem of a command row', 'B12', () =>
    asTenant(T1, () => fw.ddb.client.send(new DeleteItemCommand({ TableName: order.commandTable, Key: marshall({ pk: orderPk, sk: `${orderSk}@1` }) }))))
  await refused('DeleteItem of a history row', 'B13', () =>
    asTenant(T1, () => fw.ddb.client.send(new DeleteItemCommand({ TableName: order.historyTable, Key: marshall({ pk: orderPk, sk: `${orderSk}@1` }) }))))
  await refused('an UpdateItem editing a history row', 'B13', () =>
    asTenant(T1, () => fw.ddb.updateItem(order.historyTable, { pk: orderPk, sk: `${orderSk}@1` }, { set: { name: 'rewritten history' } })))
  await refused('deleting the version the \'latest\' item points at (seed 002)', 'L1', () =>
    raw.send(new DeleteItemCommand({ TableName: docsTable, Key: marshall({ documentVersion: 'v3' }) })))
  await refused('rewriting the version the \'latest\' item copies (seed 002)', 'L1', () =>
    raw.send(new PutItemCommand({ TableName: docsTable, Item: marshall({ documentVersion: 'v3', content: 'edited' }) })))
  await refused('moving the \'latest\' item by a write that cannot fail when it moved (seed 002)', 'L1', async () => {
    await raw.send(new PutItemCommand({ TableName: docsTable, Item: marshall({ documentVersion: 'v4', content: 'fourth' }),
      ConditionExpression: 'attribute_not_exists(documentVersion)' }))
    await raw.send(new PutItemCommand({ TableName: docsTable, Item: marshall({ documentVersion: 'latest', content: 'fourth', actualVersion: 'v4' }) }))
  })
  await refused('deleting the \'latest\' item while the version it points at stays (seed 002)', 'L1', () =>
    raw.send(new DeleteItemCommand({ TableName: docsTable, Key: marshall({ documentVersion: 'latest' }) })))
  await refused('an UpdateItem editing a command version\'s name (only status, taskToken, updatedAt change)', 'B7', () =>
    asTenant(T1, () => fw.ddb.updateItem(order.commandTable, { pk: orderPk, sk: `${orderSk}@1` }, { set: { name: 'edited' } })))
  await refused('a time-series key with a full date for its month', 'A13', () =>
    asTenant(T1, (opts) => log.commandService.publishAsync(entity(`LOG#${T1}#2026-11-22`, '2026-11-22T12:00:00.000Z#evt009', T1), opts)))
  await refused('a non-atomic jump of a sequence counter (3 -> 99)', 'A8', () =>
    asTenant(T1, () => fw.ddb.updateItem(seqTable, seqKey, { set: { seq: 99 } })))
  await refused('a tenant002 caller reading tenant001\'s order', 'B10', () =>
    asTenant('tenant002', () => order.dataService.getItem({ pk: orderPk, sk: orderSk })), 'AccessDeniedException')
  await refused('updateStatus of a version that does not exist (UpdateItem creating a command row)', 'B7', () =>
    asTenant(T1, () => order.commandService.updateStatus({ pk: orderPk, sk: `${orderSk}@99` }, 'finish:FINISHED')))
  await refused('a tenant attaching a user to another tenant through the common tenant (seed 000)', 'B17', () =>
    asTenant(T1, (opts) => order.commandService.publishAsync(entity(userTenantPk, 'tenant002#user123', 'common'), opts)), 'AccessDeniedException')
  await refused('a data row whose command row was never written (DataService.publish of an unpublished version)', 'B18', () =>
    asTenant(T1, () => order.dataService.publish(entity(orderPk, 'ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT8Y@1', T1, { version: 1 }))))

  await refused('a task row of another shape (JOB#tenant001)', 'B11', () =>
    asTenant(T1, () => fw.ddb.putItem(tasksTable, { id: `JOB#${T1}#import#1`, pk: `JOB#${T1}`, sk: 'import#1', tenantCode: T1, version: 0 })))

  // Nothing the refused requests attempted was stored.
  await asTenant(T1, async () => {
    assert.equal((await order.dataService.getItem({ pk: orderPk, sk: orderSk })).version, latestV)
    assert.equal((await cmdRow(1)).name, 'first order')
    assert.equal(await order.commandService.getItem({ pk: orderPk, sk: `${orderSk}@${latestV + 3}` }), undefined)
    assert.equal(await order.dataService.getItem({ pk: orderPk, sk: 'ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT8Y' }), undefined)
    assert.equal(await order.commandService.getItem({ pk: userTenantPk, sk: 'tenant002#user123@1' }), undefined)
    assert.equal((await fw.ddb.getItem(seqTable, seqKey)).seq, 3)
  })
  await outsideRequests(async () => {
    const r = await report()
    assert.equal(r.violations, 1, 'only the last case is in the report since its reset')
  })

  console.log(JSON.stringify({
    framework: `@mbc-cqrs-serverless/core@${require('@mbc-cqrs-serverless/core/package.json').version}`,
    flows: results.flows.length,
    flowViolations: 0,
    violationCases: results.cases.length,
    refusedRequests: results.cases.length,
    refusedViolations: results.refusedViolations,
    dynamodbRequests: fw.requests,
    executions: fw.sfnRuns,
    rapidVersions: results.rapid,
    notifications: fw.notifications.length,
  }))
  for (const f of results.flows) console.log(`flow ok: ${f}`)
  for (const c of results.cases) console.log(`refused ${c.rule}: ${c.name}: ${c.message}`)
}

main().catch((err) => {
  console.error(err)
  if (fw) console.error(`framework log (last lines):\n${fw.logs.lines.slice(-40).join('\n')}`)
  process.exit(1)
})
