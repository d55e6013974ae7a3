'use strict'
// One test of the benchmark: the seed is there (a seeded item read), no
// earlier test's write is (isolation), then writes: a new item and an
// update of a seeded one. The same body for every mode; jest-dynalite
// gives its endpoint in MOCK_DYNAMODB_ENDPOINT, dynamoemu's preset in the
// environment the SDK reads.
const { DynamoDBClient, GetItemCommand, PutItemCommand, UpdateItemCommand } = require('@aws-sdk/client-dynamodb')

module.exports = function benchTests(file, n, items) {
  const endpoint = process.env.MOCK_DYNAMODB_ENDPOINT
  const client = new DynamoDBClient(endpoint
    ? { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
    : {})
  afterAll(() => client.destroy())
  const key = (i) => ({ pk: { S: `TENANT#${i % 100}` }, sk: { S: `TASK#${String(i).padStart(6, '0')}` } })
  for (let i = 0; i < n; i++) {
    test(`${file} ${i}`, async () => {
      const seeded = await client.send(new GetItemCommand({ TableName: 'tasks', Key: key((i * 997) % items), ConsistentRead: true }))
      expect(seeded.Item.title.S).toBe(`task ${(i * 997) % items} of the seed`)
      if (i > 0) {
        const prev = await client.send(new GetItemCommand({ TableName: 'tasks', Key: { pk: { S: 'NEW' }, sk: { S: `${file}-${i - 1}` } }, ConsistentRead: true }))
        expect(prev.Item).toBeUndefined()
      }
      await client.send(new PutItemCommand({ TableName: 'tasks', Item: { pk: { S: 'NEW' }, sk: { S: `${file}-${i}` } } }))
      await client.send(new UpdateItemCommand({ TableName: 'tasks', Key: key(i), UpdateExpression: 'SET done = :t', ExpressionAttributeValues: { ':t': { BOOL: true } } }))
    })
  }
}
