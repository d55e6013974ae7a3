'use strict'
// Stream handlers through the JS API (npm/test.sh runs it with node
// --test beside api.test.js): a handler in this process gets each batch
// of a table's stream, and drainStreams() resolves once every record
// written before it was handled, so the test asserts without sleeping.
const test = require('node:test')
const assert = require('node:assert')
const { start } = require('dynamoemu')
const { DynamoDBClient, CreateTableCommand, PutItemCommand } = require('@aws-sdk/client-dynamodb')

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' }

test('onStream and drainStreams: the handler saw every write, filtered', async () => {
  const emu = await start()
  try {
    const client = new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials })
    await client.send(new CreateTableCommand({
      TableName: 'tasks-command', BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    }))
    const seen = []
    let failed = false
    await emu.onStream({
      TableName: 'tasks-command',
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'] }) }] },
    }, async (event) => {
      if (!failed) { failed = true; throw new Error('first call fails, and is retried') }
      for (const r of event.Records) seen.push(r.dynamodb.NewImage.pk.S)
    })
    for (let round = 0; round < 20; round++) {
      const pk = `task#${round}`
      await client.send(new PutItemCommand({ TableName: 'tasks-command', Item: { pk: { S: pk }, n: { N: '1' } } }))
      await client.send(new PutItemCommand({ TableName: 'tasks-command', Item: { pk: { S: pk }, n: { N: '2' } } })) // a MODIFY: filtered out
      await emu.drainStreams()
      assert.strictEqual(seen[seen.length - 1], pk)
    }
    assert.strictEqual(seen.length, 20)
  } finally {
    await emu.stop()
  }
})

test('drainStreams rejects naming a stuck mapping', async () => {
  const emu = await start()
  try {
    const client = new DynamoDBClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials })
    await client.send(new CreateTableCommand({
      TableName: 'stuck', BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    }))
    const uuid = await emu.onStream({ TableName: 'stuck' }, async () => { throw new Error('always') })
    await client.send(new PutItemCommand({ TableName: 'stuck', Item: { pk: { S: 'x' } } }))
    await assert.rejects(emu.drainStreams({ timeoutMs: 300 }), new RegExp(uuid))
  } finally {
    await emu.stop()
  }
})
