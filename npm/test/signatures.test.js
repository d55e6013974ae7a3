'use strict'
// Signed requests through the AWS SDK for JavaScript v3, against the
// server with and without -credentials (npm/test.sh runs it with node
// --test after api.test.js): the right key, a wrong secret, an unknown
// key, a clock 20 minutes behind and ahead (the SDK's systemClockOffset),
// no Authorization header, and query-string ("presigned") authentication
// from the SDK's own presigner. With -credentials each fails with
// DynamoDB's error; without it any signature passes, as in DynamoDB Local.
const test = require('node:test')
const assert = require('node:assert')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { start } = require('dynamoemu')
const { DynamoDBClient, ListTablesCommand } = require('@aws-sdk/client-dynamodb')
const { SignatureV4 } = require('@smithy/signature-v4')
const { Sha256 } = require('@aws-crypto/sha256-js')

const key = { accessKeyId: 'AKIAJSSDKTEST01', secretAccessKey: 'js-sdk-secret/with+symbols' }
const region = 'us-east-1'

// errorOf runs ListTables with a client of these options and returns
// [error name, message] ('' for a success).
async function errorOf(endpoint, opts) {
  const client = new DynamoDBClient({ endpoint, region, maxAttempts: 1, ...opts })
  try {
    await client.send(new ListTablesCommand({}))
    return ['', '']
  } catch (err) {
    return [err.name, err.message]
  } finally {
    client.destroy()
  }
}

// raw sends ListTables to endpoint with these headers and query and
// returns [status, error type, message].
async function raw(endpoint, { headers = {}, query = '' } = {}) {
  const res = await fetch(endpoint + '/' + query, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.0', ...headers },
    body: '{}',
  })
  const out = JSON.parse(await res.text() || '{}')
  return [res.status, String(out.__type || '').split('#').pop(), out.message || out.Message || '']
}

// presigned is ListTables presigned by the SDK's SignatureV4 (which moves
// X-Amz-Target into the query string, as every SDK presigner does).
async function presigned(endpoint) {
  const url = new URL(endpoint)
  const signer = new SignatureV4({ credentials: key, region, service: 'dynamodb', sha256: Sha256 })
  const req = await signer.presign({
    method: 'POST', protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: '/',
    headers: { host: url.host, 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.ListTables' },
    body: '{}', query: {},
  }, { expiresIn: 300 })
  const query = '?' + Object.entries(req.query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.toLowerCase() !== 'host'))
  return raw(endpoint, { headers, query })
}

const minutes = (n) => n * 60 * 1000

async function withServer(args, fn, adminToken) {
  const emu = await start({ args, adminToken })
  try {
    await fn(emu.endpoint)
  } finally {
    await emu.stop()
  }
}

test('with -credentials: DynamoDB\'s answers', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dynamoemu-credentials-'))
  const file = path.join(dir, 'credentials.json')
  const adminToken = 'js-admin-token-0123456789'
  fs.writeFileSync(file, JSON.stringify({ credentials: [key], adminTokens: [adminToken] }), { mode: 0o600 })
  try {
    await withServer(['-credentials', file], async (endpoint) => {
      assert.deepStrictEqual(await errorOf(endpoint, { credentials: key }), ['', ''])

      const [wrong, wrongMsg] = await errorOf(endpoint, { credentials: { ...key, secretAccessKey: 'not-it' } })
      assert.strictEqual(wrong, 'InvalidSignatureException')
      assert.match(wrongMsg, /^The request signature we calculated does not match the signature you provided\. Check your AWS Secret Access Key and signing method\. Consult the service documentation for details\.\n\nThe Canonical String for this request should have been\n'POST\n\/\n\n/)
      assert.match(wrongMsg, /\n\nThe String-to-Sign should have been\n'AWS4-HMAC-SHA256\n\d{8}T\d{6}Z\n\d{8}\/us-east-1\/dynamodb\/aws4_request\n[0-9a-f]{64}'\n$/)

      assert.deepStrictEqual(await errorOf(endpoint, { credentials: { ...key, accessKeyId: 'AKIAUNKNOWN' } }),
        ['UnrecognizedClientException', 'The security token included in the request is invalid.'])

      const [behind, behindMsg] = await errorOf(endpoint, { credentials: key, systemClockOffset: -minutes(20) })
      assert.strictEqual(behind, 'InvalidSignatureException')
      assert.match(behindMsg, /^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 15 min\.\)$/)

      const [ahead, aheadMsg] = await errorOf(endpoint, { credentials: key, systemClockOffset: minutes(20) })
      assert.strictEqual(ahead, 'InvalidSignatureException')
      assert.match(aheadMsg, /^Signature not yet current: \d{8}T\d{6}Z is still later than \d{8}T\d{6}Z \(\d{8}T\d{6}Z \+ 15 min\.\)$/)

      assert.deepStrictEqual(await raw(endpoint, { headers: { 'x-amz-target': 'DynamoDB_20120810.ListTables' } }),
        [400, 'MissingAuthenticationTokenException', 'Request is missing Authentication Token'])

      const [status, type] = await presigned(endpoint)
      assert.deepStrictEqual([status, type], [400, 'UnknownOperationException'])

      assert.deepStrictEqual(await raw(endpoint, { headers: { 'x-amz-target': 'DynamoDB_20120810.ListTables' }, query: '?X-Amz-Algorithm=AWS4-HMAC-SHA256' }),
        [400, 'IncompleteSignatureException', "AWS query-string parameters must include 'X-Amz-Credential'. AWS query-string parameters must include 'X-Amz-Signature'. " +
          "AWS query-string parameters must include 'X-Amz-SignedHeaders'. AWS query-string parameters must include 'X-Amz-Date'. Re-examine the query-string parameters."])
    }, adminToken)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('without -credentials: any signature works', async () => {
  await withServer([], async (endpoint) => {
    assert.deepStrictEqual(await errorOf(endpoint, { credentials: key }), ['', ''])
    assert.deepStrictEqual(await errorOf(endpoint, { credentials: { ...key, secretAccessKey: 'not-it' } }), ['', ''])
    assert.deepStrictEqual(await errorOf(endpoint, { credentials: { ...key, accessKeyId: 'AKIAUNKNOWN' } }), ['', ''])
    assert.deepStrictEqual(await errorOf(endpoint, { credentials: key, systemClockOffset: -minutes(20) }), ['', ''])
    assert.deepStrictEqual(await errorOf(endpoint, { credentials: key, systemClockOffset: minutes(20) }), ['', ''])
    const [status, type] = await raw(endpoint, { headers: { 'x-amz-target': 'DynamoDB_20120810.ListTables' } })
    assert.deepStrictEqual([status, type], [400, 'MissingAuthenticationTokenException'])
    const [pstatus, ptype] = await presigned(endpoint)
    assert.deepStrictEqual([pstatus, ptype], [400, 'UnknownOperationException'])
  })
})

test('GET / answers healthy, as AWS\'s endpoint does', async () => {
  await withServer([], async (endpoint) => {
    const res = await fetch(endpoint + '/')
    assert.strictEqual(res.status, 200)
    assert.strictEqual(await res.text(), `healthy: ${new URL(endpoint).host} `)
  })
})
