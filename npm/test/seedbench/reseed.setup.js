'use strict'
// Re-seeding per test, as a suite does without branches: before each
// test the table is deleted, made again and its items written with
// BatchWriteItem (25 a call, 8 calls at a time), in the worker's namespace.
const fs = require('node:fs')
const path = require('node:path')
const { DynamoDBClient, CreateTableCommand, DeleteTableCommand, BatchWriteItemCommand } = require('@aws-sdk/client-dynamodb')

const table = JSON.parse(fs.readFileSync(path.join(__dirname, 'tables.json'), 'utf8'))
const items = JSON.parse(fs.readFileSync(path.join(__dirname, 'items/tasks.json'), 'utf8'))
let client
beforeEach(async () => {
  client ??= new DynamoDBClient({})
  await client.send(new DeleteTableCommand({ TableName: 'tasks' })).catch(() => {})
  await client.send(new CreateTableCommand(table))
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const batch = items.slice(next, next + 25)
      next += 25
      await client.send(new BatchWriteItemCommand({ RequestItems: { tasks: batch.map((Item) => ({ PutRequest: { Item } })) } }))
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
}, 600000)
afterAll(() => client?.destroy())
