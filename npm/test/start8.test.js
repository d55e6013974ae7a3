'use strict'
// Ready means ready: eight servers started at once, as eight test
// workers start theirs (DYNAMOEMU_RESET=1, or a preset whose global
// set-up is not called), each answering its first API request, made
// with no retry, as soon as start() resolves. Prints the time from the
// eight start() calls to the eighth first answer (no bound asserted: a
// loaded machine is slow, not wrong).
const test = require('node:test')
const assert = require('node:assert')
const { start } = require('dynamoemu')
const { DynamoDBClient, CreateTableCommand, PutItemCommand } = require('@aws-sdk/client-dynamodb')

test('eight servers started at once each answer their first request', async () => {
  const t0 = process.hrtime.bigint()
  const emus = await Promise.all(Array.from({ length: 8 }, () => start()))
  try {
    const started = process.hrtime.bigint()
    await Promise.all(emus.map(async (emu, i) => {
      const client = new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', maxAttempts: 1,
        credentials: { accessKeyId: `worker${i}`, secretAccessKey: 'x' } })
      await client.send(new CreateTableCommand({ TableName: 'tasks', BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] }))
      const put = await client.send(new PutItemCommand({ TableName: 'tasks', Item: { pk: { S: 'first' } } }))
      assert.strictEqual(put.$metadata.attempts, 1)
      client.destroy()
    }))
    const done = process.hrtime.bigint()
    console.log(`start8: 8 servers started in ${Number(started - t0) / 1e6} ms, all first requests answered ${Number(done - t0) / 1e6} ms after the start`)
  } finally {
    await Promise.all(emus.map((e) => e.stop()))
  }
})
