'use strict'
// One test body for Jest and Vitest with DYNAMOEMU_RESET=1: every file
// starts with the table made and empty (its worker's server was rewound
// before it), writes three rows and sees only them.
const { DynamoDBClient } = require('@aws-sdk/client-dynamodb')
const { DynamoDBDocumentClient, PutCommand, ScanCommand } = require('@aws-sdk/lib-dynamodb')

module.exports = async function startsEmpty(file, expect) {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}))
  const TableName = 'tenant001-demo-command'
  expect((await doc.send(new ScanCommand({ TableName }))).Items).toEqual([])
  for (let v = 1; v <= 3; v++) {
    await doc.send(new PutCommand({ TableName, Item: { pk: 'ORDER#tenant001', sk: `ORDER#${file}@${v}`, version: v, file } }))
  }
  const { Items } = await doc.send(new ScanCommand({ TableName }))
  expect(Items.map((it) => it.file)).toEqual([file, file, file])
}
