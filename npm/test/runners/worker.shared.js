'use strict'
// One test body for Jest and Vitest: a versioned command row written and
// read through the SDK's document client, and proof that the worker's
// namespace is its own (every row it sees is its own worker's).
const { DynamoDBClient } = require('@aws-sdk/client-dynamodb')
const { DynamoDBDocumentClient, PutCommand, GetCommand, ScanCommand } = require('@aws-sdk/lib-dynamodb')

module.exports = async function commandRow(file, worker, expect) {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({})) // endpoint, region, credentials: from the set-up
  const TableName = 'tenant001-demo-command'
  const Item = { pk: 'ORDER#tenant001', sk: `ORDER#${file}@1`, version: 1, worker: String(worker), name: file }
  await doc.send(new PutCommand({ TableName, Item, ConditionExpression: 'attribute_not_exists(pk) AND attribute_not_exists(sk)' }))
  const { Item: got } = await doc.send(new GetCommand({ TableName, Key: { pk: Item.pk, sk: Item.sk } }))
  expect(got).toEqual(Item)
  const { Items } = await doc.send(new ScanCommand({ TableName }))
  for (const it of Items) expect(it.worker).toBe(String(worker))
}
