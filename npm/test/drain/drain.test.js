'use strict'
// drainStreams under Jest, 50 times (npm/test.sh runs this file): each
// case writes an item, and after `await emu.drainStreams()` asserts
// what the handler saw, with no sleep anywhere. Every fifth case the
// handler fails its first call, so the drain also waits for the retry.
const { start } = require('dynamoemu')
const { DynamoDBClient, CreateTableCommand, PutItemCommand, UpdateItemCommand } = require('@aws-sdk/client-dynamodb')

let emu
let client
const seen = [] // every record the handler got, in order
const failOnce = new Set() // pks whose first delivery fails
let calls = 0

beforeAll(async () => {
  emu = await start({ args: ['-streamRetryBackoff', '1ms'] })
  client = new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'drain', secretAccessKey: 'x' } })
  await client.send(new CreateTableCommand({
    TableName: 'tasks-command', BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  }))
  await emu.onStream({
    TableName: 'tasks-command',
    FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'] }) }] },
  }, async (event) => {
    calls++
    for (const r of event.Records) {
      const pk = r.dynamodb.NewImage.pk.S
      if (failOnce.delete(pk)) throw new Error(`first delivery of ${pk} fails`)
    }
    for (const r of event.Records) {
      seen.push({ pk: r.dynamodb.NewImage.pk.S, n: r.dynamodb.NewImage.n.N, eventName: r.eventName, source: r.eventSourceARN })
    }
  })
})

afterAll(async () => {
  await emu?.stop()
})

const cases = Array.from({ length: 50 }, (_, i) => i)

test.each(cases)('write %i, drain, the handler saw it', async (i) => {
  const pk = `task#${i}`
  if (i % 5 === 4) failOnce.add(pk)
  const before = seen.length
  const callsBefore = calls
  await client.send(new PutItemCommand({ TableName: 'tasks-command', Item: { pk: { S: pk }, n: { N: String(i) } } }))
  await client.send(new UpdateItemCommand({ // a MODIFY: the filter drops it
    TableName: 'tasks-command', Key: { pk: { S: pk } },
    UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': { N: String(i + 1000) } },
  }))
  await emu.drainStreams()
  expect(seen.slice(before)).toEqual([
    { pk, n: String(i), eventName: 'INSERT', source: expect.stringContaining(':table/tasks-command/stream/') },
  ])
  expect(calls - callsBefore).toBe(i % 5 === 4 ? 2 : 1)
  expect(failOnce.has(pk)).toBe(false)
})
