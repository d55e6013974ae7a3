'use strict'
// The per-call cost of the engine in WebAssembly against the native
// server, on the same calls (npm/test.sh runs it in its scratch project;
// docs/wasm.md quotes it). For each of PutItem, GetItem and Query (25
// items of a 3-field item) it prints:
//   - sdk: the wall time of an AWS SDK v3 call, client included: through
//     dynamoemu/wasm's requestHandler, and over HTTP to the native server
//     (start() of the dynamoemu package) on 127.0.0.1;
//   - serving: the CPU time of answering the call, without the SDK: the
//     requestHandler's handle() on a ready request (this process's CPU),
//     and the native server's CPU for the same request sent over a
//     kept-alive connection (its threads' /proc schedstat).
// DYNAMOEMU_WASM_BENCH_CALLS sets the calls of each kind (default 2000).
const http = require('node:http')
const fs = require('node:fs')
const native = require('dynamoemu')
const wasm = require('dynamoemu/wasm')
const { DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand, QueryCommand } = require('@aws-sdk/client-dynamodb')

const calls = Number(process.env.DYNAMOEMU_WASM_BENCH_CALLS ?? 2000)
const warm = Math.min(500, calls)
const credentials = { accessKeyId: 'bench', secretAccessKey: 'bench' }
const key = (i) => `item#${String(i % calls).padStart(6, '0')}`
const inputs = {
  PutItem: (i) => ({ TableName: 'bench', Item: { pk: { S: 'p' }, sk: { S: key(i) }, name: { S: `name ${i}` }, n: { N: String(i) }, tags: { SS: ['a', 'b'] } } }),
  GetItem: (i) => ({ TableName: 'bench', Key: { pk: { S: 'p' }, sk: { S: key(i) } } }),
  Query: (i) => ({ TableName: 'bench', Limit: 25, KeyConditionExpression: 'pk = :p AND sk > :s', ExpressionAttributeValues: { ':p': { S: 'p' }, ':s': { S: key(i % (calls - 30)) } } }),
}
const commands = { PutItem: PutItemCommand, GetItem: GetItemCommand, Query: QueryCommand }

// request is the HTTP request of a call, as the SDK would send it (the
// emulator reads the signature's key and region, never checks it).
const request = (op, i) => ({
  method: 'POST', protocol: 'http:', hostname: 'wasm', path: '/', query: {},
  headers: {
    'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${op}`,
    authorization: 'AWS4-HMAC-SHA256 Credential=bench/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
  },
  body: JSON.stringify(inputs[op](i)),
})

// cpuOf is the CPU time (ns) of every thread of process pid so far.
function cpuOf(pid) {
  let ns = 0
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) ns += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0])
  return ns
}

// sdkLoop times calls of op through client: { cpu, wall }, microseconds
// a call; the CPU time is this process's and pid's, if any.
async function sdkLoop(client, op, pid) {
  for (let i = 0; i < warm; i++) await client.send(new commands[op](inputs[op](i)))
  const t = performance.now()
  const cpu = process.cpuUsage()
  const server = pid ? cpuOf(pid) : 0
  for (let i = 0; i < calls; i++) await client.send(new commands[op](inputs[op](i)))
  const own = process.cpuUsage(cpu)
  return {
    cpu: (own.user + own.system + (pid ? (cpuOf(pid) - server) / 1000 : 0)) / calls,
    wall: ((performance.now() - t) * 1000) / calls,
  }
}

async function main() {
  const timed = async (f) => {
    const t = performance.now()
    const v = await f()
    return [v, performance.now() - t]
  }
  const [server, nativeStart] = await timed(() => native.start())
  const [first, firstStart] = await timed(() => wasm.start())
  await first.stop()
  const [engine, nextStart] = await timed(() => wasm.start())
  const sdk = {
    wasm: new DynamoDBClient({ endpoint: engine.endpoint, region: 'us-east-1', credentials, requestHandler: engine.requestHandler }),
    native: new DynamoDBClient({ endpoint: server.endpoint, region: 'us-east-1', credentials }),
  }
  const rows = []
  try {
    for (const c of Object.values(sdk)) {
      await c.send(new CreateTableCommand({
        TableName: 'bench', BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      }))
    }
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const url = new URL(server.endpoint)
    const post = (req) => new Promise((resolve, reject) => {
      const r = http.request({ agent, host: url.hostname, port: url.port, method: 'POST', path: '/', headers: req.headers }, (res) => {
        res.on('data', () => {})
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`native: ${res.statusCode}`))))
      })
      r.on('error', reject)
      r.end(req.body)
    })
    for (const op of Object.keys(inputs)) {
      const row = { op, sdkWasm: await sdkLoop(sdk.wasm, op), sdkNative: await sdkLoop(sdk.native, op, server.process.pid) }
      const reqs = Array.from({ length: calls }, (_, i) => request(op, i))
      for (let i = 0; i < warm; i++) await engine.requestHandler.handle(reqs[i])
      let cpu = process.cpuUsage()
      for (const r of reqs) {
        const { response } = await engine.requestHandler.handle(r)
        if (response.statusCode !== 200) throw new Error(`wasm: ${response.statusCode}`)
      }
      cpu = process.cpuUsage(cpu)
      row.servingWasm = (cpu.user + cpu.system) / calls
      for (let i = 0; i < warm; i++) await post(reqs[i])
      const before = cpuOf(server.process.pid)
      for (const r of reqs) await post(r)
      row.servingNative = (cpuOf(server.process.pid) - before) / 1000 / calls
      rows.push(row)
    }
    agent.destroy()
  } finally {
    await server.stop()
    await engine.stop()
  }
  const f = (x) => x.toFixed(0).padStart(6)
  console.log(`wasm-bench: start, ms: native ${nativeStart.toFixed(0)}, wasm first ${firstStart.toFixed(0)}, wasm next ${nextStart.toFixed(0)}`)
  console.log(`wasm-bench: ${calls} calls of each kind after ${warm} warm-up calls; microseconds a call`)
  console.log('wasm-bench:          sdk cpu         sdk wall        serving cpu')
  console.log('wasm-bench: call     wasm  native    wasm  native    wasm  native')
  for (const r of rows) {
    console.log(`wasm-bench: ${r.op.padEnd(7)}${f(r.sdkWasm.cpu)}  ${f(r.sdkNative.cpu)}  ${f(r.sdkWasm.wall)}  ${f(r.sdkNative.wall)}  ${f(r.servingWasm)}  ${f(r.servingNative)}`)
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
