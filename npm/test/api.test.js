'use strict'
// The dynamoemu package as a user installs it (npm/test.sh installs the
// packed tarballs in a scratch project and runs this with node --test):
// start() against the AWS SDK v3, snapshots, and start()'s failures.
const test = require('node:test')
const assert = require('node:assert')
const net = require('node:net')
const fs = require('node:fs')
const path = require('node:path')
const { start } = require('dynamoemu')
const { DynamoDBClient, CreateTableCommand, ListTablesCommand, waitUntilTableExists } = require('@aws-sdk/client-dynamodb')
const { DynamoDBDocumentClient, PutCommand, GetCommand } = require('@aws-sdk/lib-dynamodb')

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' }

test('start() serves the AWS SDK, and snapshots rewind it', async () => {
  const emu = await start()
  try {
    const client = new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials })
    const doc = DynamoDBDocumentClient.from(client)
    await client.send(new CreateTableCommand({
      TableName: 'tenant001-demo-command', BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    }))
    const snap = await emu.snapshot()
    await doc.send(new PutCommand({ TableName: 'tenant001-demo-command', Item: { pk: 'ORDER#tenant001', sk: 'ORDER#1@1', version: 1 } }))
    const got = await doc.send(new GetCommand({ TableName: 'tenant001-demo-command', Key: { pk: 'ORDER#tenant001', sk: 'ORDER#1@1' } }))
    assert.strictEqual(got.Item.version, 1)
    await emu.restore(snap)
    const gone = await doc.send(new GetCommand({ TableName: 'tenant001-demo-command', Key: { pk: 'ORDER#tenant001', sk: 'ORDER#1@1' } }))
    assert.strictEqual(gone.Item, undefined)
    await emu.reset()
    assert.deepStrictEqual((await client.send(new ListTablesCommand({}))).TableNames, [])
  } finally {
    await emu.stop()
  }
  assert.notStrictEqual(emu.process.exitCode ?? emu.process.signalCode, null)
})

// CreateTable's answer says CREATING, as AWS's does, and the table is
// ACTIVE from the next request on: the SDK's waitUntilTableExists, which
// asks DescribeTable at once and sleeps (minDelay, 20 s by default)
// before each further ask, is satisfied by its first DescribeTable.
test('waitUntilTableExists after CreateTable asks DescribeTable once', async () => {
  const emu = await start()
  try {
    const client = new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials })
    const asked = []
    client.middlewareStack.add((next, context) => async (args) => {
      asked.push(context.commandName)
      return next(args)
    }, { step: 'initialize', name: 'countCommands' })
    const made = await client.send(new CreateTableCommand({
      TableName: 'orders', BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }))
    assert.strictEqual(made.TableDescription.TableStatus, 'CREATING')
    const waited = await waitUntilTableExists({ client, maxWaitTime: 120 }, { TableName: 'orders' })
    assert.strictEqual(waited.state, 'SUCCESS')
    assert.strictEqual(waited.reason.Table.TableStatus, 'ACTIVE')
    assert.deepStrictEqual(asked, ['CreateTableCommand', 'DescribeTableCommand'], 'the waiter asked DescribeTable more than once')
  } finally {
    await emu.stop()
  }
})

test('branch() forks a seeded namespace per test, isolated', async () => {
  const emu = await start()
  try {
    const base = new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials })
    await base.send(new CreateTableCommand({
      TableName: 'seeded', BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }))
    const baseDoc = DynamoDBDocumentClient.from(base)
    await baseDoc.send(new PutCommand({ TableName: 'seeded', Item: { pk: 'seed', n: 1 } }))
    const branches = await Promise.all([1, 2, 3].map(() => emu.branch({ ...credentials, region: 'us-east-1' })))
    await Promise.all(branches.map(async (b, i) => {
      const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials: b.credentials }))
      assert.strictEqual((await doc.send(new GetCommand({ TableName: 'seeded', Key: { pk: 'seed' } }))).Item.n, 1)
      await doc.send(new PutCommand({ TableName: 'seeded', Item: { pk: 'seed', n: 10 + i } }))
      assert.strictEqual((await doc.send(new GetCommand({ TableName: 'seeded', Key: { pk: 'seed' } }))).Item.n, 10 + i)
    }))
    assert.strictEqual((await baseDoc.send(new GetCommand({ TableName: 'seeded', Key: { pk: 'seed' } }))).Item.n, 1)
    for (const b of branches) await b.drop()
    await assert.rejects(branches[0].drop(), /no such branch/)
  } finally {
    await emu.stop()
  }
})

