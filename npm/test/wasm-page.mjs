// The page of wasm.browser.test.js, bundled by esbuild for the browser:
// the engine (dynamoemu/wasm, the file served at /dynamoemu.wasm) and the
// AWS SDK v3 in the page, CreateTable, PutItem and Query, the Query's
// answer written into #result.
import { start } from 'dynamoemu/wasm'
import { DynamoDBClient, CreateTableCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb'

async function main() {
  const emu = await start({ wasm: '/dynamoemu.wasm' })
  const db = new DynamoDBClient({
    endpoint: emu.endpoint, region: 'us-east-1', requestHandler: emu.requestHandler,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  })
  await db.send(new CreateTableCommand({
    TableName: 'orders', BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  }))
  for (let i = 1; i <= 3; i++) {
    await db.send(new PutItemCommand({ TableName: 'orders', Item: { pk: { S: 'tenant#1' }, sk: { S: `order#${i}` }, total: { N: String(10 * i) } } }))
  }
  const got = await db.send(new QueryCommand({
    TableName: 'orders', KeyConditionExpression: 'pk = :p AND sk >= :s',
    ExpressionAttributeValues: { ':p': { S: 'tenant#1' }, ':s': { S: 'order#2' } },
  }))
  return { count: got.Count, items: got.Items.map((it) => [it.sk.S, it.total.N]) }
}

const out = document.getElementById('result')
main().then(
  (result) => { out.textContent = JSON.stringify(result) },
  (err) => { out.textContent = JSON.stringify({ error: String(err?.stack ?? err) }) },
)
