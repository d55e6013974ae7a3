'use strict'
// ReportBatchItemFailures with BatchSize 1, as a user's Jest suite meets
// it: the function is a server of Lambda's Invoke API (as
// serverless-offline's lambda port serves it) that a mapping's Endpoint
// names, the table is written through the AWS SDK v3, and each test
// drains the streams (POST /dynamoemu/streams/drain) before it looks.
// With BatchSize 1 a report always names the batch's first record: the
// record must be retried from its sequence number ("Lambda then retries
// all records starting from that checkpoint") until it succeeds, or until
// MaximumRetryAttempts retries ran out and its invocation record went to
// the on-failure destination. emulator/stream_handlers_jest_test.go runs
// this file against an emulator at DYNAMODB_ENDPOINT.
const http = require('node:http')
const { DynamoDBClient, CreateTableCommand, PutItemCommand } = require('@aws-sdk/client-dynamodb')

const endpoint = process.env.DYNAMODB_ENDPOINT
const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'jest', secretAccessKey: 'x' } })

const calls = [] // each invocation: { fn, ids }
const failures = [] // the invocation records POSTed to /failures
const answers = {} // by function name: (event, n) => the function's answer
let server
let url

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => { body += c })
    req.on('end', () => {
      if (req.url === '/failures') {
        failures.push(JSON.parse(body))
        res.end()
        return
      }
      const m = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url)
      if (req.method !== 'POST' || !m) {
        res.writeHead(404)
        res.end()
        return
      }
      const event = JSON.parse(body)
      const fn = decodeURIComponent(m[1])
      const n = calls.filter((c) => c.fn === fn).length
      calls.push({ fn, ids: event.Records.map((r) => r.dynamodb.Keys.id.S) })
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(answers[fn](event, n)))
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${server.address().port}`
})

afterAll(() => new Promise((resolve) => server.close(resolve)))

// admin sends a request to the emulator's own endpoints and Lambda's API.
async function admin(method, path, body) {
  const res = await fetch(endpoint + path, {
    method, headers: { 'Content-Type': 'application/json' }, body: body && JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return text ? JSON.parse(text) : null
}

// setUp makes a table with a stream and a mapping of it to the function
// fn (BatchSize 1, ReportBatchItemFailures, settings), and returns the
// mapping's UUID.
async function setUp(table, fn, settings) {
  const out = await client.send(new CreateTableCommand({
    TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  }))
  const mapping = await admin('POST', '/2015-03-31/event-source-mappings', {
    EventSourceArn: out.TableDescription.LatestStreamArn, FunctionName: fn, StartingPosition: 'TRIM_HORIZON',
    BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'], Endpoint: url, ...settings,
  })
  return mapping.UUID
}

async function put(table, id) {
  await client.send(new PutItemCommand({ TableName: table, Item: { id: { S: id } } }))
}

// statusOf is the mapping's state and progress (GET /dynamoemu/streams/mappings).
const statusOf = async (uuid) => (await admin('GET', '/dynamoemu/streams/mappings')).mappings.find((m) => m.uuid === uuid)
const drain = () => admin('POST', '/dynamoemu/streams/drain', { timeout: '30s' })
const callsOf = (fn) => calls.filter((c) => c.fn === fn).map((c) => c.ids)
const failed = (event) => ({ batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.dynamodb.SequenceNumber })) })

test('the first record failing twice, then succeeding: 3 calls', async () => {
  answers.twice = (event, n) => (event.Records[0].dynamodb.Keys.id.S === 'a' && n < 2 ? failed(event) : { batchItemFailures: [] })
  const uuid = await setUp('orders-twice', 'twice')
  await put('orders-twice', 'a')
  await put('orders-twice', 'b')
  await drain()
  expect(callsOf('twice')).toEqual([['a'], ['a'], ['a'], ['b']])
  const status = await statusOf(uuid)
  expect(status.discarded).toBe(0)
  expect(status.lastProcessingResult).toBe('OK')
})

test('failing forever with MaximumRetryAttempts 2: 3 calls and one on-failure record', async () => {
  let seq
  answers.forever = (event) => {
    if (event.Records[0].dynamodb.Keys.id.S !== 'a') return null
    seq = event.Records[0].dynamodb.SequenceNumber
    return failed(event)
  }
  const uuid = await setUp('orders-forever', 'forever', {
    MaximumRetryAttempts: 2, DestinationConfig: { OnFailure: { Destination: `${url}/failures` } },
  })
  await put('orders-forever', 'a')
  await put('orders-forever', 'b')
  await drain()
  expect(callsOf('forever')).toEqual([['a'], ['a'], ['a'], ['b']])
  expect(failures).toHaveLength(1)
  const [doc] = failures
  expect(doc.requestContext).toEqual({
    requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    functionArn: expect.stringMatching(/:function:forever$/),
    condition: 'RetryAttemptsExhausted',
    approximateInvokeCount: 3,
  })
  expect(doc.responseContext).toEqual({ statusCode: 200, executedVersion: '$LATEST', functionError: null })
  expect(doc.version).toBe('1.0')
  expect(doc.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  expect(doc.DDBStreamBatchInfo).toEqual({
    shardId: expect.stringMatching(/^shardId-/),
    startSequenceNumber: seq,
    endSequenceNumber: seq,
    approximateArrivalOfFirstRecord: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    approximateArrivalOfLastRecord: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    batchSize: 1,
    streamArn: expect.stringContaining(':table/orders-forever/stream/'),
  })
  const status = await statusOf(uuid)
  expect(status.discarded).toBe(1)
  expect(status.lastError).toContain('RetryAttemptsExhausted')
})

test('without ReportBatchItemFailures the same answer is a success: 1 call', async () => {
  answers.unread = (event) => failed(event)
  await setUp('orders-unread', 'unread', { FunctionResponseTypes: [] })
  await put('orders-unread', 'a')
  await drain()
  expect(callsOf('unread')).toEqual([['a']])
})