test('seed() fills a namespace once; branches reached by the header, with and without sharedDb', async (t) => {
  const fs = require('node:fs')
  const os = require('node:os')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dynamoemu-seed-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.mkdirSync(path.join(dir, 'items'))
  fs.writeFileSync(path.join(dir, 'items', 'orders.json'), JSON.stringify([{ pk: 'A', n: 1 }, { pk: 'B', tags: ['x'], m: { k: null } }]))
  const table = { TableName: 'orders', BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] }
  for (const sharedDb of [false, true]) {
    const emu = await start({ sharedDb })
    try {
      const base = { accessKeyId: 'seedbase', region: 'us-east-1' }
      let scripted = 0
      await emu.seed(base, { tables: [table], items: path.join(dir, 'items'), script: async (ctx) => { scripted++; assert.strictEqual(ctx.endpoint, emu.endpoint) } })
      assert.strictEqual(scripted, 1)
      const b = await emu.branch(sharedDb ? 'shared' : base)
      assert.strictEqual(b.credentials === undefined, sharedDb)
      // One client, one key (not the branch's): the header selects the branch.
      const client = b.use(new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'anyone', secretAccessKey: 'x' } }))
      const doc = DynamoDBDocumentClient.from(client)
      assert.deepStrictEqual((await doc.send(new GetCommand({ TableName: 'orders', Key: { pk: 'B' } }))).Item, { pk: 'B', tags: ['x'], m: { k: null } })
      await doc.send(new PutCommand({ TableName: 'orders', Item: { pk: 'C' } }))
      const baseDoc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials: { ...base, secretAccessKey: 'x' } }))
      assert.strictEqual((await baseDoc.send(new GetCommand({ TableName: 'orders', Key: { pk: 'C' } }))).Item, undefined)
      assert.strictEqual((await doc.send(new GetCommand({ TableName: 'orders', Key: { pk: 'C' } }))).Item.pk, 'C')
      await b.drop()
      await assert.rejects(doc.send(new GetCommand({ TableName: 'orders', Key: { pk: 'C' } })), /names no branch/)
    } finally {
      await emu.stop()
    }
  }
})

test('start() on a port that is taken says so', async () => {
  const srv = net.createServer()
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const port = srv.address().port
  try {
    await assert.rejects(start({ port }), (err) => {
      assert.match(err.message, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is taken`))
      return true
    })
  } finally {
    srv.close()
  }
})

test('without the platform package, start() names the package to install', async () => {
  const pkg = `@dynamoemu/${process.platform}-${process.arch}`
  const dir = path.dirname(require.resolve(`${pkg}/package.json`))
  const aside = dir + '.aside'
  fs.renameSync(dir, aside)
  try {
    delete require.cache[require.resolve('dynamoemu/platform.js')]
    await assert.rejects(start(), (err) => {
      assert.match(err.message, new RegExp(`the package ${pkg.replace('/', '\\/')}, which is not installed: install it \\(npm install --save-dev ${pkg.replace('/', '\\/')}\\)`))
      return true
    })
  } finally {
    fs.renameSync(aside, dir)
  }
})

test('the server stops when the Node.js process that started it is stopped', async () => {
  const { spawn } = require('node:child_process')
  for (const sig of ['SIGTERM', 'SIGINT']) {
    const parent = spawn(process.execPath, ['-e', `
      require('dynamoemu').start().then((emu) => { console.log(emu.process.pid); setInterval(() => {}, 1000) })`], { stdio: ['ignore', 'pipe', 'inherit'] })
    const pid = Number(await new Promise((resolve) => parent.stdout.once('data', (d) => resolve(String(d).trim()))))
    assert.ok(pid > 0)
    process.kill(pid, 0) // the server runs
    const exited = new Promise((resolve) => parent.once('exit', (code, signal) => resolve(signal)))
    parent.kill(sig)
    assert.strictEqual(await exited, sig, 'the parent ends by the signal, as it would without dynamoemu')
    for (let i = 0; alive(pid); i++) {
      assert.ok(i < 100, `the server (pid ${pid}) still runs after its parent got ${sig}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
})

// alive tells whether process pid runs (a zombie, killed but not yet
// reaped, does not).
function alive(pid) {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}
