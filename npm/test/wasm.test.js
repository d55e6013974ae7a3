'use strict'
// The engine in WebAssembly as a user installs it (npm/test.sh installs
// dynamoemu and @dynamoemu/wasm from their packed tarballs and runs this
// with node --test): the AWS SDK v3 against dynamoemu/wasm in this
// process, with no server and no native binary.
const test = require('node:test')
const assert = require('node:assert')
const { start, wasmPath } = require('dynamoemu/wasm')
const {
  DynamoDBClient, CreateTableCommand, PutItemCommand, QueryCommand, ListTablesCommand, GetItemCommand, UpdateTimeToLiveCommand,
} = require('@aws-sdk/client-dynamodb')

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' }
const client = (emu, key = 'test') => new DynamoDBClient({
  endpoint: emu.endpoint, region: 'us-east-1', requestHandler: emu.requestHandler,
  credentials: { accessKeyId: key, secretAccessKey: 'test' },
})
const createTable = new CreateTableCommand({
  TableName: 'orders', BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
})

// No native binary: nothing here may start a process.
const childProcess = require('node:child_process')
for (const fn of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[fn] = () => { throw new Error(`child_process.${fn}: dynamoemu/wasm must start no process`) }
}

test('the engine is the WebAssembly file, written out of the package\'s brotli copy', () => {
  assert.match(wasmPath(), /dynamoemu\.wasm$/)
  const manifest = require.resolve('@dynamoemu/wasm/package.json')
  const meta = require(manifest).dynamoemu
  assert.strictEqual(require('node:fs').statSync(wasmPath()).size, meta.size)
  assert.deepStrictEqual(require(manifest).files, ['dynamoemu.wasm.br'], 'the package carries the compressed engine alone')
  assert.strictEqual(wasmPath(), wasmPath(), 'written once')
})

test('CreateTable, PutItem and Query through the SDK, in this process', async () => {
  const emu = await start()
  const db = client(emu)
  const made = await db.send(createTable)
  assert.strictEqual(made.TableDescription.TableStatus, 'CREATING', 'as AWS answers; ACTIVE from the next request')
  for (let i = 1; i <= 3; i++) {
    await db.send(new PutItemCommand({ TableName: 'orders', Item: { pk: { S: 'tenant#1' }, sk: { S: `order#${i}` }, total: { N: String(10 * i) } } }))
  }
  await db.send(new PutItemCommand({ TableName: 'orders', Item: { pk: { S: 'tenant#2' }, sk: { S: 'order#1' }, total: { N: '99' } } }))
  const got = await db.send(new QueryCommand({
    TableName: 'orders', KeyConditionExpression: 'pk = :p AND sk > :s',
    ExpressionAttributeValues: { ':p': { S: 'tenant#1' }, ':s': { S: 'order#1' } }, ScanIndexForward: false,
  }))
  assert.strictEqual(got.Count, 2)
  assert.deepStrictEqual(got.Items.map((it) => [it.sk.S, it.total.N]), [['order#3', '30'], ['order#2', '20']])
  await emu.stop()
  await assert.rejects(db.send(new ListTablesCommand({})), /the engine is stopped/)
})

test("errors come back as the SDK's exceptions", async () => {
  const emu = await start()
  const db = client(emu)
  await assert.rejects(db.send(new GetItemCommand({ TableName: 'missing', Key: { pk: { S: 'x' } } })), (err) => {
    assert.strictEqual(err.name, 'ResourceNotFoundException')
    assert.strictEqual(err.$metadata.httpStatusCode, 400)
    return true
  })
})

test('each engine is an emulator of its own; each access key a database, unless sharedDb', async () => {
  const cases = [
    { name: 'a database per key', opts: {}, want: [] },
    { name: 'shared', opts: { sharedDb: true }, want: ['orders'] },
  ]
  for (const c of cases) {
    const emu = await start(c.opts)
    await client(emu, 'alice').send(createTable)
    const other = await client(emu, 'bob').send(new ListTablesCommand({}))
    assert.deepStrictEqual(other.TableNames, c.want, c.name)
  }
  const fresh = await start()
  assert.deepStrictEqual((await client(fresh).send(new ListTablesCommand({}))).TableNames, [])
})

test('snapshots rewind the engine, and fetch() reaches it too', async () => {
  const emu = await start()
  const db = client(emu)
  await db.send(createTable)
  const snap = await emu.snapshot()
  await db.send(new PutItemCommand({ TableName: 'orders', Item: { pk: { S: 'a' }, sk: { S: 'b' } } }))
  await emu.restore(snap)
  const res = await emu.fetch(emu.endpoint, {
    method: 'POST',
    headers: {
      'x-amz-target': 'DynamoDB_20120810.Scan', 'content-type': 'application/x-amz-json-1.0',
      authorization: 'AWS4-HMAC-SHA256 Credential=test/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
    },
    body: JSON.stringify({ TableName: 'orders' }),
  })
  assert.strictEqual(res.status, 200)
  assert.strictEqual((await res.json()).Count, 0)
  await emu.reset()
  assert.deepStrictEqual((await db.send(new ListTablesCommand({}))).TableNames, [])
})

test('expired items are swept as on the server (-ttlSweepInterval)', async () => {
  const Key = { pk: { S: 'tenant#1' }, sk: { S: 'order#1' } }
  const past = String(Math.floor(Date.now() / 1000) - 60) // a minute ago (AWS skips TTLs over five years old)
  const cases = [
    { name: 'swept every 10ms', args: ['-ttlSweepInterval', '10ms'], kept: false },
    { name: 'the default: every minute', args: [], kept: true },
  ]
  for (const c of cases) {
    const emu = await start({ args: c.args })
    const db = client(emu)
    await db.send(createTable)
    await db.send(new UpdateTimeToLiveCommand({ TableName: 'orders', TimeToLiveSpecification: { Enabled: true, AttributeName: 'expires' } }))
    await db.send(new PutItemCommand({ TableName: 'orders', Item: { ...Key, expires: { N: past } } }))
    // Go runs only in calls: a sweep comes at the end of the first call
    // after it is due, and the next call sees it done.
    await new Promise((resolve) => setTimeout(resolve, 50))
    await db.send(new ListTablesCommand({}))
    const got = await db.send(new GetItemCommand({ TableName: 'orders', Key }))
    assert.strictEqual(got.Item !== undefined, c.kept, c.name)
  }
})

test('start() says what is wrong with the engine it is given', async () => {
  const cases = [
    { name: 'not a module', wasm: new Uint8Array([1, 2, 3]), want: /WebAssembly|magic/i },
    { name: 'not an engine', wasm: 42, want: /options\.wasm is the engine/ },
  ]
  for (const c of cases) await assert.rejects(start({ wasm: c.wasm }), c.want, c.name)
  const logged = []
  await assert.rejects(start({ args: ['-port', '8000'], log: (line) => logged.push(line) }), /the engine did not start: .*-port/)
  assert.match(logged.join('\n'), /-port/)
  const saved = process.env.DYNAMOEMU_WASM
  process.env.DYNAMOEMU_WASM = '/nonexistent/dynamoemu.wasm'
  try {
    await assert.rejects(start(), /ENOENT/)
  } finally {
    if (saved === undefined) delete process.env.DYNAMOEMU_WASM
    else process.env.DYNAMOEMU_WASM = saved
  }
})
