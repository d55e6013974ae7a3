'use strict'
// Writes the benchmark suite into the current directory: the table file,
// items/tasks.json (ITEMS items, DynamoDB JSON), FILES test files of
// TESTS tests each, and jest-dynalite's configuration (the same table
// with the same items as its data).
const fs = require('node:fs')

const items = Number(process.env.ITEMS || 10000)
const files = Number(process.env.FILES || 10)
const tests = Number(process.env.TESTS || 20)
const table = {
  TableName: 'tasks',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
}
const list = []
for (let i = 0; i < items; i++) {
  list.push({ pk: { S: `TENANT#${i % 100}` }, sk: { S: `TASK#${String(i).padStart(6, '0')}` }, title: { S: `task ${i} of the seed` }, points: { N: String(i % 13) } })
}
fs.writeFileSync('tables.json', JSON.stringify(table))
fs.mkdirSync('items', { recursive: true })
fs.writeFileSync('items/tasks.json', JSON.stringify(list))
// jest-dynalite's data is plain JSON (it writes it with the DocumentClient).
const plain = list.map((it) => ({ pk: it.pk.S, sk: it.sk.S, title: it.title.S, points: Number(it.points.N) }))
fs.writeFileSync('jest-dynalite-config.js', `module.exports = { tables: [${JSON.stringify({ ...table, data: plain })}], basePort: 18600 }\n`)
for (let f = 0; f < files; f++) {
  fs.writeFileSync(`f${f}.bench.test.js`, `require('./bench.shared.js')('f${f}', ${tests}, ${items})\n`)
}
