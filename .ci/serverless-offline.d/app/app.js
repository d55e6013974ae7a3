'use strict'
// The driver of .ci/serverless-offline, from the generated project's root:
//
//   node app.js run MODE N R   N commands written through the template app's HTTP
//                              API (POST /api/master on serverless-offline's port
//                              3000, one at a time), each of which must reach the
//                              data table through the app's handler: the stream
//                              event (MODE dynamoemu: dynamoemu's mapping; MODE
//                              poller: serverless-offline-dynamodb-streams) runs
//                              DataSyncNewCommandEventHandler, which starts the
//                              `command` state machine (outside.js), whose states
//                              invoke the app again and write the data row. R is
//                              serverless-offline's reloadHandler. Prints the figures.
//
// The API's JWT authorizer is the template's (issuer cognito-local, its
// client id as audience) with the template's ignoreJWTSignature: true,
// so the token is made here, unsigned, with the claims cognito-local's
// seeded user (infra-local/cognito-local/db) carries: no Cognito runs.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { DynamoDBClient, GetItemCommand } = require('@aws-sdk/client-dynamodb')

const env = Object.fromEntries(fs.readFileSync('.env', 'utf8').split('\n')
  .map((l) => l.replace(/\s+#.*$/, '').match(/^([A-Z_0-9]+)=(.*)$/)).filter(Boolean).map((m) => [m[1], m[2].replace(/^"|"$/g, '')]))
const api = `http://localhost:${env.LOCAL_HTTP_PORT || 3000}`
const dataTable = `${env.NODE_ENV}-${env.APP_NAME}-master-data`
const ddb = new DynamoDBClient({ endpoint: 'http://localhost:8000', region: env.DYNAMODB_REGION })
const outsideLog = 'outside.log'

const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url')
function token() {
  const now = Math.floor(Date.now() / 1000)
  return [b64({ alg: 'RS256', typ: 'JWT' }), b64({
    sub: 'user-0001', iss: 'http://localhost:9229/local_2G7noHgW', aud: 'dnk8y7ii3wled35p3lw0l2cd7', token_use: 'id',
    'cognito:username': 'admin2', 'custom:tenant': 'mbc', 'custom:roles': '[{"tenant":"","role":"admin"}]', iat: now, exp: now + 3600,
  }), 'dW5zaWduZWQ'].join('.')
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// waitFor polls fn every 10 ms until it returns something (what, 120 s at most).
async function waitFor(what, fn) {
  for (const end = Date.now() + 120000; Date.now() < end; await sleep(10)) {
    const v = await fn()
    if (v) return v
  }
  throw new Error(`${what}: not within 120 s`)
}

// outside is the stand-ins' log line about the execution of (pk, sk) v1.
function outside(pk, sk, event) {
  const name = `-${pk.replace('#', '-')}-${sk}-v1-`
  const lines = fs.existsSync(outsideLog) ? fs.readFileSync(outsideLog, 'utf8').trim().split('\n').filter(Boolean) : []
  return lines.map((l) => JSON.parse(l)).find((e) => e.sfn === event && e.name.includes(name))
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]

async function run(mode, n, reloadHandler) {
  const toHandler = [] // the API's answer -> the stream handler starts the execution
  const toData = [] // the API's answer -> the data row
  const api0 = []
  for (let i = 0; i < n; i++) {
    const pk = 'MASTER#mbc'
    const sk = `${mode}${reloadHandler === 'true' ? 'Reload' : 'Warm'}${i}`
    const t0 = Date.now()
    const res = await fetch(`${api}/api/master`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: token(), 'X-Tenant-Code': 'mbc' },
      body: JSON.stringify({ pk, sk, id: `${pk}#${sk}`, code: sk, name: `item ${i}`, version: 0, type: 'MASTER', tenantCode: 'mbc', attributes: { master: { i } } }),
    })
    const body = await res.text()
    assert.equal(res.status, 201, `POST /api/master: ${res.status} ${body}`)
    assert.equal(JSON.parse(body).sk, `${sk}@1`)
    const written = Date.now()
    api0.push(written - t0)
    const started = await waitFor(`the stream handler for ${sk}`, () => outside(pk, sk, 'started'))
    const row = await waitFor(`the data row ${pk} ${sk} in ${dataTable}`, async () =>
      (await ddb.send(new GetItemCommand({ TableName: dataTable, Key: { pk: { S: pk }, sk: { S: sk } }, ConsistentRead: true }))).Item)
    const atData = Date.now()
    assert.equal(row.name.S, `item ${i}`)
    assert.equal(row.version.N, '1')
    await waitFor(`the execution of ${sk}`, () => {
      const failed = outside(pk, sk, 'failed')
      if (failed) throw new Error(`the execution of ${sk} failed: ${failed.error} ${failed.cause}`)
      return outside(pk, sk, 'succeeded')
    })
    toHandler.push(started.at - written)
    toData.push(atData - written)
  }
  const fig = (xs) => ({ median: pct(xs, 0.5), p95: pct(xs, 0.95), max: Math.max(...xs) })
  console.log(JSON.stringify({ mode, reloadHandler, commands: n, apiMs: fig(api0), writeToHandlerMs: fig(toHandler), writeToDataRowMs: fig(toData) }))
}

const [cmd, mode, n, reload] = process.argv.slice(2)
if (cmd !== 'run') {
  console.error(`unknown command ${cmd}`)
  process.exit(2)
}
run(mode, Number(n || 3), reload || 'true').catch((err) => {
  console.error(err)
  process.exit(1)
})
