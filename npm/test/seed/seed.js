'use strict'
// The seed script (DYNAMOEMU_SEED_SCRIPT): run once, after the tables and
// the items directory, with the base's endpoint, region and credentials.
// SEED_ITEMS items (1000 unless set) through the AWS SDK.
const { DynamoDBClient, BatchWriteItemCommand } = require('@aws-sdk/client-dynamodb')

module.exports = async ({ endpoint, region, credentials }) => {
  const client = new DynamoDBClient({ endpoint, region, credentials })
  const n = Number(process.env.SEED_ITEMS || 1000)
  for (let i = 0; i < n; i += 25) {
    const batch = []
    for (let j = i; j < Math.min(n, i + 25); j++) {
      batch.push({ PutRequest: { Item: { pk: { S: 'TENANT#acme' }, sk: { S: `TASK#${String(j).padStart(6, '0')}` }, title: { S: `task ${j}` } } } })
    }
    await client.send(new BatchWriteItemCommand({ RequestItems: { tasks: batch } }))
  }
  client.destroy()
}
