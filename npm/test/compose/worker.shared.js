'use strict'
// One test body: the project's own set-up ran, the preset's too (the
// table named as the framework names it, `${NODE_ENV}-${APP_NAME}-orders`,
// made in this worker's namespace), and a row round-trips through it.
const { DynamoDBClient, ListTablesCommand } = require('@aws-sdk/client-dynamodb')
const { DynamoDBDocumentClient, PutCommand, GetCommand } = require('@aws-sdk/lib-dynamodb')

module.exports = async function orderRow(file) {
  expect(process.env.OWN_GLOBAL_SETUP).toBe('ran')
  expect(process.env.OWN_SETUP_FILE).toBe('ran')
  const client = new DynamoDBClient({})
  const { TableNames } = await client.send(new ListTablesCommand({}))
  expect(TableNames).toEqual(['test-demo-orders'])
  const doc = DynamoDBDocumentClient.from(client)
  const Item = { pk: 'ORDER#tenant001', sk: `ORDER#${file}`, worker: process.env.JEST_WORKER_ID }
  await doc.send(new PutCommand({ TableName: 'test-demo-orders', Item }))
  const { Item: got } = await doc.send(new GetCommand({ TableName: 'test-demo-orders', Key: { pk: Item.pk, sk: Item.sk } }))
  expect(got).toEqual(Item)
}
