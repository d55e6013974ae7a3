'use strict'
// Consistency fuzzing through the JS helper (npm/test.sh runs it with
// node --test beside api.test.js): a suite with three planted
// consistency bugs (a GSI read right after a write, an eventually
// consistent GetItem right after a put, a stream consumer that reads
// once) passes against a normal server and fails, on exactly those
// three, against one started with { consistency: 'fuzz:SEED' }, whose
// report (staleReads) names each stale read; the same seed fails the
// same cases with the same reports.
const test = require('node:test')
const assert = require('node:assert')
const { start } = require('dynamoemu')
const {
  DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand, QueryCommand,
} = require('@aws-sdk/client-dynamodb')
const {
  DynamoDBStreamsClient, DescribeStreamCommand, GetShardIteratorCommand, GetRecordsCommand,
} = require('@aws-sdk/client-dynamodb-streams')

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' }
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// retry runs f until it stops throwing, as a client that knows reads
// are eventually consistent does.
async function retry (f) {
  for (let i = 0; ; i++) {
    try { return await f() } catch (err) { if (i === 50) throw err }
    await sleep(10)
  }
}

async function iterator (env) {
  const ds = await env.streams.send(new DescribeStreamCommand({ StreamArn: env.stream }))
  const it = await env.streams.send(new GetShardIteratorCommand({
    StreamArn: env.stream, ShardId: ds.StreamDescription.Shards[0].ShardId, ShardIteratorType: 'TRIM_HORIZON',
  }))
  return it.ShardIterator
}

const put = (env, id, owner) => env.db.send(new PutItemCommand({ TableName: env.table, Item: { pk: { S: id }, owner: { S: owner } } }))
const ordersOf = async (env, owner) => (await env.db.send(new QueryCommand({
  TableName: env.table, IndexName: 'byOwner', KeyConditionExpression: '#o = :o',
  ExpressionAttributeNames: { '#o': 'owner' }, ExpressionAttributeValues: { ':o': { S: owner } },
}))).Items.length
const get = async (env, id, consistent) => (await env.db.send(new GetItemCommand({
  TableName: env.table, Key: { pk: { S: id } }, ConsistentRead: consistent,
}))).Item

const cases = {
  'gsi read after write (bug)': async (env) => {
    await put(env, 'o1', 'alice')
    assert.strictEqual(await ordersOf(env, 'alice'), 1)
  },
  'gsi read after write, retried': async (env) => {
    await put(env, 'o1', 'bob')
    await retry(async () => assert.strictEqual(await ordersOf(env, 'bob'), 1))
  },
  'eventually consistent get after put (bug)': async (env) => {
    await put(env, 'o2', 'carol')
    assert.ok(await get(env, 'o2', false))
  },
  'strongly consistent get after put': async (env) => {
    await put(env, 'o3', 'dave')
    assert.ok(await get(env, 'o3', true))
  },
  'stream consumer reads once (bug)': async (env) => {
    const it = await iterator(env)
    await put(env, 'o5', 'gina')
    const out = await env.streams.send(new GetRecordsCommand({ ShardIterator: it }))
    assert.strictEqual(out.Records.length, 1)
  },
  'stream consumer polls': async (env) => {
    let it = await iterator(env)
    await put(env, 'o6', 'hugo')
    let got = 0
    await retry(async () => {
      const out = await env.streams.send(new GetRecordsCommand({ ShardIterator: it }))
      it = out.NextShardIterator
      got += out.Records.length
      assert.strictEqual(got, 1)
    })
  },
}

// runSuite runs every case against a new server started with opts and
// resolves the failed cases' names and, per case, the stale reads.
async function runSuite (opts) {
  const emu = await start(opts)
  try {
    const db = new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials })
    const streams = new DynamoDBStreamsClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials })
    const failed = []
    const stale = {}
    let n = 0
    for (const [name, run] of Object.entries(cases)) {
      const table = `case${n++}`
      const t = await db.send(new CreateTableCommand({
        TableName: table, BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'owner', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [{ IndexName: 'byOwner', KeySchema: [{ AttributeName: 'owner', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }],
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      }))
      await emu.staleReads({ reset: true })
      try {
        await run({ db, streams, table, stream: t.TableDescription.LatestStreamArn })
      } catch {
        failed.push(name)
      }
      const rep = await emu.staleReads()
      if (rep.staleReads.length) stale[name] = rep.staleReads.map(({ at, missed, ...r }) => ({ ...r, missed: missed.map(({ at, ...m }) => m) }))
    }
    return { failed, stale }
  } finally {
    await emu.stop()
  }
}

test('consistency fuzzing fails the planted bugs, and only them', async () => {
  const normal = await runSuite({})
  assert.deepStrictEqual(normal.failed, [])
  assert.deepStrictEqual(normal.stale, {})

  const fuzzed = await runSuite({ consistency: 'fuzz:42' })
  const bugs = Object.keys(cases).filter((n) => n.endsWith('(bug)'))
  assert.deepStrictEqual(fuzzed.failed, bugs)
  const [gsi] = fuzzed.stale['gsi read after write (bug)']
  assert.strictEqual(gsi.view, 'index')
  assert.strictEqual(gsi.index, 'byOwner')
  assert.deepStrictEqual(gsi.key, { owner: { S: 'alice' } })
  assert.deepStrictEqual(gsi.missed[0].key, { pk: { S: 'o1' } })
  const [get] = fuzzed.stale['eventually consistent get after put (bug)']
  assert.strictEqual(get.op, 'GetItem')
  assert.deepStrictEqual(get.key, { pk: { S: 'o2' } })
  const [rec] = fuzzed.stale['stream consumer reads once (bug)']
  assert.strictEqual(rec.view, 'stream')
  assert.deepStrictEqual(rec.missed[0].key, { pk: { S: 'o5' } })
  assert.strictEqual(fuzzed.stale['strongly consistent get after put'], undefined)

  const again = await runSuite({ consistency: 'fuzz:42' })
  assert.deepStrictEqual(again, fuzzed, 'the same seed gives the same failures and reports')
})
