'use strict'
// Each test starts from the seed (1000 script items, 2 fixture items, in
// a table with a GSI and a stream), whatever the tests before it in its
// worker wrote: a fork per test.
// The client is made once per file, with the environment's credentials.
const { DynamoDBClient } = require('@aws-sdk/client-dynamodb')
const { DynamoDBDocumentClient, QueryCommand, PutCommand, DeleteCommand, GetCommand } = require('@aws-sdk/lib-dynamodb')

const seeded = Number(process.env.SEED_ITEMS || 1000) + 2

module.exports = function seedTests(file, n) {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({}))
  afterAll(() => db.destroy())
  // A count right after the test's own writes reads consistently: an
  // eventually consistent Query may miss them on AWS, and does in
  // consistency fuzzing (DYNAMOEMU_CONSISTENCY=fuzz:SEED, under which
  // npm/test.sh runs this suite too).
  const count = async () => {
    let total = 0
    let ExclusiveStartKey
    do {
      const out = await db.send(new QueryCommand({ TableName: 'tasks', KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': 'TENANT#acme' }, Select: 'COUNT', ConsistentRead: true, ExclusiveStartKey }))
      total += out.Count
      ExclusiveStartKey = out.LastEvaluatedKey
    } while (ExclusiveStartKey)
    return total
  }
  for (let i = 0; i < n; i++) {
    test(`${file} ${i}: starts from the seed and writes`, async () => {
      expect(await count()).toBe(seeded)
      const fixture = await db.send(new GetCommand({ TableName: 'tasks', Key: { pk: 'TENANT#acme', sk: 'TASK#fixture-2' } }))
      expect(fixture.Item).toEqual({ pk: 'TENANT#acme', sk: 'TASK#fixture-2', title: 'plain JSON', tags: ['a', 'b'], owner: { name: 'Ada' } })
      await db.send(new PutCommand({ TableName: 'tasks', Item: { pk: 'TENANT#acme', sk: `TASK#new-${file}-${i}` } }))
      await db.send(new DeleteCommand({ TableName: 'tasks', Key: { pk: 'TENANT#acme', sk: 'TASK#000000' } }))
      await db.send(new DeleteCommand({ TableName: 'tasks', Key: { pk: 'TENANT#acme', sk: 'TASK#fixture-1' } }))
      expect(await count()).toBe(seeded - 1)
    })
  }
}
