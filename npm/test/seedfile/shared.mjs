// Each file starts from the model's three sample items; its first test
// writes, its second sees that write (one fork per file).
import { afterAll, expect, test } from 'vitest'
import { DynamoDBClient, ScanCommand, PutItemCommand } from '@aws-sdk/client-dynamodb'

export default function fileTests(file) {
  const c = new DynamoDBClient({})
  afterAll(() => c.destroy())
  const count = async () => (await c.send(new ScanCommand({ TableName: 'Blog', Select: 'COUNT' }))).Count
  test(`${file}: the seed, then a write`, async () => {
    expect(await count()).toBe(3)
    await c.send(new PutItemCommand({ TableName: 'Blog', Item: { PK: { S: file }, SK_GSI1PK: { S: 'x' } } }))
  })
  test(`${file}: the file's fork keeps its write`, async () => {
    expect(await count()).toBe(4)
  })
}
